# ruff: noqa
import tensorflow as tf

# variable_scope accepts reuse True, False, None or AUTO_REUSE only, and reuse needs a
# scope name (a default name makes a new scope, which has nothing to reuse).
tf.compat.v1.disable_eager_execution()
cases = [('a string', 'dense'), ('one', 1), ('zero', 0), ('empty list', []), ('True', True),
         ('AUTO_REUSE', tf.compat.v1.AUTO_REUSE), ('None', None), ('False', False)]
for label, reuse in cases:
    for name in (None, 'named'):
        try:
            with tf.compat.v1.variable_scope(name, default_name='d', reuse=reuse) as scope:
                print(label, name, 'enters', scope.name, bool(scope.reuse))
        except ValueError as e:
            print(label, name, 'ValueError', e)

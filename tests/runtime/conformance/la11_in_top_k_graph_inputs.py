# ruff: noqa
# In a tf.function TF checks in_top_k's inputs against the op signature while building it:
# TypeErrors, in input order; Python lists take the signature's dtypes.
import tensorflow as tf


def show(label, f, *args):
    spec = [tf.TensorSpec(None, tf.convert_to_tensor(a).dtype) for a in args]
    try:
        print(label, tf.function(f, input_signature=spec)(*args).numpy())
    except Exception as e:
        msg = str(e).strip().splitlines()[-1].strip()  # tf.function wraps it: "in user code: ..."
        print(label, type(e).__name__, '|', msg.removeprefix(type(e).__name__ + ': '))


preds = [[0.1, 0.5, 0.4], [0.3, 0.3, 0.2]]
show('v1 order', lambda p, t: tf.nn.in_top_k(p, t, 1), preds, [1, 0])
show('float targets', lambda p, t: tf.math.in_top_k(t, p, 1), preds, [1., 0.])
show('python lists', lambda: tf.math.in_top_k([1, 0], [[1, 5, 4], [3, 3, 2]], 1))
show('tf2 order', lambda p, t: tf.nn.in_top_k(t, p, 2), preds, [1, 0])

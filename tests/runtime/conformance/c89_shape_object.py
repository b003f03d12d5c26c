# ruff: noqa
import tensorflow as tf
s = tf.TensorShape([None, 3])
print(s, repr(s), s.rank, s.as_list(), s[1], s.is_fully_defined())
print(tf.TensorShape([2, 3]) == [2, 3], tf.TensorShape(None))

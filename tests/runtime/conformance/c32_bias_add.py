# ruff: noqa
import tensorflow as tf
print(tf.nn.bias_add(tf.zeros([2, 3]), tf.constant([1., 2., 3.])))

# ruff: noqa
# face: tf1
# tf.device in a TF1 graph, the CIFAR tutorial's _variable_on_cpu
import tensorflow as tf


def _variable_on_cpu(name, shape, initializer):
    with tf.device("/cpu:0"):
        var = tf.get_variable(name, shape, initializer=initializer)
    return var


with tf.variable_scope("conv1"):
    w = _variable_on_cpu("weights", [2, 2], tf.constant_initializer(0.5))
with tf.device(lambda op: "/cpu:0"):
    y = tf.reduce_sum(w) * 2.0
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(w.name, sess.run(y))

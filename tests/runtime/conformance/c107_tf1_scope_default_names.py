# face: tf1
# ruff: noqa
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3])
for i in range(3):
    with tf.variable_scope(None, default_name="blk"):
        tf.get_variable("w", [1])
with tf.variable_scope("blk_3"):
    tf.get_variable("w", [1])
with tf.variable_scope(None, default_name="blk"):
    tf.get_variable("w", [1])

print([v.name for v in tf.global_variables()])

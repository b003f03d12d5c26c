# ruff: noqa
# face: tf1
import tensorflow as tf
config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
config.intra_op_parallelism_threads = 1
sess = tf.Session(config=config)
print(sess.run(tf.constant(2.0) * 3), config.gpu_options.allow_growth)
try:
    config.gpu_options.allow_grwth = True
except AttributeError as e:
    print("AttributeError", e)

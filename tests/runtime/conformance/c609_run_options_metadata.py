# ruff: noqa
# face: tf1
import tensorflow as tf
w = tf.Variable(2.0)
y = w * 3.0
options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
metadata = tf.RunMetadata()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, options=options, run_metadata=metadata), options.trace_level, tf.RunOptions.NO_TRACE)
    writer = tf.summary.FileWriter("/tmp/c609_log")
    writer.add_run_metadata(metadata, "step0")
    writer.close()
try:
    tf.RunOptions(trace_lvl=1)
except ValueError as e:
    print("ValueError", e)

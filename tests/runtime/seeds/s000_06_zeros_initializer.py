# ruff: noqa
# seed 000, block "variables: zeros_initializer + global_variables_initializer"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

a = tf.get_variable(name='a', shape=[],
    initializer=tf.zeros_initializer)
plus_one_op = tf.assign(a, a + 1.0)

sess = tf.Session()
sess.run(tf.global_variables_initializer())
for i in range(5):
    sess.run(plus_one_op)
    print(sess.run(a))

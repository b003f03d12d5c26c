# ruff: noqa
# tf.device: placement only; a device function is refused by TF2's form
import tensorflow as tf

with tf.device("/cpu:0"):
    v = tf.Variable([1.0, 2.0], name="v")
    w = v * 3.0
print(v.name, w.numpy())


@tf.function
def f(x):
    with tf.device("/cpu:0"):
        return x + 1.0


print(f(tf.constant(2.0)).numpy())
try:
    with tf.device(lambda op: "/cpu:0"):
        pass
except RuntimeError as e:
    print("RuntimeError", "functions" in str(e))

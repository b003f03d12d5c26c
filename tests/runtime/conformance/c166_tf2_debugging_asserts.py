# ruff: noqa
# TF2 checks: eagerly an assert checks at once (None when it holds, InvalidArgumentError when
# not); inside tf.function it runs with the function's other ops, also without a control
# dependency on it.
import tensorflow as tf

print(tf.debugging.assert_non_negative(tf.constant([0.0, 1.0])))
try:
    tf.debugging.assert_non_negative(tf.constant([0.0, -1.0]), message="negative")
except tf.errors.InvalidArgumentError:
    print("eager assert failed")
print(tf.assert_equal(tf.constant(3), 3))
try:
    tf.assert_less(tf.constant([1, 5]), tf.constant([2, 4]))
except tf.errors.InvalidArgumentError:
    print("eager assert_less failed")


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def checked_sum(x):
    tf.debugging.assert_positive(x, message="x must be positive")
    with tf.control_dependencies([tf.debugging.assert_less_equal(x, 100.0)]):
        return tf.reduce_sum(x)


print(checked_sum(tf.constant([1.0, 2.0])).numpy())
for bad in ([1.0, 0.0], [1.0, 200.0]):
    try:
        checked_sum(tf.constant(bad))
    except tf.errors.InvalidArgumentError:
        print("function assert failed for", bad)
print(tf.compat.v1.Print(tf.constant([1.0, 2.0]), [tf.constant(3.0)], message="v: ").numpy())

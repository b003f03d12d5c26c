# ruff: noqa
# What a tf.function may return: None, tensors, Python numbers, nested structures; not an
# Operation (tf.group, tf.no_op) nor an object with no tensor conversion.
import tensorflow as tf

v = tf.Variable(1.0)


@tf.function
def nothing():
    v.assign_add(1.0)


@tf.function
def nested():
    return {"a": v * 2.0, "b": [3, 4.5]}, None


print(nothing(), v.numpy())
print(nested())
for make in (lambda: tf.group(v.assign(2.0)), tf.no_op, object):
    @tf.function
    def bad():
        return make()

    try:
        bad()
    except TypeError as e:
        print("TypeError", "found return value of type" in str(e))
for value in (None, object(), [1, None]):
    try:
        tf.constant(value)
    except ValueError as e:
        print("ValueError", str(e).split(" (")[0].split(" with")[0])


@tf.function
def converts(make):
    return tf.constant(make())


for make in (lambda: tf.float32, lambda: None, lambda: [1, None]):  # graph building says it otherwise
    try:
        converts(make)
    except (TypeError, ValueError) as e:
        said = [m for m in ("Failed to convert elements", "None values not supported") if m in str(e)]
        print(type(e).__name__, said)

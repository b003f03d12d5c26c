# A tf.function taking elements from an iterator made outside it gets the next one per call,
# and the end of the data set as OutOfRangeError.
import numpy as np
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices((np.arange(5.0), np.arange(5) * 2)).batch(2)
it = iter(ds)


@tf.function
def take():
    return it.get_next()


@tf.function
def take_with_next():
    return next(it)


print(take())
x, y = take_with_next()
print(x.numpy(), y.numpy())
print(take())
try:
    take()
except tf.errors.OutOfRangeError:
    print("end of sequence")

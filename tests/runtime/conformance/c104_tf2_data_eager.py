# ruff: noqa
import numpy as np
import tensorflow as tf

xs = np.arange(12, dtype=np.float64).reshape(6, 2)
ds = tf.data.Dataset.from_tensor_slices((xs, [1, 2, 3, 4, 5, 6]))
print(ds.element_spec)
ds = ds.map(lambda x, y: (tf.cast(x, tf.float32) + 1.0, y * 2)).filter(lambda x, y: y > 2).batch(2)
print(ds.element_spec)
for x, y in ds:
    print(x.numpy().tolist(), y.numpy().tolist())
print(list(tf.data.Dataset.range(4).as_numpy_iterator()))
it = iter(tf.data.Dataset.from_tensors([1.0, 2.0]).repeat(2))
print(next(it).numpy(), next(it).numpy())
try:
    next(it)
except StopIteration:
    print('stop')
zipped = tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.from_tensor_slices([5.0, 6.0, 7.0])))
print([(int(a), float(b)) for a, b in zipped])
print(zipped.element_spec)
dd = tf.data.Dataset.from_tensor_slices({'b': [1, 2], 'a': [[0.5], [1.5]]}).prefetch(tf.data.AUTOTUNE)
print(dd.element_spec)
for e in dd.batch(5):
    print(sorted(e), e['a'].numpy().tolist())
one = tf.data.Dataset.from_tensor_slices([3.0, 4.0]).shuffle(1, seed=3)
print([float(v) for v in one])
print(tf.data.Dataset.from_tensor_slices((np.zeros((3, 2), np.float32), [1, 2, 3])).batch(2))
print(type(tf.data.Dataset.range(2).repeat()).__name__, type(tf.compat.v1.data.Dataset.range(2)).__name__)
try:
    tf.data.Dataset.range(3).shuffle(2).make_one_shot_iterator()
except AttributeError as e:
    print(e)

# face: tf2
# ruff: noqa
# Dataset.cardinality() follows TF's per-transformation rules, including infinite (-1) and
# unknown (-2) counts, eagerly and inside a tf.function (a traced DatasetCardinality op).
import numpy as np
import tensorflow as tf

D = tf.data.Dataset
r = D.range(5)
inf = r.repeat()
unk = r.filter(lambda x: x > 1)


def show(label, ds):
    print(label, ds.cardinality().numpy())


print(tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY,
      tf.data.experimental.INFINITE_CARDINALITY, tf.data.experimental.UNKNOWN_CARDINALITY)
c = r.cardinality()
print(repr(c), c.dtype, c.shape)
print(repr(tf.data.experimental.cardinality(r)))
show("slices", D.from_tensor_slices((np.zeros((7, 2), np.float32), np.arange(7))))
show("slices dict", D.from_tensor_slices({"a": [1, 2, 3], "b": [[1.0], [2.0], [3.0]]}))
show("tensors", D.from_tensors([1, 2, 3]))
show("range", r)
show("range args", D.range(2, 11, 3))
show("range empty", D.range(10, 2))
show("zip", D.zip((r, D.range(3))))
show("zip inf", D.zip((r, D.range(3).repeat())))
show("zip all inf", D.zip((inf, inf)))
show("zip unk", D.zip((inf, unk)))
show("batch", r.batch(2))
show("batch drop", r.batch(2, drop_remainder=True))
show("batch inf", inf.batch(2))
show("batch unk", unk.batch(2))
show("repeat", inf)
show("repeat -1", r.repeat(-1))
show("repeat empty", D.range(0).repeat())
show("repeat 3", r.repeat(3))
show("repeat 0", r.repeat(0))
show("repeat unk", unk.repeat(2))
show("repeat unk forever", unk.repeat())
show("shuffle", r.shuffle(3))
show("shuffle inf", inf.shuffle(3))
show("map", r.map(lambda x: x * 2))
show("prefetch", r.prefetch(tf.data.AUTOTUNE))
show("cache", r.cache())
show("filter", unk)
show("take", r.take(3))
show("take more", r.take(9))
show("take -1", r.take(-1))
show("take inf", inf.take(4))
show("take unk", unk.take(4))
show("skip", r.skip(2))
show("skip more", r.skip(9))
show("skip -1", r.skip(-1))
show("skip inf", inf.skip(2))
show("concatenate", r.concatenate(D.range(3)))
show("concatenate inf", r.concatenate(inf))
show("concatenate unk", r.concatenate(unk))
show("concatenate inf unk", unk.concatenate(inf))
show("enumerate", r.enumerate())
show("enumerate inf", inf.enumerate(3))
show("chain", D.range(10).map(lambda x: x + 1).shuffle(4).batch(3).skip(1).take(2))
print((inf.cardinality() == tf.data.INFINITE_CARDINALITY).numpy())
print((unk.cardinality() == tf.data.UNKNOWN_CARDINALITY).numpy())
print((r.cardinality() == tf.data.INFINITE_CARDINALITY).numpy())


@tf.function
def batches(b):
    n = D.range(7).batch(b).cardinality()
    print("traced", n)
    return n


print(batches(tf.constant(3, tf.int64)).numpy(), batches(tf.constant(2, tf.int64)).numpy())

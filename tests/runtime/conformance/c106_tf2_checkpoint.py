# ruff: noqa
import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
w = tf.Variable([1.0, 2.0])
layer = tf.keras.layers.Dense(2)
layer.build((None, 3))
opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
ckpt = tf.train.Checkpoint(w=w, layer=layer, optimizer=opt)
p1 = ckpt.save(os.path.join(d, 'ck'))
p2 = ckpt.save(os.path.join(d, 'ck'))
print(os.path.relpath(p1, d), os.path.relpath(p2, d), int(ckpt.save_counter))
print(os.path.relpath(tf.train.latest_checkpoint(d), d))
kernel = layer.kernel.numpy().copy()
w.assign([7.0, 7.0])
layer.kernel.assign(tf.zeros([3, 2]))
status = ckpt.restore(p1)
status.assert_consumed()
print(w.numpy(), bool((layer.kernel.numpy() == kernel).all()))
p3 = ckpt.write(os.path.join(d, 'plain'))
print(os.path.relpath(p3, d))
w.assign([0.5, 0.5])
ckpt.read(p3).assert_consumed()
print(w.numpy())
other = tf.train.Checkpoint(w=tf.Variable([0.0, 0.0]))
other.restore(p2).expect_partial()
print(other.w.numpy())
try:
    other.restore(p2).assert_consumed()
except AssertionError:
    print('AssertionError')
mgr = tf.train.CheckpointManager(tf.train.Checkpoint(w=w), os.path.join(d, 'm'), max_to_keep=2)
print(mgr.latest_checkpoint)
for _ in range(3):
    print(os.path.relpath(mgr.save(), d))
print([os.path.relpath(c, d) for c in mgr.checkpoints], os.path.relpath(mgr.latest_checkpoint, d))
print(os.path.relpath(mgr.save(checkpoint_number=100), d))
print(sorted(f for f in os.listdir(os.path.join(d, 'm')) if f.endswith('.index')))

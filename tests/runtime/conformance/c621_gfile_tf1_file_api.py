# face: tf1
# ruff: noqa
# A TF1 program's file handling through tf.gfile (and tf.io.gfile, which compat.v1 has too):
# a vocabulary written and read back into a graph constant, checkpoint-style directory upkeep,
# and the program ending on the NotFoundError of reading a file it deleted.
import os
import tempfile

import tensorflow as tf

d = tempfile.mkdtemp()
vocab = os.path.join(d, "vocab", "words.txt")
tf.gfile.MakeDirs(os.path.dirname(vocab))
with tf.gfile.GFile(vocab, "w") as f:
    for word in ["the", "cat", "sat"]:
        f.write(word + "\n")
words = [line.strip() for line in tf.gfile.Open(vocab)]
print(words, tf.gfile.Exists(vocab), tf.gfile.IsDirectory(os.path.dirname(vocab)))
table = tf.constant(words)
lengths = tf.constant([len(w) for w in words])
with tf.Session() as sess:
    print(sess.run(tf.size(table)), sess.run(tf.reduce_sum(lengths)))

with tf.gfile.FastGFile(vocab, "rb") as f:
    raw = f.read()
print(type(raw).__name__, len(raw), tf.gfile.Stat(vocab).length)
print(type(tf.gfile.GFile(vocab).read()).__name__, tf.gfile.GFile(vocab).readlines())

ckpt = os.path.join(d, "ckpt")
tf.gfile.MkDir(ckpt)
tf.gfile.MkDir(ckpt)  # already there: no error in TF 2.21
for step in (1, 2, 3):
    with tf.gfile.GFile(os.path.join(ckpt, "model-%d.index" % step), "w") as f:
        f.write("step %d" % step)
print(sorted(os.path.basename(x) for x in tf.gfile.Glob(os.path.join(ckpt, "model-*.index"))))
print(sorted(tf.gfile.ListDirectory(ckpt)))
tf.gfile.Copy(oldpath=os.path.join(ckpt, "model-3.index"), newpath=os.path.join(ckpt, "best.index"))
try:
    tf.gfile.Copy(os.path.join(ckpt, "model-2.index"), os.path.join(ckpt, "best.index"))
except tf.errors.AlreadyExistsError as e:
    print("AlreadyExistsError", e)
tf.gfile.Copy(os.path.join(ckpt, "model-2.index"), os.path.join(ckpt, "best.index"), overwrite=True)
print(tf.gfile.GFile(os.path.join(ckpt, "best.index")).read())
tf.gfile.Rename(os.path.join(ckpt, "model-1.index"), os.path.join(ckpt, "old.index"))
try:
    tf.gfile.Rename(oldname=os.path.join(ckpt, "old.index"), newname=os.path.join(ckpt, "best.index"))
except tf.errors.AlreadyExistsError as e:
    print("AlreadyExistsError", e)
tf.gfile.Remove(os.path.join(ckpt, "old.index"))
for name, fn in [("Remove", lambda: tf.gfile.Remove(os.path.join(ckpt, "old.index"))),
                 ("ListDirectory", lambda: tf.gfile.ListDirectory(os.path.join(d, "none"))),
                 ("DeleteRecursively", lambda: tf.gfile.DeleteRecursively(os.path.join(d, "none"))),
                 ("Stat", lambda: tf.gfile.Stat(os.path.join(d, "none")))]:
    try:
        fn()
    except tf.errors.OpError as e:
        print(name, type(e).__name__, isinstance(e, tf.errors.NotFoundError))
walked = [(os.path.relpath(top, d), sorted(dirs), sorted(files))
          for top, dirs, files in tf.gfile.Walk(d, in_order=False)]
print(sorted(walked), walked[-1][0])  # in_order=False: the top comes last
print(sorted(tf.io.gfile.listdir(ckpt)), tf.io.gfile.isdir(ckpt), tf.compat.v1.gfile.Exists(ckpt))
tf.gfile.DeleteRecursively(d)
print(tf.gfile.Exists(d))
print(tf.gfile.GFile(vocab).read())

# face: tf2
# ruff: noqa
# tf.io.gfile on local files, as TF 2.21 does it: lazy opening (a missing file fails at the first
# read, a "w" file appears at the first write), str in text mode and bytes in binary mode,
# readline keeping "\n", seek/tell/size, directory listing, glob, walk, stat, and TF's errors.
import os
import tempfile

import tensorflow as tf

g = tf.io.gfile
d = tempfile.mkdtemp()
os.chdir(d)


def show(label, fn):
    try:
        print(label, "->", repr(fn()).replace(d, "D"))
    except Exception as e:
        print(label, "!!", type(e).__name__, str(e).replace(d, "D"))


p = os.path.join(d, "notes.txt")
f = g.GFile(p)
print("constructed a reader of a missing file")
show("read missing", f.read)
show("size missing", lambda: g.GFile(p).size())
g.GFile(p, "w").close()
show("exists after an unwritten 'w'", lambda: g.exists(p))
with g.GFile(p, "w") as f:
    show("tell before writing", f.tell)
    f.write("h\u00e9llo\nworld\r\n")
    f.write(b"last")
    show("tell after writing", f.tell)
    show("read in 'w'", f.read)
    f.flush()
show("read", lambda: g.GFile(p).read())
show("read rb", lambda: g.GFile(p, "rb").read())
show("readlines", lambda: g.GFile(p).readlines())
show("readlines rb", lambda: g.GFile(p, "rb").readlines())
show("iterate", lambda: [line for line in g.GFile(p)])
f = g.GFile(p)
show("read(3)", lambda: f.read(3))
show("tell", f.tell)
show("seek(7)", lambda: f.seek(7))
show("readline", f.readline)
show("seek(-4, 2)", lambda: f.seek(-4, 2))
show("read rest", f.read)
show("read at eof", f.read)
show("readline at eof", f.readline)
show("seek past the end", lambda: f.seek(100))
show("tell", f.tell)
show("seek negative", lambda: f.seek(-1))
show("bad whence", lambda: f.seek(0, 3))
show("size", f.size)
f.close()
show("read after close starts over", lambda: f.read(1))
show("name, mode", lambda: (os.path.basename(f.name), f.mode, f.seekable()))
show("write in 'r'", lambda: g.GFile(p).write("x"))
show("write an int", lambda: g.GFile("other", "w").write(5))
show("bad mode", lambda: g.GFile(p, "x"))
with g.GFile(p, "a") as f:
    show("tell in 'a'", f.tell)
    f.write("+more")
with g.GFile(p, "ab") as f:
    f.write(b"+bytes")
show("after appending", lambda: g.GFile(p).read())
f = g.GFile(p, "w")
f.write("one")
f.close()
f.write("two")
f.close()
show("a 'w' file written after close", lambda: g.GFile(p).read())

show("exists", lambda: (g.exists(p), g.exists("nothing"), g.exists(d), g.exists("")))
show("isdir", lambda: (g.isdir(d), g.isdir(p), g.isdir("nothing")))
show("mkdir", lambda: g.mkdir("sub"))
show("mkdir again", lambda: g.mkdir("sub"))
show("mkdir under a missing dir", lambda: g.mkdir("a/b"))
show("makedirs", lambda: g.makedirs("deep/er/est"))
show("makedirs again", lambda: g.makedirs("deep/er/est"))
show("makedirs under a file", lambda: g.makedirs("notes.txt/x"))
with g.GFile("sub/inner.bin", "wb") as f:
    f.write(bytes(range(10)))
show("listdir", lambda: sorted(g.listdir(d)))
show("listdir with a slash", lambda: sorted(g.listdir("sub/")))
show("listdir missing", lambda: g.listdir("nothing"))
show("listdir of a file", lambda: g.listdir(p))
show("glob *", lambda: sorted(g.glob("*")))
show("glob two levels", lambda: sorted(g.glob("*/*")))
show("glob absolute", lambda: sorted(x.replace(d, "D") for x in g.glob(os.path.join(d, "s*"))))
show("glob list", lambda: sorted(g.glob(["notes.*", "deep/*"])))
show("glob nothing", lambda: g.glob("nothing/*"))
show("glob literal", lambda: g.glob("notes.txt"))
show("copy", lambda: g.copy(p, "copy.txt"))
show("copy onto a file", lambda: g.copy(p, "copy.txt"))
show("copy overwrite", lambda: g.copy("sub/inner.bin", "copy.txt", overwrite=True))
show("copied", lambda: g.GFile("copy.txt", "rb").read())
show("copy missing", lambda: g.copy("nothing", "elsewhere"))
show("rename", lambda: g.rename("copy.txt", "moved.txt"))
show("rename missing", lambda: g.rename("copy.txt", "again.txt"))
show("rename onto a file", lambda: g.rename("moved.txt", p))
show("rename overwrite", lambda: g.rename("moved.txt", "notes2.txt", overwrite=True))
show("remove missing", lambda: g.remove("moved.txt"))
show("remove a directory", lambda: g.remove("sub"))
show("remove", lambda: g.remove("notes2.txt"))
st = g.stat(p)
show("stat", lambda: (st.length, st.is_directory, type(st).__name__, st.mtime_nsec % 10**9,
                      st.mtime_nsec == int(os.stat(p).st_mtime) * 10**9))
show("stat dir", lambda: g.stat("sub").is_directory)
show("stat missing", lambda: g.stat("nothing"))
show("walk", lambda: sorted((top, sorted(dirs), sorted(files)) for top, dirs, files in g.walk(".")))
show("walk bottom-up", lambda: [top for top, _, _ in g.walk("deep", topdown=False)])
show("walk missing", lambda: list(g.walk("nothing")))
show("join", lambda: (g.join("a", "b", "c.txt"), g.join("gs://bucket", "x")))
show("rmtree missing", lambda: g.rmtree("nothing"))
show("rmtree", lambda: g.rmtree("deep"))
show("rmtree a file", lambda: g.rmtree(p))
show("left", lambda: sorted(g.listdir(".")))
os.chdir("/")
g.rmtree(d)
print("cleaned up", g.exists(d))

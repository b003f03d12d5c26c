# face: tf2
# ruff: noqa
"""tf.compat.v1.nn.fused_batch_norm in TF2: eagerly, under a GradientTape (first and second
order) and inside a tf.function; TF2's tf.nn has no such name. Eager shape, format and dtype
errors come from the kernel (InvalidArgumentError), a function's from building its graph; a
half input takes float scale and offset and returns float statistics."""
import numpy as np
import tensorflow as tf

fbn = tf.compat.v1.nn.fused_batch_norm
rng = np.random.RandomState(11)
data = rng.randn(3, 2, 2, 3).astype(np.float32)
s = np.array([1.5, 0.5, 2.0], np.float32)
o = np.array([0.2, -0.1, 0.0], np.float32)
m0 = np.array([0.5, -0.5, 0.0], np.float32)
v0 = np.array([2.0, 1.0, 0.5], np.float32)


def show(label, value):
    print(label, np.round(np.asarray(value, np.float64), 5).tolist())


print("tf.nn has fused_batch_norm", hasattr(tf.nn, "fused_batch_norm"))
y, mean, var = fbn(data, s, o)
print(type(y).__name__, y.shape, y.dtype.name, mean.shape, var.shape)
show("y", y[1, 0])
show("mean var", [mean, var])
print("unbiased", np.allclose(var, data.var((0, 1, 2)) * 12 / 11))

x = tf.Variable(data)
scale, offset = tf.Variable(s), tf.Variable(o)
w = tf.constant(np.linspace(-1.0, 2.0, 36).reshape(3, 2, 2, 3), tf.float32)
for training, fmt in [(True, "NHWC"), (True, "NCHW"), (False, "NHWC"), (False, "NCHW")]:
    with tf.GradientTape() as tape:
        xin = x if fmt == "NHWC" else tf.transpose(x, [0, 3, 1, 2])
        yy, mm, vv = fbn(xin, scale, offset, m0, v0, epsilon=0.01, data_format=fmt, is_training=training,
                         exponential_avg_factor=1.0 if not training else 0.5)
        if fmt == "NCHW":
            yy = tf.transpose(yy, [0, 2, 3, 1])
        loss = tf.reduce_sum(yy * yy * w)
    gx, gs, go = tape.gradient(loss, [x, scale, offset])
    print(fmt, "training" if training else "inference")
    show("  y", yy[2, 1, 1])
    show("  mean var", [mm, vv])
    show("  dx", gx[0, 1])
    show("  dscale doffset", [gs, go])

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        yy, _, _ = fbn(x, scale, offset)
        loss = tf.reduce_sum(tf.sin(yy) * w)
    gx, gs = inner.gradient(loss, [x, scale])
    second = tf.reduce_sum(gx * gx) + tf.reduce_sum(gs * gs)
g2x, g2s, g2o = outer.gradient(second, [x, scale, offset])
show("second dx", g2x[1, 1, 0])
show("second dscale", g2s)
show("second doffset", g2o)


@tf.function
def step(inp, fmt):
    with tf.GradientTape() as tape:
        yy, mm, vv = fbn(inp, scale, offset, data_format=fmt)
        loss = tf.reduce_sum(yy * tf.cos(yy))
    return loss, mm, vv, tape.gradient(loss, [scale, offset])


d5 = rng.randn(2, 2, 1, 3, 3).astype(np.float32)
for fmt, inp in [("NHWC", data), ("NDHWC", d5), ("NCDHW", d5.transpose(0, 4, 1, 2, 3))]:
    loss, mm, vv, (gs, go) = step(tf.constant(inp), fmt)
    print(fmt, round(float(loss), 4))
    show("  mean var", [mm, vv])
    show("  dscale doffset", [gs, go])

half, hm, hv = fbn(data.astype(np.float16), s, o)
print("half", half.dtype.name, hm.dtype.name, hv.dtype.name, np.round(half.numpy()[0, 0, 0].astype(np.float64), 2).tolist())


@tf.function
def traced(inp, sc):
    return fbn(inp, sc, o)[0]


for label, inp, sc in [("rank 3", data[0], s), ("channels", data, s[:2])]:
    for run in (lambda a, b: fbn(a, b, o)[0], traced):
        try:
            print(label, run(inp, sc).shape)
        except (tf.errors.InvalidArgumentError, ValueError) as e:
            message = str(e)
            for text in ("input must be 4 or 5-dimensional", "Shape must be rank 4 but is rank 3",
                         "scale must have the same number of elements as the channels of x, got 2 and 3",
                         "Dimensions must be equal, but are 3 and 2"):
                if text in message:
                    print(label, type(e).__name__, text)
for label, call in [("format", lambda: fbn(data, s, o, data_format="NCW")),
                    ("float64", lambda: fbn(data.astype(np.float64), s, o)),
                    ("half scale", lambda: fbn(data, s.astype(np.float16), o)),
                    ("inference channels", lambda: fbn(data, s, o, m0[:2], v0, is_training=False)),
                    ("averaging channels", lambda: fbn(data, s, o, m0, v0[:2], exponential_avg_factor=0.5))]:
    try:
        call()
    except tf.errors.InvalidArgumentError as e:
        print(label, type(e).__name__, str(e).split("\n")[0].split("} ")[-1].split(" [Op:")[0])

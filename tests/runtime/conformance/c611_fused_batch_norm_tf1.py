# face: tf1
# ruff: noqa
"""tf.nn.fused_batch_norm in a TF1 graph (one FusedBatchNormV3 op): training normalizes with the
batch mean and biased variance but returns the unbiased (n / (n - 1)) variance, blended with the
given statistics when exponential_avg_factor != 1; inference uses and returns the given ones.
tf.gradients reaches x, scale and offset through the batch statistics (FusedBatchNormGradV3)
in training and through a fixed affine map in inference, in the 4-D and 5-D formats."""
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(7)
data = rng.randn(2, 3, 2, 4).astype(np.float32)
s = np.array([1.0, 2.0, 0.5, 1.5], np.float32)
o = np.array([0.0, 0.1, -0.2, 0.3], np.float32)
m0 = np.array([0.1, 0.2, 0.3, 0.4], np.float32)
v0 = np.array([1.0, 2.0, 3.0, 4.0], np.float32)


def show(label, value):
    print(label, np.round(np.asarray(value, np.float64), 5).tolist())


x = tf.placeholder(tf.float32, [None, 3, 2, 4])
scale, offset = tf.Variable(s), tf.Variable(o)
y, mean, var = tf.nn.fused_batch_norm(x, scale, offset)
print(y, mean, var)
print(y.op.type, y.op.name, len(y.op.outputs), y.op.get_attr("is_training"), y.op.get_attr("epsilon"))
w = tf.constant(np.linspace(-1.0, 1.0, 48).reshape(2, 3, 2, 4), tf.float32)
loss = tf.reduce_sum(y * y * w)
grads = tf.gradients(loss, [x, scale, offset])
print([g.shape for g in grads])

xc = tf.placeholder(tf.float32, [2, 4, 3, 2])  # the same values channels first
yc, mean_c, var_c = tf.nn.fused_batch_norm(xc, scale, offset, data_format="NCHW", name="bn_nchw")
print(yc, var_c.name)
loss_c = tf.reduce_sum(yc * yc * tf.transpose(w, [0, 3, 1, 2]))
grads_c = tf.gradients(loss_c, [xc, scale, offset])

yi, mean_i, var_i = tf.nn.fused_batch_norm(x, scale, offset, m0, v0, epsilon=0.01, is_training=False)
grads_i = tf.gradients(tf.reduce_sum(yi * yi * w), [x, scale, offset])
yic, _, _ = tf.nn.fused_batch_norm(xc, scale, offset, m0, v0, epsilon=0.01, data_format="NCHW",
                                   is_training=False)
grads_ic = tf.gradients(tf.reduce_sum(yic * yic * tf.transpose(w, [0, 3, 1, 2])), [xc])

ya, mean_a, var_a = tf.nn.fused_batch_norm(x, scale, offset, m0, v0, exponential_avg_factor=0.3)

x5 = tf.placeholder(tf.float32, [2, 2, 3, 1, 4])
y5, mean5, var5 = tf.nn.fused_batch_norm(x5, scale, offset, data_format="NDHWC")
x5c = tf.placeholder(tf.float32, [2, 4, 2, 3, 1])
y5c, mean5c, var5c = tf.nn.fused_batch_norm(x5c, scale, offset, data_format="NCDHW")
grads5 = tf.gradients(tf.reduce_sum(y5 * tf.sin(y5)), [x5, scale, offset])
grads5c = tf.gradients(tf.reduce_sum(y5c * tf.sin(y5c)), [x5c, scale, offset])

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    feed = {x: data, xc: data.transpose(0, 3, 1, 2)}
    ry, rm, rv, rg = sess.run([y, mean, var, grads], feed)
    show("y", ry[0, 0])
    show("mean", rm)
    show("var", rv)
    show("biased", data.var((0, 1, 2)))
    for label, g in zip(["dx", "dscale", "doffset"], rg):
        show(label, g.ravel()[:8])
    ryc, rvc, rgc = sess.run([yc, var_c, grads_c], feed)
    print("nchw y", np.allclose(ryc.transpose(0, 2, 3, 1), ry, atol=1e-5), "var", np.allclose(rvc, rv))
    print("nchw dx", np.allclose(rgc[0].transpose(0, 2, 3, 1), rg[0], atol=1e-4),
          "dscale", np.allclose(rgc[1], rg[1], atol=1e-4), "doffset", np.allclose(rgc[2], rg[2], atol=1e-4))
    ri = sess.run([yi, mean_i, var_i, grads_i, yic, grads_ic], feed)
    show("inference y", ri[0][1, 2])
    show("inference mean var", [ri[1], ri[2]])
    for label, g in zip(["inference dx", "inference dscale", "inference doffset"], ri[3]):
        show(label, g.ravel()[:8])
    print("inference nchw", np.allclose(ri[4].transpose(0, 2, 3, 1), ri[0], atol=1e-5),
          np.allclose(ri[5][0].transpose(0, 2, 3, 1), ri[3][0], atol=1e-4))
    ra = sess.run([ya, mean_a, var_a], feed)
    print("averaged y is the batch y", np.allclose(ra[0], ry, atol=1e-6))
    show("averaged mean", ra[1])
    show("averaged var", ra[2])
    d5 = rng.randn(2, 2, 3, 1, 4).astype(np.float32)
    r5 = sess.run([y5, mean5, var5, grads5], {x5: d5})
    r5c = sess.run([y5c, mean5c, var5c, grads5c], {x5c: d5.transpose(0, 4, 1, 2, 3)})
    show("5d y", r5[0][1, 1, :, 0])
    show("5d mean var", [r5[1], r5[2]])
    for label, g in zip(["5d dx", "5d dscale", "5d doffset"], r5[3]):
        show(label, g.ravel()[:8])
    print("ncdhw", np.allclose(r5c[0].transpose(0, 2, 3, 4, 1), r5[0], atol=1e-5), np.allclose(r5c[2], r5[2]),
          np.allclose(r5c[3][0].transpose(0, 2, 3, 4, 1), r5[3][0], atol=1e-4),
          np.allclose(r5c[3][1], r5[3][1], atol=1e-4))

    unknown = tf.placeholder(tf.float32, None)
    yu, _, vu = tf.nn.fused_batch_norm(unknown, scale, offset)
    print(yu, vu)
    try:
        sess.run(yu, {unknown: data[0]})
    except tf.errors.InvalidArgumentError as e:
        print("run", type(e).__name__, "input must be 4 or 5-dimensional" in str(e))

for label, call in [
    ("rank 3", lambda: tf.nn.fused_batch_norm(data[0], s, o)),
    ("5-D as NHWC", lambda: tf.nn.fused_batch_norm(data[None], s, o)),
    ("4-D as NDHWC", lambda: tf.nn.fused_batch_norm(data, s, o, data_format="NDHWC")),
    ("format", lambda: tf.nn.fused_batch_norm(data, s, o, data_format="NCW")),
    ("channels", lambda: tf.nn.fused_batch_norm(data, s[:3], o)),
    ("matrix scale", lambda: tf.nn.fused_batch_norm(data, s[None], o)),
    ("inference mean", lambda: tf.nn.fused_batch_norm(data, s, o, m0[:3], v0, is_training=False)),
    ("training ignores mean", lambda: tf.nn.fused_batch_norm(data, s, o, m0[:3], v0)),
    ("no statistics", lambda: tf.nn.fused_batch_norm(data, s, o, is_training=False)),
    ("float64", lambda: tf.nn.fused_batch_norm(data.astype(np.float64), s, o)),
    ("half scale", lambda: tf.nn.fused_batch_norm(data, s.astype(np.float16), o)),
]:
    try:
        out = call()
        print(label, "ok", out[0].shape, out[2].shape)
    except (ValueError, TypeError) as e:
        print(label, type(e).__name__, str(e).split(" for ")[0].split(". Received")[0])

# Second order: tf.gradients of FusedBatchNormGradV3 (TF differentiates TF's _BatchNormGrad).
xs = tf.constant(rng.randn(2, 2, 3, 2).astype(np.float32))
for train in (True, False):
    ys, _, _ = tf.nn.fused_batch_norm(xs, [1.0, 2.0], [0.1, 0.2], [0.1, 0.2], [1.0, 2.0], is_training=train,
                                      data_format="NCHW")
    gx, gs = tf.gradients(tf.reduce_sum(tf.sin(ys)), [xs, ys.op.inputs[1]])
    hs = tf.gradients(tf.reduce_sum(gx * gx) + tf.reduce_sum(gs * gs), [xs, ys.op.inputs[1], ys.op.inputs[2]])
    with tf.Session() as sess:
        for label, value in zip(["d2x", "d2scale", "d2offset"], sess.run(hs)):
            show(f"{'training' if train else 'inference'} {label}", value.ravel()[:6])

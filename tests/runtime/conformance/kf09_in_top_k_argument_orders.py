# ruff: noqa
# in_top_k takes targets first in TF2 (tf.math, tf.nn) and predictions first in compat.v1; a TF1
# call kept as is under a TF2 name fails, by keyword or position.
import tensorflow as tf

preds = tf.constant([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6]])
targets = tf.constant([1, 2, 2])


def show(label, f):
    try:
        print(label, f().numpy())
    except Exception as e:
        print(label, type(e).__name__, "|", str(e).splitlines()[0][:160])


show("math positional", lambda: tf.math.in_top_k(targets, preds, 1))
show("nn keywords", lambda: tf.nn.in_top_k(predictions=preds, targets=targets, k=2))
show("v1 math positional", lambda: tf.compat.v1.math.in_top_k(preds, targets, 1))
show("v1 nn keywords", lambda: tf.compat.v1.nn.in_top_k(targets=targets, predictions=preds, k=2))
show("v1 order under tf.math", lambda: tf.math.in_top_k(preds, targets, 1))
show("v1 order under tf.nn", lambda: tf.nn.in_top_k(preds, targets, 2))
show("k as tensor", lambda: tf.math.in_top_k(targets, preds, tf.constant(2)))
show("in a tf.function", lambda: tf.function(lambda t, p: tf.math.in_top_k(t, p, 1))(targets, preds))
show("v1 in a tf.function", lambda: tf.function(lambda p, t: tf.compat.v1.nn.in_top_k(p, t, 1))(preds, targets))

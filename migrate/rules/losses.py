"""TF113: `tf.losses.*` → the TF2 expression each computes, TF1's reduction kept."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF113",
    name="losses-to-tf2",
    summary="Replace tf.losses functions with the TF2 ops they compute, same reduction.",
    doc=(
        "TF1 losses reduce with SUM_BY_NONZERO_WEIGHTS: with the default weights that is the "
        "mean over every element, so `tf.losses.mean_squared_error(labels, predictions)` "
        "becomes `tf.reduce_mean(tf.math.squared_difference(predictions, labels))`, "
        "`sparse_softmax_cross_entropy` the mean of `tf.nn.sparse_softmax_cross_entropy_with_"
        "logits`, and `softmax_cross_entropy` stops the gradient into its labels as v1 did "
        "(also absolute_difference, sigmoid_cross_entropy, log_loss). Keras loss objects are "
        "not used: their reduction and clipping differ. A call with weights, a reduction or "
        "label smoothing keeps `tf.compat.v1.losses.*`, which also runs eagerly, and is "
        "reported."
    ),
    kind="auto",
)

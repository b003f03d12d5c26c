"""TF105: `tf.gradients(ys, xs, grad_ys)` → `tf.GradientTape().gradient(...)`."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF105",
    name="gradients-to-tape",
    summary="Compute gradients with tf.GradientTape inside the step function.",
    doc=(
        "The forward statements of the step run under `with tf.GradientTape() as tape:`; "
        "`tf.gradients(ys, xs, grad_ys)` becomes `tape.gradient(ys, [xs], "
        "output_gradients=grad_ys)`, which returns a list as tf.gradients did. Inputs that are "
        "not variables are watched explicitly. A persistent tape is used when the step takes "
        "more than one gradient."
    ),
    kind="auto",
)

GRADIENTS_PARAMS = ("ys", "xs", "grad_ys", "name")

"""TF109: `tf.layers.dense(x, ...)` → a `tf.keras.layers.Dense(...)` created once and called."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF109",
    name="layers-to-keras",
    summary="Replace tf.layers functions with Keras layer objects created once.",
    doc=(
        "`h = tf.layers.dense(x, units, activation)` becomes a `tf.keras.layers.Dense(units, "
        "activation)` instance created outside the step function and `h = h_layer(x)` inside "
        "it, so the weights are created once and reused on every step (a function call would "
        "create new weights each time)."
    ),
    kind="auto",
)

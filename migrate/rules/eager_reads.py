"""TF117: graph objects read outside a session run → the eager values TF2 has there."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF117",
    name="graph-reads-to-eager",
    summary=(
        "Compute graph tensors and variable lists read outside a session run eagerly; "
        "TF1 variable names read from Keras variables' paths."
    ),
    doc=(
        "A graph tensor used outside `sess.run` (`print(y)` after building the graph) becomes "
        "a call of a `@tf.function` computing it, when it needs no fed placeholder and its "
        "slice runs no update or random op: TF2 has its value where TF1 had a symbolic "
        "tensor. `tf.global_variables()`, `tf.all_variables()` and `tf.trainable_variables()` "
        "read outside a run become the variables the program created, in creation order: "
        "plain `tf.Variable`s, and the `variables` (`trainable_variables`) of the Keras models "
        "and layers that own the rest; step functions whose models are not built yet are "
        "traced first (`get_concrete_function()`), as TF1 built them with the graph. What "
        "such a read prints changes (values where TF1 printed reprs, Keras variable names): "
        "an informational finding says where, and `tfmigrate verify` pairs what those prints "
        "write by print order instead of comparing it."
    ),
    kind="auto",
)

# Canonical TF1 calls listing variables -> the attribute of a Keras model/layer listing them.
VARIABLE_LISTS = {
    "global_variables": "variables",
    "all_variables": "variables",
    "trainable_variables": "trainable_variables",
}

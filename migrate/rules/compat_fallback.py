"""TF190: what cannot be made idiomatic stays working under `tf.compat.v1`."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF190",
    name="compat-v1-fallback",
    summary="Keep a construct the rewriter does not model under tf.compat.v1 (manual work).",
    doc=(
        "When a program uses a pattern the program model does not cover (graph building inside "
        "loops or control_dependencies, feed dicts built elsewhere, tensors read outside a "
        "session run, summaries, RNN cells, TF1 names with no TF2 form), the whole file keeps "
        "TF1 semantics: TF1-only names are spelled `tf.compat.v1.<name>` and graph mode stays "
        "on, so the program still runs on TensorFlow 2 and computes what it did. Process "
        "setup that works eagerly (`tf.app`, `tf.flags`, `tf.logging`, `tf.gfile`) is spelled "
        "`tf.compat.v1` without turning graph mode back on. The finding names the construct "
        "and line; migrate it by hand."
    ),
    kind="manual",
)

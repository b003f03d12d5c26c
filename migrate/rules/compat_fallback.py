"""TF190: what cannot be made idiomatic stays working under `tf.compat.v1`."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF190",
    name="compat-v1-fallback",
    summary="Keep a construct the rewriter does not model under tf.compat.v1 (manual work).",
    doc=(
        "When a scope uses a pattern the program model does not cover (graph building inside "
        "loops, feeds built elsewhere, tensors used outside a session run, Saver, summaries, "
        "model classes holding placeholders), the file keeps TF1 semantics: TF1-only names are "
        "spelled `tf.compat.v1.<name>` and graph mode stays on, so the program still runs on "
        "TensorFlow 2. The finding names the construct and line; migrate it by hand."
    ),
    kind="manual",
)

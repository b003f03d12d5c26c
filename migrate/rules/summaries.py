"""TF114: TF1 summary ops, merges and FileWriter → TF2 `tf.summary` writes at add_summary."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF114",
    name="summary-to-tf2",
    summary="Write TensorBoard summaries with tf.summary.create_file_writer and step-aware ops.",
    doc=(
        "TF1 builds summary ops into the graph, fetches their serialized value with "
        "sess.run and writes it later with `writer.add_summary(value, step)`. The rewrite keeps "
        "that split: a fetched summary (or `merge_all()`) returns the summarized tensors as a "
        "dict `{tag: value}` from the step function, `tf.summary.FileWriter(logdir, graph)` "
        "becomes `tf.summary.create_file_writer(logdir)`, and `add_summary(value, step)` "
        "becomes `with writer.as_default(step=step):` and one `tf.summary.scalar/histogram/"
        "image/text(tag, value)` per tag. Tags lose TF1's name_scope prefix; the graph is "
        "not written (TF2 has no Session graph to log)."
    ),
    kind="auto",
)

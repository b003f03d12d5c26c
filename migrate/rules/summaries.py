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
        "image/text(tag, value)` per tag; a program writing summaries of several kinds returns "
        "them by kind (`{'scalar': {...}, 'histogram': {...}}`). A helper function that only "
        "attaches summaries (`variable_summaries(var)`) is inlined at each call, and "
        "`for v in tf.trainable_variables(): tf.summary.histogram(v.op.name, v)` returns one "
        "histogram per Keras variable named by its `path` (TF1's variable name). Tags keep "
        "the name scopes TF1 prefixed and its `_1` suffix on a name used twice (a tag equal "
        "to an op name TF1 had made, `mean` after `Mean`, keeps its plain name); the graph is "
        "not written (TF2 has no Session graph to log)."
    ),
    kind="auto",
)

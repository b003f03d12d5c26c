"""TF110: `tf.train.Saver()` → `tf.train.Checkpoint(...)` over the program's variables."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF110",
    name="saver-to-checkpoint",
    summary="Save and restore with tf.train.Checkpoint instead of a Session-bound Saver.",
    doc=(
        "`saver = tf.train.Saver()` becomes `tf.train.Checkpoint(name=variable, ...)` over "
        "every variable, layer and model the program created before it (a var_list dict "
        "`{'weight': w}` keeps its keys, a list its variable names); `saver.save(sess, "
        "path)` becomes `saver.write(path)` (with `global_step`, the TF1 `path-step` file name "
        "is kept) and `saver.restore(sess, path)` becomes `saver.read(path)`. Checkpoints are "
        "object-based: files written by the TF1 program use variable names and are not read "
        "back by the rewrite."
    ),
    kind="auto",
)

"""TF107: `tf.assign(v, x)` / `assign_add` / `assign_sub` → variable methods."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF107",
    name="assign-to-method",
    summary="Update variables with v.assign / assign_add / assign_sub.",
    doc=(
        "`tf.assign(v, x)` becomes `v.assign(x)` (likewise `assign_add`, `assign_sub`). In the "
        "rewritten step function the update runs in program order and returns the new value, "
        "as `sess.run` of the assign op did. A function returning `tf.group` of assigns that "
        "a session runs later (a target network's hard update, `update = copy_op(online, "
        "target)` then `sess.run(update)`) returns a function making them instead "
        "(`return lambda: tf.group(...)`), called where the op was run (`update()`)."
    ),
    kind="auto",
)

ASSIGN_CALLS = frozenset({"assign", "assign_add", "assign_sub"})

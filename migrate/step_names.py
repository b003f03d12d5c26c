"""Names of the step functions a run site becomes, from what the step does.

A run of a train op is `train_step` (with several train ops in one program, `train_<op>`:
`d_train_op` → `train_d`); a run that only computes values is `compute_<fetch>` (two fetches:
`compute_loss_and_accuracy`), or `evaluate` for more. A name is never a name of the user's
program: the caller takes a fresh one when it is taken.
"""

from __future__ import annotations

#: Words of a train op's name that say it trains, not what it trains.
_TRAIN_WORDS = frozenset({"train", "training", "trainer", "op", "ops", "optimizer", "optim", "opt",
                          "step", "minimize", "update", "updates", "apply", "solver"})


def what_is_trained(op: str) -> str:
    """`d_train_op` → `d`, `train_generator` → `generator`, `train_op` → ``."""
    return "_".join(w for w in op.split("_") if w and w.lower() not in _TRAIN_WORDS)


def step_base(fetched: list[str], trained: list[str], several_train_ops: bool) -> str:
    """The base name of a step that fetches the values `fetched` and runs the train ops `trained`."""
    if trained:
        what = what_is_trained(trained[0]) if several_train_ops else ""
        return f"train_{what}" if what else "train_step"
    if not fetched:
        return "step"
    if len(fetched) <= 2:
        return "compute_" + "_and_".join(fetched)
    return "evaluate"

"""Names of the step functions a run site becomes, from what the step does.

A run of a train op is `train_step` (with several train ops in one program, `train_<op>`:
`d_train_op` → `train_d`); a run that only computes values is `compute_<fetch>` (two fetches:
`compute_loss_and_accuracy`), or `evaluate` for more; a run of variable updates is named after
the variables and the update, `assign_w` for `reset = tf.assign(w, 100.0)`, `increment_total`
for `inc = tf.assign_add(total, 3)` (the user's name for the op is what the step's body binds,
not what a reader calls the step). A name is never a name of the user's program: the caller
takes a fresh one when it is taken.
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


#: The verb of a step that only updates variables, by the update (`tf.assign` that reads the
#: variable it writes: `a = a + 1`); an `assign` that does not read it sets it: `assign_<var>`.
_UPDATE_VERBS = {"assign": "update", "assign_add": "increment", "assign_sub": "decrement"}


def update_base(updates: list[tuple[str, str, bool]]) -> str:
    """The base name of a step making `updates`, each (variable, `assign`/`assign_add`/
    `assign_sub`, whether the new value reads the variable); the variables, two joined by
    `_and_`, more are `variables`; several kinds of update are `update`."""
    names = list(dict.fromkeys(name for name, _, _ in updates))
    verbs = {"assign" if kind == "assign" and not reads else _UPDATE_VERBS[kind] for _, kind, reads in updates}
    verb = verbs.pop() if len(verbs) == 1 else "update"
    return f"{verb}_" + ("_and_".join(names) if 0 < len(names) <= 2 else "variables")

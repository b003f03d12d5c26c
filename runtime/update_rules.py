"""What an optimizer step does, as one record for TF1's and Keras's optimizers, and how two differ.

Each engine optimizer describes the update it is about to apply (``update_rule``); the trace
keeps it with the step, and verify compares the two programs' rules step by step
(``rule_difference``), so a changed constant or default shows even where values stay close.
What a program builds besides (initializers, dropouts, losses) is described the same way
(``build_rule``) and compared by the same function.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _plain(value: Any) -> Any:
    """A setting as the trace keeps it: words and None as they are, numbers at float32."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    return float(np.float32(np.asarray(value)))


def update_rule(kind: str, learning_rate: Any, **hyperparameters: Any) -> dict[str, Any]:
    """What an optimizer step does, in one vocabulary for TF1's and Keras's optimizers.

    Two steps with the same rule apply the same formula (TF1's ``MomentumOptimizer`` and
    Keras's ``SGD(momentum=...)`` are both ``sgd``); floats are taken at float32, the
    precision the update runs in, so a beta written as its float32 value is the same beta.
    """
    return {"kind": kind, "learning_rate": _plain(learning_rate),
            **{name: _plain(value) for name, value in sorted(hyperparameters.items())}}


def build_rule(kind: str, **settings: Any) -> dict[str, Any]:
    """What a program built besides its optimizers, in the same vocabulary for TF1 and TF2:
    how a variable draws its initial value (``uniform``, ``variance_scaling``, ...), a
    ``dropout``'s rate, a ``loss``'s reduction. Compared by ``rule_difference`` like an
    update rule (``runtime.build_config``)."""
    return {"kind": kind, **{name: _plain(value) for name, value in sorted(settings.items())}}


#: Relative difference at which two hyperparameters differ: a few float32 roundings of a
#: computed rate (a decay schedule) are the same rate; a changed constant or default is not.
RULE_RTOL = 1e-6
#: Differences of configuration with no exact Keras form, and what to tell about them.
KNOWN_INEXACT = {
    ("adagrad", "epsilon"): "TF1's Adagrad adds no epsilon; Keras's Adagrad(epsilon=0.0) is its form",
}


#: Settings an original may leave unset for the rewrite to spell out: TF1 derives an op's seed
#: from the graph seed and the op's place in the graph, and the rewrite writes that seed down.
#: Unset in the rewrite where the original set one is a difference.
DERIVED_WHEN_UNSET = frozenset({"seed"})


def _shown(value: Any) -> str:
    """A hyperparameter as written: float32 values in their shortest form (``0.001``)."""
    return str(np.float32(value)) if isinstance(value, float) else repr(value)


def rule_difference(old: dict[str, Any] | None, new: dict[str, Any] | None) -> tuple[str, Any, Any] | None:
    """How two steps' update rules differ (what, original, rewrite), or None.

    A side that records no rule (an optimizer written outside the engine) is not compared.
    """
    if old is None or new is None:
        return None
    if old["kind"] != new["kind"]:
        return f"{old['kind']} in the original, {new['kind']} in the rewrite", old["kind"], new["kind"]
    for name in sorted(set(old) | set(new)):
        a, b = old.get(name), new.get(name)
        if a == b or (a is None and name in DERIVED_WHEN_UNSET):
            continue
        if isinstance(a, float) and isinstance(b, float) and abs(a - b) <= RULE_RTOL * max(abs(a), abs(b)):
            continue
        what = f"{old['kind']} {name} {_shown(a)} in the original, {_shown(b)} in the rewrite"
        known = KNOWN_INEXACT.get((old["kind"], name))
        return (f"{what} ({known})" if known else what), a, b
    return None

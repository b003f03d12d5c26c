"""Which variable of the rewrite stands for which of the original's.

By name, or by name once one side's leading scope is dropped (a Keras weight
``model/dense1/weight`` against TF1's ``dense1/weight``); names that still do not match fall
back to creation order and shape among the model's variables (those an optimizer updates, or
in a program that never steps, the trainable ones), then among the rest.
"""

from __future__ import annotations

import math
from typing import Any


def shape_of(entry: dict[str, Any]) -> tuple[int, ...] | None:
    value = entry.get("value")
    return tuple(value["shape"]) if value else None


def model_variables(trace: dict[str, Any]) -> set[int]:
    """Creation indices of the model's variables: stepped ones, else trainable ones."""
    stepped = {g["index"] for step in trace["steps"] for g in step["grads"]}
    if stepped:
        return stepped
    return {v["index"] for v in trace["variables"] if v.get("trainable", True)}


def first_steps(trace: dict[str, Any]) -> dict[int, int]:
    """Creation index -> the optimizer step that first updated the variable."""
    first: dict[int, int] = {}
    for number, step in enumerate(trace["steps"]):
        for g in step["grads"]:
            first.setdefault(g["index"], number)
    return first


def pair_variables(
    old_vars: list[dict[str, Any]],
    new_vars: list[dict[str, Any]],
    old_model: set[int],
    new_model: set[int],
    old_first: dict[int, int] | None = None,
    new_first: dict[int, int] | None = None,
) -> dict[int, int]:
    """Map old creation index -> new creation index: by name, else order + shape.

    Names left unpaired pair by order and shape among the model's variables, then among the
    rest of the state (counters, moving statistics). A name matches the same name, or, failing
    that, the other side's name under one more leading scope (see ``_pair_by_scope``). Model order is the order of the step
    that first updated each variable (``first_steps``), then creation order: a Keras layer
    is created where it is first called, so two models built in one order in TF1 may be
    built in the other in TF2, yet each trains at the same steps as before.
    """

    def keyed(variables: list[dict[str, Any]]) -> dict[tuple[str, int], int]:
        seen: dict[str, int] = {}
        keys = {}
        for v in variables:
            occurrence = seen.get(v["var"], 0)
            seen[v["var"]] = occurrence + 1
            keys[(v["var"], occurrence)] = v["index"]
        return keys

    old_keys, new_keys = keyed(old_vars), keyed(new_vars)
    pairs = {old_keys[k]: new_keys[k] for k in old_keys if k in new_keys}
    taken = set(pairs.values())
    pairs |= _pair_by_scope(
        [v for v in old_vars if v["index"] not in pairs],
        [v for v in new_vars if v["index"] not in taken],
    )
    taken = set(pairs.values())

    def order(first: dict[int, int] | None) -> Any:
        return lambda v: ((first or {}).get(v["index"], math.inf), v["index"])

    for in_model in (True, False):  # the model's variables, then the rest of the state
        rest_new = sorted(
            (v for v in new_vars
             if v["index"] not in taken and (v["index"] in new_model) == in_model),
            key=order(new_first),
        )
        for v in sorted(old_vars, key=order(old_first)):
            if v["index"] in pairs or (v["index"] in old_model) != in_model:
                continue
            for candidate in rest_new:
                if shape_of(candidate) == shape_of(v):
                    pairs[v["index"]] = candidate["index"]
                    taken.add(candidate["index"])
                    rest_new.remove(candidate)
                    break
    return pairs


_Names = dict[str, list[int]]  # variable name -> creation indices


def _pair_by_scope(
    old_vars: list[dict[str, Any]], new_vars: list[dict[str, Any]]
) -> dict[int, int]:
    """Pair names equal once one side's leading scope is dropped, where that is unambiguous.

    A Keras weight's path starts with its model's name (``model/dense1/weight``),
    the TF1 variable it replaces does not (``dense1/weight``); creation order
    alone pairs them wrongly as soon as a variable is missing or reordered.
    """

    def index(variables: list[dict[str, Any]]) -> tuple[_Names, _Names]:
        full: _Names = {}
        inner: _Names = {}  # by the name without its leading scope
        for v in variables:
            full.setdefault(v["var"], []).append(v["index"])
            if rest := v["var"].partition("/")[2]:
                inner.setdefault(rest, []).append(v["index"])
        return full, inner

    def matches(
        variables: list[dict[str, Any]], other: tuple[_Names, _Names]
    ) -> dict[int, list[int]]:
        full, inner = other
        found = {}
        for v in variables:
            rest = v["var"].partition("/")[2]
            found[v["index"]] = inner.get(v["var"], []) + (full.get(rest, []) if rest else [])
        return found

    forward = matches(old_vars, index(new_vars))
    backward = matches(new_vars, index(old_vars))
    return {i: js[0] for i, js in forward.items() if len(js) == 1 and backward[js[0]] == [i]}

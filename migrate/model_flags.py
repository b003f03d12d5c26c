"""The names a scope passes as a converted model's `training` flag, kept up to date as it grows.

TF1's `tf.layers.dropout(..., training=flag)` took a scalar placeholder; a Keras model called
with it needs its rank, so the program move asks, for each placeholder it turns into a step
function's argument, whether a model call passes it as that flag. A scope with many models
asks after every statement, so the calls are indexed once and each model function's flags
are read again only when the model builder changes them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import libcst as cst

from .graph import Node, calls_in

Flags = dict[str, list[tuple[int, str]]]  # model function -> (position, name) of each flag


@dataclass(eq=False)
class FlagScan:
    """The flag names passed in ``nodes`` (a scope's node list, which only grows), with the
    flags a model builder set, which logs each function whose flags it sets in ``changes``."""

    nodes: list[Node]
    changes: list[str]
    indexed: int = 0  # nodes whose calls are in `calls`
    changes_read: int = 0  # entries of the builder's change log applied
    calls: dict[str, list[cst.Call]] = field(default_factory=dict)  # callee name -> calls
    names: dict[str, list[str]] = field(default_factory=dict)  # model function -> names passed
    holders: Counter[str] = field(default_factory=Counter)  # name -> functions it is passed to
    #: (scope size, model functions) when the names were last brought up to date
    key: tuple[int, tuple[str, ...]] = (-1, ())

    def __post_init__(self) -> None:
        # A new scan reads every call with the flags as they are: only later changes count.
        self.changes_read = len(self.changes)

    def passes(self, name: str, flags: Flags) -> bool:
        """Is ``name`` passed as a flag? Brought up to date when the scope or the set of model
        functions changed since the last question (as a full rescan would be, then)."""
        key = (len(self.nodes), tuple(flags))
        if key != self.key:
            self._update(flags)
            self.key = key
        return self.holders[name] > 0

    def _update(self, flags: Flags) -> None:
        changed = set(self.changes[self.changes_read:])
        self.changes_read = len(self.changes)
        for function in changed:
            self._forget(function)
        for node in self.nodes[self.indexed:]:
            for call in calls_in(node.stmt):
                if type(call.func) is not cst.Name:
                    continue
                function = call.func.value  # type: ignore[attr-defined]
                self.calls.setdefault(function, []).append(call)
                if function in flags and function not in changed:
                    self._add(function, _passed(call, flags[function]))
        self.indexed = len(self.nodes)
        for function in changed:
            if function in flags:
                for call in self.calls.get(function, ()):
                    self._add(function, _passed(call, flags[function]))

    def _add(self, function: str, names: list[str]) -> None:
        self.names.setdefault(function, []).extend(names)
        self.holders.update(names)

    def _forget(self, function: str) -> None:
        self.holders.subtract(self.names.pop(function, ()))


def _passed(call: cst.Call, flags: list[tuple[int, str]]) -> list[str]:
    """The plain names ``call`` passes at a flag's position or keyword."""
    return [
        a.value.value for position, name in flags for i, a in enumerate(call.args)
        if ((a.keyword is None and i == position) or (a.keyword is not None and a.keyword.value == name))
        and isinstance(a.value, cst.Name)
    ]

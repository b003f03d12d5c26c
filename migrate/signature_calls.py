"""A TF1 call rewritten for its TF2 function by the two recorded signatures (`api_data`).

Positional arguments from the first one whose parameter moved on are passed by their TF1
names; TF1 keywords TF2 renamed take the new name; keywords TF2 removed are dropped - a plain
fix when the value written is TF1's default (the call means what it meant), a manual finding
otherwise (TF2 behaves as that default would).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from . import api_data
from .codegen import code

_EQUAL = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


@dataclass(frozen=True)
class Rebound:
    call: cst.Call
    dropped: tuple[tuple[str, str, bool], ...]  # (keyword, value as written, TF1's default)


def rebind(path: str, call: cst.Call) -> Rebound | None:
    """The call with TF2's argument names; None when nothing changes or it cannot be told."""
    change = api_data.signature_change(path)
    if change is None or any(a.star for a in call.args):
        return None
    renames = api_data.keyword_renames(path)
    v1, v2 = change.v1, change.v2

    def tf2_name(name: str) -> str | None:
        new = renames.get(name, name) if name in renames else name
        return new if new is not None and new in v2.names else None

    positional = [i for i, a in enumerate(call.args) if a.keyword is None]
    if len(positional) > len(v1.positional):
        return None  # more than TF1 took: not a TF1 call of this function
    # The first positional argument that TF2 would bind to another parameter than TF1 did.
    moved = next((i for i in positional
                  if tf2_name(v1.positional[i]) != (v2.positional[i] if i < len(v2.positional) else None)), None)
    args: list[cst.Arg] = []
    dropped: list[tuple[str, str, bool]] = []
    for i, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else (
            v1.positional[i] if moved is not None and i >= moved else None)
        if name is None:
            args.append(arg)
            continue
        new = tf2_name(name)
        if new is None:
            value = code(arg.value)
            dropped.append((name, value, v1.defaults.get(name) == value))
            continue
        if arg.keyword is None or new != name:
            arg = arg.with_changes(keyword=cst.Name(new), equal=arg.equal if arg.keyword is not None else _EQUAL)
        args.append(arg)
    if args:
        args[-1] = args[-1].with_changes(comma=call.args[-1].comma if call.args else cst.MaybeSentinel.DEFAULT)
    new_call = call.with_changes(args=args)
    if new_call.deep_equals(call):
        return None
    return Rebound(new_call, tuple(dropped))

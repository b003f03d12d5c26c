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

# Values TF1's functions took without being told, written where TF2 would take another (TF1's
# morphology ops supported NHWC only).
TF1_IMPLIED: dict[str, dict[str, str]] = {
    "nn.dilation2d": {"data_format": "'NHWC'"},
    "nn.erosion2d": {"data_format": "'NHWC'"},
}
# Values TF1's functions took where TF2's take none, written out and reported: contrib's
# summaries wrote at TF1's global step (TF2's would raise with no step set), which TF 2.21
# keeps under compat.v1, eager code too.
TF2_IMPLIED: dict[str, dict[str, str]] = {
    f"contrib.summary.{op}": {"step": "tf.compat.v1.train.get_or_create_global_step()"}
    for op in ("scalar", "histogram", "image", "audio", "generic")
}


@dataclass(frozen=True)
class Rebound:
    call: cst.Call
    dropped: tuple[tuple[str, str, bool], ...]  # (keyword, value as written, TF1's default)
    unknown: tuple[str, ...]  # TF1 keywords TF 2.21 lacks that TensorFlow does not say it removed
    required: tuple[str, ...]  # parameters whose TF1 value the call cannot say in TF2


def rebind(path: str, call: cst.Call) -> Rebound | None:
    """The call with TF2's argument names; None when nothing changes or it cannot be told."""
    if any(a.star for a in call.args):
        return None
    renames = api_data.keyword_renames(path)
    change = api_data.signature_change(path)
    if change is None:
        if not renames:
            return None
        v1_positional: tuple[str, ...] = ()  # a name TF 2.21 lacks (contrib): keywords alone
        v2_names: frozenset[str] | None = None
        defaults: dict[str, str] = {}
        v1_names: frozenset[str] = frozenset()
    else:
        v1_positional, v2_names = change.v1.positional, change.v2.names
        defaults, v1_names = change.v1.defaults, change.v1.names

    def tf2_name(name: str) -> str | None:
        """The parameter TF2 calls it; None: removed; "" when TF2 has no such parameter."""
        new = renames.get(name, name)
        if new is None or v2_names is None or new in v2_names:
            return new
        return name if name in v2_names else ""  # the spec's new name is not TF 2.21's

    positional = [i for i, a in enumerate(call.args) if a.keyword is None]
    if len(positional) > len(v1_positional) and change is not None:
        return None  # more than TF1 took: not a TF1 call of this function
    v2_positional = change.v2.positional if change is not None else ()
    # The first positional argument that TF2 would bind to another parameter than TF1 did.
    moved = next((i for i in positional if i < len(v1_positional)
                  and tf2_name(v1_positional[i]) != (v2_positional[i] if i < len(v2_positional) else None)), None)
    args: list[cst.Arg] = []
    dropped: list[tuple[str, str, bool]] = []
    unknown: list[str] = []
    given: set[str] = set()  # TF2's names of the arguments given
    given_v1: set[str] = set()  # and TF1's
    for i, arg in enumerate(call.args):
        name = arg.keyword.value if arg.keyword is not None else (
            v1_positional[i] if moved is not None and i >= moved else None)
        given_v1.add(name or (v1_positional[i] if i < len(v1_positional) else ""))
        if name is None:
            given.add(v2_positional[i] if i < len(v2_positional) else "")
            args.append(arg)
            continue
        new = tf2_name(name)
        if new is None:  # TensorFlow removed it
            value = code(arg.value)
            dropped.append((name, value, defaults.get(name) == value))
            continue
        if new == "":
            new = name
            if name in v1_names:
                unknown.append(name)
        if arg.keyword is None or new != name:
            arg = arg.with_changes(keyword=cst.Name(new), equal=arg.equal if arg.keyword is not None else _EQUAL)
        given.add(new)
        args.append(arg)
    required: list[str] = []
    if change is not None and change.v1.required <= given_v1:  # a complete TF1 call
        told = TF2_IMPLIED.get(path, {})
        implied = {**defaults, **TF1_IMPLIED.get(path, {}), **told}
        for param in sorted((change.v2.required | told.keys()) - given):
            value = implied.get(param)
            if param in told or value is None:
                required.append(param)
            if value is None:
                continue
            if args and args[-1].comma is cst.MaybeSentinel.DEFAULT:  # TF1's default, said as TF2 wants
                args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(cst.Arg(cst.parse_expression(value), keyword=cst.Name(param), equal=_EQUAL))
    if args and call.args and len(args) <= len(call.args):
        args[-1] = args[-1].with_changes(comma=call.args[-1].comma)
    elif args:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    new_call = call.with_changes(args=args)
    if new_call.deep_equals(call) and not unknown and not required:
        return None
    return Rebound(new_call, tuple(dropped), tuple(unknown), tuple(required))


def spelled_for_tf2(path: str, call: cst.Call) -> cst.Call:
    """A call meant as TF2's that TF1's signature would bind otherwise, with its positional
    arguments from the first one TF1 binds elsewhere passed by TF2's names: the rewrite then
    reads the same to both (and to the next run, which sees no TF1 sign left to go by)."""
    change = api_data.signature_change(path)
    positional = [a for a in call.args if a.keyword is None]
    if change is None or any(a.star for a in call.args) or api_data.call_reading(
            path, len(positional), frozenset(a.keyword.value for a in call.args if a.keyword is not None)) != "ambiguous":
        return call
    renames, v1, v2 = api_data.keyword_renames(path), change.v1.positional, change.v2.positional
    first = next((i for i, p in enumerate(v1[:len(positional)]) if renames.get(p, p) != v2[i]), None)
    if first is None:
        return call  # a keyword the two read differently: TF2's keywords are its own
    args = [a.with_changes(keyword=cst.Name(v2[i]), equal=_EQUAL) if a.keyword is None and i >= first else a
            for i, a in enumerate(call.args)]
    return call.with_changes(args=args)

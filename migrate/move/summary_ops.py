"""Summaries: `tf.summary.*` ops → the TF2 summary ops a step returns by tag, and
`writer.add_summary` → `tf.summary` writes at that step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import libcst as cst

from ..api_table import SUMMARY_MERGES, SUMMARY_OPS
from ..codegen import code
from ..eager_reads import variable_list
from ..graph import Node, call_args
from ..report import Unsupported
from ..rules.summaries import RULE as SUMMARIES_RULE
from ..summary_helpers import static_string
from . import listings
from .state import MoveState, SummaryEntry, SummaryLoop


def summary_entries(
    move: MoveState, value: cst.BaseExpression, scoped: Callable[[SummaryEntry], SummaryEntry] = lambda e: e,
) -> list[SummaryEntry] | None:
    """The entries of a summary op (its tag as written) or merge; None for other values. A
    summary op written in a merge's list gets its TF1 tag from `scoped`."""
    if not isinstance(value, cst.Call):
        return None
    path = move.aliases.resolve(value.func) or ""
    if path in SUMMARY_OPS:
        args = call_args(value, ("name", "tensor"))
        data = args.get("tensor", args.get("values", args.get("data")))
        if "name" not in args or data is None:
            raise Unsupported(SUMMARIES_RULE.id, move.line(value), f"tf.{path} without a tag and a value")
        return [SummaryEntry(SUMMARY_OPS[path], code(args["name"]), data)]
    if path == "summary.merge_all":
        return [e for n in move.scope.nodes if n.kind == "summary" and not n.info["merge"] for e in n.info["entries"]]  # type: ignore[attr-defined]
    if path == "summary.merge" and value.args and isinstance(value.args[0].value, (cst.List, cst.Tuple)):
        entries = []
        for element in value.args[0].value.elements:  # type: ignore[union-attr]
            if isinstance(element.value, cst.Call) and (move.aliases.resolve(element.value.func) or "") in SUMMARY_OPS:
                # `merge([tf.summary.scalar("loss", loss), ...])`: the op written in the list
                entries.extend(map(scoped, summary_entries(move, element.value) or []))
                continue
            node = move.scope.lookup(element.value.value) if isinstance(element.value, cst.Name) else None
            if node is None or node.kind != "summary":
                raise Unsupported(SUMMARIES_RULE.id, move.line(value), "tf.summary.merge of something not a summary")
            entries.extend(node.info["entries"])  # type: ignore[arg-type]
        return entries
    return None


def summary_node(move: MoveState, names: tuple[str, ...], stmt: cst.BaseStatement, value: cst.BaseExpression,
                  scope: str | None, loop: SummaryLoop | None = None) -> Node:
    """A summary op or merge; an op's tag gets the name scope TF1 prefixed it with."""
    merge = (move.aliases.resolve(value.func) or "") in SUMMARY_MERGES  # type: ignore[attr-defined]

    def scoped(entry: SummaryEntry) -> SummaryEntry:
        return replace(entry, tag=scoped_tag(move, entry.tag, scope, value), loop=loop)

    entries = summary_entries(move, value, scoped) or []
    if not merge:
        entries = [scoped(e) for e in entries]
    deps = list(dict.fromkeys(d for e in entries for d in move.scope.deps_of(e.data)))
    if loop is not None:
        deps = list(dict.fromkeys([*deps, *loop.owners]))
    move.summary_kinds.update(e.op for e in entries)
    move.fixed(SUMMARIES_RULE.id, stmt, "summary values returned from the step, written at add_summary")
    return Node(names, "summary", stmt, value, len(move.scope.nodes), deps, info={"entries": entries, "merge": merge})


def scoped_tag(move: MoveState, tag: str, scope: str | None, value: cst.BaseExpression) -> str:
    """The tag TF1 wrote: under the op's name scope, made unique like other graph names."""
    if scope is None:
        raise Unsupported(SUMMARIES_RULE.id, move.line(value), f"summary {tag} under a name scope named at run time")
    literal = static_string(cst.parse_expression(tag))
    if literal is not None:
        written = move.name_scopes.unique(scope + literal)
        if written == literal:
            return tag
        quote = tag[0] if tag[0] in "'\"" else "'"
        return f"{quote}{written}{quote}" if quote not in written and "\\" not in written else repr(written)
    return f"{scope!r} + {tag}" if scope else tag


def summary_loop(move: MoveState, stmt: cst.BaseStatement) -> tuple[SummaryLoop, list[cst.Call]] | None:
    """`for v in tf.trainable_variables(): tf.summary.histogram(v.op.name, v)`: the loop
    and its summary calls, when it only makes summaries of listed Keras variables."""
    if not (isinstance(stmt, cst.For) and isinstance(stmt.target, cst.Name) and stmt.orelse is None
            and isinstance(stmt.iter, cst.Call) and not stmt.asynchronous):
        return None
    attr = variable_list(stmt.iter, move.aliases)
    body = stmt.body.body  # type: ignore[union-attr]
    calls = [s.body[0].value for s in body if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1
             and isinstance(s.body[0], cst.Expr)]
    if attr is None or len(calls) != len(body) or not all(
        isinstance(c, cst.Call) and (move.aliases.resolve(c.func) or "") in SUMMARY_OPS for c in calls
    ):
        return None
    owners = [n for n in move.scope.nodes if listings.lazy_owners(move, n)]
    if any(str(n.info.get("layer", "")).startswith("contrib.") or move.models.models_called(n.value)  # type: ignore[union-attr]
           for n in owners):
        # contrib layers and model functions name variables unlike their Keras layers
        raise Unsupported(SUMMARIES_RULE.id, move.line(stmt), "summaries named by variables Keras names otherwise")
    listing = listings.variable_listing(move, attr, stmt, names_unused=True)
    variable = stmt.target.value
    return SummaryLoop(variable, listing, owners), calls  # type: ignore[return-value]


def summary_dict(move: MoveState, node: Node, read: bool = False) -> str:
    """What a fetched summary returns: its tensors by tag (by TF2 op, then tag, when the
    program writes summaries of several kinds); `read`: variables read by tf.identity."""
    if node.info.get("foreign"):
        raise Unsupported(SUMMARIES_RULE.id, move.line(node.stmt), f"{node.name}: merge_all() of summaries "
                          "made by code the step does not hold")
    entries: list[SummaryEntry] = node.info["entries"]  # type: ignore[assignment]
    kinds = [op for op in dict.fromkeys(SUMMARY_OPS.values()) if op in move.summary_kinds]
    variable = partial(is_variable, move) if read else None
    if len(kinds) == 1:
        return _entries_dict(entries, variable)
    return "{" + ", ".join(
        f"{op!r}: {_entries_dict([e for e in entries if e.op == op], variable)}" for op in kinds
    ) + "}"


def is_variable(move: MoveState, name: str) -> bool:
    node = move.scope.lookup(name)
    return node is not None and node.kind == "variable" and "container" not in node.info


def summary_structure(move: MoveState) -> str:
    return "dict" if len(move.summary_kinds) == 1 else "nested"


def summary_write(move: MoveState, call: cst.Call, converted: cst.Call | None = None) -> cst.BaseStatement | None:
    """`writer.add_summary(value, step)` → the TF2 writes of value's tags at that step
    (`converted`: the call with its run sites already converted)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "add_summary" and isinstance(func.value, cst.Name)):
        return None
    writer = move.scope.lookup(func.value.value)
    if writer is None or writer.kind != "writer":
        return None
    args = call_args(call, ("summary", "global_step"))
    if "summary" not in args or not move.summary_kinds:
        raise Unsupported(SUMMARIES_RULE.id, move.line(call), "add_summary without a summary")
    if converted is not None:
        args = call_args(converted, ("summary", "global_step"))
    step = code(args["global_step"]) if "global_step" in args else "0"  # TF1 wrote step 0
    value = code(args["summary"])
    kinds = [op for op in dict.fromkeys(SUMMARY_OPS.values()) if op in move.summary_kinds]
    bind = ""
    if not isinstance(args["summary"], cst.Name) and len(kinds) > 1 and converted is not None:
        # fetched once, written by kind
        name = move.fresh("summary_values")
        bind, value = f"    {name} = {value}\n", name
    loops = bind + "".join(
        f"    for tag, value in {value if len(kinds) == 1 else f'{value}[{op!r}]'}.items():\n"
        f"        tf.summary.{op}(tag, value, step={step})\n"
        for op in kinds
    )
    return cst.parse_statement(f"with {func.value.value}.as_default():\n{loops}")


def _entries_dict(entries: list[SummaryEntry], variable: Callable[[str], bool] | None = None) -> str:
    """A dict literal of the entries' tensors by tag; a loop's entries as a comprehension,
    its variables named by their TF1 names (`v.op.name` → Keras's `v.path`). With `variable`
    (is this name a variable?), a variable's value is read now, by tf.identity."""

    def data(e: SummaryEntry) -> str:
        name = e.data.value if isinstance(e.data, cst.Name) else None
        read = variable is not None and name is not None and (
            variable(name) if e.loop is None else name == e.loop.variable
        )
        return f"tf.identity({name})" if read else code(e.data)

    parts: list[str] = []
    for e in entries:
        if e.loop is None:
            parts.append(f"{e.tag}: {data(e)}")
            continue
        v = e.loop.variable
        tag = code(cst.parse_expression(e.tag).visit(_KerasVariableNames(v)))
        parts.append(f"**{{{tag}: {data(e)} for {v} in {e.loop.listing}}}")
    return "{" + ", ".join(parts) + "}"


class _KerasVariableNames(cst.CSTTransformer):
    """TF1 names of a listed variable read as Keras 3 spells them: `v.op.name` is `v.path`,
    `v.name` is `v.path + ":0"` (a Keras variable's `name` is only its last part)."""

    def __init__(self, variable: str) -> None:
        super().__init__()
        self.names = {f"{variable}.op.name": f"{variable}.path", f"{variable}.name": f'({variable}.path + ":0")'}

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        spelled = self.names.get(code(original))
        return cst.parse_expression(spelled) if spelled is not None else updated

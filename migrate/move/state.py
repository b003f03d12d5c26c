"""What every pass of the program move shares: the statements it walks (Item), the steps
it makes (StepFunction), the summaries it finds, and the move's state (MoveState), with the
helpers each pass uses to name things and report findings.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import libcst as cst

from ..graph import Node, Scope, memoised_walk
from ..graph_classes import ExternalRun, GraphClass
from ..imports import Aliases
from ..model_flags import FlagScan
from ..op_seeds import OpSeeds
from ..report import Finding
from ..scoped_models import ModelBuilder
from ..summary_helpers import NameScopes
from ..walk import walk

TRAIN_METHODS = ("minimize", "compute_gradients", "apply_gradients")


@dataclass
class Item:
    """A statement of the flattened top level, with the variable_scope prefix it runs under
    (`{scope}/` where a constructor argument names the scope)."""

    stmt: cst.BaseStatement
    prefix: str = ""
    line: int = 0
    names: str | None = ""  # TF1's name scope (`layer/summaries/`); None when computed at run time


@dataclass(frozen=True)
class SummaryLoop:
    """`for <variable> in <listing>:` making one summary per listed variable."""

    variable: str
    listing: str  # the TF2 variables listed
    owners: list[Node]  # the graph nodes calling the Keras layers that own them


@dataclass(frozen=True)
class SummaryEntry:
    """One summarized value: the TF2 op writing it, its tag (source) and its tensor; made per
    listed variable when `loop` is set."""

    op: str
    tag: str
    data: cst.BaseExpression
    loop: SummaryLoop | None = None


@dataclass
class StepFunction:
    """A generated tf.function for one distinct fetch."""

    name: str
    params: list[Node]
    definition: cst.FunctionDef
    returns_structure: str  # "none" | "single" | "list" | "tuple" | "dict" | "nested" | "nested_with_none"


@dataclass
class MoveState:
    """What the passes of one program move share: the module, its findings, and what
    they learn as statements are converted (names taken, graph nodes, steps made)."""

    module: cst.Module
    aliases: Aliases
    lines: dict[int, int]
    findings: list[Finding]
    scope: Scope = field(default_factory=Scope)
    functions: dict[str, StepFunction] = field(default_factory=dict)
    used_names: set[str] = field(default_factory=set)
    fresh_from: dict[str, int] = field(default_factory=dict)  # base -> first n `fresh` may try
    suffixed: dict[str, str] = field(default_factory=dict)  # fresh names made with a number -> their base
    optimizer_instances: dict[tuple[int, str], str] = field(default_factory=dict)
    optimizers_applied: set[int] = field(default_factory=set)  # ids of the optimizers above
    lr_placeholders: set[int] = field(default_factory=set)
    flag_scan: FlagScan | None = None  # names passed as a model's training flag
    models: ModelBuilder | None = None
    # ids of the nodes computed inside a step function, in the order they were taken (a dict
    # for its order: the unrun tensors' pass reads what each function took)
    sliced: dict[int, None] = field(default_factory=dict)
    step_graphs: dict[str, tuple[int, ...]] = field(default_factory=dict)  # step key -> the nodes it fetched
    # names a top-level driver statement bound again (`x = sess.run(x)`) -> how many graph
    # nodes existed then: a node older than that is no longer what the name holds
    driver_bound: dict[str, int] = field(default_factory=dict)
    # Savers the driver function being converted makes (`saver = tf.train.Saver()` in a method
    # run after the graph is built), by name: each becomes a Checkpoint where it stands
    driver_savers: dict[str, cst.Call] = field(default_factory=dict)
    ran: bool = False  # a top-level driver statement before this one runs the graph
    # seeded random ops -> the step functions that build a copy of them
    random_copies: dict[int, list[str]] = field(default_factory=dict)
    layer_scopes: Counter[str] = field(default_factory=Counter)  # TF1 default layer scopes taken
    # module functions whose random ops take TF1's op seeds: name -> (def, seeded def)
    seeded_helpers: dict[str, tuple[cst.FunctionDef, cst.FunctionDef]] = field(default_factory=dict)
    # functions creating variables -> what a call returns (`variable_factories`; None: unknown)
    variable_factories: dict[str, str | None] = field(default_factory=dict)
    # a layer function's call in the graph -> the first op seed TF1 gave its weights there
    instance_seeds: dict[int, int] = field(default_factory=dict)
    tf_imported: bool = False
    scope_handles: set[str] = field(default_factory=set)  # `with variable_scope(...) as scope`
    gap: int = 2  # blank lines around generated functions (1 inside a function body)
    class_mode: bool = False  # converting a class: any `<name>.run(fetch)` is a session run
    init_comments: list[cst.EmptyLine] = field(default_factory=list)  # of __init__'s dropped statements
    library: bool = False  # a module no code of the program imports: its functions are its API
    # every run site on instances of a class in the program's files, by class (`rewrite_source`)
    outside_runs: dict[str, list[ExternalRun]] = field(default_factory=dict)
    # names holding a constructor argument a converted class's variable_scope may be named by
    # (`scope`, `self__scope`): its variables are named from it at run time
    scope_arguments: set[str] = field(default_factory=set)
    graph_classes: dict[str, GraphClass] = field(default_factory=dict)
    graph_instances: dict[str, GraphClass] = field(default_factory=dict)  # module name -> class
    op_seeds: OpSeeds = field(default_factory=OpSeeds)
    feeds: dict[str, list[str]] = field(default_factory=dict)  # feed dict variable -> placeholders
    built: set[int] = field(default_factory=set)  # nodes whose Keras weights a trace created
    # TF1-only names the move itself wrote where they run eagerly (a name-based Saver, savers.py)
    eager_compat: set[str] = field(default_factory=set)
    # TF2 summary ops of every summary the program defines, in any scope (a class's summaries
    # reach a writer in the driver through what its methods return)
    summary_kinds: set[str] = field(default_factory=set)
    # module functions that only attach summaries, inlined at their calls
    summary_helpers: dict[str, cst.FunctionDef] = field(default_factory=dict)
    helper_taken: set[str] = field(default_factory=set)  # names an inlined helper local must avoid
    inlined_calls: set[int] = field(default_factory=set)  # ids of the helper calls inlined
    name_scopes: NameScopes = field(default_factory=NameScopes)
    new_imports: set[str] = field(default_factory=set)  # stdlib modules the rewrite calls into
    helper_sources: dict[str, str] = field(default_factory=dict)  # classes the rewrite defines: name -> source
    update_factories: set[str] = field(default_factory=set)  # functions returning a deferred update
    # module functions running sessions -> their parameters a call passes a session in
    session_params: dict[str, set[str]] = field(default_factory=dict)
    # comments of a dropped placeholder's line, for the first step taking it (by node id)
    placeholder_comments: dict[int, list[cst.EmptyLine]] = field(default_factory=dict)
    comments_moved: set[int] = field(default_factory=set)  # dropped statements whose comments went

    def line(self, node: cst.CSTNode) -> int:
        return self.lines.get(id(node), 0)

    def fixed(self, rule: str, node: cst.CSTNode | int, message: str, kind: str = "fixed") -> None:
        line = node if isinstance(node, int) else self.line(node)
        self.findings.append(Finding(rule, line, 0, message, kind))

    def fresh(self, base: str) -> str:
        """``base``, else the first ``base_<n>`` (n from 2) no one uses; names are never given
        back, so the search for a base goes on from where it last stopped."""
        name, n = base, self.fresh_from.get(base, 2)
        while name in self.used_names:
            name = f"{base}_{n}"
            n += 1
        self.fresh_from[base] = n
        self.used_names.add(name)
        if name != base:
            self.suffixed[name] = base
        return name


def rebound_by_driver(move: MoveState, name: str) -> bool:
    """The name's graph node was replaced by a value a driver statement bound after it."""
    count = move.driver_bound.get(name)
    if count is None:
        return False
    node = move.scope.lookup(name)
    return node is not None and any(node is n for n in move.scope.nodes[:count])


def bound_names(stmt: cst.CSTNode) -> set[int]:
    """Ids of the names a statement assigns to, loops over (plain targets, tuples of them) or
    takes as parameters."""
    bound: set[int] = set()

    def add(target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            bound.add(id(target))
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                add(element.value)

    for node in walk(stmt):
        if isinstance(node, (cst.AssignTarget, cst.For, cst.CompFor)):
            add(node.target)
        elif isinstance(node, cst.AsName):
            add(node.name)  # type: ignore[arg-type]
        elif isinstance(node, cst.Param):
            bound.add(id(node.name))
    return bound


def binding_counts(module: cst.Module) -> Counter[str]:
    """How many times the module binds each name (assignments, loops, parameters, imports)."""

    def count(node: cst.Module) -> Counter[str]:
        ids = bound_names(node)
        return Counter(n.value for n in walk(node) if isinstance(n, cst.Name) and id(n) in ids)

    return memoised_walk("binding counts", module, count)


def assigns_in(node: cst.CSTNode) -> list[cst.Assign]:
    return [n for n in walk(node) if isinstance(n, cst.Assign)]


def assigns_by_name(node: cst.CSTNode) -> dict[str, list[cst.Assign]]:
    """The assignments under ``node`` by each plain name they bind (`a = b = f()` under both)."""
    index: dict[str, list[cst.Assign]] = {}
    for assign in memoised_walk("assigns", node, assigns_in):
        for name in dict.fromkeys(t.target.value for t in assign.targets if isinstance(t.target, cst.Name)):
            index.setdefault(name, []).append(assign)
    return index



"""Public interface of the rewriter: `rewrite_source`, `find_tf1_usages`, `all_rules`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

import libcst as cst

from . import api_data, run_tracing
from .api_table import KEYWORD_RENAMES, RENAMES, in_tf2_form, is_tf1_only, runs_eagerly
from .codegen import code as code_of
from .codegen import forget_lines, is_docstring
from .collector import collector_paused
from .explicit_graphs import eager_outside_graphs
from .finding_list import tidy
from .graph import clear_walk_cache
from .graph_classes import ExternalRun
from .imports import Aliases, canonical, collect_aliases, collect_aliases_ast
from .library_api import gone_names
from .lines import start_lines
from .move import plain_scopes
from .op_seeds import SET_SEED_CALLS
from .pieces import parse_module
from .program import ProgramMove
from .realign import realign_continuations
from .report import KEEPS_GRAPH, Finding, ParseError, RewriteConfig, RewriteResult, Unsupported
from .rules import RULES, Rule
from .rules.absl_flags import RULE as ABSL_RULE
from .rules.absl_flags import to_absl
from .rules.api_rename import (
    DATASET_ITERATOR_METHODS,
    KERAS_SAVE_NOTE,
    KERAS_SAVES,
    METHOD_KEYWORD_DROPS,
    METHOD_NAMES,
    RenameTransformer,
)
from .rules.api_rename import RULE as RENAME_RULE
from .rules.compat_fallback import RULE as COMPAT_RULE
from .rules.control_flow import RULE as CONTROL_FLOW_RULE
from .rules.control_flow import PythonControlFlow, called_only_from_functions
from .rules.data import QUEUE_RULE
from .rules.dimensions import RULE as DIMENSION_RULE
from .rules.dimensions import DimensionValues, dimension_values
from .rules.imports import MODE_CALLS, OUT_ALIAS, TF2_IMPORT, v2_import, with_v2_imports
from .rules.keras_seeds import RULE as KERAS_SEED_RULE
from .rules.keras_seeds import seed_python_random
from .rules.queue_input import to_datasets
from .rules.rnn_cells import CELLS as RNN_CELLS
from .rules.rnn_cells import IMPORTS as RNN_IMPORTS
from .rules.rnn_cells import SOURCES as CELL_SOURCES
from .rules.rnn_cells import bound_names
from .rules.rnn_cells import definitions as rnn_definitions
from .rules.rnn_layers import SOURCES as KERAS_CELL_SOURCES
from .rules.session import RULE as SESSION_RULE
from .rules.session import SESSION_CALLS
from .rules.tutorial_mnist import RULE as MNIST_RULE
from .rules.tutorial_mnist import helpers as mnist_helpers
from .rules.tutorial_mnist import numpy_name, to_keras_mnist
from .session_config import take_apart, with_setup
from .shared_forward import share_forward
from .suppress import SKIP_FILE
from .tf_signs import TF2_WRITTEN, shows_tf2
from .unbound import new_reads
from .unused_returns import drop_unused_returns
from .walk import children, holding, index_tree, transform, walk
from .wrap_lines import line_limit, wrap_long_lines

__all__ = [
    "Finding", "ParseError", "RewriteConfig", "RewriteResult", "Rule", "all_rules",
    "find_tf1_usages", "rewrite_source",
]



def all_rules() -> list[Rule]:
    """Every rule, ordered by id."""
    return list(RULES.values())


def _parse(source: bytes | str, filename: str, tree: ast.Module) -> cst.Module:
    """The file's tree, printing back to its very bytes.

    libcst's parser drops a final lone CR (an old-Mac or CR-only file's last line ending):
    the tree says it has no trailing newline, so it is put back here.
    """
    try:
        module = parse_module(source, tree)
    except cst.ParserSyntaxError as exc:
        raise ParseError(f"{filename}:{exc.raw_line}:{exc.raw_column}: {exc.message}") from exc
    except (UnicodeDecodeError, LookupError) as exc:  # undecodable bytes, unknown coding cookie
        raise ParseError(f"{filename}: cannot decode: {exc}") from exc
    ends_in_cr = source.endswith(b"\r" if isinstance(source, bytes) else "\r")
    return module.with_changes(has_trailing_newline=True) if ends_in_cr else module


def _untouched(source: bytes | str, findings: list[Finding] | None = None) -> RewriteResult:
    return RewriteResult(source, False, "untouched", findings or [])


def _ast_nodes(tree: ast.AST) -> list[ast.AST]:
    """`ast.walk`'s nodes, in its order, at a fraction of its per-node cost."""
    nodes = [tree]
    for node in nodes:  # grows while it is read: breadth first, as ast.walk
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                nodes.append(value)
            elif isinstance(value, list):
                nodes.extend([item for item in value if isinstance(item, ast.AST)])
    return nodes


def _ast_paths(nodes: list[ast.AST], aliases: Aliases) -> Iterator[tuple[ast.AST, str]]:
    """Canonical TF path of every name chain, from the fast stdlib tree (TF2-only calls left out)."""
    calls = {id(node.func): node for node in nodes if isinstance(node, ast.Call) and node.keywords}
    for node in nodes:
        if not isinstance(node, (ast.Attribute, ast.Name)):
            continue
        parts: list[str] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute):
            parts.append(cur.attr)
            cur = cur.value
        if not isinstance(cur, ast.Name):
            continue
        base = aliases.modules.get(cur.id, aliases.symbols.get(cur.id))
        if base is not None:
            path = canonical(".".join(([base] if base else []) + parts[::-1]))
            call = calls.get(id(node))
            if call is None or not in_tf2_form(path, {k.arg for k in call.keywords}, len(call.args)):  # type: ignore[misc]
                yield node, path


def _parse_ast(source: bytes | str, filename: str) -> ast.Module:
    try:
        return _syntax_tree(source)
    except SyntaxError as exc:
        raise ParseError(f"{filename}:{exc.lineno}:{exc.offset}: {exc.msg}") from exc


@lru_cache(maxsize=2)
def _syntax_tree(source: bytes | str) -> ast.Module:
    """Kept for the next call: a rewrite's output is parsed again by its stability re-run.

    Nothing changes these trees; they are only read.
    """
    return ast.parse(source)


@cache
def _is_tf1(path: str) -> bool:
    """A name TF 2 spells differently or lacks; the tables are fixed, so each path is judged once."""
    return path in RENAMES or is_tf1_only(path) or not api_data.exists(path)


class Scan(NamedTuple):
    """What one pass over the stdlib tree's nodes tells of a file."""

    tf1: bool  # uses TF1 APIs
    sessions: bool  # creates a Session
    tf2_written: bool  # calls names TF2 code is written with (tf.function, GradientTape)
    tf2_sign: bool  # any sign of TF2 code (`tf_signs.shows_tf2`)
    ambiguous: list[Finding]  # calls whose arguments TF1 and TF2 bind differently
    refused: list[Finding]  # calls TF 2.21 refuses whatever the file
    contrib: list[tuple[Finding, str]]  # imports of tensorflow.contrib, with the module each names


CONTRIB_IMPORT = ("{} has no TF 2.21 form (TF 2 removed tensorflow.contrib): the file will not run on TF 2.21 "
                  "until the import is replaced")


def _contrib_modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The tensorflow.contrib modules an import names: importing one fails on TF 2.21."""
    names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
    if isinstance(node, ast.ImportFrom) and node.module == "tensorflow":
        names = [f"tensorflow.{a.name}" for a in node.names]
    return [n for n in names if n == "tensorflow.contrib" or n.startswith("tensorflow.contrib.")]


def _scan(nodes: list[ast.AST], aliases: Aliases) -> Scan:
    if not aliases:
        return Scan(False, False, False, False, [], [], [])
    paths = {id(n): p for n, p in _ast_paths(nodes, aliases)}
    named = set(paths.values())
    tf1 = aliases.uses_v1_import or any(_is_tf1(p) for p in named)
    sessions = False
    ambiguous: list[tuple[ast.Call, str]] = []
    refused: list[Finding] = []
    readings: set[str | None] = set()
    for node in nodes:
        path = paths.get(id(node.func)) if isinstance(node, ast.Call) else None
        if path is None:
            # `dataset.make_one_shot_iterator()`: a method only TF1's datasets have;
            # `opt.minimize(loss, colocate_gradients_with_ops=...)`: a keyword only TF1 took
            tf1 = tf1 or (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in DATASET_ITERATOR_METHODS
                or any(k.arg in METHOD_KEYWORD_DROPS.get(node.func.attr, ()) for k in node.keywords)))
            continue
        sessions = sessions or path in SESSION_CALLS
        tf1_keywords = set(KEYWORD_RENAMES.get(path, ())) | {"keep_prob"}
        tf1 = tf1 or any(k.arg in tf1_keywords for k in node.keywords)  # type: ignore[attr-defined]
        reading = _reading(path, node)  # type: ignore[arg-type]
        readings.add(reading)
        tf1 = tf1 or reading == "tf1"
        if path in KERAS_SAVES and not _saved_with_extension(node):  # type: ignore[arg-type]
            refused.append(Finding(RENAME_RULE.id, node.lineno, node.col_offset, KERAS_SAVE_NOTE, "manual"))  # type: ignore[attr-defined]
        if reading == "ambiguous":
            ambiguous.append((node, path))  # type: ignore[arg-type]
    contrib = [(Finding(COMPAT_RULE.id, n.lineno, n.col_offset, CONTRIB_IMPORT.format(module), "manual"), module)
               for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom)) for module in _contrib_modules(n)]
    said = [Finding(RENAME_RULE.id, call.lineno, call.col_offset, (
        f"tf.{path}: TF1 and TF2 bind these arguments to different parameters; "
        "if this is TF1 code, pass them by name (or run on the whole TF1 program)"), "manual")
        for call, path in ambiguous]
    tf2_sign = shows_tf2(aliases.uses_v2_import, named, readings)
    return Scan(tf1, sessions, not named.isdisjoint(TF2_WRITTEN), tf2_sign, said, refused, contrib)


def _saved_with_extension(call: ast.Call) -> bool:
    """The save names a literal file Keras 3 reads the format from (`model.h5`)."""
    path = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "filepath"), None)
    return (isinstance(path, ast.Constant) and isinstance(path.value, str)
            and path.value.endswith((".keras", ".h5", ".hdf5")))


def _reading(path: str, call: ast.Call) -> str | None:
    """`api_data.call_reading` of one call; None for calls that unpack arguments."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    return api_data.call_reading(path, len(call.args), frozenset(str(k.arg) for k in call.keywords))


def rewrite_source(
    source: bytes | str, *, filename: str = "<stdin>", config: RewriteConfig | None = None,
    positions: bool = True, library: bool = False, outside_runs: Mapping[str, Sequence[ExternalRun]] | None = None,
) -> RewriteResult:
    """Rewrite one file's TF1 code into TF2; bytes in → bytes out, str in → str out.

    ``positions=False`` leaves findings at line 0, sparing a codegen pass over the whole
    tree, for re-runs that only compare the code. ``library``: no code of the program imports
    the file, so a module building graph code without a session may change its functions'
    call convention (they become Keras models its findings describe). ``outside_runs``: by
    class name, every run site on its instances in the program's files, in order (a module
    several scripts import): each converted class makes a step for each, whichever file runs it.
    """
    with collector_paused():
        result = _rewrite(source, filename, config or RewriteConfig(), positions, library=library,
                          outside_runs=outside_runs)
    if result.findings:
        result.findings = tidy(result.findings, _text(source))
    return result


def _text(source: bytes | str) -> str:
    return source.decode("utf-8", "replace") if isinstance(source, bytes) else source


def _rewrite(
    source: bytes | str, filename: str, config: RewriteConfig, positions: bool, keep_graph: Finding | None = None,
    library: bool = False, outside_runs: Mapping[str, Sequence[ExternalRun]] | None = None,
) -> RewriteResult:
    """``keep_graph``: why the program move's output is not to be used (the file then keeps
    graph semantics). ``library``: see `rewrite_source`; a module with no session then goes
    through the program move, and is renamed only, as any module, when that is not idiomatic."""
    text = _text(source)
    if "tensorflow" not in text or SKIP_FILE in text:
        return _untouched(source)
    tree = _parse_ast(source, filename)
    ast_aliases = collect_aliases_ast(tree)
    nodes = _ast_nodes(tree)
    uses_tf1, runs_sessions, tf2_written, tf2_sign, ambiguous, refused, contrib = _scan(nodes, ast_aliases)
    imported_contrib = [f for f, _ in contrib]  # what the file fails on, where its code stays as it is
    reads_dimensions = ".value" in text and bool(dimension_values(nodes))
    # calls TF1 and TF2 bind differently, in a file with no sign of TF2: TF1 code (tf_signs)
    read_as_tf1 = bool(ambiguous) and not (tf2_sign or ".compat.v2." in text)
    tutorial_data = "examples.tutorials" in text  # TF123's module, gone from TF 2.21
    if not (uses_tf1 or reads_dimensions or read_as_tf1 or tutorial_data):
        return _untouched(source, ambiguous + refused + imported_contrib if positions else [])
    read_as_tf1 = read_as_tf1 and not uses_tf1  # a TF1 file's calls are TF1's: nothing to say
    module = _parse(source, filename, tree)
    # The stdlib tree weighs as much as the libcst one: only the lines of its TF names are
    # kept (in its walk's order), and the cache lets it go (it keeps the output's tree next).
    path_lines = [(n.lineno, p) for n, p in _ast_paths(nodes, ast_aliases)]  # type: ignore[attr-defined]
    del tree, nodes
    _syntax_tree.cache_clear()
    aliases = collect_aliases(module)
    clear_walk_cache()
    forget_lines()
    index_tree(module)
    lines = start_lines(module) if positions else {}
    parsed, prepass_findings = module, []
    if ("flags" in text or "app.run" in text) and config.enabled(ABSL_RULE.id):
        module = to_absl(module, aliases, lines, prepass_findings)
        if module is not parsed:  # `flags` names absl's module now, not TensorFlow's
            aliases = collect_aliases(module)
    loader_defined, loader_kept = "", False
    if tutorial_data and config.enabled(MNIST_RULE.id):
        module, loader_defined, loader_kept = to_keras_mnist(module, aliases, lines, prepass_findings)
        if loader_defined:  # `input_data` names nothing now
            aliases = collect_aliases(module)
    if "input_producer" in text and config.enabled(QUEUE_RULE.id):
        module = to_datasets(module, aliases, lines, prepass_findings)
    # The module's code, without generating it again: a file spelling compat.v1, or calling
    # tf.function with no Session, was written for TF2 (a rewrite's own output is).
    compat_spelled = ".compat.v1." in text or (tf2_written and not runs_sessions)
    findings: list[Finding] = []
    level = "idiomatic"
    body: list[cst.BaseStatement] | None = None
    moved = False  # the program move's output is used
    as_library = library and not runs_sessions and config.enabled(SESSION_RULE.id)
    if not runs_sessions and not as_library:
        # A library: names are renamed; graph mode switches go only if no TF1 name is left.
        body = [s for s in with_v2_imports(module.body, lines) if not _is_mode_call(s, aliases)]
        new_module, compat_left = _rename(module, body, aliases, lines, findings, config, compat_spelled,
                                          read_as_tf1=read_as_tf1)
        if compat_left:
            findings.clear()
            new_module, _ = _rename(
                module, with_v2_imports(module.body, lines), aliases, lines, findings, config, compat_spelled,
                graph_mode=True, read_as_tf1=read_as_tf1,
            )
            level = "partial"
    else:
        # The move keys the lines of nodes it builds by id; those of a move given up die and
        # their ids come back on the fallback's inserted statements, so it gets its own copy.
        moved_lines = dict(lines)
        eager_written: set[str] = set()  # TF1-only names the move wrote to run eagerly
        if keep_graph is not None:
            findings = [keep_graph]
        elif config.enabled(SESSION_RULE.id):
            try:
                moved, eager_written = _move(module, aliases, moved_lines, findings, as_library, outside_runs)
                _refuse_deselected(findings, config)
                body = moved
            except Unsupported as exc:
                findings = [Finding(COMPAT_RULE.id, exc.line, 0, f"{exc.message} ({exc.rule}); {KEEPS_GRAPH}",
                                    "manual")]
        if body is not None:
            new_module, left = _rename(module, body, aliases, moved_lines, findings, config, compat_spelled)
            # a name TF 2.21 lacks altogether is reported where it is; no mode brings it back
            graph_only = {p for p in left - eager_written if not runs_eagerly(p) and api_data.has_tf221_form(p)}
            if graph_only:
                left = graph_only
                # TF1 names the move did not reach: rather than mixing them into eager code,
                # the whole file keeps TF1 graph semantics.
                line = next((f.line for f in findings if f.rule == COMPAT_RULE.id and f.line), 0) or min(
                    (line for line, p in path_lines if p in left), default=0,
                )
                findings = [Finding(COMPAT_RULE.id, line, 0, "TF1 code outside the program model "
                                    f"({', '.join('tf.' + p for p in sorted(left))}); {KEEPS_GRAPH}",
                                    "manual")]
                body = None
            elif left:
                level = "partial"
                findings += _unreported(left, findings, path_lines)
        if as_library and (body is None or level != "idiomatic"):
            return _as_module(source, filename, config, positions, findings)
        if body is None:
            new_module, _ = _rename(
                module, _compat_body(module, aliases, lines), aliases, lines, findings, config, compat_spelled,
                graph_mode=True,
            )
            level = "partial"
        else:
            lines = moved_lines
            moved = True
    new_module = _without_gone_bindings(new_module, aliases, lines, findings)
    if moved:
        new_module = drop_unused_returns(share_forward(new_module))
    if reads_dimensions and config.enabled(DIMENSION_RULE.id):
        new_module = _drop_dimension_values(new_module, lines, findings)
    if level == "idiomatic" and config.enabled(CONTROL_FLOW_RULE.id) and ("cond(" in text or "while_loop(" in text):
        new_module = _python_control_flow(new_module, lines, findings)
    if "set_random_seed" in text and config.enabled(KERAS_SEED_RULE.id):
        line = next((line for line, p in path_lines if p in SET_SEED_CALLS), 0)
        new_module = seed_python_random(new_module, line, findings)
    if loader_defined:
        new_module = _with_mnist_loader(new_module, aliases, seeded=loader_defined == "seeded")
    if loader_kept and level == "idiomatic":  # the import fails on TF 2.21
        level = "partial"
    findings += prepass_findings
    if _same_statements(new_module, parsed):  # nothing rebuilt: the code is the source's
        return _untouched(source, findings + (ambiguous if read_as_tf1 and positions else [])
                          + (refused + imported_contrib if positions else []))
    code_text, limit = new_module.code, config.line_length or line_limit(text)
    if any(len(line) > limit for line in code_text.splitlines()):  # only then: a visit per statement
        new_module = wrap_long_lines(new_module, limit, text)
        code_text = new_module.code
    code_text = realign_continuations(text, code_text)
    if moved and (unbound := new_reads(text, code_text)):
        # the move dropped a binding the code still reads: its output would fail at that read
        if as_library:
            return _as_module(source, filename, config, positions, [_unbound_finding(unbound, text)])
        return _rewrite(source, filename, config, positions, _unbound_finding(unbound, text))
    if as_library:
        findings += gone_names(text, code_text, findings)
    code_out: bytes | str = code_text.encode(new_module.encoding) if isinstance(source, bytes) else code_text
    try:
        out_tree = _syntax_tree(code_out)  # the output must parse
    except SyntaxError as exc:  # pragma: no cover - a rewriter bug, never user input
        raise RuntimeError(f"{filename}: rewrite produced invalid code: {exc}") from exc
    changed = code_out != source
    # a contrib import the rewrite replaced (its cells, its layers) fails nothing any more
    left = {m for n in ast.walk(out_tree) if isinstance(n, (ast.Import, ast.ImportFrom)) for m in _contrib_modules(n)}
    refused = refused + [f for f, module in contrib if module in left]
    if any(f.kind == "manual" for f in refused):  # TF 2.21 refuses the file whatever the rewrite does
        level = "partial"
    return RewriteResult(code_out, changed, level if changed else "untouched",
                         findings + (refused if positions else []))


def _as_module(
    source: bytes | str, filename: str, config: RewriteConfig, positions: bool, findings: list[Finding],
) -> RewriteResult:
    """A library the program move could not convert, rewritten as any module without a session
    is; with the move's reason it kept graph code."""
    result = _rewrite(source, filename, config, positions)
    why = [f for f in findings if f.message.endswith(KEEPS_GRAPH)]
    if positions and result.level != "idiomatic":
        result.findings = [*why[:1], *result.findings]
    return result


def _unreported(left: set[str], findings: list[Finding], path_lines: list[tuple[int, str]]) -> list[Finding]:
    """A finding for each TF1 name left in the output that none names yet (the move copied
    it into code it wrote), at the first line of the input naming it."""
    said = " ".join(f.message for f in findings)
    return [
        Finding(COMPAT_RULE.id, min((line for line, q in path_lines if q == p), default=0), 0,
                f"tf.{p} has no TF 2.21 form; the file will not run on TF 2.21 until it is replaced", "manual")
        for p in sorted(left) if f"tf.{p} " not in said and not api_data.has_tf221_form(p)
    ]


def _unbound_finding(unbound: list[tuple[tuple[int, int], str]], text: str) -> Finding:
    """The fallback's finding for names the move's output reads unbound, at the line of the
    input that first names one (the output's lines are not the user's)."""
    names = [name for _, name in unbound]
    tree = _syntax_tree(text)
    line = min((n.lineno for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names), default=0)
    listed = ", ".join(names)
    return Finding(COMPAT_RULE.id, line, 0, f"the program move would leave {listed} unbound where the code "
                   f"reads {'it' if len(names) == 1 else 'them'} ({SESSION_RULE.id}); {KEEPS_GRAPH}", "manual")


def _move(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding], library: bool = False,
    outside_runs: Mapping[str, Sequence[ExternalRun]] | None = None,
) -> tuple[list[cst.BaseStatement], set[str]]:
    """The program move, over the module without its session configuration (TF2 has no
    session to configure: its options become process settings made after the import); and
    the TF1-only names it wrote to run eagerly."""
    traced = run_tracing.take_out(module, aliases, lines)
    if traced is not None:
        module = traced[0]
        findings.extend(traced[1])
    module, scoped = plain_scopes.as_name_scopes(module, aliases, lines)
    findings.extend(scoped)
    config = take_apart(module, aliases, lines)
    move = ProgramMove(module if config is None else config.module, aliases, lines, findings, library=library,
                       outside_runs={k: list(v) for k, v in (outside_runs or {}).items()})
    body = move.run()
    if move.helper_sources:  # the classes the move defines, placed as the other rules' helpers
        body = _with_helpers(body, move.helper_sources, aliases)
    if config is None:
        return body, move.eager_compat
    findings.extend(config.findings)
    return with_setup(body, config), move.eager_compat


def _same_statements(new: cst.Module, old: cst.Module) -> bool:
    """The very statement objects of ``old``: the module prints as it was, no codegen needed
    (a rewrite rebuilds every node it changes, up to its statement)."""
    return (
        new.header is old.header and new.footer is old.footer and len(new.body) == len(old.body)
        and all(a is b for a, b in zip(new.body, old.body))
        and (new.encoding, new.default_indent, new.default_newline, new.has_trailing_newline)
        == (old.encoding, old.default_indent, old.default_newline, old.has_trailing_newline)
    )


def _rename(
    module: cst.Module, body: list[cst.BaseStatement], aliases, lines: dict[int, int],
    findings: list[Finding], config: RewriteConfig, compat_spelled: bool, graph_mode: bool = False,
    read_as_tf1: bool = False,
) -> tuple[cst.Module, bool]:
    """The module with `body`, TF names respelled; and the TF1-only names left in it."""
    tf2_spelled = not aliases.uses_v1_import and compat_spelled
    tree = module.with_changes(body=body)
    names = aliases.modules.keys() | aliases.symbols.keys()
    names |= METHOD_NAMES  # `dataset.make_one_shot_iterator()`, `opt.minimize(...)` name no alias
    hot = holding(tree, lambda node: type(node) is cst.Name and node.value in names)  # type: ignore[attr-defined]
    renamer = _Renamer(hot, aliases, OUT_ALIAS, lines, findings, config.enabled, tf2_spelled, graph_mode)
    renamer.cell_names_free = not bound_names(body) & (CELL_SOURCES.keys() | KERAS_CELL_SOURCES.keys())
    renamer.read_as_tf1 = read_as_tf1
    renamed = transform(tree, renamer)
    if renamer.rnn_cells:
        defined = {name for cell in renamer.rnn_cells for name in RNN_CELLS[cell].needs}
        body = _without_unused_imports(list(renamed.body), RNN_IMPORTS, defined)
        sources = CELL_SOURCES if graph_mode else KERAS_CELL_SOURCES
        renamed = renamed.with_changes(body=with_cell_definitions(body, renamer.rnn_cells, aliases, sources))
    if renamer.helpers:
        renamed = renamed.with_changes(body=_with_helpers(list(renamed.body), renamer.helpers, aliases))
    return renamed, renamer.compat_paths


def _after_preamble(body: list[cst.BaseStatement], aliases) -> int:
    """Where definitions the rewrite adds go: after the docstring, imports and mode switch,
    and never before the top-level statement importing TensorFlow, whose name they read
    (``import warnings; warnings.filterwarnings(...); import tensorflow as tf``)."""
    at = 0
    for i, stmt in enumerate(body):
        if _is_mode_call(stmt, aliases) or _is_import(stmt) or (i == 0 and is_docstring(stmt)):
            at = i + 1
        else:
            break
    if at < len(body) and not any(_imports_tensorflow(stmt) for stmt in body[:at]):
        at = next((i + 1 for i, stmt in enumerate(body) if _imports_tensorflow(stmt)), at)
        while at < len(body) and _is_import(body[at]):  # and the imports right after it
            at += 1
    return at


def _imports_tensorflow(stmt: cst.BaseStatement) -> bool:
    """``import tensorflow[...]`` or ``from tensorflow[...] import ...`` at the top level."""
    if not _is_import(stmt):
        return False
    for small in stmt.body:
        modules = ([code_of(a.name) for a in small.names] if isinstance(small, cst.Import)
                   else [code_of(small.module) if small.module else ""])
        if any(m == "tensorflow" or m.startswith("tensorflow.") for m in modules):
            return True
    return False


def _after_imports(body: list[cst.BaseStatement], at: int) -> int:
    """Where an import the rewrite adds goes: after the last import of the preamble
    (`body[:at]`, `at` from `_after_preamble`)."""
    return max((i + 1 for i, s in enumerate(body[:at]) if _is_import(s)), default=at)


def _with_mnist_loader(module: cst.Module, aliases, seeded: bool) -> cst.Module:
    """The module with TF123's loader classes after its imports, and numpy imported for them."""
    body = list(module.body)
    numpy = numpy_name(module)
    if numpy is None:
        numpy = "np"
        body.insert(_after_imports(body, _after_preamble(body, aliases)), cst.parse_statement("import numpy as np\n"))
    return module.with_changes(body=_with_helpers(body, mnist_helpers(numpy, OUT_ALIAS, seeded), aliases))


def _with_helpers(body: list[cst.BaseStatement], helpers: dict[str, str], aliases) -> list[cst.BaseStatement]:
    """The module body with helper functions defined after its leading imports and mode switch."""
    at = _after_preamble(body, aliases)
    definitions = [_blank_lines_before(cst.parse_statement(source), 2) for source in helpers.values()]
    rest = [_blank_lines_before(body[at], 2), *body[at + 1:]] if at < len(body) else []
    return body[:at] + definitions + rest


def with_cell_definitions(
    body: list[cst.BaseStatement], cells: set[str], aliases, sources: dict[str, str] = CELL_SOURCES,
) -> list[cst.BaseStatement]:
    """The TF1 cell classes the file now uses, after its leading imports and mode switch;
    `import collections` with the imports when LSTMStateTuple needs it."""
    at = _after_preamble(body, aliases)
    imported = any(_is_import(s) and "import collections" in cst.Module([s]).code for s in body[:at])
    definitions = rnn_definitions(cells, OUT_ALIAS, sources)
    needs_collections = "collections." in cst.Module(definitions).code
    extra = [cst.parse_statement("import collections\n")] if needs_collections and not imported else []
    last_import = _after_imports(body, at)
    body = body[:last_import] + extra + body[last_import:]
    at += len(extra)
    definitions[0] = _blank_lines_before(definitions[0], 1)
    rest = [_blank_lines_before(body[at], 2), *body[at + 1:]] if at < len(body) else []
    return body[:at] + definitions + rest


def _blank_lines_before(stmt: cst.BaseStatement, n: int) -> cst.BaseStatement:
    blank = sum(1 for line in stmt.leading_lines if line.comment is None)
    return stmt.with_changes(leading_lines=[cst.EmptyLine()] * max(0, n - blank) + list(stmt.leading_lines))


def _without_unused_imports(
    body: list[cst.BaseStatement], modules: frozenset[str], defined: set[str],
) -> list[cst.BaseStatement]:
    """`body` without `from <module> import ...` lines of `modules` whose names nothing reads
    any more (`from tensorflow.contrib import rnn` once its cells are the file's own) or that
    the file now defines itself (`from tensorflow.contrib.rnn import BasicLSTMCell`)."""
    read = _names_read([s for s in body if not _is_import(s)])

    def unused(stmt: cst.BaseStatement) -> bool:
        if not _is_import(stmt) or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.ImportFrom):  # type: ignore[attr-defined]
            return False
        node = stmt.body[0]  # type: ignore[attr-defined]
        if node.module is None or cst.Module([]).code_for_node(node.module) not in modules:
            return False
        if isinstance(node.names, cst.ImportStar):
            return False
        bound = [cst.Module([]).code_for_node(a.asname.name if a.asname else a.name) for a in node.names]
        return all(b not in read or (b in defined and not a.asname) for a, b in zip(node.names, bound))

    return [s for s in body if not unused(s)]


def _gone_binding(stmt: cst.BaseStatement, aliases: Aliases) -> tuple[str, str] | None:
    """(name, path) of a one-name import or `x = tf.contrib.x` line binding a TensorFlow
    module that TF 2.21 lacks (`import tensorflow.contrib.slim as slim`)."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    small = stmt.body[0]
    if isinstance(small, cst.Import) and len(small.names) == 1 and small.names[0].asname is not None:
        name = small.names[0].asname.name
    elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar) and len(small.names) == 1:
        name = small.names[0].asname.name if small.names[0].asname else small.names[0].name
    elif isinstance(small, cst.Assign) and len(small.targets) == 1:
        name = small.targets[0].target
    else:
        return None
    if not isinstance(name, cst.Name):
        return None
    path = aliases.modules.get(name.value, aliases.symbols.get(name.value))
    if path is None or not path.startswith("contrib.") or api_data.has_tf221_form(path):
        return None
    return name.value, path


def _without_gone_bindings(
    module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding],
) -> cst.Module:
    """The module without the lines binding contrib modules nothing reads any more (their
    functions now spelled through `tf`), and without the findings those lines had."""
    body = list(module.body)
    gone = {id(s): b for s in body if (b := _gone_binding(s, aliases)) is not None}
    if not gone:
        return module
    read = _names_read([s for s in body if id(s) not in gone])
    dropped = {id(s): gone[id(s)] for s in body if id(s) in gone and gone[id(s)][0] not in read}
    if not dropped:
        return module
    stale = {(lines.get(id(s), -1), f"tf.{dropped[id(s)][1]} ") for s in body if id(s) in dropped}
    findings[:] = [f for f in findings if not any(f.line == line and f.message.startswith(p) for line, p in stale)]
    return module.with_changes(body=[s for s in body if id(s) not in dropped])


def _names_read(body: list[cst.BaseStatement]) -> set[str]:
    """The plain names `body` mentions (not attribute names after a dot)."""
    def inside(node: cst.CSTNode) -> list[cst.CSTNode]:
        return [node.value] if isinstance(node, cst.Attribute) else children(node)

    return {node.value for stmt in body for node in walk(stmt, inside) if isinstance(node, cst.Name)}


def _is_import(stmt: cst.BaseStatement) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
    )


def _drop_dimension_values(
    module: cst.Module, lines: dict[int, int], findings: list[Finding]
) -> cst.Module:
    """TF119 over the subtrees that hold a ``.value`` attribute (the rest is not rebuilt)."""
    hot = holding(
        module, lambda node: isinstance(node, cst.Attribute) and node.attr.value == "value"
    )
    return transform(module, DimensionValues(hot, lines, findings))


def _python_control_flow(module: cst.Module, lines: dict[int, int], findings: list[Finding]) -> cst.Module:
    """TF135 over code AutoGraph converts: ``tf.function`` bodies and the functions only they call."""
    aliases = collect_aliases(module)
    functions, taken = called_only_from_functions(module, aliases)
    return module.visit(PythonControlFlow(aliases, functions, set(taken), lines, findings))


class _Renamer(RenameTransformer):
    """Enters only subtrees that name a TensorFlow alias: every rename starts from one.

    Rebuilding the rest of the tree unchanged would cost as much as parsing it again.
    """

    def __init__(self, hot: set[int], *args: Any) -> None:
        super().__init__(*args)
        self.hot = hot

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.hot and super().on_visit(node)


#: The program move's passes, by rule. It runs when session code is converted at all (TF102);
#: each other pass reports what it converts under its rule, so a deselected one is seen by its
#: findings, and only a program that needs it keeps graph mode.
PROGRAM_MOVE_RULES = frozenset({"TF103", "TF104", "TF105", "TF106", "TF107", "TF109", "TF110", "TF114",
                                "TF115", "TF117", "TF120", "TF129"})


def _refuse_deselected(findings: list[Finding], config: RewriteConfig) -> None:
    """Raise Unsupported at the first construct the move converted under a deselected rule."""
    off = [f for f in findings if f.rule in PROGRAM_MOVE_RULES and not config.enabled(f.rule)]
    if off:
        first = min(off, key=lambda f: f.line)
        rule = RULES[first.rule]
        raise Unsupported(first.rule, first.line,
                          f"{rule.name} is not selected, and the program needs it ({first.message})")


def _compat_body(module: cst.Module, aliases, lines: dict[int, int]) -> list[cst.BaseStatement]:
    """Fallback: TF2 import and graph mode kept on (`tf.compat.v1.disable_eager_execution()`),
    unless the program's graph code already has graphs of its own (`explicit_graphs`)."""
    body = with_v2_imports(module.body, lines)
    if not any(_is_mode_call(stmt, aliases) for stmt in body) and not eager_outside_graphs(module, aliases):
        at = next((i + 1 for i, stmt in enumerate(body) if v2_import(stmt) is not None), None)
        if at is None:
            body.insert(0, cst.parse_statement(TF2_IMPORT))
            at = 1
        body.insert(at, cst.parse_statement(f"{OUT_ALIAS}.compat.v1.disable_eager_execution()\n"))
    return body


def _is_mode_call(stmt: cst.BaseStatement, aliases) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, cst.Call)
        and aliases.resolve(stmt.body[0].value.func) in MODE_CALLS
    )


def find_tf1_usages(source: bytes | str, *, filename: str = "<stdin>") -> list[Finding]:
    """TF1 names and imports still present, for `tfmigrate check` (stdlib ast, no CST)."""
    text = _text(source)
    if "tensorflow" not in text:
        return []
    tree = _parse_ast(source, filename)
    aliases = collect_aliases_ast(tree)
    nodes = _ast_nodes(tree)
    findings = [
        Finding(COMPAT_RULE.id, node.lineno, node.col_offset, "imports tensorflow.compat.v1", "manual")
        for node in nodes
        if isinstance(node, (ast.Import, ast.ImportFrom)) and "compat.v1" in ast.unparse(node)
        or isinstance(node, ast.ImportFrom) and node.module == "tensorflow.compat"
        and any(a.name == "v1" for a in node.names)
    ]
    findings += [
        Finding(DIMENSION_RULE.id, node.lineno, node.col_offset, "TF1 Dimension .value", "manual")
        for node in dimension_values(nodes)
    ]
    for node, path in _ast_paths(nodes, aliases):
        if _is_tf1(path):
            findings.append(Finding(COMPAT_RULE.id, node.lineno, node.col_offset,  # type: ignore[attr-defined]
                                    f"TF1 API tf.{path}", "manual"))
    return tidy(_outermost(findings), text)


def _outermost(findings: list[Finding]) -> list[Finding]:
    """One finding per position (an attribute chain reports once, at its longest name)."""
    best: dict[tuple[int, int], Finding] = {}
    for f in findings:
        key = (f.line, f.col)
        if key not in best or len(f.message) > len(best[key].message):
            best[key] = f
    return sorted(best.values(), key=lambda f: (f.line, f.col))

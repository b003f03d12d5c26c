"""Session options: a TF1 ``ConfigProto`` given to a session becomes ``tf.config`` calls, or nothing.

TF2 has no session to configure: the process-wide settings ``tf.config`` offers (GPU memory
growth, thread pools, soft placement, placement logging) replace the options TF's migration
guide maps, and the rest (a GPU memory fraction, device counts) have no TF2 form. The
settings are made right after ``import tensorflow``: TF2 refuses to change devices or thread
pools once an op has run, and in eager code the first op runs long before a session would
have been built. Only a configuration the program builds from literals and uses for nothing
but its sessions is taken apart; any other use leaves the file as it was.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import libcst as cst

from . import codegen as cg
from .imports import Aliases
from .report import Finding
from .rules.session import RULE as SESSION_RULE
from .rules.session import SESSION_CALLS

CONFIG_CALLS = frozenset({"ConfigProto", "GPUOptions"})

#: A session option → the TF2 setting made for it (``{tf}``, ``{value}``, ``{gpu}`` filled in).
SETTINGS: dict[str, str] = {
    "gpu_options.allow_growth": (
        "for {gpu} in {tf}.config.list_physical_devices(\"GPU\"):\n"
        "    {tf}.config.experimental.set_memory_growth({gpu}, {value})\n"
    ),
    "allow_soft_placement": "{tf}.config.set_soft_device_placement({value})\n",
    "log_device_placement": "{tf}.debugging.set_log_device_placement({value})\n",
    "intra_op_parallelism_threads": "{tf}.config.threading.set_intra_op_parallelism_threads({value})\n",
    "inter_op_parallelism_threads": "{tf}.config.threading.set_inter_op_parallelism_threads({value})\n",
}


@dataclass
class _Option:
    path: str  # "gpu_options.allow_growth"
    value: cst.BaseExpression
    line: int


@dataclass
class SessionConfig:
    """What taking the configuration apart gives: the module without it, and the settings."""

    module: cst.Module
    setup: list[str] = field(default_factory=list)  # statements, in order, each once
    #: Comments above the statements that went: they describe the settings, so they go with them.
    comments: list[cst.EmptyLine] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


class NameUses(cst.CSTVisitor):
    """How often each name is read or bound (attribute and keyword names are not names)."""

    def __init__(self) -> None:
        self.count: Counter[str] = Counter()

    def visit_Name(self, node: cst.Name) -> None:
        self.count[node.value] += 1

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False


def _literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return _literal(node.expression)
    return isinstance(node, (cst.Integer, cst.Float)) or (
        isinstance(node, cst.Name) and node.value in ("True", "False", "None"))


def assigned(stmt: cst.BaseStatement) -> tuple[cst.BaseAssignTargetExpression, cst.BaseExpression] | None:
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1):
        return None
    return stmt.body[0].targets[0].target, stmt.body[0].value


def _attr_path(node: cst.BaseExpression) -> tuple[str, str] | None:
    """``config.gpu_options.allow_growth`` → ("config", "gpu_options.allow_growth")."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not parts or not isinstance(node, cst.Name):
        return None
    return node.value, ".".join(reversed(parts))


class _Collect(cst.CSTVisitor):
    """Config objects (``N = tf.ConfigProto(...)``), the options set on them, and their uses."""

    def __init__(self, aliases: Aliases, lines: dict[int, int]) -> None:
        self.aliases, self.lines = aliases, lines
        self.kinds: dict[str, str] = {}  # name -> ConfigProto | GPUOptions
        self.options: dict[str, list[_Option]] = {}
        self.accounted: Counter[str] = Counter()
        self.statements: set[int] = set()  # ids of the statements that go
        self.session_args: set[int] = set()  # ids of the config= arguments that go
        self.inline: dict[int, str] = {}  # id of an inline ConfigProto call -> its key
        self.bad: set[str] = set()  # names with a use that cannot go (and "" for an inline one)

    def _config_call(self, node: cst.BaseExpression) -> str | None:
        if isinstance(node, cst.Call):
            path = self.aliases.resolve(node.func)
            if path in CONFIG_CALLS:
                return path
        return None

    def _call_options(self, call: cst.Call, prefix: str, owner: str, line: int) -> None:
        for arg in call.args:
            if arg.keyword is None:
                self.bad.add(owner)
                continue
            path = prefix + arg.keyword.value
            if path == "gpu_options" and self._config_call(arg.value) == "GPUOptions":
                self._call_options(arg.value, "gpu_options.", owner, line)  # type: ignore[arg-type]
            elif path == "gpu_options" and isinstance(arg.value, cst.Name):
                self.accounted[arg.value.value] += 1
                self.options.setdefault(owner, []).append(_Option("gpu_options", arg.value, line))
            else:
                self.options.setdefault(owner, []).append(_Option(path, arg.value, line))

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        pair = assigned(node)
        if pair is None:
            return
        target, value = pair
        line = self.lines.get(id(node), 0)
        kind = self._config_call(value)
        if kind and isinstance(target, cst.Name):
            name = target.value
            if self.kinds.get(name, kind) != kind:
                self.bad.add(name)  # a config bound again as something else
            self.kinds[name] = kind
            self.accounted[name] += 1
            self.statements.add(id(node))
            self._call_options(value, "gpu_options." if kind == "GPUOptions" else "", name, line)  # type: ignore[arg-type]
            return
        owner = _attr_path(target)
        if owner and owner[0] in self.kinds:
            name, path = owner
            prefix = "gpu_options." if self.kinds[name] == "GPUOptions" else ""
            self.accounted[name] += 1
            self.statements.add(id(node))
            self.options.setdefault(name, []).append(_Option(prefix + path, value, line))

    def visit_Call(self, node: cst.Call) -> None:
        if self.aliases.resolve(node.func) not in SESSION_CALLS:
            return
        for arg in node.args:
            if arg.keyword is None or arg.keyword.value != "config":
                continue
            if isinstance(arg.value, cst.Name):
                self.accounted[arg.value.value] += 1
                self.session_args.add(id(arg))
            elif self._config_call(arg.value) == "ConfigProto":
                key = f"<inline {id(arg.value)}>"
                self.kinds[key] = "ConfigProto"
                self._call_options(arg.value, "", key, self.lines.get(id(node), 0))  # type: ignore[arg-type]
                self.session_args.add(id(arg))


class Strip(cg.LineKeeping):
    """Drops the given statements and call arguments (a configuration's, a run's tracing),
    keeping their comments and the lines of what stays."""

    def __init__(self, statements: set[int], args: set[int], lines: dict[int, int], move_comments: bool) -> None:
        self.statements, self.args, self.lines = statements, args, lines
        self.move_comments = move_comments
        self.comments: list[cst.EmptyLine] = []

    def _body(self, body: tuple[cst.BaseStatement, ...], originals: tuple) -> tuple[list[cst.BaseStatement], list]:
        """The statements kept, and the comments of dropped ones with no statement after them."""
        kept: list[cst.BaseStatement] = []
        dropped: list[cst.EmptyLine] = []
        for old, new in zip(originals, body):
            if id(old) in self.statements:
                (self.comments if self.move_comments else dropped).extend(
                    [*cg.comments(new.leading_lines), *cg.inner_comments(new)])
                continue
            if dropped:
                merged = new.with_changes(leading_lines=cg.merge_leading(dropped, list(new.leading_lines)))
                if id(old) in self.lines:
                    self.lines[id(merged)] = self.lines[id(old)]
                new = merged
                dropped = []
            kept.append(new)
        return kept or [cst.SimpleStatementLine([cst.Pass()])], dropped

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body, left = self._body(updated_node.body, original_node.body)
        return updated_node.with_changes(body=body, footer=[*left, *updated_node.footer])

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        body, left = self._body(updated_node.body, original_node.body)
        return updated_node.with_changes(body=body, footer=[*left, *updated_node.footer])

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if not any(id(a) in self.args for a in original_node.args):
            return updated_node
        args = [new for old, new in zip(original_node.args, updated_node.args) if id(old) not in self.args]
        if args:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(args=args)


def tf_name(aliases: Aliases) -> str | None:
    """The local name bound to the ``tensorflow`` module itself."""
    return next((name for name, path in aliases.modules.items() if path == ""), None)


def take_apart(module: cst.Module, aliases: Aliases, lines: dict[int, int]) -> SessionConfig | None:
    """The module without its session configuration, and the TF2 settings replacing it;
    None when it has none, or one this cannot take apart (the file is then left as it was)."""
    tf = tf_name(aliases)
    collect = _Collect(aliases, lines)
    module.visit(collect)
    if tf is None or not collect.kinds:
        return None
    uses = NameUses()
    module.visit(uses)
    names = [n for n in collect.kinds if not n.startswith("<inline")]
    if collect.bad or any(uses.count[n] != collect.accounted[n] for n in names):
        return None
    options = [o for owner in collect.kinds for o in collect.options.get(owner, [])
               if o.path != "gpu_options"]  # a GPUOptions name: its own options are listed
    if any(o.path in SETTINGS and not _literal(o.value) for o in options):
        return None
    gpu = next(n for n in ("gpu", "gpu_device", "physical_gpu") if uses.count[n] == 0)
    setup: list[str] = []
    findings: list[Finding] = []
    for option in sorted(options, key=lambda o: o.line):
        template = SETTINGS.get(option.path)
        if template is None:
            findings.append(Finding(
                SESSION_RULE.id, option.line, 0,
                f"session option {option.path} has no TF2 form; dropped", "info"))
            continue
        statement = template.format(tf=tf, gpu=gpu, value=cg.code(option.value))
        if statement not in setup:
            setup.append(statement)
        call = statement.splitlines()[-1].strip()
        findings.append(Finding(
            SESSION_RULE.id, option.line, 0,
            f"session option {option.path} → {call}, set once after import", "fixed"))
    strip = Strip(collect.statements, collect.session_args, lines, move_comments=bool(setup))
    return SessionConfig(module.visit(strip), setup=setup, findings=findings, comments=strip.comments)


def with_setup(body: list[cst.BaseStatement], config: SessionConfig) -> list[cst.BaseStatement]:
    """``body`` with the settings (and their comments) right after the statement importing tensorflow."""
    if not config.setup:
        return body
    at = next((i for i, s in enumerate(body) if isinstance(s, cst.SimpleStatementLine)
               and isinstance(s.body[0], cst.Import)
               and any(cg.code(a.name) == "tensorflow" for a in s.body[0].names)), None)
    if at is None:
        at = next((i for i, s in enumerate(body) if isinstance(s, cst.SimpleStatementLine)
                   and isinstance(s.body[0], (cst.Import, cst.ImportFrom))), -1)
    statements = [cst.parse_statement(code) for code in config.setup]
    if config.comments:
        statements[0] = statements[0].with_changes(leading_lines=config.comments)
    return [*body[: at + 1], *statements, *body[at + 1 :]]

"""What makes a rewrite read like generated code: the anti-patterns, as a list of checks.

Each check reads a rewrite (``after``) next to its original (``before``) and returns the
lines where it sees its anti-pattern; `CHECKS` is the list `benchmarks/output_quality.py`
counts over and `tests/rewrite/test_output_quality.py` runs over every golden, so the two
never disagree about what counts. `comments_lost` and `emitted_lines` measure the rest.
"""

from __future__ import annotations

import ast
import io
import re
import struct
import tokenize
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

#: A line no emitted line should pass, unless the original's own longest line is longer.
LINE_LIMIT = 100

#: Initializer factories a person replaces by the value itself: `tf.Variable(3.0)`, `tf.zeros(s)`.
INITIALIZERS = frozenset({
    "tf.constant_initializer", "tf.zeros_initializer", "tf.ones_initializer",
    "tf.keras.initializers.Constant", "tf.keras.initializers.Zeros", "tf.keras.initializers.Ones",
    "tf.initializers.constant", "tf.initializers.zeros", "tf.initializers.ones",
})

NUMPY_MAP = re.compile(r"tf\.nest\.map_structure\(\s*lambda (\w+): None if \1 is None else \1\.numpy\(\)")
#: Names that say what a step does: train_step, train_generator, evaluate, compute_loss.
STEP_NAMES = re.compile(r"train(?:_\w+)?|evaluate|compute_\w+")
SUFFIXED = re.compile(r"^(\w+?)_(\d+)$")
INTERNAL = re.compile(r"\bself__\w")

Hit = tuple[int, str]  # (line, what)


@dataclass(frozen=True)
class Check:
    name: str
    anti_pattern: str  # what a person would have written instead, one line
    find: Callable[[str, str], list[Hit]]


def _tree(source: str) -> ast.Module:
    return ast.parse(source)


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


def _steps(tree: ast.Module) -> list[ast.FunctionDef]:
    """Functions decorated with `tf.function` (bare or called)."""
    def is_step(d: ast.expr) -> bool:
        return _dotted(d.func if isinstance(d, ast.Call) else d) == "tf.function"
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and any(map(is_step, n.decorator_list))]


def _float32_repr(text: str) -> str | None:
    """The short decimal a float literal is the float32 rounding of, when it is one."""
    try:
        value = float(text)
    except ValueError:
        return None
    if len(text) < 10 or struct.unpack("f", struct.pack("f", value))[0] != value:
        return None
    for digits in range(1, 8):
        short = f"{value:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(short)))[0] == value:
            return short if len(short) < len(text) else None
    return None


def _numbers(source: str) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [(t.start[0], t.string) for t in tokens if t.type == tokenize.NUMBER]


def float32_literals(after: str, before: str) -> list[Hit]:
    written = {text for _, text in _numbers(before)}
    return [(line, f"{text} for {short}") for line, text in _numbers(after)
            if text not in written and (short := _float32_repr(text)) is not None]


def initializer_called_in_variable(after: str, before: str) -> list[Hit]:
    hits = []
    for node in ast.walk(_tree(after)):
        if not (isinstance(node, ast.Call) and _dotted(node.func) == "tf.Variable"):
            continue
        first = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "initial_value"), None)
        if isinstance(first, ast.Call) and isinstance(first.func, ast.Call) and _dotted(first.func.func) in INITIALIZERS:
            hits.append((node.lineno, f"{_dotted(first.func.func)}(...)(...) in tf.Variable"))
    return hits


def numpy_map_structure(after: str, before: str) -> list[Hit]:
    return [(after.count("\n", 0, m.start()) + 1, "results unpacked through tf.nest.map_structure")
            for m in NUMPY_MAP.finditer(after)]


def step_returns_none(after: str, before: str) -> list[Hit]:
    hits = []
    for step in _steps(_tree(after)):
        for node in ast.walk(step):
            if (isinstance(node, ast.Return) and isinstance(node.value, (ast.List, ast.Tuple))
                    and any(isinstance(e, ast.Constant) and e.value is None for e in node.value.elts)):
                hits.append((node.lineno, f"{step.name}() returns a None"))
    return hits


def _bound_names(tree: ast.Module) -> set[str]:
    """Names and attributes (`x`, `self.x`'s `x`) the program assigns."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            names.add(node.id if isinstance(node, ast.Name) else node.attr)
    return names


def _identifiers(tree: ast.Module) -> set[str]:
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    return names | {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args}


def steps_named_after_variables(after: str, before: str) -> list[Hit]:
    """A step function that takes the name of one of the program's variables or ops (a
    training step called `optimizer`), where a person names it by what it does. A name of
    that kind (`train_step` for the run of a train op the user called `train_step`) is
    what it does, whoever chose it first."""
    bound = _bound_names(_tree(before))
    return [(s.lineno, f"step {s.name}() named after the program's {s.name}") for s in _steps(_tree(after))
            if s.name in bound and not STEP_NAMES.fullmatch(s.name)]


def suffixed_duplicates(after: str, before: str) -> list[Hit]:
    """A name the rewrite made by suffixing one of the program's (`optimizer_2` because the
    step took `optimizer`): two things a reader tells apart by a number."""
    known = _identifiers(_tree(before))
    first: dict[str, int] = {}
    for node in ast.walk(_tree(after)):
        name = node.id if isinstance(node, ast.Name) else node.name if isinstance(node, ast.FunctionDef) else None
        if name is not None:
            first[name] = min(first.get(name, node.lineno), node.lineno)
    return [(line, f"{name} beside the program's {m.group(1)}") for name, line in sorted(first.items(), key=lambda kv: kv[1])
            if (m := SUFFIXED.match(name)) and name not in known and m.group(1) in known]


def variables_local_to_init(after: str, before: str) -> list[Hit]:
    """A model class's variable made a local of ``__init__`` (read by closures) where a person
    keeps it as an attribute (``self.w = tf.Variable(...)``)."""
    hits = []
    for cls in (n for n in ast.walk(_tree(after)) if isinstance(n, ast.ClassDef)):
        for init in (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"):
            for node in init.body:
                if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                        and _dotted(node.value.func) == "tf.Variable"
                        and any(isinstance(t, ast.Name) for t in node.targets)):
                    hits.append((node.lineno, f"variable {ast.unparse(node.targets[0])} local to {cls.name}.__init__"))
    return hits


def internal_names(after: str, before: str) -> list[Hit]:
    return [(i, "internal name self__") for i, line in enumerate(after.splitlines(), 1)
            if INTERNAL.search(line) and not INTERNAL.search(before)]


def line_limit(before: str) -> int:
    return max([LINE_LIMIT, *map(len, before.splitlines())])


def emitted_lines(after: str, before: str) -> list[tuple[int, str]]:
    """Lines of the rewrite that are not lines of the original."""
    kept = set(before.splitlines())
    return [(i, line) for i, line in enumerate(after.splitlines(), 1) if line not in kept]


def long_lines(after: str, before: str) -> list[Hit]:
    limit = line_limit(before)
    return [(i, f"{len(line)} characters (limit {limit})") for i, line in emitted_lines(after, before) if len(line) > limit]


def _misaligned(source: str) -> list[tuple[int, str, str]]:
    """Continuation lines not aligned with the bracket they continue (pycodestyle's E128/E127):
    a bracket followed by code on its line sets the column of the lines after it.
    Each as (line, the bracket's line, the line)."""
    lines = source.splitlines()
    out = []
    stack: list[tuple[int, int | None]] = []  # (line of the bracket, column its lines align to)
    last_row = 0
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            continue
        row, col = tok.start
        if stack and row != last_row and stack[-1][1] is not None and tok.string not in ")]}":
            opener_row, align = stack[-1]
            if col != align:
                out.append((row, lines[opener_row - 1], lines[row - 1]))
        if stack and stack[-1][1] is None and row == stack[-1][0]:
            stack[-1] = (stack[-1][0], col)  # the first token after the bracket, on its line
        if tok.string in "([{" and tok.type == tokenize.OP:
            stack.append((row, None))
        elif tok.string in ")]}" and tok.type == tokenize.OP and stack:
            stack.pop()
        last_row = tok.end[0]
    return out


def continuation_misaligned(after: str, before: str) -> list[Hit]:
    """Continuation lines the rewrite left out of line with their bracket (a renamed call
    moves its bracket; the lines under it stay where they were). Those the original had
    already are the user's: only as many as the rewrite adds count, at lines it changed."""
    old = _misaligned(before)
    known = {(opener, line) for _, opener, line in old}
    new = [(row, "continuation line not under its bracket") for row, opener, line in _misaligned(after)
           if (opener, line) not in known]
    return new[:max(0, len(_misaligned(after)) - len(old))]


#: Modules whose functions are the computation itself, not a function defined once in the file.
LIBRARIES = frozenset({"tf", "np", "numpy", "tensorflow", "math"})


def _calls_a_defined_function(value: ast.expr) -> bool:
    """`model(x)`, `self.encoder(x)`, `compute_logits(x, y)`: a call of the file's own function
    or model on plain values - calling what is defined once, as each step should."""
    if not isinstance(value, ast.Call):
        return False
    root = value.func
    while isinstance(root, ast.Attribute):
        root = root.value
    plain = (ast.Name, ast.Constant)
    return (isinstance(root, ast.Name) and root.id not in LIBRARIES
            and all(isinstance(a, plain) for a in value.args)
            and all(isinstance(k.value, plain) for k in value.keywords))


def forward_copied(after: str, before: str) -> list[Hit]:
    """A statement of the forward pass repeated in several step functions: each distinct
    computed assignment found in more than one `tf.function`, once, at its second copy. A
    call of a function or model the file defines once is what each step should do, not a copy."""
    seen: dict[str, int] = {}
    hits = []
    for step in _steps(_tree(after)):
        mine = set()
        for node in ast.walk(step):
            if (isinstance(node, ast.Assign) and isinstance(node.value, (ast.Call, ast.BinOp))
                    and not _calls_a_defined_function(node.value)):
                key = ast.dump(node)
                if key in mine:
                    continue
                mine.add(key)
                seen[key] = seen.get(key, 0) + 1
                if seen[key] == 2:
                    hits.append((node.lineno, f"{ast.unparse(node)[:60]} also in another step"))
    return hits


CHECKS: tuple[Check, ...] = (
    Check("float32_literal", "the literal as the user wrote it (0.9, not 0.8999999761581421)", float32_literals),
    Check("initializer_in_variable", "tf.Variable(3.0) / tf.zeros(shape), not tf.constant_initializer(3.0)(shape)",
          initializer_called_in_variable),
    Check("numpy_map_structure", "loss = train_step(x, y).numpy()", numpy_map_structure),
    Check("step_returns_none", "a step returns what its callers use", step_returns_none),
    Check("step_named_after_variable", "train_step / evaluate, never a name the program binds",
          steps_named_after_variables),
    Check("suffixed_duplicate", "one name per thing, none told apart by a number (optimizer_2)", suffixed_duplicates),
    Check("internal_name", "the user's names only", internal_names),
    Check("variable_local_to_init", "a model's variables as attributes", variables_local_to_init),
    Check("long_line", f"emitted lines within the file's longest line, else {LINE_LIMIT}", long_lines),
    Check("continuation_misaligned", "continuation lines kept under their bracket", continuation_misaligned),
    Check("forward_copied", "the forward pass defined once and called from each step", forward_copied),
)


#: The name `comments_lost` goes by in the list of known offenders.
COMMENTS = "comments_lost"


def comments(source: str) -> list[str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [t.string.strip() for t in tokens if t.type == tokenize.COMMENT]


def comments_lost(after: str, before: str) -> list[str]:
    """Comments of the original the rewrite does not have (each counted as often as written)."""
    return list((Counter(comments(before)) - Counter(comments(after))).elements())


def code_lines(source: str) -> int:
    """Lines that are not blank: what a reader reads."""
    return sum(1 for line in source.splitlines() if line.strip())

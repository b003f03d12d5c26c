"""The fast tree walks and start lines agree with libcst's own visitor and PositionProvider."""

from __future__ import annotations

import functools
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from migrate.lines import start_lines
from migrate.walk import _is_trivia, _walk, children, holding, index_tree, transform, walk

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SOURCES = sorted(FIXTURES.glob("programs/*/before.py"))
ODD = """\
@decorator(a, *b, **c)
async def f(x: int = 1, /, *args, y=(lambda z: z), **kw) -> "T":  # comment
    global g
    async with a as (b, c), d:
        yield [i async for i in x if i] + {k: v for k, v in y.items()}
    return f"{x!r:>{width}} {y=}"

class C(Base, metaclass=M):
    x: list[int] = [
        1,  # one
        2,
    ]
    match x:
        case [1, *rest] | {"k": v, **kw} if v:
            pass
try:
    del a[1:2, ::3], b.c
except* (E, F) as e:
    raise X from e
finally:
    print(\\
        "\\n", '''a
b''')
"""


class Recorder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen.append(node)
        return True


NAMES = ["odd", *(path.parent.name for path in SOURCES)]


@functools.cache
def _parsed(name: str) -> cst.Module:
    """Each module parsed once per test process, when a test first needs it."""
    return cst.parse_module(ODD if name == "odd" else (FIXTURES / "programs" / name / "before.py").read_bytes())


@pytest.fixture
def module(name: str) -> cst.Module:
    return _parsed(name)


@pytest.mark.parametrize("name", NAMES)
def test_walk_meets_code_nodes_in_visitor_order(name: str, module: cst.Module) -> None:
    recorder = Recorder()
    module.visit(recorder)
    expected = [n for n in recorder.seen if not _is_trivia(type(n))]
    assert [id(n) for n in walk(module)] == [id(n) for n in expected]


@pytest.mark.parametrize("name", NAMES)
def test_indexed_walks_are_the_walks_of_every_subtree(name: str, module: cst.Module) -> None:
    expected = {id(n): [id(m) for m in _walk(n, children)] for n in _walk(module, children)}
    index_tree(module)
    try:
        assert {id(n): [id(m) for m in walk(n)] for n in walk(module)} == expected
        # A tree built from the indexed one walks its kept subtrees from the index, in place.
        first = module.body[0]
        rebuilt = module.with_changes(body=[cst.parse_statement("pass\n"), *module.body[1:], first])
        assert [id(n) for n in walk(rebuilt)] == [id(n) for n in _walk(rebuilt, children)]
    finally:
        index_tree(None)
    assert [id(n) for n in walk(module)] == [id(n) for n in _walk(module, children)]


@pytest.mark.parametrize("name", NAMES)
def test_start_lines_are_position_provider_lines(name: str, module: cst.Module) -> None:
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert start_lines(module) == {id(node): pos.start.line for node, pos in positions.items()}


def test_holding_marks_every_ancestor_of_a_hit() -> None:
    module = cst.parse_module("a = 1\nb = f(g(x))\n")
    hot = holding(module, lambda n: isinstance(n, cst.Name) and n.value == "x")
    second = module.body[1]
    call = second.body[0].value  # type: ignore[attr-defined]
    assert {id(module), id(second), id(call), id(call.args[0].value)} <= hot
    assert id(module.body[0]) not in hot and id(call.func) not in hot


class Respeller(cst.CSTTransformer):
    """Records the hooks it gets and renames every `x`, wrapping calls of `f` in `g(...)`."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.calls.append(("visit", type(node).__name__, id(node)))
        return super().on_visit(node)

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
        self.calls.append(("leave", type(original).__name__, id(original)))
        return super().on_leave(original, updated)  # type: ignore[return-value]

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        return updated.with_changes(value="renamed") if updated.value == "x" else updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if isinstance(original.func, cst.Name) and original.func.value == "f":
            return cst.Call(cst.Name("g"), [cst.Arg(updated)])
        return updated


@pytest.mark.parametrize("name", NAMES)
def test_transform_is_a_visit_that_keeps_unchanged_nodes(name: str, module: cst.Module) -> None:
    """Same code and the same hooks on the same nodes as libcst's visit (trivia aside)."""
    by_libcst, sparse = Respeller(), Respeller()
    expected = module.visit(by_libcst)
    result = transform(module, sparse)
    assert result.code == expected.code
    code_nodes = {id(n) for n in walk(module)}
    assert sparse.calls == [c for c in by_libcst.calls if c[2] in code_nodes]


def test_transform_returns_untouched_subtrees_as_they_were() -> None:
    module = cst.parse_module("a = b + c\nd = f(x)\n")
    result = transform(module, Respeller())
    assert result.body[0] is module.body[0]
    assert result.code == "a = b + c\nd = g(f(renamed))\n"


class StatementEditor(cst.CSTTransformer):
    """Drops `pass` lines and unwraps `with` blocks into their body, as a driver rewrite does."""

    def leave_SimpleStatementLine(
        self,
        original: cst.SimpleStatementLine,
        updated: cst.SimpleStatementLine,
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        return cst.RemovalSentinel.REMOVE if isinstance(updated.body[0], cst.Pass) else updated

    def leave_With(
        self,
        original: cst.With,
        updated: cst.With,
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return (
            cst.FlattenSentinel(updated.body.body)
            if isinstance(updated.body, cst.IndentedBlock)
            else updated
        )


def test_transform_removes_and_flattens_sequence_items_as_a_visit_does() -> None:
    module = cst.parse_module(
        "def f():\n    pass\n    with a:\n        with b:\n            x = 1\n            pass\n        y = 2\n    return 3\n"
    )
    result = transform(module, StatementEditor())
    assert (
        result.code
        == module.visit(StatementEditor()).code
        == "def f():\n    x = 1\n    y = 2\n    return 3\n"
    )


def test_transform_refuses_a_removal_outside_a_sequence() -> None:
    class Remover(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.RemovalSentinel:
            return cst.RemovalSentinel.REMOVE

    with pytest.raises(TypeError, match="removed"):
        transform(cst.parse_module("f()\n"), Remover())

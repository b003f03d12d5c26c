"""Start lines of a module's nodes, as libcst's `PositionProvider` gives them, for less.

Findings need only a start line. `MetadataWrapper.resolve(PositionProvider)` builds a
`CodeRange` for every node, tracks columns, and then runs an empty batched visit over the
whole tree (which rebuilds it); this runs only the position-recording codegen, keeping lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import libcst as cst
from libcst.metadata.position_provider import NEWLINE_RE, PositionProvidingCodegenState


class _LineState(PositionProvidingCodegenState):
    """The provider's codegen state, recording start lines by node id instead of ranges."""

    def __init__(self, module: cst.Module) -> None:
        super().__init__(module.default_indent, module.default_newline, provider=None)
        self.starts: dict[int, int] = {}
        self.open: list[int] = []

    def _update_position(self, value: str) -> None:
        if "\n" in value or "\r" in value:
            self.line += len(NEWLINE_RE.split(value)) - 1

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.open.append(self.line)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.open.pop()
        self.starts.setdefault(id(node), start)  # a syntactic position, when recorded, wins

    @contextmanager
    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        start = self.line
        try:
            yield
        finally:
            self.starts[id(node)] = self.starts[id(start_node)] if start_node is not None else start


def start_lines(module: cst.Module) -> dict[int, int]:
    """``id(node) -> line`` for every node of ``module`` (PositionProvider's start line)."""
    state = _LineState(module)
    module._codegen(state)
    return state.starts

"""Global execution state: eager vs graph mode, the default-graph stack, active tapes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


class _State:
    """One process-wide state object; TF keeps the same in thread-locals."""

    def __init__(self) -> None:
        self.eager_enabled = True
        self.graph_stack: list[Any] = []
        self.global_graph: Any = None
        self.tapes: list[Any] = []
        self.init_scope_depth = 0
        self.function_traces: list[Any] = []
        self.eager_seed_counter = 0
        self.eager_draw_counts: dict[str, int] = {}
        self.eager_kernels: dict[tuple, Any] = {}  # eager random kernels of explicitly seeded ops
        self.graph_kernels = False  # eager random ops drawing as graph ops (`graph_kernels`)
        self.global_seed: int | None = None


STATE = _State()


def executing_eagerly() -> bool:
    return STATE.eager_enabled and not STATE.graph_stack


def get_default_graph() -> Any:
    if STATE.graph_stack:
        return STATE.graph_stack[-1]
    if STATE.global_graph is None:
        from runtime.graph import Graph

        STATE.global_graph = Graph()
    return STATE.global_graph


def reset_default_graph() -> None:
    from runtime.graph import Graph

    if STATE.graph_stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs.")
    STATE.global_graph = Graph()


def graph_mode_default_graph() -> Any:
    """The graph ops go to when not executing eagerly."""
    return get_default_graph()


@contextlib.contextmanager
def init_scope() -> Iterator[None]:
    """Lift out of function graphs into the outermost context (eager, or the global graph)."""
    saved = STATE.graph_stack
    saved_tapes = STATE.tapes
    STATE.graph_stack = [g for g in saved if not getattr(g, "is_function", False)]
    STATE.tapes = []
    try:
        yield
    finally:
        STATE.graph_stack = saved
        STATE.tapes = saved_tapes


@contextlib.contextmanager
def graph_kernels(on: bool = True) -> Iterator[None]:
    """Eager random ops in here draw as graph ops do: each call from a kernel of its own, where
    eager TF shares one kernel among the calls of an explicitly seeded op."""
    saved = STATE.graph_kernels
    STATE.graph_kernels = saved or on
    try:
        yield
    finally:
        STATE.graph_kernels = saved


@contextlib.contextmanager
def eager_mode() -> Iterator[None]:
    saved = (STATE.eager_enabled, STATE.graph_stack)
    STATE.eager_enabled, STATE.graph_stack = True, []
    try:
        yield
    finally:
        STATE.eager_enabled, STATE.graph_stack = saved


def current_trace() -> Any:
    return STATE.function_traces[-1] if STATE.function_traces else None

"""tf.GradientTape: records ops whose inputs it watches; differentiates them on request."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from runtime import context, nest
from runtime.gradients import backprop, engine_variable


class GradientTape:
    """Eager or in-function tape; nested tapes give higher-order gradients."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._ops: list = []
        self._tracked: set[int] = set()
        self._keep: list = []
        self._vars: dict[int, Any] = {}
        self._recording = False
        self._used = False

    def __enter__(self) -> GradientTape:  # noqa: PYI034 - TF returns the tape itself
        context.STATE.tapes.append(self)
        self._recording = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self in context.STATE.tapes:
            context.STATE.tapes.remove(self)
        self._recording = False

    def watch(self, tensor: Any) -> None:
        for x in nest.flatten(tensor):
            var = engine_variable(x)
            if var is not None:
                self._vars[id(var)] = var
            elif hasattr(x, "dtype"):
                self._tracked.add(id(x))
                self._keep.append(x)
            else:
                raise ValueError(f"Passed in object {x!r} of type {type(x).__name__!r}, not tf.Tensor or tf.Variable")

    def watched_variables(self) -> tuple:
        return tuple(self._vars.values())

    def _record(self, op: Any) -> None:
        if not self._recording:
            return
        if op.type == "ReadVariableOp":
            var = op.attrs["var"]
            if id(var) in self._vars or (self._watch_accessed and var.trainable):
                self._vars[id(var)] = var
                self._track(op)
            return
        for i in op.inputs:
            if id(i) in self._tracked:
                self._track(op)
                return

    def _track(self, op: Any) -> None:
        self._ops.append(op)
        for o in op.outputs:
            self._tracked.add(id(o))
        self._keep.append(op)

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        was = self._recording
        self._recording = False
        try:
            yield
        finally:
            self._recording = was

    def reset(self) -> None:
        self._ops, self._tracked, self._keep, self._vars = [], set(), [], {}

    def gradient(self, target: Any, sources: Any, output_gradients: Any = None,
                 unconnected_gradients: Any = "none") -> Any:
        from runtime.convert import convert_to_tensor

        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")
        self._used = True
        targets = [convert_to_tensor(t) if engine_variable(t) is None else t._as_tensor()
                   for t in nest.flatten(target)]
        flat_sources = nest.flatten(sources)
        outs = None if output_gradients is None else nest.flatten(output_gradients)
        uc = getattr(unconnected_gradients, "value", unconnected_gradients)
        was = self._recording
        self._recording = False
        try:
            grads = backprop(targets, flat_sources, self._ops, outs, uc,
                             scope=None if context.executing_eagerly() else "gradient_tape")
        finally:
            self._recording = was and self._persistent
        return nest.pack_sequence_as(sources, grads)

    def jacobian(self, target: Any, sources: Any, **_: Any) -> Any:
        from runtime.errors import Unsupported

        raise Unsupported("tf.GradientTape.jacobian")

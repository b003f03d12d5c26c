"""TF1 Session / InteractiveSession: run fetches with feeds through cached plans."""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, nest
from runtime.graph import Operation
from runtime.plan import session_plan
from runtime.tensor import SymbolicTensor, Tensor

_DEFAULT_SESSIONS: list[Session] = []


def get_default_session() -> Session | None:
    return _DEFAULT_SESSIONS[-1] if _DEFAULT_SESSIONS else None


def default_session_for(graph: Any, session: Any = None) -> Session:
    if session is not None:
        return session
    s = get_default_session()
    if s is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. "
                         "Use `with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    return s


class _DefaultContext:
    def __init__(self, sess: Session) -> None:
        self.sess = sess

    def __enter__(self) -> Session:
        _DEFAULT_SESSIONS.append(self.sess)
        self._graph_cm = self.sess.graph.as_default() if self.sess.graph is not context.get_default_graph() else None
        if self._graph_cm:
            self._graph_cm.__enter__()
        return self.sess

    def __exit__(self, *exc: object) -> None:
        if self._graph_cm:
            self._graph_cm.__exit__(*exc)
        _DEFAULT_SESSIONS.remove(self.sess)


class Session:
    """Runs parts of a graph. Plans are cached per (fetches, feed keys) signature."""

    def __init__(self, target: str = "", graph: Any = None, config: Any = None) -> None:
        self.graph = graph if graph is not None else context.get_default_graph()
        self._closed = False
        self._ctx: _DefaultContext | None = None
        self._reads: dict[int, SymbolicTensor] = {}

    @property
    def sess_str(self) -> str:
        return ""

    def as_default(self) -> _DefaultContext:
        return _DefaultContext(self)

    def __enter__(self) -> Session:  # noqa: PYI034 - returns the default-session context value
        self._ctx = _DefaultContext(self)
        return self._ctx.__enter__()

    def __exit__(self, *exc: object) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(*exc)
            self._ctx = None
        self.close()

    def close(self) -> None:
        self._closed = True

    def list_devices(self) -> list:
        return []

    def _resolve(self, f: Any) -> Any:
        if isinstance(f, (SymbolicTensor, Operation)):
            return f
        if isinstance(f, str):
            return self.graph.get_tensor_by_name(f) if ":" in f else self.graph.get_operation_by_name(f)
        if hasattr(f, "_as_tensor"):
            key = id(f)
            t = self._reads.get(key)
            if t is None:
                with self.graph.as_default():
                    t = f._as_tensor()
                self._reads[key] = t
            return t
        if f is None:
            raise TypeError("Fetch argument None has invalid type <class 'NoneType'>")
        if isinstance(f, Tensor):
            raise TypeError(f"Fetch argument {f!r} cannot be interpreted as a Tensor. "
                            "(Tensor is not an element of this graph.)")
        raise TypeError(f"Fetch argument {f!r} has invalid type {type(f)}, must be a string or Tensor. "
                        "(Can not convert a " + type(f).__name__ + " into a Tensor or Operation.)")

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        cls = fetches.__class__
        single = cls is SymbolicTensor or cls is Operation or not nest.is_nested(fetches)
        flat = [fetches] if single else nest.flatten(fetches)
        items = [f if f.__class__ is SymbolicTensor else self._resolve(f) for f in flat]
        feeds, values = [], []
        if feed_dict:
            for k, v in feed_dict.items():
                t = k if k.__class__ is SymbolicTensor else self._resolve(k)
                if isinstance(t, Operation):
                    raise TypeError("Cannot interpret feed_dict key as Tensor: Can not convert a Operation into a Tensor.")
                feeds.append(t)
                values.append(_feed_value(t, v))
        key = (tuple(map(id, items)), tuple(map(id, feeds)))
        plan = self.graph.plan_cache.get(key)
        if plan is None:
            targets = [i if isinstance(i, Operation) else i.op for i in items]
            fetch_tensors = [None if isinstance(i, Operation) else i for i in items]
            plan = session_plan(targets, feeds, fetch_tensors)
            self.graph.plan_cache[key] = plan
        if single:
            return _result(plan.run(values)[0])
        return nest.pack_sequence_as(fetches, [_result(r) for r in plan.run(values)])

    def make_callable(self, fetches: Any, feed_list: Any = None, accept_options: bool = False) -> Any:
        feed_list = list(feed_list or [])
        return lambda *args: self.run(fetches, dict(zip(feed_list, args)))


def _result(r: Any) -> Any:
    if r is None:
        return None
    if r.__class__ is np.ndarray and r.ndim:
        return r
    a = np.asarray(r)
    return a[()] if a.ndim == 0 else a


_NOT_FED = (None, None, None)


def _feed_value(t: SymbolicTensor, v: Any) -> np.ndarray:
    if isinstance(v, Tensor):
        if hasattr(v, "_value"):
            v = v._value  # type: ignore[attr-defined]
        else:
            raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                            "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles.")
    # Shapes already accepted for this tensor's current static shape need no re-check.
    static, accepted, np_dtype = getattr(t, "_accepted_feeds", _NOT_FED)
    if np_dtype is None:
        np_dtype = t.dtype.np
    arr = v if v.__class__ is np.ndarray and v.dtype is np_dtype else np.asarray(v, dtype=np_dtype)
    if static is not t.shape or arr.shape not in accepted:  # type: ignore[operator]
        if not t.shape.is_compatible_with(arr.shape):
            raise ValueError(f"Cannot feed value of shape {arr.shape} for Tensor {t.name}, which has shape {t.shape}")
        if static is not t.shape:
            static, accepted = t.shape, set()
            t._accepted_feeds = (static, accepted, np_dtype)  # type: ignore[attr-defined]
        accepted.add(arr.shape)  # type: ignore[union-attr]
    return arr


class InteractiveSession(Session):
    """A Session that installs itself as the default on construction."""

    def __init__(self, target: str = "", graph: Any = None, config: Any = None) -> None:
        super().__init__(target, graph, config)
        _DEFAULT_SESSIONS.append(self)

    def close(self) -> None:
        super().close()
        if self in _DEFAULT_SESSIONS:
            _DEFAULT_SESSIONS.remove(self)

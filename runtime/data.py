"""``tf.data``: datasets as chains of Python generators over NumPy elements.

A dataset is a stage over its parent; any stage argument may be a tensor (a fed placeholder, a
batch size), so a pipeline is *materialized* from the values of all its tensors: eagerly when
iterated in Python, or inside an iterator op when a TF1 session runs ``initializer`` (or the
first ``get_next`` of a one-shot iterator). ``get_next`` in a graph is one op that advances the
iterator each time a session runs it, and raises ``OutOfRangeError`` at the end, as in TF.

Each stage also keeps its cardinality rule (TF's ``CardinalityInternal``), a function of the same
values, so ``cardinality()`` is one op that is right for a fed batch size as well.

``shuffle`` is deterministic for a seed and uses TF's buffer algorithm, but draws from NumPy's
RNG: the element order is not TF's (Philox) order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from runtime import context, dtypes, nest
from runtime.convert import _python_to_array, convert_to_tensor
from runtime.errors import FailedPreconditionError, OutOfRangeError
from runtime.function import TensorSpec
from runtime.ops.state import py_call
from runtime.shapes import TensorShape
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
_Env = dict[int, np.ndarray]
#: A stage's cardinality from the values of its tensors: a count, or one of the two constants.
_Cardinality = Callable[[_Env], int]


def _leaf(x: Any) -> Any:
    """A component as a tensor (symbolic, kept) or an array (everything else)."""
    if isinstance(x, SymbolicTensor) or hasattr(x, "_as_tensor"):
        return convert_to_tensor(x)
    if isinstance(x, EagerTensor):
        return x._value
    return x if isinstance(x, np.ndarray) else _python_to_array(x, None)


def _value(x: Any, env: _Env) -> Any:
    return env[id(x)] if isinstance(x, Tensor) else x


def _spec_of(x: Any, drop: int = 0) -> TensorSpec:
    if isinstance(x, Tensor):
        shape = x.shape
        dims = None if shape.rank is None else shape.as_list()[drop:]
        return TensorSpec(TensorShape(dims), x.dtype)
    return TensorSpec(x.shape[drop:], dtypes.as_dtype(x.dtype))


def _normalize(structure: Any) -> Any:
    """Tuples and dicts are structure; lists are tensors (as in tf.data); leaves become tensors/arrays."""
    if isinstance(structure, dict):
        return {k: _normalize(v) for k, v in structure.items()}
    if isinstance(structure, tuple) and not hasattr(structure, "_fields"):
        return tuple(_normalize(v) for v in structure)
    return _leaf(structure)


_NAMED: dict[tuple[type, str], type] = {}


def _named(base: type, kind: str) -> type:
    """The class an instance shows, as in TF: one per transformation (``_BatchDataset``...);
    every ``tf.compat.v1`` dataset is a ``DatasetV1Adapter``."""
    name = "DatasetV1Adapter" if issubclass(base, DatasetV1) else kind
    if (base, name) not in _NAMED:
        _NAMED[base, name] = type(name, (base,), {"__module__": base.__module__})
    return _NAMED[base, name]


class DatasetV2:
    """``tf.data.Dataset``."""

    def __init__(self, parent: DatasetV2 | None, tensors: list, spec: Any,
                 gen: Callable[[_Env], Iterator], kind: str = "_TensorSliceDataset", *,
                 card: _Cardinality) -> None:
        self.__class__ = _named(self._base(), kind)
        self._kind = kind
        self._parent = parent
        self._tensors = [t for t in tensors if isinstance(t, Tensor)]
        self._spec = spec
        self._gen = gen
        self._card = card

    # --- structure ------------------------------------------------------------------------------
    @property
    def element_spec(self) -> Any:
        return self._spec

    def _all_tensors(self) -> list:
        own = list(self._tensors)
        return (self._parent._all_tensors() if self._parent is not None else []) + own

    @classmethod
    def _base(cls) -> type:
        return DatasetV1 if issubclass(cls, DatasetV1) else DatasetV2

    def _stage(self, tensors: list, spec: Any, gen: Callable[[_Env], Iterator], kind: str,
               card: _Cardinality | None = None) -> DatasetV2:
        """A stage over this dataset; without ``card`` it has as many elements as this one."""
        return self._base()(self, tensors, spec, gen, kind, card=card or self._card)

    # --- sources --------------------------------------------------------------------------------
    @classmethod
    def from_tensor_slices(cls, tensors: Any, name: str | None = None) -> DatasetV2:
        structure = _normalize(tensors)
        leaves = nest.flatten(structure)
        spec = nest.map_structure(lambda x: _spec_of(x, 1), structure)

        def gen(env: _Env) -> Iterator:
            arrays = [_value(x, env) for x in leaves]
            n = {len(a) for a in arrays}
            if len(n) != 1:
                raise ValueError("Dimensions of the components to slice must agree")
            for i in range(n.pop()):
                yield nest.pack_sequence_as(structure, [a[i] for a in arrays])

        return cls(None, leaves, spec, gen, card=lambda env: len(_value(leaves[0], env)))

    @classmethod
    def from_tensors(cls, tensors: Any, name: str | None = None) -> DatasetV2:
        structure = _normalize(tensors)
        leaves = nest.flatten(structure)
        spec = nest.map_structure(_spec_of, structure)

        def gen(env: _Env) -> Iterator:
            yield nest.pack_sequence_as(structure, [np.asarray(_value(x, env)) for x in leaves])

        return cls(None, leaves, spec, gen, "_TensorDataset", card=lambda env: 1)

    @classmethod
    def range(cls, *args: Any, output_type: Any = dtypes.int64, name: str | None = None) -> DatasetV2:
        dt = dtypes.as_dtype(output_type)
        values = np.arange(*[int(a) for a in args]).astype(dt.np)
        return cls(None, [], TensorSpec([], dt), lambda env: iter(values), "_RangeDataset",
                   card=lambda env: len(values))

    @staticmethod
    def zip(*datasets: Any, name: str | None = None) -> DatasetV2:
        structure = datasets[0] if len(datasets) == 1 else datasets
        parts = nest.flatten(structure)
        cls = type(parts[0])

        def gen(env: _Env) -> Iterator:
            for items in zip(*[d._gen(env) for d in parts]):
                yield nest.pack_sequence_as(structure, list(items))

        def card(env: _Env) -> int:
            """The shortest part; any unknown part makes it unknown."""
            counts = [d._card(env) for d in parts]
            if UNKNOWN_CARDINALITY in counts:
                return UNKNOWN_CARDINALITY
            return min((n for n in counts if n != INFINITE_CARDINALITY), default=INFINITE_CARDINALITY)

        spec = nest.pack_sequence_as(structure, [d.element_spec for d in parts])
        out = cls._base()(None, [], spec, gen, "_ZipDataset", card=card)
        out._tensors = [t for d in parts for t in d._all_tensors()]
        return out

    # --- transformations ------------------------------------------------------------------------
    def batch(self, batch_size: Any, drop_remainder: bool = False, num_parallel_calls: Any = None,
              deterministic: Any = None, name: str | None = None) -> DatasetV2:
        size = _leaf(batch_size)
        static = None if isinstance(size, Tensor) or not drop_remainder else int(size)
        spec = nest.map_structure(lambda s: TensorSpec(TensorShape([static]).concatenate(s.shape), s.dtype),
                                  self._spec)
        parent = self._gen

        def gen(env: _Env) -> Iterator:
            n = int(_value(size, env))
            chunk: list = []
            for element in parent(env):
                chunk.append(nest.flatten(element))
                if len(chunk) == n:
                    yield _stack(element, chunk)
                    chunk = []
            if chunk and not drop_remainder:
                yield _stack(self._spec, chunk)

        def card(env: _Env) -> int:
            n, b = self._card(env), int(_value(size, env))
            if n < 0:
                return n
            return n // b if drop_remainder else -(-n // b)

        return self._stage([size], spec, gen, "_BatchDataset", card)

    def repeat(self, count: Any = None, name: str | None = None) -> DatasetV2:
        times = _leaf(count) if count is not None else None
        parent = self._gen

        def gen(env: _Env) -> Iterator:
            n = -1 if times is None else int(_value(times, env))
            done = 0
            while n < 0 or done < n:
                produced = False
                for element in parent(env):
                    produced = True
                    yield element
                done += 1
                if not produced:
                    return

        def card(env: _Env) -> int:
            """Forever (a negative count) is infinite, unless there is nothing to repeat."""
            k, n = (-1 if times is None else int(_value(times, env))), self._card(env)
            if k == 0:
                return 0
            if k < 0:
                return 0 if n == 0 else INFINITE_CARDINALITY
            return n if n < 0 else n * k

        return self._stage([times], self._spec, gen, "_RepeatDataset", card)

    def shuffle(self, buffer_size: Any, seed: Any = None, reshuffle_each_iteration: Any = None,
                name: str | None = None) -> DatasetV2:
        size = _leaf(buffer_size)
        rng = np.random.RandomState(_seed(seed))
        fixed = rng.get_state() if reshuffle_each_iteration is False else None
        parent = self._gen

        def gen(env: _Env) -> Iterator:
            if fixed is not None:
                rng.set_state(fixed)
            n = int(_value(size, env))
            buffer: list = []
            source = parent(env)
            for element in source:
                buffer.append(element)
                if len(buffer) >= n:
                    break
            for element in source:
                i = rng.randint(len(buffer))
                yield buffer[i]
                buffer[i] = element
            while buffer:
                yield buffer.pop(rng.randint(len(buffer)))

        return self._stage([size], self._spec, gen, "_ShuffleDataset")

    def map(self, map_func: Callable, num_parallel_calls: Any = None, deterministic: Any = None,
            name: str | None = None) -> DatasetV2:
        call = _call_with_element(map_func)
        spec = _traced_spec(call, self._spec)
        parent = self._gen

        def gen(env: _Env) -> Iterator:
            for element in parent(env):
                with context.eager_mode():
                    out = call(nest.map_structure(lambda a: EagerTensor(np.asarray(a)), element))
                yield nest.map_structure(lambda t: np.asarray(_leaf(t)), _normalize_out(out))

        return self._stage([], spec, gen, "_MapDataset")

    def filter(self, predicate: Callable, name: str | None = None) -> DatasetV2:
        call = _call_with_element(predicate)
        parent = self._gen

        def gen(env: _Env) -> Iterator:
            for element in parent(env):
                with context.eager_mode():
                    keep = call(nest.map_structure(lambda a: EagerTensor(np.asarray(a)), element))
                if bool(np.asarray(_leaf(keep))):
                    yield element

        return self._stage([], self._spec, gen, "_FilterDataset", lambda env: UNKNOWN_CARDINALITY)

    def take(self, count: Any, name: str | None = None) -> DatasetV2:
        n_leaf = _leaf(count)
        parent = self._gen

        def gen(env: _Env) -> Iterator:
            n = int(_value(n_leaf, env))
            for i, element in enumerate(parent(env)):
                if 0 <= n <= i:
                    return
                yield element

        def card(env: _Env) -> int:
            """TF's rule as it is: ``min(n, count)``, so ``take(-5)`` of a finite dataset says -5."""
            n, k = self._card(env), int(_value(n_leaf, env))
            if n == UNKNOWN_CARDINALITY:
                return n
            if n == INFINITE_CARDINALITY:
                return k
            return n if k == INFINITE_CARDINALITY else min(n, k)

        return self._stage([n_leaf], self._spec, gen, "_TakeDataset", card)

    def skip(self, count: Any, name: str | None = None) -> DatasetV2:
        n_leaf = _leaf(count)
        parent = self._gen

        def gen(env: _Env) -> Iterator:
            n = int(_value(n_leaf, env))
            for i, element in enumerate(parent(env)):
                if n < 0:
                    return
                if i >= n:
                    yield element

        def card(env: _Env) -> int:
            n, k = self._card(env), int(_value(n_leaf, env))
            if n < 0:
                return n
            return 0 if k < 0 else max(n - k, 0)

        return self._stage([n_leaf], self._spec, gen, "_SkipDataset", card)

    def concatenate(self, dataset: DatasetV2, name: str | None = None) -> DatasetV2:
        parent = self._gen

        def card(env: _Env) -> int:
            """Infinite if either part is, else unknown if either is."""
            counts = (self._card(env), dataset._card(env))
            if INFINITE_CARDINALITY in counts:
                return INFINITE_CARDINALITY
            return UNKNOWN_CARDINALITY if UNKNOWN_CARDINALITY in counts else sum(counts)

        out = self._stage([], self._spec, lambda env: _chain(parent(env), dataset._gen(env)),
                          "_ConcatenateDataset", card)
        out._tensors = dataset._all_tensors()
        return out

    def enumerate(self, start: int = 0, name: str | None = None) -> DatasetV2:
        parent = self._gen
        spec = (TensorSpec([], dtypes.int64), self._spec)
        return self._stage([], spec, lambda env: ((np.int64(start + i), e) for i, e in enumerate(parent(env))),
                           "_ZipDataset")

    def prefetch(self, buffer_size: Any, name: str | None = None) -> DatasetV2:
        return self._stage([], self._spec, self._gen, "_PrefetchDataset")

    def cache(self, filename: str = "", name: str | None = None) -> DatasetV2:
        return self._stage([], self._spec, self._gen, "CacheDataset")

    # --- cardinality ----------------------------------------------------------------------------
    def cardinality(self) -> Tensor:
        """``Dataset.cardinality``: a scalar int64 tensor, or ``INFINITE_CARDINALITY`` /
        ``UNKNOWN_CARDINALITY``. One op (TF's ``DatasetCardinality``) that counts from the
        values its tensors have when it runs: now in eager mode, per run in a graph or tf.function."""
        inputs = self._all_tensors()

        def count(*values: np.ndarray) -> tuple:
            return (np.int64(self._card({id(t): v for t, v in zip(inputs, values)})),)

        return py_call(count, [convert_to_tensor(t) for t in inputs], [(TensorShape([]), dtypes.int64)],
                       name="DatasetCardinality")[0]

    # --- iteration ------------------------------------------------------------------------------
    def __iter__(self) -> OwnedIterator:
        if not context.executing_eagerly() and context.current_trace() is None:
            raise RuntimeError("`tf.data.Dataset` only supports Python-style iteration in eager mode or "
                               "within tf.function.")
        return OwnedIterator(self)

    def as_numpy_iterator(self) -> Iterator:
        return (nest.map_structure(lambda a: a[()] if a.ndim == 0 else a, e) for e in self._gen(self._eager_env()))

    def _eager_env(self) -> _Env:
        env = {}
        for t in self._all_tensors():
            if not isinstance(t, EagerTensor):
                raise TypeError("A dataset built from graph tensors can only be iterated in a session.")
            env[id(t)] = t._value
        return env

    def __repr__(self) -> str:
        return f"<{self._kind} element_spec={self._spec}>"


def _chain(a: Iterator, b: Iterator) -> Iterator:
    yield from a
    yield from b


def _stack(structure: Any, chunk: list) -> Any:
    columns = [np.stack(c) for c in zip(*chunk)]
    return nest.pack_sequence_as(structure, columns)


def _seed(seed: Any) -> int:
    if seed is not None:
        return int(seed)
    if context.STATE.global_seed is not None:
        return int(context.STATE.global_seed)
    return 87654321


def _call_with_element(fn: Callable) -> Callable:
    """TF unpacks a tuple element into positional arguments; dicts and tensors go as one."""
    def call(element: Any) -> Any:
        return fn(*element) if isinstance(element, tuple) else fn(element)

    return call


def _normalize_out(out: Any) -> Any:
    if isinstance(out, list):
        return tuple(out)
    return out


def _traced_spec(call: Callable, spec: Any) -> Any:
    """The static spec of ``call``'s result: trace it once on placeholders in a scratch graph."""
    from runtime.graph import Graph
    from runtime.ops.array import placeholder

    graph = Graph()
    with context.eager_mode(), graph.as_default():
        args = nest.map_structure(lambda s: placeholder(s.dtype, s.shape), spec)
        out = _normalize_out(call(args))
        return nest.map_structure(lambda t: TensorSpec.from_tensor(convert_to_tensor(t)), out)


class DatasetV1(DatasetV2):
    """``tf.compat.v1.data.Dataset``: adds the graph-mode iterators."""

    def make_one_shot_iterator(self) -> Iterator_:
        return Iterator_(self, initializable=False)

    def make_initializable_iterator(self, shared_name: Any = None) -> Iterator_:
        return Iterator_(self, initializable=True)

    @property
    def output_types(self) -> Any:
        return nest.map_structure(lambda s: s.dtype, self._spec)

    @property
    def output_shapes(self) -> Any:
        return nest.map_structure(lambda s: s.shape, self._spec)


class OwnedIterator:
    """What ``iter(dataset)`` gives in eager mode (and while tracing a tf.function)."""

    def __init__(self, dataset: DatasetV2) -> None:
        self._dataset = dataset
        self._it = dataset._gen(dataset._eager_env())
        self._eager = context.executing_eagerly()  # made outside any tf.function being traced

    def __iter__(self) -> OwnedIterator:
        return self

    def __next__(self) -> Any:
        if context.executing_eagerly():
            return nest.map_structure(EagerTensor, next(self._it))
        if self._eager:
            # An iterator a tf.function captures: each call takes the next element, as TF's
            # IteratorGetNext op does, instead of the one there was when it was traced.
            specs = nest.flatten(self.element_spec)
            outs = py_call(self._next_arrays, [], [(s.shape, s.dtype) for s in specs], name="IteratorGetNext")
            return nest.pack_sequence_as(self.element_spec, list(outs))
        from runtime.convert import constant

        return nest.map_structure(constant, next(self._it))

    def _next_arrays(self) -> tuple:
        try:
            return tuple(nest.flatten(next(self._it)))
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    def get_next(self) -> Any:
        try:
            return next(self)
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec


class Iterator_:  # TF names it ``tf.compat.v1.data.Iterator``; ``Iterator`` here is typing's
    """A TF1 graph iterator: ``get_next`` ops share one position, advanced by each session run."""

    def __init__(self, dataset: DatasetV2, initializable: bool) -> None:
        self._dataset = dataset
        self._inputs = dataset._all_tensors()
        self._state: Iterator | None = None
        self._initializer = None
        if initializable:
            self._initializer = py_call(self._reset, [convert_to_tensor(t) for t in self._inputs], [],
                                        name="MakeIterator")

    @property
    def initializer(self) -> Any:
        if self._initializer is None:
            raise ValueError("The iterator does not have an initializer. This means it was likely created "
                             "using `tf.data.Dataset.make_one_shot_iterator()`. For an initializable iterator, "
                             "use `tf.data.Dataset.make_initializable_iterator()` instead.")
        return self._initializer

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    @property
    def output_types(self) -> Any:
        return nest.map_structure(lambda s: s.dtype, self.element_spec)

    @property
    def output_shapes(self) -> Any:
        return nest.map_structure(lambda s: s.shape, self.element_spec)

    def _reset(self, *values: np.ndarray) -> tuple:
        self._state = self._dataset._gen({id(t): v for t, v in zip(self._inputs, values)})
        return ()

    def _next(self, *values: np.ndarray) -> tuple:
        if self._state is None:
            if self._initializer is not None:
                raise FailedPreconditionError(None, None, "GetNext() failed because the iterator has not been "
                                              "initialized. Ensure that you have run the initializer operation "
                                              "for this iterator before getting the next element.")
            self._reset(*values)
        try:
            element = next(self._state)  # type: ignore[arg-type]
        except StopIteration:
            raise OutOfRangeError(None, None, "End of sequence") from None
        return tuple(nest.flatten(element))

    def get_next(self, name: str | None = None) -> Any:
        specs = nest.flatten(self.element_spec)
        inputs = [] if self._initializer is not None else [convert_to_tensor(t) for t in self._inputs]
        outs = py_call(self._next, inputs, [(s.shape, s.dtype) for s in specs], name=name or "IteratorGetNext")
        return nest.pack_sequence_as(self.element_spec, list(outs))


def make_one_shot_iterator(dataset: DatasetV2) -> Iterator_:
    """``tf.compat.v1.data.make_one_shot_iterator``."""
    return Iterator_(dataset, initializable=False)


def make_initializable_iterator(dataset: DatasetV2, shared_name: Any = None) -> Iterator_:
    """``tf.compat.v1.data.make_initializable_iterator``."""
    return Iterator_(dataset, initializable=True)


def cardinality(dataset: DatasetV2) -> Tensor:
    """``tf.data.experimental.cardinality``: the older spelling of ``Dataset.cardinality``."""
    return dataset.cardinality()


def get_output_types(dataset_or_iterator: Any) -> Any:
    return nest.map_structure(lambda s: s.dtype, dataset_or_iterator.element_spec)


def get_output_shapes(dataset_or_iterator: Any) -> Any:
    return nest.map_structure(lambda s: s.shape, dataset_or_iterator.element_spec)


_CONSTANTS = {"AUTOTUNE": AUTOTUNE, "INFINITE_CARDINALITY": INFINITE_CARDINALITY,
              "UNKNOWN_CARDINALITY": UNKNOWN_CARDINALITY}
V2_TABLE = {"Dataset": DatasetV2, **_CONSTANTS}
V1_TABLE = {"Dataset": DatasetV1, **_CONSTANTS, "Iterator": Iterator_,
            "make_one_shot_iterator": make_one_shot_iterator,
            "make_initializable_iterator": make_initializable_iterator,
            "get_output_types": get_output_types, "get_output_shapes": get_output_shapes}
EXPERIMENTAL = {**_CONSTANTS, "cardinality": cardinality}

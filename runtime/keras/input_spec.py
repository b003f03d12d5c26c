"""Keras 3's ``InputSpec``: what a built layer accepts, checked on every call.

A Dense layer built for 4 features refuses 5 with Keras's ValueError before any matmul runs,
and a functional model refuses an input whose shape its ``Input`` does not allow; the messages
are Keras's (``keras/src/layers/input_spec.py``).
"""

from __future__ import annotations

from typing import Any

from runtime import dtypes, nest


class InputSpec:
    def __init__(self, dtype: Any = None, shape: Any = None, ndim: Any = None, max_ndim: Any = None,
                 min_ndim: Any = None, axes: Any = None, allow_last_axis_squeeze: bool = False,
                 name: Any = None, optional: bool = False) -> None:
        self.dtype = None if dtype is None else dtypes.as_dtype(dtype).name
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.axes = dict(axes or {})
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        self.name = name
        self.optional = optional

    def __repr__(self) -> str:
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape), ("ndim", self.ndim),
                                         ("max_ndim", self.max_ndim), ("min_ndim", self.min_ndim),
                                         ("axes", self.axes or None)) if v is not None]
        return f"InputSpec({', '.join(parts)})"


def _shape_of(x: Any) -> tuple:
    shape = x.shape
    if hasattr(shape, "as_list"):
        return tuple(shape.as_list()) if shape.rank is not None else ()
    return tuple(shape)


def assert_input_compatibility(input_spec: Any, inputs: Any, layer_name: str) -> None:
    """Raise Keras's ValueError when ``inputs`` do not fit ``input_spec``."""
    if not input_spec:
        return
    if isinstance(input_spec, InputSpec) and not isinstance(inputs, (list, tuple, dict)):
        _check_one(0, inputs, input_spec, layer_name)  # the common case, without flattening
        return
    specs = nest.flatten(input_spec)
    if isinstance(inputs, dict) and all(s.name for s in specs):
        missing = [s.name for s in specs if s.name not in inputs]
        if missing:
            raise ValueError(f'Missing data for input "{missing[0]}". You passed a data dictionary with keys '
                             f"{list(inputs.keys())}. Expected the following keys: {[s.name for s in specs]}")
        inputs = [inputs[s.name] for s in specs]
    flat = nest.flatten(inputs)
    if len(flat) != len(specs):
        names = [s.name for s in specs]
        if all(names):
            keys = ", ".join(f"'{n}': ..." for n in names)
            raise ValueError(f'Layer "{layer_name}" expects {len(specs)} named input(s) with keys {names}, but it '
                             f"received {len(flat)} input tensors. Pass inputs as a dict, e.g. `layer({{{keys}}})`.")
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received {len(flat)} input '
                         f"tensors. Inputs received: {flat}")
    for index, (x, spec) in enumerate(zip(flat, specs)):
        if x is None and spec.optional:
            continue
        _check_one(index, x, spec, layer_name)


def _check_one(index: int, x: Any, spec: InputSpec, layer_name: str) -> None:
    if not hasattr(x, "shape"):
        raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type {type(x)}) as input for "
                         f"layer '{layer_name}'.")
    shape = _shape_of(x)
    ndim = len(shape)
    where = f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible with the layer:"
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise ValueError(f"{where} expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: {shape}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(f"{where} expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(f"{where} expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                         f"Full shape received: {shape}")
    if spec.dtype is not None:
        dtype = dtypes.as_dtype(x.dtype).name
        if dtype != spec.dtype:
            raise ValueError(f"{where} expected dtype={spec.dtype}, found dtype={dtype}")
    for axis, value in spec.axes.items():
        if value is not None and shape[axis] not in (value, None):
            raise ValueError(f"{where} expected axis {axis} of input shape to have value {value}, but received "
                             f"input with shape {shape}")
    if spec.shape is not None:
        spec_shape, got = spec.shape, shape
        if spec.allow_last_axis_squeeze:
            got = got[:-1] if got and got[-1] == 1 else got
            spec_shape = spec_shape[:-1] if spec_shape and spec_shape[-1] == 1 else spec_shape
        for spec_dim, dim in zip(spec_shape, got):
            if spec_dim is not None and dim is not None and spec_dim != dim:
                raise ValueError(f"{where} expected shape={spec.shape}, found shape={got}")

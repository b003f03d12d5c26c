"""Keras 3 Layer / Model / Sequential and the common layers."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from runtime import dtypes, initializers, nest
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported
from runtime.keras import activations, present_as_keras, regularizers
from runtime.keras.input_spec import InputSpec, assert_input_compatibility
from runtime.keras.keras_tensor import KerasTensor, has_keras_tensor
from runtime.keras.variables import _NAME_STACK, _SCOPES, KerasVariable, make_variable
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.tensor import EagerTensor, Tensor

_NAME_COUNTS: dict[str, int] = {}
#: The layers whose ``__call__`` is running; the outermost call clears the layers' losses.
_CALL_DEPTH: list = []
#: The ``training`` value of the running outermost call (Keras 3's call context).
_TRAINING: list = [None]
_NO_TRAINING = object()
#: Per layer class: the default of its call's ``training`` argument (``_NO_TRAINING``: no such
#: argument) and that argument's position after the inputs (None: keyword only).
_TRAINING_ARGS: dict[type, tuple[Any, int | None]] = {}


def _training_arg(cls: type) -> tuple[Any, int | None]:
    if cls not in _TRAINING_ARGS:
        params = list(inspect.signature(cls.call).parameters.values())[1:]  # after self
        param = next((p for p in params if p.name == "training"), None)
        if param is None:
            _TRAINING_ARGS[cls] = (_NO_TRAINING, None)
        else:
            default = None if param.default is inspect.Parameter.empty else param.default
            positional = param.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            _TRAINING_ARGS[cls] = (default, params.index(param) - 1 if positional else None)
    return _TRAINING_ARGS[cls]


def _resolve_training(layer: Any, args: tuple, kwargs: dict) -> None:
    """Keras 3's ``training``: the call's own argument, else the value an outer layer call set,
    else the default of the layer's ``call``; it then holds for the layers called after, and is
    passed to this layer's ``call`` when that takes it."""
    default, index = _training_arg(type(layer))
    if "training" in kwargs:
        value = kwargs["training"]
    elif index is not None and index < len(args):  # passed twice, then: a TypeError, as in Keras
        value = args[index]
    elif _TRAINING[0] is not None:
        value = _TRAINING[0]
    else:
        value = None if default is _NO_TRAINING else default
    _TRAINING[0] = value
    if default is not _NO_TRAINING and value is not None:
        kwargs["training"] = value


#: The layers whose build or call is running, with the index of their entry in ``_NAME_STACK``.
_OPEN: list[tuple[int, Any]] = []


@contextmanager
def _layer_scope(layer: Any) -> Iterator[None]:
    """Keras 3 opens a layer's name scope around its build and its call (once: not again when
    the innermost scope is already the layer's)."""
    if _OPEN and _OPEN[-1][1] is layer and _OPEN[-1][0] == len(_NAME_STACK) - 1:
        yield
        return
    _OPEN.append((len(_NAME_STACK), layer))
    _NAME_STACK.append(layer.name)
    try:
        yield
    finally:
        _NAME_STACK.pop()
        _OPEN.pop()


def _scoped_build(build: Callable) -> Callable:
    """A ``build`` that runs in the layer's name scope and marks it built, as Keras 3 wraps
    every layer's build: sub-layers built there have paths under the layer."""

    @functools.wraps(build)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> None:
        with _layer_scope(self):
            build(self, *args, **kwargs)
        self.built = True

    return wrapper


def _own_index(layer: Any) -> int | None:
    """The ``_NAME_STACK`` index of the layer's innermost open scope, if its build or call runs."""
    return next((i for i, open_layer in reversed(_OPEN) if open_layer is layer), None)


def _snake(name: str) -> str:
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", s).lower()


def auto_name(base: str) -> str:
    """Keras's unique names: layers, operations and KerasTensors share one count per base name."""
    n = _NAME_COUNTS.get(base, 0)
    _NAME_COUNTS[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def _auto_name(cls: type) -> str:
    return auto_name(_snake(cls.__name__))


def _build_shape(inputs: Any) -> Any:
    """What ``build`` receives: the input's shape as a tuple, a list of them for a list of inputs."""
    if isinstance(inputs, (list, tuple)) and any(isinstance(x, Tensor) for x in inputs):
        return [_build_shape(x) for x in inputs]
    shape = inputs.shape if hasattr(inputs, "shape") else None
    return tuple(shape.as_list()) if shape is not None and shape.rank is not None else shape


def _known_ranks(inputs: Any, args: tuple, kwargs: dict) -> None:
    """Keras 3 reads the shape of every tensor argument of a layer's first call to build it
    (`training` and masks aside), and a tensor of unknown rank has none: `layer(x, keep_prob)`
    with `keep_prob` of `TensorSpec(None)` is a ValueError."""
    given = [inputs, *args, *(v for k, v in kwargs.items() if k not in ("mask", "training") and not k.startswith("mask_"))]
    for x in nest.flatten(given):
        shape = getattr(x, "shape", None) if isinstance(x, Tensor) else None
        if shape is not None and shape.rank is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")


def _only_tensors_positional(inputs: Any, args: tuple) -> None:
    """Keras 3 takes only tensors (or None) positionally: ``layer([[1.0]])`` and
    ``dropout(x, True)`` are ValueErrors."""
    for x in nest.flatten([inputs, list(args)]):
        if x is not None and not isinstance(x, Tensor) and getattr(x, "_as_tensor", None) is None:
            raise ValueError("Only input tensors may be passed as positional arguments. The following argument "
                             f"value should be passed as a keyword argument: {x} (of type {type(x)})")


class Layer:
    """Keras 3 Layer: weights created in ``build`` on first call, computation in ``call``."""

    #: Whether a call turns NumPy and Python inputs into tensors first (a functional model
    #: converts each input to its ``Input``'s dtype itself).
    _convert_input_args = True
    #: What a built layer accepts (``runtime.keras.input_spec``), checked on every call.
    input_spec: Any = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:
            cls.build = _scoped_build(cls.__dict__["build"])  # type: ignore[method-assign]

    def __init__(self, trainable: bool = True, name: str | None = None, dtype: Any = None,
                 autocast: bool = True, input_dim: Any = None, input_shape: Any = None,
                 activity_regularizer: Any = None, **kwargs: Any) -> None:
        object.__setattr__(self, "_layers", [])
        object.__setattr__(self, "_own_weights", [])
        object.__setattr__(self, "_losses", [])
        object.__setattr__(self, "_inbound_nodes", [])
        object.__setattr__(self, "_trainable_own", [])  # own weights created trainable
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")
        self.name = name or _auto_name(type(self))
        self._named = name is not None  # a name the program gave, as a TF1 variable_scope would
        self.trainable = trainable
        self.built = False
        self._dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32
        self.activity_regularizer = regularizers.get(activity_regularizer)
        #: The batch-less input shape a first layer of a Sequential model is given.
        self._input_shape_arg = tuple(input_shape) if input_shape is not None else (
            (int(input_dim),) if input_dim is not None else None)

    def __setattr__(self, key: str, value: Any) -> None:
        if isinstance(value, Layer) and value is not self and value not in self._layers:
            self._layers.append(value)
        elif isinstance(value, (list, tuple)):
            for v in value:
                if isinstance(v, Layer) and v not in self._layers:
                    self._layers.append(v)
        object.__setattr__(self, key, value)

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        """Keras 3: the layer, the weights it created trainable, and all its sublayers."""
        value = bool(value)
        object.__setattr__(self, "_trainable", value)
        for v in self._trainable_own:
            v.trainable = value
        for layer in self._layers:
            layer.trainable = value

    @property
    def dtype(self) -> str:
        return self._dtype.name

    @property
    def compute_dtype(self) -> str:
        return self._dtype.name

    variable_dtype = compute_dtype

    # --- weights --------------------------------------------------------------------------------
    def add_weight(self, *args: Any, shape: Any = None, initializer: Any = None, dtype: Any = None,
                   trainable: bool = True, autocast: bool = True, regularizer: Any = None,
                   constraint: Any = None, aggregation: str = "none", overwrite_with_gradient: bool = False,
                   name: str | None = None) -> KerasVariable:
        if args:
            shape = args[0] if shape is None else shape
        dt = dtypes.as_dtype(dtype) if dtype is not None else self._dtype
        if initializer is None:
            initializer = "glorot_uniform" if dt.is_floating else "zeros"
        init = initializers.get(initializer)
        dims = tuple(int(d) for d in (shape or ()))
        wname = name or "variable"
        from runtime.keras.variables import current_path

        own = _own_index(self)
        if own is not None:  # at the path its build or call opened, whatever scopes opened since
            path = "/".join(_NAME_STACK[: own + 1] + [wname])
        else:
            path = current_path(f"{self.name}/{wname}")
        value = init.draw(dims, dt, self._draw_name(wname))  # type: ignore[union-attr]
        v = make_variable(np.asarray(value, dtype=dt.np), wname, path, trainable, dt)
        v.regularizer = regularizers.get(regularizer)
        self._own_weights.append(v)
        if trainable:
            self._trainable_own.append(v)
        return v

    def _draw_name(self, wname: str) -> str:
        """The name a weight's initial values are drawn by: "<layer>/<weight>" under the names
        the program gave the layers it is called in, so a weight starts equal to the TF1
        get_variable of the same name under variable_scopes named like those layers and like the
        keras.name_scopes open around them (a Keras auto-name such as "sequential" has no TF1
        scope to stand for)."""
        scopes = dict(_SCOPES)  # keras.name_scope entries of the name stack stand for variable_scopes
        layers = dict(_OPEN)  # every other entry is a layer whose build or call is running
        own = _own_index(self)
        names: list[str] = []
        for i in range(len(_NAME_STACK) if own is None else own + 1):
            if i in scopes:
                names.append(scopes[i])
            elif layers[i] is self or layers[i]._named:
                names.append(layers[i].name)
        if own is None:
            names.append(self.name)
        return "/".join([*names, wname])

    def add_variable(self, shape: Any, initializer: Any, dtype: Any = None, trainable: bool = True,
                     autocast: bool = True, regularizer: Any = None, constraint: Any = None,
                     name: str | None = None) -> KerasVariable:
        return self.add_weight(shape=shape, initializer=initializer, dtype=dtype, trainable=trainable,
                               regularizer=regularizer, constraint=constraint, name=name)

    @property
    def weights(self) -> list:
        out = list(self._own_weights)
        seen = {id(w) for w in out}
        for layer in self._layers:
            for w in layer.weights:
                if id(w) not in seen:
                    seen.add(id(w))
                    out.append(w)
        return out

    @property
    def variables(self) -> list:
        return self.weights

    @property
    def trainable_weights(self) -> list:
        return [w for w in self.weights if w.trainable] if self.trainable else []

    trainable_variables = trainable_weights

    @property
    def non_trainable_weights(self) -> list:
        return [w for w in self.weights if not w.trainable or not self.trainable]

    non_trainable_variables = non_trainable_weights

    @property
    def layers(self) -> list:
        return list(self._layers)

    # --- losses ----------------------------------------------------------------------------------
    def add_loss(self, loss: Any) -> None:
        self._losses.extend(nest.flatten(loss))

    def _clear_losses(self) -> None:
        self._losses.clear()
        for layer in self._layers:
            layer._clear_losses()

    def _flat_layers(self) -> list:
        out: list = []
        for layer in self._layers:
            if all(layer is not seen for seen in out):
                out.append(layer)
            for sub in layer._flat_layers():
                if all(sub is not seen for seen in out):
                    out.append(sub)
        return out

    @property
    def losses(self) -> list:
        """Keras 3: losses added during the last top-level call (own, then sublayers'), then the
        weight penalties, computed now from the current values of the trainable weights."""
        out = list(self._losses)
        for layer in self._flat_layers():
            out.extend(layer._losses)
        out.extend(w.regularizer(w) for w in self.trainable_weights if getattr(w, "regularizer", None) is not None)
        return out

    def count_params(self) -> int:
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer isn't built. "
                             "You can build it manually via: `layer.build(input_shape)`.")
        return int(sum(np.prod(w.shape.as_list(), dtype=np.int64) for w in self.weights))

    # --- the functional graph this layer was called in (runtime.keras.functional) ------------------
    def _node_attribute(self, attr: str, what: str) -> Any:
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined {what}.")
        values = getattr(self._inbound_nodes[0], attr)
        return values[0] if len(values) == 1 else values

    @property
    def input(self) -> Any:
        return self._node_attribute("input_tensors", "input")

    @property
    def output(self) -> Any:
        return self._node_attribute("outputs", "output")

    def get_weights(self) -> list:
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights: list) -> None:
        for w, v in zip(self.weights, weights):
            w.assign(np.asarray(v))

    # --- calling ---------------------------------------------------------------------------------
    def build(self, input_shape: Any) -> None:
        self.built = True

    def call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        return inputs

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(inputs, KerasTensor) or (isinstance(inputs, (list, tuple, dict)) and has_keras_tensor(inputs)):
            from runtime.keras.functional import symbolic_call

            return symbolic_call(self, (inputs, *args), kwargs)
        if self._convert_input_args and (args or kwargs or inputs.__class__ is not EagerTensor
                                         or inputs.dtype != self._dtype):
            inputs, args, kwargs = nest.map_structure(self._convert_input, (inputs, args, kwargs))
            _only_tensors_positional(inputs, args)
        if self.input_spec is not None:
            assert_input_compatibility(self.input_spec, inputs, self.name)
        outermost = not _CALL_DEPTH
        if outermost:
            self._clear_losses()
            _TRAINING[0] = None
        _resolve_training(self, args, kwargs)
        _CALL_DEPTH.append(self)
        try:
            with _layer_scope(self):
                return self._scoped_call(inputs, *args, **kwargs)
        finally:
            _CALL_DEPTH.pop()

    def _convert_input(self, x: Any) -> Any:
        """Keras 3's input conversion: arrays become tensors and floats take the layer's dtype; a
        variable stays one (a tensor to Keras, so gradients reach it through the layer); anything
        else (Python numbers and lists too) is left as it is."""
        if isinstance(x, KerasTensor):
            return x
        if not isinstance(x, Tensor) and not hasattr(x, "_as_tensor"):
            if not hasattr(x, "__array__"):
                return x
            x = convert_to_tensor(np.asarray(x))
        dt = dtypes.as_dtype(x.dtype)
        return M.cast(x, self._dtype) if dt.is_floating and dt != self._dtype else x

    def _scoped_call(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not self.built:
            _known_ranks(inputs, args, kwargs)
            self.build(_build_shape(inputs))
            self.built = True
        outputs = self.call(inputs, *args, **kwargs)
        if self.activity_regularizer is not None:
            for out in nest.flatten(outputs):
                if isinstance(out, Tensor):
                    loss = self.activity_regularizer(out)
                    if out.shape.rank is None or out.shape.rank > 0:
                        # Keras 3 divides by the batch size.
                        batch = M.cast(A.shape(out)[0], loss.dtype)
                        loss = M.where(M.equal(batch, 0.0), M.multiply(loss, 0.0), M.divide(loss, batch))
                    self.add_loss(loss)
        return outputs

    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


class Dense(Layer):
    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None,
                 bias_constraint: Any = None, lora_rank: Any = None, **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_spec = InputSpec(min_ndim=2)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer

    def build(self, input_shape: Any) -> None:
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_shape[-1]})
        self.kernel = self.add_weight(name="kernel", shape=(input_shape[-1], self.units),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs: Any) -> Any:
        if inputs.shape.rank is not None and inputs.shape.rank > 2:
            flat = A.reshape(inputs, [-1, inputs.shape[-1]])
            x = A.reshape(M.matmul(flat, self.kernel),
                          A.concat([A.shape(inputs)[:-1], [self.units]], 0))
        else:
            x = M.matmul(inputs, self.kernel)
        if self.bias is not None:
            x = M.add(x, self.bias)
        return self.activation(x) if self.activation is not None else x


def _pair(v: Any) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else (int(v[0]), int(v[1]))


class Conv2D(Layer):
    def __init__(self, filters: int, kernel_size: Any, strides: Any = (1, 1), padding: str = "valid",
                 data_format: Any = None, dilation_rate: Any = (1, 1), groups: int = 1, activation: Any = None,
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None, bias_constraint: Any = None,
                 **kwargs: Any) -> None:
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        if data_format not in (None, "channels_last") or _pair(dilation_rate) != (1, 1) or groups != 1:
            raise Unsupported("tf.keras.layers.Conv2D with channels_first, dilation or groups")
        self.input_spec = InputSpec(min_ndim=4)
        self.filters, self.kernel_size, self.strides = int(filters), _pair(kernel_size), _pair(strides)
        self.padding = padding.upper()
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer

    def build(self, input_shape: Any) -> None:
        self.input_spec = InputSpec(min_ndim=4, axes={-1: input_shape[-1]})
        self.kernel = self.add_weight(name="kernel", shape=(*self.kernel_size, input_shape[-1], self.filters),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None

    def call(self, inputs: Any) -> Any:
        x = N.conv2d(inputs, self.kernel, strides=self.strides, padding=self.padding)
        if self.bias is not None:
            x = N.bias_add(x, self.bias)
        return self.activation(x) if self.activation is not None else x


class _Pool2D(Layer):
    op: Any = None

    def __init__(self, pool_size: Any = (2, 2), strides: Any = None, padding: str = "valid",
                 data_format: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.input_spec = InputSpec(ndim=4)
        self.pool_size = _pair(pool_size)
        self.strides = _pair(strides) if strides is not None else self.pool_size
        self.padding = padding.upper()

    def call(self, inputs: Any) -> Any:
        return type(self).op(inputs, self.pool_size, self.strides, self.padding)


class MaxPooling2D(_Pool2D):
    op = staticmethod(N.max_pool)


class AveragePooling2D(_Pool2D):
    op = staticmethod(N.avg_pool)


class Activation(Layer):
    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs: Any) -> Any:
        return self.activation(inputs)


class Flatten(Layer):
    def call(self, inputs: Any) -> Any:
        s = inputs.shape.as_list()
        return A.reshape(inputs, [-1, int(np.prod(s[1:]))] if None not in s[1:] else [A.shape(inputs)[0], -1])


class Dropout(Layer):
    def __init__(self, rate: float, noise_shape: Any = None, seed: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rate, self.seed = rate, seed
        N.configured_dropout(rate, seed)

    def call(self, inputs: Any, training: Any = None) -> Any:
        if not training or self.rate == 0:
            return inputs
        return N.apply_dropout(inputs, self.rate, seed=self.seed)


class Model(Layer):
    """Keras Model: a Layer that owns layers (subclassing API) and optimizer bookkeeping.

    ``Model(inputs, outputs)`` makes a ``Functional`` model (``runtime.keras.functional``), as
    Keras's ``Model.__new__`` does.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            from runtime.keras.functional import Functional

            return object.__new__(Functional)
        return object.__new__(cls)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise Unsupported("a subclassed tf.keras.Model built from inputs and outputs")
        super().__init__(**kwargs)


def _unsupported_method(name: str) -> Callable:
    def method(self: Any, *args: Any, **kwargs: Any) -> None:
        raise Unsupported(f"tf.keras.Model.{name}")

    method.__name__ = name
    return method


#: Model methods the engine does not run: each raises ``Unsupported`` naming it.
MODEL_UNSUPPORTED = ("compile", "fit", "evaluate", "predict", "train_on_batch", "test_on_batch",
                     "predict_on_batch", "summary", "save", "save_weights", "load_weights", "to_json",
                     "export")
for _name in MODEL_UNSUPPORTED:
    setattr(Model, _name, _unsupported_method(_name))


present_as_keras(
    {Layer: "layers.layer", Dense: "layers.core.dense", Conv2D: "layers.convolutional.conv2d",
     MaxPooling2D: "layers.pooling.max_pooling2d", AveragePooling2D: "layers.pooling.average_pooling2d",
     Activation: "layers.activations.activation", Flatten: "layers.reshaping.flatten",
     Dropout: "layers.regularization.dropout", Model: "models.model"},
    Layer.add_weight, Layer.add_variable,
)

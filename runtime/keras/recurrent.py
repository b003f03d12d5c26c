"""Keras 3 recurrent layers (SimpleRNN/LSTM/GRU, their cells, RNN) and Embedding.

The step math follows Keras 3's ``implementation=2`` cells, which TF's backend runs on CPU:
separate ``kernel``/``recurrent_kernel``, LSTM gates ``i, f, c, o`` with ``unit_forget_bias``,
GRU gates ``z, r, h`` with ``reset_after=True`` (a ``(2, 3*units)`` bias). The time loop is
unrolled over a static time dimension into registered ops, so gradients flow through time.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from runtime import dtypes, initializers, nest
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported
from runtime.keras import activations, present_as_keras
from runtime.keras.layers import Layer
from runtime.keras.variables import _NAME_STACK
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.tensor import Tensor


def _no_dropout(layer: str, dropout: float, recurrent_dropout: float) -> None:
    if dropout or recurrent_dropout:
        raise Unsupported(f"tf.keras.layers.{layer} with dropout/recurrent_dropout")


class SimpleRNNCell(Layer):
    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", recurrent_initializer: Any = "orthogonal",
                 bias_initializer: Any = "zeros", kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 seed: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _no_dropout(type(self).__name__, dropout, recurrent_dropout)
        if any(r is not None for r in (kernel_regularizer, recurrent_regularizer, bias_regularizer)):
            raise Unsupported(f"tf.keras.layers.{type(self).__name__} with weight regularizers")
        self.units = int(units)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = kernel_initializer
        self.recurrent_initializer = recurrent_initializer
        self.bias_initializer = bias_initializer

    @property
    def state_size(self) -> Any:
        return self.units

    def _weights(self, input_dim: int, width: int, bias_shape: tuple, bias_init: Any) -> None:
        self.kernel = self._seeded_weight("kernel", (input_dim, width), self.kernel_initializer)
        self.recurrent_kernel = self._seeded_weight("recurrent_kernel", (self.units, width),
                                                    self.recurrent_initializer)
        self.bias = self._seeded_weight("bias", bias_shape, bias_init) if self.use_bias else None

    def _seeded_weight(self, name: str, shape: tuple, initializer: Any) -> Any:
        """A weight seeded by its full path: every LSTM's cell is named ``lstm_cell``, and two
        layers (a Bidirectional's two directions) must not start from the same values."""
        stack = _NAME_STACK if _NAME_STACK and _NAME_STACK[-1] == self.name else [*_NAME_STACK, self.name]
        return self.add_weight(shape=shape, name=name,
                               initializer=_PathSeeded(initializers.get(initializer), "/".join([*stack, name])))

    def build(self, input_shape: Any) -> None:
        self._weights(input_shape[-1], self.units, (self.units,), self.bias_initializer)
        self.built = True

    def call(self, sequence: Any, states: Any, training: bool = False) -> Any:
        prev = states[0] if isinstance(states, (list, tuple)) else states
        h = M.matmul(sequence, self.kernel)
        if self.bias is not None:
            h = M.add(h, self.bias)
        out = M.add(h, M.matmul(prev, self.recurrent_kernel))
        if self.activation is not None:
            out = self.activation(out)
        return out, ([out] if isinstance(states, (list, tuple)) else out)

    def get_initial_state(self, batch_size: Any = None) -> list:
        return [_zeros(batch_size, n) for n in _sizes(self.state_size)]


class _PathSeeded(initializers.Initializer):
    """Draw from ``base`` with the generator of the weight's full path."""

    def __init__(self, base: Any, path: str) -> None:
        super().__init__()
        self.base, self.path = base, path

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        return self.base.sample(shape, dtype, self.path)

    def rule(self) -> dict[str, Any] | None:
        return self.base.rule()


class _UnitForgetBias(initializers.Initializer):
    """LSTM bias: the bias initializer for ``i``, ones for ``f``, the initializer for ``c, o``."""

    def __init__(self, base: Any) -> None:
        super().__init__()
        self.base = initializers.get(base)

    def sample(self, shape: Any, dtype: Any, name: str | None) -> np.ndarray:
        n = shape[0] // 4
        parts = [self.base.sample((n,), dtype, name), np.ones((n,)), self.base.sample((2 * n,), dtype, name)]
        return np.concatenate(parts).astype(dtypes.as_dtype(dtype).np)


class LSTMCell(SimpleRNNCell):
    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, implementation: int = 2, **kwargs: Any) -> None:
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer,
                         bias_initializer, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias

    @property
    def state_size(self) -> Any:
        return [self.units, self.units]

    def build(self, input_shape: Any) -> None:
        bias_init = _UnitForgetBias(self.bias_initializer) if self.unit_forget_bias else self.bias_initializer
        self._weights(input_shape[-1], 4 * self.units, (4 * self.units,), bias_init)
        self.built = True

    def call(self, inputs: Any, states: Any, training: bool = False) -> Any:
        h_tm1, c_tm1 = states[0], states[1]
        z = M.add(M.matmul(inputs, self.kernel), M.matmul(h_tm1, self.recurrent_kernel))
        if self.bias is not None:
            z = M.add(z, self.bias)
        z0, z1, z2, z3 = A.split(z, 4, axis=1)
        act, rec = self.activation, self.recurrent_activation
        i, f = rec(z0), rec(z1)
        c = M.add(M.multiply(f, c_tm1), M.multiply(i, act(z2)))
        o = rec(z3)
        h = M.multiply(o, act(c))
        return h, [h, c]


class GRUCell(SimpleRNNCell):
    def __init__(self, units: int, activation: Any = "tanh", recurrent_activation: Any = "sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 reset_after: bool = True, implementation: int = 2, **kwargs: Any) -> None:
        super().__init__(units, activation, use_bias, kernel_initializer, recurrent_initializer,
                         bias_initializer, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after

    def build(self, input_shape: Any) -> None:
        n = self.units
        self._weights(input_shape[-1], 3 * n, (2, 3 * n) if self.reset_after else (3 * n,), self.bias_initializer)
        self.built = True

    def call(self, inputs: Any, states: Any, training: bool = False) -> Any:
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        n = self.units
        input_bias = recurrent_bias = None
        if self.bias is not None:
            if self.reset_after:
                input_bias, recurrent_bias = self.bias[0], self.bias[1]
            else:
                input_bias = self.bias
        matrix_x = M.matmul(inputs, self.kernel)
        if input_bias is not None:
            matrix_x = M.add(matrix_x, input_bias)
        x_z, x_r, x_h = A.split(matrix_x, 3, axis=-1)
        if self.reset_after:
            matrix_inner = M.matmul(h_tm1, self.recurrent_kernel)
            if recurrent_bias is not None:
                matrix_inner = M.add(matrix_inner, recurrent_bias)
        else:
            matrix_inner = M.matmul(h_tm1, self.recurrent_kernel[:, :2 * n])
        rec_z, rec_r = matrix_inner[:, :n], matrix_inner[:, n:2 * n]
        z = self.recurrent_activation(M.add(x_z, rec_z))
        r = self.recurrent_activation(M.add(x_r, rec_r))
        if self.reset_after:
            hh = M.multiply(r, matrix_inner[:, 2 * n:])
        else:
            hh = M.matmul(M.multiply(r, h_tm1), self.recurrent_kernel[:, 2 * n:])
        hh = self.activation(M.add(x_h, hh))
        h = M.add(M.multiply(z, h_tm1), M.multiply(M.subtract(1.0, z), hh))
        return h, ([h] if isinstance(states, (list, tuple)) else h)


def _sizes(state_size: Any) -> list:
    return list(state_size) if isinstance(state_size, (list, tuple)) else [state_size]


def _zeros(batch_size: Any, n: int) -> Tensor:
    shape = A.stack([batch_size, n]) if isinstance(batch_size, Tensor) else [int(batch_size), n]
    return A.zeros(shape, dtypes.float32)


class RNN(Layer):
    """Runs a cell over ``[batch, time, features]``; last output or all, plus states if asked."""

    def __init__(self, cell: Any, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 zero_output_for_mask: bool = False, **kwargs: Any) -> None:
        if stateful:
            raise Unsupported(f"tf.keras.layers.{type(self).__name__} with stateful=True")
        if isinstance(cell, (list, tuple)):
            raise Unsupported("tf.keras.layers.RNN over a list of cells")
        if not hasattr(cell, "call"):
            raise ValueError(f"Argument `cell` should have a `call` method. Received: cell={cell}")
        state_size = getattr(cell, "state_size", None)
        if state_size is None:
            raise ValueError("state_size must be specified as property on the RNN cell.")
        if not isinstance(state_size, (list, tuple, int)):
            raise ValueError(  # noqa: TRY004 - Keras 3 raises ValueError
                "state_size must be an integer, or a list/tuple of integers (one for each state tensor).")
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards

    def build(self, input_shape: Any) -> None:
        if not self.cell.built:
            self.cell.build((input_shape[0], input_shape[-1]))
            self.cell.built = True
        self.built = True

    def get_initial_state(self, batch_size: Any) -> list:
        """The cell's own initial state when it has one (a list, as Keras 3 makes it), else zeros."""
        make = getattr(self.cell, "get_initial_state", None)
        if make is None:
            return [_zeros(batch_size, n) for n in _sizes(self.cell.state_size)]
        state = make(batch_size=batch_size)
        return list(state) if nest.is_nested(state) else [state]

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: bool = False) -> Any:
        if mask is not None:
            raise Unsupported(f"tf.keras.layers.{type(self).__name__} with a mask")
        x = convert_to_tensor(sequences)
        steps = x.shape[1]
        steps = getattr(steps, "value", steps)
        if steps is None:
            raise Unsupported(f"tf.keras.layers.{type(self).__name__} over an unknown number of time steps")
        if initial_state is None:
            b = x.shape[0]
            states = self.get_initial_state(int(b) if b is not None else A.shape(x)[0])
        else:
            states = list(initial_state) if nest.is_nested(initial_state) else [initial_state]
        states = nest.map_structure(convert_to_tensor, states)
        order = range(int(steps) - 1, -1, -1) if self.go_backwards else range(int(steps))
        outputs = []
        for t in order:
            out, new = self.cell(x[:, t], states)
            states = list(new) if nest.is_nested(new) else [new]
            outputs.append(out)
        output = A.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return [output, *states] if self.return_state else output

    @property
    def units(self) -> int:
        return self.cell.units


def _layer(cell_cls: type, cell_name: str) -> type:
    """A layer class that builds its named cell from the layer's own arguments."""
    rnn_args = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll",
                "zero_output_for_mask", "name", "trainable", "dtype", "input_shape", "input_dim")

    def __init__(self: Any, units: int, **kwargs: Any) -> None:
        self._args = (units, dict(kwargs))
        _no_dropout(type(self).__name__, kwargs.get("dropout", 0.0), kwargs.get("recurrent_dropout", 0.0))
        layer_kw = {k: kwargs.pop(k) for k in rnn_args if k in kwargs}
        kwargs.pop("use_cudnn", None)
        RNN.__init__(self, cell_cls(units, name=cell_name, **kwargs), **layer_kw)

    return __init__


class SimpleRNN(RNN):
    __init__ = _layer(SimpleRNNCell, "simple_rnn_cell")


class LSTM(RNN):
    __init__ = _layer(LSTMCell, "lstm_cell")


class GRU(RNN):
    __init__ = _layer(GRUCell, "gru_cell")


class Bidirectional(Layer):
    """A forward copy and a ``go_backwards`` copy of an RNN layer (``forward_<name>``,
    ``backward_<name>``); sequences from the backward copy are flipped back before merging."""

    MERGES = ("sum", "mul", "ave", "concat", None)

    def __init__(self, layer: Any, merge_mode: Any = "concat", weights: Any = None, backward_layer: Any = None,
                 **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Bidirectional` layer with a `keras.layers.Layer` instance. "  # noqa: TRY004 (as Keras)
                             f"Received: {layer}")
        if merge_mode not in self.MERGES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             '{"sum", "mul", "ave", "concat", None}')
        if not hasattr(layer, "_args") or weights is not None:
            raise Unsupported("tf.keras.layers.Bidirectional over a layer other than SimpleRNN/LSTM/GRU")
        super().__init__(**kwargs)
        self.forward_layer = _clone(layer, f"forward_{layer.name.removeprefix('forward_')}", layer.go_backwards)
        self.backward_layer = backward_layer or _clone(
            layer, f"backward_{layer.name.removeprefix('backward_')}", not layer.go_backwards)
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state

    def call(self, sequences: Any, initial_state: Any = None, mask: Any = None, training: Any = None) -> Any:
        fw_state = bw_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            fw_state, bw_state = list(initial_state[:half]), list(initial_state[half:])
        y = self.forward_layer(sequences, initial_state=fw_state)
        y_rev = self.backward_layer(sequences, initial_state=bw_state)
        states: tuple = ()
        if self.return_state:
            states = tuple(y[1:] + y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = A.reverse(y_rev, [1])
        merged = {"concat": lambda: A.concat([y, y_rev], -1), "sum": lambda: M.add(y, y_rev),
                  "ave": lambda: M.divide(M.add(y, y_rev), 2.0), "mul": lambda: M.multiply(y, y_rev),
                  None: lambda: (y, y_rev)}[self.merge_mode]()
        if self.return_state:
            return merged + states if self.merge_mode is None else (merged, *states)
        return merged


def _clone(layer: Any, name: str, go_backwards: bool) -> Any:
    units, kwargs = layer._args
    return type(layer)(units, **(kwargs | {"name": name, "go_backwards": go_backwards}))


class TimeDistributed(Layer):
    """Applies ``layer.call`` to every time step (Keras's loop over a static time axis)."""

    def __init__(self, layer: Any, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a `keras.layers.Layer` instance. "  # noqa: TRY004 (as Keras)
                             f"Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape: Any) -> None:
        if not self.layer.built:
            self.layer.build((input_shape[0], *input_shape[2:]))
            self.layer.built = True
        self.built = True

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        x = convert_to_tensor(inputs)
        steps = x.shape[1]
        if steps is None:
            raise Unsupported("tf.keras.layers.TimeDistributed over an unknown number of time steps")
        kwargs = {"training": training} if "training" in inspect.signature(self.layer.call).parameters else {}
        return A.stack([self.layer.call(x[:, i], **kwargs) for i in range(int(steps))], axis=1)


class Embedding(Layer):
    """``ids -> embeddings[ids]``; the table starts uniform in [-0.05, 0.05] (Keras's "uniform")."""

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer: Any = "uniform",
                 embeddings_regularizer: Any = None, embeddings_constraint: Any = None, mask_zero: bool = False,
                 weights: Any = None, lora_rank: Any = None, lora_alpha: Any = None, **kwargs: Any) -> None:
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"`{arg}` must be a positive integer. Received: {arg}={value} "
                                 f"(of type {type(value).__name__}).")
        if mask_zero:
            raise Unsupported("tf.keras.layers.Embedding with mask_zero=True")
        if embeddings_regularizer is not None:
            raise Unsupported("tf.keras.layers.Embedding with embeddings_regularizer")
        kwargs.pop("input_length", None)
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = embeddings_initializer
        if weights is not None:
            self.build()
            self.set_weights(weights if isinstance(weights, list) and len(weights) == 1 else [weights])

    def build(self, input_shape: Any = None) -> None:
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim), name="embeddings",
                                          initializer=self.embeddings_initializer)
        self.built = True

    def call(self, inputs: Any) -> Any:
        ids = convert_to_tensor(inputs)
        if ids.dtype not in (dtypes.int32, dtypes.int64):
            ids = M.cast(ids, dtypes.int32)
        return A.gather(self.embeddings, ids, axis=0)


LAYERS = {"SimpleRNN": SimpleRNN, "LSTM": LSTM, "GRU": GRU, "RNN": RNN, "SimpleRNNCell": SimpleRNNCell,
          "LSTMCell": LSTMCell, "GRUCell": GRUCell, "Embedding": Embedding, "Bidirectional": Bidirectional,
          "TimeDistributed": TimeDistributed}


present_as_keras({SimpleRNN: "layers.rnn.simple_rnn", LSTM: "layers.rnn.lstm", GRU: "layers.rnn.gru",
                  RNN: "layers.rnn.rnn", SimpleRNNCell: "layers.rnn.simple_rnn", LSTMCell: "layers.rnn.lstm",
                  GRUCell: "layers.rnn.gru", Embedding: "layers.core.embedding",
                  Bidirectional: "layers.rnn.bidirectional", TimeDistributed: "layers.rnn.time_distributed"})

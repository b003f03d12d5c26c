"""The Keras 3 functional API: ``tf.keras.Input``, layers called on KerasTensors, ``Model(inputs, outputs)``.

Calling a layer on KerasTensors builds it from their shapes (its weights get the names, shapes
and order TF 2.21 gives) and records a *node*; the output shapes come from tracing the layer's
call on placeholders in a scratch graph, as Keras's TF backend does, so nothing runs, no
variable changes and no random op of the program's graph is created. A ``Functional`` model
orders its operations as Keras's ``map_graph`` does and replays the nodes on real tensors.
"""

from __future__ import annotations

import collections
import inspect
from collections.abc import Callable
from typing import Any

from runtime import context, nest
from runtime.errors import Unsupported
from runtime.keras import present_as_keras
from runtime.keras.input_spec import InputSpec, assert_input_compatibility
from runtime.keras.keras_tensor import KerasHistory, KerasTensor, has_keras_tensor, is_keras_tensor
from runtime.keras.layers import Layer, Model, _layer_scope, auto_name
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.tensor import Tensor


class Node:
    """One call of an operation on KerasTensors: its arguments and its outputs."""

    def __init__(self, operation: Any, args: tuple = (), kwargs: dict | None = None,
                 outputs: Any = None, is_input: bool = False) -> None:
        self.operation = operation
        self.arguments = (tuple(args), dict(kwargs or {}))
        self.input_tensors = [x for x in nest.flatten(list(self.arguments)) if is_keras_tensor(x)]
        self.outputs = [x for x in nest.flatten(outputs) if is_keras_tensor(x)]
        self.is_input = is_input
        operation._inbound_nodes.append(self)
        index = len(operation._inbound_nodes) - 1
        for i, x in enumerate(self.outputs):
            x._keras_history = KerasHistory(operation, index, i)

    @property
    def parent_nodes(self) -> list:
        return [x._keras_history.operation._inbound_nodes[x._keras_history.node_index]
                for x in self.input_tensors if x._keras_history is not None]

    def fill_in(self, values: dict) -> tuple[tuple, dict]:
        """The call's arguments with every KerasTensor replaced by its computed value."""
        flat = [values[id(x)] if is_keras_tensor(x) else x for x in nest.flatten(list(self.arguments))]
        args, kwargs = nest.pack_sequence_as(list(self.arguments), flat)
        return tuple(args), kwargs


class InputLayer(Layer):
    """The operation behind ``tf.keras.Input``: no weights, one node that makes the input tensor."""

    def __init__(self, shape: Any = None, batch_size: Any = None, dtype: Any = None, sparse: Any = None,
                 ragged: Any = None, batch_shape: Any = None, input_tensor: Any = None, optional: bool = False,
                 name: str | None = None, **kwargs: Any) -> None:
        if sparse or ragged or input_tensor is not None or optional:
            raise Unsupported("tf.keras.layers.InputLayer with sparse, ragged, input_tensor or optional")
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if batch_shape is None:
            if shape is None:
                raise ValueError("You must pass a `shape` argument.")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            batch_shape = (batch_size, *shape)
        super().__init__(name=name, dtype=dtype, **kwargs)
        self.batch_shape = tuple(batch_shape)
        self.built = True
        Node(self, outputs=KerasTensor(self.batch_shape, self._dtype, name=name), is_input=True)


def Input(shape: Any = None, batch_size: Any = None, dtype: Any = None, sparse: Any = None, ragged: Any = None,
          batch_shape: Any = None, name: str | None = None, tensor: Any = None, optional: bool = False) -> KerasTensor:
    """``tf.keras.Input``: the KerasTensor of a new InputLayer."""
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse, ragged=ragged,
                       batch_shape=batch_shape, name=name, input_tensor=tensor, optional=optional)
    return layer.output


# --- calling an operation on KerasTensors ----------------------------------------------------------------


def _shape_arg(inputs: Any) -> Any:
    return nest.map_structure(lambda x: x.shape if is_keras_tensor(x) else None, inputs)


def symbolic_call(operation: Any, args: tuple, kwargs: dict) -> Any:
    """``operation(*args, **kwargs)`` on KerasTensors: build, check, infer the outputs, record a node."""
    if isinstance(operation, Layer):
        inputs = args[0] if args else next(iter(kwargs.values()))
        assert_input_compatibility(operation.input_spec, inputs, operation.name)
        if not operation.built:
            with _layer_scope(operation):
                operation.build(_shape_arg(inputs))
            operation.built = True
    outputs = _output_spec(operation, args, kwargs)
    Node(operation, args, kwargs, outputs)
    return outputs


def _output_spec(operation: Any, args: tuple, kwargs: dict) -> Any:
    """Trace the call on placeholders in a scratch graph; each output becomes a KerasTensor."""
    from runtime.function import FuncGraph, _TraceContext

    layers = [operation, *operation._flat_layers()] if isinstance(operation, Layer) else []
    saved_losses = [list(layer._losses) for layer in layers]
    saved_tapes = context.STATE.tapes
    context.STATE.tapes = []
    context.STATE.function_traces.append(_TraceContext(True))
    try:
        with FuncGraph("scratch").as_default():
            flat = nest.flatten([list(args), kwargs])
            fed = [A.placeholder(x._dtype, list(x.shape)) if is_keras_tensor(x) else x for x in flat]
            call_args, call_kwargs = nest.pack_sequence_as([list(args), kwargs], fed)
            out = operation(*call_args, **call_kwargs)
            specs = [(tuple(o.shape.as_list()), o.dtype) if isinstance(o, Tensor) else o for o in nest.flatten(out)]
    finally:
        context.STATE.function_traces.pop()
        context.STATE.tapes = saved_tapes
        for layer, losses in zip(layers, saved_losses):
            layer._losses[:] = losses
    flat_out = [KerasTensor(*s) if isinstance(s, tuple) else s for s in specs]
    return nest.pack_sequence_as(out, flat_out)


class Operation:
    """A Keras op applied to KerasTensors (``x + 1``): a graph node that is not a layer."""

    def __init__(self, kind: str, fn: Callable) -> None:
        self.name = auto_name(kind)
        self._fn = fn
        self._inbound_nodes: list[Node] = []

    def __call__(self, *args: Any) -> Any:
        if has_keras_tensor(args):
            return symbolic_call(self, args, {})
        return self._fn(*args)


_OPERATIONS: dict[str, Callable] = {
    "add": M.add, "subtract": M.subtract, "multiply": M.multiply, "true_divide": M.truediv,
    "matmul": M.matmul, "negative": M.negative, "get_item": lambda x, key: x[key],
}


def operation(kind: str) -> Operation:
    return Operation(kind, _OPERATIONS[kind])


# --- the Functional model ----------------------------------------------------------------------------


def _build_map(inputs: list, outputs: list) -> tuple[list, dict]:
    """Keras's depth-first walk from the outputs: nodes from inputs to outputs, and the order in
    which each operation was first reached."""
    finished: set = set()
    in_progress: set = set()
    ordered: list[Node] = []
    indices: dict[Any, int] = {}

    def visit(tensor: KerasTensor) -> None:
        history = tensor._keras_history
        if history is None:
            return
        node = history.operation._inbound_nodes[history.node_index]
        if node in finished:
            return
        if not node.is_input and any(tensor is x for x in inputs):
            finished.add(node)
            return
        if node in in_progress:
            raise ValueError(f"Tensor {tensor} from operation '{history.operation.name}' is part of a cycle.")
        indices.setdefault(history.operation, len(indices))
        in_progress.add(node)
        if not node.is_input:
            for x in node.input_tensors:
                visit(x)
        finished.add(node)
        in_progress.remove(node)
        ordered.append(node)

    for output in outputs:
        visit(output)
    return ordered, indices


def map_graph(inputs: list, outputs: list) -> tuple[dict, list]:
    """The nodes by depth and the operations in Keras's order (deepest first, then first reached)."""
    ordered, indices = _build_map(inputs, outputs)
    in_graph = set(ordered)
    node_depth: dict[Node, int] = {}
    op_depth: dict[Any, int] = {}
    for node in reversed(ordered):
        depth = max(node_depth.setdefault(node, 0), op_depth.get(node.operation, 0))
        op_depth[node.operation] = depth
        node_depth[node] = depth
        for parent in node.parent_nodes:
            if parent in in_graph:
                node_depth[parent] = max(depth + 1, node_depth.get(parent, 0))
    for x in inputs:
        history = x._keras_history
        op = history.operation if history else None
        if op is not None and op not in op_depth:
            node = op._inbound_nodes[history.node_index]
            if node.is_input:
                op_depth[op], indices[op], node_depth[node] = 0, -1, 0
    nodes_by_depth: dict[int, list] = collections.defaultdict(list)
    for node, depth in node_depth.items():
        nodes_by_depth[depth].append(node)
    by_depth: dict[int, list] = collections.defaultdict(list)
    for op, depth in op_depth.items():
        by_depth[depth].append(op)
    operations = [op for depth in sorted(by_depth, reverse=True)
                  for op in sorted(by_depth[depth], key=lambda o: indices[o])]
    computable = {id(x) for x in inputs}
    reached: list[str] = []
    for depth in sorted(nodes_by_depth, reverse=True):
        for node in nodes_by_depth[depth]:
            for x in node.input_tensors:
                if id(x) not in computable:
                    raise ValueError(f"Graph disconnected: cannot find parent for tensor {x} at operation "
                                     f"'{node.operation}'. The following previous operations were accessed "
                                     f"without issue: {reached}")
                reached.append(node.operation.name)
            computable.update(id(x) for x in node.outputs)
    names = [op.name for op in operations]
    for name in names:
        if names.count(name) != 1:
            raise ValueError(f'The name "{name}" is used {names.count(name)} times in the model. All operation '
                             "names should be unique.")
    return nodes_by_depth, operations


def _takes(layer: Any, arg: str) -> bool:
    """Whether the layer's ``call`` has an argument ``arg`` (Keras passes ``training`` only then)."""
    try:
        return arg in inspect.signature(layer.call).parameters
    except (TypeError, ValueError):
        return False


class Functional(Model):
    """``tf.keras.Model(inputs, outputs)``: a model whose call replays a graph of layer calls."""

    _convert_input_args = False

    def __init__(self, inputs: Any, outputs: Any, name: str | None = None, **kwargs: Any) -> None:
        trainable = kwargs.pop("trainable", None)
        for what, value in (("inputs", inputs), ("outputs", outputs)):
            for x in nest.flatten(value):
                if not is_keras_tensor(x):
                    raise ValueError(f"All `{what}` values must be KerasTensors. Received: {what}={value} "
                                     f"including invalid value {x} of type {type(x)}")
        Layer.__init__(self, name=name, **kwargs)
        self._inputs_struct = inputs if not isinstance(inputs, tuple) else list(inputs)
        self._outputs_struct = outputs if not isinstance(outputs, tuple) else list(outputs)
        self._inputs = nest.flatten(inputs)
        self._outputs = nest.flatten(outputs)
        self._nodes_by_depth, self._operations = map_graph(self._inputs, self._outputs)
        self._layers[:] = [op for op in self._operations if isinstance(op, Layer)]
        if trainable is not None:
            self.trainable = trainable
        self.built = True

    @property
    def layers(self) -> list:
        return [op for op in self._operations if isinstance(op, Layer)]

    @property
    def inputs(self) -> list:
        return list(self._inputs)

    @property
    def outputs(self) -> list:
        return list(self._outputs)

    @property
    def input(self) -> Any:
        return self._inputs_struct

    @property
    def output(self) -> Any:
        return self._outputs_struct

    @property
    def input_shape(self) -> Any:
        return nest.map_structure(lambda x: x.shape, self._inputs_struct)

    @property
    def output_shape(self) -> Any:
        return nest.map_structure(lambda x: x.shape, self._outputs_struct)

    @property
    def input_spec(self) -> Any:
        def spec(x: KerasTensor, name: str | None = None) -> InputSpec:
            shape = list(x.shape)
            if shape:
                shape[0] = None
            return InputSpec(shape=tuple(shape), allow_last_axis_squeeze=True,
                             name=name or x._keras_history.operation.name)

        if isinstance(self._inputs_struct, dict):
            return [spec(self._inputs_struct[k], k) for k in sorted(self._inputs_struct)]
        return [spec(x) for x in self._inputs]

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        return _get_layer(self, name, index)

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if not has_keras_tensor(inputs):
            assert_input_compatibility(self.input_spec, inputs, self.name)
        return super().__call__(inputs, *args, **kwargs)

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if mask is not None:
            raise Unsupported("tf.keras.Model call with mask")
        flat = self._standardize_inputs(inputs)
        values = {id(x): v for x, v in zip(self._inputs, flat)}
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if node.is_input or any(id(x) not in values for x in node.input_tensors):
                    continue
                args, kwargs = node.fill_in(values)
                if training is not None and _takes(node.operation, "training"):
                    kwargs["training"] = training
                out = node.operation(*args, **kwargs)
                for x, y in zip(node.outputs, nest.flatten(out)):
                    values[id(x)] = y
        result = nest.pack_sequence_as(self._outputs_struct, [values[id(x)] for x in self._outputs])
        return result[0] if isinstance(result, list) and len(result) == 1 else result

    def _standardize_inputs(self, inputs: Any) -> list:
        """Keras's matching of the given inputs to the model's, then their dtypes and ranks."""
        struct = self._inputs_struct
        if isinstance(struct, list) and len(struct) == 1 and not isinstance(inputs, (list, tuple, dict)):
            inputs = [inputs]
        elif isinstance(inputs, dict) and not isinstance(struct, dict):
            names = [x.name for x in self._inputs]
            if not set(names) <= set(inputs):
                raise ValueError("The structure of `inputs` doesn't match the expected structure.")
            inputs = [inputs[n] for n in names]
        flat = nest.flatten(inputs)
        if len(flat) != len(self._inputs):
            raise ValueError("The structure of `inputs` doesn't match the expected structure.")
        out = []
        for x, ref in zip(flat, self._inputs):
            from runtime.convert import convert_to_tensor

            t = x if isinstance(x, Tensor) and x.dtype == ref._dtype else convert_to_tensor(
                x if not isinstance(x, Tensor) else M.cast(x, ref._dtype), dtype=ref._dtype)
            out.append(self._adjust_rank(t, ref))
        return out

    def _adjust_rank(self, t: Tensor, ref: KerasTensor) -> Tensor:
        rank, ref_rank = t.shape.rank, len(ref.shape)
        if rank is None or rank == ref_rank:
            return t
        if rank == ref_rank + 1 and t.shape.as_list()[-1] == 1:
            return A.squeeze(t, axis=[-1])
        if rank == ref_rank - 1 and ref.shape[-1] == 1:
            return A.expand_dims(t, -1)
        raise ValueError(f"Invalid input shape for input {t} with name '{ref.name}' and path ''. Expected shape "
                         f"{ref.shape}, but input has incompatible shape {tuple(t.shape.as_list())}")

    def __repr__(self) -> str:
        return f"<Functional name={self.name}, built={self.built}>"


def _get_layer(model: Any, name: str | None, index: int | None) -> Layer:
    layers = model.layers
    if index is not None and name is not None:
        raise ValueError(f"Provide only a layer name or a layer index. Received: index={index}, name={name}.")
    if index is not None:
        if len(layers) <= index:
            raise ValueError(f"Was asked to retrieve layer at index {index} but model only has {len(layers)} "
                             "layers.")
        return layers[index]
    for layer in layers:
        if layer.name == name:
            return layer
    raise ValueError(f"No such layer: {name}. Existing layers are: {[layer.name for layer in layers]}.")


present_as_keras({Functional: "models.functional", InputLayer: "layers.core.input_layer",
                  KerasTensor: "backend.common.keras_tensor", InputSpec: "layers.input_spec"})

"""TF120: TF1 cells → Keras layers in the file; `tf.nn.dynamic_rnn` → `tf.keras.layers.RNN`.

Keras's own LSTMCell/GRUCell keep two kernels, another gate order and their forget bias in
the variable, so they would change the numbers. The cells written into the file instead keep
TF1's one `kernel` over [inputs, h], its gate order and `forget_bias` added when the cell runs,
and TF1's variable names: Keras 3 names a cell's weights `<rnn layer>/<cell>/kernel`, which is
`rnn/basic_lstm_cell/kernel` when the RNN layer is named `rnn` as dynamic_rnn's scope was.
Under `tf.variable_scope("enc")` the layer is called inside `tf.keras.name_scope("enc")`, where
Keras builds its weights as `enc/rnn/basic_lstm_cell/kernel` (a layer name cannot hold '/').
A cell's state is one entry of TF1's structure (`[LSTMStateTuple(c, h)]`), so the Keras RNN
returns `(outputs, final_state)` as dynamic_rnn did. Each cell is named by its TF1 scope
(`gru_cell`), so a second cell in another scope keeps TF1's name rather than Keras's `_1`.
TF1's sub-scopes are layers built in the cell's build, where Keras 3 opens the cell's name
scope: GRUCell's `gates` and `candidate`, MultiRNNCell's cells under `cell_<i>` name scopes
(`rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel`); a MultiRNNCell's state is the tuple of
its cells' states, as TF1's.
"""

from __future__ import annotations

import libcst as cst

from ..codegen import code
from ..graph import call_args
from . import Rule

RULE = Rule(
    id="TF120",
    name="rnn-keras-layers",
    summary="TF1 RNN cells → Keras layers in the file; tf.nn.dynamic_rnn → tf.keras.layers.RNN.",
    doc=(
        "`tf.nn.rnn_cell.BasicLSTMCell(n)` (LSTMCell, BasicRNNCell, GRUCell, MultiRNNCell, their "
        "`tf.contrib.rnn` spellings) becomes a `tf.keras.layers.Layer` subclass of the same name defined in the "
        "file, with TF1's variables (`rnn/basic_lstm_cell/kernel` of shape [inputs + units, "
        "4 * units], zero bias), gate order i, j, f, o and `forget_bias` added when the cell "
        "runs. `outputs, state = tf.nn.dynamic_rnn(cell, x, initial_state=s0, dtype=tf.float32)` "
        "becomes a `tf.keras.layers.RNN(cell, return_sequences=True, return_state=True, "
        "name='rnn')` created once and called in the step as `rnn_layer(x, initial_state=[s0])`; "
        "the state keeps TF1's structure (`state.h` still reads); under literal variable_scopes "
        "each call opens `tf.keras.name_scope`s of their names, so the weights keep TF1's paths "
        "(`enc/rnn/lstm_cell/kernel`). GRUCell keeps `gates/kernel` (bias starting at ones) and "
        "`candidate/kernel` as layers of the cell; MultiRNNCell builds its cells under `cell_<i>` "
        "and its state is the tuple of theirs (`state[1].h` still reads). sequence_length and "
        "time_major keep TF118's graph-mode form."
    ),
    kind="auto",
)

# Cells with a Keras form (all of TF118's but LSTMStateTuple, which is not a cell).
KERAS_CELLS = frozenset({"BasicRNNCell", "BasicLSTMCell", "LSTMCell", "GRUCell", "MultiRNNCell"})

# Emitted definitions, by name (the keys of rnn_cells.SOURCES they replace in eager files).
SOURCES: dict[str, str] = {
    "LSTMStateTuple": 'LSTMStateTuple = collections.namedtuple("LSTMStateTuple", ("c", "h"))\n',
    "RNNCellTF1": '''
class RNNCellTF1(tf.keras.layers.Layer):
    """A tf.nn.rnn_cell cell as a Keras layer with TF1's variables and math. Its state is one
    entry holding TF1's structure, so tf.keras.layers.RNN returns it as dynamic_rnn did."""

    scope_name = "rnn_cell"

    def __init__(self, num_units, activation=None, name=None):
        super().__init__(name=name or self.scope_name)
        self.output_size = num_units
        self.state_size = [num_units]
        self.activation = activation or tf.tanh

    def zero_state(self, batch_size, dtype):
        return tf.nest.map_structure(lambda n: tf.zeros([batch_size, n], dtype), self.state_size[0])

    def get_initial_state(self, batch_size=None):
        return [self.zero_state(batch_size, self.compute_dtype)]

    def add_kernel_and_bias(self, shape, initializer=None):
        """`kernel` over [inputs, h] (TF1 keeps one) and a zero `bias`."""
        self.kernel = self.add_weight(name="kernel", shape=shape, initializer=initializer or "glorot_uniform")
        self.bias = self.add_weight(name="bias", shape=shape[-1:], initializer="zeros")

    def linear(self, values):
        return tf.nn.bias_add(tf.matmul(tf.concat(values, 1), self.kernel), self.bias)
''',
    "DenseTF1": '''
class DenseTF1(tf.keras.layers.Layer):
    """A cell's sub-scope (`gates`): TF1's `kernel` over [inputs, h] and its `bias`."""

    def __init__(self, units, kernel_initializer=None, bias_initializer=None, name=None):
        super().__init__(name=name)
        self.units = units
        self.kernel_initializer = kernel_initializer or "glorot_uniform"
        self.bias_initializer = bias_initializer or "zeros"

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=[input_shape[-1], self.units],
                                      initializer=self.kernel_initializer)
        self.bias = self.add_weight(name="bias", shape=[self.units], initializer=self.bias_initializer)

    def call(self, inputs):
        return tf.nn.bias_add(tf.matmul(inputs, self.kernel), self.bias)
''',
    "BasicRNNCell": """
class BasicRNNCell(RNNCellTF1):
    scope_name = "basic_rnn_cell"

    def build(self, input_shape):
        self.add_kernel_and_bias([input_shape[-1] + self.output_size, self.output_size])

    def call(self, inputs, states):
        output = self.activation(self.linear([inputs, states[0]]))
        return output, [output]
""",
    "BasicLSTMCell": '''
class BasicLSTMCell(RNNCellTF1):
    """Gates i, j, f, o from one kernel; `forget_bias` is added when the cell runs."""

    scope_name = "basic_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, activation=None, initializer=None, name=None):
        super().__init__(num_units, activation, name)
        self.state_size = [LSTMStateTuple(num_units, num_units)]
        self.forget_bias, self.initializer = forget_bias, initializer

    def build(self, input_shape):
        n = self.output_size
        self.add_kernel_and_bias([input_shape[-1] + n, 4 * n], self.initializer)

    def call(self, inputs, states):
        c, h = states[0]
        i, j, f, o = tf.split(self.linear([inputs, h]), 4, axis=1)
        new_c = c * tf.sigmoid(f + self.forget_bias) + tf.sigmoid(i) * self.activation(j)
        new_h = self.activation(new_c) * tf.sigmoid(o)
        return new_h, [LSTMStateTuple(new_c, new_h)]
''',
    "LSTMCell": """
class LSTMCell(BasicLSTMCell):
    scope_name = "lstm_cell"
""",
    "GRUCell": '''
class GRUCell(RNNCellTF1):
    """Reset and update gates from `gates` (bias starting at ones), then the candidate from
    [inputs, reset * h]: TF1's sub-scopes are layers of the cell, built in its build."""

    scope_name = "gru_cell"

    def __init__(self, num_units, activation=None, kernel_initializer=None, bias_initializer=None, name=None):
        super().__init__(num_units, activation, name)
        self.gates = DenseTF1(2 * num_units, kernel_initializer,
                              bias_initializer or tf.constant_initializer(1.0), name="gates")
        self.candidate = DenseTF1(num_units, kernel_initializer, bias_initializer, name="candidate")

    def build(self, input_shape):
        shape = [input_shape[0], input_shape[-1] + self.output_size]
        self.gates.build(shape)
        self.candidate.build(shape)

    def call(self, inputs, states):
        h = states[0]
        r, u = tf.split(tf.sigmoid(self.gates(tf.concat([inputs, h], 1))), 2, axis=1)
        c = self.activation(self.candidate(tf.concat([inputs, r * h], 1)))
        new_h = u * h + (1 - u) * c
        return new_h, [new_h]
''',
    "MultiRNNCell": '''
class MultiRNNCell(RNNCellTF1):
    """Cells stacked in scopes `cell_<i>`; the state is the tuple of their states."""

    scope_name = "multi_rnn_cell"

    def __init__(self, cells, name=None):
        super().__init__(cells[-1].output_size, name=name)
        self.cells = list(cells)
        self.state_size = [tuple(cell.state_size[0] for cell in self.cells)]

    def build(self, input_shape):
        for i, cell in enumerate(self.cells):
            with tf.keras.name_scope("cell_%d" % i):
                cell.build(input_shape)
            input_shape = [input_shape[0], cell.output_size]

    def call(self, inputs, states):
        new_states = []
        for cell, state in zip(self.cells, states[0]):
            inputs, new_state = cell(inputs, [state])
            new_states.append(new_state[0])
        return inputs, [tuple(new_states)]
''',
}

# tf.nn.dynamic_rnn's parameters after (cell, inputs), and the values that keep its numbers
# under a Keras RNN (parallel_iterations and swap_memory change only how it runs).
DYNAMIC_RNN_PARAMS = (
    "cell",
    "inputs",
    "sequence_length",
    "initial_state",
    "dtype",
    "parallel_iterations",
    "swap_memory",
    "time_major",
    "scope",
)
_KEPT_DEFAULTS = {"sequence_length": ("None",), "time_major": ("False",)}
_DTYPES = ("None", "float32", '"float32"', "'float32'")


def dynamic_rnn_layer(call: cst.Call, dtype_of) -> tuple[str, str] | None:
    """(the Keras RNN constructor, the arguments the instance is called with) for
    `tf.nn.dynamic_rnn(...)`, or None when the call uses what a Keras RNN does not model.

    `dtype_of` names a dtype expression's TF path (`float32` for `tf.float32`) or returns None.
    """
    if any(a.star for a in call.args):
        return None
    args = call_args(call, DYNAMIC_RNN_PARAMS)
    if "cell" not in args or "inputs" not in args or len(args) != len(call.args):
        return None
    for param, kept in _KEPT_DEFAULTS.items():
        if param in args and code(args[param]) not in kept:
            return None
    if "dtype" in args and (dtype_of(args["dtype"]) or code(args["dtype"])) not in _DTYPES:
        return None
    scope = args.get("scope")
    if scope is not None and not isinstance(scope, cst.SimpleString):
        return None
    name = scope.evaluated_value if scope is not None else "rnn"
    constructor = f"tf.keras.layers.RNN({code(args['cell'])}, return_sequences=True, return_state=True, name={name!r})"
    state = args.get("initial_state")
    return constructor, code(args["inputs"]) + (
        f", initial_state=[{code(state)}]" if state is not None else ""
    )

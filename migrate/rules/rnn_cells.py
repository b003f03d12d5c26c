"""TF118: `tf.nn.rnn_cell.*` / `tf.contrib.rnn.*` cells → classes in the file with TF1's math.

TF 2.21 with Keras 3 has no TF1 cells (`tf.compat.v1.nn.rnn_cell.BasicLSTMCell` raises "not
available with Keras 3", `tf.compat.v1.contrib` is gone), but `tf.compat.v1.nn.dynamic_rnn` and
`static_rnn` still run any object with `state_size`, `output_size`, `zero_state` and a call.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from . import Rule

RULE = Rule(
    id="TF118",
    name="rnn-cells-tf1-layout",
    summary="Define TF1's RNN cells in the file (TF 2.21 with Keras 3 has none); graph mode stays.",
    doc=(
        "`tf.nn.rnn_cell.BasicLSTMCell(n)` (and LSTMCell, GRUCell, BasicRNNCell, MultiRNNCell, "
        "LSTMStateTuple, their `tf.contrib.rnn` spellings) becomes a class of the same name "
        "defined after the imports, which TF 2.21's `tf.compat.v1.nn.dynamic_rnn`/`static_rnn` "
        "drive as they drove TF1's cells: the same variables (`rnn/basic_lstm_cell/kernel` of "
        "shape [inputs + units, 4 * units], `gru_cell/gates/bias` starting at ones), the same "
        "gate order and `forget_bias` added when the cell runs, so values, gradients and "
        "checkpoints are TF1's. Keras's LSTM/GRU keep two kernels, another gate order and their "
        "forget bias in the variable, so they are not used. This is the form for files kept in "
        "graph mode; where the program model moves the file, TF120 makes the cells Keras "
        "layers under `tf.keras.layers.RNN` instead. A cell with arguments the classes "
        "do not model (peepholes, projections, cell_clip, state_is_tuple=False, reuse) stays as "
        "written and is reported."
    ),
    kind="manual",
)


@dataclass(frozen=True)
class CellSpec:
    """A TF1 cell constructor: its parameters in order, those the emitted class takes, and
    the TF1 defaults that may be spelled out (dropped from the call)."""

    positional: tuple[str, ...]
    kept: frozenset[str]
    defaults: dict[str, str]
    needs: tuple[str, ...]  # emitted definitions (those of the emitted form that has them)


_UNITS_DEFAULTS = {"reuse": "None", "dtype": "None"}
_LSTM_DEFAULTS = {**_UNITS_DEFAULTS, "state_is_tuple": "True"}
CELLS: dict[str, CellSpec] = {
    "BasicRNNCell": CellSpec(
        ("num_units", "activation", "reuse", "name", "dtype"),
        frozenset({"num_units", "activation", "name"}),
        _UNITS_DEFAULTS,
        ("RNNCellTF1", "BasicRNNCell"),
    ),
    "GRUCell": CellSpec(
        (
            "num_units",
            "activation",
            "reuse",
            "kernel_initializer",
            "bias_initializer",
            "name",
            "dtype",
        ),
        frozenset({"num_units", "activation", "kernel_initializer", "bias_initializer", "name"}),
        _UNITS_DEFAULTS,
        ("RNNCellTF1", "DenseTF1", "GRUCell"),
    ),
    "BasicLSTMCell": CellSpec(
        ("num_units", "forget_bias", "state_is_tuple", "activation", "reuse", "name", "dtype"),
        frozenset({"num_units", "forget_bias", "activation", "name"}),
        _LSTM_DEFAULTS,
        ("LSTMStateTuple", "RNNCellTF1", "BasicLSTMCell"),
    ),
    "LSTMCell": CellSpec(
        (
            "num_units",
            "use_peepholes",
            "cell_clip",
            "initializer",
            "num_proj",
            "proj_clip",
            "num_unit_shards",
            "num_proj_shards",
            "forget_bias",
            "state_is_tuple",
            "activation",
            "reuse",
            "name",
            "dtype",
        ),
        frozenset({"num_units", "initializer", "forget_bias", "activation", "name"}),
        {
            **_LSTM_DEFAULTS,
            "use_peepholes": "False",
            "cell_clip": "None",
            "num_proj": "None",
            "proj_clip": "None",
            "num_unit_shards": "None",
            "num_proj_shards": "None",
        },
        ("LSTMStateTuple", "RNNCellTF1", "BasicLSTMCell", "LSTMCell"),
    ),
    "MultiRNNCell": CellSpec(
        ("cells", "state_is_tuple"),
        frozenset({"cells"}),
        {"state_is_tuple": "True"},
        ("RNNCellTF1", "MultiRNNCell"),
    ),
    "LSTMStateTuple": CellSpec(("c", "h"), frozenset({"c", "h"}), {}, ("LSTMStateTuple",)),
}
# Modules the cells are imported from (`from tensorflow.contrib import rnn`).
IMPORTS = frozenset({"tensorflow.contrib", "tensorflow.contrib.rnn"})
CELL_MODULES = ("nn.rnn_cell.", "contrib.rnn.")
# contrib.rnn's loops are tf.nn's, which TF 2.21 keeps under tf.compat.v1.
LOOPS = {
    "contrib.rnn.static_rnn": "nn.static_rnn",
    "contrib.rnn.static_bidirectional_rnn": "nn.static_bidirectional_rnn",
}


def cell_name(path: str) -> str | None:
    """`BasicLSTMCell` for `nn.rnn_cell.BasicLSTMCell` / `contrib.rnn.BasicLSTMCell`."""
    for module in CELL_MODULES:
        if path.startswith(module) and path[len(module) :] in CELLS:
            return path[len(module) :]
    return None


def cell_arguments(name: str, call: cst.Call) -> list[cst.Arg] | None:
    """The emitted class's arguments: TF1 defaults dropped, positional ones after the first
    by keyword (the class takes fewer); None when the call uses what the class does not model."""
    spec = CELLS[name]
    if any(a.star for a in call.args):
        return None
    args: list[cst.Arg] = []
    position = 0
    for arg in call.args:
        if arg.keyword is not None:
            param = arg.keyword.value
        elif position < len(spec.positional):
            param, position = spec.positional[position], position + 1
        else:
            return None
        if spec.defaults.get(param) == cst.Module([]).code_for_node(arg.value):
            continue
        if param not in spec.kept:
            return None
        if arg.keyword is None and param != spec.positional[0]:
            arg = arg.with_changes(
                keyword=cst.Name(param),
                equal=cst.AssignEqual(
                    whitespace_before=cst.SimpleWhitespace(""),
                    whitespace_after=cst.SimpleWhitespace(""),
                ),
            )
        args.append(arg)
    return args


# Emitted definitions, by name; each reads `tf` and (LSTMStateTuple) `collections`.
SOURCES: dict[str, str] = {
    "LSTMStateTuple": 'LSTMStateTuple = collections.namedtuple("LSTMStateTuple", ("c", "h"))\n',
    "RNNCellTF1": '''
class RNNCellTF1(object):
    """A tf.nn.rnn_cell cell with TF1's variables and math (TF 2.21 with Keras 3 has no
    tf.compat.v1.nn.rnn_cell): on the first call its variables are made with get_variable in a
    scope of its own, before any of its ops (as TF1 built them, which fixes their random seeds)."""

    scope_name = "rnn_cell"

    def __init__(self, num_units, activation=None, name=None):
        self.state_size = self.output_size = num_units
        self.activation = activation or tf.tanh
        self.name = name
        self.scope = None

    def zero_state(self, batch_size, dtype):
        return tf.nest.map_structure(lambda n: tf.zeros([batch_size, n], dtype), self.state_size)

    def __call__(self, inputs, state, scope=None):
        if self.scope is None:
            with tf.compat.v1.variable_scope(scope, default_name=self.name or self.scope_name) as self.scope:
                self.build(int(inputs.shape[-1]), inputs.dtype)
                return self.step(inputs, state)
        with tf.compat.v1.variable_scope(self.scope, reuse=True, auxiliary_name_scope=False):
            return self.step(inputs, state)

    def build(self, depth, dtype):
        pass

    def weights(self, name, shape, dtype, initializer=None, bias_initializer=None):
        """`<name>kernel` over [inputs, h] (TF1 keeps one) and `<name>bias`."""
        kernel = tf.compat.v1.get_variable(name + "kernel", shape, dtype, initializer=initializer)
        bias = tf.compat.v1.get_variable(name + "bias", shape[-1:], dtype,
                                         initializer=bias_initializer or tf.zeros_initializer())
        return kernel, bias

    @staticmethod
    def linear(values, kernel, bias):
        return tf.nn.bias_add(tf.matmul(tf.concat(values, 1), kernel), bias)
''',
    "BasicRNNCell": """
class BasicRNNCell(RNNCellTF1):
    scope_name = "basic_rnn_cell"

    def build(self, depth, dtype):
        self.kernel, self.bias = self.weights("", [depth + self.output_size, self.output_size], dtype)

    def step(self, inputs, state):
        output = self.activation(self.linear([inputs, state], self.kernel, self.bias))
        return output, output
""",
    "GRUCell": '''
class GRUCell(RNNCellTF1):
    """Reset and update gates from `gates/kernel` (bias starting at ones), then the candidate
    from [inputs, reset * h]."""

    scope_name = "gru_cell"

    def __init__(self, num_units, activation=None, kernel_initializer=None, bias_initializer=None, name=None):
        super().__init__(num_units, activation, name)
        self.kernel_initializer, self.bias_initializer = kernel_initializer, bias_initializer

    def build(self, depth, dtype):
        n = self.output_size
        self.gates = self.weights("gates/", [depth + n, 2 * n], dtype, self.kernel_initializer,
                                  self.bias_initializer or tf.constant_initializer(1.0))
        self.candidate = self.weights("candidate/", [depth + n, n], dtype, self.kernel_initializer,
                                      self.bias_initializer)

    def step(self, inputs, state):
        r, u = tf.split(tf.sigmoid(self.linear([inputs, state], *self.gates)), 2, axis=1)
        c = self.activation(self.linear([inputs, r * state], *self.candidate))
        new_h = u * state + (1 - u) * c
        return new_h, new_h
''',
    "BasicLSTMCell": '''
class BasicLSTMCell(RNNCellTF1):
    """Gates i, j, f, o from one kernel; `forget_bias` is added when the cell runs."""

    scope_name = "basic_lstm_cell"

    def __init__(self, num_units, forget_bias=1.0, activation=None, initializer=None, name=None):
        super().__init__(num_units, activation, name)
        self.state_size = LSTMStateTuple(num_units, num_units)
        self.forget_bias, self.initializer = forget_bias, initializer

    def build(self, depth, dtype):
        n = self.output_size
        self.kernel, self.bias = self.weights("", [depth + n, 4 * n], dtype, self.initializer)

    def step(self, inputs, state):
        c, h = state
        i, j, f, o = tf.split(self.linear([inputs, h], self.kernel, self.bias), 4, axis=1)
        new_c = c * tf.sigmoid(f + self.forget_bias) + tf.sigmoid(i) * self.activation(j)
        new_h = self.activation(new_c) * tf.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)
''',
    "LSTMCell": """
class LSTMCell(BasicLSTMCell):
    scope_name = "lstm_cell"
""",
    "MultiRNNCell": '''
class MultiRNNCell(RNNCellTF1):
    """Cells stacked in scopes `cell_<i>`; the state is the tuple of their states."""

    scope_name = "multi_rnn_cell"

    def __init__(self, cells):
        super().__init__(cells[-1].output_size)
        self.cells = list(cells)
        self.state_size = tuple(cell.state_size for cell in self.cells)

    def zero_state(self, batch_size, dtype):
        return tuple(cell.zero_state(batch_size, dtype) for cell in self.cells)

    def step(self, inputs, state):
        new_states = []
        for i, cell in enumerate(self.cells):
            with tf.compat.v1.variable_scope("cell_%d" % i):
                inputs, new_state = cell(inputs, state[i])
            new_states.append(new_state)
        return inputs, tuple(new_states)
''',
}


def bound_names(body: list[cst.BaseStatement]) -> set[str]:
    """Names a module binds at its top level (classes, functions, assignments, imports), but
    for cells imported by name from contrib.rnn: the classes replace those imports."""
    names: set[str] = set()
    for stmt in body:
        if _imports_cells(stmt):
            continue
        if isinstance(stmt, (cst.ClassDef, cst.FunctionDef)):
            names.add(stmt.name.value)
        for node in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(node, cst.Assign):
                names |= {t.target.value for t in node.targets if isinstance(t.target, cst.Name)}
            elif isinstance(node, (cst.Import, cst.ImportFrom)) and not isinstance(
                node.names, cst.ImportStar
            ):
                for alias in node.names:
                    bound = alias.asname.name if alias.asname else alias.name
                    names.add(cst.Module([]).code_for_node(bound).split(".")[0])
    return names


def _imports_cells(stmt: cst.BaseStatement) -> bool:
    """`from tensorflow.contrib.rnn import BasicLSTMCell, LSTMStateTuple` (cells only, no alias)."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return False
    node = stmt.body[0]
    return (
        isinstance(node, cst.ImportFrom)
        and node.module is not None
        and cst.Module([]).code_for_node(node.module) == "tensorflow.contrib.rnn"
        and not isinstance(node.names, cst.ImportStar)
        and all(
            a.asname is None and isinstance(a.name, cst.Name) and a.name.value in CELLS
            for a in node.names
        )
    )


def definitions(
    needed: set[str], alias: str, sources: dict[str, str] = SOURCES
) -> list[cst.BaseStatement]:
    """The emitted statements for `needed` cells and what they build on, in source order
    (`sources`: these TF1-layout classes, or rnn_layers' Keras layers)."""
    names = {n for cell in needed for n in CELLS[cell].needs}
    text = "\n".join(source for n, source in sources.items() if n in names)
    if alias != "tf":
        text = text.replace("tf.", f"{alias}.")
    return list(cst.parse_module(text).body)

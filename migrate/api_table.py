"""The TF1 → TF2 API table: one place for names, argument changes, optimizers and initializers.

Keys are canonical TF1 paths (see `imports.canonical`), values are spelled relative to the
`tensorflow` module of the rewritten file. The rename pass, the program move and the tests all
read these tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import tf2_names

# TF1 name -> TF2 name (same call signature).
RENAMES: dict[str, str] = {
    "log": "math.log",
    "log1p": "math.log1p",
    "log_sigmoid": "math.log_sigmoid",
    "squared_difference": "math.squared_difference",
    "random_normal": "random.normal",
    "random_uniform": "random.uniform",
    "truncated_normal": "random.truncated_normal",
    "random_shuffle": "random.shuffle",
    "multinomial": "random.categorical",
    "set_random_seed": "random.set_seed",
    "arg_max": "math.argmax",
    "arg_min": "math.argmin",
    "rsqrt": "math.rsqrt",
    "is_nan": "math.is_nan",
    "erf": "math.erf",
    "floordiv": "math.floordiv",
    "mod": "math.floormod",
    "matrix_transpose": "linalg.matrix_transpose",
    "matrix_inverse": "linalg.inv",
    "diag": "linalg.diag",
    "trace": "linalg.trace",
    "count_nonzero": "math.count_nonzero",
    "segment_sum": "math.segment_sum",
    "unsorted_segment_sum": "math.unsorted_segment_sum",
    "space_to_depth": "nn.space_to_depth",
    "to_float": "cast",
    "to_int32": "cast",
    "to_int64": "cast",
    "to_double": "cast",
    "nn.softmax_cross_entropy_with_logits_v2": "nn.softmax_cross_entropy_with_logits",
    "initializers.zeros": "zeros_initializer",
    "initializers.ones": "ones_initializer",
    "layers.flatten": "keras.layers.Flatten",
    "train.get_or_create_global_step": "Variable",
}
RENAMES |= {k: v for k, v in tf2_names.MOVED.items() if k not in RENAMES}

# Keyword renames per TF1 name (applied after the name rename).
KEYWORD_RENAMES: dict[str, dict[str, str]] = {
    name: {"keep_dims": "keepdims", "reduction_indices": "axis"}
    for name in (
        "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
        "reduce_any", "reduce_all", "reduce_logsumexp", "count_nonzero",
    )
} | {
    "argmax": {"dimension": "axis"},
    "argmin": {"dimension": "axis"},
    "arg_max": {"dimension": "axis"},
    "arg_min": {"dimension": "axis"},
    "expand_dims": {"dim": "axis"},
    "nn.softmax": {"dim": "axis"},
    "nn.log_softmax": {"dim": "axis"},
    "concat": {"concat_dim": "axis"},
}

# Calls whose TF1 positional/keyword arguments change meaning; the rename pass handles each
# by the transform named here (see rules/api_rename.py).
CALL_TRANSFORMS: dict[str, str] = {
    "nn.dropout": "dropout_keep_prob",
    "nn.softmax_cross_entropy_with_logits": "stop_gradient_labels",
    "to_float": "cast_to:float32",
    "to_int32": "cast_to:int32",
    "to_int64": "cast_to:int64",
    "to_double": "cast_to:float64",
    "train.get_or_create_global_step": "global_step_variable",
}

# Calls whose TF1 and TF2 versions share a name but not a meaning (v1 dropout takes keep_prob
# positionally, v1 softmax cross-entropy does not backpropagate into labels): their transform
# applies only to files still written against TF1.
TF1_MEANING_BY_SPELLING = frozenset({"nn.dropout", "nn.softmax_cross_entropy_with_logits"})

# TF1 names with no TF2 spelling; left in a rewrite they are kept as `tf.compat.v1.<name>`.
TF1_ONLY_PREFIXES: tuple[str, ...] = (
    "Session", "InteractiveSession", "placeholder", "placeholder_with_default",
    "get_variable", "variable_scope", "get_variable_scope", "AUTO_REUSE",
    "global_variables", "trainable_variables", "local_variables", "all_variables",
    "global_variables_initializer", "local_variables_initializer", "initialize_all_variables",
    "variables_initializer", "assign", "assign_add", "assign_sub", "get_collection",
    "add_to_collection", "GraphKeys", "reset_default_graph", "get_default_graph",
    "get_default_session", "disable_eager_execution", "disable_v2_behavior",
    "enable_eager_execution", "train.Saver", "train.GradientDescentOptimizer",
    "train.MomentumOptimizer", "train.AdamOptimizer", "train.AdagradOptimizer",
    "train.RMSPropOptimizer", "train.AdadeltaOptimizer", "train.Optimizer",
    "train.exponential_decay", "train.get_global_step", "train.global_step",
    "summary.FileWriter", "summary.merge_all", "summary.merge", "summary.scalar",
    "summary.histogram", "summary.image", "summary.text", "summary.audio", "layers.", "losses.",
    "metrics.", "contrib.", "gradients", "div", "Dimension", "logging.",
    "truncated_normal_initializer", "random_normal_initializer",
    "random_uniform_initializer", "glorot_uniform_initializer", "glorot_normal_initializer",
    "nn.rnn_cell.", "nn.static_rnn", "nn.dynamic_rnn", "app.", "flags.", "gfile.",
    "to_float", "to_int32",
)


# TF1-only names that still work in eager TF2 under `tf.compat.v1` (process setup, logging,
# files): left in a rewrite they make it partial without forcing graph mode back on.
EAGER_SAFE_PREFIXES: tuple[str, ...] = ("app.", "flags.", "logging.", "gfile.")


# TF names that are plain values, not graph operations (a statement using only these is Python).
PLAIN_VALUES = frozenset({
    "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
    "uint16", "bool", "string", "complex64", "complex128", "newaxis", "__version__", "VERSION",
    "DType", "TensorShape", "as_dtype",
})

# TF modules of plain Python helpers (tutorial dataset loaders): their results are data.
PLAIN_PREFIXES: tuple[str, ...] = ("examples.",)


def is_eager_safe(path: str) -> bool:
    return path.startswith(EAGER_SAFE_PREFIXES)


def builds_graph(path: str) -> bool:
    """False for dtypes, versions and process setup: using them builds no graph node."""
    return path not in PLAIN_VALUES and not path.startswith(PLAIN_PREFIXES) and not is_eager_safe(path)


def is_tf1_only(path: str) -> bool:
    """True when `path` (canonical) does not exist under that name in TF 2.21."""
    if path in RENAMES:
        return False
    return path in tf2_names.MISSING or any(
        path == p or (p.endswith(".") and path.startswith(p)) for p in TF1_ONLY_PREFIXES
    )


@dataclass(frozen=True)
class OptimizerSpec:
    """How a `tf.train` optimizer maps to a Keras 3 optimizer without changing numbers."""

    keras: str
    positional: tuple[str, ...]  # TF1 constructor parameters in order
    keywords: dict[str, str]  # TF1 keyword -> Keras keyword ("" drops it)
    tf1_defaults: dict[str, str]  # TF1 defaults that differ from Keras, spelled as Keras kwargs
    exact: bool = True
    note: str = ""
    fixed: dict[str, str] = field(default_factory=dict)  # always emitted


OPTIMIZERS: dict[str, OptimizerSpec] = {
    "train.GradientDescentOptimizer": OptimizerSpec(
        "SGD", ("learning_rate", "use_locking", "name"),
        {"learning_rate": "learning_rate", "use_locking": "", "name": ""}, {},
    ),
    "train.MomentumOptimizer": OptimizerSpec(
        "SGD", ("learning_rate", "momentum", "use_locking", "name", "use_nesterov"),
        {"learning_rate": "learning_rate", "momentum": "momentum", "use_locking": "",
         "name": "", "use_nesterov": "nesterov"}, {},
    ),
    "train.AdamOptimizer": OptimizerSpec(
        "Adam", ("learning_rate", "beta1", "beta2", "epsilon", "use_locking", "name"),
        {"learning_rate": "learning_rate", "beta1": "beta_1", "beta2": "beta_2",
         "epsilon": "epsilon", "use_locking": "", "name": ""},
        {"learning_rate": "0.001", "epsilon": "1e-08"},
    ),
    "train.AdagradOptimizer": OptimizerSpec(
        "Adagrad", ("learning_rate", "initial_accumulator_value", "use_locking", "name"),
        {"learning_rate": "learning_rate",
         "initial_accumulator_value": "initial_accumulator_value",
         "use_locking": "", "name": ""},
        {"initial_accumulator_value": "0.1"},
        fixed={"epsilon": "0.0"},
    ),
    "train.RMSPropOptimizer": OptimizerSpec(
        "RMSprop",
        ("learning_rate", "decay", "momentum", "epsilon", "use_locking", "centered", "name"),
        {"learning_rate": "learning_rate", "decay": "rho", "momentum": "momentum",
         "epsilon": "epsilon", "use_locking": "", "centered": "centered", "name": ""},
        {"rho": "0.9", "epsilon": "1e-10"},
        exact=False,
        note=(
            "TF1 RMSProp starts its mean-square accumulator at ones, Keras RMSprop at zeros; "
            "early steps differ. To reproduce TF1 exactly, build the optimizer and assign 1.0 "
            "to its `*_velocity` variables before the first step."
        ),
    ),
    "train.AdadeltaOptimizer": OptimizerSpec(
        "Adadelta", ("learning_rate", "rho", "epsilon", "use_locking", "name"),
        {"learning_rate": "learning_rate", "rho": "rho", "epsilon": "epsilon",
         "use_locking": "", "name": ""},
        {"learning_rate": "0.001", "rho": "0.95", "epsilon": "1e-08"},
    ),
}


@dataclass(frozen=True)
class InitializerSpec:
    """A TF1 initializer as a Keras initializer and as an explicit initial-value expression.

    `keras` and `value` are templates: `{args}` is the call's arguments with TF1 defaults made
    explicit, `{shape}` and `{dtype}` the variable's.
    """

    keras: str
    value: str
    defaults: tuple[tuple[str, str], ...] = ()  # (keyword, TF1 default) in positional order


INITIALIZERS: dict[str, InitializerSpec] = {
    "zeros_initializer": InitializerSpec("'zeros'", "tf.zeros({shape}, {dtype})"),
    "ones_initializer": InitializerSpec("'ones'", "tf.ones({shape}, {dtype})"),
    "constant_initializer": InitializerSpec(
        "tf.constant_initializer({args})", "tf.constant_initializer({args})({shape}, {dtype})",
        (("value", "0"),),
    ),
    "random_normal_initializer": InitializerSpec(
        "tf.random_normal_initializer({args})",
        "tf.random.normal({shape}, {args}, dtype={dtype})",
        (("mean", "0.0"), ("stddev", "1.0"), ("seed", "None")),
    ),
    "truncated_normal_initializer": InitializerSpec(
        "tf.keras.initializers.TruncatedNormal({args})",
        "tf.random.truncated_normal({shape}, {args}, dtype={dtype})",
        (("mean", "0.0"), ("stddev", "1.0"), ("seed", "None")),
    ),
    "random_uniform_initializer": InitializerSpec(
        "tf.random_uniform_initializer({args})",
        "tf.random.uniform({shape}, {args}, dtype={dtype})",
        (("minval", "0.0"), ("maxval", "1.0"), ("seed", "None")),
    ),
    "glorot_uniform_initializer": InitializerSpec(
        "'glorot_uniform'", "tf.keras.initializers.GlorotUniform()({shape}, {dtype})"
    ),
    "glorot_normal_initializer": InitializerSpec(
        "'glorot_normal'", "tf.keras.initializers.GlorotNormal()({shape}, {dtype})"
    ),
    "contrib.layers.xavier_initializer": InitializerSpec(
        "'glorot_uniform'", "tf.keras.initializers.GlorotUniform()({shape}, {dtype})"
    ),
}
# get_variable without an initializer: glorot_uniform for floats (biases too), zeros for ints.
DEFAULT_FLOAT_INITIALIZER = "glorot_uniform_initializer"
DEFAULT_INT_INITIALIZER = "zeros_initializer"

# tf.layers.* functions -> Keras layer classes (call arguments split into constructor + input).
LAYERS: dict[str, str] = {
    "layers.dense": "Dense",
    "layers.conv2d": "Conv2D",
    "layers.max_pooling2d": "MaxPooling2D",
    "layers.average_pooling2d": "AveragePooling2D",
    "layers.flatten": "Flatten",
    "layers.dropout": "Dropout",
    "layers.batch_normalization": "BatchNormalization",
}

# Learning-rate decays computed from global_step -> Keras schedules (exact when the step that
# drives them is the one the optimizer increments): TF1 name -> (Keras class, TF1 positional
# parameters, TF1 keyword -> Keras keyword).
SCHEDULES: dict[str, tuple[str, tuple[str, ...], dict[str, str]]] = {
    "train.exponential_decay": (
        "ExponentialDecay",
        ("learning_rate", "global_step", "decay_steps", "decay_rate", "staircase", "name"),
        {"learning_rate": "initial_learning_rate", "decay_steps": "decay_steps",
         "decay_rate": "decay_rate", "staircase": "staircase"},
    ),
    "train.inverse_time_decay": (
        "InverseTimeDecay",
        ("learning_rate", "global_step", "decay_steps", "decay_rate", "staircase", "name"),
        {"learning_rate": "initial_learning_rate", "decay_steps": "decay_steps",
         "decay_rate": "decay_rate", "staircase": "staircase"},
    ),
    "train.piecewise_constant": (
        "PiecewiseConstantDecay", ("x", "boundaries", "values", "name"),
        {"boundaries": "boundaries", "values": "values"},
    ),
}

"""The TF1 → TF2 API table: one place for names, argument changes, optimizers and initializers.

Keys are canonical TF1 paths (see `imports.canonical`), values are spelled relative to the
`tensorflow` module of the rewritten file. The rename pass, the program move and the tests all
read these tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import libcst as cst

from . import api_data

# TF1 name -> TF2 name: TensorFlow's own renames whose target TF 2.21 has (generated, see
# api_data), and where tfmigrate spells a name otherwise. Arguments that change go through
# CALL_TRANSFORMS (hand-written meaning changes) or the recorded signatures (`signature_calls`).
RENAMES: dict[str, str] = {
    "set_random_seed": "random.set_seed",
    "arg_max": "math.argmax",
    "arg_min": "math.argmin",
    "diag": "linalg.diag",
    "to_float": "cast",
    "to_int32": "cast",
    "to_int64": "cast",
    "to_double": "cast",
    "to_complex64": "cast",
    "to_complex128": "cast",
    "to_bfloat16": "cast",
    "nn.xw_plus_b": "nn.bias_add",  # its arguments: CALL_TRANSFORMS
    "initializers.zeros": "zeros_initializer",
    "initializers.ones": "ones_initializer",
    "train.get_or_create_global_step": "Variable",
    # contrib's tensor-proto helpers moved to the top level (same signatures)
    "contrib.util.make_tensor_proto": "make_tensor_proto",
    "contrib.util.make_ndarray": "make_ndarray",
    "contrib.util.constant_value": "get_static_value",
    # TF2's space_to_batch is TF1's space_to_batch_nd (same signature)
    "space_to_batch_nd": "space_to_batch",
    "manip.space_to_batch_nd": "space_to_batch",
    # FastGFile was GFile without locking; TF2 has one file class (same name and mode arguments)
    "gfile.FastGFile": "io.gfile.GFile",
}

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
    "nn.in_top_k": "in_top_k_targets_first",
    "math.in_top_k": "in_top_k_targets_first",
    "to_float": "cast_to:float32",
    "to_int32": "cast_to:int32",
    "to_int64": "cast_to:int64",
    "to_double": "cast_to:float64",
    "to_complex64": "cast_to:complex64",
    "to_complex128": "cast_to:complex128",
    "to_bfloat16": "cast_to:bfloat16",
    "train.get_or_create_global_step": "global_step_variable",
    "name_scope": "name_scope",
    "image.extract_glimpse": "extract_glimpse",
    "strings.split": "strings_split",
    "device": "device",
    "contrib.summary.always_record_summaries": "record_if:True",
    "contrib.summary.never_record_summaries": "record_if:False",
    "nn.xw_plus_b": "xw_plus_b",
    "contrib.layers.l2_regularizer": "regularizer:contrib.layers.l2_regularizer",
    "contrib.layers.l1_regularizer": "regularizer:contrib.layers.l1_regularizer",
    # TF2 moved `weights` before `dtype` and `name`: arguments after the first three go by name.
    "confusion_matrix": "keywords_after:3:labels,predictions,num_classes,dtype,name,weights",
}

# Calls whose TF1 and TF2 versions share a name but not a meaning (v1 dropout takes keep_prob
# positionally, v1 softmax cross-entropy does not backpropagate into labels, v1 in_top_k takes
# predictions before targets, v1 strings.split returns a SparseTensor): their transform applies
# only to files still written against TF1.
TF1_MEANING_BY_SPELLING = frozenset({
    "nn.dropout", "nn.softmax_cross_entropy_with_logits", "nn.in_top_k", "math.in_top_k",
    "image.extract_glimpse", "strings.split",
})
# Transforms whose result is the whole TF2 expression (a method called on the TF2 call's
# result, an argument TF2 takes where the signatures alone would not say so): neither rebound
# nor renamed after. None from one: the call is not one it converts.
COMPLETE_TRANSFORMS = frozenset({"strings_split", "device"})

# Queue-runner input pipelines: TF1-only, with no TF2 form the rewriter can produce (tf.data is
# the replacement, a redesign of the input code).
QUEUE_INPUTS: tuple[str, ...] = (
    "train.start_queue_runners", "train.string_input_producer", "train.input_producer",
    "train.range_input_producer", "train.slice_input_producer", "train.batch",
    "train.shuffle_batch", "train.batch_join", "train.shuffle_batch_join", "train.QueueRunner",
    "train.add_queue_runner", "FIFOQueue", "RandomShuffleQueue", "PaddingFIFOQueue",
    "WholeFileReader", "TextLineReader", "TFRecordReader", "FixedLengthRecordReader",
)


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
    "to_float", "to_int32", "data.make_one_shot_iterator", "data.make_initializable_iterator",
    # The TF1-to-TF2 migration shims live in tf_keras (Keras 2) only; Keras 3 has no form.
    "keras.utils.DeterministicRandomTestTool", "keras.utils.track_tf1_style_variables",
    "keras.utils.get_or_create_layer",
    *QUEUE_INPUTS,
)


# TF1-only names that still work in eager TF2 under `tf.compat.v1` (process setup, logging,
# files): left in a rewrite they make it partial without forcing graph mode back on.
EAGER_SAFE_PREFIXES: tuple[str, ...] = ("app.", "flags.", "logging.", "gfile.")


# TF names that are plain values, not graph operations (a statement using only these is Python).
PLAIN_VALUES = frozenset({
    "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
    "uint16", "bool", "string", "complex64", "complex128", "newaxis", "__version__", "VERSION",
    "DType", "TensorShape", "as_dtype",
    # a checkpoint directory's state, read from disk when called: a proto or a path
    "train.get_checkpoint_state", "train.latest_checkpoint", "train.checkpoint_exists",
})

# TF modules of plain Python helpers (tutorial dataset loaders): their results are data.
PLAIN_PREFIXES: tuple[str, ...] = ("examples.",)


def is_eager_safe(path: str) -> bool:
    return path.startswith(EAGER_SAFE_PREFIXES)


# compat.v1 functions a rewrite writes itself (TF1's implied values) that run in eager code too.
EAGER_COMPAT_CALLS = frozenset({"train.get_or_create_global_step"})


# compat.v1 functions kept for their TF1 numbers (image_resize): plain ops, eager or traced.
EAGER_COMPAT_FUNCTIONS = frozenset({
    "image.resize_images", "image.resize_bilinear", "image.resize_nearest_neighbor",
    "image.resize_bicubic", "image.resize_area",
})


def runs_eagerly(path: str) -> bool:
    """TF1-only names whose compat.v1 form also works in eager code and tf.function."""
    return (is_eager_safe(path) or path in LOSSES or path in EAGER_COMPAT_CALLS
            or path in EAGER_COMPAT_FUNCTIONS)


def builds_graph(path: str) -> bool:
    """False for dtypes, versions and process setup: using them builds no graph node."""
    return path not in PLAIN_VALUES and not path.startswith(PLAIN_PREFIXES) and not is_eager_safe(path)


def _listed_tf1_only(path: str) -> bool:
    return any(path == p or (p.endswith(".") and path.startswith(p)) for p in TF1_ONLY_PREFIXES)


# TensorFlow's renames, but not to a name whose TF1 and TF2 meanings differ (`summary.audio`):
# TF1 calls of those stay TF1 and are spelled compat.v1. contrib's summaries were TF2's already.
RENAMES |= {k: v for k, v in api_data.renames().items()
            if k not in RENAMES and (k.startswith("contrib.summary.") or not _listed_tf1_only(v))}


@cache
def is_tf1_only(path: str) -> bool:
    """True when `path` (canonical) does not exist under that name in TF 2.21, but does under
    `tf.compat.v1` (or is one of the TF1 constructs listed by prefix).

    The tables are fixed, so each path is judged once (renames ask for every attribute)."""
    if path in RENAMES:
        return False
    return _listed_tf1_only(path) or (
        not api_data.exists(path) and api_data.exists(f"compat.v1.{path}")
    )


@dataclass(frozen=True)
class OptimizerSpec:
    """How a `tf.train` optimizer maps to a Keras 3 optimizer without changing numbers."""

    keras: str
    positional: tuple[str, ...]  # TF1 constructor parameters in order
    keywords: dict[str, str]  # TF1 keyword -> Keras keyword ("" drops it)
    tf1_defaults: dict[str, str]  # the learning rate and TF1 defaults Keras lacks, as Keras kwargs
    exact: bool = True
    note: str = ""
    fixed: dict[str, str] = field(default_factory=dict)  # always emitted
    # Keywords Keras subtracts from 1 in float64 where TF1 did it in float32 (reported).
    float64_args: tuple[str, ...] = ()
    drift: str = ""  # why a correct rewrite can still part from TF1 in the last bits (reported)


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
        float64_args=("beta_1", "beta_2"),
        drift=(
            "Keras's Adam computes beta ** step with pow, TF1 multiplies an accumulator by beta "
            "each step: the bias correction differs in its last bits from the second step on, "
            "and Adam's normalised update can amplify that where a gradient is near zero"
        ),
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
        {"epsilon": "1e-10"},
        exact=False,
        float64_args=("rho",),
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
        {"learning_rate": "0.001", "epsilon": "1e-08"},
        float64_args=("rho",),
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


XAVIER_NORMAL = "contrib.layers.xavier_initializer(uniform=False)"
_XAVIER_NORMAL_KERAS = (
    "tf.keras.initializers.VarianceScaling(scale=1.3 * 0.87962566103423978 ** 2, mode='fan_avg', "
    "distribution='truncated_normal')"
)
INITIALIZERS: dict[str, InitializerSpec] = {
    "zeros_initializer": InitializerSpec("'zeros'", "tf.zeros({shape}, {dtype})"),
    "ones_initializer": InitializerSpec("'ones'", "tf.ones({shape}, {dtype})"),
    "constant_initializer": InitializerSpec(
        "tf.constant_initializer({args})", "tf.constant_initializer({args})({shape}, {dtype})",
        (("value", "0"),),
    ),
    "random_normal_initializer": InitializerSpec(
        "tf.random_normal_initializer({args})",
        "tf.random_normal_initializer({args})({shape}, {dtype})",
        (("mean", "0.0"), ("stddev", "1.0"), ("seed", "None")),
    ),
    "truncated_normal_initializer": InitializerSpec(
        "tf.keras.initializers.TruncatedNormal({args})",
        "tf.keras.initializers.TruncatedNormal({args})({shape}, {dtype})",
        (("mean", "0.0"), ("stddev", "1.0"), ("seed", "None")),
    ),
    "random_uniform_initializer": InitializerSpec(
        "tf.random_uniform_initializer({args})",
        "tf.random_uniform_initializer({args})({shape}, {dtype})",
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
    # xavier_initializer(uniform=False): contrib's truncated normal has stddev sqrt(1.3 / fan_avg),
    # Keras divides sqrt(scale / fan_avg) by the truncation factor 0.8796...
    XAVIER_NORMAL: InitializerSpec(
        _XAVIER_NORMAL_KERAS, f"{_XAVIER_NORMAL_KERAS}({{shape}}, {{dtype}})"
    ),
}


def initializer_key(path: str, call: cst.Call | None) -> str:
    """The INITIALIZERS key of an initializer call: its path, or a variant its arguments pick."""
    if path == "contrib.layers.xavier_initializer" and call is not None:
        uniform = next((a.value for i, a in enumerate(call.args)
                        if (a.keyword is None and i == 0) or (a.keyword is not None and a.keyword.value == "uniform")),
                       None)
        if isinstance(uniform, cst.Name) and uniform.value == "False":
            return XAVIER_NORMAL
    return path
# get_variable without an initializer: glorot_uniform for floats (biases too), zeros for ints.
DEFAULT_FLOAT_INITIALIZER = "glorot_uniform_initializer"
DEFAULT_INT_INITIALIZER = "zeros_initializer"

@dataclass(frozen=True)
class LayerSpec:
    """How a TF1 layer function maps to a Keras 3 layer object without changing numbers.

    The call `f(inputs, *args, **kwargs)` becomes `Keras(<constructor args>)(inputs, <call
    args>)`: arguments are bound to the TF1 `positional` names, then renamed by `keywords`
    ("" drops one: reuse, collections and fused have no Keras meaning).
    """

    keras: str
    positional: tuple[str, ...]  # TF1 parameters after `inputs`, in order
    keywords: dict[str, str] = field(default_factory=dict)  # TF1 keyword -> Keras keyword
    leading: int = 0  # how many of `positional` Keras also takes positionally, in that order
    call: dict[str, str] = field(default_factory=dict)  # TF1 keyword -> keyword of the layer call
    tf1_defaults: dict[str, str] = field(default_factory=dict)  # Keras keyword -> TF1 default
    call_defaults: dict[str, str] = field(default_factory=dict)  # call keyword -> TF1 default
    complement: frozenset[str] = frozenset()  # TF1 keywords whose value v becomes 1 - v
    no_bias_when_none: str = ""  # a TF1 keyword whose None means no bias (use_bias=False)
    # TF1 keywords with no Keras form -> their TF1 default: written as that, they change nothing
    unsupported: dict[str, str] = field(default_factory=dict)
    weights: bool = True  # False for pooling, flatten and dropout: no variables to train or save
    in_graph: bool = True  # False: built in graph mode, Keras would not run its state updates
    scope: str = ""  # the variable scope TF1 names an unnamed layer by, when Keras names it otherwise


_DROPPED = {"reuse": "", "fused": "", "variables_collections": "", "outputs_collections": ""}
_CONTRIB_KEYWORDS = {
    **_DROPPED, "num_outputs": "units", "activation_fn": "activation", "scope": "name",
    "weights_initializer": "kernel_initializer", "weights_regularizer": "kernel_regularizer",
    "biases_initializer": "bias_initializer", "biases_regularizer": "bias_regularizer",
}
_CONV_PARAMS = (
    "filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
    "use_bias", "kernel_initializer", "bias_initializer", "kernel_regularizer",
    "bias_regularizer", "activity_regularizer", "kernel_constraint", "bias_constraint",
    "trainable", "name", "reuse",
)
_NORMALIZER = {"normalizer_fn": "None", "normalizer_params": "None"}
_POOL_PARAMS = ("pool_size", "strides", "padding", "data_format", "name")

# TF1 layer functions -> Keras layers (tf.layers defaults equal Keras 3's: glorot_uniform
# kernels, zero biases, batch norm momentum 0.99 and epsilon 1e-3; contrib.layers' differ).
LAYER_SPECS: dict[str, LayerSpec] = {
    "layers.dense": LayerSpec(
        "Dense",
        ("units", "activation", "use_bias", "kernel_initializer", "bias_initializer",
         "kernel_regularizer", "bias_regularizer", "activity_regularizer", "kernel_constraint",
         "bias_constraint", "trainable", "name", "reuse"),
        _DROPPED, leading=1,
    ),
    "layers.conv2d": LayerSpec("Conv2D", _CONV_PARAMS, _DROPPED, leading=2),
    "layers.conv2d_transpose": LayerSpec(
        "Conv2DTranspose",
        tuple(p for p in _CONV_PARAMS if p != "dilation_rate"), _DROPPED, leading=2,
    ),
    "layers.max_pooling2d": LayerSpec("MaxPooling2D", _POOL_PARAMS, leading=2, weights=False),
    "layers.average_pooling2d": LayerSpec("AveragePooling2D", _POOL_PARAMS, leading=2, weights=False),
    "layers.flatten": LayerSpec("Flatten", ("name", "data_format"), weights=False),
    "layers.dropout": LayerSpec(
        "Dropout", ("rate", "noise_shape", "seed", "training", "name"), leading=1,
        call={"training": "training"}, weights=False,
    ),
    "layers.batch_normalization": LayerSpec(
        "BatchNormalization",
        ("axis", "momentum", "epsilon", "center", "scale", "beta_initializer",
         "gamma_initializer", "moving_mean_initializer", "moving_variance_initializer",
         "beta_regularizer", "gamma_regularizer", "beta_constraint", "gamma_constraint",
         "training", "trainable", "name", "reuse", "renorm", "renorm_clipping",
         "renorm_momentum", "fused", "virtual_batch_size", "adjustment"),
        _DROPPED, call={"training": "training"},
        unsupported={"renorm": "False", "renorm_clipping": "None", "renorm_momentum": "0.99", "adjustment": "None"},
        in_graph=False,
    ),
    "contrib.layers.fully_connected": LayerSpec(
        "Dense",
        ("num_outputs", "activation_fn", "normalizer_fn", "normalizer_params",
         "weights_initializer", "weights_regularizer", "biases_initializer",
         "biases_regularizer", "reuse", "variables_collections", "outputs_collections",
         "trainable", "scope"),
        _CONTRIB_KEYWORDS, leading=1, tf1_defaults={"activation": "tf.nn.relu"},
        no_bias_when_none="biases_initializer", unsupported=_NORMALIZER, scope="fully_connected",
    ),
    "contrib.layers.conv2d": LayerSpec(
        "Conv2D",
        ("num_outputs", "kernel_size", "stride", "padding", "data_format", "rate",
         "activation_fn", "normalizer_fn", "normalizer_params", "weights_initializer",
         "weights_regularizer", "biases_initializer", "biases_regularizer", "reuse",
         "variables_collections", "outputs_collections", "trainable", "scope"),
        {**_CONTRIB_KEYWORDS, "num_outputs": "filters", "stride": "strides",
         "rate": "dilation_rate"},
        leading=2, tf1_defaults={"padding": "'same'", "activation": "tf.nn.relu"},
        no_bias_when_none="biases_initializer", unsupported=_NORMALIZER, scope="Conv",
    ),
    "contrib.layers.max_pool2d": LayerSpec(
        "MaxPooling2D", ("kernel_size", "stride", "padding", "data_format", "outputs_collections", "scope"),
        {**_DROPPED, "kernel_size": "pool_size", "stride": "strides", "scope": "name"},
        leading=1, tf1_defaults={"strides": "2"}, weights=False,
    ),
    "contrib.layers.flatten": LayerSpec(
        "Flatten", ("outputs_collections", "scope"), {**_DROPPED, "scope": "name"}, weights=False,
    ),
    "contrib.layers.dropout": LayerSpec(
        "Dropout", ("keep_prob", "noise_shape", "is_training", "outputs_collections", "scope", "seed"),
        {**_DROPPED, "keep_prob": "rate", "scope": "name"},
        call={"is_training": "training"}, tf1_defaults={"rate": "0.5"},
        call_defaults={"training": "True"},  # contrib's dropout trains unless told otherwise
        complement=frozenset({"keep_prob"}), weights=False,
    ),
}

# tf.layers.* functions -> Keras layer classes.
LAYERS: dict[str, str] = {path: spec.keras for path, spec in LAYER_SPECS.items()}

# contrib regularizers -> Keras regularizers, as (class, argument template over `scale`):
# TF1's l2 is scale * sum(w ** 2) / 2, Keras's L2 is l2 * sum(w ** 2).
REGULARIZERS: dict[str, tuple[str, str]] = {
    "contrib.layers.l2_regularizer": ("L2", "0.5 * {scale}"),
    "contrib.layers.l1_regularizer": ("L1", "{scale}"),
}
# Calls that read TF1's REGULARIZATION_LOSSES collection -> how the layers' losses stand in.
REGULARIZATION_READS: dict[str, str] = {
    "losses.get_regularization_loss": "tf.add_n({losses})",
    "losses.get_regularization_losses": "{losses}",
}


# TF1 summary ops -> their TF2 `tf.summary` function (same (name, data) arguments plus a step).
SUMMARY_OPS: dict[str, str] = {
    "summary.scalar": "scalar",
    "summary.histogram": "histogram",
    "summary.image": "image",
    "summary.text": "text",
}
SUMMARY_MERGES = ("summary.merge_all", "summary.merge")


def is_tf2_call(path: str, keywords: set[str]) -> bool:
    """A call spelled like TF1 that only TF2 accepts: a summary op given a `step`."""
    return (path in SUMMARY_OPS or path == "summary.audio") and "step" in keywords


# Initializers a rewrite writes under their TF1 name in TF2's form: keywords only, the first
# default spelled out, no dtype (initializer -> its first keyword).
TF2_FORM_INITIALIZERS: dict[str, str] = {
    path: spec.defaults[0][0] for path, spec in INITIALIZERS.items()
    if spec.defaults and spec.keras.startswith(f"tf.{path}(")
}


def in_tf2_form(path: str, keywords: set[str], positional: int) -> bool:
    """A call in the form a rewrite writes it: TF2 code (a rewrite's own output) has nothing
    left to change there, though the name also spells TF1 code."""
    first = TF2_FORM_INITIALIZERS.get(path)
    if first is not None:
        return not positional and first in keywords and "dtype" not in keywords
    return is_tf2_call(path, keywords)


@dataclass(frozen=True)
class LossSpec:
    """A `tf.losses` function as the TF2 expression it computes with its default arguments.

    TF1 reduces with SUM_BY_NONZERO_WEIGHTS: with the default weights of 1 that is the mean
    over every element, so the template is a plain `tf.reduce_mean`. `{name}` is an argument
    as written, `{(name)}` the same in parentheses when it is not a single term.
    """

    params: tuple[str, ...]  # TF1 parameters in order
    template: str
    defaults: dict[str, str] = field(default_factory=dict)  # template parameters TF1 defaults


# Arguments a loss may carry and still have its template's meaning.
LOSS_NEUTRAL_ARGS: dict[str, tuple[str, ...]] = {
    "weights": ("1", "1.0"), "label_smoothing": ("0", "0.0"), "scope": (), "loss_collection": (),
}
_LOSS_TAIL = ("weights", "scope", "loss_collection", "reduction")
LOSSES: dict[str, LossSpec] = {
    "losses.mean_squared_error": LossSpec(
        ("labels", "predictions", *_LOSS_TAIL),
        "tf.reduce_mean(tf.math.squared_difference({predictions}, {labels}))",
    ),
    "losses.absolute_difference": LossSpec(
        ("labels", "predictions", *_LOSS_TAIL), "tf.reduce_mean(tf.abs({(predictions)} - {(labels)}))",
    ),
    "losses.sparse_softmax_cross_entropy": LossSpec(
        ("labels", "logits", *_LOSS_TAIL),
        "tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels={labels}, logits={logits}))",
    ),
    "losses.softmax_cross_entropy": LossSpec(
        ("onehot_labels", "logits", "weights", "label_smoothing", "scope", "loss_collection", "reduction"),
        # v1 does not backpropagate into the labels
        "tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits("
        "labels=tf.stop_gradient({onehot_labels}), logits={logits}))",
    ),
    "losses.sigmoid_cross_entropy": LossSpec(
        ("multi_class_labels", "logits", "weights", "label_smoothing", "scope", "loss_collection", "reduction"),
        "tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels={multi_class_labels}, logits={logits}))",
    ),
    "losses.log_loss": LossSpec(
        ("labels", "predictions", "weights", "epsilon", "scope", "loss_collection", "reduction"),
        "tf.reduce_mean(-{(labels)} * tf.math.log({(predictions)} + {(epsilon)})"
        " - (1 - {(labels)}) * tf.math.log(1 - {(predictions)} + {(epsilon)}))",
        {"epsilon": "1e-07"},
    ),
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

"""The API tables: which engine object each public TensorFlow name is, per module and face."""

from __future__ import annotations

import types

from runtime import checkpoint as CK
from runtime import compat_v1 as V1
from runtime import contrib_layers as CL
from runtime import control_flow as CF
from runtime import coordinator as COORD
from runtime import data as DATA
from runtime import device_config as DC
from runtime import dtypes as D
from runtime import errors as E
from runtime import flags as FL
from runtime import gfile as GF
from runtime import initializers as I
from runtime import losses_v1 as LV1
from runtime import lr_schedules as LR
from runtime import metrics_v1 as MV1
from runtime import moving_averages as MA
from runtime import nest
from runtime import rnn as RNN
from runtime import sampled as SAMPLED
from runtime import summary as SUM
from runtime import tf1_layers as L1
from runtime import tf_logging as LOG
from runtime import variable_scope as VS
from runtime.api import (
    ApiModule,
    ContribModule,
    Keras3V1Layers,
    Keras3V1RnnCells,
    LegacyOptimizers,
    Tf1OnlyModule,
)
from runtime.api_scopes import NameScopeV2, device_v1, device_v2
from runtime.context import init_scope
from runtime.convert import constant, convert_to_tensor
from runtime.function import TensorSpec, function
from runtime.gradients import gradients
from runtime.graph import Graph, GraphKeys, Operation, constant_value
from runtime.keras import activations as KA
from runtime.keras import conv1d as KC1
from runtime.keras import conv_transpose as KCT
from runtime.keras import functional as KF
from runtime.keras import layers as KL
from runtime.keras import losses as KLS
from runtime.keras import merging as KM
from runtime.keras import normalization as KN
from runtime.keras import optimizers as KO
from runtime.keras import recurrent as KR
from runtime.keras import regularizers as KRG
from runtime.keras import reshaping as KRS
from runtime.keras.sequential import Sequential
from runtime.keras.variables import KerasVariable
from runtime.keras.variables import name_scope as keras_name_scope
from runtime.module import Module
from runtime.ops import array as A
from runtime.ops import checks as CHECKS
from runtime.ops import conv_transpose as CT
from runtime.ops import conv_variants as CV
from runtime.ops import evaluation as EV
from runtime.ops import image as IM
from runtime.ops import linalg as LA
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.ops import normalization as NORM
from runtime.ops import random as R
from runtime.ops import search as S
from runtime.ops import segments as SG
from runtime.ops.state import group, tf_print
from runtime.optimizers import tf1 as O1
from runtime.session import InteractiveSession, Session, get_default_session
from runtime.shapes import Dimension, TensorShape
from runtime.tape import GradientTape
from runtime.tensor import Tensor, is_tensor
from runtime.variables import Variable

#: Classes a program constructs with TF's arguments and rarely checks by identity: the facade hands
#: out a subclass that binds the constructor's arguments by TF 2.21's signature (``runtime.api.binding``).
#: Not Keras models or the ``Layer`` base that programs subclass, nor tensors, variables, or
#: exceptions (``except`` ignores ``__subclasscheck__``).
BOUND_CLASSES = (I.Initializer, KO.Optimizer, KLS.Loss, O1.Optimizer, KL.Layer)


def binds_constructor(cls: type) -> bool:
    return issubclass(cls, BOUND_CLASSES) and cls is not KL.Layer and not issubclass(cls, KL.Model)


DTYPES = {d.name: d for d in D.ALL} | {"bool": D.bool_, "half": D.half, "double": D.double, "bfloat16": D.bfloat16,
                                       "DType": D.DType, "as_dtype": D.as_dtype}


class UnconnectedGradients:
    NONE = "none"
    ZERO = "zero"


MATH = {
    "add": M.add, "subtract": M.subtract, "multiply": M.multiply, "divide": M.divide, "truediv": M.truediv,
    "floordiv": M.floordiv, "floormod": M.floormod, "mod": M.floormod, "pow": M.pow, "maximum": M.maximum,
    "minimum": M.minimum, "squared_difference": M.squared_difference, "equal": M.equal,
    "not_equal": M.not_equal, "less": M.less, "less_equal": M.less_equal, "greater": M.greater,
    "greater_equal": M.greater_equal, "logical_and": M.logical_and, "logical_or": M.logical_or,
    "logical_not": M.logical_not, "negative": M.negative, "abs": M.abs, "sign": M.sign, "square": M.square,
    "sqrt": M.sqrt, "rsqrt": M.rsqrt, "exp": M.exp, "log": M.log, "log1p": M.log1p, "expm1": M.expm1,
    "sigmoid": M.sigmoid, "tanh": M.tanh, "reciprocal": M.reciprocal, "sin": M.sin, "cos": M.cos,
    "tan": M.tan, "floor": M.floor, "ceil": M.ceil, "round": M.round, "is_nan": M.is_nan,
    "is_finite": M.is_finite, "is_inf": M.is_inf, "softplus": M.softplus, "reduce_sum": M.reduce_sum,
    "reduce_mean": M.reduce_mean, "reduce_max": M.reduce_max, "reduce_min": M.reduce_min,
    "reduce_prod": M.reduce_prod, "reduce_all": M.reduce_all, "reduce_any": M.reduce_any,
    "reduce_logsumexp": M.reduce_logsumexp, "argmax": M.argmax, "argmin": M.argmin, "add_n": M.add_n,
    "cumsum": M.cumsum, "l2_normalize": N.l2_normalize, "count_nonzero": M.count_nonzero,
    "scalar_mul": M.scalar_mul, "divide_no_nan": None, "log_sigmoid": None,
}
MATH = {k: v for k, v in MATH.items() if v is not None}
MATH_ONLY = {"confusion_matrix": EV.confusion_matrix}  # tf.math.* names that are not also tf.*

#: tf.math names TF 2.21 no longer has at top level (TF 1.x had them; compat.v1 still does, but
#: not softplus or l2_normalize).
MATH_ONLY_V2 = ("floordiv", "floormod", "mod", "squared_difference", "rsqrt", "log", "log1p", "expm1",
                "reciprocal", "ceil", "is_nan", "is_finite", "is_inf", "softplus", "l2_normalize",
                "count_nonzero")
V1_TOP_MATH = {k: MATH[k] for k in MATH_ONLY_V2 if k not in ("softplus", "l2_normalize")}
CORE = {k: v for k, v in MATH.items() if k not in MATH_ONLY_V2} | {
    "constant": constant, "convert_to_tensor": convert_to_tensor, "Variable": Variable, "Tensor": Tensor,
    "Module": Module,
    "TensorShape": TensorShape, "TensorSpec": TensorSpec, "function": function, "GradientTape": GradientTape,
    "print": tf_print, "matmul": M.matmul, "cast": M.cast, "identity": M.identity,
    "stop_gradient": M.stop_gradient, "clip_by_value": M.clip_by_value, "clip_by_norm": M.clip_by_norm,
    "clip_by_global_norm": M.clip_by_global_norm, "where": M.where, "zeros_like": A.zeros_like,
    "ones_like": A.ones_like, "reshape": A.reshape, "transpose": A.transpose, "concat": A.concat,
    "stack": A.stack, "unstack": A.unstack, "split": A.split, "squeeze": A.squeeze,
    "expand_dims": A.expand_dims, "gather": A.gather, "one_hot": A.one_hot, "zeros": A.zeros,
    "ones": A.ones, "fill": A.fill, "shape": A.shape, "size": A.size, "rank": A.rank, "range": A.range,
    "tile": A.tile, "pad": A.pad, "broadcast_to": A.broadcast_to, "reverse": A.reverse, "slice": A.slice,
    "strided_slice": A.strided_slice, "reverse_sequence": RNN.reverse_sequence, "is_tensor": is_tensor, "newaxis": None,
    "get_static_value": constant_value, "init_scope": init_scope, "group": group, "no_op": CF.no_op,
    "cond": CF.cond, "while_loop": CF.while_loop, "control_dependencies": CF.control_dependencies,
    "executing_eagerly": V1.executing_eagerly, "Graph": Graph, "Operation": Operation,
    "UnconnectedGradients": UnconnectedGradients, "DType": D.DType, "as_dtype": D.as_dtype,
    "nest": None, "dtypes": None, "errors": None, "math": None, "nn": None, "random": None, "linalg": None,
    "keras": None, "compat": None, "initializers": None, "train": None, "config": None,
} | {k: v for k, v in DTYPES.items() if k not in ("DType", "as_dtype")}

NN_V2 = {
    "relu": M.relu, "relu6": M.relu6, "elu": M.elu, "selu": M.selu, "softplus": M.softplus,
    "softsign": M.softsign, "sigmoid": M.sigmoid, "tanh": M.tanh, "leaky_relu": M.leaky_relu,
    "softmax": N.softmax, "log_softmax": N.log_softmax,
    "softmax_cross_entropy_with_logits": N.softmax_cross_entropy_with_logits_v2,
    "sparse_softmax_cross_entropy_with_logits": N.sparse_softmax_cross_entropy_with_logits,
    "sigmoid_cross_entropy_with_logits": N.sigmoid_cross_entropy_with_logits, "l2_loss": M.l2_loss,
    "conv2d": N.conv2d, "conv2d_transpose": CT.conv2d_transpose, "max_pool": N.max_pool, "max_pool2d": N.max_pool, "avg_pool": N.avg_pool,
    "avg_pool2d": N.avg_pool, "bias_add": N.bias_add, "dropout": N.dropout_v2,
    "l2_normalize": N.l2_normalize, "moments": N.moments, "batch_normalization": N.batch_normalization,
    "embedding_lookup": LV1.embedding_lookup,
    "lrn": NORM.local_response_normalization, "local_response_normalization": NORM.local_response_normalization,
} | SAMPLED.NN_V2
NN_V1 = NN_V2 | {
    "dropout": N.dropout_v1, "softmax_cross_entropy_with_logits": N.softmax_cross_entropy_with_logits,
    "softmax_cross_entropy_with_logits_v2": N.softmax_cross_entropy_with_logits_v2,
    "relu_layer": N.relu_layer, "xw_plus_b": N.xw_plus_b, "fused_batch_norm": NORM.fused_batch_norm,
} | RNN.NN | SAMPLED.NN_V1
RANDOM = {"normal": R.random_normal, "uniform": R.random_uniform, "truncated_normal": R.truncated_normal,
          "set_seed": R.set_seed, "shuffle": R.shuffle} | SAMPLED.RANDOM
INIT_V2 = {"Zeros": I.Zeros, "Ones": I.Ones, "Constant": I.Constant, "RandomNormal": I.RandomNormalV2,
           "RandomUniform": I.RandomUniformV2, "TruncatedNormal": I.TruncatedNormalV2,
           "GlorotUniform": I.GlorotUniform, "GlorotNormal": I.GlorotNormal, "HeNormal": I.HeNormal,
           "HeUniform": I.HeUniform, "LecunNormal": I.LecunNormal, "LecunUniform": I.LecunUniform,
           "VarianceScaling": I.VarianceScaling, "Identity": I.Identity, "Orthogonal": I.Orthogonal,
           "zeros": I.Zeros, "ones": I.Ones, "constant": I.Constant, "glorot_uniform": I.GlorotUniform,
           "glorot_normal": I.GlorotNormal, "he_normal": I.HeNormal, "he_uniform": I.HeUniform,
           "random_normal": I.RandomNormalV2, "random_uniform": I.RandomUniformV2,
           "truncated_normal": I.TruncatedNormalV2, "get": I.get, "Initializer": I.Initializer}
INIT_V1 = {"zeros": I.Zeros, "ones": I.Ones, "constant": I.Constant, "random_normal": I.RandomNormal,
           "random_uniform": I.RandomUniform, "truncated_normal": I.TruncatedNormal,
           "glorot_uniform": I.GlorotUniform, "glorot_normal": I.GlorotNormal,
           "variance_scaling": I.VarianceScaling, "he_normal": I.HeNormal, "he_uniform": I.HeUniform,
           "lecun_normal": I.LecunNormal, "lecun_uniform": I.LecunUniform, "orthogonal": I.Orthogonal,
           "identity": I.Identity, "global_variables": V1.global_variables,
           "variables": V1.variables_initializer, "local_variables": V1.local_variables_initializer}
# TF 2.21's top-level initializers are init_ops_v2 classes, with TF2 defaults (§3.1).
INIT_V2_TOP = {"constant_initializer": I.ConstantV2, "zeros_initializer": I.Zeros, "ones_initializer": I.Ones,
               "random_normal_initializer": I.RandomNormalV2, "random_uniform_initializer": I.RandomUniformV2}
V1_INIT_NAMES = {f"{k}_initializer": v for k, v in INIT_V1.items()
                 if k not in ("global_variables", "variables", "local_variables")}
TRAIN_V1 = {"GradientDescentOptimizer": O1.GradientDescentOptimizer, "MomentumOptimizer": O1.MomentumOptimizer,
            "AdamOptimizer": O1.AdamOptimizer, "AdagradOptimizer": O1.AdagradOptimizer,
            "RMSPropOptimizer": O1.RMSPropOptimizer, "AdadeltaOptimizer": O1.AdadeltaOptimizer,
            "Optimizer": O1.Optimizer, "get_or_create_global_step": O1.get_or_create_global_step,
            "get_global_step": O1.get_global_step, "create_global_step": O1.get_or_create_global_step}
TRAIN_V1 |= CK.TRAIN_V1 | LR.TRAIN_V1 | {"ExponentialMovingAverage": MA.ExponentialMovingAverage,
                                         "Coordinator": COORD.Coordinator}
TRAIN_V2 = {k: v for k, v in CK.TRAIN_COMMON.items() if k not in ("checkpoint_exists", "update_checkpoint_state")}
TRAIN_V2["ExponentialMovingAverage"] = MA.ExponentialMovingAverage
TRAIN_V2["Coordinator"] = COORD.Coordinator
LAYERS_V1 = {"dense": L1.dense, "conv2d": L1.conv2d, "conv2d_transpose": L1.conv2d_transpose,
             "batch_normalization": L1.batch_normalization, "max_pooling2d": L1.max_pooling2d,
             "average_pooling2d": L1.average_pooling2d, "dropout": L1.dropout, "flatten": L1.flatten,
             "Dense": KL.Dense, "Layer": KL.Layer}
V1_ONLY = {
    "placeholder": A.placeholder, "placeholder_with_default": A.placeholder_with_default,
    "Session": Session, "InteractiveSession": InteractiveSession, "get_default_session": get_default_session,
    "get_variable": VS.get_variable, "variable_scope": VS.variable_scope,
    "get_variable_scope": VS.get_variable_scope, "VariableScope": VS.VariableScope, "AUTO_REUSE": VS.AUTO_REUSE,
    "global_variables_initializer": V1.global_variables_initializer,
    "initialize_all_variables": V1.global_variables_initializer,
    "local_variables_initializer": V1.local_variables_initializer,
    "variables_initializer": V1.variables_initializer, "global_variables": V1.global_variables,
    "all_variables": V1.global_variables, "trainable_variables": V1.trainable_variables,
    "local_variables": V1.local_variables, "assign": V1.assign, "assign_add": V1.assign_add,
    "assign_sub": V1.assign_sub, "gradients": gradients, "disable_eager_execution": V1.disable_eager_execution,
    "enable_eager_execution": V1.enable_eager_execution, "disable_v2_behavior": V1.disable_v2_behavior,
    "enable_v2_behavior": V1.enable_v2_behavior, "reset_default_graph": V1.reset_default_graph,
    "get_default_graph": V1.get_default_graph, "GraphKeys": GraphKeys, "get_collection": V1.get_collection,
    "get_collection_ref": V1.get_collection_ref, "add_to_collection": V1.add_to_collection,
    "name_scope": V1.name_scope, "random_normal": R.random_normal, "random_uniform": R.random_uniform,
    "truncated_normal": R.truncated_normal, "random_shuffle": R.shuffle, "set_random_seed": V1.set_random_seed,
    "log": M.log, "div": M.div, "mod": M.floormod, "to_float": V1.to_float, "to_int32": V1.to_int32,
    "to_int64": V1.to_int64, "to_double": V1.to_double, "arg_max": M.argmax, "arg_min": M.argmin,
    "Dimension": Dimension, "global_norm": M.global_norm, "layers": None,
    "executing_eagerly_outside_functions": V1.executing_eagerly_outside_functions,
    "report_uninitialized_variables": V1.report_uninitialized_variables,
    "trace": LA.trace, "matrix_diag_part": LA.matrix_diag_part, "confusion_matrix": EV.confusion_matrix_v1,
    "moving_average_variables": MA.moving_average_variables,
} | V1_INIT_NAMES
V1_ONLY = {k: v for k, v in V1_ONLY.items() if v is not None}
V1_ONLY |= V1_TOP_MATH | CHECKS.TOP_V1
ERRORS = {n: getattr(E, n) for n in dir(E) if n.endswith("Error") and isinstance(getattr(E, n), type)}
KERAS_LAYERS = {"Layer": KL.Layer, "Dense": KL.Dense, "Activation": KL.Activation, "Flatten": KL.Flatten,
                "Dropout": KL.Dropout, "Conv2D": KL.Conv2D, "MaxPooling2D": KL.MaxPooling2D,
                "MaxPool2D": KL.MaxPooling2D, "AveragePooling2D": KL.AveragePooling2D,
                "AvgPool2D": KL.AveragePooling2D, "BatchNormalization": KN.BatchNormalization,
                "Conv2DTranspose": KCT.Conv2DTranspose, "Input": KF.Input, "InputLayer": KF.InputLayer,
                "InputSpec": KF.InputSpec} | KR.LAYERS | KM.LAYERS | KM.FUNCTIONS | KRS.LAYERS | KC1.LAYERS
KERAS_OPT = {"SGD": KO.SGD, "Adam": KO.Adam, "RMSprop": KO.RMSprop, "Adagrad": KO.Adagrad,
             "Adadelta": KO.Adadelta, "Optimizer": KO.Optimizer, "get": KO.get}
KERAS = {"Model": KL.Model, "Sequential": Sequential, "Input": KF.Input, "InputSpec": KF.InputSpec,
         "KerasTensor": KF.KerasTensor, "Variable": KerasVariable, "Regularizer": KRG.Regularizer,
         "name_scope": keras_name_scope}
NEST = {"flatten": nest.flatten, "pack_sequence_as": nest.pack_sequence_as, "map_structure": nest.map_structure,
        "is_nested": nest.is_nested}
LOSSES_V1 = {"mean_squared_error": LV1.mean_squared_error, "absolute_difference": LV1.absolute_difference,
             "softmax_cross_entropy": LV1.softmax_cross_entropy,
             "sparse_softmax_cross_entropy": LV1.sparse_softmax_cross_entropy,
             "sigmoid_cross_entropy": LV1.sigmoid_cross_entropy, "get_losses": LV1.get_losses,
             "get_regularization_loss": LV1.get_regularization_loss,
             "get_regularization_losses": LV1.get_regularization_losses, "get_total_loss": LV1.get_total_loss,
             "add_loss": LV1.add_loss, "huber_loss": LV1.huber_loss, "log_loss": LV1.log_loss,
             "hinge_loss": LV1.hinge_loss, "Reduction": LV1.Reduction, "compute_weighted_loss": LV1.compute_weighted_loss}
LINALG = {"matmul": M.matmul, "global_norm": M.global_norm, "l2_normalize": N.l2_normalize}
# Linear algebra and search ops (runtime/ops/linalg.py, search.py, conv_variants.py), per face.
LINALG |= {"eye": LA.eye, "diag": LA.matrix_diag, "diag_part": LA.matrix_diag_part, "set_diag": LA.matrix_set_diag,
           "tensor_diag": LA.tensor_diag, "tensor_diag_part": LA.tensor_diag_part,
           "matrix_transpose": LA.matrix_transpose, "adjoint": LA.adjoint, "inv": LA.inv, "det": LA.det,
           "solve": LA.solve, "cholesky": LA.cholesky, "norm": LA.norm_v2, "tensordot": LA.tensordot,
           "einsum": LA.einsum, "band_part": LA.band_part, "lstsq": LA.lstsq, "trace": LA.trace}
LINALG_V1 = LINALG | {"norm": LA.norm}
SEARCH_MATH = {"top_k": S.top_k, "in_top_k": S.in_top_k_v2, "segment_sum": S.segment_sum,
               "unsorted_segment_sum": S.unsorted_segment_sum}
SEGMENTS = {"segment_max": SG.segment_max, "segment_min": SG.segment_min, "segment_mean": SG.segment_mean,
            "unsorted_segment_max": SG.unsorted_segment_max, "unsorted_segment_min": SG.unsorted_segment_min,
            "unsorted_segment_mean": SG.unsorted_segment_mean}
SEARCH_MATH |= SEGMENTS
SEARCH_MATH_V1 = SEARCH_MATH | {"in_top_k": S.in_top_k}
SEARCH_NN = {"top_k": S.top_k, "in_top_k": S.in_top_k_v2, "conv1d": CV.conv1d_v2,
             "depthwise_conv2d": CV.depthwise_conv2d_v2}
SEARCH_NN_V1 = SEARCH_NN | {"in_top_k": S.in_top_k, "conv1d": CV.conv1d, "depthwise_conv2d": CV.depthwise_conv2d}
IMAGE = {"resize": IM.resize, "ResizeMethod": IM.ResizeMethod}
IMAGE_V1 = {"resize": IM.resize_images, "resize_images": IM.resize_images, "resize_bilinear": IM.resize_bilinear,
            "resize_nearest_neighbor": IM.resize_nearest_neighbor, "resize_area": IM.resize_area,
            "ResizeMethod": IM.ResizeMethodV1}
METRICS_V1 = {"accuracy": MV1.accuracy, "mean": MV1.mean}
SEARCH_TOP = {"eye": LA.eye, "norm": LA.norm_v2, "tensordot": LA.tensordot, "einsum": LA.einsum,
              "boolean_mask": S.boolean_mask, "gather_nd": S.gather_nd, "scatter_nd": S.scatter_nd,
              "sort": S.sort, "argsort": S.argsort, "unique": S.unique, "sequence_mask": S.sequence_mask}
SEARCH_TOP_V1 = SEARCH_TOP | {
    "norm": LA.norm, "boolean_mask": S.boolean_mask_v1, "gather_nd": S.gather_nd_v1, "diag": LA.tensor_diag,
    "diag_part": LA.tensor_diag_part, "matrix_diag": LA.matrix_diag, "matrix_diag_part": LA.matrix_diag_part,
    "matrix_set_diag": LA.matrix_set_diag, "matrix_transpose": LA.matrix_transpose,
    "matrix_inverse": LA.inv, "matrix_determinant": LA.det, "matrix_solve": LA.solve, "cholesky": LA.cholesky,
    "matrix_band_part": LA.band_part, "matrix_solve_ls": LA.lstsq, "segment_sum": S.segment_sum,
    "unsorted_segment_sum": S.unsorted_segment_sum} | SEGMENTS


def _module(import_name: str, api_path: str, table: dict, real_path: str | None = None) -> ApiModule:
    mod = ApiModule(import_name, api_path, real_path)
    mod.serve(table)
    return mod


def _keras(prefix: str, api: str) -> dict[str, types.ModuleType]:
    mods = {
        prefix: _module(prefix, api, KERAS, "tf.keras"),
        prefix + ".layers": _module(prefix + ".layers", api + ".layers", KERAS_LAYERS, "tf.keras.layers"),
        prefix + ".optimizers": _module(prefix + ".optimizers", api + ".optimizers", KERAS_OPT,
                                        "tf.keras.optimizers"),
        prefix + ".initializers": _module(prefix + ".initializers", api + ".initializers", INIT_V2,
                                          "tf.keras.initializers"),
        prefix + ".activations": _module(prefix + ".activations", api + ".activations",
                                         KA.TABLE | {"get": KA.get}, "tf.keras.activations"),
        prefix + ".losses": _module(prefix + ".losses", api + ".losses", KLS.TABLE, "tf.keras.losses"),
        prefix + ".regularizers": _module(prefix + ".regularizers", api + ".regularizers", KRG.TABLE,
                                          "tf.keras.regularizers"),
        prefix + ".models": _module(prefix + ".models", api + ".models",
                                    {"Model": KL.Model, "Sequential": Sequential}, "tf.keras.models"),
    }
    legacy = LegacyOptimizers(prefix + ".optimizers.legacy")
    mods[prefix + ".optimizers.legacy"] = legacy
    schedules = _module(prefix + ".optimizers.schedules", api + ".optimizers.schedules",
                        {"LearningRateSchedule": KO.LearningRateSchedule} | LR.KERAS_SCHEDULES,
                        "tf.keras.optimizers.schedules")
    mods[prefix + ".optimizers.schedules"] = schedules
    _link(mods)
    return mods


def _link(mods: dict[str, types.ModuleType]) -> None:
    """Make every module an attribute of its parent."""
    for name, mod in mods.items():
        parent, _, child = name.rpartition(".")
        if parent in mods:
            setattr(mods[parent], child, mod)


def _namespace(prefix: str, api: str, top: dict, nn: dict, extra_subs: dict) -> dict[str, types.ModuleType]:
    subs = {
        "math": (MATH | MATH_ONLY, "math"), "nn": (nn, "nn"), "random": (RANDOM, "random"), "errors": (ERRORS, "errors"),
        "dtypes": (DTYPES, "dtypes"), "linalg": (LINALG, "linalg"), "nest": (NEST, "nest"),
    } | extra_subs
    mods: dict[str, types.ModuleType] = {prefix: _module(prefix, api, top, api)}
    for sub, (table, real) in subs.items():
        mods[f"{prefix}.{sub}"] = _module(f"{prefix}.{sub}", f"{api}.{sub}", table, f"{api}.{real}")
    return mods


CONFIG_SUBS = {
    "config": (DC.CONFIG, "config"), "config.experimental": (DC.CONFIG_EXPERIMENTAL, "config.experimental"),
    "config.threading": (DC.CONFIG_THREADING, "config.threading"),
}


def build_modules(face: str) -> dict[str, types.ModuleType]:
    v2_top = (dict(CORE) | {"name_scope": NameScopeV2, "device": device_v2, "get_logger": LOG.get_logger}
              | INIT_V2_TOP | SEARCH_TOP | CHECKS.TOP_V2)
    v2 = _namespace("tensorflow", "tf", v2_top, NN_V2 | SEARCH_NN, {
        "initializers": (INIT_V2, "initializers"), "train": (TRAIN_V2, "train"), **CONFIG_SUBS,
        "math": (MATH | MATH_ONLY | SEARCH_MATH, "math"), "image": (IMAGE, "image"),
        "debugging": (CHECKS.DEBUGGING_V2 | DC.DEBUGGING, "debugging"), "summary": (SUM.V2_TABLE, "summary"), "summary.experimental": (SUM.V2_EXPERIMENTAL, "summary.experimental"),
        "data": (DATA.V2_TABLE, "data"), "data.experimental": (DATA.EXPERIMENTAL, "data.experimental"),
        "io": ({}, "io"), "io.gfile": (GF.V2_TABLE, "io.gfile")})
    v1_top = dict(CORE) | V1_ONLY | DC.V1_TOP | {"name_scope": V1.name_scope, "device": device_v1} | SEARCH_TOP_V1
    v1_subs = {"train": (TRAIN_V1, "train"), "layers": (LAYERS_V1, "layers"),
               "initializers": (INIT_V1, "initializers"), "losses": (LOSSES_V1, "losses"),
               "math": (MATH | MATH_ONLY | SEARCH_MATH_V1 | {"confusion_matrix": EV.confusion_matrix_v1}, "math"),
               "linalg": (LINALG_V1, "linalg"), "debugging": (CHECKS.DEBUGGING_V1 | DC.DEBUGGING, "debugging"),
               **CONFIG_SUBS,
               "metrics": (METRICS_V1, "metrics"), "image": (IMAGE_V1, "image"),
               "summary": (SUM.V1_TABLE, "summary"), "data": (DATA.V1_TABLE, "data"),
               "data.experimental": (DATA.EXPERIMENTAL, "data.experimental"),
               "flags": (FL.TF1_FLAGS_TABLE, "flags"), "app": ({"run": FL.run}, "app"),
               "app.flags": (FL.TF1_FLAGS_TABLE, "app.flags"), "logging": (LOG.V1_TABLE, "logging"),
               "gfile": (GF.V1_TABLE, "gfile"), "io": ({}, "io"), "io.gfile": (GF.V2_TABLE, "io.gfile")}
    v1 = _namespace("tensorflow.compat.v1", "tf.compat.v1", v1_top, NN_V1 | SEARCH_NN_V1, v1_subs)
    keras = _keras("tensorflow.keras", "tf.keras")
    mods: dict[str, types.ModuleType] = {}
    if face == "tf1":
        top = _namespace("tensorflow", "tf.compat.v1", v1_top, NN_V1 | SEARCH_NN_V1, v1_subs)
        for mod in top.values():
            mod.__dict__["_api_path"] = mod._api_path.replace("tf.compat.v1", "tf")
            mod.__dict__["_checked"] = False
        mods.update(top)
        mods["tensorflow.contrib"] = ContribModule("tensorflow.contrib")
        mods["tensorflow.contrib.layers"] = _module("tensorflow.contrib.layers", "tf.contrib.layers", CL.TABLE)
        mods["tensorflow.contrib.rnn"] = Tf1OnlyModule("tensorflow.contrib.rnn", "tf.contrib.rnn", RNN.CONTRIB)
        mods["tensorflow.nn.rnn_cell"] = Tf1OnlyModule("tensorflow.nn.rnn_cell", "tf.nn.rnn_cell", RNN.CELLS)
    else:
        mods.update(v2)
    mods.update(v1)
    if face != "tf1":
        mods["tensorflow.compat.v1.layers"] = Keras3V1Layers("tensorflow.compat.v1.layers")
        mods["tensorflow.compat.v1.nn.rnn_cell"] = Keras3V1RnnCells("tensorflow.compat.v1.nn.rnn_cell")
    mods.update(keras)
    mods["tensorflow.compat"] = _module("tensorflow.compat", "tf.compat", {}, "tf.compat")
    v2_alias = {f"tensorflow.compat.v2{k[len('tensorflow'):]}": m for k, m in v2.items()}
    mods.update(v2_alias)
    _link(mods)
    for ns in ("tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2"):
        mods[ns].keras = keras["tensorflow.keras"]
        mods[ns].compat = mods["tensorflow.compat"]
    mods["tensorflow"].__dict__["__version__"] = "2.21.0" if face != "tf1" else "1.15.5"
    # tf.VERSION is a TF 1.x name: compat.v1 has it, TF 2.21's top level does not.
    if face == "tf1":
        mods["tensorflow"].__dict__["VERSION"] = mods["tensorflow"].__version__
    mods["tensorflow.compat.v1"].__dict__.setdefault("VERSION", mods["tensorflow"].__version__)
    return mods


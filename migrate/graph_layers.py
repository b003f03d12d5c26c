"""TF1 weight layers for files kept in graph mode (TF190), built from `tf.compat.v1` pieces.

TF 2.21 has no `tf.compat.v1.layers` (Keras 3) and no `tf.contrib`. A Keras layer built in
place creates fresh weights at every call, so `variable_scope` reuse (shared towers, siamese
branches, a discriminator applied twice) and scope regularizers would silently stop working.
These helpers keep the TF1 call signature and create their variables with
`tf.compat.v1.get_variable` under the layer's variable scope, as TF1 did: same names, sharing
on reuse, scope initializers and regularizers applied, `REGULARIZATION_LOSSES` filled.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GraphLayer:
    name: str  # the helper function's name
    keywords: frozenset[str]  # TF1 keywords the helper takes (others keep the Keras form)
    source: str


_DENSE = '''\
def tf1_dense(inputs, units, activation=None, use_bias=True,
              kernel_initializer=tf.keras.initializers.GlorotUniform(),
              bias_initializer=tf.zeros_initializer(), kernel_regularizer=None,
              bias_regularizer=None, trainable=True, name=None, reuse=None):
    """tf.layers.dense as TF1 built it: variables in its variable scope, shared on reuse."""
    with tf.compat.v1.variable_scope(name, default_name="dense", reuse=reuse):
        kernel = tf.compat.v1.get_variable(
            "kernel", [inputs.shape[-1], units], inputs.dtype.base_dtype,
            initializer=kernel_initializer, regularizer=kernel_regularizer, trainable=trainable)
        rank = inputs.shape.rank
        outputs = (tf.matmul(inputs, kernel) if rank == 2
                   else tf.tensordot(inputs, kernel, [[rank - 1], [0]]))
        if use_bias:
            outputs = tf.nn.bias_add(outputs, tf.compat.v1.get_variable(
                "bias", [units], inputs.dtype.base_dtype, initializer=bias_initializer,
                regularizer=bias_regularizer, trainable=trainable))
        return outputs if activation is None else activation(outputs)
'''

_FULLY_CONNECTED = '''\
def tf1_fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu,
                        weights_initializer=tf.keras.initializers.GlorotUniform(),
                        weights_regularizer=None,
                        biases_initializer=tf.zeros_initializer(),
                        biases_regularizer=None, reuse=None, trainable=True, scope=None):
    """tf.contrib.layers.fully_connected as TF1 built it: variables in its variable scope."""
    with tf.compat.v1.variable_scope(scope, default_name="fully_connected", reuse=reuse):
        weights = tf.compat.v1.get_variable(
            "weights", [inputs.shape[-1], num_outputs], inputs.dtype.base_dtype,
            initializer=weights_initializer, regularizer=weights_regularizer, trainable=trainable)
        rank = inputs.shape.rank
        outputs = (tf.matmul(inputs, weights) if rank == 2
                   else tf.tensordot(inputs, weights, [[rank - 1], [0]]))
        if biases_initializer is not None:
            outputs = tf.nn.bias_add(outputs, tf.compat.v1.get_variable(
                "biases", [num_outputs], inputs.dtype.base_dtype, initializer=biases_initializer,
                regularizer=biases_regularizer, trainable=trainable))
        return outputs if activation_fn is None else activation_fn(outputs)
'''

# The conv helpers' trailing parameters are keyword-only: TF1 put activity_regularizer and
# constraints (which they lack) before them, so a longer positional call fails, never misbinds.
_CONV2D = '''\
def tf1_conv2d(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
               data_format="channels_last", dilation_rate=(1, 1), activation=None, use_bias=True,
               kernel_initializer=None, bias_initializer=tf.zeros_initializer(),
               kernel_regularizer=None, bias_regularizer=None, *, trainable=True, name=None,
               reuse=None):
    """tf.layers.conv2d as TF1 built it: kernel [kh, kw, in, filters] and bias in its variable
    scope, shared on reuse; no initializer means the scope's, else glorot uniform, as in TF1."""
    pair = lambda v: (v, v) if isinstance(v, int) else tuple(v)
    kernel_size, strides, dilation_rate = pair(kernel_size), pair(strides), pair(dilation_rate)
    padding, data_format = padding.lower(), data_format.lower()
    if padding not in ("valid", "same") or data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"conv2d: padding {padding!r}, data_format {data_format!r}")
    if max(strides) > 1 and max(dilation_rate) > 1:
        raise ValueError("conv2d: strides > 1 together with dilation_rate > 1")
    first = data_format == "channels_first"  # run as NHWC, which every device has
    with tf.compat.v1.variable_scope(name, default_name="conv2d", reuse=reuse):
        kernel = tf.compat.v1.get_variable(
            "kernel", [*kernel_size, inputs.shape[1 if first else -1], filters],
            inputs.dtype.base_dtype, initializer=kernel_initializer,
            regularizer=kernel_regularizer, trainable=trainable)
        outputs = tf.nn.convolution(tf.transpose(inputs, [0, 2, 3, 1]) if first else inputs,
                                    kernel, list(strides), padding.upper(),
                                    dilations=list(dilation_rate))
        if use_bias:
            outputs = tf.nn.bias_add(outputs, tf.compat.v1.get_variable(
                "bias", [filters], inputs.dtype.base_dtype, initializer=bias_initializer,
                regularizer=bias_regularizer, trainable=trainable))
        outputs = tf.transpose(outputs, [0, 3, 1, 2]) if first else outputs
        return outputs if activation is None else activation(outputs)
'''

_CONV2D_TRANSPOSE = '''\
def tf1_conv2d_transpose(inputs, filters, kernel_size, strides=(1, 1), padding="valid",
                         data_format="channels_last", activation=None, use_bias=True,
                         kernel_initializer=None, bias_initializer=tf.zeros_initializer(),
                         kernel_regularizer=None, bias_regularizer=None, *, trainable=True,
                         name=None, reuse=None):
    """tf.layers.conv2d_transpose as TF1 built it: kernel [kh, kw, filters, in] and bias in its
    variable scope, shared on reuse; the output size TF1's Conv2DTranspose inferred."""
    pair = lambda v: (v, v) if isinstance(v, int) else tuple(v)
    kernel_size, strides = pair(kernel_size), pair(strides)
    padding, data_format = padding.lower(), data_format.lower()
    if padding not in ("valid", "same") or data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"conv2d_transpose: padding {padding!r}, data_format {data_format!r}")
    first = data_format == "channels_first"  # run as NHWC, which every device has
    with tf.compat.v1.variable_scope(name, default_name="conv2d_transpose", reuse=reuse):
        kernel = tf.compat.v1.get_variable(
            "kernel", [*kernel_size, filters, inputs.shape[1 if first else -1]],
            inputs.dtype.base_dtype, initializer=kernel_initializer,
            regularizer=kernel_regularizer, trainable=trainable)
        x = tf.transpose(inputs, [0, 2, 3, 1]) if first else inputs
        dynamic = tf.shape(x)
        size = [(dynamic[i] if x.shape[i] is None else x.shape[i]) * s
                + (max(k - s, 0) if padding == "valid" else 0)
                for i, k, s in zip((1, 2), kernel_size, strides)]
        outputs = tf.nn.conv2d_transpose(x, kernel, tf.stack([dynamic[0], *size, filters]),
                                         [1, *strides, 1], padding.upper())
        outputs.set_shape([x.shape[0], *(n if isinstance(n, int) else None for n in size),
                           filters])
        if use_bias:
            outputs = tf.nn.bias_add(outputs, tf.compat.v1.get_variable(
                "bias", [filters], inputs.dtype.base_dtype, initializer=bias_initializer,
                regularizer=bias_regularizer, trainable=trainable))
        outputs = tf.transpose(outputs, [0, 3, 1, 2]) if first else outputs
        return outputs if activation is None else activation(outputs)
'''

_BATCH_NORMALIZATION = '''\
def tf1_batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True,
                            scale=True, beta_initializer=tf.zeros_initializer(),
                            gamma_initializer=tf.ones_initializer(),
                            moving_mean_initializer=tf.zeros_initializer(),
                            moving_variance_initializer=tf.ones_initializer(),
                            beta_regularizer=None, gamma_regularizer=None, *, training=False,
                            trainable=True, name=None, reuse=None, fused=None):
    """tf.layers.batch_normalization as TF1 ran it: gamma, beta, moving_mean and
    moving_variance in its variable scope; in training the batch moments, and the moving
    averages' updates put in UPDATE_OPS. TF1 took the fused kernel for a 4-D or 5-D float
    input normalized on its first or last axis, whose batch variance for the moving average
    is Bessel-corrected (n / (n - 1)); this one takes it there too, else tf.nn.moments."""
    rank = inputs.shape.rank
    axes = sorted({a % rank for a in (axis if isinstance(axis, (list, tuple)) else [axis])})
    dtype = inputs.dtype.base_dtype
    dtype = tf.float32 if dtype in (tf.float16, tf.bfloat16) else dtype
    fused = (fused is not False and rank in (4, 5) and len(axes) == 1
             and axes[0] in (1, rank - 1) and dtype == tf.float32)
    shape = ([inputs.shape[axes[0]]] if len(axes) == 1
             else [inputs.shape[i] if i in axes else 1 for i in range(rank)])
    reduced = [i for i in range(rank) if i not in axes]
    reshape = len(axes) == 1 and axes[0] != rank - 1
    broadcast = lambda v: v if v is None or not reshape else tf.reshape(
        v, [shape[0] if i == axes[0] else 1 for i in range(rank)])
    with tf.compat.v1.variable_scope(name, default_name="batch_normalization", reuse=reuse):
        def weight(name, initializer, regularizer=None, trainable=trainable):
            return tf.compat.v1.get_variable(name, shape, dtype, initializer=initializer,
                                             regularizer=regularizer, trainable=trainable)
        gamma = weight("gamma", gamma_initializer, gamma_regularizer) if scale else None
        beta = weight("beta", beta_initializer, beta_regularizer) if center else None
        moving_mean = weight("moving_mean", moving_mean_initializer, trainable=False)
        moving_variance = weight("moving_variance", moving_variance_initializer, trainable=False)
        phase = training if isinstance(training, (bool, int)) else tf.get_static_value(training)
        pick = lambda batch, moving: (batch() if phase else moving() if phase is not None
                                      else tf.cond(training, batch, moving))
        if fused:  # TF1's kernel, so the numbers (and gradients) are its own
            fmt = ("NC" if axes[0] == 1 else "N") + "DHW"[5 - rank:] + ("" if axes[0] == 1 else "C")
            run = lambda train: tf.compat.v1.nn.fused_batch_norm(
                inputs, tf.ones(shape) if gamma is None else gamma,
                tf.zeros(shape) if beta is None else beta, moving_mean, moving_variance,
                epsilon, fmt, is_training=train)
            outputs, mean, moved = pick(lambda: run(True), lambda: (
                run(False)[0], tf.identity(moving_mean), tf.identity(moving_variance)))
            decay = 1.0 - tf.convert_to_tensor(momentum, tf.float32)
        else:
            x = tf.cast(inputs, dtype)
            moments = lambda: tf.nn.moments(x, reduced, keepdims=len(axes) > 1)
            mean, variance = pick(moments, lambda: (tf.identity(moving_mean),
                                                    tf.identity(moving_variance)))
            moved = variance
            outputs = tf.cast(tf.nn.batch_normalization(
                x, broadcast(mean), broadcast(variance), broadcast(beta), broadcast(gamma),
                epsilon), inputs.dtype.base_dtype)
            decay = tf.cast(tf.convert_to_tensor(1.0 - momentum), dtype)
        if phase is None or phase:  # moving averages; a false tensor moves them by 0
            for var, value in ((moving_mean, mean), (moving_variance, moved)):
                tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.UPDATE_OPS,
                                               var.assign_sub((var - value) * decay))
        return outputs
'''

_FLATTEN = '''\
def tf1_flatten(inputs, name=None, data_format="channels_last"):
    """tf.layers.flatten as TF1 computed it: every dimension after the first in one, a
    channels_first input's channels moved last first."""
    rank = inputs.shape.rank
    if data_format.lower() == "channels_first" and rank > 2:
        inputs = tf.transpose(inputs, [0, *range(2, rank), 1])
    batch = inputs.shape[0] if inputs.shape[0] is not None else tf.shape(inputs)[0]
    size = inputs.shape[1:].num_elements()  # static where the input's shape is, as TF1's was
    return tf.reshape(inputs, [batch, -1 if size is None else size], name=name)
'''


def _keywords(text: str) -> frozenset[str]:
    return frozenset(text.split())


GRAPH_LAYERS: dict[str, GraphLayer] = {
    "layers.dense": GraphLayer(
        "tf1_dense",
        frozenset(
            {
                "inputs",
                "units",
                "activation",
                "use_bias",
                "kernel_initializer",
                "bias_initializer",
                "kernel_regularizer",
                "bias_regularizer",
                "trainable",
                "name",
                "reuse",
            }
        ),
        _DENSE,
    ),
    "contrib.layers.fully_connected": GraphLayer(
        "tf1_fully_connected",
        frozenset(
            {
                "inputs",
                "num_outputs",
                "activation_fn",
                "weights_initializer",
                "weights_regularizer",
                "biases_initializer",
                "biases_regularizer",
                "reuse",
                "trainable",
                "scope",
            }
        ),
        _FULLY_CONNECTED,
    ),
    "layers.conv2d": GraphLayer(
        "tf1_conv2d",
        _keywords("inputs filters kernel_size strides padding data_format dilation_rate activation "
                  "use_bias kernel_initializer bias_initializer kernel_regularizer "
                  "bias_regularizer trainable name reuse"),
        _CONV2D,
    ),
    "layers.conv2d_transpose": GraphLayer(
        "tf1_conv2d_transpose",
        _keywords("inputs filters kernel_size strides padding data_format activation use_bias "
                  "kernel_initializer bias_initializer kernel_regularizer bias_regularizer "
                  "trainable name reuse"),
        _CONV2D_TRANSPOSE,
    ),
    "layers.batch_normalization": GraphLayer(
        "tf1_batch_normalization",
        _keywords("inputs axis momentum epsilon center scale beta_initializer gamma_initializer "
                  "moving_mean_initializer moving_variance_initializer beta_regularizer "
                  "gamma_regularizer training trainable name reuse fused"),
        _BATCH_NORMALIZATION,
    ),
    "layers.flatten": GraphLayer("tf1_flatten", _keywords("inputs name data_format"), _FLATTEN),
}

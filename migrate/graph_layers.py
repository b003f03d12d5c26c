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
}

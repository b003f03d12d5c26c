"""TF120's Keras cells against TF1's own cells (TF 2.21 still ships them as legacy_rnn): with
the same weights, by TF1's variable names, a stack of every cell computes the same outputs and
final states, and the Keras layers' weight paths are TF1's variable names."""

from __future__ import annotations

import json
import os

import pytest

from migrate.rules.rnn_layers import SOURCES
from tests import tf_runner

PROGRAM = """
import collections, json, sys
import numpy as np
import tensorflow as tf
from tensorflow.python.keras.layers.legacy_rnn import rnn_cell_impl as tf1

ns = {"tf": tf, "collections": collections}
for source in json.loads(sys.stdin.read()).values():
    exec(source, ns)
rng = np.random.RandomState(0)
x = rng.randn(3, 5, 4).astype(np.float32)
values = {}
with tf.Graph().as_default():
    inputs = tf.compat.v1.placeholder(tf.float32, [3, 5, 4])
    cell = tf1.MultiRNNCell([tf1.GRUCell(6), tf1.BasicLSTMCell(3, forget_bias=0.7), tf1.LSTMCell(2),
                             tf1.BasicRNNCell(4)])
    out, state = tf.compat.v1.nn.dynamic_rnn(cell, inputs, dtype=tf.float32)
    with tf.compat.v1.Session() as sess:
        for v in tf.compat.v1.global_variables():
            values[v.op.name] = rng.uniform(-0.6, 0.6, v.shape).astype(np.float32)
            v.load(values[v.op.name], sess)
        expected_out, expected_state = sess.run([out, state], {inputs: x})
cell = ns["MultiRNNCell"]([ns["GRUCell"](6), ns["BasicLSTMCell"](3, forget_bias=0.7), ns["LSTMCell"](2),
                           ns["BasicRNNCell"](4)])
layer = tf.keras.layers.RNN(cell, return_sequences=True, return_state=True, name="rnn")
layer.build((3, 5, 4))
print(sorted(w.path for w in layer.weights) == sorted(values))
for w in layer.weights:
    w.assign(values[w.path])
got_out, got_state = layer(tf.constant(x))
print(float(np.abs(expected_out - got_out.numpy()).max()))
print(max(float(np.abs(a - b.numpy()).max()) for a, b in zip(tf.nest.flatten(expected_state), tf.nest.flatten(got_state))))
print(type(got_state).__name__, type(got_state[1]).__name__)
"""


@pytest.mark.tf
def test_keras_cells_compute_tf1_cells() -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    run = tf_runner.run([python, "-c", PROGRAM], input=json.dumps(SOURCES), cwd=os.getcwd(),
                        env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"), timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    same_names, outputs, states, structure = run.stdout.splitlines()[-4:]
    assert same_names == "True"
    assert float(outputs) < 1e-6 and float(states) < 1e-6
    assert structure == "tuple LSTMStateTuple"

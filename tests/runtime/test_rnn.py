"""Recurrent networks and sampled losses: what the engine rejects, and the corpus programs that
need them. Their numbers are held to real TF by the ``rnn0*`` conformance programs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runtime.helpers import ROOT, mask_numbers, run_engine

CORPUS = ROOT / "fixtures" / "corpus"
MANIFEST = json.loads((CORPUS / "MANIFEST.json").read_text())


def _run(tmp_path: Path, source: str, face: str) -> list[str]:
    prog = tmp_path / "p.py"
    prog.write_text(source)
    proc = run_engine(prog, face=face)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()


def test_tf2_face_has_no_rnn_cells(tmp_path: Path) -> None:
    """TF 2.21: compat.v1 keeps the loops but the cell classes left with Keras 3."""
    out = _run(tmp_path, (
        "import tensorflow as tf\n"
        "print(callable(tf.compat.v1.nn.dynamic_rnn))\n"
        "try:\n    tf.compat.v1.nn.rnn_cell.BasicLSTMCell\nexcept AttributeError as e:\n    print(e)\n"
        "try:\n    tf.nn.rnn_cell\nexcept AttributeError as e:\n    print(e)\n"), "tf2")
    assert out == ["True", "`BasicLSTMCell` is not available with Keras 3.",
                   "module 'tensorflow._api.v2.nn' has no attribute 'rnn_cell'"]


def test_missing_rnn_pieces_are_named(tmp_path: Path) -> None:
    checks = ["tf.nn.rnn_cell.DeviceWrapper", "tf.contrib.rnn.LSTMBlockCell", "tf.nn.raw_rnn",
              ("tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(2), tf.placeholder(tf.float32, [2, None, 3]), "
               "dtype=tf.float32)"),
              "tf.keras.layers.LSTM(2, dropout=0.5)", "tf.keras.layers.Embedding(3, 2, mask_zero=True)",
              "tf.nn.embedding_lookup(tf.zeros([3, 2]), [0], max_norm=1.0)"]
    source = "import tensorflow as tf\nfrom runtime.errors import Unsupported\n" + "".join(
        f"try:\n    {c}\nexcept Unsupported as e:\n    print(e)\n" for c in checks)
    assert _run(tmp_path, source, "tf1") == [
        "tf.nn.rnn_cell.DeviceWrapper is not supported by the tfmigrate engine",
        "tf.contrib.rnn.LSTMBlockCell is not supported by the tfmigrate engine",
        "tf.nn.raw_rnn is not supported by the tfmigrate engine",
        ("tf.nn.dynamic_rnn over a time dimension unknown at graph-construction time is not supported by "
         "the tfmigrate engine"),
        "tf.keras.layers.LSTM with dropout/recurrent_dropout is not supported by the tfmigrate engine",
        "tf.keras.layers.Embedding with mask_zero=True is not supported by the tfmigrate engine",
        "tf.nn.embedding_lookup with max_norm is not supported by the tfmigrate engine",
    ]


def test_contrib_rnn_is_the_same_cells(tmp_path: Path) -> None:
    out = _run(tmp_path, (
        "import tensorflow as tf\nfrom tensorflow.contrib import rnn\n"
        "print(rnn.BasicLSTMCell is tf.nn.rnn_cell.BasicLSTMCell, tf.contrib.rnn.static_rnn is tf.nn.static_rnn)\n"),
        "tf1")
    assert out == ["True True"]


RNN_CORPUS = ["char_rnn_class", "char_rnn_lstm", "gru_clip_classifier", "lstm_sine_regression", "mnist_lstm_class",
              "mnist_rnn_rows", "seq_sum_rnn", "word2vec_nce", "word2vec_sampled_softmax"]


@pytest.mark.slow
@pytest.mark.parametrize("name", RNN_CORPUS)
def test_corpus_program_runs(name: str) -> None:
    """Each runs to the end; where real TF 2.21 runs it too, the printed words match (the
    numbers cannot: initial values and sampled candidates come from other generators)."""
    proc = run_engine(CORPUS / f"{name}.py", face="tf1")
    assert proc.returncode == 0, proc.stderr[-2000:]
    real = MANIFEST[name]["real_tf"]
    if real["rc"] == 0:
        head = proc.stdout.splitlines()[:len(real["stdout_head"])]
        assert [mask_numbers(x) for x in head] == [mask_numbers(x) for x in real["stdout_head"]]


def test_dropout_wrapper_drops_outputs_of_the_same_cell(tmp_path: Path) -> None:
    """DropoutWrapper adds no scope (the wrapped cell's variables are shared), keeps 1.0 as the
    identity and scales kept outputs by 1/keep_prob."""
    out = _run(tmp_path, (
        "import numpy as np\nimport tensorflow as tf\n"
        "x = tf.placeholder(tf.float32, [None, 5, 3])\ncell = tf.nn.rnn_cell.GRUCell(4)\n"
        "plain, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, scope='s')\n"
        "wrap = tf.nn.rnn_cell.DropoutWrapper\n"
        "dropped, _ = tf.nn.dynamic_rnn(wrap(cell, output_keep_prob=0.5), x, dtype=tf.float32, scope='s')\n"
        "kept, _ = tf.nn.dynamic_rnn(wrap(cell), x, dtype=tf.float32, scope='s')\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    p, d, k = sess.run([plain, dropped, kept], {x: np.random.RandomState(0).randn(2, 5, 3)})\n"
        "    print(len(tf.trainable_variables()), np.array_equal(p, k))\n"
        "    print(np.all((d == 0) | np.isclose(d, 2 * p)), 0 < np.mean(d == 0) < 1)\n"), "tf1")
    assert out == ["4 True", "True True"]


def test_new_names_exist_in_tf221_where_placed() -> None:
    """The TF2-face names added here are TF 2.21's own; the TF 1.x ones exist under compat.v1."""
    from runtime import rnn, sampled
    from runtime.api import real_api
    from runtime.keras import recurrent

    api = real_api()
    placed = {"tf.nn": sampled.NN_V2, "tf.random": sampled.RANDOM, "tf.compat.v1.nn": rnn.NN | sampled.NN_V1,
              "tf.keras.layers": recurrent.LAYERS, "tf": {"reverse_sequence": rnn.reverse_sequence}}
    for module, table in placed.items():
        assert set(table) <= set(api[module]["names"]), (module, set(table) - set(api[module]["names"]))

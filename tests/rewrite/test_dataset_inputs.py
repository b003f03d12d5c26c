"""TF115: the tensors a dataset is made from are computed where they stand."""

import json
from pathlib import Path

import pytest
from helpers import check_transformed

from migrate.api import rewrite_source
from migrate.notebooks import rewrite_notebook
from runtime.verdict import Options, verify_sources

CAST_INPUTS = """\
import tensorflow as tf


def next_batch(image, label, batch_size=2):
    # the file names and labels as tensors
    image = tf.cast(image, tf.float32)
    label = tf.cast(label, tf.int64)
    data = tf.data.Dataset.from_tensor_slices((image, label))
    data_batch = data.map(lambda i, l: (i * 2.0, l)).batch(batch_size)
    iterator = data_batch.make_one_shot_iterator()
    with tf.Session() as sess:
        return sess.run(iterator.get_next())


print(next_batch([1, 2, 3], [0, 1, 0]))
"""


def test_tensors_a_dataset_is_made_from_stay_where_they_stand(tmp_path: Path) -> None:
    result = check_transformed(CAST_INPUTS, """\
        import tensorflow as tf


        def next_batch(image, label, batch_size=2):
            # the file names and labels as tensors
            image = tf.cast(image, tf.float32)
            label = tf.cast(label, tf.int64)
            data = tf.data.Dataset.from_tensor_slices((image, label))
            data_batch = data.map(lambda i, l: (i * 2.0, l)).batch(batch_size)
            iterator = iter(data_batch)

            @tf.function
            def compute_iterator():
                return iterator.get_next()

            return tf.nest.map_structure(lambda t: t.numpy(), compute_iterator())


        print(next_batch([1, 2, 3], [0, 1, 0]))
        """)
    assert verify_sources(CAST_INPUTS, result.code, tmp_path, Options(timeout=120)).status == "equivalent"
    # computed twice (again in the step), the doubled values are told apart
    doubled = result.code.replace("(i * 2.0, l)", "(i * 4.0, l)")
    assert verify_sources(CAST_INPUTS, doubled, tmp_path, Options(timeout=120)).status == "different"


@pytest.mark.parametrize(("made", "why"), [
    ("image = tf.cast(image, tf.float32) * w", "a dataset built from image, a graph tensor of a variable"),
    ("image = tf.cast(image, tf.float32) + tf.random_normal([3])", "a dataset built from image, a graph tensor"),
])
def test_a_dataset_made_from_tensors_of_variables_or_draws_keeps_tf1(made: str, why: str) -> None:
    source = CAST_INPUTS.replace("    image = tf.cast(image, tf.float32)\n", f"    {made}\n").replace(
        "import tensorflow as tf\n", "import tensorflow as tf\nw = tf.Variable(2.0)\n", 1)
    result = rewrite_source(source)
    assert result.level == "partial"
    assert any(why in f.message for f in result.findings), [f.message for f in result.findings]


def _notebook(*cells: str) -> bytes:
    code = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
             "source": c.splitlines(keepends=True)} for c in cells]
    return json.dumps({"cells": code, "metadata": {}, "nbformat": 4, "nbformat_minor": 2}).encode()


def test_a_tensor_computed_in_an_earlier_cell_stays_in_its_cell() -> None:
    cells = ("import tensorflow as tf\nfiles = tf.constant(['a', 'b', 'c'])\n",
             ("data = tf.data.Dataset.from_tensor_slices(files).batch(2)\n"
              "iterator = data.make_one_shot_iterator()\nbatch = iterator.get_next()\n"),
             "with tf.Session() as sess:\n    print(sess.run(batch))\n")
    result = rewrite_notebook(_notebook(*cells))
    assert result.level == "idiomatic", result.findings
    first, second, _ = ("".join(c["source"]) for c in json.loads(result.code)["cells"])
    assert "files = tf.constant(['a', 'b', 'c'])" in first and "files" not in second.split("from_tensor_slices")[0]

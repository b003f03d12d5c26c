"""The DenseFeatures rewrite runs on TF 2.21 + Keras 3 and lays the columns out as DenseFeatures
does: each column's dense tensor, concatenated in the order of the columns' names."""

from __future__ import annotations

import json
import os
import textwrap

import numpy as np
import pytest

from migrate.api import rewrite_source
from tests import tf_runner

PROGRAM = textwrap.dedent("""\
    import json
    import tensorflow as tf
    import tensorflow.compat.v1 as tf1
    def call_feature_columns(feature_columns, inputs):
      feature_layer = tf1.keras.layers.DenseFeatures(feature_columns)
      return feature_layer(inputs)
    inputs = {'foo': tf.constant([[1.0], [4.0]]), 'bar': tf.constant([[7.0], [2.0]]),
              'color': tf.constant([['G'], ['R']])}
    columns = [
      tf1.feature_column.numeric_column('foo'),
      tf1.feature_column.bucketized_column(tf1.feature_column.numeric_column('bar'), [1.0, 4.0, 5.0]),
      tf1.feature_column.indicator_column(
        tf1.feature_column.categorical_column_with_vocabulary_list('color', ['R', 'G', 'B'])),
    ]
    print(json.dumps(call_feature_columns(columns, inputs).numpy().tolist()))
    """)


@pytest.mark.tf
def test_the_rewrite_gives_dense_features_layout_on_tf_2_21(tmp_path) -> None:
    python = os.environ.get("TFMIGRATE_TF_PYTHON")
    if not python:
        pytest.skip("set TFMIGRATE_TF_PYTHON to a Python with TensorFlow 2.21 to run this check")
    rewrite = rewrite_source(PROGRAM).code
    assert "DenseFeatures" not in rewrite
    (tmp_path / "after.py").write_text(rewrite)
    proc = tf_runner.run([python, str(tmp_path / "after.py")], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = np.array(json.loads(proc.stdout.strip().splitlines()[-1]))
    # by name: bar (bucketized on [1, 4, 5]: 4 buckets), color (one-hot R, G, B), foo
    bar = np.eye(4)[np.digitize([7.0, 2.0], [1.0, 4.0, 5.0])]
    color = np.eye(3)[[1, 0]]
    foo = np.array([[1.0], [4.0]])
    np.testing.assert_array_equal(got, np.hstack([bar, color, foo]))

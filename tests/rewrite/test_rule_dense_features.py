"""TF108: a DenseFeatures layer called on features becomes TF1's input layer (Keras 3 has no
DenseFeatures; `tf.compat.v1.feature_column.input_layer` orders and concatenates the columns alike)."""

from helpers import check_transformed

from migrate.api import rewrite_source


def test_a_layer_bound_then_called_once_folds_into_input_layer() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        import tensorflow.compat.v1 as tf1
        def call_feature_columns(feature_columns, inputs):
          # display the columns' output
          feature_layer = tf1.keras.layers.DenseFeatures(feature_columns)
          return feature_layer(inputs)
        columns = [tf1.feature_column.numeric_column('foo'), tf1.feature_column.numeric_column('bar')]
        print(call_feature_columns(columns, {'foo': tf.constant([1]), 'bar': tf.constant([0])}))
        """,
        """\
        import tensorflow as tf
        def call_feature_columns(feature_columns, inputs):
          # display the columns' output
          return tf.compat.v1.feature_column.input_layer(inputs, feature_columns)
        columns = [tf.feature_column.numeric_column('foo'), tf.feature_column.numeric_column('bar')]
        print(call_feature_columns(columns, {'foo': tf.constant([1]), 'bar': tf.constant([0])}))
        """,
        level="partial",
    )
    said = [f for f in result.findings if "DenseFeatures" in f.message]
    assert len(said) == 1 and said[0].line == 5 and said[0].kind == "manual"
    assert "feature_column.input_layer" in said[0].message and "embedding" in said[0].message


def test_a_layer_called_where_it_is_made() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        cols = [tf.feature_column.numeric_column('x')]
        print(tf.keras.layers.DenseFeatures(feature_columns=cols)({'x': tf.constant([[2.0]])}))
        """,
        """\
        import tensorflow as tf
        cols = [tf.feature_column.numeric_column('x')]
        print(tf.compat.v1.feature_column.input_layer({'x': tf.constant([[2.0]])}, cols))
        """,
        level="partial",
    )


def test_a_module_level_layer_folds_when_its_call_is_its_only_use() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n"
        "cols = [tf.feature_column.numeric_column('x')]\n"
        "layer = tf.keras.layers.DenseFeatures(cols)\n"
        "out = layer({'x': tf.constant([[2.0]])})\n"
        "print(out)\n"
    )
    assert "DenseFeatures" not in result.code
    assert "out = tf.compat.v1.feature_column.input_layer({'x': tf.constant([[2.0]])}, cols)" in result.code


LAYER_USES = {
    "called twice (one set of variables)": "print(layer(x))\nprint(layer(x))\n",
    "given to a model": "model = tf.keras.Sequential([layer])\nprint(model(x))\n",
    "called with more than the features": "print(layer(x, training=True))\n",
}


def test_other_uses_of_the_layer_are_left_and_said_to_fail_on_tf_2_21() -> None:
    for why, use in LAYER_USES.items():
        source = ("import tensorflow as tf\nx = {'x': tf.constant([[2.0]])}\n"
                  "layer = tf.keras.layers.DenseFeatures([tf.feature_column.numeric_column('x')])\n" + use)
        result = rewrite_source(source)
        assert "input_layer" not in result.code, why
        assert any("DenseFeatures has no TF 2.21 form" in f.message for f in result.findings), why


def test_a_layer_made_with_other_arguments_is_left() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n"
        "cols = [tf.feature_column.numeric_column('x')]\n"
        "print(tf.keras.layers.DenseFeatures(cols, trainable=False)({'x': tf.constant([[2.0]])}))\n"
    )
    assert "input_layer" not in result.code

"""TF109: tf.layers.* calls → Keras layers created once outside the step."""

from textwrap import dedent

from helpers import check_transformed

from migrate.api import rewrite_source
from migrate.graph_layers import GRAPH_LAYERS


def test_dense_layer_created_once_and_trained_through_its_variables() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        h = tf.layers.dense(x, 3, activation=tf.nn.relu)
        loss = tf.reduce_mean(h)
        train = tf.train.AdamOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0, 2.0]]})
        """,
        """\
        import tensorflow as tf
        h_layer = tf.keras.layers.Dense(3, activation=tf.nn.relu)
        optimizer = tf.keras.optimizers.Adam(learning_rate=0.1, epsilon=1e-08)


        @tf.function(input_signature=[tf.TensorSpec([None, 2])])
        def train_step(x):
            with tf.GradientTape() as tape:
                h = h_layer(x)
                loss = tf.reduce_mean(h)
            grads = tape.gradient(loss, h_layer.trainable_variables)
            optimizer.apply_gradients(zip(grads, h_layer.trainable_variables))


        train_step([[1.0, 2.0]])
        """,
    )


def test_graph_mode_file_builds_keras_layers_in_place() -> None:
    # A session used outside run() keeps the file in graph mode: tf.compat.v1.layers needs
    # Keras 2, so a layer with no tf1_* helper, or with an argument its helper lacks (a
    # constraint), is a Keras 3 object built where the TF1 call was.
    result = check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 8, 8, 1])
        h = tf.layers.conv2d(x, 4, 3, kernel_constraint=tf.keras.constraints.NonNeg(), name="conv1")
        h = tf.layers.max_pooling2d(h, 2, 2)
        sess = tf.Session()
        print(sess)
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32, [None, 8, 8, 1])
        h = tf.keras.layers.Conv2D(4, 3, kernel_constraint=tf.keras.constraints.NonNeg(), name="conv1")(x)
        h = tf.keras.layers.MaxPooling2D(2, 2)(h)
        sess = tf.compat.v1.Session()
        print(sess)
        """,
        level="partial",
    )
    assert any(f.rule == "TF109" and f.kind == "manual" for f in result.findings)


def test_graph_mode_dropout_with_a_flag_picks_one_of_two_calls() -> None:
    # Keras 3 Dropout tests `training` as a Python bool: a fed flag would raise TypeError.
    check_transformed(
        """\
        import tensorflow as tf
        def block(x, is_training):
            h = tf.layers.dropout(x, rate=0.1, training=is_training)
            return tf.layers.dropout(h, 0.2, training=True)
        x = tf.placeholder(tf.float32, [None, 8])
        print(tf.Session(), block(x, tf.placeholder(tf.bool)))
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        def block(x, is_training):
            h = tf.cond(
                tf.cast(is_training, tf.bool),
                lambda: tf.keras.layers.Dropout(0.1)(x, training=True),
                lambda: tf.keras.layers.Dropout(0.1)(x, training=False),
            )
            return tf.keras.layers.Dropout(0.2)(h, training=True)
        x = tf.compat.v1.placeholder(tf.float32, [None, 8])
        print(tf.compat.v1.Session(), block(x, tf.compat.v1.placeholder(tf.bool)))
        """,
        level="partial",
    )


def test_contrib_layers_get_contrib_defaults_and_keras_names() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        h = tf.contrib.layers.fully_connected(x, 3, biases_initializer=None, scope="fc")
        h = tf.contrib.layers.dropout(h, keep_prob=0.8)
        loss = tf.reduce_mean(h)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0, 2.0]]})
        """,
        """\
        import tensorflow as tf
        fc = tf.keras.layers.Dense(3, use_bias=False, name="fc", activation=tf.nn.relu)
        dropout = tf.keras.layers.Dropout(rate=1 - 0.8)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([None, 2])])
        def train_step(x):
            with tf.GradientTape() as tape:
                h = fc(x)
                h = dropout(h, training=True)
                loss = tf.reduce_mean(h)
            grads = tape.gradient(loss, fc.trainable_variables)
            optimizer.apply_gradients(zip(grads, fc.trainable_variables))


        train_step([[1.0, 2.0]])
        """,
    )


def test_layer_with_an_argument_keras_lacks_keeps_the_file_in_graph_mode() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        h = tf.contrib.layers.fully_connected(x, 3, normalizer_fn=tf.contrib.layers.batch_norm)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(h, {x: [[1.0, 2.0]]}))
        """))
    assert result.level == "partial"
    assert "tf.compat.v1.contrib.layers.fully_connected" in result.code


MODEL_CALLED_WITH = (
    "import tensorflow as tf\n"
    "size = len('abcd')\n"
    "width = 4\n"
    "def net(x, units=3):\n"
    "    return tf.layers.dense(x, units, name='out')\n"
    "x = tf.placeholder(tf.float32, [None, 2])\n"
    "y = net(x, units={units})\n"
    "with tf.Session() as sess:\n"
    "    sess.run(tf.global_variables_initializer())\n"
    "    print(sess.run(y, {{x: [[1.0, 2.0]]}}).shape)\n"
)


def test_model_function_whose_caller_computes_a_layer_size_stays_in_graph_mode() -> None:
    # The layer is created once, where the function was defined: a size the call computes
    # cannot move into the model's constructor.
    result = rewrite_source(MODEL_CALLED_WITH.format(units="size"))
    assert result.level == "partial"
    assert "sets the configuration of its layers" in result.findings[0].message
    assert "tf1_dense(x, units, name='out')" in result.code


def test_model_function_called_with_a_module_constant_takes_its_literal() -> None:
    # `width` is bound once, to a literal: the model is created where the function was defined,
    # before `width` is, so it takes the value.
    result = rewrite_source(MODEL_CALLED_WITH.format(units="width"))
    assert result.level == "idiomatic"
    assert "net = Net(units=4)" in result.code


def test_model_function_called_once_with_a_literal_size_takes_it_in_its_constructor() -> None:
    result = rewrite_source(MODEL_CALLED_WITH.format(units="4"))
    assert result.level == "idiomatic"
    assert "net = Net(units=4)" in result.code
    assert "y = net(x)" in result.code


def test_keras_layer_built_in_the_graph_is_created_once_as_written() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        from tensorflow.keras import layers
        x = tf.placeholder(tf.float32, [None, 2])
        h = layers.Dense(3,
                         activation="relu")(x)
        h = tf.keras.layers.Dropout(0.5)(h, training=True)
        loss = tf.reduce_mean(h)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0, 2.0]]})
        """,
        """\
        import tensorflow as tf
        from tensorflow.keras import layers
        dense = layers.Dense(3,
                             activation="relu")
        dropout = tf.keras.layers.Dropout(0.5)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([None, 2])])
        def train_step(x):
            with tf.GradientTape() as tape:
                h = dense(x)
                h = dropout(h, training=True)
                loss = tf.reduce_mean(h)
            grads = tape.gradient(loss, dense.trainable_variables)
            optimizer.apply_gradients(zip(grads, dense.trainable_variables))


        train_step([[1.0, 2.0]])
        """,
    )


def test_keras_layers_built_by_name_in_a_graph_are_trained_through_their_variables() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        encoder = tf.keras.Sequential([tf.keras.layers.Dense(3)])
        head = tf.keras.layers.Dense(1)
        a = tf.placeholder(tf.float32, [None, 2])
        b = tf.placeholder(tf.float32, [None, 2])
        loss = tf.reduce_mean(head(encoder(a) - encoder(b)))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {a: [[1.0, 2.0]], b: [[0.0, 1.0]]})
        """,
        """\
        import tensorflow as tf
        encoder = tf.keras.Sequential([tf.keras.layers.Dense(3)])
        head = tf.keras.layers.Dense(1)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([None, 2]), tf.TensorSpec([None, 2])])
        def train_step(a, b):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(head(encoder(a) - encoder(b)))
            grads = tape.gradient(loss, head.trainable_variables + encoder.trainable_variables)
            optimizer.apply_gradients(zip(grads, head.trainable_variables + encoder.trainable_variables))


        train_step([[1.0, 2.0]], [[0.0, 1.0]])
        """,
    )


def test_an_argument_keras_lacks_written_as_its_tf1_default_changes_nothing() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        h = tf.contrib.layers.fully_connected(x, 3, normalizer_fn=None, normalizer_params=None)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(h, {x: [[1.0, 2.0]]}))
        """))
    assert result.level == "idiomatic"
    assert "normalizer" not in result.code


def test_graph_mode_helper_leaves_out_arguments_written_as_their_default() -> None:
    # A tensor read outside any run keeps the file in graph mode: the layer becomes the file's
    # helper, which takes no normalizer_fn; TF 2.21 has no tf.compat.v1.contrib to fall back on.
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        h = tf.contrib.layers.fully_connected(x, 3, normalizer_fn=None, scope="fc")
        print(h)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(h, {x: [[1.0, 2.0]]}))
        """))
    assert result.level == "partial"
    assert 'h = tf1_fully_connected(x, 3, scope="fc")' in result.code
    assert "compat.v1.contrib" not in result.code


def test_a_graph_layer_helper_is_defined_after_the_tensorflow_import_it_reads() -> None:
    # Statements between the first imports and `import tensorflow` put the helper before
    # the name `tf` was bound; the rewrite read an undefined name and was refused.
    result = rewrite_source(dedent("""\
        import warnings

        warnings.filterwarnings("ignore")

        import tensorflow as tf
        import numpy as np


        def model(x):
            with tf.variable_scope("m"):
                return tf.layers.dense(x, 3)
        """))
    code = result.code
    assert code.index("import numpy as np") < code.index("def tf1_dense(") < code.index("def model(x):")
    assert "return tf1_dense(x, 3)" in code


GRAPH_CONV_NET = """\
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 8, 8, 3])
is_training = tf.placeholder(tf.bool, [])
h = tf.layers.conv2d(x, 4, 3, strides=2, padding="same", name="conv")
h = tf.layers.batch_normalization(h, training=is_training, name="bn")
y = tf.layers.conv2d_transpose(h, 3, 3, 2, "same", activation=tf.nn.relu)
flat = tf.layers.flatten(y)
print(y, flat)
"""


def test_graph_mode_conv_and_batch_norm_become_tf1_layout_helpers_defined_in_the_file() -> None:
    # TF 2.21 has no tf.compat.v1.layers: each call becomes the file's helper, which makes
    # TF1's variables (kernel/bias, gamma/beta/moving_*) under the layer's variable scope.
    result = rewrite_source(GRAPH_CONV_NET)
    code = result.code
    assert result.level == "partial"
    assert 'h = tf1_conv2d(x, 4, 3, strides=2, padding="same", name="conv")' in code
    assert 'h = tf1_batch_normalization(h, training=is_training, name="bn")' in code
    assert 'y = tf1_conv2d_transpose(h, 3, 3, 2, "same", activation=tf.nn.relu)' in code
    assert "flat = tf1_flatten(y)" in code
    for path in ("layers.conv2d", "layers.batch_normalization", "layers.conv2d_transpose", "layers.flatten"):
        layer = GRAPH_LAYERS[path]
        assert code.count(layer.source) == 1
        assert code.index(f"def {layer.name}(") < code.index("x = tf.compat.v1.placeholder")
    assert "layers." not in code.split("x = tf.compat.v1.placeholder")[1]
    assert sum(f.rule == "TF109" and "defined in this file" in f.message for f in result.findings) == 4
    assert rewrite_source(code).code == code


def test_graph_mode_helpers_leave_out_batch_norm_arguments_written_as_their_default() -> None:
    result = rewrite_source(GRAPH_CONV_NET.replace('name="bn"', 'name="bn", renorm=False'))
    assert 'h = tf1_batch_normalization(h, training=is_training, name="bn")' in result.code


def test_graph_mode_conv_with_an_argument_its_helper_lacks_keeps_the_keras_layer() -> None:
    # A constraint is not in tf1_conv2d's keywords: the call keeps the Keras layer built in place.
    result = rewrite_source(GRAPH_CONV_NET.replace('name="conv"', 'name="conv", kernel_constraint=None'))
    assert 'h = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", name="conv", ' \
        'kernel_constraint=None)(x)' in result.code
    assert "def tf1_conv2d(" not in result.code


def test_graph_mode_batch_norm_with_an_argument_its_helper_lacks_keeps_its_tf1_call() -> None:
    # renorm is not in tf1_batch_normalization's keywords: the call stays TF1's, said so.
    result = rewrite_source(GRAPH_CONV_NET.replace('name="bn"', 'name="bn", renorm=True'))
    assert "tf.compat.v1.layers.batch_normalization(h, training=is_training" in result.code
    assert "def tf1_batch_normalization(" not in result.code

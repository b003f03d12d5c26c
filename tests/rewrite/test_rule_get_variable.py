"""TF103: get_variable → tf.Variable with the TF1 initializer explicit and the TF1 name kept."""

import pytest
from helpers import check_transformed

from migrate.api import rewrite_source

PROGRAM = """\
import tensorflow as tf
with tf.variable_scope('layer'):
    {line}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(v))
"""


def _case(line: str, expected: str) -> None:
    check_transformed(
        PROGRAM.format(line=line),
        f"import tensorflow as tf\n{expected}\nprint(v.numpy())\n",
    )


def test_default_float_initializer_is_glorot_uniform_even_for_biases() -> None:
    _case(
        "v = tf.get_variable('bias', [3])",
        "v = tf.Variable(tf.keras.initializers.GlorotUniform()([3], tf.float32), name='layer/bias')",
    )


def test_default_int_initializer_is_zeros() -> None:
    _case(
        "v = tf.get_variable('n', shape=[], dtype=tf.int64)",
        "v = tf.Variable(tf.zeros([], tf.int64), name='layer/n')",
    )


def test_random_normal_initializer_keeps_tf1_stddev() -> None:
    _case(
        "v = tf.get_variable('w', [2], initializer=tf.random_normal_initializer())",
        "v = tf.Variable(tf.random_normal_initializer(mean=0.0, stddev=1.0)([2], tf.float32), name='layer/w')",
    )


def test_array_initial_value_and_trainable_flag() -> None:
    _case(
        "v = tf.get_variable('c', initializer=[1.0, 2.0], trainable=False)",
        "v = tf.Variable([1.0, 2.0], name='layer/c', trainable=False)",
    )


def test_initializer_bound_to_a_name_is_called_with_the_shape() -> None:
    check_transformed(
        PROGRAM.format(line="init = tf.constant_initializer(0.5)\n    v = tf.get_variable('w', [2, 3], initializer=init)"),
        "import tensorflow as tf\ninit = tf.constant_initializer(0.5)\n"
        "v = tf.Variable(init([2, 3], tf.float32), name='layer/w')\nprint(v.numpy())\n",
    )



def test_helper_creating_variables_with_no_scope_to_name_a_layer_is_inlined() -> None:
    # No variable_scope would name a Keras layer made of it: TF1 named its variable `w`.
    check_transformed(
        """\
        import tensorflow as tf


        def build(x):
            w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
            return tf.matmul(x, w)


        x = tf.placeholder(tf.float32, [None, 3])
        pred = build(x)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_mean(pred))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0, 2.0, 3.0]]})
        """,
        """\
        import tensorflow as tf


        w = tf.Variable(tf.zeros([3, 1]), name="w")
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([None, 3])])
        def train_step(x):
            with tf.GradientTape() as tape:
                pred = tf.matmul(x, w)
                loss = tf.reduce_mean(pred)
            grads = tape.gradient(loss, [w])
            optimizer.apply_gradients(zip(grads, [w]))


        train_step([[1.0, 2.0, 3.0]])
        """,
    )


START = """\
import tensorflow as tf
n, v = 2, 0.5
x = tf.get_variable('x', {shape}, initializer={initializer})
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(x))
"""


@pytest.mark.parametrize(("initializer", "start"), [
    ("tf.constant_initializer(3.)", "3."),
    ("tf.constant_initializer(-2)", "-2.0"),
    ("tf.zeros_initializer()", "tf.zeros([])"),
    ("tf.constant_initializer()", "tf.zeros([])"),
])
def test_a_scalar_constant_start_is_written_as_its_value(initializer: str, start: str) -> None:
    result = rewrite_source(START.format(shape="[]", initializer=initializer))
    assert f"x = tf.Variable({start}, name='x')\n" in result.code


@pytest.mark.parametrize(("shape", "initializer", "start"), [
    ("[2, 2]", "tf.constant_initializer(0.5)", "tf.fill([2, 2], 0.5)"),
    ("[2]", "tf.constant_initializer([1., -2.])", "[1., -2.]"),
    ("[2, 3]", "tf.ones_initializer()", "tf.ones([2, 3])"),
    ("[2, 3]", "tf.zeros_initializer(), dtype=tf.int32", "tf.zeros([2, 3], tf.int32)"),
    # what the initializer computes, for an int list or a value that is no literal
    ("[2]", "tf.constant_initializer([1, 2])", "tf.constant([1, 2], tf.float32, [2])"),
    ("[2]", "tf.constant_initializer(v)", "tf.constant(v, tf.float32, [2])"),
    # kept as the initializer call: a shape not the list's, another dtype
    ("[4]", "tf.constant_initializer([1., 2.])", "tf.constant_initializer(value=[1., 2.])([4], tf.float32)"),
    ("[2]", "tf.constant_initializer(0.5), dtype=tf.float64",
     "tf.constant_initializer(value=0.5)([2], tf.float64)"),
    ("[n, 3]", "tf.constant_initializer(0.5)", "tf.fill([n, 3], 0.5)"),
    ("(n,) * 2", "tf.constant_initializer(0.5)", "tf.constant_initializer(value=0.5)((n,) * 2, tf.float32)"),
])
def test_constant_starts_are_plain_where_the_values_and_dtype_stay(shape: str, initializer: str, start: str) -> None:
    result = rewrite_source(START.format(shape=shape, initializer=initializer))
    assert f"x = tf.Variable({start}, name='x')" in result.code

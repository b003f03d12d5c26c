"""TF106/TF111/TF112: tf.train optimizers → Keras optimizers with TF1 numerics kept."""

from textwrap import dedent

import numpy as np
import pytest
from helpers import check_transformed, squeezed

from migrate.api import rewrite_source

TEMPLATE = """\
import tensorflow as tf
w = tf.Variable(1.0)
step = tf.train.{ctor}.minimize(w * w)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(step)
"""


@pytest.mark.parametrize(("ctor", "keras"), [
    ("GradientDescentOptimizer(1)", "SGD(learning_rate=1.0)"),
    ("MomentumOptimizer(0.1, 0.9)", "SGD(learning_rate=0.1, momentum=0.9)"),
    ("AdamOptimizer(0.01)", "Adam(learning_rate=0.01, epsilon=1e-08)"),
    ("AdamOptimizer(0.01, beta1=0.5, beta2=.99)", "Adam(learning_rate=0.01, beta_1=0.5, beta_2=.99, epsilon=1e-08)"),
    ("AdagradOptimizer(0.5)", "Adagrad(learning_rate=0.5, initial_accumulator_value=0.1, epsilon=0.0)"),
    ("RMSPropOptimizer(0.1)", "RMSprop(learning_rate=0.1, epsilon=1e-10)"),
    ("AdadeltaOptimizer(1.0, rho=0.95)", "Adadelta(learning_rate=1.0, rho=0.95, epsilon=1e-08)"),
])
def test_optimizer_arguments_keep_tf1_numerics(ctor: str, keras: str) -> None:
    result = rewrite_source(TEMPLATE.format(ctor=ctor))
    assert squeezed(f"optimizer = tf.keras.optimizers.{keras}") in squeezed(result.code)
    rms = [f for f in result.findings if f.rule == "TF111"]
    assert bool(rms) == ctor.startswith("RMSProp")


def test_float64_one_minus_beta_differs_from_tf1s() -> None:
    """Why the rewrite reports last-bit drift: with the decimal 0.9 Keras's `1 - beta` is another
    float32 than TF1's."""
    assert np.float32(1 - 0.9) != np.float32(1) - np.float32(0.9)


def test_decay_literals_are_written_as_the_user_wrote_them_and_reported() -> None:
    result = rewrite_source(TEMPLATE.format(ctor="AdamOptimizer(0.01, 0.9, 0.999)"))
    assert "Adam(learning_rate=0.01, beta_1=0.9, beta_2=0.999, epsilon=1e-08)" in result.code
    assert any("1 - beta_1, beta_2 in float64" in f.message and f.kind == "info" for f in result.findings)


def test_adam_reports_its_bias_correction_drift() -> None:
    """Keras's pow(beta, step) is not TF1's running product: the rewrite says so, SGD's does not."""
    adam = rewrite_source(TEMPLATE.format(ctor="AdamOptimizer(0.01)"))
    sgd = rewrite_source(TEMPLATE.format(ctor="GradientDescentOptimizer(0.01)"))
    assert any("beta ** step" in f.message and f.kind == "info" for f in adam.findings)
    assert not any("beta ** step" in f.message for f in sgd.findings)


def test_computed_beta_is_kept_and_reported() -> None:
    result = rewrite_source(TEMPLATE.format(ctor="AdamOptimizer(0.01, beta1=BETA)").replace(
        "w = tf", "BETA = 0.8\nw = tf"))
    assert "Adam(learning_rate=0.01, beta_1=BETA, epsilon=1e-08)" in result.code
    assert any("1 - beta_1, beta_2 in float64" in f.message for f in result.findings)


def test_learning_rate_placeholder_is_assigned_in_the_step() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        lr = tf.placeholder(tf.float32)
        w = tf.Variable(1.0)
        opt = tf.train.GradientDescentOptimizer(lr)
        step = opt.minimize(w * w)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step, {lr: 0.1})
        """,
        """\
        import tensorflow as tf
        w = tf.Variable(1.0)
        opt = tf.keras.optimizers.SGD(learning_rate=0.01)


        @tf.function(input_signature=[tf.TensorSpec([])])
        def train_step(lr):
            with tf.GradientTape() as tape:
                loss = w * w
            opt.learning_rate.assign(lr)
            grads = tape.gradient(loss, [w])
            opt.apply_gradients(zip(grads, [w]))


        train_step(0.1)
        """,
    )


def test_one_optimizer_on_two_variable_lists_is_refused() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n"
        "a = tf.Variable(1.0)\nb = tf.Variable(2.0)\n"
        "opt = tf.train.AdamOptimizer()\n"
        "ta = opt.minimize(a * a, var_list=[a])\ntb = opt.minimize(b * b, var_list=[b])\n"
        "sess = tf.Session()\nsess.run(ta)\nsess.run(tb)\n"
    )
    assert result.level == "partial"
    assert "second variable list" in result.fallback.message


def test_momentum_with_fed_learning_rate_rescales_the_momentum() -> None:
    # TF1 scales its whole accumulator by the rate of the step; Keras's momentum holds steps
    # scaled by past rates, so it is rescaled by new rate / old rate before the rate is set.
    result = rewrite_source(
        "import tensorflow as tf\nlr = tf.placeholder(tf.float32)\nw = tf.Variable(1.0)\n"
        "t = tf.train.MomentumOptimizer(lr, 0.9).minimize(w * w)\n"
        "sess = tf.Session()\nsess.run(t, {lr: 0.1})\n"
    )
    assert result.level == "idiomatic"
    assert not any(f.rule == "TF112" for f in result.findings)
    code = str(result.code)
    assert code.index("optimizer.build([w])") < code.index("rescale = lr / optimizer.learning_rate")
    assert code.index("momentum.assign(momentum * rescale)") < code.index("optimizer.learning_rate.assign(lr)")


def test_a_decayed_rate_used_in_arithmetic_keeps_the_graph() -> None:
    # `1 - schedule` has no meaning for a Keras schedule object: TF 2.21 raised TypeError.
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        step = tf.Variable(1.0, trainable=False)
        decayed = tf.train.exponential_decay(1.0, step, 1.0, 0.9)
        rate = tf.divide(1.0, 1 - decayed)
        x = tf.Variable([1.0])
        train = tf.train.GradientDescentOptimizer(rate).minimize(tf.reduce_sum(x * x), global_step=step)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            print(sess.run(x))
        """))
    assert result.level == "partial"
    assert "rate computes with a decayed rate" in result.fallback.message
    assert "1 - decayed" in result.code and "ExponentialDecay" not in result.code


def test_a_rate_variable_becomes_a_callable_rate() -> None:
    # given the variable, Keras 3 refuses it (a float, a schedule or a callable); TF1 read the
    # variable at each update, as Keras calls the callable
    result = rewrite_source(
        "import tensorflow as tf\n"
        "lr = tf.Variable(0.1)\n"
        "w = tf.Variable(1.0)\n"
        "train = tf.train.GradientDescentOptimizer(lr).minimize(w * w)\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    for i in range(2):\n"
        "        sess.run(tf.assign(lr, 0.1 / (i + 1)))\n"
        "        sess.run(train)\n"
    )
    assert result.level == "idiomatic"
    assert "optimizer = tf.keras.optimizers.SGD(learning_rate=lambda: lr)" in result.code
    assert "lr.assign(0.1 / (i + 1))" in result.code
    assert any(f.message == "learning rate variable lr → a callable rate" for f in result.findings)


def test_a_rate_decayed_at_a_computed_step_becomes_a_callable_rate() -> None:
    # Keras would decay a schedule at its own iteration count; TF1 decayed it at batch * 4
    result = rewrite_source(
        "import tensorflow as tf\n"
        "w = tf.Variable(1.0)\n"
        "batch = tf.Variable(0, dtype=tf.float32, trainable=False)\n"
        "lr = tf.train.exponential_decay(0.1, batch * 4, 8, 0.5, staircase=True)\n"
        "train = tf.train.GradientDescentOptimizer(lr).minimize(w * w, global_step=batch)\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    for i in range(3):\n"
        "        sess.run(train)\n"
    )
    assert result.level == "idiomatic"
    assert "optimizer = tf.keras.optimizers.SGD(learning_rate=lambda: lr(batch * 4))" in result.code
    assert "batch.assign_add(1)" in result.code
    assert any(f.message == "learning rate lr decayed at batch * 4 → a callable rate" for f in result.findings)


def test_get_global_step_is_the_module_global_step() -> None:
    """`minimize(global_step=tf.train.get_global_step())` increments the variable TF1 found."""
    check_transformed(
        """\
        import tensorflow as tf

        step = tf.train.get_or_create_global_step()
        w = tf.Variable(1.0)
        loss = w * w
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            print(sess.run(step))
        """,
        """\
        import tensorflow as tf

        step = tf.Variable(0, dtype=tf.int64, trainable=False, name='global_step')
        w = tf.Variable(1.0)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function
        def train_step():
            with tf.GradientTape() as tape:
                loss = w * w
            grads = tape.gradient(loss, [w])
            optimizer.apply_gradients(zip(grads, [w]))
            step.assign_add(1)


        train_step()
        print(step.numpy())
        """,
    )


def test_get_global_step_with_no_global_step_keeps_graph_mode() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf

        w = tf.Variable(1.0)
        loss = w * w
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
        """))
    assert result.level == "partial"
    assert any("and no one module-level variable is TF1's global step" in f.message for f in result.findings)

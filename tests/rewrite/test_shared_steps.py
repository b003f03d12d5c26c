"""A step that computes what another step returns calls it instead of repeating its code."""

from textwrap import dedent

from migrate.api import rewrite_source

TRAIN_AND_REPORT = """\
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.ones([2, 1]))
pred = tf.matmul(x, w)
loss = tf.reduce_mean(tf.square(pred - y)){extra}
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        sess.run(train, {{x: np.ones([4, 2]), y: np.zeros([4, 1])}})
    print(sess.run(loss, {{x: np.ones([4, 2]), y: np.zeros([4, 1])}}))
"""


def test_the_training_step_calls_the_step_computing_its_loss() -> None:
    result = rewrite_source(TRAIN_AND_REPORT.format(extra=""))
    assert result.level == "idiomatic", result.findings
    train = result.code[result.code.index("def train_step"):result.code.index("def compute_loss")]
    assert "loss = compute_loss(x, y)" in train
    assert "tf.matmul" not in train
    assert result.code.count("pred = tf.matmul(x, w)") == 1


def test_random_statements_stay_in_each_step() -> None:
    """Moving a dropout into another function would give it another op seed."""
    result = rewrite_source(TRAIN_AND_REPORT.format(extra="\nloss = loss + tf.reduce_sum(tf.random.uniform([1]))"))
    assert "compute_loss(x, y)" not in result.code.split("def compute_loss")[0]


def test_a_step_returning_a_variable_it_does_not_compute_is_not_called() -> None:
    """`return [w, loss]`: w is the module's variable, a call would shadow it with a local."""
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        w = tf.Variable(1.0)
        loss = tf.square(w - 3.0)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            print(sess.run([w, loss]))
        """))
    assert result.level == "idiomatic", result.findings
    assert "w, loss =" not in result.code


def test_steps_with_the_same_code_do_not_call_each_other() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        w = tf.Variable(1.0)
        loss = tf.square(w - 3.0)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            print(sess.run(loss))
            print(sess.run({"loss": loss}))
        """))
    assert result.level == "idiomatic", result.findings
    for name in ("compute_loss", "evaluate"):
        if f"def {name}" in result.code:
            body = result.code.split(f"def {name}")[1].split("\ndef ")[0].split("\n\n\n")[0]
            assert f"{name}(" not in body


def test_a_value_the_step_reads_after_its_tape_stays_computed_in_it() -> None:
    """`total = compute_total()` would leave the `xent` the step returns after its tape unbound."""
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        w = tf.Variable(1.0)
        xent = tf.square(w - 3.0)
        reg = 0.1 * tf.square(w)
        total = xent + reg
        train = tf.train.GradientDescentOptimizer(0.1).minimize(total)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run([train, xent, reg]))
            print(sess.run(total))
        """))
    assert result.level == "idiomatic", result.findings
    train = result.code[result.code.index("def train_step"):]
    train = train[:train.index("\n\n\n")]
    assert "total = compute_total()" not in train

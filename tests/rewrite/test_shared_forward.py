"""The forward pass several steps begin with is defined once and called from each step."""

from __future__ import annotations

from textwrap import dedent

import libcst as cst

from migrate.shared_forward import share_forward

HEAD = "import tensorflow as tf\n\nW = tf.Variable([[1.0]])\nb = tf.Variable([0.0])\n"


def _shared(steps: str) -> str:
    return share_forward(cst.parse_module(HEAD + dedent(steps))).code[len(HEAD):]


def check(before: str, after: str) -> None:
    assert _shared(before) == dedent(after)


def check_noop(source: str) -> None:
    assert _shared(source) == dedent(source)


def test_a_computation_two_steps_begin_with_is_defined_once() -> None:
    check(
        """

        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                # the model
                logits = tf.matmul(x, W) + b
                loss = tf.reduce_mean(tf.square(logits - y))
            return loss


        @tf.function
        def evaluate(x, y):
            logits = tf.matmul(x, W) + b
            return tf.reduce_mean(tf.cast(tf.equal(logits, y), tf.float32))
        """,
        """

        def forward(x):
            # the model
            return tf.matmul(x, W) + b


        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                logits = forward(x)
                loss = tf.reduce_mean(tf.square(logits - y))
            return loss


        @tf.function
        def evaluate(x, y):
            logits = forward(x)
            return tf.reduce_mean(tf.cast(tf.equal(logits, y), tf.float32))
        """,
    )


def test_several_statements_and_values_come_back_together() -> None:
    check(
        """

        @tf.function
        def first(x):
            h = tf.nn.relu(x * W)
            out = h + b
            return h + out


        @tf.function
        def second(x):
            h = tf.nn.relu(x * W)
            out = h + b
            return out * h
        """,
        """

        def forward(x):
            h = tf.nn.relu(x * W)
            out = h + b
            return h, out


        @tf.function
        def first(x):
            h, out = forward(x)
            return h + out


        @tf.function
        def second(x):
            h, out = forward(x)
            return out * h
        """,
    )


def test_a_shared_loss_is_computed_by_name() -> None:
    check(
        """

        @tf.function
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(x * W)
            return loss


        @tf.function
        def report(x):
            loss = tf.reduce_mean(x * W)
            return [W, loss]
        """,
        """

        def compute_loss(x):
            return tf.reduce_mean(x * W)


        @tf.function
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = compute_loss(x)
            return loss


        @tf.function
        def report(x):
            loss = compute_loss(x)
            return [W, loss]
        """,
    )


def test_random_draws_stay_in_each_step() -> None:
    check_noop(
        """

        @tf.function
        def first(x):
            noisy = x + tf.random.normal([1])
            return noisy * W


        @tf.function
        def second(x):
            noisy = x + tf.random.normal([1])
            return noisy + b
        """
    )


def test_a_model_already_defined_once_is_not_wrapped_again() -> None:
    check_noop(
        """

        @tf.function
        def first(z):
            fake = generator(z)
            return fake * W


        @tf.function
        def second(z):
            fake = generator(z)
            return fake + b
        """
    )


def test_a_loss_both_steps_compute_is_shared_with_the_forward_pass() -> None:
    """What reads the labels too is shared when every step computes it: named for the value."""
    out = _shared(
        """

        @tf.function
        def first(x, y):
            pred = x * W
            err = pred - y
            return err


        @tf.function
        def second(x, y):
            pred = x * W
            err = pred - y
            return err * 2.0
        """
    )
    assert "def compute_err(x, y):\n    pred = x * W\n    return pred - y\n" in out
    assert out.count("err = compute_err(x, y)") == 2 and "forward" not in out


def test_a_name_the_module_uses_is_not_taken() -> None:
    out = _shared(
        """
        forward = 3


        @tf.function
        def first(x):
            pred = x * W
            return pred + forward


        @tf.function
        def second(x):
            pred = x * W
            return pred
        """
    )
    assert "def compute_pred(x):" in out


def test_a_value_computed_from_no_input_is_named_for_what_it_is() -> None:
    out = _shared(
        """

        @tf.function
        def first(x):
            state = tf.zeros([2]) + b
            return state + x


        @tf.function
        def second(x):
            state = tf.zeros([2]) + b
            return state * x
        """
    )
    assert "def compute_state():\n    return tf.zeros([2]) + b\n" in out
    assert out.count("state = compute_state()") == 2

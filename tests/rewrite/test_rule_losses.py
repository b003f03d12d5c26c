"""TF113: tf.losses.* → the TF2 ops they compute, with TF1's reduction."""

import libcst as cst
import pytest
from helpers import check_transformed

from migrate.rules.api_rename import tf2_loss


@pytest.mark.parametrize(
    ("path", "call", "expected"),
    [
        ("losses.mean_squared_error", "f(y, p)", "tf.reduce_mean(tf.math.squared_difference(p, y))"),
        ("losses.absolute_difference", "f(labels=y, predictions=a + b)", "tf.reduce_mean(tf.abs((a + b) - y))"),
        ("losses.softmax_cross_entropy", "f(onehot, logits, weights=1.0)",
         "tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(onehot), logits=logits))"),
        ("losses.log_loss", "f(y, p, epsilon=1e-3)",
         "tf.reduce_mean(-y * tf.math.log(p + 1e-3) - (1 - y) * tf.math.log(1 - p + 1e-3))"),
    ],
)
def test_loss_becomes_the_mean_tf1_computed(path: str, call: str, expected: str) -> None:
    loss = tf2_loss(path, cst.parse_expression(call), "tf")  # type: ignore[arg-type]
    assert loss is not None and cst.Module([]).code_for_node(loss) == expected


@pytest.mark.parametrize("call", ["f(y, p, weights=w)", "f(y, p, reduction=r)", "f(*args)"])
def test_weights_or_reduction_have_no_plain_mean(call: str) -> None:
    assert tf2_loss("losses.mean_squared_error", cst.parse_expression(call), "tf") is None  # type: ignore[arg-type]


def test_weighted_loss_keeps_compat_v1_in_eager_code() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        y = tf.placeholder(tf.float32, [None])
        w = tf.Variable(1.0)
        loss = tf.losses.mean_squared_error(y, w * y, weights=2.0)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(loss, {y: [1.0]}))
        """,
        """\
        import tensorflow as tf
        w = tf.Variable(1.0)


        @tf.function(input_signature=[tf.TensorSpec([None])])
        def compute_loss(y):
            loss = tf.compat.v1.losses.mean_squared_error(y, w * y, weights=2.0)
            return loss


        print(compute_loss([1.0]).numpy())
        """,
        level="partial",
    )
    assert any(f.rule == "TF190" and "weights" in f.message for f in result.findings)


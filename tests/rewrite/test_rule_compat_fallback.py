"""TF190: unmodelled programs keep TF1 semantics under compat.v1, with a manual finding."""

from helpers import check_transformed


def test_graph_built_in_a_loop_stays_in_graph_mode() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32)
        y = x
        for _ in range(3):
            y = y * 2.0  # graph built in a loop
        with tf.Session() as sess:
            print(sess.run(y, {x: 1.0}))
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32)
        y = x
        for _ in range(3):
            y = y * 2.0  # graph built in a loop
        with tf.compat.v1.Session() as sess:
            print(sess.run(y, {x: 1.0}))
        """,
        level="partial",
    )
    manual = [f for f in result.findings if f.kind == "manual"]
    assert manual[0].rule == "TF190" and manual[0].line == 4
    assert "graph tensor y used outside a session run" in manual[0].message

"""TF116: queue-runner input pipelines stay in graph mode with a finding."""

from helpers import check_transformed


def test_queue_runner_input_is_kept_in_graph_mode_and_reported() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        files = tf.train.string_input_producer(["a.csv"])
        with tf.Session() as sess:
            threads = tf.train.start_queue_runners(sess=sess)
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        files = tf.compat.v1.train.string_input_producer(["a.csv"])
        with tf.compat.v1.Session() as sess:
            threads = tf.compat.v1.train.start_queue_runners(sess=sess)
        """,
        level="partial",
    )
    assert sum(f.rule == "TF116" for f in result.findings) == 2

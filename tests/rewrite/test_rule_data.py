"""TF116: queue-runner input pipelines stay in graph mode with a finding."""

from textwrap import dedent

import pytest
from helpers import check_transformed

from migrate.api import rewrite_source


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


def test_graph_mode_iterators_are_made_by_the_compat_functions() -> None:
    # TF2 datasets have no make_*_iterator methods; tf.compat.v1.data has them as functions.
    result = check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None])
        it = tf.data.Dataset.from_tensor_slices(x).batch(2).make_initializable_iterator()
        one = tf.data.Dataset.range(3).make_one_shot_iterator()
        with tf.Session() as sess:
            sess.run(it.initializer, {x: [1.0, 2.0]})
            print(sess.run(it.get_next()), sess.run(one.get_next()))
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32, [None])
        it = tf.compat.v1.data.make_initializable_iterator(tf.data.Dataset.from_tensor_slices(x).batch(2))
        one = tf.compat.v1.data.make_one_shot_iterator(tf.data.Dataset.range(3))
        with tf.compat.v1.Session() as sess:
            sess.run(it.initializer, {x: [1.0, 2.0]})
            print(sess.run(it.get_next()), sess.run(one.get_next()))
        """,
        level="partial",
    )
    assert sum("tf.compat.v1.data.make_" in f.message for f in result.findings) == 2


@pytest.mark.parametrize("queue", ["tf.FIFOQueue", "tf.queue.FIFOQueue"])
def test_a_queue_keeps_the_graph(queue: str) -> None:
    # Replayed in each step function, the queue was made anew per call and lost its contents.
    result = rewrite_source(dedent(f"""\
        import tensorflow as tf
        q = {queue}(2, tf.int32)
        init = q.enqueue_many(tf.constant([0, 10]))
        x = q.dequeue()
        q_inc = q.enqueue([x + 1])
        with tf.Session() as session:
            init.run()
            for i in range(5):
                v, _ = session.run([x, q_inc])
                print(v)
        """))
    assert result.level == "partial"
    assert "queue-based input has no TF2 form here" in result.fallback.message
    assert "@tf.function" not in result.code


def test_a_fetched_get_next_call_converts_each_element_of_its_structure() -> None:
    result = rewrite_source(
        "import numpy as np\nimport tensorflow as tf\n"
        "ds = tf.data.Dataset.from_tensor_slices((np.arange(6.0), np.arange(6.0))).batch(2)\n"
        "iterator = ds.make_one_shot_iterator()\nsess = tf.Session()\n"
        "a, b = sess.run(iterator.get_next())\nprint(a, b)\n"
    )
    assert "a, b = tf.nest.map_structure(lambda t: t.numpy(), compute_iterator())\n" in result.code


@pytest.mark.parametrize("constructor", ['tf.data.TFRecordDataset(["a.tfrecord"])',
                                         'tf.data.TextLineDataset(["a.csv"]).map(tf.strings.to_number)'])
def test_a_chain_on_a_file_dataset_is_a_dataset_the_steps_pull_from(constructor: str) -> None:
    result = rewrite_source(dedent(f"""\
        import tensorflow as tf
        dataset = {constructor}.repeat().batch(4)
        batch = dataset.make_one_shot_iterator().get_next()
        total = tf.reduce_sum(tf.cast(batch, tf.float32))
        with tf.Session() as sess:
            print(sess.run(total))
        """))
    assert result.level == "idiomatic", result.findings
    assert "iterator = iter(dataset)\n" in result.code
    assert "print(compute_total(iterator.get_next()).numpy())" in result.code

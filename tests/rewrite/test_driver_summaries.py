"""TF114: summary merges and FileWriters a driver function makes once the graph is built."""

from textwrap import dedent

from migrate.api import rewrite_source

MODEL = """\
import tensorflow as tf


class Net:
    def __init__(self):
        self.x = tf.placeholder(tf.float32, [None, 2])
        self.w = tf.Variable(tf.ones([2, 1]))
        self.loss = tf.reduce_mean(tf.matmul(self.x, self.w))
        self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)
        tf.summary.scalar('loss', self.loss)


class Trainer:
    def __init__(self):
        self.net = Net()
        self.sess = tf.Session()
        self.sess.run(tf.global_variables_initializer())

    def fit(self):
        merged = tf.summary.merge_all()
        writer = tf.summary.FileWriter('/tmp/logs', self.sess.graph)
        for i in range(3):
            FETCH
            writer.add_summary(s, i)
"""
INSTANCE_RUN = "_, s = self.sess.run([self.net.train, merged], feed_dict={self.net.x: [[1.0, 2.0]]})"


def rewrite(source: str):
    return rewrite_source(dedent(source))


def test_a_merge_fetched_with_an_instance_is_the_summaries_its_class_made() -> None:
    result = rewrite(MODEL.replace("FETCH", INSTANCE_RUN))
    assert result.level == "idiomatic", result.findings
    assert "return {'loss': loss}" in result.code
    assert "s = {k: t.numpy() for k, t in self.net.train_step([[1.0, 2.0]]).items()}" in result.code
    assert "merge_all" not in result.code and "tfmigrate__" not in result.code
    assert "writer = tf.summary.create_file_writer('/tmp/logs')" in result.code
    assert "tf.summary.scalar(tag, value, step=i)" in result.code


def test_a_merge_fetched_with_an_instance_while_the_driver_makes_summaries_too_keeps_tf1() -> None:
    source = MODEL.replace("FETCH", INSTANCE_RUN).replace(
        "        self.sess = tf.Session()\n",
        "        self.sess = tf.Session()\n        tf.summary.scalar('one', tf.constant(1.0))\n",
    )
    result = rewrite(source)
    assert result.level == "partial"
    assert any("merge_all() fetched with a model's tensors where other code makes summaries too" in f.message
               for f in result.findings)


def test_a_merge_fetched_alone_by_a_driver_holding_no_summaries_keeps_tf1() -> None:
    """Its summaries are the model class's, which no step of the driver holds."""
    result = rewrite(MODEL.replace("FETCH", "s = self.sess.run(merged)"))
    assert result.level == "partial"
    assert any("merged: merge_all() of summaries made by code the step does not hold" in f.message
               for f in result.findings)


def test_a_module_function_merges_and_writes_the_module_graphs_summaries() -> None:
    result = rewrite("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable(tf.ones([2, 1]))
        loss = tf.reduce_mean(tf.matmul(x, w))
        tf.summary.scalar('loss', loss)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())


        def fit():
            merged = tf.summary.merge_all()
            writer = tf.summary.FileWriter('/tmp/logs', sess.graph)
            for i in range(3):
                s, _ = sess.run([merged, train_op], {x: [[1.0, 2.0]]})
                writer.add_summary(s, i)


        fit()
        """)
    assert result.level == "idiomatic", result.findings
    assert "return {'loss': loss}" in result.code
    assert "writer = tf.summary.create_file_writer('/tmp/logs')" in result.code
    assert "merge_all" not in result.code


def test_a_writer_of_another_graph_in_a_driver_function_keeps_tf1() -> None:
    source = MODEL.replace("FETCH", INSTANCE_RUN).replace("self.sess.graph", "tf.get_default_graph()")
    result = rewrite(source)
    assert result.level == "partial"


def test_a_name_bound_to_a_merge_and_to_something_else_is_no_merge_of_an_instance() -> None:
    """`merged` of another method is the model's loss: that run fetches the loss, not summaries."""
    source = MODEL.replace("FETCH", INSTANCE_RUN) + dedent("""\

        def other(trainer):
            merged = trainer.net.loss
            return trainer.sess.run([trainer.net.train, merged], feed_dict={trainer.net.x: [[1.0, 2.0]]})
        """)
    result = rewrite(source)
    assert "tfmigrate__" not in result.code
    assert "return {'loss': loss}" not in result.code

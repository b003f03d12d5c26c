"""TF114: summaries of several kinds, from helpers and per listed variable; TF104 scope regularizers."""

from textwrap import dedent

from helpers import squeezed

from migrate.api import rewrite_source

GRAPH = """\
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
h = tf.layers.dense(x, 3, name="h")
loss = tf.reduce_mean(h)
"""
RUN = """\
merged = tf.summary.merge_all()
with tf.Session() as sess:
    writer = tf.summary.FileWriter("/tmp/logs")
    sess.run(tf.global_variables_initializer())
    writer.add_summary(sess.run(merged, {x: [[1.0, 2.0]]}), 3)
"""


def rewrite(source: str):
    return rewrite_source(dedent(source))


def test_summaries_of_two_kinds_are_returned_by_kind_and_written_by_kind() -> None:
    result = rewrite(
        GRAPH + 'tf.summary.scalar("loss", loss)\ntf.summary.histogram("h", h)\n' + RUN
    )
    assert result.level == "idiomatic"
    assert "return {'scalar': {\"loss\": loss}, 'histogram': {\"h\": h}}" in result.code
    # fetched once (the fetch runs the step), then written by kind
    assert "summary_values = tf.nest.map_structure(" in result.code
    assert "for tag, value in summary_values['scalar'].items():" in result.code
    assert "tf.summary.histogram(tag, value, step=3)" in result.code


def test_a_helper_making_summaries_is_inlined_at_each_call_with_its_name_scope() -> None:
    helper = dedent("""\
        def stats(t, name):
            with tf.name_scope("stats_" + name):
                mean = tf.reduce_mean(t)
                tf.summary.scalar("mean", mean)
        """)
    source = GRAPH.replace(
        "loss = ", helper.replace("\n", "\n", 1) + "stats(h, 'h')\nstats(x, 'x')\nloss = "
    )
    result = rewrite(source + RUN)
    assert result.level == "idiomatic", result.findings
    assert "def stats" not in result.code
    assert '"stats_h/mean": mean, "stats_x/mean": mean_2' in result.code


def test_the_same_tag_twice_is_made_unique_as_tf1_did() -> None:
    result = rewrite(
        GRAPH + 'tf.summary.scalar("loss", loss)\ntf.summary.scalar("loss", 2 * loss)\n' + RUN
    )
    assert "{'loss': loss, 'loss_1': 2 * loss}" in result.code.replace('"', "'")


def test_a_tag_under_a_name_scope_named_at_run_time_keeps_tf1() -> None:
    source = (
        GRAPH
        + 'name = "a" if loss is not None else "b"\nwith tf.name_scope(name):\n    tf.summary.scalar("loss", loss)\n'
    )
    result = rewrite(source + RUN)
    assert result.level == "partial"
    assert any("name scope named at run time" in f.message for f in result.findings)


def test_histograms_of_listed_keras_variables_are_named_by_their_paths() -> None:
    source = GRAPH + "for v in tf.trainable_variables():\n    tf.summary.histogram(v.op.name, v)\n"
    result = rewrite(source + RUN)
    assert result.level == "idiomatic", result.findings
    assert "**{v.path: v for v in h_layer.trainable_variables}" in result.code


def test_a_helper_whose_name_is_read_otherwise_is_not_inlined() -> None:
    source = GRAPH + dedent("""\
        def stats(t):
            tf.summary.scalar("mean", tf.reduce_mean(t))
        print(stats.__doc__)
        stats(loss)
        """)
    result = rewrite(source + RUN)
    assert "def stats" in result.code
    assert result.level == "partial"


def test_a_scope_regularizer_reaches_kernel_and_bias_of_each_layer() -> None:
    source = """\
        import tensorflow as tf
        def net(inputs):
            with tf.variable_scope("net", regularizer=tf.contrib.layers.l2_regularizer(0.1)):
                h = tf.layers.dense(inputs, 3, name="h")
                return tf.layers.dense(h, 1, kernel_regularizer=None, bias_regularizer=tf.contrib.layers.l1_regularizer(0.2), name="out")
        x = tf.placeholder(tf.float32, [None, 2])
        loss = tf.reduce_mean(net(x)) + tf.losses.get_regularization_loss()
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0, 2.0]]})
        """
    result = rewrite(source)
    assert result.level == "idiomatic", result.findings
    l2 = "tf.keras.regularizers.L2(0.5 * 0.1)"
    assert squeezed(f"Dense(3, bias_regularizer={l2}, kernel_regularizer={l2}, name='h')") in squeezed(result.code)
    assert squeezed(
        f"Dense(1, bias_regularizer=tf.keras.regularizers.L1(0.2), kernel_regularizer={l2}, name='out')"
    ) in squeezed(result.code)
    assert "tf.add_n(net.losses)" in result.code


def test_a_scope_regularizer_over_batch_norm_keeps_tf1() -> None:
    source = """\
        import tensorflow as tf
        def net(inputs):
            with tf.variable_scope("net", regularizer=tf.contrib.layers.l2_regularizer(0.1)):
                return tf.layers.batch_normalization(inputs, name="bn")
        x = tf.placeholder(tf.float32, [None, 2])
        loss = tf.reduce_mean(net(x)) + tf.losses.get_regularization_loss()
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0, 2.0]]})
        """
    result = rewrite(source)
    assert result.level == "partial"
    assert any("regularizes otherwise" in f.message for f in result.findings)


def test_a_helper_called_where_the_move_does_not_reach_keeps_tf1() -> None:
    source = GRAPH + dedent("""\
        def stats(t):
            tf.summary.scalar("mean", tf.reduce_mean(t))
        def later(t):
            stats(t)
        """)
    result = rewrite(source + RUN)
    assert "def stats" in result.code
    assert result.level == "partial"

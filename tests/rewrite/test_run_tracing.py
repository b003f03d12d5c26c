"""TF102: a run's tracing (RunOptions, RunMetadata, add_run_metadata) goes, with one finding."""

from helpers import check_transformed

from migrate.api import rewrite_source


def test_traced_run_becomes_a_plain_step_call_keeping_the_comments() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0])
        total = tf.reduce_sum(w * 3.0)
        writer = tf.summary.FileWriter("/tmp/log")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)  # trace it
            metadata = tf.RunMetadata()
            print(sess.run(total, options=options, run_metadata=metadata))
            writer.add_run_metadata(metadata, "first")  # its tag
        writer.close()
        """,
        """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0])
        writer = tf.summary.create_file_writer("/tmp/log")


        @tf.function
        def compute_total():
            total = tf.reduce_sum(w * 3.0)
            return total


        # trace it
        # its tag
        print(compute_total().numpy())
        writer.close()
        """,
    )
    notes = [f for f in result.findings if "run tracing" in f.message]
    assert [(f.line, f.kind) for f in notes] == [(7, "info")]
    assert "tf.RunOptions, tf.RunMetadata, add_run_metadata" in notes[0].message


def test_inline_options_go_too() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nw = tf.Variable(2.0)\ny = w * 3.0\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run(y, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)))\n"
    )
    assert result.level == "idiomatic"
    assert "RunOptions" not in str(result.code)


def test_metadata_read_by_the_program_keeps_the_file_as_it_was() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nw = tf.Variable(2.0)\ny = w * 3.0\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    metadata = tf.RunMetadata()\n    print(sess.run(y, run_metadata=metadata))\n"
        "    print(metadata.step_stats)\n"
    )
    assert result.level == "partial"
    assert "tf.compat.v1.RunMetadata()" in str(result.code)

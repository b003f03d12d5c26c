"""TF102: a session's ConfigProto becomes tf.config settings after the import, or nothing."""

from helpers import check_transformed

from migrate.api import rewrite_source

STEP = """\
        @tf.function
        def compute_total():
            total = tf.reduce_sum(w * 3.0)
            return total


        print(compute_total().numpy())
        """


def test_allow_growth_set_on_a_config_becomes_memory_growth_for_each_gpu() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0])
        total = tf.reduce_sum(w * 3.0)
        config = tf.ConfigProto()
        config.gpu_options.allow_growth = True
        sess = tf.Session(config=config)
        sess.run(tf.global_variables_initializer())
        print(sess.run(total))
        """,
        """\
        import tensorflow as tf
        for gpu in tf.config.list_physical_devices("GPU"):
            tf.config.experimental.set_memory_growth(gpu, True)
        w = tf.Variable([1.0, 2.0])


""" + STEP,
    )
    assert any(f.line == 5 and "set_memory_growth" in f.message and f.kind == "fixed"
               for f in result.findings)


def test_inline_config_with_placement_and_threads_maps_each_option() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0])
        total = tf.reduce_sum(w * 3.0)
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True, log_device_placement=False,
                                              intra_op_parallelism_threads=2,
                                              inter_op_parallelism_threads=1)) as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(total))
        """,
        """\
        import tensorflow as tf
        tf.config.set_soft_device_placement(True)
        tf.debugging.set_log_device_placement(False)
        tf.config.threading.set_intra_op_parallelism_threads(2)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        w = tf.Variable([1.0, 2.0])


""" + STEP,
    )


def test_gpu_options_memory_fraction_is_dropped_and_the_comment_goes_with_the_settings() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        w = tf.Variable([1.0, 2.0])
        total = tf.reduce_sum(w * 3.0)
        # share the GPU with other jobs
        gpu_options = tf.GPUOptions(per_process_gpu_memory_fraction=0.4, allow_growth=True)
        sess = tf.Session(config=tf.ConfigProto(gpu_options=gpu_options))
        sess.run(tf.global_variables_initializer())
        print(sess.run(total))
        """,
        """\
        import tensorflow as tf
        # share the GPU with other jobs
        for gpu in tf.config.list_physical_devices("GPU"):
            tf.config.experimental.set_memory_growth(gpu, True)
        w = tf.Variable([1.0, 2.0])


        @tf.function
        def compute_total():
            total = tf.reduce_sum(w * 3.0)
            return total


        print(compute_total().numpy())
        """,
    )
    dropped = [f for f in result.findings if "per_process_gpu_memory_fraction" in f.message]
    assert [(f.line, f.kind) for f in dropped] == [(5, "info")]


def test_config_inside_main_is_set_at_import_and_a_taken_gpu_name_is_avoided() -> None:
    check_transformed(
        """\
        import tensorflow as tf


        def main(gpu):
            w = tf.Variable([1.0, gpu])
            total = tf.reduce_sum(w * 3.0)
            session_conf = tf.ConfigProto(allow_soft_placement=True)
            session_conf.gpu_options.allow_growth = True
            with tf.Session(config=session_conf) as sess:
                sess.run(tf.global_variables_initializer())
                print(sess.run(total))


        main(2.0)
        """,
        """\
        import tensorflow as tf
        tf.config.set_soft_device_placement(True)
        for gpu_device in tf.config.list_physical_devices("GPU"):
            tf.config.experimental.set_memory_growth(gpu_device, True)


        def main(gpu):
            w = tf.Variable([1.0, gpu])

            @tf.function
            def compute_total():
                total = tf.reduce_sum(w * 3.0)
                return total

            print(compute_total().numpy())


        main(2.0)
        """,
    )


def test_config_with_another_use_or_a_computed_option_keeps_the_file_as_tf1() -> None:
    for extra in ("print(config)\n", "config.intra_op_parallelism_threads = len('ab')\n"):
        source = (
            "import tensorflow as tf\n"
            "w = tf.Variable([1.0, 2.0])\n"
            "total = tf.reduce_sum(w * 3.0)\n"
            "config = tf.ConfigProto()\n"
            + extra
            + "sess = tf.Session(config=config)\n"
            "sess.run(tf.global_variables_initializer())\n"
            "print(sess.run(total))\n"
        )
        result = rewrite_source(source)
        assert result.level == "partial"
        assert "tf.compat.v1.ConfigProto()" in result.code
        assert "tf.config." not in result.code


def test_a_config_built_again_for_a_second_session_is_set_once() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        config = tf.ConfigProto()
        config.gpu_options.allow_growth = True
        sess = tf.Session(config=config)
        w = tf.Variable(2.0)
        sess.run(tf.global_variables_initializer())
        print(sess.run(w))
        sess.close()
        config = tf.ConfigProto()
        config.gpu_options.allow_growth = True
        sess = tf.Session(config=config)
        sess.run(tf.global_variables_initializer())
        print(sess.run(w))
        """,
        """\
        import tensorflow as tf
        for gpu in tf.config.list_physical_devices("GPU"):
            tf.config.experimental.set_memory_growth(gpu, True)
        w = tf.Variable(2.0)
        print(w.numpy())
        print(w.numpy())
        """,
    )


def test_gpu_options_inline_in_an_interactive_session_and_a_device_count_dropped() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        sess = tf.InteractiveSession(config=tf.ConfigProto(
            device_count={"GPU": 1}, gpu_options=tf.GPUOptions(allow_growth=True)))
        w = tf.Variable(2.0)
        sess.run(tf.global_variables_initializer())
        print(sess.run(w))
        """,
        """\
        import tensorflow as tf
        for gpu in tf.config.list_physical_devices("GPU"):
            tf.config.experimental.set_memory_growth(gpu, True)
        w = tf.Variable(2.0)
        print(w.numpy())
        """,
    )
    assert any("device_count has no TF2 form" in f.message and f.kind == "info" for f in result.findings)

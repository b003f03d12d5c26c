"""TF101: TF2 import, graph-mode switches dropped, any alias respelled `tf`."""

from helpers import check_noop, check_transformed


def test_compat_v1_alias_becomes_tf() -> None:
    check_transformed(
        """\
        import tensorflow.compat.v1 as tf1
        tf1.disable_v2_behavior()
        y = tf1.log(2.0)
        """,
        """\
        import tensorflow as tf
        y = tf.math.log(2.0)
        """,
    )


def test_try_except_shim_collapses_to_one_import() -> None:
    check_transformed(
        """\
        try:
            import tensorflow.compat.v1 as tf
        except ImportError:
            import tensorflow as tf
        y = tf.log(1.0)
        """,
        """\
        import tensorflow as tf
        y = tf.math.log(1.0)
        """,
    )


def test_from_tensorflow_compat_import_v1() -> None:
    check_transformed(
        "from tensorflow.compat import v1\nz = v1.to_float(3)\n",
        "import tensorflow as tf\nz = tf.cast(3, tf.float32)\n",
    )


def test_plain_tf2_import_is_kept() -> None:
    check_noop("import tensorflow as tf\nimport numpy as np\nx = tf.constant(np.ones(3))\n")

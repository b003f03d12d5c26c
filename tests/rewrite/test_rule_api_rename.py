"""TF108: names and arguments from the API table."""

import pytest
from helpers import check_noop, check_transformed, check_transformed_code

from migrate.api import rewrite_source
from migrate.api_table import RENAMES, is_tf1_only


@pytest.mark.parametrize(("before", "after"), [
    ("tf.log(x)", "tf.math.log(x)"),
    ("tf.random_normal([2], stddev=0.1)", "tf.random.normal([2], stddev=0.1)"),
    ("tf.reduce_sum(x, reduction_indices=[1], keep_dims=True)", "tf.reduce_sum(x, axis=[1], keepdims=True)"),
    ("tf.nn.dropout(x, keep_prob)", "tf.nn.dropout(x, rate=1 - keep_prob)"),
    ("tf.nn.dropout(x, keep_prob=0.5 * k)", "tf.nn.dropout(x, rate=1 - (0.5 * k))"),
    ("tf.to_float(x)", "tf.cast(x, tf.float32)"),
    (
        "tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)",
        "tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(y), logits=z)",
    ),
    (  # labels a rewrite already cut from the gradient are not wrapped twice
        "tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(y), logits=z)",
        "tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(y), logits=z)",
    ),
    ("tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=z)",
     "tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z)"),
    # v1 in_top_k takes predictions first; TF2's takes targets first.
    ("tf.nn.in_top_k(logits, labels, 1)", "tf.nn.in_top_k(targets=labels, predictions=logits, k=1)"),
    ("tf.math.in_top_k(p, targets=t, k=5, name='top')",
     "tf.math.in_top_k(targets=t, predictions=p, k=5, name='top')"),
    (  # contrib's normal xavier is a truncated normal of stddev sqrt(1.3 / fan_avg)
        "tf.contrib.layers.xavier_initializer(uniform=False)",
        (
            "tf.keras.initializers.VarianceScaling(scale=1.3 * 0.87962566103423978 ** 2, mode='fan_avg', "
            "distribution='truncated_normal')"
        ),
    ),
    # xw_plus_b is TF1-only: the bias_add of a matmul it was.
    ("tf.nn.xw_plus_b(h, w, b, name='scores')", "tf.nn.bias_add(tf.matmul(h, w), b, name='scores')"),
    ("tf.truncated_normal_initializer(stddev=0.1)",
     "tf.keras.initializers.TruncatedNormal(mean=0.0, stddev=0.1)"),
    ("tf.gfile.FastGFile(path, 'rb').read()", "tf.io.gfile.GFile(path, 'rb').read()"),
])
def test_expression_renames(before: str, after: str) -> None:
    # tf.set_random_seed marks the file as TF1 code: positional dropout and the unsuffixed
    # softmax_cross_entropy_with_logits mean different things in TF2 files. A Keras
    # initializer also gets Python's random seeded (TF121).
    keras = "keras.initializers" in after
    expected = (("import random\n\n" if keras else "") + "import tensorflow as tf\ntf.random.set_seed(0)\n"
                + ("random.seed(0)\n" if keras else "") + f"y = {after}\n")
    source = f"import tensorflow as tf\ntf.set_random_seed(0)\ny = {before}\n"
    check_transformed_code(source, expected)  # a line past 100 characters is wrapped


def test_tf1_keywords_alone_mark_a_file_as_tf1() -> None:
    check_transformed(
        "import tensorflow as tf\ny = tf.reduce_mean(x, keep_dims=True)\n",
        "import tensorflow as tf\ny = tf.reduce_mean(x, keepdims=True)\n",
    )


def test_tf2_names_are_not_renamed() -> None:
    check_noop("import tensorflow as tf\ny = tf.math.log(tf.nn.dropout(x, rate=0.5))\n")


def test_table_targets_are_not_tf1_names() -> None:
    for old, new in RENAMES.items():
        # contrib's summaries were TF2's: their target is TF2's summary op, whose name a TF1
        # call means TF1's op by
        assert not is_tf1_only(new) or old.startswith("contrib.summary."), (old, new)


def test_v1_meanings_are_not_applied_twice_to_a_compat_spelled_file() -> None:
    check_noop(
        "import tensorflow as tf\ntf.compat.v1.disable_eager_execution()\n"
        "x = tf.compat.v1.placeholder(tf.float32)\n"
        "y = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(x), logits=x)\n"
        "z = tf.nn.dropout(x, 0.5)\n"
        "k = tf.nn.in_top_k(x, x, 1)\n"
    )


def test_a_file_calling_tf_function_spells_ambiguous_names_in_the_tf2_sense() -> None:
    # A rewrite's own output: an initializer TF1 also spelled so must not make its v2 loss a v1 one.
    check_noop(
        "import tensorflow as tf\n"
        "w = tf.Variable(tf.random_normal_initializer(mean=0.0, stddev=0.1)([3, 2], tf.float32))\n\n\n"
        "@tf.function\n"
        "def loss(x, y):\n"
        "    return tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=tf.matmul(x, w))\n"
    )


def test_a_with_block_naming_no_tensorflow_alias_is_left_as_written() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.log(1.0)
        with open("log.txt") as f:
            f.write(str(x))
        """,
        """\
        import tensorflow as tf
        x = tf.math.log(1.0)
        with open("log.txt") as f:
            f.write(str(x))
        """,
    )


def test_a_keras_model_with_a_tape_and_a_module_level_v1_scope() -> None:
    # The Keras 2 migration shim has no Keras 3 form, not even under compat.v1: reported as such.
    result = check_transformed(
        """\
        import tensorflow as tf
        import tensorflow.compat.v1 as v1


        class Net(tf.keras.Model):
            def step(self, x):
                with tf.GradientTape() as tape:
                    y = self(x)
                return


        tool = v1.keras.utils.DeterministicRandomTestTool()
        with tool.scope():
            net = Net()
        """,
        """\
        import tensorflow as tf


        class Net(tf.keras.Model):
            def step(self, x):
                with tf.GradientTape() as tape:
                    y = self(x)
                return


        tool = tf.keras.utils.DeterministicRandomTestTool()
        with tool.scope():
            net = Net()
        """,
        level="partial",
    )
    assert [(f.rule, f.line, f.kind) for f in result.findings] == [("TF190", 12, "manual")]
    assert "has no TF 2.21 form" in result.findings[0].message


def test_a_tf1_only_name_under_a_v1_alias_is_spelled_compat_v1() -> None:
    check_transformed(
        'import tensorflow as tf\nimport tensorflow.compat.v1 as v1\nv1.logging.flush()\n',
        'import tensorflow as tf\ntf.compat.v1.logging.flush()\n',
        level="partial",
    )


def test_a_tf1_file_function_takes_its_tf2_name() -> None:
    check_transformed(
        'import tensorflow as tf\nimport tensorflow.compat.v1 as v1\nok = v1.gfile.Exists("a")\n',
        'import tensorflow as tf\nok = tf.io.gfile.exists("a")\n',
    )


def test_contrib_tensor_proto_helpers_move_to_the_top_level() -> None:
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf
        proto = tf.contrib.util.make_tensor_proto(np.ones([2]), shape=[2])
        print(tf.contrib.util.make_ndarray(proto), tf.contrib.util.constant_value(tf.constant(1)))
        """,
        """\
        import numpy as np
        import tensorflow as tf
        proto = tf.make_tensor_proto(np.ones([2]), shape=[2])
        print(tf.make_ndarray(proto), tf.get_static_value(tf.constant(1)))
        """,
    )


def test_a_keyword_tf2_dropped_from_a_method_of_any_receiver_is_dropped() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        def step(optimizer, loss):
            return optimizer.minimize(loss, colocate_gradients_with_ops=False)
        """,
        """\
        import tensorflow as tf
        def step(optimizer, loss):
            return optimizer.minimize(loss)
        """,
    )
    assert [f.kind for f in result.findings] == ["info"]


def test_space_to_batch_nd_is_tf2s_space_to_batch() -> None:
    # by TF2's names: TF1's space_to_batch takes paddings second, and so would read the output
    check_transformed(
        "import tensorflow as tf\ny = tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]])\n",
        "import tensorflow as tf\ny = tf.space_to_batch(x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])\n",
    )


@pytest.mark.parametrize(("path", "manual"), [('"/tmp/model"', True), ('"/tmp/model.h5"', False)])
@pytest.mark.parametrize("tf1", ["\nw = tf.random_normal([2])", ""])
def test_a_keras_save_without_an_extension_keras_3_reads_is_reported(path: str, manual: bool, tf1: str) -> None:
    # Keras 3 refuses the name whether or not the rest of the file is TF1.
    result = rewrite_source(f"import tensorflow as tf\ntf.keras.models.save_model(m, {path}){tf1}\n")
    assert f"save_model(m, {path})" in result.code
    assert any("from the file's extension" in f.message for f in result.findings) == manual

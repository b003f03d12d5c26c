"""TF1 calls rewritten by TF1's and TF2's recorded signatures; names TF 2.21 lacks reported."""

from __future__ import annotations

import pytest
from helpers import check_noop, check_transformed

from migrate.api import RewriteConfig, rewrite_source


def _manual(source: str) -> list[str]:
    return [f.message for f in rewrite_source(source).findings if f.kind == "manual"]


def test_positional_arguments_whose_order_changed_are_passed_by_name() -> None:
    # TF1's random_poisson takes (lam, shape); TF2's random.poisson takes (shape, lam).
    check_transformed(
        "import tensorflow as tf\nsamples = tf.random_poisson(rates, [100])\n",
        "import tensorflow as tf\nsamples = tf.random.poisson(lam=rates, shape=[100])\n",
    )


def test_only_the_arguments_from_the_first_moved_one_on_take_names() -> None:
    # TF1's separable_conv2d takes rate sixth, TF2's data_format (tf.set_random_seed marks the
    # file as TF1 code).
    check_transformed(
        "import tensorflow as tf\ntf.set_random_seed(1)\n"
        "y = tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], 'SAME', [2, 2])\n",
        "import tensorflow as tf\ntf.random.set_seed(1)\n"
        "y = tf.nn.separable_conv2d(x, dw, pw, [1, 1, 1, 1], 'SAME', dilations=[2, 2])\n",
    )


def test_a_renamed_keyword_takes_its_tf2_name() -> None:
    check_transformed(
        "import tensorflow as tf\nloss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=z, dim=1)\n",
        "import tensorflow as tf\nloss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=z, axis=1)\n",
    )


def test_a_removed_keyword_at_its_tf1_default_is_dropped_as_a_fix() -> None:
    result = check_transformed(
        "import tensorflow as tf\ne = tf.nn.embedding_lookup(table, ids, validate_indices=True)\n",
        "import tensorflow as tf\ne = tf.nn.embedding_lookup(table, ids)\n",
    )
    assert not [f for f in result.findings if f.kind == "manual"]


def test_a_removed_keyword_with_another_value_is_dropped_with_a_manual_finding() -> None:
    result = check_transformed(
        "import tensorflow as tf\ne = tf.nn.embedding_lookup(table, ids, validate_indices=False)\n",
        "import tensorflow as tf\ne = tf.nn.embedding_lookup(table, ids)\n",
    )
    manual = [f.message for f in result.findings if f.kind == "manual"]
    assert len(manual) == 1 and "validate_indices=False dropped" in manual[0], manual


def test_a_tf1_keyword_tf2_lacks_with_no_known_counterpart_stays_and_is_reported() -> None:
    source = "import tensorflow as tf\ne = tf.nn.embedding_lookup(table, ids, partition_strategy='div')\n"
    result = rewrite_source(source)
    assert "partition_strategy='div'" in result.code
    assert any("has no partition_strategy in TF 2.21" in m for m in _manual(source))


def test_a_call_both_versions_take_differently_is_tf1s_in_a_file_with_no_tf2_sign() -> None:
    # TF1's boolean_mask is (tensor, mask, name, axis); TF2's (tensor, mask, axis, name). A file
    # importing `tensorflow` is TF1 code to a TF1 -> TF2 tool unless it shows TF2: said so.
    result = check_transformed(
        "import tensorflow as tf\nkept = tf.boolean_mask(t, m, 'keep', 1)\n",
        "import tensorflow as tf\nkept = tf.boolean_mask(t, m, name='keep', axis=1)\n",
    )
    assert [f.message for f in result.findings if f.kind == "manual"] == [(
        "tf.boolean_mask: TF1 and TF2 bind these arguments to different parameters; read as "
        "TF1's call (the file shows no sign of TF2 code): if this is TF2 code, keep the original")]


def test_an_ambiguous_call_left_as_written_is_reported_as_kept() -> None:
    # TF108 deselected: nothing converts it, so nothing was read as TF1's
    source = "import tensorflow as tf\ny = tf.nn.dropout(x, keep_prob)\n"
    result = rewrite_source(source, config=RewriteConfig(ignore=frozenset({"TF108"})))
    assert result.code == source
    assert [f.message for f in result.findings] == [(
        "tf.nn.dropout: TF1 and TF2 bind these arguments to different parameters; "
        "if this is TF1 code, pass them by name (or run on the whole TF1 program)")]


@pytest.mark.parametrize(("before", "after"), [
    ("tf.nn.dropout(x, keep_prob, name='foo')", "tf.nn.dropout(x, rate=1 - keep_prob, name='foo')"),
    ("tf.random.poisson(lam, shape, dtype)", "tf.random.poisson(lam=lam, shape=shape, dtype=dtype)"),
    ("tf.nn.in_top_k(p, t, 5)", "tf.nn.in_top_k(targets=t, predictions=p, k=5)"),
    ("tf.nn.depth_to_space(x, 2, 'd2s', 'NHWC')", "tf.nn.depth_to_space(x, 2, name='d2s', data_format='NHWC')"),
    ("tf.image.extract_glimpse(x, size, off, False, False, False)",
     "tf.image.extract_glimpse(x, size, off, False, False, noise='gaussian')"),
])
def test_ambiguous_calls_alone_are_read_as_tf1s(before: str, after: str) -> None:
    check_transformed(f"import tensorflow as tf\ny = {before}\n", f"import tensorflow as tf\ny = {after}\n")


@pytest.mark.parametrize("sign", [
    "import tensorflow.compat.v2 as tf\n",  # TF2's API by import
    "import tensorflow as tf\nz = tf.compat.v2.zeros([2])\n",  # or by spelling
    "import tensorflow as tf\ntf.random.set_seed(0)\n",  # a name only TF2 has
    "import tensorflow as tf\nf = tf.function(g)\n",  # what TF2 code is written with
    "import tensorflow as tf\ng = tf.image.extract_glimpse(x, size, offsets, noise='uniform')\n",  # TF2's signature
])
def test_a_file_with_a_tf2_sign_keeps_tf2s_meaning_and_says_so(sign: str) -> None:
    source = sign + "y = tf.nn.dropout(x, 0.2)\nkept = tf.boolean_mask(t, m, 'keep', 1)\n"
    check_noop(source)
    manual = _manual(source)
    assert len(manual) == 2 and all("if this is TF1 code, pass them by name" in m for m in manual), manual


def test_the_same_call_in_a_tf1_file_is_bound_by_tf1s_order() -> None:
    check_transformed(
        "import tensorflow as tf\ntf.set_random_seed(1)\nkept = tf.boolean_mask(t, m, 'keep', 1)\n",
        "import tensorflow as tf\ntf.random.set_seed(1)\nkept = tf.boolean_mask(t, m, name='keep', axis=1)\n",
    )


def test_a_name_tf221_lacks_under_any_spelling_is_reported_not_respelled() -> None:
    source = "import tensorflow as tf\nest = tf.estimator.LinearRegressor(feature_columns=cols)\n"
    result = rewrite_source(source)
    assert result.code == source  # no tf.compat.v1.estimator: TF 2.21 has none either
    manual = [f.message for f in result.findings if f.kind == "manual"]
    assert manual == [("tf.estimator.LinearRegressor has no TF 2.21 form; the file will not run on "
                       "TF 2.21 until it is replaced")]


def test_a_contrib_name_tensorflow_moved_under_compat_v1_goes_there() -> None:
    check_transformed(
        "import tensorflow as tf\nops = tf.contrib.summary.all_summary_ops()\n",
        "import tensorflow as tf\nops = tf.compat.v1.summary.all_v2_summary_ops()\n",
        level="partial",
    )


def test_a_contrib_name_tensorflow_renamed_takes_its_tf2_name() -> None:
    check_transformed(
        "import tensorflow as tf\nok = tf.contrib.framework.is_tensor(v)\n",
        "import tensorflow as tf\nok = tf.is_tensor(v)\n",
    )


def test_a_slim_alias_by_assignment_resolves_and_goes_when_unused() -> None:
    check_transformed(
        "import tensorflow as tf\nslim = tf.contrib.slim\nreg = slim.l2_regularizer(scale=0.1)\n",
        "import tensorflow as tf\nreg = tf.keras.regularizers.L2(0.5 * 0.1)\n",
    )


def test_a_contrib_import_still_read_stays_with_its_finding() -> None:
    source = (
        "import tensorflow as tf\nfrom tensorflow.contrib import layers\n"
        "reg = layers.l1_regularizer(0.1)\nmax_out = layers.maxout(h, 4)\n"
    )
    result = rewrite_source(source)
    assert "from tensorflow.contrib import layers\n" in result.code
    assert "tf.keras.regularizers.L1(0.1)" in result.code
    assert any(m.startswith("tf.contrib.layers.maxout has no TF 2.21 form") for m in _manual(source))


def test_tf2_meanings_through_tf_in_a_file_that_imports_v1_beside_it() -> None:
    # The TF guides' style: `tf.` is TF2's API, `v1.` TF1's.
    check_transformed(
        "import tensorflow as tf\nimport tensorflow.compat.v1 as v1\n"
        "h = v1.nn.dropout(x, 0.9)\ny = tf.nn.dropout(h, 0.1)\n",
        # TF2's call said by TF2's names: TF1 would bind 0.1 to keep_prob
        "import tensorflow as tf\nh = tf.nn.dropout(x, rate=1 - 0.9)\ny = tf.nn.dropout(h, rate=0.1)\n",
    )


def test_every_tf1_cast_helper_becomes_a_cast() -> None:
    check_transformed(
        "import tensorflow as tf\nz = tf.to_complex128(x) + tf.to_bfloat16(y)\n",
        "import tensorflow as tf\nz = tf.cast(x, tf.complex128) + tf.cast(y, tf.bfloat16)\n",
    )


def test_a_dataset_iterator_method_with_arguments_keeps_them() -> None:
    check_transformed(
        "import tensorflow as tf\nit = records.make_initializable_iterator(shared_name='train')\n",
        "import tensorflow as tf\nit = tf.compat.v1.data.make_initializable_iterator(records, shared_name='train')\n",
        level="partial",
    )


@pytest.mark.parametrize(("before", "after"), [
    # TF1's initializers.constant takes a dtype, TF2's (Keras's Constant) none
    ("i = tf.initializers.constant(a, b)\n", "i = tf.compat.v1.initializers.constant(a, b)\n"),
    ("e = tf.nn.embedding_lookup(table, ids, partition_strategy='div')\n",
     "e = tf.compat.v1.nn.embedding_lookup(table, ids, partition_strategy='div')\n"),
    ("with tf.name_scope(name=n, default_name=d, values=s):\n    pass\n",
     "with tf.compat.v1.name_scope(name=n, default_name=d, values=s):\n    pass\n"),
])
def test_a_tf1_call_passing_what_tf2_has_no_parameter_for_keeps_tf1s_function(before: str, after: str) -> None:
    result = check_transformed(f"import tensorflow as tf\n{before}", f"import tensorflow as tf\n{after}",
                               level="partial")
    assert [f.rule for f in result.findings if f.kind == "manual"] == ["TF190"]


def test_a_v1_name_scope_with_a_default_name_takes_it_as_its_name() -> None:
    check_transformed(
        "import tensorflow as tf\nwith tf.name_scope(None, 'block', [x, y]):\n    z = 1\n",
        "import tensorflow as tf\nwith tf.name_scope('block'):\n    z = 1\n",
    )


def test_a_v1_name_scope_with_both_names_is_reported() -> None:
    source = "import tensorflow as tf\nwith tf.name_scope(scope, 'block'):\n    z = 1\n"
    assert any("default_name" in m for m in _manual(source))


def test_glimpse_noise_is_said_by_its_tf2_name_and_the_comments_stay() -> None:
    check_transformed(
        "import tensorflow as tf\ng = tf.image.extract_glimpse(\n    x, size, offsets,\n"
        "    uniform_noise=False,  # as trained\n)\n",
        "import tensorflow as tf\ng = tf.image.extract_glimpse(\n    x, size, offsets,\n"
        "    noise='gaussian',  # as trained\n)\n",
    )


def test_a_contrib_summary_takes_tf2s_summary_and_its_family_is_reported() -> None:
    result = check_transformed(
        "import tensorflow as tf\ntf.contrib.summary.histogram('w', weights, 'layer1', step)\n",
        "import tensorflow as tf\ntf.summary.histogram('w', weights, step=step)\n",
    )
    assert any("family='layer1' dropped" in f.message for f in result.findings if f.kind == "manual")


def test_a_contrib_summary_without_a_step_writes_at_tf1s_global_step_and_is_reported() -> None:
    # contrib wrote at the global step; TF2's summaries take no default (with no step set they raise)
    result = check_transformed(
        "import tensorflow as tf\ntf.contrib.summary.scalar('loss', total)\n",
        "import tensorflow as tf\ntf.summary.scalar('loss', total, step=tf.compat.v1.train.get_or_create_global_step())\n",
        level="partial",
    )
    assert any("left step to TF1" in f.message for f in result.findings if f.kind == "manual")


def test_a_compat_spelled_global_step_stays_tf1s_one_step() -> None:
    # renamed to a tf.Variable, each call would make a new step
    source = "import tensorflow as tf\ntf.summary.scalar('loss', total, step=tf.compat.v1.train.get_or_create_global_step())\n"
    check_noop(source)
    check_transformed(source + "y = tf.log(x)\n", source + "y = tf.math.log(x)\n", level="partial")


@pytest.mark.parametrize(("contrib", "flag"), [("always_record_summaries", "True"), ("never_record_summaries", "False")])
def test_contribs_recording_switches_are_tf2s_record_if(contrib: str, flag: str) -> None:
    check_transformed(
        f"import tensorflow as tf\nwith w.as_default(), tf.contrib.summary.{contrib}():\n    tf.contrib.summary.flush()\n",
        f"import tensorflow as tf\nwith w.as_default(), tf.summary.record_if({flag}):\n    tf.summary.flush()\n",
    )


def test_a_contrib_audio_summary_statement_is_rewritten_stably() -> None:
    check_transformed(
        "import tensorflow as tf\ntf.contrib.summary.audio('clip', wave, 16000, 2, step=s)\n",
        "import tensorflow as tf\ntf.summary.audio('clip', wave, 16000, max_outputs=2, step=s)\n",
    )


@pytest.mark.parametrize(("before", "after", "level"), [
    # v1 strings.split returned a SparseTensor unless told otherwise; TF2's returns a RaggedTensor
    ("tf.strings.split(x, sep, result_type='SparseTensor')", "tf.strings.split(x, sep).to_sparse()", "idiomatic"),
    ("tf.strings.split(x, sep, result_type='RaggedTensor')", "tf.strings.split(x, sep)", "idiomatic"),
    ("tf.strings.split(source='a b')", "tf.strings.split(input='a b').to_sparse()", "idiomatic"),
    ("tf.strings.split(x, sep, result_type=kind)", "tf.compat.v1.strings.split(x, sep, result_type=kind)", "partial"),
])
def test_v1_strings_split_returns_what_it_returned(before: str, after: str, level: str) -> None:
    check_transformed(f"import tensorflow as tf\ns = {before}\n", f"import tensorflow as tf\ns = {after}\n", level)


def test_strings_split_in_a_tf1_file_is_v1s_sparse_result() -> None:
    check_transformed(
        "import tensorflow as tf\ntf.set_random_seed(0)\ns = tf.strings.split(x, sep)\n",
        "import tensorflow as tf\ntf.random.set_seed(0)\ns = tf.strings.split(x, sep).to_sparse()\n",
    )
    check_noop("import tensorflow as tf\ns = tf.strings.split(x, sep)\n")  # TF2's as far as anyone can tell


def test_a_tf2_call_a_keyword_makes_ambiguous_stays_as_written_in_a_mixed_import_file() -> None:
    # TF2's l2_normalize still takes `dim` (for axis): no positional argument to name
    check_transformed(
        "import tensorflow as tf\nimport tensorflow.compat.v1 as v1\nx = v1.placeholder(tf.float32)\n"
        "y = tf.nn.l2_normalize(x, dim=1)\n",
        "import tensorflow as tf\nx = tf.compat.v1.placeholder(tf.float32)\ny = tf.nn.l2_normalize(x, dim=1)\n",
        level="partial",
    )


@pytest.mark.parametrize(("before", "after", "level"), [
    # v1 took a device name or a function picking one; TF2's takes the name alone
    ("tf.device('/cpu:0')", "tf.device('/cpu:0')", "idiomatic"),
    ("tf.device('/gpu:%d' % i)", "tf.device('/gpu:%d' % i)", "idiomatic"),
    ("tf.device(device_name_or_function='/cpu:0')", "tf.device('/cpu:0')", "idiomatic"),
    ("tf.device(setter)", "tf.compat.v1.device(setter)", "partial"),
])
def test_a_device_given_by_name_is_tf2s_and_any_other_tf1s(before: str, after: str, level: str) -> None:
    check_transformed(
        f"import tensorflow as tf\ntf.set_random_seed(0)\nwith {before}:\n    y = 2\n",
        f"import tensorflow as tf\ntf.random.set_seed(0)\nwith {after}:\n    y = 2\n",
        level,
    )

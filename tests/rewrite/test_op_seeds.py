"""Random ops under a graph-level seed keep TF1's op seeds (`seed=n`, n-th op of the graph)."""

from pathlib import Path

from migrate.api import rewrite_source
from runtime.verdict import Options, verify_sources

HEAD = """\
import tensorflow as tf
tf.set_random_seed(1)
x = tf.placeholder(tf.float32, [None, 3])
w = tf.Variable(tf.random_normal([3, 2]))
"""


def _rewrite(body: str) -> tuple[str, list[str]]:
    result = rewrite_source(HEAD + body)
    return result.code, [f.message for f in result.findings]


def test_dropout_in_a_step_function_takes_the_next_op_seed() -> None:
    code, _ = _rewrite(
        "h = tf.nn.dropout(tf.matmul(x, w), keep_prob=0.5)\n"
        "sess = tf.Session()\n"
        "sess.run(tf.global_variables_initializer())\n"
        "print(sess.run(h, {x: [[1.0, 2.0, 3.0]]}))\n"
    )
    assert "tf.random.normal([3, 2], seed=0)" in code
    assert "tf.nn.dropout(tf.matmul(x, w), rate=1 - 0.5, seed=1)" in code


def test_arguments_build_their_random_ops_before_the_call_that_takes_them() -> None:
    code, _ = _rewrite(
        "h = tf.nn.dropout(x + tf.random_uniform([3]), keep_prob=0.5)\n"
        "sess = tf.Session()\n"
        "print(sess.run(h, {x: [[1.0, 2.0, 3.0]]}))\n"
    )
    assert "tf.random.uniform([3], seed=1)" in code
    assert "seed=2)" in code


def test_an_op_with_its_own_seed_takes_none_from_the_graph() -> None:
    code, _ = _rewrite(
        "a = tf.random_uniform([3], seed=9) + tf.random_uniform([3])\n"
        "sess = tf.Session()\n"
        "print(sess.run(a))\n"
    )
    assert "tf.random.uniform([3], seed=9) + tf.random.uniform([3], seed=1)" in code


def test_nce_loss_draws_through_a_sampler_with_the_op_seed() -> None:
    code, _ = _rewrite(
        "labels = tf.placeholder(tf.int32, [None, 1])\n"
        "loss = tf.reduce_mean(tf.nn.nce_loss(weights=tf.transpose(w), biases=tf.zeros([2]), labels=labels,\n"
        "                                     inputs=x, num_sampled=1, num_classes=2))\n"
        "sess = tf.Session()\n"
        "print(sess.run(loss, {x: [[1.0, 2.0, 3.0]], labels: [[1]]}))\n"
    )
    assert (
        "            sampled_values=tf.random.log_uniform_candidate_sampler(\n"
        "                tf.cast(labels, tf.int64), 1, 1, True, 2, seed=1\n"
        "            ),\n"
    ) in code


def test_a_random_op_in_two_step_functions_is_reported() -> None:
    code, findings = _rewrite(
        "h = tf.nn.dropout(tf.matmul(x, w), keep_prob=0.5)\n"
        "total = tf.reduce_sum(h)\n"
        "sess = tf.Session()\n"
        "print(sess.run(h, {x: [[1.0, 2.0, 3.0]]}))\n"
        "print(sess.run(total, {x: [[1.0, 2.0, 3.0]]}))\n"
    )
    assert code.count("seed=1)") == 2
    assert any("each tf.function draws its own" in m for m in findings)


def test_a_model_function_called_once_numbers_its_random_ops() -> None:
    code, _ = _rewrite(
        "def model(inputs):\n"
        "    return tf.nn.dropout(tf.matmul(inputs, w), keep_prob=0.5)\n"
        "\n"
        "\n"
        "h = model(x)\n"
        "sess = tf.Session()\n"
        "print(sess.run(h, {x: [[1.0, 2.0, 3.0]]}))\n"
    )
    assert "tf.nn.dropout(tf.matmul(inputs, w), rate=1 - 0.5, seed=1)" in code


def test_a_model_function_called_twice_keeps_no_seeds() -> None:
    code, findings = _rewrite(
        "def model(inputs):\n"
        "    return tf.nn.dropout(tf.matmul(inputs, w), keep_prob=0.5)\n"
        "\n"
        "\n"
        "h = model(x)\n"
        "g = model(x)\n"
        "sess = tf.Session()\n"
        "print(sess.run([h, g], {x: [[1.0, 2.0, 3.0]]}))\n"
    )
    assert "seed=1" not in code
    assert any("model() draws random values" in m for m in findings)


def test_a_random_get_variable_start_under_a_seed_is_noted() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n"
        "tf.set_random_seed(1)\n"
        "w = tf.get_variable('w', [2], initializer=tf.random_normal_initializer())\n"
        "b = tf.get_variable('b', [2], initializer=tf.zeros_initializer())\n"
        "sess = tf.Session()\n"
        "sess.run(tf.global_variables_initializer())\n"
        "print(sess.run(w + b))\n"
    )
    notes = [f for f in result.findings if "takes no graph op seed" in f.message]
    assert [(f.line, f.kind) for f in notes] == [(3, "info")]


def test_an_unseeded_dataset_shuffle_ends_the_count() -> None:
    code, _ = _rewrite(
        "batches = tf.data.Dataset.range(4).shuffle(4).make_one_shot_iterator().get_next()\n"
        "v = tf.Variable(tf.random_uniform([2]))\n"
        "sess = tf.Session()\n"
        "sess.run(tf.global_variables_initializer())\n"
        "print(sess.run(v))\n"
    )
    assert "tf.random.uniform([2])" in code


def test_a_loop_of_random_variables_is_not_given_one_seed() -> None:
    """TF1's loop built one op per pass, each with its own seed: one `seed=n` written into the
    comprehension that replaces it would give every pass the same draw. The count stops there."""
    code, messages = _rewrite(
        "h = tf.identity(x)\n"
        "for k in [1, 2, 3]:\n"
        "    v = tf.Variable(tf.random_normal([2, 2], stddev=0.1), name='v_%d' % k)\n"
        "    h = tf.nn.tanh(tf.matmul(h[:, :2], v))\n"
        "loss = tf.reduce_mean(h)\n"
        "train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run([train, loss], {x: [[1.0, 2.0, 3.0]]})[1])\n"
    )
    assert "tf.random.normal([3, 2], seed=0)" in code
    assert "for k in [1, 2, 3]]" in code and "stddev=0.1)" in code and "seed=1" not in code
    assert any("v_list: random initial value" in m for m in messages)


_SAME_SEED = """\
import tensorflow as tf

w1 = tf.Variable(tf.random_normal([2, 3], stddev=1, seed=1))
w2 = tf.Variable(tf.random_normal([3, 1], stddev={stddev}, seed={seed}))
x = tf.placeholder(tf.float32, [None, 2])
y = tf.matmul(tf.matmul(x, w1), w2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, feed_dict={{x: [[0.7, 0.5]]}}))
"""


def _verdict(before: str, after: str, tmp_path: Path) -> str:
    verdict = verify_sources(before, after, tmp_path, Options(timeout=120))
    return verdict.status


def test_an_eager_draw_sharing_an_op_seed_is_drawn_in_a_function_of_its_own(tmp_path: Path) -> None:
    # TF1's two ops each start over; eager TF2 would draw w2 on from w1's kernel
    source = _SAME_SEED.format(stddev=1, seed=1)
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert "w1 = tf.Variable(tf.random.normal([2, 3], stddev=1, seed=1))" in result.code
    assert "w2 = tf.Variable(tf.function(lambda: tf.random.normal([3, 1], stddev=1, seed=1))())" in result.code
    assert any(f.kind == "info" and "a random op seeded 1 drawn again outside a step is drawn in a tf.function "
               "of its own" in f.message for f in result.findings)
    assert _verdict(source, result.code, tmp_path) == "equivalent"
    unwrapped = result.code.replace("tf.function(lambda: tf.random.normal([3, 1], stddev=1, seed=1))()",
                                    "tf.random.normal([3, 1], stddev=1, seed=1)")
    assert _verdict(source, unwrapped, tmp_path) == "different"


def test_eager_draws_with_their_own_seeds_move() -> None:
    result = rewrite_source(_SAME_SEED.format(stddev=1, seed=2))
    assert result.level == "idiomatic", result.findings
    assert "seed=2" in str(result.code)


def test_a_seeded_eager_draw_in_a_loop_is_drawn_in_a_function_each_pass(tmp_path: Path) -> None:
    source = _SAME_SEED.format(stddev=1, seed=2).replace(
        "w1 = tf.Variable(tf.random_normal([2, 3], stddev=1, seed=1))\n",
        "ws = [tf.Variable(tf.random_normal([2, 3], seed=1)) for _ in range(2)]\nw1 = ws[1]\n")
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert "[tf.Variable(tf.function(lambda: tf.random.normal([2, 3], seed=1))()) for _ in range(2)]" in result.code
    assert "tf.random.normal([3, 1], stddev=1, seed=2)" in result.code  # drawn once: kept as it was
    assert _verdict(source, result.code, tmp_path) == "equivalent"


def _starts_over(source: str, draw: str, tmp_path: Path) -> None:
    """The rewrite draws `draw` in a tf.function of its own: equivalent; without it, different."""
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert f"tf.Variable(tf.function(lambda: {draw})())" in result.code
    assert _verdict(source, result.code, tmp_path) == "equivalent"
    unwrapped = result.code.replace(f"tf.function(lambda: {draw})()", draw)
    assert _verdict(source, unwrapped, tmp_path) == "different"


def test_seeded_draws_of_a_function_called_twice_each_start_over(tmp_path: Path) -> None:
    source = (
        "import tensorflow as tf\n\n\ndef weight(shape):\n    return tf.Variable(tf.truncated_normal(shape, seed=3))\n\n\n"
        "w1 = weight([2, 3])\nw2 = weight([3, 1])\nx = tf.placeholder(tf.float32, [None, 2])\n"
        "y = tf.matmul(tf.matmul(x, w1), w2)\nwith tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n    print(sess.run(y, feed_dict={x: [[0.7, 0.5]]}))\n")
    _starts_over(source, "tf.random.truncated_normal(shape, seed=3)", tmp_path)


def test_a_seeded_draw_in_a_constructor_starts_over_for_each_object(tmp_path: Path) -> None:
    # TF1 built an op per object; eager TF2 would draw the second object's weights on
    source = (
        "import tensorflow as tf\n\n\nclass Net(object):\n    def __init__(self):\n"
        "        self.w = tf.Variable(tf.random_normal([2, 1], seed=5))\n\n\n"
        "online, target = Net(), Net()\nx = tf.placeholder(tf.float32, [None, 2])\n"
        "y = tf.matmul(x, online.w) - tf.matmul(x, target.w)\nwith tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n    print(sess.run(y, feed_dict={x: [[1.0, 2.0]]}))\n")
    _starts_over(source, "tf.random.normal([2, 1], seed=5)", tmp_path)


def test_eager_draws_sharing_an_op_seed_in_a_class_constructor_each_start_over(tmp_path: Path) -> None:
    source = (
        "import tensorflow as tf\n\n\nclass TwoLayer(object):\n    def __init__(self):\n"
        "        self.x = tf.placeholder(tf.float32, [None, 2])\n"
        "        self.w1 = tf.Variable(tf.random_normal([2, 3], seed=1))\n"
        "        self.w2 = tf.Variable(tf.random_normal([3, 1], seed=1))\n"
        "        self.loss = tf.reduce_sum(tf.matmul(tf.matmul(self.x, self.w1), self.w2))\n"
        "        self.train_op = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)\n\n\n"
        "model = TwoLayer()\nwith tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    sess.run(model.train_op, feed_dict={model.x: [[1.0, 2.0]]})\n"
        "    print(sess.run(model.loss, feed_dict={model.x: [[1.0, 2.0]]}))\n")
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert result.code.count("tf.function(lambda: tf.random.normal(") == 2  # each object draws anew
    assert _verdict(source, result.code, tmp_path) == "equivalent"

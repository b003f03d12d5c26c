"""TF121: a graph seed reaches Keras 3's initializers through Python's random."""

from __future__ import annotations

from migrate.api import rewrite_source

LAYERS = """\
import numpy as np
import tensorflow as tf

tf.set_random_seed({seed})
x = tf.placeholder(tf.float32, [None, 3])
h = tf.layers.dense(x, 4)
loss = tf.reduce_mean(h)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(train, {{x: np.ones((2, 3), np.float32)}})
"""


def test_seed_call_is_followed_by_python_random_seed() -> None:
    result = rewrite_source(LAYERS.format(seed=3))
    assert result.level == "idiomatic"
    assert result.code.startswith("import random\n\nimport numpy as np\n")
    assert "tf.random.set_seed(3)\nrandom.seed(3)\n" in result.code
    assert [f.rule for f in result.findings].count("TF121") == 1
    assert rewrite_source(result.code).changed is False


def test_computed_seed_is_passed_on_as_written() -> None:
    result = rewrite_source(LAYERS.format(seed="SEED").replace("tf.set_random_seed", "SEED = 5\ntf.set_random_seed"))
    assert "tf.random.set_seed(SEED)\nrandom.seed(SEED)\n" in result.code


def test_no_keras_draws_no_python_seed() -> None:
    source = LAYERS.format(seed=3).replace("h = tf.layers.dense(x, 4)", "h = x * tf.Variable(2.0)")
    result = rewrite_source(source)
    assert "tf.random.set_seed(3)" in result.code
    assert "random.seed" not in result.code.replace("tf.random.set_seed", "")
    assert "TF121" not in {f.rule for f in result.findings}


def test_a_module_using_python_random_is_told_not_changed() -> None:
    source = "import random\n" + LAYERS.format(seed=3) + "print(random.random())\n"
    result = rewrite_source(source)
    assert result.code.count("random.seed") == 0
    found = [f for f in result.findings if f.rule == "TF121"]
    assert found and found[0].kind == "manual" and found[0].line == 5


def test_numpy_random_is_not_python_random() -> None:
    source = LAYERS.format(seed=3).replace("import numpy as np\n", "import numpy as np\nnp.random.seed(0)\n")
    assert "random.seed(3)\n" in rewrite_source(source).code

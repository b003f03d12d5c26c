"""The determinism contract for initial values: a variable started from an initializer draws by
its full name, whichever API created it, so a rewrite's variables start where TF1's did."""

from __future__ import annotations

from pathlib import Path

from tests.runtime.helpers import run_engine

TF1 = """
import numpy as np
import tensorflow as tf
with tf.variable_scope("users"):
    emb = tf.get_variable("embedding", [4, 3], initializer=tf.random_normal_initializer(stddev=0.1))
w = tf.get_variable("W", [3, 2], initializer=tf.contrib.layers.xavier_initializer())
x = tf.placeholder(tf.float32, [None, 5])
h = tf.contrib.layers.fully_connected(x, 2)
with tf.variable_scope("fc1"):  # a layer written by hand, TF1 style
    hand = tf.matmul(x, tf.get_variable("weights", [5, 3])) + tf.get_variable("biases", [3])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    var = {v.name: v for v in tf.global_variables()}
    for name in ("users/embedding:0", "W:0", "fully_connected/weights:0", "fc1/weights:0"):
        np.save(name.split(":")[0].replace("/", "_") + ".npy", sess.run(var[name]))
"""

TF2 = """
import numpy as np
import tensorflow as tf
emb = tf.Variable(tf.random_normal_initializer(mean=0.0, stddev=0.1)([4, 3], tf.float32), name="users/embedding")
w = tf.Variable(tf.keras.initializers.GlorotUniform()([3, 2], tf.float32), name="W")
layer = tf.keras.layers.Dense(2, name="fully_connected")
layer(tf.zeros([1, 5]))
fc1 = tf.keras.layers.Dense(3, name="fc1")  # TF1's weights/biases draw as Keras's kernel/bias
fc1(tf.zeros([1, 5]))
pairs = (("users/embedding", emb), ("W", w), ("fully_connected/weights", layer.kernel),
         ("fc1/weights", fc1.kernel))
for name, value in pairs:
    assert np.array_equal(np.load(name.replace("/", "_") + ".npy"), value.numpy()), name
drawn = tf.keras.initializers.GlorotUniform()([3, 2], tf.float32)
first = drawn.numpy()
a = tf.Variable(drawn, name="a")
b = tf.Variable(drawn, name="b")
print(np.array_equal(first, a.numpy()), np.array_equal(a.numpy(), b.numpy()))
"""


def test_initializer_calls_start_variables_as_tf1_get_variable_did(tmp_path: Path) -> None:
    (tmp_path / "tf1.py").write_text(TF1)
    (tmp_path / "tf2.py").write_text(TF2)
    first = run_engine(tmp_path / "tf1.py", face="tf1")
    assert first.returncode == 0, first.stderr
    second = run_engine(tmp_path / "tf2.py", face="tf2")
    assert second.returncode == 0, second.stderr
    # A tensor has one value: once read, the variables it starts take that value.
    assert second.stdout.split() == ["True", "True"]


def test_variables_without_a_distinct_name_draw_by_order(tmp_path: Path) -> None:
    (tmp_path / "p.py").write_text(
        "import numpy as np\nimport tensorflow as tf\n"
        "init = tf.keras.initializers.GlorotUniform()\n"
        "u, v = tf.Variable(init([3, 2])), tf.Variable(init([3, 2]))\n"
        "a, b = tf.Variable(init([3, 2]), name='w'), tf.Variable(init([3, 2]), name='w')\n"
        "print(np.array_equal(u.numpy(), v.numpy()), np.array_equal(a.numpy(), b.numpy()))\n"
    )
    run = run_engine(tmp_path / "p.py", face="tf2")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "False"]


NESTED_TF1 = """
import numpy as np
import tensorflow as tf
for block in ("mixed_1", "mixed_2"):
    with tf.variable_scope(block), tf.variable_scope("branch"):
        tf.get_variable("weights", [3, 2], initializer=tf.truncated_normal_initializer(stddev=0.1))
with tf.variable_scope("head"):
    tf.get_variable("weights", [3, 2], initializer=tf.truncated_normal_initializer(stddev=0.1))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for v in tf.global_variables():
        np.save(v.name.split(":")[0].replace("/", "_") + ".npy", sess.run(v))
"""

NESTED_TF2 = """
import numpy as np
import tensorflow as tf


class Branch(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(name="weights", shape=[3, 2],
                                 initializer=tf.keras.initializers.TruncatedNormal(stddev=0.1))

    def call(self, x):
        return x


class Block(tf.keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.branch = Branch(name="branch")

    def call(self, x):
        return self.branch(x)


class Net(tf.keras.Model):  # a model TF1 had no scope for: its Keras default name adds none
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.head = Branch(name="head")

    def call(self, x):
        return self.head(x)


blocks = [Block(name="mixed_1"), Block(name="mixed_2")]
net = Net()
for model in [*blocks, net]:
    model(tf.zeros([1, 3]))
pairs = [("mixed_1/branch/weights", blocks[0].branch.w), ("mixed_2/branch/weights", blocks[1].branch.w),
         ("head/weights", net.head.w)]
print([bool(np.array_equal(np.load(name.replace("/", "_") + ".npy"), w.numpy())) for name, w in pairs])
"""


def test_layers_in_named_models_draw_under_the_models_scopes(tmp_path: Path) -> None:
    (tmp_path / "tf1.py").write_text(NESTED_TF1)
    (tmp_path / "tf2.py").write_text(NESTED_TF2)
    first = run_engine(tmp_path / "tf1.py", face="tf1")
    assert first.returncode == 0, first.stderr
    second = run_engine(tmp_path / "tf2.py", face="tf2")
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["[True,", "True,", "True]"]


UNSEEDED_TF1 = """
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 4])
w1 = tf.Variable(tf.truncated_normal([4, 3], stddev=0.1))
h = tf.nn.dropout(tf.matmul(x, w1), keep_prob=0.5)
w2 = tf.Variable(tf.truncated_normal([3, 2], stddev=0.1))
w3 = tf.Variable(tf.truncated_normal([3, 2], stddev=0.1))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    np.save("w.npy", np.concatenate([sess.run(w).ravel() for w in (w1, w2, w3)]))
"""

UNSEEDED_TF2 = """
import numpy as np
import tensorflow as tf
w1 = tf.Variable(tf.random.truncated_normal([4, 3], stddev=0.1))
w2 = tf.Variable(tf.random.truncated_normal([3, 2], stddev=0.1))
w3 = tf.Variable(tf.random.truncated_normal([3, 2], stddev=0.1))


@tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
def hidden(x):
    return tf.nn.dropout(tf.matmul(x, w1), rate=0.5)


hidden(tf.ones([2, 4]))
drawn = np.concatenate([w.numpy().ravel() for w in (w1, w2, w3)])
print(np.array_equal(np.load("w.npy"), drawn), np.array_equal(w2.numpy(), w3.numpy()))
"""


def test_unseeded_draws_keep_their_place_when_a_dropout_moves_into_a_step(tmp_path: Path) -> None:
    # No seed anywhere: a draw is numbered among the draws of its kind and shape, so the weights
    # drawn after the graph's dropout draw what the rewrite's eager weights draw.
    (tmp_path / "tf1.py").write_text(UNSEEDED_TF1)
    (tmp_path / "tf2.py").write_text(UNSEEDED_TF2)
    first = run_engine(tmp_path / "tf1.py", face="tf1")
    assert first.returncode == 0, first.stderr
    second = run_engine(tmp_path / "tf2.py", face="tf2")
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["True", "False"]

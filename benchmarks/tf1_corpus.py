"""A generated corpus of TF1 tutorial-shaped files for throughput benchmarks.

Each file is built from blocks in the shapes real TF1 code takes (a regression
fitted with a session, an MLP class keeping placeholders as attributes, helper
functions with variable scopes, data utilities with no TensorFlow at all), with
names and sizes drawn from a seeded RNG, so the corpus is the same on every run.
"""

from __future__ import annotations

import random
from pathlib import Path

HEADER = '''"""Generated TF1 program {index}."""
import numpy as np
import tensorflow as tf

'''

REGRESSION = '''
X_{n} = tf.placeholder(tf.float32, shape=[None, {d}], name="X_{n}")
y_{n} = tf.placeholder(tf.float32, shape=[None, 1], name="y_{n}")
W_{n} = tf.get_variable("W_{n}", shape=[{d}, 1], initializer=tf.zeros_initializer())
b_{n} = tf.get_variable("b_{n}", shape=[1], initializer=tf.zeros_initializer())
pred_{n} = tf.matmul(X_{n}, W_{n}) + b_{n}
loss_{n} = tf.reduce_mean(tf.square(pred_{n} - y_{n}))
train_{n} = tf.train.GradientDescentOptimizer({lr}).minimize(loss_{n})

data_x_{n} = np.random.RandomState({seed}).rand(32, {d}).astype(np.float32)
data_y_{n} = data_x_{n}.sum(axis=1, keepdims=True)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range({steps}):
        _, l = sess.run([train_{n}, loss_{n}], feed_dict={{X_{n}: data_x_{n}, y_{n}: data_y_{n}}})
        if step % 10 == 0:
            print("step", step, "loss", l)
'''

HELPER = '''

def dense_{n}(inputs, units, name):
    """A fully connected layer with its own variable scope."""
    with tf.variable_scope(name):
        w = tf.get_variable("w", shape=[inputs.shape[1], units],
                            initializer=tf.random_normal_initializer(stddev=0.1))
        b = tf.get_variable("b", shape=[units], initializer=tf.zeros_initializer())
        return tf.nn.relu(tf.matmul(inputs, w) + b)
'''

MODEL_CLASS = '''

class Model{n}(object):
    """Keeps its graph as attributes, as many TF1 research scripts do."""

    def __init__(self, n_in={d}, n_hidden={h}, n_out=10, learning_rate={lr}):
        self.x = tf.placeholder(tf.float32, [None, n_in])
        self.y = tf.placeholder(tf.float32, [None, n_out])
        self.w1 = tf.Variable(tf.truncated_normal([n_in, n_hidden], stddev=0.1))
        self.b1 = tf.Variable(tf.zeros([n_hidden]))
        self.w2 = tf.Variable(tf.truncated_normal([n_hidden, n_out], stddev=0.1))
        self.b2 = tf.Variable(tf.zeros([n_out]))
        hidden = tf.nn.relu(tf.matmul(self.x, self.w1) + self.b1)
        self.logits = tf.matmul(hidden, self.w2) + self.b2
        self.loss = tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits(labels=self.y, logits=self.logits))
        self.train_op = tf.train.AdamOptimizer(learning_rate).minimize(self.loss)
        correct = tf.equal(tf.argmax(self.logits, 1), tf.argmax(self.y, 1))
        self.accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))

    def fit(self, sess, xs, ys, epochs={steps}):
        for epoch in range(epochs):
            _, loss = sess.run([self.train_op, self.loss], feed_dict={{self.x: xs, self.y: ys}})
        return loss

    def evaluate(self, sess, xs, ys):
        return sess.run(self.accuracy, feed_dict={{self.x: xs, self.y: ys}})
'''

UTILITY = '''

def batches_{n}(data, size={h}):
    """Plain Python: no TensorFlow here."""
    for start in range(0, len(data), size):
        chunk = data[start:start + size]
        if len(chunk) < size:
            break
        yield chunk


def normalise_{n}(values):
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return [(v - low) / span for v in values]
'''

BLOCKS = (REGRESSION, HELPER, MODEL_CLASS, UTILITY, UTILITY)


def _params(rng: random.Random, n: int) -> dict[str, object]:
    return {
        "n": n,
        "d": rng.choice([1, 4, 8, 16, 784]),
        "h": rng.choice([16, 32, 64, 128]),
        "lr": rng.choice([0.1, 0.01, 0.001]),
        "seed": rng.randrange(1000),
        "steps": rng.choice([100, 1000, 5000]),
    }


def make_file(index: int, target_lines: int, rng: random.Random) -> str:
    """One program of about ``target_lines`` lines."""
    parts = [HEADER.format(index=index)]
    lines = parts[0].count("\n")
    n = 0
    while lines < target_lines:
        block = rng.choice(BLOCKS).format(**_params(rng, n))
        parts.append(block)
        lines += block.count("\n")
        n += 1
    return "".join(parts)


def write_corpus(folder: Path, count: int = 300, seed: int = 0) -> list[Path]:
    """``count`` files of 50–500 lines, plus one of 10,000 and one of 20,000 lines."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"prog_{index:03d}.py"
        path.write_text(make_file(index, rng.randint(50, 500), rng))
        paths.append(path)
    for size in (10_000, 20_000):
        path = folder / f"big_{size}.py"
        path.write_text(make_file(size, size, rng))
        paths.append(path)
    return paths

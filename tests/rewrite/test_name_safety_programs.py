"""Generated TF1 training programs that list their variables with `tf.trainable_variables()`.

The listing's statement leaves the graph in the rewrite (its variables are read from their
owners), so each read of it — the gradients, the update's pairs, an L2 term, a fetch — must
read the variables instead; a read left behind is an undefined name.
"""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from migrate import process
from migrate.api import RewriteConfig
from migrate.unbound import undefined_names

MODELS = [
    ("w = tf.get_variable('w', [3, 1], initializer=tf.zeros_initializer())\n"
     "b = tf.get_variable('b', [1], initializer=tf.zeros_initializer())\n"
     "pred = tf.matmul(x, w) + b\n"),
    ("w = tf.Variable(tf.ones([3, 1]), name='w')\n"
     "pred = tf.matmul(x, w)\n"),
    ("h = tf.layers.dense(x, 4, activation=tf.nn.relu)\n"
     "pred = tf.layers.dense(h, 1)\n"),
    ("with tf.variable_scope('fc'):\n"
     "    w = tf.get_variable('w', [3, 1])\n"
     "    b = tf.get_variable('b', [1])\n"
     "pred = tf.matmul(x, w) + b\n"),
]
LISTINGS = ["tf.trainable_variables()", "tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES)"]
OPTIMIZERS = ["tf.train.GradientDescentOptimizer(0.1)", "tf.train.AdamOptimizer(0.01)",
              "tf.train.MomentumOptimizer(0.1, 0.9)"]
PENALTIES = ["", "loss = loss + 1e-3 * tf.add_n([tf.nn.l2_loss(v) for v in {p}])\n"]
GRADIENTS = [
    "grads = tf.gradients(loss, {p})\n",
    "grads = tf.gradients(loss, {p})\ngrads, _ = tf.clip_by_global_norm(grads, 5.0)\n",
    "grads = [tf.clip_by_value(g, -1.0, 1.0) for g in tf.gradients(loss, {p})]\n",
]
UPDATES = [
    "train_op = opt.apply_gradients(zip(grads, {p}))\n",
    "grads_and_vars = list(zip(grads, {p}))\ntrain_op = opt.apply_gradients(grads_and_vars)\n",
    "train_op = opt.apply_gradients([(g, v) for g, v in zip(grads, {p})])\n",
    ("step = tf.train.get_or_create_global_step()\n"
     "train_op = opt.apply_gradients(zip(grads, {p}), global_step=step)\n"),
]
# What the session does with the listing once trained (indented under the session).
FETCHES = ["", "print(sess.run({p})[0].shape)\n", "print(sess.run({p}[0]).shape)\n",
           "for v in {p}:\n    print(v.name)\n", "print(len({p}))\n"]
DRIVERS = [
    ("with tf.Session() as sess:\n"
     "    sess.run(tf.global_variables_initializer())\n"
     "    for i in range(3):\n"
     "        _, l = sess.run([train_op, loss], feed_dict={{x: xs, y: ys}})\n"
     "        print(i, l)\n"
     "{after}"),
    ("sess = tf.Session()\n"
     "sess.run(tf.global_variables_initializer())\n"
     "for i in range(3):\n"
     "    sess.run(train_op, feed_dict={{x: xs, y: ys}})\n"
     "{after}"),
]


@st.composite
def params_programs(draw: st.DrawFn) -> str:
    """A linear model or small net, its variables listed, trained through the listing."""
    p = draw(st.sampled_from(["params", "tvars", "train_vars"]))
    listed = f"{p} = {draw(st.sampled_from(LISTINGS))}\n"
    early = draw(st.booleans())  # listed before the loss, or after it
    body = "x = tf.placeholder(tf.float32, [None, 3])\ny = tf.placeholder(tf.float32, [None, 1])\n"
    body += draw(st.sampled_from(MODELS)) + (listed if early else "")
    body += "loss = tf.reduce_mean(tf.square(pred - y))\n" + ("" if early else listed)
    body += draw(st.sampled_from(PENALTIES)).format(p=p)
    body += f"opt = {draw(st.sampled_from(OPTIMIZERS))}\n"
    body += draw(st.sampled_from(GRADIENTS)).format(p=p) + draw(st.sampled_from(UPDATES)).format(p=p)
    body += "\nxs = np.ones((4, 3), np.float32)\nys = np.ones((4, 1), np.float32)\n"
    driver = draw(st.sampled_from(DRIVERS))
    fetch = draw(st.sampled_from(FETCHES)).format(p=p)
    indent = "    " if driver.startswith("with") else ""
    body += driver.format(after=textwrap.indent(fetch, indent))
    head = "import numpy as np\nimport tensorflow as tf\n\n"
    if draw(st.booleans()):
        return head + "\ndef main():\n" + textwrap.indent(body, "    ") + "\n\nmain()\n"
    return head + body


@settings(max_examples=40, deadline=None, derandomize=True)
@given(params_programs())
def test_a_listings_reads_all_read_the_variables(source: str) -> None:
    # rewrite_bytes refuses a rewrite reading a name the program had bound: none is refused.
    result = process.rewrite_bytes(source.encode(), "train.py", RewriteConfig())
    assert result.changed and result.level in ("idiomatic", "partial")
    if result.level == "idiomatic":  # the listing's statement left: every read had to follow
        assert b"trainable_variables()" not in result.code and b"get_collection" not in result.code
    before = undefined_names(source)
    after = undefined_names(result.code)
    assert before == {} and after == {}, after

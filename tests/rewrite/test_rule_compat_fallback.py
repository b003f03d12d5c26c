"""TF190: unmodelled programs keep TF1 semantics under compat.v1, with a manual finding."""

from helpers import check_transformed

from migrate.api import rewrite_source
from migrate.report import KEEPS_GRAPH


def test_graph_built_in_a_loop_stays_in_graph_mode() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32)
        y = x
        for i in range(3):
            if i:
                y = y * 2.0  # graph built in a loop, under a Python condition
        with tf.Session() as sess:
            print(sess.run(y, {x: 1.0}))
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32)
        y = x
        for i in range(3):
            if i:
                y = y * 2.0  # graph built in a loop, under a Python condition
        with tf.compat.v1.Session() as sess:
            print(sess.run(y, {x: 1.0}))
        """,
        level="partial",
    )
    why = result.fallback
    assert why.rule == "TF190" and why.kind == "manual" and why.line == 4
    assert "graph tensor y used outside a session run" in why.message


def test_tf1_names_the_move_does_not_reach_keep_the_whole_file_in_graph_mode() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n"
        "cell = tf.nn.rnn_cell.BasicLSTMCell(4)\n"
        "x = tf.placeholder(tf.float32, [1, 3, 2])\n"
        "out, st = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), dtype=tf.float32)\n"
        "sess = tf.Session()\n"
        "print(sess.run(out[-1], {x: [[[1, 2], [3, 4], [5, 6]]]}).shape)\n"
    )
    assert result.level == "partial"
    assert "tf.compat.v1.disable_eager_execution()" in result.code
    assert "tf.compat.v1.Session()" in result.code
    assert result.fallback.line == 4 and "tf.nn.static_rnn" in result.fallback.message


def test_members_of_tf1_only_names_are_spelled_compat_v1() -> None:
    # TF 2.21 has tf.compat.v1.GraphKeys but no tf.GraphKeys.
    result = rewrite_source(
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32)\n"
        "y = x\n"
        "for i in range(2):\n"
        "    if i:\n"
        "        y = y * 2.0\n"
        "w = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope='s')\n"
        "with tf.Session() as sess:\n"
        "    print(sess.run(y, {x: 1.0}))\n"
    )
    assert result.level == "partial"
    assert "tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES, scope='s')" in result.code


MODEL_CLASS = '''
class Model{n}(object):
    def __init__(self, n_in=4, n_out=2):
        self.x = tf.placeholder(tf.float32, [None, n_in])
        self.y = tf.placeholder(tf.float32, [None, n_out])
        self.w = tf.Variable(tf.truncated_normal([n_in, n_out], stddev=0.1))
        self.loss = tf.reduce_mean(tf.square(tf.matmul(self.x, self.w) - self.y))
        self.train_op = tf.train.AdamOptimizer(0.1).minimize(self.loss)

    def fit(self, sess, xs, ys):
        return sess.run([self.train_op, self.loss], feed_dict={{self.x: xs, self.y: ys}})

'''


def test_statements_a_fallback_inserts_report_nothing() -> None:
    """The mode switch the fallback adds is no user code: no finding, whatever the move built
    (and threw away) before it gave up."""
    source = "import tensorflow as tf\n" + "".join(MODEL_CLASS.format(n=n) for n in range(6)) + (
        "x = tf.placeholder(tf.float32)\n"
        "y = x\n"
        "for i in range(3):\n"
        "    if i:\n"
        "        y = y * 2.0\n"
        "with tf.Session() as sess:\n"
        "    print(sess.run(y, {x: 1.0}))\n"
    )
    for _ in range(5):
        result = rewrite_source(source)
        assert "tf.compat.v1.disable_eager_execution()" in result.code
        assert not [f for f in result.findings if "disable_eager_execution" in f.message]


# The TF guides' style: TF2's `tensorflow` beside `compat.v1`, graph code under explicit graphs,
# the rest eager (`Saver.restore(sess=None, ...)` and `.numpy()` need eager).
EXPLICIT_GRAPHS = """\
import tensorflow as tf
import tensorflow.compat.v1 as tf1
with tf.Graph().as_default() as g:
  a = tf1.get_variable('a', shape=[], initializer=tf1.zeros_initializer())
  with tf1.Session() as sess:
    sess.run(a.assign(1))
    save_path = tf1.train.Saver().save(sess, 'tf1-ckpt')
print(save_path)
b = tf1.get_variable('b', shape=[], initializer=tf1.zeros_initializer())
tf1.train.Saver({'a': b}).restore(sess=None, save_path='tf1-ckpt')
print(b.numpy())
"""


def test_graph_code_under_explicit_graphs_keeps_eager_on() -> None:
    check_transformed(
        EXPLICIT_GRAPHS,
        """\
        import tensorflow as tf
        with tf.Graph().as_default() as g:
          a = tf.compat.v1.get_variable('a', shape=[], initializer=tf.zeros_initializer())
          with tf.compat.v1.Session() as sess:
            sess.run(a.assign(1))
            save_path = tf.compat.v1.train.Saver().save(sess, 'tf1-ckpt')
        print(save_path)
        b = tf.compat.v1.get_variable('b', shape=[], initializer=tf.zeros_initializer())
        tf.compat.v1.train.Saver({'a': b}).restore(sess=None, save_path='tf1-ckpt')
        print(b.numpy())
        """,
        level="partial",
    )


def test_a_named_graph_block_counts_as_explicit() -> None:
    source = EXPLICIT_GRAPHS.replace("with tf.Graph().as_default() as g:", "g = tf.Graph()\nwith g.as_default():")
    assert "disable_eager_execution" not in rewrite_source(source).code


def test_a_session_outside_the_explicit_graphs_switches_eager_off() -> None:
    source = EXPLICIT_GRAPHS + "with tf1.Session() as sess2:\n  print(sess2.run(tf1.constant(1.0)))\n"
    assert "tf.compat.v1.disable_eager_execution()" in rewrite_source(source).code


def test_a_tf1_program_with_explicit_graphs_still_switches_eager_off() -> None:
    # `import tensorflow as tf` alone, TF1 names spelled plainly: a TF1 program, graph mode throughout
    source = EXPLICIT_GRAPHS.replace("import tensorflow.compat.v1 as tf1\n", "").replace("tf1.", "tf.")
    assert "tf.compat.v1.disable_eager_execution()" in rewrite_source(source).code


def test_a_move_that_would_drop_a_read_binding_keeps_the_file_in_graph_mode() -> None:
    # `inference` reads the placeholder x, not its parameter: the move makes x a parameter of
    # the step and drops the module's x, which the kept function still reads
    result = check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable([[1.0], [2.0]])
        def inference(input_x):
            return tf.matmul(x, w)
        y = inference(x)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(y, {x: [[1.0, 1.0]]}))
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32, [None, 2])
        w = tf.Variable([[1.0], [2.0]])
        def inference(input_x):
            return tf.matmul(x, w)
        y = inference(x)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            print(sess.run(y, {x: [[1.0, 1.0]]}))
        """,
        level="partial",
    )
    why = result.fallback
    assert why.rule == "TF190" and why.kind == "manual" and why.line == 2
    assert "the program move would leave x unbound where the code reads it (TF102)" in why.message
    assert len([f for f in result.findings if KEEPS_GRAPH in f.message]) == 1



def test_an_import_of_tensorflow_contrib_is_named_whatever_else_the_file_does() -> None:
    """TF 2 has no tensorflow.contrib: such an import fails on TF 2.21, so the file is never
    idiomatic and each import gets a finding, also where nothing else would change."""
    source = ("import tensorflow as tf\nfrom tensorflow.contrib.learn.python.learn.datasets import mnist\n"
              "import tensorflow.contrib.slim as slim\nx = tf.constant(1.0)\n")
    result = rewrite_source(source)
    assert result.level != "idiomatic"
    assert [(f.line, f.kind) for f in result.findings if "tensorflow.contrib" in f.message] == [(2, "manual"), (3, "manual")]
    plain = rewrite_source("import tensorflow as tf\nfrom tensorflow.python.framework import ops\nx = tf.constant(1.0)\n")
    assert not plain.findings

"""TF102: run sites → tf.function steps with placeholder arguments."""

from pathlib import Path
from textwrap import dedent

import pytest
from helpers import check_transformed

from migrate.api import rewrite_source
from runtime.verdict import Options, verify_sources


def test_placeholder_becomes_argument_with_signature() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])  # inputs
        y = tf.reduce_sum(x * 2.0)
        with tf.Session() as sess:
            print(sess.run(y, feed_dict={x: [[1.0, 2.0]]}))
        """,
        """\
        import tensorflow as tf


        # inputs
        @tf.function(input_signature=[tf.TensorSpec([None, 2])])
        def compute_y(x):
            y = tf.reduce_sum(x * 2.0)
            return y


        print(compute_y([[1.0, 2.0]]).numpy())
        """,
    )


def test_distinct_fetches_become_distinct_functions_and_variables_read_with_numpy() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        v = tf.Variable(1.0)
        inc = tf.assign_add(v, 1.0)
        dec = tf.assign_sub(v, 0.5)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        sess.run(inc)
        sess.run(dec)
        print(sess.run(v), sess.run([v]))
        sess.close()
        """,
        """\
        import tensorflow as tf
        v = tf.Variable(1.0)


        @tf.function
        def increment_v():
            v.assign_add(1.0)


        @tf.function
        def decrement_v():
            v.assign_sub(0.5)


        increment_v()
        decrement_v()
        print(v.numpy(), [v.numpy()])
        """,
    )


def test_train_op_and_loss_unpacked_returns_loss_only() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [3])
        w = tf.Variable(0.5)
        loss = tf.reduce_sum(tf.square(w * x - 1.0))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            _, l = sess.run([train, loss], feed_dict={x: [1.0, 2.0, 3.0]})
        """,
        """\
        import tensorflow as tf
        w = tf.Variable(0.5)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([3])])
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.square(w * x - 1.0))
            grads = tape.gradient(loss, [w])
            optimizer.apply_gradients(zip(grads, [w]))
            return loss


        l = train_step([1.0, 2.0, 3.0]).numpy()
        """,
    )


def test_unfed_placeholder_falls_back_to_compat() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32)
        with tf.Session() as sess:
            print(sess.run(x * 2, feed_dict={}))
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32)
        with tf.compat.v1.Session() as sess:
            print(sess.run(x * 2, feed_dict={}))
        """,
        level="partial",
    )
    assert any(f.rule == "TF190" and f.kind == "manual" and "not fed" in f.message for f in result.findings)


def test_variable_initialised_from_a_placeholder_is_not_moved() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nx = tf.placeholder(tf.float32, [2])\nv = tf.Variable(x)\n"
        "sess = tf.Session()\nsess.run(tf.global_variables_initializer(), {x: [1.0, 2.0]})\n"
        "print(sess.run(v))\n"
    )
    assert result.level == "partial"
    assert "created from a computed tensor" in result.fallback.message


def test_run_site_inside_a_function_defined_before_the_graph() -> None:
    check_transformed(
        """\
        import tensorflow as tf


        def evaluate(value):
            return sess.run(y, feed_dict={x: value})


        x = tf.placeholder(tf.float32, [])
        y = x + 1.0
        sess = tf.Session()
        print(evaluate(2.0))
        """,
        """\
        import tensorflow as tf


        def evaluate(value):
            return compute_y(value).numpy()


        @tf.function(input_signature=[tf.TensorSpec([])])
        def compute_y(x):
            y = x + 1.0
            return y


        print(evaluate(2.0))
        """,
    )


def test_saver_becomes_checkpoint() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        v = tf.Variable(1.0)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, '/tmp/m', global_step=3)
            saver.restore(sess, '/tmp/m-3')
        """,
        """\
        import tensorflow as tf
        v = tf.Variable(1.0)
        saver = tf.train.Checkpoint(v=v)
        tf.train.CheckpointManager(saver, '/tmp', max_to_keep=5, checkpoint_name='m').save(
            checkpoint_number=3
        )
        saver.read('/tmp/m-3')
        """,
    )
    assert any(f.rule == "TF110" for f in result.findings)


def test_a_fetched_group_returns_nothing_as_sess_run_did() -> None:
    # tf.function may not return the Operation tf.group builds; sess.run gave None for it
    check_transformed(
        """\
        import tensorflow as tf
        a = tf.Variable(1.0)
        b = tf.Variable(2.0)
        step = tf.group(tf.assign_add(a, 1.0), tf.assign_add(b, 1.0))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out, value = sess.run([step, a])
            print(out, value)
        """,
        """\
        import tensorflow as tf
        a = tf.Variable(1.0)
        b = tf.Variable(2.0)


        @tf.function
        def increment_a_and_b():
            step = tf.group(a.assign_add(1.0), b.assign_add(1.0))
            return [None, a]


        out, value = tf.nest.map_structure(lambda t: None if t is None else t.numpy(), increment_a_and_b())
        print(out, value)
        """,
    )


def test_a_variable_bound_again_while_a_step_reads_the_first_falls_back() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
        "w = tf.Variable(tf.ones([2, 2]), name='w1')\nh = tf.matmul(x, w)\n"
        "w = tf.Variable(tf.ones([2, 1]), name='w2')\ny = tf.matmul(h, w)\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run(y, {x: [[1.0, 2.0]]}))\n"
    )
    assert result.level == "partial"
    assert any("w is bound again" in f.message for f in result.findings)


def test_variable_names_keep_their_tf1_name_scope() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nx = tf.placeholder(tf.float32, [None, 2])\n"
        "with tf.name_scope('hidden'):\n    w = tf.Variable(tf.ones([2, 2]), name='w')\n"
        "    b = tf.Variable(tf.zeros([2]))\n"
        "with tf.name_scope('hidden'):\n    v = tf.Variable(tf.ones([2, 1]), name='w')\n"
        "y = tf.matmul(tf.matmul(x, w) + b, v)\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run(y, {x: [[1.0, 2.0]]}))\n"
    )
    assert result.level == "idiomatic"
    code = result.code
    assert "name='hidden/w')" in code
    assert 'tf.zeros([2]), name="hidden/Variable")' in code
    assert "name='hidden_1/w')" in code


def test_session_per_loop_round_around_a_graph_class() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n\n\nclass M(object):\n"
        "    def __init__(self):\n        self.x = tf.placeholder(tf.float32, [None])\n"
        "        self.w = tf.Variable(1.0, name='w')\n        self.y = self.w * self.x\n\n"
        "    def start(self, sess):\n        sess.run(tf.global_variables_initializer())\n\n"
        "    def predict(self, sess, xs):\n        return sess.run(self.y, {self.x: xs})\n\n\n"
        "m = M()\nfor i in range(2):\n    with tf.Session() as sess:\n        m.start(sess)\n"
        "        print(m.predict(sess, [1.0, 2.0]))\n"
    )
    assert result.level == "idiomatic"
    code = result.code
    assert "for i in range(2):\n    m.start(None)\n    print(m.predict(None, [1.0, 2.0]))\n" in code
    assert "global_variables_initializer" not in code


def test_a_helper_computing_with_its_variables_is_inlined_where_it_is_called() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n\n\ndef net(x):\n    w = tf.Variable(tf.ones([2, 2]), name='w')\n"
        "    h = tf.matmul(x, w)\n    h = tf.nn.relu(h)\n    w = tf.Variable(tf.ones([2, 1]), name='v')\n"
        "    return tf.matmul(h, w), w\n\n\ndef main():\n    x = tf.placeholder(tf.float32, [None, 2])\n"
        "    y, out_w = net(x)\n    with tf.Session() as sess:\n"
        "        sess.run(tf.global_variables_initializer())\n        print(sess.run(y, {x: [[1.0, 2.0]]}))\n"
        "        print(sess.run(out_w))\n"
    )
    assert result.level == "idiomatic"
    code = result.code
    assert "def net(" not in code
    assert "h = tf.nn.relu(h)" in code  # tensors replay in order under their own names
    # the second `w` takes the caller's name for it, the first keeps its own
    assert "out_w = tf.Variable(tf.ones([2, 1]), name='v')" in code
    assert "h = tf.matmul(x, w)" in code
    assert "y = tf.matmul(h, out_w)" in code
    assert "print(out_w.numpy())" in code


def test_an_inlined_helper_reads_the_caller_s_names_for_its_parameters(tmp_path: Path) -> None:
    source = (
        "import tensorflow as tf\n\n\ndef net(inputs, scale):\n    w = tf.Variable(tf.ones([2, 1]), name='w')\n"
        "    inputs = inputs * scale\n    return tf.matmul(inputs, w)\n\n\ndef main():\n"
        "    x = tf.placeholder(tf.float32, [None, 2])\n    factor = 2.0\n    inputs = x\n    y = net(x, factor)\n"
        "    with tf.Session() as sess:\n        sess.run(tf.global_variables_initializer())\n"
        "        print(sess.run(y, {x: [[1.0, 2.0]]}))\n        print(sess.run(inputs, {x: [[1.0, 2.0]]}))\n"
    )
    result = rewrite_source(source + "\n\nmain()\n")
    # `scale` is never rebound: it reads as `factor`, with no `scale = factor`
    assert "scale" not in result.code and "inputs = inputs * factor" in result.code
    # `inputs` is rebound by the helper and read by the caller after the call: still its own value
    assert verify_sources(source + "\n\nmain()\n", result.code, tmp_path, Options(timeout=120)).status == "equivalent"
    wrong = result.code.replace("inputs = inputs * factor", "inputs = inputs + factor")
    assert verify_sources(source + "\n\nmain()\n", wrong, tmp_path, Options(timeout=120)).status == "different"


def test_named_graph_entered_and_given_to_the_session_goes() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf
        graph = tf.Graph()
        with graph.as_default():
            x = tf.placeholder(tf.float32, [2])
            y = tf.reduce_sum(x * 2.0)
        with tf.Session(graph=graph) as sess:
            print(sess.run(y, {x: [1.0, 2.0]}))
        """,
        """\
        import tensorflow as tf


        @tf.function(input_signature=[tf.TensorSpec([2])])
        def compute_y(x):
            y = tf.reduce_sum(x * 2.0)
            return y


        print(compute_y([1.0, 2.0]).numpy())
        """,
    )
    assert any("tf.Graph() removed" in f.message for f in result.findings)


def test_named_graph_used_otherwise_keeps_the_file_in_graph_mode() -> None:
    source = dedent(
        """\
        import tensorflow as tf
        graph = tf.Graph()
        with graph.as_default():
            x = tf.constant(2.0, name="x")
            y = x * 3.0
        print(graph.get_tensor_by_name("x:0"))
        with tf.Session(graph=graph) as sess:
            print(sess.run(y))
        """
    )
    result = rewrite_source(source.encode())
    assert result.level == "partial"
    assert any("graph graph used beyond entering it" in f.message for f in result.findings)


def test_session_parameter_of_a_helper_runs_its_session_and_the_call_passes_none() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        def show(s, value):
            print(s.run(y, {x: value}))
        x = tf.placeholder(tf.float32, [2])
        y = x * 2.0
        sess = tf.Session()
        show(sess, [1.0, 2.0])
        """))
    assert result.level == "idiomatic"
    assert "print(compute_y(value).numpy())" in result.code
    assert "show(None, [1.0, 2.0])" in result.code
    # the step is defined before the call that runs it
    assert result.code.index("def compute_y(") < result.code.index("show(None")


def test_session_helper_nested_in_main_takes_the_session_by_another_name() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        def main():
            x = tf.placeholder(tf.float32, [None, 2])
            y = x * 2.0
            def report(session, data):
                print(session.run(y, {x: data}))
            with tf.Session() as sess:
                report(sess, [[1.0, 2.0]])
        main()
        """))
    assert result.level == "idiomatic"
    assert "print(compute_y(data).numpy())" in result.code
    assert "report(None, [[1.0, 2.0]])" in result.code


SAVED_THEN_READ_BY_KEY = """\
import tensorflow as tf

w = tf.Variable(1.0, name="w")
saver = tf.train.Saver()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    saver.save(sess, "/tmp/model")
{read}
"""


def test_a_saver_whose_checkpoint_is_read_by_key_stays_name_based() -> None:
    # a Checkpoint would write `w/.ATTRIBUTES/VARIABLE_VALUE` where the read looks for `w`
    read = check_transformed(
        SAVED_THEN_READ_BY_KEY.format(read='print(tf.train.list_variables("/tmp/model"))'),
        """\
        import tensorflow as tf

        w = tf.Variable(1.0, name="w")
        saver = tf.compat.v1.train.Saver(var_list=[w])
        saver.save(sess=None, save_path="/tmp/model")
        print(tf.train.list_variables("/tmp/model"))
        """,
        level="partial",
    )
    said = [f for f in read.findings if f.rule == "TF110"]
    assert len(said) == 1 and said[0].kind == "manual" and said[0].line == 4
    assert "name-based" in said[0].message and "attribute paths" in said[0].message
    unread = rewrite_source(SAVED_THEN_READ_BY_KEY.format(read='print("saved")'))
    assert "tf.train.Checkpoint(w=w)" in unread.code and unread.level == "idiomatic"
    assert not [f for f in unread.findings if f.kind == "manual"]


def test_a_name_based_saver_of_a_model_s_variables_is_refused() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.constant([[1.0, 2.0]])
        y = tf.layers.dense(x, 1)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            saver.save(sess, "/tmp/model")
        print(tf.train.list_variables("/tmp/model"))
        """))
    assert "tf.train.Checkpoint" not in result.code and result.level == "partial"
    assert "Saver of a model's variables read back by TF1 name" in result.fallback.message


def test_a_saver_made_where_it_is_used_with_its_keys_read_is_refused() -> None:
    # `Saver().save(sess, path)` has no saver node: the name-based form would leave it in a step
    result = rewrite_source(SAVED_THEN_READ_BY_KEY.replace("saver.save(", "tf.train.Saver().save(").format(
        read='print(tf.train.list_variables("/tmp/model"))'))
    assert result.level == "partial" and "disable_eager_execution" in result.code
    assert "made where it is used" in result.fallback.message


def test_a_tensor_extended_in_place_is_bound_again_in_the_step() -> None:
    # `loss += penalty` rebinds loss from itself: the step computes both, in order, as written.
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable(tf.ones([2, 1]))
        loss = tf.reduce_mean(tf.matmul(x, w))
        loss += 0.1 * tf.nn.l2_loss(w)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run([train, loss], {x: [[1.0, 2.0]]})[1])
        """))
    assert result.level == "idiomatic", result.findings
    step = result.code[result.code.index("def train_step"):]
    assert step.index("loss = tf.reduce_mean(") < step.index("loss += 0.1 * tf.nn.l2_loss(w)") < step.index("tape.gradient(loss")


def test_running_a_variables_initializer_is_removed() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, shape=[])
        v = tf.Variable(3.0, name="v")
        y = tf.multiply(x, v)
        with tf.Session() as sess:
            sess.run(v.initializer)
            print(sess.run(y, feed_dict={x: 5}))
        """))
    assert result.level == "idiomatic", result.findings
    assert "initializer" not in result.code and "print(compute_y(5).numpy())" in result.code


def test_a_saver_method_checkpoint_lacks_keeps_the_saver() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        v = tf.Variable(3.0, name="v")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            s = tf.train.Saver()
            s.export_meta_graph("graph.pb", as_text=True)
            s.save(sess, "values.ckpt")
        """))
    assert result.level == "partial"
    assert "Saver.export_meta_graph has no tf.train.Checkpoint form" in result.fallback.message
    assert "tf.train.Checkpoint" not in result.code


def test_comments_of_removed_statements_are_kept() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [2])  # the input
        y = x * 2.0
        sess = tf.Session()  # one session
        sess.run(tf.global_variables_initializer())  # start
        print(sess.run(y, {x: [1.0, 2.0]}))
        sess.close()  # done
        """))
    assert result.level == "idiomatic", result.findings
    for comment in ("# the input", "# one session", "# start", "# done"):
        assert comment in result.code
    # the placeholder's comment sits above the step that takes it
    assert result.code.index("# the input") < result.code.index("def compute_y(x)")


def test_comments_of_an_unwrapped_session_block_and_a_replaced_train_op_are_kept() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 1])
        w = tf.Variable(tf.ones([1, 1]))
        loss = tf.reduce_mean(tf.matmul(x, w))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)  # plain descent
        with tf.Session() as sess:  # the session
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0]]})
            print(sess.run(w))
            # the trained weight
        """))
    assert result.level == "idiomatic", result.findings
    for comment in ("# plain descent", "# the session", "# the trained weight"):
        assert comment in result.code


MODULE_GRAPH = '''import tensorflow as tf
w = tf.Variable(1.0)
step = w.assign_add(1.0)


def run():
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(step))


{calls}
'''


def test_a_function_opening_a_session_runs_the_graph_the_module_built() -> None:
    result = rewrite_source(MODULE_GRAPH.format(calls="run()"))
    assert result.level == "idiomatic"
    assert "Session" not in result.code and "    @tf.function\n    def " in result.code


@pytest.mark.parametrize("calls", ["run()\nrun()", "for _ in range(2):\n    run()"])
def test_a_function_opening_a_session_more_than_once_keeps_graph_mode(calls: str) -> None:
    """Each TF1 session initialized the module's variables afresh; TF2's persist."""
    result = rewrite_source(MODULE_GRAPH.format(calls=calls))
    assert result.level == "partial" and "tf.compat.v1.Session()" in result.code
    assert any("may run more than once" in f.message for f in result.findings)


def test_a_name_bound_again_between_runs_gets_a_step_per_tensor() -> None:
    """Two runs of `t` fetch two tensors: one step for both would print the first twice."""
    source = (
        "import tensorflow as tf\n"
        "sess = tf.Session()\n"
        "t = tf.reshape(tf.constant([1, 2, 3, 4]), [2, 2])\n"
        "print(sess.run(t))\n"
        "t = tf.reshape(tf.constant([5, 6, 7, 8]), [4])\n"
        "print(sess.run(t))\n"
        "print(sess.run(t))\n"
    )
    result = rewrite_source(source)
    assert result.level == "idiomatic"
    calls = [line for line in result.code.splitlines() if line.startswith("print(")]
    assert calls == ["print(compute_t().numpy())", "print(compute_t_2().numpy())", "print(compute_t_2().numpy())"]
    assert "tf.constant([5, 6, 7, 8])" in result.code.split("def compute_t_2")[1]


def test_eval_of_a_tf_expression_of_plain_values_is_its_numpy() -> None:
    check_transformed(
        "import tensorflow as tf\nsess = tf.InteractiveSession()\nprint(tf.transpose([[1, 2]]).eval())\n",
        "import tensorflow as tf\nprint(tf.transpose([[1, 2]]).numpy())\n",
    )


def test_eval_of_a_random_expression_is_not_computed_eagerly() -> None:
    """TF1 drew it with the graph's op seeds; eager ops draw other numbers."""
    result = rewrite_source("import tensorflow as tf\ntf.set_random_seed(1)\nsess = tf.InteractiveSession()\n"
                            "print(tf.random_normal([2]).eval())\n")
    assert ".numpy()" not in result.code.split("print(")[-1]


def test_a_name_bound_again_to_its_run_result_holds_the_array_after() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.constant([1.0, 2.0])
        sess = tf.Session()
        x = sess.run(x)
        print(x.sum())
        """,
        """\
        import tensorflow as tf


        @tf.function
        def compute_x():
            x = tf.constant([1.0, 2.0])
            return x


        x = compute_x().numpy()
        print(x.sum())
        """,
    )


def test_graph_code_reading_a_name_the_driver_bound_again_keeps_graph_mode() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nx = tf.constant(2.0)\nsess = tf.Session()\nx = sess.run(x)\n"
        "y = tf.add(x, 1.0)\nprint(sess.run(y))\n"
    )
    assert result.level == "partial" and "tf.compat.v1.Session" in result.code
    assert any("x is bound by the driver and then read by graph code" in f.message and f.line == 5
               for f in result.findings)


def test_python_values_bound_by_the_driver_are_not_graph_rebindings() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nn, m = 2, 3\nw = tf.Variable(tf.ones([n, m]))\nsess = tf.Session()\n"
        "sess.run(tf.global_variables_initializer())\nprint(sess.run(w).shape)\n"
    )
    assert result.level == "idiomatic", result.findings


def test_a_fetch_reading_driver_values_is_computed_where_it_runs() -> None:
    # TF1 built these fetches from `i` and `k` at each run; a step function would keep the
    # values of its first trace
    check_transformed(
        """\
        import tensorflow as tf
        v = tf.Variable(1.0)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(3):
                sess.run(tf.assign(v, 0.5 * i))
                k = 2.0 * i
                print(sess.run(v * k), sess.run(tf.reduce_sum(v + k)))
        """,
        """\
        import tensorflow as tf
        v = tf.Variable(1.0)
        for i in range(3):
            v.assign(0.5 * i)
            k = 2.0 * i
            print((v * k).numpy(), tf.reduce_sum(v + k).numpy())
        """,
    )


def test_a_fetch_reading_a_module_constant_is_still_a_step() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n"
        "scale = 2.0\n"
        "v = tf.Variable(1.0)\n"
        "with tf.Session() as sess:\n"
        "    sess.run(tf.global_variables_initializer())\n"
        "    for i in range(2):\n"
        "        print(sess.run(v * scale))\n"
    )
    assert result.level == "idiomatic"
    assert "def compute_v():\n    return v * scale\n" in result.code


def test_a_fed_fetch_reading_driver_values_keeps_graph_mode() -> None:
    # it needs the step's graph and the loop's value: no step function can take both as TF1 did
    result = rewrite_source(
        "import tensorflow as tf\n"
        "x = tf.placeholder(tf.float32)\n"
        "y = x * 2.0\n"
        "with tf.Session() as sess:\n"
        "    for i in range(2):\n"
        "        print(sess.run(y * i, {x: 1.0}))\n"
    )
    assert result.level == "partial"
    assert result.fallback.line == 6
    assert "the fetch reads i, bound by the code running it" in result.fallback.message


def test_comments_of_session_calls_removed_inside_a_function_stay() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32)
        y = x * 2.0


        def run(sess, v):
            # set up first
            sess.run(tf.global_variables_initializer())  # every variable
            return sess.run(y, {x: v})


        with tf.Session() as sess:
            print(run(sess, 1.0))
        """,
        """\
        import tensorflow as tf


        def run(sess, v):
            # set up first
            # every variable
            return compute_y(v).numpy()


        @tf.function(input_signature=[tf.TensorSpec(None)])
        def compute_y(x):
            y = x * 2.0
            return y


        print(run(None, 1.0))
        """,
    )


_TRAINED = (
    "import tensorflow as tf\n\n"
    "w = tf.Variable(1.0)\n"
    "train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(w - 3.0))\n"
)


@pytest.mark.parametrize(("driver", "reset"), [
    # set back after training, in the same session block
    (("with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
      "    sess.run(train)\n    sess.run(tf.global_variables_initializer())\n    print(sess.run(w))\n"),
     "train_step()\nw.assign(1.0)\nprint(w.numpy())\n"),
    # at the top of each round of a loop that trains
    (("sess = tf.Session()\nfor trial in range(2):\n    sess.run(tf.global_variables_initializer())\n"
      "    sess.run(train)\n    print(sess.run(w))\n"),
     "for trial in range(2):\n    w.assign(1.0)\n    train_step()\n    print(w.numpy())\n"),
    # a later top-level statement, its comment kept
    (("sess = tf.Session()\nsess.run(tf.global_variables_initializer())\nsess.run(train)\n"
      "sess.run(tf.global_variables_initializer())  # start over\nprint(sess.run(w))\n"),
     "train_step()\nw.assign(1.0)  # start over\nprint(w.numpy())\n"),
])
def test_variables_initialized_again_after_the_graph_ran_are_assigned_their_initial_values(
    driver: str, reset: str,
) -> None:
    # TF1 set the variables back to their initial values; dropping the run would not
    result = rewrite_source(_TRAINED + driver)
    assert result.level == "idiomatic", result.findings
    assert str(result.code).endswith(reset)


def test_a_named_initializer_run_again_sets_back_only_the_variables_made_before_it() -> None:
    result = rewrite_source(
        "import tensorflow as tf\n\nw = tf.Variable([0.5, 1.5])\ninit = tf.global_variables_initializer()\n"
        "v = tf.Variable(tf.zeros([2]))\ntrain = tf.train.GradientDescentOptimizer(0.1).minimize("
        "tf.reduce_sum(tf.square(w - v)))\nsess = tf.Session()\nsess.run(tf.global_variables_initializer())\n"
        "sess.run(train)\nsess.run(init)\nprint(sess.run([w, v]))\n")
    assert result.level == "idiomatic", result.findings
    assert "w.assign([0.5, 1.5])\nprint(" in str(result.code)
    assert "v.assign" not in str(result.code)


@pytest.mark.parametrize(("change", "why"), [
    (("GradientDescentOptimizer(0.1)", "AdamOptimizer(0.1)"), "tf.train.AdamOptimizer keeps slot variables"),
    (("tf.Variable(1.0)", "tf.Variable(tf.random_normal([]))"),
     "w's initial value calls tf.random_normal(), which the rewrite does not call again"),
    (("w = tf.Variable(1.0)\n", "start = 1.0\nw = tf.Variable(start)\nstart = 2.0\n"),
     "w's initial value reads start, which is bound again"),
    (("w = tf.Variable(1.0)\n", "w = tf.Variable(1.0)\nlayer = tf.layers.dense(tf.ones([1, 1]), 1)\n"),
     "Keras layers made by layer hold weights of their own"),
    (("w = tf.Variable(1.0)\n", "w = tf.get_variable('w', [], initializer=tf.ones_initializer())\n"),
     "w is not a tf.Variable made from its value"),
])
def test_a_reset_the_assignments_would_not_reproduce_keeps_graph_mode(change: tuple[str, str], why: str) -> None:
    driver = ("sess = tf.Session()\nsess.run(tf.global_variables_initializer())\nsess.run(train)\n"
              "sess.run(tf.global_variables_initializer())\nprint(sess.run(w))\n")
    result = rewrite_source(_TRAINED.replace(*change) + driver)
    assert result.level == "partial"
    messages = [f.message for f in result.findings]
    assert any(f"variables initialized again after the graph ran: {why}" in m for m in messages), messages


def test_an_initializer_run_in_the_branch_not_taken_after_a_run_is_dropped() -> None:
    result = rewrite_source(_TRAINED + (
        "sess = tf.Session()\nif False:\n    sess.run(train)\nelse:\n"
        "    sess.run(tf.global_variables_initializer())\nprint(sess.run(w))\n"))
    assert result.level == "idiomatic", result.findings
    assert "global_variables_initializer" not in str(result.code)


def test_an_initializer_run_after_runs_that_only_read_is_dropped() -> None:
    # the variables still hold their initial values there
    result = rewrite_source(_TRAINED + (
        "sess = tf.Session()\nsess.run(tf.global_variables_initializer())\nprint(sess.run(w * 2.0))\n"
        "sess.run(tf.global_variables_initializer())\nprint(sess.run(w))\n"))
    assert result.level == "idiomatic", result.findings
    assert "global_variables_initializer" not in str(result.code)


def test_a_saver_made_in_a_method_checkpoints_the_variables_of_the_model_held() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf


        class Net:
            def __init__(self):
                self.x = tf.placeholder(tf.float32, [None])
                self.w = tf.Variable(1.0)
                self.step = tf.Variable(0, trainable=False)
                self.loss = tf.reduce_sum(tf.square(self.w * self.x))
                self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss, global_step=self.step)


        class Trainer:
            def __init__(self):
                self.net = Net()
                self.sess = tf.Session()
                self.sess.run(tf.global_variables_initializer())

            def fit(self, path):
                saver = tf.train.Saver()
                self.sess.run(self.net.train, {self.net.x: [1.0, 2.0]})
                saver.save(self.sess, path)
                saver.restore(self.sess, path)
                return self.sess.run(self.net.step)


        print(Trainer().fit("/tmp/model"))
        """))
    code = str(result.code)
    assert result.level == "idiomatic", result.findings
    assert "saver = tf.train.Checkpoint(w=self.net.w, step=self.net.step)\n" in code
    assert "saver.write(path)\n" in code and "saver.read(path)\n" in code
    assert "return self.net.step.numpy()\n" in code


def test_a_variable_read_by_a_step_after_the_driver_bound_its_name_to_the_value_keeps_graph_mode() -> None:
    # `w = sess.run(w)` in a loop, then a step reading `w`: traced then, it would compute with
    # the array (a binding in a loop keeps its name)
    result = rewrite_source(_TRAINED + (
        "y = w * 2.0\nsess = tf.Session()\nsess.run(tf.global_variables_initializer())\nsess.run(train)\n"
        "for _ in range(1):\n    w = sess.run(w)\nprint(sess.run(y), w)\n"))
    assert result.level == "partial"
    assert any("w is bound to the variables' values before a step" in f.message for f in result.findings)


def test_a_variable_name_bound_to_its_value_before_later_runs_takes_a_name_of_its_own() -> None:
    result = rewrite_source(_TRAINED + (
        "y = w * 2.0\nsess = tf.Session()\nsess.run(tf.global_variables_initializer())\nsess.run(train)\n"
        "w = sess.run(w)\nprint(sess.run(y), w)\n"))
    code = str(result.code)
    assert result.level == "idiomatic", result.findings
    assert "w_value = w.numpy()\nprint(compute_y().numpy(), w_value)\n" in code
    assert any("w bound to its value → w_value" in f.message for f in result.findings)


def test_a_name_bound_to_its_value_with_no_run_after_keeps_its_name() -> None:
    result = rewrite_source(_TRAINED + (
        "sess = tf.Session()\nsess.run(tf.global_variables_initializer())\nsess.run(train)\n"
        "w = sess.run(w)\nprint(w)\n"))
    assert "w = w.numpy()\nprint(w)\n" in str(result.code)


_BRANCH_RUN = """\
import numpy as np
import tensorflow as tf


def predict(data):
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.ones([2, 1]))
    acc = tf.reduce_sum(tf.matmul(x, w))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        if data is not None:
            acc = sess.run(acc, feed_dict={x: data})
            return acc
        else:
            return -1


print(predict(np.ones([3, 2])))
"""


def test_a_name_a_branch_binds_to_its_run_value_is_that_value_after_it() -> None:
    result = rewrite_source(_BRANCH_RUN)
    assert result.level == "idiomatic", result.findings
    assert "        acc = compute_acc(data).numpy()\n        return acc\n" in str(result.code)


def test_a_read_of_the_tensor_before_the_branch_binds_its_value_is_still_refused() -> None:
    source = _BRANCH_RUN.replace("        if data is not None:\n", "        if data is not None:\n            print(acc)\n")
    result = rewrite_source(source)
    assert any("graph tensor acc used outside a session run" in f.message for f in result.findings)


def test_a_step_whose_result_a_call_keeps_still_returns_it() -> None:
    result = rewrite_source(
        "import tensorflow as tf\nv = tf.Variable(1.0)\ninc = tf.assign_add(v, 1.0)\n"
        "sess = tf.Session()\nsess.run(tf.global_variables_initializer())\nsess.run(inc)\n"
        "print(sess.run(inc))\n")
    assert "    inc = v.assign_add(1.0)\n    return inc\n" in str(result.code)


def test_a_fetch_of_one_variable_of_a_list_reads_that_variable() -> None:
    source = (
        "import tensorflow as tf\n\nws = [tf.Variable(tf.zeros([2]) + i) for i in range(3)]\n"
        "with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
        "    print(sess.run(ws[1]))\n    print(sess.run(ws[0:2]))\n"
    )
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert "print(ws[1].numpy())" in result.code
    assert "print([v.numpy() for v in ws[0:2]])" in result.code  # a slice: a list of variables


_COORDINATED = """\
import numpy as np
import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable(tf.ones([2, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)
sess = tf.Session()
sess.run(tf.global_variables_initializer())
coord = tf.train.Coordinator()
try:
    for step in range(6):
        if coord.should_stop():
            break
        _, l = sess.run([train_op, loss], {x: np.array([[1.0, 2.0]], np.float32)})
        print(step, l)
        if step == 3:
            coord.request_stop()
finally:
    coord.request_stop()
    sess.close()
"""


def test_a_coordinator_without_queue_runners_is_kept_as_tf2s(tmp_path: Path) -> None:
    """TF 2.21 keeps tf.train.Coordinator: with no threads to stop, it is the loop's stop flag."""
    result = rewrite_source(_COORDINATED)
    assert result.level == "idiomatic", result.findings
    assert "coord = tf.train.Coordinator()" in result.code and "if coord.should_stop():" in result.code
    assert verify_sources(_COORDINATED, result.code, tmp_path, Options(timeout=120)).status == "equivalent"
    never_stops = result.code.replace("            coord.request_stop()\n", "            pass\n", 1)
    assert verify_sources(_COORDINATED, never_stops, tmp_path, Options(timeout=120)).status == "different"


_BATCHES = """\
import numpy as np
import tensorflow as tf


def get_batch(features, labels, batch_size):
    features = tf.cast(features, tf.float32)
    dataset = tf.data.Dataset.from_tensor_slices((features, labels)).repeat().batch(batch_size)
    x_batch, y_batch = dataset.make_one_shot_iterator().get_next()
    return x_batch, y_batch


def main():
    features = np.arange(6.0).reshape(3, 2)
    labels = np.array([0.0, 1.0, 0.0])
    SHOW
    x_batch, y_batch = get_batch(features, labels, 3)
    w = tf.Variable([[0.5], [-0.5]])
    loss = tf.reduce_mean(tf.square(tf.matmul(x_batch, w)[:, 0] - tf.cast(y_batch, tf.float32)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(loss))
    LATER


main()
"""


@pytest.mark.parametrize(("show", "later"), [
    ("pass", "print(features.dtype)"),  # read after the call
    ("def show():\n        print(features.dtype)", "show()"),  # read by a closure made before
])
def test_an_inlined_builder_rebinding_its_parameter_leaves_the_caller_s_value_alone(
        show: str, later: str, tmp_path: Path) -> None:
    source = _BATCHES.replace("SHOW", show).replace("LATER", later)
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert "features_2 = tf.cast(features_2, tf.float32)" in result.code
    assert verify_sources(source, result.code, tmp_path, Options(timeout=120)).status == "equivalent"


def test_a_builder_rebinding_a_parameter_the_caller_no_longer_reads_keeps_its_name() -> None:
    code = rewrite_source(_BATCHES.replace("SHOW", "pass").replace("LATER", "pass")).code
    assert "    features = tf.cast(features, tf.float32)\n" in code and "features_2" not in code


def test_a_nested_definition_of_an_inlined_builder_takes_a_name_the_caller_has_not(tmp_path: Path) -> None:
    source = _BATCHES.replace("SHOW", "def scale(v):\n        return v").replace("LATER", "print(scale(2))").replace(
        "    features = tf.cast(features, tf.float32)\n",
        "    def scale(v):\n        return v * 2.0\n\n    features = tf.cast(scale(features), tf.float32)\n")
    result = rewrite_source(source)
    assert "def scale_2(v):" in result.code and "tf.cast(scale_2(features), tf.float32)" in result.code
    assert verify_sources(source, result.code, tmp_path, Options(timeout=120)).status == "equivalent"

"""Graph contexts: `with` blocks unwrapped into the flat items the move converts (move/contexts.py)."""

import pytest
from helpers import move_state

from migrate.move import contexts
from migrate.report import Unsupported


def items(source: str):
    move = move_state(source)
    return move, contexts.flatten(move, move.module.body, "", [])


def test_a_session_block_is_unwrapped_and_its_name_is_a_session() -> None:
    move, flat = items(
        "import tensorflow as tf\n"
        "x = tf.constant(1.0)\n"
        "with tf.Session() as sess:\n"
        "    print(sess.run(x))\n"
        "    sess.close()\n"
    )
    assert [type(i.stmt).__name__ for i in flat] == ["SimpleStatementLine"] * 4
    assert [i.prefix for i in flat] == ["", "", "", ""]
    assert "sess" in move.scope.sessions
    assert [f.message for f in move.findings] == ["graph/session context unwrapped"]


def test_variable_scopes_give_their_statements_a_prefix() -> None:
    _, flat = items(
        "import tensorflow as tf\n"
        "with tf.variable_scope('enc'):\n"
        "    with tf.variable_scope('layer1'):\n"
        "        w = tf.get_variable('w', [2])\n"
        "    b = tf.get_variable('b', [2])\n"
        "c = 1\n"
    )
    assert [i.prefix for i in flat] == ["", "enc/layer1/", "enc/", ""]


def test_other_withs_stay_whole() -> None:
    _, flat = items("import tensorflow as tf\nwith open('f') as f:\n    data = f.read()\n")
    assert len(flat) == 2 and type(flat[1].stmt).__name__ == "With"


def test_a_computed_scope_name_at_module_level_is_refused() -> None:
    with pytest.raises(Unsupported, match="variable_scope with reuse or a computed name"):
        items("import tensorflow as tf\nwith tf.variable_scope(name):\n    w = tf.get_variable('w', [2])\n")


def test_a_no_op_under_control_dependencies_of_names_is_their_group() -> None:
    _, flat = items(
        "import tensorflow as tf\n"
        "# both\n"
        "with tf.control_dependencies([train_step, ema_op]):\n"
        "    train_op = tf.no_op(name='train')  # the step\n"
    )
    from migrate.codegen import code

    assert code(flat[-1].stmt) == "# both\ntrain_op = tf.group(train_step, ema_op, name='train')  # the step\n"


@pytest.mark.parametrize("body", [
    "with tf.control_dependencies([train_step]):\n    train_op = tf.identity(loss)\n",
    "with tf.control_dependencies([train_step]):\n    a = tf.no_op()\n    b = tf.no_op()\n",
    "with tf.control_dependencies(ops):\n    train_op = tf.no_op()\n",
    "with tf.control_dependencies([train_step, *more]):\n    train_op = tf.no_op()\n",
])
def test_other_control_dependency_blocks_are_not_groups(body: str) -> None:
    move = move_state("import tensorflow as tf\n" + body)
    assert contexts.grouped_no_op(move, move.module.body[0]) is None


def test_a_group_of_a_train_op_and_an_update_runs_both_in_the_step() -> None:
    from helpers import check_transformed

    result = check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None])
        w = tf.Variable(1.0)
        n = tf.Variable(0.0, trainable=False)
        loss = tf.reduce_sum(w * x)
        train_step = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        count = tf.assign_add(n, 1.0)
        train_op = tf.group(train_step, count)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train_op, feed_dict={x: [1.0, 2.0]})
            print(sess.run(n))
        """,
        """\
        import tensorflow as tf
        w = tf.Variable(1.0)
        n = tf.Variable(0.0, trainable=False)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([None])])
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * x)
            count = n.assign_add(1.0)
            grads = tape.gradient(loss, [w])
            optimizer.apply_gradients(zip(grads, [w]))


        train_step([1.0, 2.0])
        print(n.numpy())
        """,
    )
    assert ("train_op: TF1 ran train_step, count side by side; the step runs count before the update of "
            "train_step, which it does not wait for, reading the variables as TF1's run did") in [
        f.message for f in result.findings]

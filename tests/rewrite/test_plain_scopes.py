"""TF104: a variable_scope that scopes no variable, in a function, becomes a name scope."""

import textwrap

import libcst as cst
import pytest
from helpers import check_transformed

from migrate.imports import collect_aliases
from migrate.move.plain_scopes import as_name_scopes


def _scoped(source: str) -> tuple[str, list[str]]:
    module = cst.parse_module(textwrap.dedent(source))
    new, findings = as_name_scopes(module, collect_aliases(module), {})
    return new.code, [f.message for f in findings]


def test_a_loss_helper_s_scope_becomes_a_name_scope_in_the_rewrite() -> None:
    check_transformed("""\
        import tensorflow as tf


        def losses(logits, labels):
            with tf.variable_scope('loss') as scope:  # names the loss ops
                loss = tf.reduce_mean(tf.square(logits - labels), name=scope.name)
            return loss


        w = tf.Variable(2.0)
        x = tf.placeholder(tf.float32)
        loss = losses(w * x, 3.0)
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        print(sess.run(loss, feed_dict={x: 1.0}))
        """, """\
        import tensorflow as tf


        def losses(logits, labels):
            with tf.name_scope('loss'):  # names the loss ops
                loss = tf.reduce_mean(tf.square(logits - labels), name='loss')
            return loss


        w = tf.Variable(2.0)


        @tf.function(input_signature=[tf.TensorSpec(None)])
        def compute_loss(x):
            loss = losses(w * x, 3.0)
            return loss


        print(compute_loss(1.0).numpy())
        """)


def test_nested_scopes_read_their_full_name() -> None:
    code, findings = _scoped("""\
        import tensorflow as tf


        def metric(a, b):
            with tf.variable_scope('eval'):
                with tf.variable_scope('accuracy') as scope:
                    return tf.reduce_mean(tf.cast(tf.equal(a, b), tf.float32), name=scope.name)
        """)
    assert "with tf.name_scope('eval'):" in code and "with tf.name_scope('accuracy'):" in code
    assert "name='eval/accuracy'" in code
    assert len(findings) == 2 and "'eval/accuracy'" in findings[1]


@pytest.mark.parametrize("body", [
    # a layer makes its variables under the scope
    "with tf.variable_scope('fc'):\n        return tf.layers.dense(x, 3)",
    # a function of the module may make variables
    "with tf.variable_scope('fc'):\n        return helper(x)",
    # an object's call (a cell, a layer) may make variables
    "with tf.variable_scope('fc'):\n        return cell(x)",
    # the scope is given more than its name
    "with tf.variable_scope('fc', reuse=True):\n        return tf.nn.relu(x)",
    # a computed name
    "with tf.variable_scope(name):\n        return tf.nn.relu(x)",
    # the scope object is used for more than its name
    "with tf.variable_scope('fc') as scope:\n        scope.reuse_variables()\n        return tf.nn.relu(x)",
    # an optimizer makes slot variables under the scope
    "with tf.variable_scope('fc'):\n        return tf.train.AdamOptimizer(0.1).minimize(x)",
])
def test_a_scope_that_may_scope_variables_is_kept(body: str) -> None:
    source = f"import tensorflow as tf\n\n\ndef helper(x, cell=None, name='n'):\n    {body}\n"
    code, findings = _scoped(source)
    assert code == source and findings == []


def test_a_function_called_under_another_variable_scope_is_kept() -> None:
    # there TF1's scope name is 'outer/loss', which the literal would not say
    source = textwrap.dedent("""\
        import tensorflow as tf


        def losses(x):
            with tf.variable_scope('loss') as scope:
                return tf.reduce_mean(x, name=scope.name)


        with tf.variable_scope('outer'):
            total = losses(tf.ones([2]))
        """)
    code, findings = _scoped(source)
    assert code == source and findings == []

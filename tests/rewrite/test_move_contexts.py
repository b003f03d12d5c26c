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

"""Summaries: the entries a summary op makes and the tags TF1 wrote them under
(move/summary_ops.py)."""

import pytest
from helpers import expression, move_state

from migrate.codegen import code
from migrate.move import summary_ops
from migrate.report import Unsupported

PROGRAM = "import tensorflow as tf\n"


def test_a_summary_op_is_one_entry_of_its_tf2_op_tag_and_tensor() -> None:
    move = move_state(PROGRAM)
    entries = summary_ops.summary_entries(move, expression('tf.summary.histogram("weights", w)'))
    assert entries is not None
    assert [(e.op, e.tag, code(e.data)) for e in entries] == [("histogram", '"weights"', "w")]
    assert summary_ops.summary_entries(move, expression("tf.reduce_mean(w)")) is None


def test_a_summary_op_without_a_value_is_refused() -> None:
    with pytest.raises(Unsupported, match="without a tag and a value"):
        summary_ops.summary_entries(move_state(PROGRAM), expression('tf.summary.scalar("loss")'))


def test_tags_are_written_under_their_name_scope_and_made_unique() -> None:
    move = move_state(PROGRAM)
    value = expression("x")
    assert summary_ops.scoped_tag(move, '"loss"', "", value) == '"loss"'
    assert summary_ops.scoped_tag(move, '"loss"', "", value) == '"loss_1"'  # as TF1 uniquifies names
    assert summary_ops.scoped_tag(move, '"loss"', "train/", value) == '"train/loss"'
    assert summary_ops.scoped_tag(move, "tag", "train/", value) == "'train/' + tag"  # computed tag
    with pytest.raises(Unsupported, match="named at run time"):
        summary_ops.scoped_tag(move, '"loss"', None, value)

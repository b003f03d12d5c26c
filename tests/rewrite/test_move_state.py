"""The program move's shared state: names it makes and findings it records (move/state.py)."""

from helpers import move_state


def test_fresh_names_skip_taken_ones_and_are_never_given_back() -> None:
    move = move_state("loss = 1\nloss_2 = 2\n")
    move.used_names = {"loss", "loss_2"}
    assert move.fresh("loss") == "loss_3"
    assert move.fresh("loss") == "loss_4"  # the search goes on from where it stopped
    assert move.fresh("step") == "step"
    assert move.fresh("step") == "step_2"
    assert {"loss_3", "loss_4", "step", "step_2"} <= move.used_names


def test_fixed_records_a_finding_at_the_node_line_or_a_given_line() -> None:
    move = move_state("a = 1\nb = 2\n")
    second = move.module.body[1]
    move.fixed("TF101", second, "converted")
    move.fixed("TF102", 7, "noted", "info")
    assert [(f.rule, f.line, f.message, f.kind) for f in move.findings] == [
        ("TF101", 2, "converted", "fixed"), ("TF102", 7, "noted", "info"),
    ]
    assert move.line(second) == 2

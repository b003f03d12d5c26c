"""The program move's shared state: names it makes and findings it records (move/state.py)."""

from helpers import move_state
from libcst import parse_module

from migrate.move.suffixes import unsuffixed
from migrate.report import Finding


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


def test_a_suffixed_name_takes_its_base_back_only_where_nothing_else_is_named_so() -> None:
    move = move_state("x = 1\n")
    move.used_names = {"optimizer", "loss", "input"}
    made = [move.fresh("optimizer"), move.fresh("optimizer"), move.fresh("loss"), move.fresh("input")]
    assert move.suffixed == {"optimizer_2": "optimizer", "optimizer_3": "optimizer", "loss_2": "loss", "input_2": "input"}
    body = parse_module(
        f"{made[0]} = make()\n{made[1]} = make()\nloss = 1.0\n{made[2]} = f(loss, key=obj.loss_2)\n"
        f"{made[3]} = 3\nstep({made[0]}, optimizer_2=obj.optimizer_2)\n"
    ).body
    findings = [Finding("TF102", 1, 0, "optimizer_2 made; loss_2 kept; optimizer_20 not it", "fixed")]
    out = parse_module("").with_changes(body=unsuffixed(body, move.suffixed, move.lines, findings)).code
    # the first takes the base, the second keeps its number; loss is still the user's; input is a builtin
    assert out.rstrip("\n") + "\n" == (
        "optimizer = make()\noptimizer_3 = make()\nloss = 1.0\nloss_2 = f(loss, key=obj.loss_2)\n"
        "input_2 = 3\nstep(optimizer, optimizer_2=obj.optimizer_2)\n"
    )
    assert findings[0].message == "optimizer made; loss_2 kept; optimizer_20 not it"

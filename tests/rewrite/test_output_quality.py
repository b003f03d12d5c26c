"""Every golden's rewrite is free of the anti-patterns `benchmarks/quality_checks.CHECKS`
lists and keeps every comment of its original; and the checks themselves see what they name.

Goldens that fail a check today are listed in ``fixtures/programs/QUALITY_KNOWN.json``; their
test is a strict xfail, so a golden fixed and left in the list fails too (take it out).
"""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import pytest

from benchmarks.quality_checks import CHECKS, COMMENTS, comments_lost

PROGRAMS = Path(__file__).resolve().parents[2] / "fixtures" / "programs"
GOLDENS = sorted(p.name for p in PROGRAMS.iterdir() if (p / "after.py").exists())
KNOWN: dict[str, list[str]] = json.loads((PROGRAMS / "QUALITY_KNOWN.json").read_text(encoding="utf-8"))
BY_NAME = {c.name: c for c in CHECKS}


def _cases(*checks: str) -> list[object]:
    """(check, golden) pairs; a known offender's is a strict xfail."""
    return [
        pytest.param(check, name, id=f"{check}-{name}",
                     marks=[pytest.mark.xfail(strict=True, reason=f"{check}: a known offender")]
                     if name in KNOWN.get(check, []) else [])
        for check in checks for name in GOLDENS
    ]


def _pair(name: str) -> tuple[str, str]:
    folder = PROGRAMS / name
    return (folder / "after.py").read_text(encoding="utf-8"), (folder / "before.py").read_text(encoding="utf-8")


def test_the_known_list_names_checks_and_goldens_that_exist() -> None:
    assert set(KNOWN) <= set(BY_NAME) | {COMMENTS}
    assert {name for names in KNOWN.values() for name in names} <= set(GOLDENS)


@pytest.mark.parametrize(("check", "name"), _cases(*BY_NAME))
def test_golden_has_no_anti_pattern(check: str, name: str) -> None:
    assert BY_NAME[check].find(*_pair(name)) == []


@pytest.mark.parametrize(("check", "name"), _cases(COMMENTS))
def test_golden_keeps_every_comment(check: str, name: str) -> None:
    assert comments_lost(*_pair(name)) == []


HAND = sorted(p.name for p in PROGRAMS.iterdir() if (p / "hand.py").exists())


@pytest.mark.parametrize("name", HAND)
def test_a_hand_rewrite_shows_no_anti_pattern(name: str) -> None:
    # what an expert writes by hand must pass: a check that flags it would flag good code
    hand, before = ((PROGRAMS / name / f).read_text(encoding="utf-8") for f in ("hand.py", "before.py"))
    assert {c.name: c.find(hand, before) for c in CHECKS if c.find(hand, before)} == {}


def _hits(check: str, after: str, before: str = "") -> list[int]:
    return [line for line, _ in BY_NAME[check].find(dedent(after), dedent(before))]


def test_float32_literals_are_seen_and_user_literals_are_not() -> None:
    assert _hits("float32_literal", "opt = Adam(beta_1=0.8999999761581421, beta_2=0.9)\n") == [1]
    assert _hits("float32_literal", "x = 0.1\ny = 0.10000000149011612\n", "y = 0.10000000149011612\n") == []
    assert _hits("float32_literal", "pi = 3.141592653589793\n") == []  # a float64 value, not float32's


def test_an_initializer_called_inside_a_variable_is_seen() -> None:
    after = """\
        x = tf.Variable(tf.constant_initializer(value=3.)([], tf.float32), name='x')
        b = tf.Variable(initial_value=tf.zeros_initializer()([2], tf.float32))
        w = tf.Variable(3.0, name='w')
        z = tf.Variable(tf.zeros([2]))
        """
    assert _hits("initializer_in_variable", after) == [1, 2]


def test_results_unpacked_through_map_structure_are_seen() -> None:
    after = """\
        a, b = tf.nest.map_structure(lambda t: None if t is None else t.numpy(), model.step(X, Y))
        loss = train_step(x, y).numpy()
        """
    assert _hits("numpy_map_structure", after) == [1]


def test_a_step_returning_none_is_seen() -> None:
    after = """\
        @tf.function
        def step(x):
            return [x * 2.0, None]

        def helper(x):
            return [x, None]

        @tf.function(input_signature=[])
        def other():
            return 1.0, 2.0
        """
    assert _hits("step_returns_none", after) == [3]


def test_a_step_named_after_a_user_name_and_suffixed_duplicates_are_seen() -> None:
    before = """\
        optimizer = tf.train.AdamOptimizer(0.1).minimize(cost)
        cost = tf.reduce_mean(x)
        layer_2 = 3
        """
    after = """\
        optimizer_2 = tf.keras.optimizers.Adam(0.1)
        layer_2 = 3

        @tf.function
        def optimizer(X, Y):
            pass

        @tf.function
        def train_step(X, Y):
            pass

        @tf.function
        def cost(X, Y):
            pass
        """
    assert _hits("step_named_after_variable", after, before) == [5, 13]
    # the user's name for a train op, when it says what the step does, is a good name still
    assert _hits("step_named_after_variable", after, before + "train_step = opt.minimize(cost)\n") == [5, 13]
    assert _hits("suffixed_duplicate", after, before) == [1]


def test_a_variable_local_to_a_model_s_init_is_seen() -> None:
    after = """\
        class Model:
            def __init__(self):
                w = tf.Variable(1.0)
                self.b = tf.Variable(0.0)

        def build():
            v = tf.Variable(2.0)
        """
    assert _hits("variable_local_to_init", after) == [3]


def test_internal_names_are_seen() -> None:
    assert _hits("internal_name", "self__x = 1\nself.x = 2\n") == [1]


def test_long_emitted_lines_are_seen_within_the_file_s_own_length() -> None:
    kept = "y = " + "1 + " * 40 + "1\n"  # 165 characters the user wrote: the limit is theirs
    assert _hits("long_line", "x = " + "a" * 97 + "\n") == [1]
    assert _hits("long_line", "x = " + "a" * 96 + "\n") == []
    assert _hits("long_line", kept + "z = " + "b" * 150 + "\n", kept) == []
    assert _hits("long_line", kept + "z = " + "b" * 170 + "\n", kept) == [2]


def test_a_continuation_line_left_behind_by_a_renamed_call_is_seen() -> None:
    before = """\
        h = tf.layers.dense(x, 5,
                            name="hidden")
        g = f(x,
            y)
        """
    after = """\
        h = tf.keras.layers.Dense(5,
                            name="hidden")(x)
        g = f(x,
            y)
        k = tf.concat(
            [a, b], 0)
        m = tf.stack([a,
                      b])
        """
    assert _hits("continuation_misaligned", after, before) == [2]  # g's is the user's own
    # the user's own, on a line the rewrite renamed in
    assert _hits("continuation_misaligned", "y = f(log(x),\naxis=[1])\n", "y = f(tf.log(x),\nreduction_indices=[1])\n") == []


def test_a_forward_pass_copied_into_two_steps_is_seen() -> None:
    after = """\
        @tf.function
        def train_step(x):
            pred = tf.matmul(x, w)
            return pred

        @tf.function
        def evaluate(x):
            pred = tf.matmul(x, w)
            loss = tf.reduce_sum(pred)
            return loss

        def forward(x):
            pred = tf.matmul(x, w)
            return pred
        """
    assert _hits("forward_copied", after) == [8]


def test_lost_comments_are_counted_as_often_as_written() -> None:
    before = "a = 1  # keep this comment\nb = 2  # same\nc = 3  # same\n"
    assert comments_lost("def f(a):  # keep this comment\n    pass  # same\n", before) == ["# same"]
    assert comments_lost(before, before) == []

"""What an optimizer step does, in one vocabulary for TF1 and Keras, and how two rules differ."""

from __future__ import annotations

import numpy as np

from runtime.update_rules import rule_difference, update_rule


def test_a_beta_written_as_its_float32_value_is_the_same_beta() -> None:
    tf1 = update_rule("adam", np.float32(1e-3), beta_1=np.float32(0.9), beta_2=np.float32(0.999),
                      epsilon=np.float32(1e-8), amsgrad=False)
    keras = update_rule("adam", 1e-3, beta_1=0.8999999761581421, beta_2=0.999, epsilon=1e-8, amsgrad=False)
    assert rule_difference(tf1, keras) is None


def test_a_changed_default_is_a_difference_with_both_values() -> None:
    tf1 = update_rule("adam", 1e-3, beta_1=0.9, beta_2=0.999, epsilon=1e-8, amsgrad=False)
    keras = update_rule("adam", 1e-3, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False)
    what, a, b = rule_difference(tf1, keras)
    assert what == "adam epsilon 1e-08 in the original, 1e-07 in the rewrite"
    assert (a, b) == (float(np.float32(1e-8)), float(np.float32(1e-7)))


def test_kind_flags_and_rates_are_compared() -> None:
    sgd = update_rule("sgd", 0.1, momentum=0.9, nesterov=False)
    assert rule_difference(sgd, update_rule("adam", 0.1))[0] == "sgd in the original, adam in the rewrite"
    assert "nesterov False in the original, True" in rule_difference(
        sgd, update_rule("sgd", 0.1, momentum=0.9, nesterov=True))[0]
    assert "learning_rate" in rule_difference(sgd, update_rule("sgd", 0.1001, momentum=0.9, nesterov=False))[0]


def test_a_decayed_rate_computed_in_another_order_is_the_same_rate() -> None:
    rate = np.float32(0.1) * np.float32(0.96) ** np.float32(7)
    other = np.float32(np.float64(0.1) * np.float64(0.96) ** 7)
    assert rule_difference(update_rule("sgd", rate), update_rule("sgd", other)) is None


def test_a_side_without_a_rule_is_not_compared() -> None:
    assert rule_difference(None, update_rule("sgd", 0.1)) is None

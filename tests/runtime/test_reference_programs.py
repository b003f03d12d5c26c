"""The reference programs with their real TF 2.21 outputs (``tf221-programs/*.out``) run on the engine.

Programs whose output holds random initial values are compared with numbers masked: the engine
draws variables from its own name-seeded generator, so only the structure can match.
"""

from __future__ import annotations

import pytest

from tests.runtime.helpers import REFERENCE, mask_numbers, recorded_stdout, run_engine

EXACT = ["a1_const_session", "a2_placeholder", "a3_counter", "a4_zeros_init", "a5_variable_scope",
         "a6_gradients", "a7_linreg_manual", "a8_linreg_tfgradients", "a9_linreg_optimizer",
         "b1_tf_function_graph", "b2_tf_function_args", "b3_variable_counter", "b4_layer_add_variable",
         "b4b_layer_add_variable_init", "b7_tape_in_function", "b8_sgd_apply_eager",
         "b9_sgd_apply_tffunction", "b9b_momentum_apply_tffunction", "b9c_adam_apply_tffunction",
         "b9d_adam_two_var_sets", "b9f_rmsprop_tf1_init_hack", "b10_minimize_callable",
         "b11_second_order", "b12_tape_watch_const", "b6e_model_no_tffunction"]
RANDOM_VALUED = ["b5_layer_add_weight", "b6_model_concrete_fn"]
# TF internals the engine does not reproduce: which trace's concrete function a Keras model
# call leaves behind, and graph name-scope uniquifying of layer names.
TF_INTERNALS = ["b6b_model_concrete_fn_noname", "b6c_model_named_called_first", "b6d_model_unnamed_cf_first"]

pytestmark = pytest.mark.skipif(not REFERENCE.exists(), reason="reference programs not available")


def _run(name: str) -> tuple[str, str, int, int]:
    expected, rc = recorded_stdout(REFERENCE / f"{name}.out")
    proc = run_engine(REFERENCE / f"{name}.py")
    return expected, proc.stdout, rc, proc.returncode


@pytest.mark.parametrize("name", EXACT)
def test_exact_stdout(name: str) -> None:
    expected, got, rc, got_rc = _run(name)
    assert got == expected
    assert (got_rc == 0) == (rc == 0)


@pytest.mark.parametrize("name", RANDOM_VALUED)
def test_random_valued_stdout_structure(name: str) -> None:
    expected, got, rc, got_rc = _run(name)
    assert mask_numbers(got) == mask_numbers(expected)
    assert got_rc == rc


@pytest.mark.parametrize("name", TF_INTERNALS)
@pytest.mark.xfail(reason="depends on TF-internal tracing/name-scope details the engine does not model",
                   strict=True)
def test_tf_internal_details(name: str) -> None:
    expected, got, _, _ = _run(name)
    assert got == expected


def test_variable_created_inside_function_fails_like_tf() -> None:
    expected, got, _, got_rc = _run("b9e_optimizer_created_inside_tffunction")
    assert got_rc == 0
    assert got.startswith("FAILED: ValueError: ")
    tail = "for more information."
    assert expected.strip().endswith(tail) and got.strip().endswith(tail)
    assert "tf.function only supports singleton tf.Variables created on the first call" in got


def test_default_initializer_statistics() -> None:
    """d1 prints glorot-uniform statistics (masked), then imports TF internals: Unsupported."""
    expected, got, _, got_rc = _run("d1_default_initializer")
    exp_lines, got_lines = expected.splitlines(), got.splitlines()
    assert got_lines[0] == exp_lines[0]
    assert [mask_numbers(x) for x in got_lines[1:8]] == [mask_numbers(x) for x in exp_lines[1:8]]
    for line in got_lines[1:7]:
        ratio = float(line.split("|max|/limit=")[1].split()[0])
        assert ratio <= 1.0
    assert got_rc != 0

"""Optimizers against real TensorFlow results (reference/tf221-programs/optimizer-compare).

``tf1_side.py`` (TF1 graph mode, ``tf.train.*Optimizer.minimize``) runs on the engine and its
linear-regression results after 10000 steps are compared with what TF 2.21 printed. Keras 3
optimizers are checked against the engine's TF1 optimizers with the relations real TF showed
(``compare.out``): bitwise where TF was bitwise, otherwise within TF's own measured drift.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from runtime import context
from runtime.keras import optimizers as K
from runtime.ops import math as M
from runtime.optimizers import tf1 as O1
from runtime.tape import GradientTape
from runtime.tensor import EagerTensor
from runtime.variables import Variable
from tests.runtime.helpers import REFERENCE, run_engine

COMPARE = REFERENCE / "optimizer-compare"
# tf1_side.out, printed by TF 2.21 (tf.compat.v1 graph mode): a, b after 10000 steps.
TF1_LINREG_10000 = {
    "gd": [0.9763699769973755, 0.05756506323814392],
    "momentum": [0.9818134307861328, 0.05454785004258156],
    "adam": [0.9818178415298462, 0.05454561114311218],
    "rmsprop": [0.9813181757926941, 0.05404546856880188],
    "adagrad": [0.8742548227310181, 0.11384475231170654],
}


@pytest.mark.skipif(not COMPARE.exists(), reason="optimizer-compare not available")
def test_tf1_side_matches_tensorflow(tmp_path: Path) -> None:
    for name in ("tf1_side.py", "common.py"):
        shutil.copy(COMPARE / name, tmp_path / name)
    proc = run_engine(tmp_path / "tf1_side.py", face="tf1", timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = {}
    for line in proc.stdout.splitlines():
        family, _, rest = line.partition(" linreg a,b @10000 = ")
        got[family] = eval(rest)
    assert got["gd"] == TF1_LINREG_10000["gd"]
    for family, expected in TF1_LINREG_10000.items():
        np.testing.assert_allclose(got[family], expected, rtol=2e-6, err_msg=family)


LR_X = (np.arange(2013, 2018, dtype=np.float32) - 2013) / np.float32(4)
_Y = np.array([12000, 14000, 15000, 16500, 17500], dtype=np.float32)
LR_Y = (_Y - _Y.min()) / (_Y.max() - _Y.min())


def _linreg(opt: object, steps: int) -> np.ndarray:
    with context.eager_mode():
        a, b = Variable(0.0, name="a"), Variable(0.0, name="b")
        x, y = EagerTensor(LR_X), EagerTensor(LR_Y)
        if isinstance(opt, tuple):
            opt = opt[1]
            opt.build([a, b])
            for v in opt.variables[2:]:
                v.assign(np.ones(v.shape, np.float32))
        for _ in range(steps):
            with GradientTape() as tape:
                loss = M.multiply(0.5, M.reduce_sum(M.square(M.subtract(M.add(M.multiply(a, x), b), y))))
            grads = tape.gradient(loss, [a, b])
            opt.apply_gradients(zip(grads, [a, b]))  # type: ignore[attr-defined]
        return np.array([a.numpy(), b.numpy()], np.float32)


CASES = [
    # (TF1 optimizer, Keras 3 form, steps, max |diff| TF 2.21 showed (0 = bitwise))
    (lambda: O1.GradientDescentOptimizer(1e-3), lambda: K.SGD(1e-3), 1000, 0.0),
    (lambda: O1.MomentumOptimizer(1e-3, 0.9), lambda: K.SGD(1e-3, momentum=0.9), 1000, 0.0),
    (lambda: O1.AdamOptimizer(1e-3), lambda: K.Adam(1e-3, epsilon=1e-8), 1000, 1.3e-6),
    (lambda: O1.AdagradOptimizer(1e-2), lambda: K.Adagrad(1e-2, epsilon=0.0), 1000, 0.0),
    (lambda: O1.RMSPropOptimizer(1e-3), lambda: ("ones", K.RMSprop(1e-3, epsilon=1e-10)), 100, 2e-8),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_keras_vs_tf1_like_tensorflow(case: int) -> None:
    make_tf1, make_keras, steps, tol = CASES[case]
    ref = _linreg(make_tf1(), steps)
    got = _linreg(make_keras(), steps)
    if tol == 0.0:
        np.testing.assert_array_equal(got, ref)
    else:
        assert np.max(np.abs(got - ref)) <= 10 * tol


def test_rmsprop_zero_start_differs_from_tf1() -> None:
    """Keras RMSprop starts its accumulator at zero, TF1 at one: a large difference (TF: 4e-3)."""
    ref = _linreg(O1.RMSPropOptimizer(1e-3), 100)
    got = _linreg(K.RMSprop(1e-3, epsilon=1e-10), 100)
    assert np.max(np.abs(got - ref)) > 1e-3


def test_adam_first_step_formula() -> None:
    """One Adam step from zero slots moves each weight by about lr (m/sqrt(v) = sign(g))."""
    got = _linreg(O1.AdamOptimizer(0.1), 1)
    np.testing.assert_allclose(got, [0.1, 0.1], rtol=1e-5)


def test_momentum_nesterov_formula() -> None:
    with context.eager_mode():
        v = Variable(1.0)
        opt = O1.MomentumOptimizer(0.1, 0.9, use_nesterov=True)
        for _ in range(2):
            opt.apply_gradients([(EagerTensor(np.float32(2.0)), v)])
    # accum: 2, then 3.8; var: 1 - (0.2 + 0.18) = 0.62, then 0.62 - (0.2 + 0.342) = 0.078
    np.testing.assert_allclose(v.numpy(), 0.078, rtol=1e-6)


def test_adadelta_tf1_and_keras_formulas_agree() -> None:
    ref = _linreg(O1.AdadeltaOptimizer(1.0, epsilon=1e-7), 50)
    got = _linreg(K.Adadelta(1.0, epsilon=1e-7), 50)
    np.testing.assert_allclose(got, ref, rtol=1e-5)


def test_keras_learning_rate_rules() -> None:
    with pytest.raises(ValueError, match="learning_rate"):
        K.SGD(learning_rate=1)
    opt = K.SGD(0.1)
    with pytest.raises(AttributeError):
        opt.minimize  # noqa: B018
    opt.learning_rate.assign(0.5)
    assert opt.learning_rate.numpy() == np.float32(0.5)

"""The mutation campaign's generator (``benchmarks/mutations.py``): every kind of mistake
makes a program that parses and differs from its input, and a seed fixes the campaign."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from mutations import KINDS, count_sites, mutate, plan

# One small TF2 program with a site for every kind.
PROGRAM = '''\
import numpy as np
import tensorflow as tf

x_all = np.random.RandomState(0).randn(40, 3).astype(np.float32)
x_train, x_test = x_all[:32], x_all[32:]
W = tf.Variable(tf.zeros([3, 1]))
b = tf.Variable(tf.zeros([1]))
dense = tf.keras.layers.Dense(1, activation=tf.nn.relu, use_bias=True, kernel_regularizer=None, name="d")
optimizer = tf.keras.optimizers.Adam(learning_rate=0.01, epsilon=1e-08)
step = tf.Variable(0)


def loss_fn(x):
    hidden = tf.nn.tanh(tf.matmul(x, W) + b)
    target = tf.stop_gradient(-hidden)
    loss = tf.reduce_mean(tf.square(hidden - target), axis=0) + 1e-3 * tf.nn.l2_loss(W)
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=loss)


for i in range(10):
    with tf.GradientTape() as tape:
        loss = loss_fn(x_train[i:i + 4])
    grads = tape.gradient(loss, [W, b])
    optimizer.apply_gradients(zip(grads, [W, b]))
    step.assign_add(1)
    if i > 5:
        print({"loss": float(tf.reduce_sum(loss)), "step": int(step)})
print("test", loss_fn(x_test).numpy())
'''


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_site_of_a_kind_parses_and_differs(kind: str) -> None:
    sites = count_sites(PROGRAM, kind)
    assert sites >= 1, f"the program has no site for {kind}"
    mutants = {mutate(PROGRAM, kind, i) for i in range(sites)}
    assert PROGRAM not in mutants
    assert len(mutants) == sites  # each site is its own mistake
    for mutant in mutants:
        ast.parse(mutant)


def test_there_are_at_least_twelve_kinds_each_saying_what_goes_wrong() -> None:
    assert len(KINDS) >= 12
    assert all(kind.mistake for kind in KINDS.values())


def test_a_site_past_the_last_is_refused() -> None:
    with pytest.raises(IndexError):
        mutate(PROGRAM, "dropped_stop_gradient", count_sites(PROGRAM, "dropped_stop_gradient"))


def test_known_mistakes_are_made_as_written() -> None:
    assert "tf.reduce_sum(tf.square" in mutate(PROGRAM, "reduction_swapped", 0)
    assert "target = -hidden" in mutate(PROGRAM, "dropped_stop_gradient", 0)
    assert "epsilon=1e-07" in "".join(mutate(PROGRAM, "optimizer_default", i) for i in range(3))
    assert "for i in range(11):" in mutate(PROGRAM, "off_by_one_loop", 0)
    moved = mutate(PROGRAM, "eval_before_training", 0)
    assert moved.index('print("test"') < moved.index("for i in range(10):")


def test_a_seed_fixes_the_plan_and_the_kinds_take_turns() -> None:
    sources = {"a": PROGRAM, "b": PROGRAM.replace("range(10)", "range(20)")}
    kinds = sorted(KINDS)
    first = plan(sources, kinds, seed=3)
    assert first == plan(sources, kinds, seed=3)
    assert first != plan(sources, kinds, seed=4)
    assert sorted(m.id for m in first) == sorted(m.id for m in plan(sources, kinds, seed=4))
    assert {m.kind for m in plan(sources, kinds, seed=3, limit=len(kinds))} == set(kinds)

"""Candidate sampling: ``log_uniform_candidate_sampler``, ``nce_loss``, ``sampled_softmax_loss``.

The losses follow TF's ``_compute_sampled_logits`` op for op, so with ``sampled_values`` given
they compute TF's numbers. The sampler draws from TF's log-uniform (Zipfian) distribution and
computes TF's expected counts, but from the engine's own seeded generator: its samples cannot
equal TF's Philox stream, only their distribution and the shapes, dtypes and bookkeeping.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from runtime import context, dtypes
from runtime.convert import convert_to_tensor
from runtime.errors import Unsupported, invalid_argument
from runtime.ops import array as A
from runtime.ops import math as M
from runtime.ops import nn as N
from runtime.ops.random import _seed_key
from runtime.ops.registry import apply, not_differentiable, register


def _log_uniform_make(attrs: dict) -> Any:
    rng = np.random.default_rng(attrs["seed"])
    num_sampled, unique, range_max = attrs["num_sampled"], attrs["unique"], attrs["range_max"]
    log_range = np.log(range_max + 1.0)

    def prob(v: np.ndarray) -> np.ndarray:
        return np.log((v + 2.0) / (v + 1.0)) / log_range

    def expected(p: np.ndarray, tries: int) -> np.ndarray:
        if tries == num_sampled:
            return (p * num_sampled).astype(np.float32)
        return (-np.expm1(tries * np.log1p(-p))).astype(np.float32)

    def kernel(true_classes: np.ndarray) -> tuple:
        picked: list[int] = []
        seen: set[int] = set()
        tries = 0
        while len(picked) < num_sampled:
            tries += 1
            v = int(np.exp(rng.random() * log_range) - 1.0) % range_max
            if not unique or v not in seen:
                seen.add(v)
                picked.append(v)
        sampled = np.asarray(picked, dtype=np.int64)
        return (sampled, expected(prob(true_classes.astype(np.float64)), tries),
                expected(prob(sampled.astype(np.float64)), tries))

    return kernel


def _log_uniform_probe(attrs: dict) -> Any:
    n = attrs["num_sampled"]
    return lambda t: (np.zeros(n, np.int64), np.zeros(t.shape, np.float32), np.zeros(n, np.float32))


register("LogUniformCandidateSampler", _log_uniform_make, stateful=True, n_out=3, probe=_log_uniform_probe)
not_differentiable("LogUniformCandidateSampler")


def log_uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                                  range_max: int, seed: Any = None, name: str | None = None) -> tuple:
    """``(sampled_candidates, true_expected_count, sampled_expected_count)`` as TF returns them."""
    if unique and num_sampled > range_max:
        raise ValueError("Sampler's range is too small.")
    classes = convert_to_tensor(true_classes, dtype_hint=dtypes.int64)
    if classes.dtype != dtypes.int64:
        if context.executing_eagerly():
            raise invalid_argument("cannot compute LogUniformCandidateSampler as input #0(zero-based) was "
                                   f"expected to be a int64 tensor but is a {classes.dtype.name} tensor "
                                   "[Op:LogUniformCandidateSampler] name: ")
        raise TypeError(f"Input 'true_classes' of 'LogUniformCandidateSampler' Op has type "
                        f"{classes.dtype.name} that does not match expected type of int64.")
    return apply("LogUniformCandidateSampler", [classes],
                 {"seed": _seed_key(seed, f"LogUniformCandidateSampler:{num_sampled}:{range_max}"), "num_sampled": int(num_sampled), "unique": bool(unique),
                  "range_max": int(range_max), "num_true": int(num_true)}, name=name)


def _sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
                    num_true: int, sampled_values: Any, remove_accidental_hits: bool, seed: Any) -> tuple:
    """TF's ``_compute_sampled_logits`` with ``subtract_log_q=True``: ``[true | sampled]`` logits
    and their soft labels."""
    if isinstance(weights, (list, tuple)):
        if len(weights) != 1:
            raise Unsupported("sampled losses with partitioned weights")
        weights = weights[0]
    inputs = convert_to_tensor(inputs)
    labels = M.cast(convert_to_tensor(labels), dtypes.int64)
    labels_flat = A.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True, num_classes, seed)
    sampled, true_expected, sampled_expected = (M.stop_gradient(convert_to_tensor(s)) for s in sampled_values)
    sampled = M.cast(sampled, dtypes.int64)
    n_true = A.shape(labels_flat)[0]
    all_ids = A.concat([labels_flat, sampled], 0)
    all_w = A.gather(weights, all_ids)
    if all_w.dtype != inputs.dtype:
        all_w = M.cast(all_w, inputs.dtype)
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    sampled_logits = M.matmul(inputs, sampled_w, transpose_b=True)
    all_b = A.gather(biases, all_ids)
    if all_b.dtype != inputs.dtype:
        all_b = M.cast(all_b, inputs.dtype)
    true_b, sampled_b = all_b[:n_true], all_b[n_true:]
    dim = A.shape(true_w)[1:2]
    row_dots = M.multiply(A.expand_dims(inputs, 1), A.reshape(true_w, A.concat([[-1, num_true], dim], 0)))
    dots = A.reshape(row_dots, A.concat([[-1], dim], 0))
    true_logits = M.add(A.reshape(M.reduce_sum(dots, 1), [-1, num_true]), A.reshape(true_b, [-1, num_true]))
    sampled_logits = M.add(sampled_logits, sampled_b)
    if remove_accidental_hits:
        # TF adds the lowest float to each sampled logit that equals one of the row's labels.
        hits = M.reduce_any(M.equal(A.expand_dims(labels, 2), A.reshape(sampled, [1, 1, -1])), axis=1)
        lowest = convert_to_tensor(np.finfo(sampled_logits.dtype.np).min, dtype=sampled_logits.dtype)
        sampled_logits = M.add(sampled_logits, M.where(hits, lowest, A.zeros_like(sampled_logits)))
    true_logits = M.subtract(true_logits, M.log(M.cast(true_expected, true_logits.dtype)))
    sampled_logits = M.subtract(sampled_logits, M.log(M.cast(sampled_expected, sampled_logits.dtype)))
    out_logits = A.concat([true_logits, sampled_logits], 1)
    out_labels = A.concat([M.divide(A.ones_like(true_logits), float(num_true)), A.zeros_like(sampled_logits)], 1)
    return out_logits, out_labels


def nce_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
             num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = False,
             partition_strategy: str = "mod", name: str = "nce_loss") -> Any:
    """Per-example NCE loss: sigmoid cross entropy over true and sampled logits, summed per row."""
    logits, lab = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                  sampled_values, remove_accidental_hits, None)
    return M.reduce_sum(N.sigmoid_cross_entropy_with_logits(labels=lab, logits=logits), 1)


def sampled_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int,
                         num_classes: int, num_true: int = 1, sampled_values: Any = None,
                         remove_accidental_hits: bool = True, partition_strategy: str = "mod",
                         name: str = "sampled_softmax_loss", seed: Any = None) -> Any:
    """Per-example softmax cross entropy over the true and sampled logits."""
    logits, lab = _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                  sampled_values, remove_accidental_hits, seed)
    return N.softmax_cross_entropy_with_logits_v2(labels=M.stop_gradient(lab), logits=logits)


def nce_loss_v2(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int, num_classes: int,
                num_true: int = 1, sampled_values: Any = None, remove_accidental_hits: bool = False,
                name: str = "nce_loss") -> Any:
    return nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                    remove_accidental_hits, "div", name)


def sampled_softmax_loss_v2(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int,
                            num_classes: int, num_true: int = 1, sampled_values: Any = None,
                            remove_accidental_hits: bool = True, seed: Any = None,
                            name: str = "sampled_softmax_loss") -> Any:
    return sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                sampled_values, remove_accidental_hits, "div", name, seed)


NN_V1 = {"nce_loss": nce_loss, "sampled_softmax_loss": sampled_softmax_loss,
         "log_uniform_candidate_sampler": log_uniform_candidate_sampler}
NN_V2 = {"nce_loss": nce_loss_v2, "sampled_softmax_loss": sampled_softmax_loss_v2}
RANDOM = {"log_uniform_candidate_sampler": log_uniform_candidate_sampler}

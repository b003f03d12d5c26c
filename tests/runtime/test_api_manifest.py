"""The facade is held to TF 2.21's recorded API: names it lacks fail, calls bind as TF binds them.

A rewrite that would crash on real TF 2.21 must not run on the engine: otherwise verify calls a
broken rewrite *equivalent* to its original.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from runtime.api import build, manifest
from runtime.api.binding import as_tf
from runtime.errors import Unsupported
from runtime.verdict import Options, verify_sources

#: A TF1 original; ``CALL`` is where original and rewrite differ.
ORIGINAL = """
import numpy as np
import tensorflow as tf
x = tf.constant(np.array([[1.0, 3.0, 2.0], [0.5, 0.2, 0.9]], np.float32))
labels = tf.constant(np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], np.float32))
y = CALL
with tf.Session() as sess:
    print(sess.run(y))
"""
REWRITE = """
import numpy as np
import tensorflow as tf
x = tf.constant(np.array([[1.0, 3.0, 2.0], [0.5, 0.2, 0.9]], np.float32))
labels = tf.constant(np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], np.float32))
SETUP
print(CALL.numpy())
"""


def verdict_of(tmp_path: Path, original_call: str, rewrite_call: str, setup: str = ""):
    old = ORIGINAL.replace("CALL", original_call)
    new = REWRITE.replace("SETUP", setup).replace("CALL", rewrite_call)
    return verify_sources(old, new, tmp_path, Options(timeout=120), old_face="tf1", new_face="tf2")


@pytest.mark.parametrize(("original", "rewrite", "setup", "error"), [
    # TF 2.21's softmax_cross_entropy_with_logits has ``axis``, not TF1's ``dim``.
    ("tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=x, dim=1)",
     "tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=x, dim=1)", "", "TypeError"),
    # TF1's third positional of argmax is ``name``; TF 2.21's is ``output_type``.
    ("tf.argmax(x, 1, 'best')", "tf.argmax(x, 1, 'best')", "", "TypeError"),
    # TF 2.21's compat.v1 has neither.
    ("tf.nn.relu(x)", "tf.nn.relu(x)", "tf.compat.v1.random.set_seed(1)", "AttributeError"),
    ("tf.nn.relu(x)", "tf.nn.relu(x)", "tf.compat.v1.he_normal_initializer()", "AttributeError"),
    # TF1's initializers took ``dtype``; TF 2.21's (and Keras 3's) do not.
    ("tf.nn.relu(x)", "tf.nn.relu(x)", "tf.zeros_initializer(dtype=tf.float32)", "TypeError"),
    ("tf.nn.relu(x)", "tf.nn.relu(x)", "tf.keras.initializers.GlorotUniform(dtype=tf.float32)", "TypeError"),
    # Keras 3's AveragePooling2D has no default pool size.
    ("tf.nn.relu(x)", "tf.nn.relu(x)", "tf.keras.layers.AveragePooling2D()", "TypeError"),
])
def test_a_rewrite_that_fails_on_tf_221_is_different(tmp_path, original, rewrite, setup, error) -> None:
    verdict = verdict_of(tmp_path, original, rewrite, setup)
    assert verdict.status == "different", verdict.reason
    assert error in verdict.reason


def test_a_tf_parameter_the_engine_lacks_is_unverified_not_different(tmp_path) -> None:
    verdict = verdict_of(tmp_path, "tf.nn.leaky_relu(x - 2.0, alpha=0.1)",
                         "tf.keras.activations.relu(x - 2.0, negative_slope=0.1)")
    assert verdict.status == "unverified", verdict.reason
    assert "tf.keras.activations.relu(negative_slope=...)" in verdict.reason


@pytest.fixture(scope="module")
def tf2() -> dict:
    return build("tf2")


@pytest.fixture(scope="module")
def tf1() -> dict:
    return build("tf1")


@pytest.mark.parametrize(("module", "name"), [
    ("tensorflow.train", "polynomial_decay"), ("tensorflow", "contrib"), ("tensorflow", "Session"),
    ("tensorflow", "placeholder"), ("tensorflow.compat.v1.random", "set_seed"),
    ("tensorflow.compat.v1", "he_normal_initializer"), ("tensorflow.compat.v1", "contrib"),
    ("tensorflow.nn", "softmax_cross_entropy_with_logits_v2"),
])
def test_a_name_tf_221_lacks_is_an_attribute_error(tf2, module, name) -> None:
    with pytest.raises(AttributeError, match=f"has no attribute '{name}'"):
        getattr(tf2[module], name)


@pytest.mark.parametrize(("module", "name"), [
    ("tensorflow.compat.v1.random", "set_seed"), ("tensorflow.compat.v1", "he_normal_initializer"),
    ("tensorflow.compat.v1", "contrib"),
])
def test_the_tf1_face_holds_compat_v1_to_tf_221_too(tf1, module, name) -> None:
    with pytest.raises(AttributeError):
        getattr(tf1[module], name)


def test_the_tf1_face_keeps_tf1_names_at_top_level(tf1) -> None:
    assert tf1["tensorflow"].Session is not None
    assert tf1["tensorflow.train"].polynomial_decay is not None


@pytest.mark.parametrize("path", ["tensorflow.random.categorical", "tensorflow.compat.v1.keras.layers.ConvLSTM2D",
                                  "tensorflow.signal.fft"])
def test_a_real_name_the_engine_lacks_is_unsupported(tf2, path) -> None:
    *modules, name = path.split(".")[1:]
    owner = tf2["tensorflow"]
    for sub in modules:
        owner = getattr(owner, sub)
    with pytest.raises(Unsupported):
        getattr(owner, name)


@pytest.mark.parametrize(("module", "name", "args", "kwargs", "message"), [
    ("tensorflow.nn", "softmax_cross_entropy_with_logits", (), {"labels": 1.0, "logits": 1.0, "dim": 1},
     "unexpected keyword argument 'dim'"),
    ("tensorflow", "reduce_sum", ([1.0],), {"reduction_indices": 0}, "unexpected keyword argument"),
    ("tensorflow", "expand_dims", ([1.0],), {"dim": 0}, "unexpected keyword argument 'dim'"),
    ("tensorflow", "expand_dims", ([1.0], 0, None, 0), {}, "too many positional arguments"),
    ("tensorflow.nn", "conv2d", ([[[[1.0]]]], [[[[1.0]]]]), {}, "missing a required argument: 'strides'"),
    ("tensorflow.nn", "relu", (), {"x": 1.0}, "unexpected keyword argument 'x'"),
    ("tensorflow", "cond", (True, lambda: 1, lambda: 2), {"strict": True}, "unexpected keyword argument 'strict'"),
])
def test_a_call_tf_would_not_bind_is_a_type_error_naming_the_function(tf2, module, name, args, kwargs,
                                                                      message) -> None:
    path = f"tf{module[len('tensorflow'):]}.{name}"
    with pytest.raises(TypeError, match=rf"^{path}\(\) .*{message}"):
        getattr(tf2[module], name)(*args, **kwargs)


def test_positional_arguments_mean_what_they_mean_on_tf(tf2) -> None:
    tf = tf2["tensorflow"]
    x = tf.constant([[1.0, 3.0, 2.0]])
    assert tf.argmax(x, 1, tf.int32).dtype == tf.int32  # TF 2.21's third is output_type, not name
    assert tf.nn.relu(features=x).numpy().tolist() == [[1.0, 3.0, 2.0]]  # TF's name for the engine's x


def test_a_bound_class_stands_for_the_engine_class(tf2) -> None:
    keras = tf2["tensorflow.keras"]
    adam = keras.optimizers.Adam
    assert adam is not tf2["tensorflow.keras.optimizers"]._served["Adam"]  # bound: signatures differ
    assert isinstance(keras.optimizers.get("adam"), adam)  # made by the engine, not the facade
    assert isinstance(adam(0.1), keras.optimizers.Optimizer)

    class Mine(keras.layers.Dense):
        pass

    assert isinstance(Mine(2), keras.layers.Dense)
    assert not isinstance(keras.layers.Dense(2), Mine)
    with pytest.raises(TypeError, match=r"^tf.keras.initializers.GlorotUniform\(\) got an unexpected keyword"):
        keras.initializers.GlorotUniform(dtype="float32")


def test_a_function_whose_signature_matches_is_handed_out_unwrapped() -> None:
    def relu(features, name=None):
        return features

    assert as_tf(relu, "features, name=", "tf.nn.relu") is relu
    assert as_tf(relu, "x, name=", "tf.nn.relu") is not relu


def test_binding_moves_keywords_to_the_engines_names() -> None:
    def engine(x, axis=None, name=None, dimension=None, output_type="int64"):
        return (x, axis, name, output_type)

    bound = as_tf(engine, "input, axis=, output_type=, name=", "tf.argmax")
    assert bound(1, 0, "int32") == (1, 0, None, "int32")
    assert bound(input=1, output_type="int32", name="n") == (1, None, "n", "int32")
    with pytest.raises(TypeError, match=r"^tf.argmax\(\) got an unexpected keyword argument 'dimension'"):
        bound(1, dimension=0)


@pytest.mark.parametrize("text", ["", "x", "x, /, y=, *args, k, z=, **kw", "a, b=, *, c, d=", "x, /"])
def test_signature_text_round_trips(text) -> None:
    def fn(*args, **kwargs):
        return None

    fn.__signature__ = manifest.parse_signature(text)
    assert manifest.signature_text(fn) == text


def test_every_engine_name_is_one_tf_221_has(tf2, tf1) -> None:
    """In both faces, every name a facade module hands out is in the recorded module (the TF1
    face's top level, which serves TF 1.x on purpose, aside)."""
    for face in (tf2, tf1):
        for import_name, mod in face.items():
            real = mod.__dict__.get("_real_path")
            info = manifest.module(real) if real and mod.__dict__.get("_checked") else None
            if info is None:
                continue
            extra = [name for name in dir(mod) if name not in info.names]
            assert not extra, (import_name, extra)

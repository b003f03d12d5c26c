"""Unit checks of engine pieces whose expected behaviour is fixed by TF's documentation or math."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from runtime import context, dtypes
from runtime.errors import Unsupported
from runtime.importer import detect_face
from runtime.shapes import TensorShape
from tests.runtime.helpers import ROOT, run_engine


def test_detect_face() -> None:
    assert detect_face("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n") == "tf1"
    assert detect_face("import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n") == "tf1"
    assert detect_face("import tensorflow as tf\nv = tf.Variable(1.0)\n") == "tf2"
    init = "import tensorflow as tf\nb = tf.Variable(tf.constant_initializer(0.1)([3]))\n"
    assert detect_face(init) == "tf2"  # TF 2.21 has tf.constant_initializer
    assert detect_face("import tensorflow.compat.v1 as tf\nx = tf.placeholder(tf.float32)\n") == "tf2"


def test_import_runtime_does_not_install_hook() -> None:
    code = "import runtime, runtime.api, runtime.ops\nimport importlib.util\nprint(importlib.util.find_spec('tensorflow'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), check=False)
    assert out.stdout.strip() == "None"


def test_unsupported_and_missing_names(tmp_path: Path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text(
        "import tensorflow as tf\n"
        "from runtime.errors import Unsupported\n"
        "try:\n    tf.data.TFRecordDataset\nexcept Unsupported as e:\n    print(isinstance(e, NotImplementedError), e)\n"
        "try:\n    tf.placeholder\nexcept AttributeError as e:\n    print(e)\n")
    proc = run_engine(prog, face="tf2")
    assert proc.stdout.splitlines() == [
        "True tf.data.TFRecordDataset is not supported by the tfmigrate engine",
        "module 'tensorflow' has no attribute 'placeholder'",
    ]


def test_run_passes_argv_stdin_and_exit_status(tmp_path: Path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text("import sys\nprint(sys.argv[1:], input())\nraise SystemExit(3)\n")
    proc = subprocess.run([sys.executable, "-m", "runtime.run", str(prog), "a", "--b"], input="hi\n",
                          capture_output=True, text=True, cwd=str(ROOT), check=False)
    assert proc.stdout == "['a', '--b'] hi\n"
    assert proc.returncode == 3


def test_uncaught_exception_exit_status(tmp_path: Path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text("raise KeyError('x')\n")
    proc = run_engine(prog)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == "KeyError: 'x'"


def test_dtypes_and_shapes() -> None:
    assert str(dtypes.float32) == "<dtype: 'float32'>" and repr(dtypes.int64) == "tf.int64"
    assert dtypes.infer_dtype(1.0) == dtypes.float32 and dtypes.infer_dtype(2) == dtypes.int32
    assert dtypes.as_dtype(np.float64) == dtypes.float64
    s = TensorShape([None, 10])
    assert str(s) == "(None, 10)" and s[1] == 10 and s[0] is None and s.as_list() == [None, 10]
    assert str(TensorShape([3])) == "(3,)" and repr(TensorShape([2, 10])) == "TensorShape([2, 10])"
    with pytest.raises(ValueError, match="unknown rank"):
        len(TensorShape(None))


def test_bfloat16_names_and_compares_but_makes_no_tensor(tmp_path: Path) -> None:
    # a program may test a dtype against tf.bfloat16 (TF1 layers do); TF 2.21 prints the same
    assert str(dtypes.bfloat16) == "<dtype: 'bfloat16'>" and dtypes.as_dtype("bfloat16") == dtypes.bfloat16
    assert dtypes.float16 != dtypes.bfloat16 and dtypes.float32 in (dtypes.float32, dtypes.bfloat16)
    program = tmp_path / "cast.py"
    program.write_text("import tensorflow as tf\nprint(tf.float16 == tf.bfloat16)\ntf.cast(tf.constant([1.0]), tf.bfloat16)\n")
    done = run_engine(program)
    assert done.returncode != 0 and done.stdout == "False\n"
    assert "Unsupported: tf.bfloat16 tensors is not supported by the tfmigrate engine" in done.stderr


def test_session_plan_is_compiled_once() -> None:
    import runtime.ops  # noqa: F401
    from runtime.graph import Graph
    from runtime.ops import array as A
    from runtime.ops import math as M
    from runtime.session import Session

    g = Graph()
    with g.as_default(), context.eager_mode():
        context.STATE.eager_enabled = False
        try:
            x = A.placeholder(dtypes.float32, [2])
            y = M.multiply(x, 2.0)
            sess = Session(graph=g)
            for i in range(3):
                np.testing.assert_array_equal(sess.run(y, {x: [i, 1]}), [2 * i, 2])
            assert len(g.plan_cache) == 1
            sess.run([y, x], {x: [0, 0]})
            assert len(g.plan_cache) == 2
        finally:
            context.STATE.eager_enabled = True


def test_folded_values_are_not_shared_with_callers() -> None:
    """A plan computes constant subgraphs once; what a caller gets back is still its own array."""
    import runtime.ops  # noqa: F401
    from runtime.graph import Graph
    from runtime.ops import array as A
    from runtime.ops import math as M
    from runtime.session import Session

    g = Graph()
    with g.as_default(), context.eager_mode():
        context.STATE.eager_enabled = False
        try:
            c = M.add(A.zeros([3]), 1.0)
            plus = M.add(c, 1.0)
            sess = Session(graph=g)
            first = sess.run(c)
            first += 5.0
            np.testing.assert_array_equal(sess.run(c), [1.0, 1.0, 1.0])
            np.testing.assert_array_equal(sess.run(plus), [2.0, 2.0, 2.0])
            np.testing.assert_array_equal(sess.run(plus, {c: [0.0, 1.0, 2.0]}), [1.0, 2.0, 3.0])
            plan = next(iter(g.plan_cache.values()))
            assert plan.steps == [], "a constant subgraph runs no kernel per step"
        finally:
            context.STATE.eager_enabled = True


def test_unsupported_is_not_implemented() -> None:
    assert issubclass(Unsupported, NotImplementedError)
    assert str(Unsupported("tf.foo.bar")) == "tf.foo.bar is not supported by the tfmigrate engine"


def test_variable_initial_values_depend_only_on_name(tmp_path: Path) -> None:
    """TF1 get_variable under scope ``dense1`` and weight ``weight`` of a Keras layer ``dense1``
    (inside a model, so its path is ``model/dense1/weight``) start equal."""
    tf1 = tmp_path / "a.py"
    tf1.write_text("import tensorflow.compat.v1 as tf\ntf.disable_eager_execution()\n"
                   "with tf.variable_scope('dense1'):\n    w = tf.get_variable('weight', [3, 2])\n"
                   "with tf.Session() as s:\n    s.run(tf.global_variables_initializer())\n    print(s.run(w).tolist())\n")
    tf2 = tmp_path / "b.py"
    tf2.write_text("import tensorflow as tf\nclass D(tf.keras.layers.Layer):\n"
                   "    def build(self, s):\n        self.weight = self.add_weight(name='weight', shape=(3, 2))\n"
                   "    def call(self, x):\n        return x\n"
                   "class M(tf.keras.Model):\n    def __init__(self):\n        super().__init__()\n"
                   "        self.d = D(name='dense1')\n    def call(self, x):\n        return self.d(x)\n"
                   "m = M()\nm(tf.ones([1, 3]))\nprint(m.d.weight.numpy().tolist())\n")
    a, b = run_engine(tf1), run_engine(tf2)
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert a.stdout == b.stdout
    vals = np.array(eval(a.stdout))
    limit = np.sqrt(6 / 5)
    assert np.all(np.abs(vals) <= limit) and len(set(vals.ravel().tolist())) == 6


# Output recorded from TF 2.21: top-level init_ops_v2 initializers and their TF2 defaults, a scalar
# variable's text, and .numpy() on a symbolic tensor inside tf.function.
TF2_TOP_LEVEL_PROGRAM = """\
import tensorflow as tf

print(tf.constant_initializer(3.0)([2]).numpy())
print(tf.zeros_initializer()([2], tf.float32).numpy())
print(tf.ones_initializer()([2]).numpy())
r = tf.random_normal_initializer()
print(r.mean, r.stddev, r([3]).shape)
u = tf.random_uniform_initializer()
print(u.minval, u.maxval)
print(hasattr(tf, "glorot_uniform_initializer"), hasattr(tf, "truncated_normal_initializer"))
v = tf.Variable(0.9999985694885254, name="x")
print(f"{v}")
print(str(v))


@tf.function
def f(x):
    try:
        x.numpy()
    except AttributeError as e:
        print("AttributeError", e)
    return x


f(tf.constant(1.0))
"""
TF2_TOP_LEVEL_EXPECTED = """\
[3. 3.]
[0. 0.]
[1. 1.]
0.0 0.05 (3,)
-0.05 0.05
False False
<tf.Variable 'x:0' shape=() dtype=float32, numpy=0.9999985694885254>
<tf.Variable 'x:0' shape=() dtype=float32, numpy=0.9999985694885254>
AttributeError 'SymbolicTensor' object has no attribute 'numpy'
"""


def test_tf2_top_level_initializers_variable_text_and_symbolic_numpy(tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    program.write_text(TF2_TOP_LEVEL_PROGRAM)
    done = run_engine(program, face="tf2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == TF2_TOP_LEVEL_EXPECTED


# Output recorded from TF 2.21: repeated calls reuse cached argument checks, yet a wrong shape
# still fails; a tf.Graph().as_default() block in an eager program hashes and compares tensors
# as TF1 does while bool() stays refused.
REPEATED_CALLS_PROGRAM = """\
import numpy as np
import tensorflow as tf

v = tf.Variable(1.0)


@tf.function(input_signature=[tf.TensorSpec([5], tf.float32)])
def f(x):
    return tf.reduce_sum(x) * v


print(f(np.ones(5, np.float32)).numpy(), f(np.ones(5, np.float32)).numpy())
try:
    f(np.ones(4, np.float32))
except (TypeError, ValueError) as e:
    print(type(e).__name__)
print(f(np.arange(5, dtype=np.float32)).numpy())
g = tf.compat.v1.Graph()
with g.as_default():
    p = tf.compat.v1.placeholder(tf.float32, [None, 2])
    s = tf.reduce_sum(p)
    with tf.compat.v1.Session() as sess:
        print(sess.run(s, {p: np.ones((3, 2))}), sess.run(s, {p: np.ones((3, 2))}))
        try:
            sess.run(s, {p: np.ones((3, 3))})
        except ValueError as e:
            print("ValueError", e)
    print(p == p, p != p)
    try:
        bool(s)
    except TypeError as e:
        print(type(e).__name__, str(e)[:40])
"""
REPEATED_CALLS_EXPECTED = """\
5.0 5.0
TypeError
10.0
6.0 6.0
ValueError Cannot feed value of shape (3, 3) for Tensor Placeholder:0, which has shape (None, 2)
True False
OperatorNotAllowedInGraphError Using a symbolic `tf.Tensor` as a Python
"""


def test_repeated_calls_still_validate_and_graph_block_tensors_hash(tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    program.write_text(REPEATED_CALLS_PROGRAM)
    done = run_engine(program, face="tf2")
    assert done.returncode == 0, done.stderr
    assert done.stdout == REPEATED_CALLS_EXPECTED


def test_tf1_layers_names_missing_from_the_engine_are_unsupported(tmp_path: Path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text(
        "import tensorflow as tf\n"
        "for name in ('separable_conv2d', 'bogus'):\n"
        "    try:\n        getattr(tf.layers, name)\n"
        "    except (NotImplementedError, AttributeError) as e:\n        print(type(e).__name__, e)\n")
    proc = run_engine(prog, face="tf1")
    assert proc.stdout.splitlines() == [
        "Unsupported tf.layers.separable_conv2d is not supported by the tfmigrate engine",
        "AttributeError module 'tensorflow.layers' has no attribute 'bogus'",
    ]


def test_checkpoint_restore_into_an_unbuilt_layer_is_unsupported(tmp_path: Path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text(
        "import tensorflow as tf\n"
        "layer = tf.keras.layers.Dense(2)\n"
        "layer.build((None, 3))\n"
        "path = tf.train.Checkpoint(net=layer).write('ck')\n"
        "fresh = tf.train.Checkpoint(net=tf.keras.layers.Dense(2))\n"
        "fresh.restore(path)\n")
    proc = run_engine(prog, face="tf2")
    assert proc.returncode == 1
    assert "deferred restoration) is not supported by the tfmigrate engine" in proc.stderr


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64])
def test_mean_kernel_matches_numpy_mean_bit_for_bit(dtype: type) -> None:
    from runtime.ops.math import _mean

    rng = np.random.default_rng(0)
    for shape in [(), (7,), (64,), (3, 4), (2, 3, 5), (0,), (3, 0)]:
        x = (rng.standard_normal(shape) * 100).astype(dtype)
        axes = [None, *[(a,) for a in range(len(shape))], *([(0, len(shape) - 1)] if len(shape) > 1 else [])]
        for axis in axes:
            for keepdims in (False, True):
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # np.mean warns on an empty slice; TF does not
                    want = np.asarray(np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype))
                    got = np.asarray(_mean(x, axis, keepdims))
                assert (got.dtype, got.shape, got.tobytes()) == (want.dtype, want.shape, want.tobytes())


def test_a_variable_made_in_a_function_from_one_it_updated_is_refused(tmp_path: Path) -> None:
    # TF 2.21 computes this initializer in place on the first call, after the update (the new
    # variable starts at 2.0); the engine computes initializers before the body, so it refuses.
    prog = tmp_path / "p.py"
    prog.write_text(
        "import tensorflow as tf\n"
        "v = tf.Variable(1.0)\n"
        "made = []\n"
        "@tf.function\n"
        "def f():\n"
        "    v.assign_add(1.0)\n"
        "    if not made:\n"
        "        made.append(tf.Variable(v))\n"
        "    return made[0].read_value()\n"
        "print(f().numpy())\n"
    )
    out = run_engine(prog, face="tf2")
    assert out.returncode != 0
    assert "Unsupported: a tf.function creating a variable from a variable it updated before" in out.stderr


def test_a_variable_made_in_a_function_from_one_it_did_not_update_starts_at_its_value(tmp_path: Path) -> None:
    prog = tmp_path / "p.py"
    prog.write_text(
        "import tensorflow as tf\n"
        "v = tf.Variable(1.0)\n"
        "made = []\n"
        "@tf.function\n"
        "def f():\n"
        "    if not made:\n"
        "        made.append(tf.Variable(v))\n"
        "    v.assign_add(1.0)\n"
        "    return made[0].read_value()\n"
        "print(f().numpy(), f().numpy(), v.numpy())\n"
    )
    out = run_engine(prog, face="tf2")
    assert out.stdout == "1.0 1.0 3.0\n", out.stderr

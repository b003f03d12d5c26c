"""The import hook that makes ``import tensorflow`` resolve to the engine's facade.

Installed only by ``runtime.run`` (inside the engine's subprocess), never on ``import runtime``.
"""

from __future__ import annotations

import ast
import importlib.machinery
import sys
import types
from typing import Any

# Names that exist only in TF 1.x's top-level namespace: using one through a plain
# ``import tensorflow`` means the program was written for the TF 1.x face.
TF1_ONLY_NAMES = frozenset({
    "placeholder", "Session", "InteractiveSession", "get_variable", "variable_scope",
    "global_variables_initializer", "initialize_all_variables", "local_variables_initializer",
    "get_default_graph", "reset_default_graph", "placeholder_with_default", "assign", "assign_add",
    "assign_sub", "random_normal", "random_uniform", "truncated_normal", "set_random_seed", "log",
    "global_variables", "trainable_variables", "get_collection", "add_to_collection", "GraphKeys",
    "layers", "contrib", "to_float", "to_int32", "variables_initializer", "AUTO_REUSE", "get_variable_scope",
    "Print", "arg_max", "div", "truncated_normal_initializer", "glorot_uniform_initializer",
    "logging", "app", "flags",
})  # not tf.zeros_initializer, tf.constant_initializer, tf.random_normal_initializer: TF2 has them
# TF 1.x top-level linear algebra and segment names (tf.linalg.* / tf.math.* in TF2).
TF1_ONLY_NAMES |= frozenset({
    "matrix_inverse", "matrix_determinant", "matrix_solve", "matrix_solve_ls", "cholesky", "diag", "diag_part",
    "matrix_diag", "matrix_diag_part", "matrix_set_diag", "matrix_transpose", "matrix_band_part", "segment_sum",
    "unsorted_segment_sum", "segment_max", "segment_min", "segment_mean", "unsorted_segment_max",
    "unsorted_segment_min", "unsorted_segment_mean",
})
TF1_TRAIN_NAMES = frozenset({"GradientDescentOptimizer", "MomentumOptimizer", "AdamOptimizer",
                             "AdagradOptimizer", "RMSPropOptimizer", "AdadeltaOptimizer", "Saver",
                             "get_or_create_global_step", "get_global_step"})


def detect_face(source: str) -> str:
    """``tf1`` if the program uses TF1-only names through a plain ``import tensorflow``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "tf2"
    aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "tensorflow":
                    aliases.add(a.asname or "tensorflow")
    if not aliases:
        return "tf2"
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.attr in TF1_ONLY_NAMES):
            return "tf1"
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                and isinstance(node.value.value, ast.Name) and node.value.value.id in aliases
                and node.value.attr == "train" and node.attr in TF1_TRAIN_NAMES):
            return "tf1"
    return "tf2"


class UnsupportedModule(types.ModuleType):
    """TF internals (``tensorflow.python.*``) and ``tf.contrib``: importable, unusable, loudly."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        from runtime.errors import Unsupported

        raise Unsupported(f"{self.__name__}.{name}")


class _Loader:
    """Import loader protocol (not subclassing importlib.abc, whose import pulls in
    importlib.resources, tempfile and pathlib)."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def create_module(self, spec: Any) -> types.ModuleType:
        return self.module

    def exec_module(self, module: types.ModuleType) -> None:
        return None


class EngineFinder:
    """Serves ``tensorflow`` and its submodules from the facade of one face (a meta path finder)."""

    def __init__(self, face: str) -> None:
        self.face = face
        self._modules: dict[str, types.ModuleType] | None = None

    def modules(self) -> dict[str, types.ModuleType]:
        if self._modules is None:
            import runtime.ops  # noqa: F401 - registers every op
            from runtime.api import build

            self._modules = build(self.face)
            from runtime.datasets import mount

            mount(self._modules)
            _mount_framework_ops(self._modules)
            if self.face == "tf1":
                from runtime import context, shapes

                context.STATE.eager_enabled = False
                shapes.V1_DIMENSIONS = True
        return self._modules

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname in ABSL_MODULES:
            # TF1's flags are absl's: the engine's tf.compat.v1.flags shares this registry
            return importlib.machinery.ModuleSpec(fullname, _Loader(absl_module(fullname)),
                                                  is_package=fullname == "absl")
        if fullname != "tensorflow" and not fullname.startswith("tensorflow."):
            return None
        mods = self.modules()
        mod = mods.get(fullname)
        if mod is None:
            if fullname.startswith(("tensorflow.python", "tensorflow.contrib")):
                mod = UnsupportedModule(fullname)
            else:
                return None
        is_pkg = isinstance(mod, UnsupportedModule) or any(k.startswith(fullname + ".") for k in mods)
        spec = importlib.machinery.ModuleSpec(fullname, _Loader(mod), is_package=is_pkg)
        if is_pkg:
            spec.submodule_search_locations = []
        return spec


#: What TF1 code reaches through ``from tensorflow.python.framework import ops`` (course code
#: resets the graph so): TF's own ``tf.compat.v1`` functions, which are these.
FRAMEWORK_OPS = ("reset_default_graph", "get_default_graph")


def _mount_framework_ops(modules: dict[str, types.ModuleType]) -> None:
    """``tensorflow.python.framework.ops`` with `FRAMEWORK_OPS`; any other name of the
    package stays a loud Unsupported."""
    v1 = modules["tensorflow"].compat.v1  # type: ignore[attr-defined]
    ops = UnsupportedModule("tensorflow.python.framework.ops")
    for name in FRAMEWORK_OPS:
        setattr(ops, name, getattr(v1, name))
    framework = UnsupportedModule("tensorflow.python.framework")
    framework.ops = ops  # type: ignore[attr-defined]
    python = UnsupportedModule("tensorflow.python")
    python.framework = framework  # type: ignore[attr-defined]
    modules.update({"tensorflow.python": python, "tensorflow.python.framework": framework,
                    "tensorflow.python.framework.ops": ops})


ABSL_MODULES = ("absl", "absl.flags", "absl.app")
_ABSL: dict[str, types.ModuleType] = {}


def absl_module(name: str) -> types.ModuleType:
    """The engine's ``absl`` package and its ``flags`` and ``app`` modules (one of each)."""
    if not _ABSL:
        from runtime import flags

        for full, table in (("absl", {}), ("absl.flags", flags.FLAGS_TABLE), ("absl.app", flags.APP_TABLE)):
            module = types.ModuleType(full)
            vars(module).update(table)
            _ABSL[full] = module
        _ABSL["absl"].flags, _ABSL["absl"].app = _ABSL["absl.flags"], _ABSL["absl.app"]
    return _ABSL[name]


def install(face: str) -> EngineFinder:
    finder = EngineFinder(face)
    sys.meta_path.insert(0, finder)
    return finder

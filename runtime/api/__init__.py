"""The ``tensorflow`` facade, built from the tables in ``runtime.api.tables``.

Two faces: ``tf2`` (TF 2.21's public API) and ``tf1`` (TF 1.x names at top level, graph mode).
Every module TF 2.21 has is held to its recorded API (``runtime.api.manifest``), except the TF1
face's top level, which serves TF 1.x: a name TF 2.21 does not have raises the AttributeError TF
would, even where the engine has it; a name TF 2.21 has but the engine lacks raises
``Unsupported``; a function is called as TF's signature binds the arguments.
"""

from __future__ import annotations

import inspect
import types
from typing import Any

from runtime.api import manifest
from runtime.api.binding import as_tf, class_as_tf
from runtime.errors import Unsupported


def real_api() -> dict[str, dict]:
    """TF 2.21's public names per module path (aliases resolved), as ``{"module", "names"}``."""
    api = {}
    for path in manifest.paths():
        info = manifest.module(path)
        if info is not None:
            api[path] = {"module": info.module, "names": sorted(info.names)}
    return api


#: Modules whose TF 1.15 names TF 2.21 no longer lists (Keras 3 emptied ``tf.compat.v1.layers``);
#: only the TF 1.x face serves these paths as ApiModules, so a miss there is Unsupported.
TF115_NAMES = {"tf.compat.v1.layers": frozenset(
    f"{kind}{dims}" for kind in ("average_pooling", "max_pooling", "conv", "separable_conv")
    for dims in ("1d", "2d", "3d")) | {
    "conv2d_transpose", "conv3d_transpose", "batch_normalization", "dense", "dropout", "flatten",
    "AveragePooling1D", "AveragePooling2D", "AveragePooling3D", "BatchNormalization", "Conv1D", "Conv2D",
    "Conv3D", "Conv2DTranspose", "Conv3DTranspose", "Dense", "Dropout", "Flatten", "InputSpec", "Layer",
    "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "SeparableConv1D", "SeparableConv2D"}}


class ApiModule(types.ModuleType):
    """A facade module: table entries as attributes; misses fail loudly and precisely."""

    def __init__(self, import_name: str, api_path: str, real_path: str | None = None) -> None:
        super().__init__(import_name)
        self.__dict__["_api_path"] = api_path
        self.__dict__["_real_path"] = real_path or api_path
        #: Whether the recorded TF 2.21 module constrains this one (the TF1 face's top level serves TF 1.x).
        self.__dict__["_checked"] = True
        #: The engine's objects for this module, handed out (and checked) on first use.
        self.__dict__["_served"] = {}

    def serve(self, table: dict[str, Any]) -> None:
        self._served.update(table)

    def _real(self) -> manifest.ModuleInfo | None:
        return manifest.module(self._real_path) if self._checked else None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        info = manifest.module(self._real_path)
        if name in self._served:
            value = self._served[name]
            if not self._checked or info is None:
                setattr(self, name, value)
                return value
            if name in info.names:
                if name in info.signatures:
                    value = _bound(value, info.signatures[name], f"{self._api_path}.{name}")
                setattr(self, name, value)
                return value
        sub_path = f"{self._real_path}.{name}"
        if manifest.module(sub_path) is not None:
            sub = ApiModule(f"{self.__name__}.{name}", f"{self._api_path}.{name}", sub_path)
            setattr(self, name, sub)
            return sub
        if (info is not None and name in info.names) or name in TF115_NAMES.get(self._real_path, ()):
            raise Unsupported(f"{self._api_path}.{name}")
        shown = info.module if info is not None else self.__name__
        if self._real_path == "tf":
            shown = "tensorflow"
        raise AttributeError(f"module '{shown}' has no attribute '{name}'")

    def __dir__(self) -> list[str]:
        info = self._real()
        served = [k for k in self._served if info is None or k in info.names]
        return sorted({k for k in self.__dict__ if not k.startswith("_")} | set(served))


def _bound(value: Any, tf_text: str, api_name: str) -> Any:
    """``value`` as the facade hands it out: bound by TF's signature where it is a function, or a
    class a program constructs (``tables.BOUND_CLASSES``)."""
    if inspect.isfunction(value):
        return as_tf(value, tf_text, api_name)
    from runtime.api.tables import binds_constructor

    if isinstance(value, type) and binds_constructor(value):
        return class_as_tf(value, tf_text, api_name)
    return value


class LegacyOptimizers(types.ModuleType):
    """``tf.keras.optimizers.legacy`` does not exist in Keras 3: constructing one fails."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _legacy_optimizer

    @staticmethod
    def _unavailable() -> ImportError:
        return ImportError(
            "`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to continue "
            "using a `tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` package "
            "(Keras 2) and set the environment variable `TF_USE_LEGACY_KERAS=True` to configure "
            "TensorFlow to use `tf_keras` when accessing `tf.keras`.")


def _legacy_optimizer(*args: Any, **kwargs: Any) -> Any:
    raise LegacyOptimizers._unavailable()


class Keras3V1Layers(types.ModuleType):
    """``tf.compat.v1.layers`` in TF 2.21: every layer function is gone with Keras 3."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"`{name}` is not available with Keras 3.")


class Keras3V1RnnCells(Keras3V1Layers):
    """``tf.compat.v1.nn.rnn_cell`` in TF 2.21: the cell classes are gone with Keras 3."""


class Tf1OnlyModule(types.ModuleType):
    """A TF 1.x-only module (``tf.nn.rnn_cell``, ``tf.contrib.rnn``): the engine's names as
    attributes; any other member is Unsupported, by name."""

    def __init__(self, import_name: str, api_path: str, table: dict) -> None:
        super().__init__(import_name)
        self.__dict__["_api_path"] = api_path
        self.__dict__.update(table)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise Unsupported(f"{self._api_path}.{name}")


class ContribModule(types.ModuleType):
    """``tf.contrib`` (TF 1.x face only): every member is Unsupported, by name."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise Unsupported(f"tf.contrib.{name}")


def build(face: str) -> dict[str, types.ModuleType]:
    """All modules of one face, keyed by import name (``tensorflow``, ``tensorflow.compat.v1``...)."""
    from runtime.api import tables

    return tables.build_modules(face)

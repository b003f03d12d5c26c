"""Checkpoints: TF1 ``tf.train.Saver`` and TF2 ``tf.train.Checkpoint`` / ``CheckpointManager``.

Files keep TF's names (``model.ckpt-100.index``, ``.data-00000-of-00001``, ``.meta`` and the
``checkpoint`` state file in TF's text format, so programs that print or list paths see TF's),
but the contents are the engine's own: a NumPy archive of values keyed by variable name (Saver)
or by object path (Checkpoint). Only the engine reads them back; what each save writes is also
reported to the trace (``trace.checkpoint_written``), so the verifier compares it.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from runtime import context, dtypes, trace
from runtime.errors import NotFoundError
from runtime.keras.layers import Layer
from runtime.keras.optimizers import Optimizer as KerasOptimizer
from runtime.keras.variables import KerasVariable
from runtime.module import Module
from runtime.variables import Variable

_DATA = ".data-00000-of-00001"
_STATE = "checkpoint"


# --- files ----------------------------------------------------------------------------------------


def _save(prefix: str, variables: dict[str, Variable], meta: bool) -> None:
    """Write the variables' current values, and report them to the trace."""
    values = {k: v._read().copy() for k, v in variables.items()}
    _write(prefix, values, meta)
    trace.checkpoint_written((variables[k], values[k]) for k in values)


def _write(prefix: str, values: dict[str, np.ndarray], meta: bool) -> None:
    parent = os.path.dirname(prefix) or "."
    if not os.path.isdir(parent):
        raise ValueError(f"Parent directory of {prefix} doesn't exist, can't save.")
    with open(prefix + _DATA, "wb") as fh:
        np.savez(fh, **{f"v{i}": v for i, v in enumerate(values.values())})
    with open(prefix + ".index", "w", encoding="utf-8") as fh:
        json.dump({"format": "tfmigrate engine checkpoint", "keys": list(values)}, fh)
    if meta:
        with open(prefix + ".meta", "w", encoding="utf-8") as fh:
            fh.write("tfmigrate engine meta graph\n")


def _read(prefix: str) -> dict[str, np.ndarray]:
    if not os.path.isfile(prefix + ".index"):
        raise NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any matching "
                            f"files for {prefix}")
    with open(prefix + ".index", encoding="utf-8") as fh:
        keys = json.load(fh)["keys"]
    with np.load(prefix + _DATA, allow_pickle=False) as archive:
        return {k: archive[f"v{i}"] for i, k in enumerate(keys)}


def _remove(prefix: str) -> None:
    for suffix in (".index", _DATA, ".meta"):
        if os.path.exists(prefix + suffix):
            os.remove(prefix + suffix)


class CheckpointState:
    """The ``checkpoint`` state file (``tf.train.get_checkpoint_state``)."""

    def __init__(self, model_checkpoint_path: str, all_model_checkpoint_paths: list[str]) -> None:
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)

    def __str__(self) -> str:
        lines = [f'model_checkpoint_path: "{self.model_checkpoint_path}"']
        lines += [f'all_model_checkpoint_paths: "{p}"' for p in self.all_model_checkpoint_paths]
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def update_checkpoint_state(save_dir: str, model_checkpoint_path: str,
                            all_model_checkpoint_paths: Any = None, latest_filename: str | None = None) -> None:
    """``tf.train.update_checkpoint_state``."""
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    with open(os.path.join(save_dir, latest_filename or _STATE), "w", encoding="utf-8") as fh:
        fh.write(str(CheckpointState(model_checkpoint_path, paths)))


def get_checkpoint_state(checkpoint_dir: str, latest_filename: str | None = None) -> CheckpointState | None:
    """``tf.train.get_checkpoint_state``: None when there is no state file."""
    path = os.path.join(checkpoint_dir, latest_filename or _STATE)
    if not os.path.isfile(path):
        return None
    model, every = "", []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            value = json.loads(value.strip())
            if not os.path.isabs(value):
                value = os.path.join(checkpoint_dir, value)
            if key.strip() == "model_checkpoint_path":
                model = value
            elif key.strip() == "all_model_checkpoint_paths":
                every.append(value)
    return CheckpointState(model, every)


def latest_checkpoint(checkpoint_dir: str, latest_filename: str | None = None) -> str | None:
    """``tf.train.latest_checkpoint``: the newest prefix, or None."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state is None or not os.path.isfile(state.model_checkpoint_path + ".index"):
        return None
    return state.model_checkpoint_path


def checkpoint_exists(checkpoint_prefix: str) -> bool:
    return os.path.isfile(checkpoint_prefix + ".index")


def list_variables(ckpt_dir_or_file: str) -> list:
    """``tf.train.list_variables``: (name, shape) pairs, sorted by name."""
    prefix = _prefix_of(ckpt_dir_or_file)
    return sorted((k, list(v.shape)) for k, v in _read(prefix).items())


def load_variable(ckpt_dir_or_file: str, name: str) -> np.ndarray:
    values = _read(_prefix_of(ckpt_dir_or_file))
    key = name if name in values else f"{name}/.ATTRIBUTES/VARIABLE_VALUE"
    if key not in values:
        raise NotFoundError(None, None, f"Key {name} not found in checkpoint")
    return values[key]


def _prefix_of(ckpt_dir_or_file: str) -> str:
    if os.path.isdir(ckpt_dir_or_file):
        found = latest_checkpoint(ckpt_dir_or_file)
        if found is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory {ckpt_dir_or_file}")
        return found
    return ckpt_dir_or_file


class _History:
    """The prefixes written so far, oldest first; deletes beyond ``max_to_keep``."""

    def __init__(self, max_to_keep: int | None) -> None:
        self.max_to_keep = max_to_keep
        self.paths: list[str] = []

    def add(self, prefix: str) -> None:
        if prefix in self.paths:
            self.paths.remove(prefix)
        self.paths.append(prefix)
        if self.max_to_keep:
            while len(self.paths) > self.max_to_keep:
                _remove(self.paths.pop(0))


# --- TF1: Saver -----------------------------------------------------------------------------------


def _op_name(v: Any) -> str:
    return v.name.removesuffix(":0")


class Saver:
    """``tf.compat.v1.train.Saver``: values by variable name (or by the given dict keys)."""

    def __init__(self, var_list: Any = None, reshape: bool = False, sharded: bool = False,
                 max_to_keep: int = 5, keep_checkpoint_every_n_hours: float = 10000.0, name: str | None = None,
                 restore_sequentially: bool = False, saver_def: Any = None, builder: Any = None,
                 defer_build: bool = False, allow_empty: bool = False, write_version: Any = None,
                 pad_step_number: bool = False, save_relative_paths: bool = False, filename: Any = None) -> None:
        if context.executing_eagerly() and var_list is None:
            raise RuntimeError("When eager execution is enabled, `var_list` must specify a list or dict of "
                               "variables to save")
        if var_list is None:
            from runtime.compat_v1 import global_variables

            var_list = global_variables()
        if isinstance(var_list, dict):
            self._vars = {k: _as_variable(v) for k, v in var_list.items()}
        else:
            self._vars = {}
            for v in var_list:
                v = _as_variable(v)
                name = _op_name(v)
                if name in self._vars:
                    raise ValueError(f"At least two variables have the same name: {name}")
                self._vars[name] = v
        if not self._vars and not allow_empty:
            raise ValueError("No variables to save")
        self._history = _History(max_to_keep)
        self._pad = pad_step_number
        self._relative = save_relative_paths

    def save(self, sess: Any, save_path: str, global_step: Any = None, latest_filename: str | None = None,
             meta_graph_suffix: str = "meta", write_meta_graph: bool = True, write_state: bool = True,
             strip_default_attrs: bool = False, save_debug_info: bool = False) -> str:
        prefix = str(save_path)
        if global_step is not None:
            step = global_step if isinstance(global_step, (int, np.integer)) else sess.run(global_step)
            prefix = f"{prefix}-{int(step):08d}" if self._pad else f"{prefix}-{int(step)}"
        _save(prefix, self._vars, write_meta_graph)
        self._history.add(prefix)
        if write_state:
            save_dir = os.path.dirname(prefix)
            shown = [os.path.relpath(p, save_dir) if self._relative else p for p in self._history.paths]
            update_checkpoint_state(save_dir or ".", shown[-1], shown, latest_filename)
        return prefix

    def restore(self, sess: Any, save_path: str | None) -> None:
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        if not checkpoint_exists(str(save_path)):
            raise ValueError(f"The passed save_path is not a valid checkpoint: {save_path}")
        values = _read(str(save_path))
        missing = sorted(k for k in self._vars if k not in values)
        if missing:
            raise NotFoundError(None, None, "Restoring from checkpoint failed. This is most likely due to a Variable "
                                "name or other graph key that is missing from the checkpoint. Please ensure that "
                                "you have not altered the graph expected based on the checkpoint. Original error:"
                                f"\n\nKey {missing[0]} not found in checkpoint")
        for key, var in self._vars.items():
            var._assign_array(values[key])

    @property
    def last_checkpoints(self) -> list[str]:
        return list(self._history.paths)

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time: Any) -> None:
        self._history.paths = [p for p, _ in last_checkpoints_with_time]

    def as_saver_def(self) -> Any:
        return self


def _as_variable(v: Any) -> Variable:
    if isinstance(v, KerasVariable):
        return v._engine_variable
    if isinstance(v, Variable):
        return v
    raise TypeError(f"Variable to save is not a Variable: {v!r}")


# --- TF2: Checkpoint --------------------------------------------------------------------------------


def _collect(obj: Any, path: str, out: dict[str, Variable], seen: set[int]) -> None:
    """Variables reachable from ``obj``, keyed by object path (TF's object-graph keys, simplified)."""
    if id(obj) in seen:
        return
    if isinstance(obj, (Variable, KerasVariable)):
        seen.add(id(obj))
        out[f"{path}/.ATTRIBUTES/VARIABLE_VALUE"] = _as_variable(obj)
        return
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            _collect(item, f"{path}/{i}", out, seen)
        return
    if isinstance(obj, dict):
        for k, item in obj.items():
            _collect(item, f"{path}/{k}", out, seen)
        return
    seen.add(id(obj))
    if isinstance(obj, Checkpoint):
        for k, item in obj._objects.items():
            _collect(item, f"{path}/{k}" if path else k, out, seen)
    elif isinstance(obj, (Layer, KerasOptimizer, Module)):
        _collect(list(obj.variables), f"{path}/variables", out, seen)


class _Status:
    """What ``restore``/``read`` return; the assertions check what the engine can check."""

    def __init__(self, missing: list[str], unused: list[str]) -> None:
        self._missing = missing
        self._unused = unused

    def assert_consumed(self) -> _Status:
        if self._missing or self._unused:
            raise AssertionError(f"Unresolved object in checkpoint: {(self._missing + self._unused)[0]}")
        return self

    def assert_existing_objects_matched(self) -> _Status:
        if self._missing:
            raise AssertionError(f"Object not assigned a value from checkpoint: {self._missing[0]}")
        return self

    def assert_nontrivial_match(self) -> _Status:
        return self

    def expect_partial(self) -> _Status:
        return self

    def run_restore_ops(self, session: Any = None) -> None:
        return None

    def initialize_or_restore(self, session: Any = None) -> None:
        return None


class Checkpoint:
    """``tf.train.Checkpoint(**objects)``: variables of the objects, keyed by attribute path."""

    def __init__(self, root: Any = None, **kwargs: Any) -> None:
        self._objects = dict(kwargs)
        if root is not None:
            self._objects["root"] = root
        self._save_counter: Variable | None = None

    def __getattr__(self, name: str) -> Any:
        objects = self.__dict__.get("_objects", {})
        if name in objects:
            return objects[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    @property
    def save_counter(self) -> Variable:
        if self._save_counter is None:
            with context.init_scope():
                self._save_counter = Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter",
                                              _report=False)
        return self._save_counter

    def _values(self) -> dict[str, Variable]:
        out: dict[str, Variable] = {}
        _collect(self, "", out, set())
        if self._save_counter is not None:
            out["save_counter/.ATTRIBUTES/VARIABLE_VALUE"] = self._save_counter
        return out

    def write(self, file_prefix: str, options: Any = None) -> str:
        prefix = os.fspath(file_prefix)
        _save(prefix, self._values(), False)
        return prefix

    def save(self, file_prefix: str, options: Any = None) -> str:
        counter = self.save_counter
        counter._assign_array(counter._read() + 1)
        prefix = self.write(f"{os.fspath(file_prefix)}-{int(counter._read())}")
        state = get_checkpoint_state(os.path.dirname(prefix) or ".")
        paths = [p for p in (state.all_model_checkpoint_paths if state else []) if p != prefix]
        update_checkpoint_state(os.path.dirname(prefix) or ".", prefix, [*paths, prefix])
        return prefix

    def read(self, save_path: str, options: Any = None) -> _Status:
        values = _read(os.fspath(save_path))
        mine = self._values()
        for name, obj in self._objects.items():
            unbuilt = isinstance(obj, Layer) and not obj.variables
            if unbuilt and any(k.startswith(f"{name}/") for k in values):
                from runtime.errors import Unsupported

                raise Unsupported("tf.train.Checkpoint restore into a Keras layer not built yet (deferred restoration)")
        if "save_counter/.ATTRIBUTES/VARIABLE_VALUE" in values:
            mine.setdefault("save_counter/.ATTRIBUTES/VARIABLE_VALUE", self.save_counter)
        for key, var in mine.items():
            if key in values:
                var._assign_array(values[key])
        return _Status([k for k in mine if k not in values], [k for k in values if k not in mine])

    def restore(self, save_path: str | None, options: Any = None) -> _Status:
        if save_path is None:
            return _Status([], [])
        if os.path.isdir(os.fspath(save_path)):
            raise ValueError(f"Expected a checkpoint prefix, got the directory {save_path}")
        return self.read(save_path, options)


class CheckpointManager:
    """``tf.train.CheckpointManager``: numbered saves in one directory, keeping ``max_to_keep``."""

    def __init__(self, checkpoint: Checkpoint, directory: str, max_to_keep: int | None,
                 keep_checkpoint_every_n_hours: Any = None, checkpoint_name: str = "ckpt",
                 step_counter: Any = None, checkpoint_interval: Any = None, init_fn: Any = None) -> None:
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._history = _History(max_to_keep)
        state = get_checkpoint_state(self._directory)
        if state is not None:
            self._history.paths = list(state.all_model_checkpoint_paths)
        self._init_fn = init_fn

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint(self) -> Checkpoint:
        return self._checkpoint

    @property
    def latest_checkpoint(self) -> str | None:
        return latest_checkpoint(self._directory)

    @property
    def checkpoints(self) -> list[str]:
        return list(self._history.paths)

    def save(self, checkpoint_number: Any = None, check_interval: bool = True, options: Any = None) -> str:
        os.makedirs(self._directory, exist_ok=True)
        counter = self._checkpoint.save_counter
        counter._assign_array(counter._read() + 1)
        number = counter._read() if checkpoint_number is None else checkpoint_number
        prefix = self._checkpoint.write(f"{self._prefix}-{int(np.asarray(number))}")
        self._history.add(prefix)
        update_checkpoint_state(self._directory, prefix, self._history.paths)
        return prefix

    def restore_or_initialize(self) -> Any:
        if self.latest_checkpoint is not None:
            self._checkpoint.restore(self.latest_checkpoint)
            return self.latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None


TRAIN_COMMON = {"Checkpoint": Checkpoint, "CheckpointManager": CheckpointManager,
                "latest_checkpoint": latest_checkpoint, "get_checkpoint_state": get_checkpoint_state,
                "update_checkpoint_state": update_checkpoint_state, "list_variables": list_variables,
                "load_variable": load_variable, "checkpoint_exists": checkpoint_exists}
TRAIN_V1 = TRAIN_COMMON | {"Saver": Saver}

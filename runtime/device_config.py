"""Session and device settings: TF1's ``ConfigProto`` and TF2's ``tf.config``, for one CPU.

None of them changes a computed value: the engine runs every op on the CPU, in one thread,
so they only have to be accepted and read back as TensorFlow does, and refuse what it refuses
(a field a protocol message lacks, memory growth on a device that is not a GPU).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import Unsupported


class _Message:
    """A protocol buffer message: known fields with defaults; any other name is refused."""

    FIELDS: ClassVar[dict[str, Any]] = {}

    def __init__(self, **fields: Any) -> None:
        for name, default in self.FIELDS.items():
            object.__setattr__(self, name, default() if callable(default) else default)
        for name, value in fields.items():
            if name not in self.FIELDS:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
            setattr(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self.FIELDS:
            raise AttributeError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        object.__setattr__(self, name, value)


class GPUOptions(_Message):
    FIELDS: ClassVar[dict[str, Any]] = {
        "allow_growth": False, "per_process_gpu_memory_fraction": 0.0, "visible_device_list": "",
        "force_gpu_compatible": False,
    }


class GraphOptions(_Message):
    FIELDS: ClassVar[dict[str, Any]] = {"build_cost_model": 0, "infer_shapes": False, "place_pruned_graph": False}


class ConfigProto(_Message):
    FIELDS: ClassVar[dict[str, Any]] = {
        "gpu_options": GPUOptions, "graph_options": GraphOptions, "allow_soft_placement": False,
        "log_device_placement": False, "intra_op_parallelism_threads": 0,
        "inter_op_parallelism_threads": 0, "use_per_session_threads": False, "device_count": dict,
        "operation_timeout_in_ms": 0,
    }


class RunOptions(_Message):
    """``tf.compat.v1.RunOptions``: how a ``Session.run`` traces itself; the engine traces nothing."""

    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3
    FIELDS: ClassVar[dict[str, Any]] = {
        "trace_level": 0, "timeout_in_ms": 0, "inter_op_thread_pool": 0, "output_partition_graphs": False,
        "report_tensor_allocations_upon_oom": False,
    }


class RunMetadata(_Message):
    """``tf.compat.v1.RunMetadata``: what a traced run recorded (step stats, graphs). The engine
    records none of it, so reading any is a named Unsupported, not an empty value TF would not give."""

    RECORDED = ("step_stats", "cost_graph", "partition_graphs", "function_graphs")

    def __getattr__(self, name: str) -> Any:
        if name in self.RECORDED:
            raise Unsupported(f"RunMetadata.{name}")  # the engine records no run trace
        raise AttributeError(f'Protocol message RunMetadata has no "{name}" field.')


@dataclass(frozen=True)
class PhysicalDevice:
    name: str
    device_type: str

    def __repr__(self) -> str:
        return f"PhysicalDevice(name='{self.name}', device_type='{self.device_type}')"


@dataclass(frozen=True)
class LogicalDevice:
    name: str
    device_type: str

    def __repr__(self) -> str:
        return f"LogicalDevice(name='{self.name}', device_type='{self.device_type}')"


_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_LOGICAL_CPU = LogicalDevice("/device:CPU:0", "CPU")
_settings: dict[str, Any] = {
    "intra_op": 0, "inter_op": 0, "soft_placement": True, "log_placement": False,
}


def list_physical_devices(device_type: str | None = None) -> list[PhysicalDevice]:
    return [_CPU] if device_type in (None, "CPU") else []


def list_logical_devices(device_type: str | None = None) -> list[LogicalDevice]:
    return [_LOGICAL_CPU] if device_type in (None, "CPU") else []


def set_memory_growth(device: Any, enable: bool) -> None:
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device: Any) -> bool:
    raise ValueError("Cannot get memory growth on non-GPU and non-Pluggable devices")


def set_visible_devices(devices: Any, device_type: str | None = None) -> None:
    """Accepted for the CPU (or no device of a type the engine has none of)."""


def _setter(key: str):
    def set_value(value: Any) -> None:
        _settings[key] = value
    return set_value


def _getter(key: str):
    def get_value() -> Any:
        return _settings[key]
    return get_value


CONFIG = {
    "list_physical_devices": list_physical_devices, "list_logical_devices": list_logical_devices,
    "set_visible_devices": set_visible_devices,
    "set_soft_device_placement": _setter("soft_placement"),
    "get_soft_device_placement": _getter("soft_placement"),
    "PhysicalDevice": PhysicalDevice, "LogicalDevice": LogicalDevice,
    "experimental": None, "threading": None,
}
CONFIG_EXPERIMENTAL = {
    "set_memory_growth": set_memory_growth, "get_memory_growth": get_memory_growth,
    "list_physical_devices": list_physical_devices, "list_logical_devices": list_logical_devices,
    "set_visible_devices": set_visible_devices,
}
CONFIG_THREADING = {
    "set_intra_op_parallelism_threads": _setter("intra_op"),
    "get_intra_op_parallelism_threads": _getter("intra_op"),
    "set_inter_op_parallelism_threads": _setter("inter_op"),
    "get_inter_op_parallelism_threads": _getter("inter_op"),
}
DEBUGGING = {"set_log_device_placement": _setter("log_placement")}
V1_TOP = {"ConfigProto": ConfigProto, "GPUOptions": GPUOptions, "GraphOptions": GraphOptions,
          "RunOptions": RunOptions, "RunMetadata": RunMetadata}

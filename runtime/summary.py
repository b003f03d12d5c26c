"""TensorBoard summaries: the TF1 ops (``tf.compat.v1.summary``) and the TF2 writer API.

Summary ops yield a serialized ``Summary`` string tensor. Scalar values are encoded as TF's
protobuf wire format (so a fetched scalar summary has TF's bytes, and ``merge`` is plain
concatenation, as for repeated fields); other kinds carry the engine's own payload. Event files
are the engine's own line format; every value written to one is also reported to the trace
(``trace.summary_written``), so the verifier compares what TensorBoard would show.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from runtime import context, dtypes, trace
from runtime.convert import convert_to_tensor
from runtime.errors import NotFoundError
from runtime.graph import GraphKeys
from runtime.ops import math as M
from runtime.ops.state import py_call
from runtime.tensor import Tensor

_STRING_SPEC = [((), dtypes.string)]


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _value(tag: str, body: bytes) -> bytes:
    """One ``Summary`` holding one ``Summary.Value`` (tag = field 1)."""
    return _field(1, _field(1, tag.encode()) + body)


def _scalar_body(x: np.ndarray) -> bytes:
    return b"\x15" + struct.pack("<f", float(np.asarray(x).reshape(())))  # simple_value = 2 (float)


def _histogram_body(x: np.ndarray) -> bytes:
    """HistogramProto (field 5) with min, max, num, sum, sum_squares; no buckets."""
    a = np.asarray(x, dtype=np.float64).ravel()
    stats = (a.min(), a.max(), a.size, a.sum(), (a * a).sum()) if a.size else (0.0,) * 5
    packed = b"".join(_varint(i << 3 | 1) + struct.pack("<d", float(v)) for i, v in enumerate(stats, 1))
    return _field(5, packed)


def _opaque_body(kind: str) -> Any:
    def body(x: np.ndarray) -> bytes:
        return _field(8, kind.encode() + b":" + np.asarray(x).tobytes())  # metadata-like payload

    return body


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


#: Payload sizes of the fixed-width protobuf wire types (1: 64-bit, 5: 32-bit).
_FIXED = {1: 8, 5: 4}


def _fields(data: bytes) -> Iterator[tuple[int, int, Any]]:
    """(field number, wire type, payload) of each field of a serialized message."""
    at = 0
    while at < len(data):
        key, at = _read_varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _read_varint(data, at)
        elif wire in _FIXED:
            value, at = data[at : at + _FIXED[wire]], at + _FIXED[wire]
        elif wire == 2:
            size, at = _read_varint(data, at)
            value, at = data[at : at + size], at + size
        else:
            return
        yield number, wire, value


def _histogram_stats(histo: bytes) -> np.ndarray:
    fields = _fields(histo)
    stats = {number: struct.unpack("<d", value)[0] for number, wire, value in fields if wire == 1}
    return np.array([stats.get(i, 0.0) for i in range(1, 6)])


def summary_values(summary: bytes) -> list[tuple[str, np.ndarray]]:
    """The (tag, value) pairs of a serialized ``Summary``: a scalar, a histogram's min, max, num,
    sum and sum of squares, or a digest of any other payload."""
    found = []
    for number, _, value in _fields(summary):
        if number != 1:
            continue
        tag, data = "", np.asarray("")
        for field, wire, payload in _fields(value):
            if field == 1:
                tag = payload.decode("utf-8", "replace")
            elif field == 2 and wire == 5:
                data = np.asarray(struct.unpack("<f", payload)[0], np.float32)
            elif field == 5:
                data = _histogram_stats(payload)
            elif field == 8:
                data = np.asarray(hashlib.sha1(payload).hexdigest())
        found.append((tag, data))
    return found


def _summary_op(kind: Any, name: str, tensor: Any, collections: Any, family: Any) -> Any:
    graph = context.get_default_graph()
    t = convert_to_tensor(tensor)
    scope = f"{family}/{name}" if family else name
    with graph.name_scope(scope) as full:
        tag = full.rstrip("/")
        out, = py_call(lambda a: (np.asarray(_value(tag, kind(a)), dtype=object),), [t], _STRING_SPEC,
                       name=name.rsplit("/", 1)[-1])
    for key in collections if collections is not None else [GraphKeys.SUMMARIES]:
        graph.add_to_collection(key, out)
    return out


def scalar(name: str, tensor: Any, collections: Any = None, family: Any = None) -> Any:
    """``tf.compat.v1.summary.scalar``."""
    return _summary_op(_scalar_body, name, tensor, collections, family)


def histogram(name: str, values: Any, collections: Any = None, family: Any = None) -> Any:
    """``tf.compat.v1.summary.histogram``."""
    return _summary_op(_histogram_body, name, values, collections, family)


def image(name: str, tensor: Any, max_outputs: int = 3, collections: Any = None, family: Any = None) -> Any:
    """``tf.compat.v1.summary.image`` (engine payload)."""
    return _summary_op(_opaque_body("image"), name, tensor, collections, family)


def text(name: str, tensor: Any, collections: Any = None) -> Any:
    """``tf.compat.v1.summary.text`` (engine payload)."""
    return _summary_op(_opaque_body("text"), name, tensor, collections, None)


def merge(inputs: Any, collections: Any = None, name: str | None = None) -> Any:
    """``tf.compat.v1.summary.merge``: the values of all inputs, in order."""
    tensors = [convert_to_tensor(t) for t in inputs]
    out, = py_call(lambda *xs: (np.asarray(b"".join(bytes(np.asarray(x)[()]) for x in xs), dtype=object),),
                   tensors, _STRING_SPEC, name=name or "Merge/MergeSummary")
    for key in collections or []:
        context.get_default_graph().add_to_collection(key, out)
    return out


def merge_all(key: str = GraphKeys.SUMMARIES, scope: Any = None, name: str | None = None) -> Any:
    """``tf.compat.v1.summary.merge_all``: None when no summary was made, as in TF."""
    ops = context.get_default_graph().get_collection(key, scope)
    return merge(ops, name=name) if ops else None


class FileWriter:
    """``tf.compat.v1.summary.FileWriter``: appends events to ``logdir/events.out.tfevents.*``."""

    def __init__(self, logdir: str, graph: Any = None, max_queue: int = 10, flush_secs: int = 120,
                 graph_def: Any = None, filename_suffix: str | None = None, session: Any = None) -> None:
        if context.executing_eagerly():
            raise RuntimeError("tf.summary.FileWriter is not compatible with eager execution. "
                               "Use `tf.summary.create_file_writer`,or a `with v1.Graph().as_default():` context")
        self._logdir = str(logdir)
        self._file = _EventFile(self._logdir, filename_suffix or "")
        if graph is not None or graph_def is not None:
            self.add_graph(graph, graph_def=graph_def)

    def get_logdir(self) -> str:
        return self._logdir

    def add_summary(self, summary: Any, global_step: Any = None) -> None:
        if isinstance(summary, Tensor):
            raise TypeError("add_summary expects a serialized summary string, not a Tensor")
        self._file.write("summary", global_step, bytes(summary))

    def add_graph(self, graph: Any, global_step: Any = None, graph_def: Any = None) -> None:
        self._file.write("graph", global_step, b"")

    def add_event(self, event: Any) -> None:
        self._file.write("event", None, b"")

    def add_session_log(self, session_log: Any, global_step: Any = None) -> None:
        self._file.write("session_log", global_step, b"")

    def add_run_metadata(self, run_metadata: Any, tag: str, global_step: Any = None) -> None:
        self._file.write("run_metadata", global_step, tag.encode())

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def reopen(self) -> None:
        self._file.reopen()

    def __enter__(self) -> FileWriter:  # noqa: PYI034 - not subclassed
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _EventFile:
    """One events file in the engine's line format: ``kind step hex-payload``."""

    def __init__(self, logdir: str, suffix: str) -> None:
        os.makedirs(logdir, exist_ok=True)
        import socket  # only a writer needs the host name: importing it costs every start-up

        self.path = os.path.join(logdir, f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}{suffix}")
        self._fh: Any = open(self.path, "a", encoding="ascii")  # noqa: SIM115 - lives as long as the writer

    def write(self, kind: str, step: Any, payload: bytes) -> None:
        if self._fh is None:
            self.reopen()
        step_value = None if step is None else int(np.asarray(step))
        step_text = "-" if step_value is None else str(step_value)
        self._fh.write(f"{kind} {step_text} {payload.hex()}\n")
        if kind == "summary":
            for tag, value in summary_values(payload):
                trace.summary_written(tag, step_value, value)

    def flush(self) -> None:
        if self._fh is not None:
            self._fh.flush()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def reopen(self) -> None:
        if self._fh is None:
            self._fh = open(self.path, "a", encoding="ascii")  # noqa: SIM115


# --- TF2: tf.summary ----------------------------------------------------------------------------

_DEFAULT_WRITERS: list[SummaryWriter] = []
_STEP: list[Any] = [None]


class SummaryWriter:
    """``tf.summary.SummaryWriter`` from ``create_file_writer``."""

    def __init__(self, logdir: str, filename_suffix: str | None = None) -> None:
        self._file = _EventFile(str(logdir), filename_suffix or ".v2")
        self._closed = False

    def _check_open(self) -> None:
        """As TF: a closed writer cannot be made the default again (eagerly; a graph defers it)."""
        if self._closed and context.executing_eagerly():
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")

    def _write(self, step: Any, payload: bytes) -> None:
        """One summary; TF has deleted a closed writer's resource and says it is not found."""
        if self._closed:
            raise NotFoundError(None, None, "Resource localhost/_AnonymousVar/N10tensorflow22SummaryWriterInterfaceE "
                                "does not exist. [Op:WriteSummary]")
        self._file.write("summary", step, payload)

    @contextlib.contextmanager
    def as_default(self, step: Any = None) -> Iterator[SummaryWriter]:
        self._check_open()
        saved = _STEP[0]
        _DEFAULT_WRITERS.append(self)
        if step is not None:
            _STEP[0] = step
        try:
            yield self
        finally:
            _DEFAULT_WRITERS.remove(self)
            _STEP[0] = saved
            self.flush()

    def set_as_default(self, step: Any = None) -> None:
        self._check_open()
        _DEFAULT_WRITERS[:] = [self]
        if step is not None:
            _STEP[0] = step

    def init(self) -> None:
        self._check_open()
        self._file.reopen()

    def flush(self) -> None:
        self._file.flush()

    def close(self) -> None:
        self._file.close()
        self._closed = True


def create_file_writer(logdir: str, max_queue: Any = None, flush_millis: Any = None,
                       filename_suffix: str | None = None, name: str | None = None,
                       experimental_trackable: bool = False, experimental_mesh: Any = None) -> SummaryWriter:
    """``tf.summary.create_file_writer``."""
    return SummaryWriter(logdir, filename_suffix)


def set_step(step: Any) -> None:
    """``tf.summary.experimental.set_step``."""
    _STEP[0] = step


def get_step() -> Any:
    """``tf.summary.experimental.get_step``."""
    return _STEP[0]


def flush(writer: Any = None, name: str | None = None) -> None:
    """``tf.summary.flush``."""
    target = writer or (_DEFAULT_WRITERS[-1] if _DEFAULT_WRITERS else None)
    if target is not None:
        target.flush()


@contextlib.contextmanager
def record_if(condition: Any) -> Iterator[None]:
    """``tf.summary.record_if``: the engine records unconditionally."""
    yield


def should_record_summaries() -> Any:
    """``tf.summary.should_record_summaries``."""
    from runtime.convert import constant

    return constant(bool(_DEFAULT_WRITERS))


def _write_v2(kind: Any, name: str, data: Any, step: Any) -> Any:
    from runtime.convert import constant

    if not _DEFAULT_WRITERS:
        return constant(False)
    writer = _DEFAULT_WRITERS[-1]
    step = step if step is not None else _STEP[0]
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    graph_scope = "" if context.executing_eagerly() else context.get_default_graph().get_name_scope()
    tag = f"{graph_scope}/{name}" if graph_scope else name

    def kernel(value: np.ndarray, step_value: np.ndarray) -> np.ndarray:
        writer._write(step_value, _value(tag, kind(value)))
        return (np.asarray(True),)

    return py_call(kernel, [convert_to_tensor(data), M.cast(convert_to_tensor(step), dtypes.int64)],
                   [((), dtypes.bool_)], name=name)[0]


def scalar_v2(name: str, data: Any, step: Any = None, description: Any = None) -> Any:
    """``tf.summary.scalar``: True when written to the default writer, False without one."""
    return _write_v2(_scalar_body, name, data, step)


def histogram_v2(name: str, data: Any, step: Any = None, buckets: Any = None, description: Any = None) -> Any:
    """``tf.summary.histogram``."""
    return _write_v2(_histogram_body, name, data, step)


def image_v2(name: str, data: Any, step: Any = None, max_outputs: int = 3, description: Any = None) -> Any:
    """``tf.summary.image``."""
    return _write_v2(_opaque_body("image"), name, data, step)


def text_v2(name: str, data: Any, step: Any = None, description: Any = None) -> Any:
    """``tf.summary.text``."""
    return _write_v2(_opaque_body("text"), name, data, step)


V1_TABLE = {"scalar": scalar, "histogram": histogram, "image": image, "text": text, "merge": merge,
            "merge_all": merge_all, "FileWriter": FileWriter}
V2_TABLE = {"scalar": scalar_v2, "histogram": histogram_v2, "image": image_v2, "text": text_v2,
            "create_file_writer": create_file_writer, "SummaryWriter": SummaryWriter, "flush": flush,
            "record_if": record_if, "should_record_summaries": should_record_summaries}
V2_EXPERIMENTAL = {"set_step": set_step, "get_step": get_step}

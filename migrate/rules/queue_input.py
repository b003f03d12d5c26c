"""TF116: a queue-runner input pipeline → the tf.data pipeline it stands for.

TF1 read files through queues filled by background threads::

    queue = tf.train.string_input_producer(files, num_epochs=2)
    reader = tf.TFRecordReader()
    _, serialized = reader.read(queue)
    features = tf.parse_single_example(serialized, {...})   # per-example ops
    x, y = tf.train.shuffle_batch([features["x"], ...], batch_size=32, ...)

and started them with ``tf.train.Coordinator`` and ``tf.train.start_queue_runners``. TF2 has
no queue runners; the same pipeline is a dataset::

    def parse_example(serialized):
        features = tf.parse_single_example(serialized, {...})
        return ...
    dataset = tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(files)
                                      .shuffle(len(files)).repeat(2)).map(parse_example)...
    x, y = dataset.make_one_shot_iterator().get_next()

Each run that dequeued a batch pulls one from the iterator, which the program move (TF115)
turns into Python iteration; the coordinator and the queue runners go. The pass runs on TF1
code before the move, so a file the move cannot convert keeps a pipeline that runs in graph
mode as well. TF1's file order per epoch (``shuffle=True`` shuffles all files each epoch)
is kept; ``shuffle_batch`` becomes a shuffle buffer of ``min_after_dequeue`` elements, and the
order of examples from several reader threads was never deterministic.

A pipeline is converted when it is one producer (with one TFRecord or text-line reader, or
``slice_input_producer`` read one slice at a time), the per-example statements and one
``batch``/``shuffle_batch`` in one block, and nothing else reads its per-example tensors;
otherwise it is kept under ``tf.compat.v1`` with a note why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import dropwhile

import libcst as cst

from ..api_table import QUEUE_INPUTS
from ..codegen import LineKeeping, code, copy_lines, fill_lines, record_line
from ..graph import names_read
from ..imports import Aliases
from ..report import Finding
from ..walk import walk
from .data import QUEUE_RULE as RULE

PRODUCER = "train.string_input_producer"
PRODUCER_PARAMS = ("string_tensor", "num_epochs", "shuffle", "seed", "capacity", "shared_name", "name",
                   "cancel_op")
SLICER = "train.slice_input_producer"
SLICER_PARAMS = ("tensor_list", "num_epochs", "shuffle", "seed", "capacity", "shared_name", "name")
PRODUCERS = (PRODUCER, SLICER)
#: Readers, the dataset reading the same records, and the parse function's name.
READERS = {"TFRecordReader": ("data.TFRecordDataset", "parse_example"),
           "TextLineReader": ("data.TextLineDataset", "parse_line")}
BATCH_PARAMS = {
    "train.batch": ("tensors", "batch_size", "num_threads", "capacity", "enqueue_many", "shapes",
                    "dynamic_pad", "allow_smaller_final_batch", "shared_name", "name"),
    "train.shuffle_batch": ("tensors", "batch_size", "capacity", "min_after_dequeue", "num_threads", "seed",
                            "enqueue_many", "shapes", "allow_smaller_final_batch", "shared_name", "name"),
}
#: Queue settings tf.data has no use for: it sizes its own buffers and threads.
DROPPED = frozenset({"capacity", "num_threads", "shared_name", "name", "cancel_op", "shapes"})
COORDINATOR = "train.Coordinator"
RUNNERS = "train.start_queue_runners"


class _Kept(Exception):
    """Why a pipeline stays a queue pipeline; ``quiet`` when the queue is not the shape of one
    (the calls' own TF116 findings say all there is)."""

    def __init__(self, why: str, quiet: bool = False) -> None:
        super().__init__(why)
        self.quiet = quiet


@dataclass
class _Pipeline:
    block: Sequence[cst.BaseStatement]
    producer: cst.SimpleStatementLine
    parts: list[cst.SimpleStatementLine]  # producer, reader, read: removed
    moved: list[cst.SimpleStatementLine]  # the per-example statements, into the parse function
    batch: cst.SimpleStatementLine
    params: list[str]  # the parameters of the parse function
    parse: str
    outputs: list[str]
    dataset: str  # the dataset expression, without the parse function's map
    batching: str  # `.shuffle(...).batch(...)`
    summary: str
    before: str | None  # `filenames = ...` / `slices = ...`: what an epoch's shuffle reads
    sliced: dict[int, str] = field(default_factory=dict)  # id(`queue[k]`) -> the parameter it is


@dataclass
class _Source:
    """What a producer gives the per-example statements: the statements that go, the names
    that hold an example, the parse function's parameters, and the dataset of examples."""

    parts: list[cst.SimpleStatementLine]
    names: set[str]  # the queue (or the slices), and for a reader the reader and its record
    unread: set[str]  # names the per-example statements may not read
    opaque: set[str]  # names that hold no example: the queue, the reader
    params: list[str]
    parse: str
    kind: str  # for the finding: `string_input_producer → TFRecordReader`
    shown: str  # for the finding: the dataset's constructor
    dataset: str
    before: str | None
    subscripts: dict[int, int] = field(default_factory=dict)  # id(the queue's name in `queue[k]`) -> k


def _assign(stmt: cst.BaseStatement) -> tuple[list[str], cst.BaseExpression] | None:
    """``a = value`` / ``a, b = value``: the target names (``_`` included) and the value."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], cst.Assign) and len(stmt.body[0].targets) == 1):
        return None
    target, value = stmt.body[0].targets[0].target, stmt.body[0].value
    if isinstance(target, cst.Name):
        return [target.value], value
    if isinstance(target, (cst.Tuple, cst.List)) and all(isinstance(e.value, cst.Name) for e in target.elements):
        return [e.value.value for e in target.elements], value  # type: ignore[attr-defined]
    return None


def _bind(call: cst.Call, params: Sequence[str]) -> dict[str, cst.BaseExpression]:
    bound: dict[str, cst.BaseExpression] = {}
    for i, arg in enumerate(call.args):
        if arg.star:
            raise _Kept("a call passes *args or **kwargs")
        name = arg.keyword.value if arg.keyword is not None else params[i] if i < len(params) else None
        if name is None or name not in params:
            raise _Kept(f"{code(call.func)}() takes an argument the pass does not know")
        bound[name] = arg.value
    return bound


def _is_false(expr: cst.BaseExpression | None) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "False"


def _is_true(expr: cst.BaseExpression | None) -> bool:
    return expr is None or isinstance(expr, cst.Name) and expr.value == "True"


def _epochs(args: dict[str, cst.BaseExpression]) -> tuple[str, str | None]:
    """`.repeat(num_epochs)`, and the shuffle's seed argument when the producer shuffles
    (None when it does not)."""
    epochs = args.get("num_epochs")
    repeat = f".repeat({code(epochs)})" if epochs is not None and code(epochs) != "None" else ".repeat()"
    if _is_false(args.get("shuffle")):
        return repeat, None
    if not _is_true(args.get("shuffle")):
        raise _Kept("whether the input is shuffled is decided at run time")
    return repeat, f", seed={code(args['seed'])}" if "seed" in args else ""


def _file_source(block: Sequence[cst.BaseStatement], producer: cst.SimpleStatementLine, queue: str,
                 call: cst.Call, aliases: Aliases, taken: set[str]) -> tuple[_Source, int]:
    """`string_input_producer(files)` read by one TFRecord or text-line reader: each example
    is a record; and the index of the read, after which the batch is looked for."""
    args = _bind(call, PRODUCER_PARAMS)
    if "string_tensor" not in args or set(args) - {"string_tensor", "num_epochs", "shuffle", "seed"} - DROPPED:
        raise _Kept("string_input_producer() is called with settings tf.data has no form for")
    reader = read = record = reader_kind = None
    for at, stmt in enumerate(block):
        found = _assign(stmt)
        if found is None or not isinstance(found[1], cst.Call):
            continue
        names, value = found
        path = aliases.resolve(value.func)
        if path in READERS and len(names) == 1:
            if value.args:
                raise _Kept(f"tf.{path} is given options")
            reader, reader_kind = (names[0], stmt), path
        elif (isinstance(value.func, cst.Attribute) and value.func.attr.value == "read" and reader is not None
              and isinstance(value.func.value, cst.Name) and value.func.value.value == reader[0]
              and len(value.args) == 1 and code(value.args[0].value) == queue and len(names) == 2):
            if names[0] != "_":
                raise _Kept("the record keys the reader returns are read")
            read, record = stmt, names[1]
            break
    if reader is None or read is None or reader_kind is None or record is None:
        raise _Kept("its reader, read or batch is not a statement of the block it is in", quiet=True)
    dataset_path, parse = READERS[reader_kind]
    files, tf = code(args["string_tensor"]), code(call.func).split(".")[0]
    repeat, seed = _epochs(args)
    before = None
    if seed is None:
        dataset = f"{tf}.{dataset_path}({files}){repeat}"
    else:
        filenames = _free("filenames", taken)
        before = f"{filenames} = {tf}.data.Dataset.from_tensor_slices({files}).shuffle(len({files}){seed}){repeat}\n"
        dataset = f"{tf}.{dataset_path}({filenames})"
    return _Source([producer, reader[1], read], {queue, reader[0], record}, {queue, reader[0]}, {queue, reader[0]},  # type: ignore[list-item]
                   [record], _free(parse, taken), f"{PRODUCER.split('.')[1]} → {reader_kind}",
                   f"tf.{dataset_path}", dataset, before), at


def _slice_source(producer: cst.SimpleStatementLine, targets: list[str], call: cst.Call, module: cst.Module,
                  taken: set[str]) -> _Source:
    """`slice_input_producer([images, labels])`: each example is one slice of every tensor,
    which the per-example statements read as `queue[0]`, `queue[1]`, or by the names the
    producer's slices are unpacked into (`image, label = ...`)."""
    args = _bind(call, SLICER_PARAMS)
    tensors = args.get("tensor_list")
    if not isinstance(tensors, (cst.List, cst.Tuple)) or not tensors.elements or set(args) - {
            "tensor_list", "num_epochs", "shuffle", "seed"} - DROPPED:
        raise _Kept("slice_input_producer() is not given a list of tensors, or settings tf.data has no form for")
    elements = [e.value for e in tensors.elements]
    opaque: set[str] = set()
    subscripts: dict[int, int] = {}
    if len(targets) == len(elements) > 1 and "_" not in targets:
        params = list(targets)  # the slices, by their names
    elif len(targets) == 1:
        params, opaque = _sliced(elements, taken), {targets[0]}
        subscripts = _subscripts(producer, targets[0], len(elements), module)
    else:
        raise _Kept("the producer's slices are not bound to one name or to one name each")
    tf = code(call.func).split(".")[0]
    listed = ", ".join(code(e) for e in elements)
    source = f"{tf}.data.Dataset.from_tensor_slices({'(' + listed + ')' if len(elements) > 1 else listed})"
    repeat, seed = _epochs(args)
    before = None
    if seed is None:
        dataset = f"{source}{repeat}"
    else:
        slices = _free("slices", taken)
        before, dataset = f"{slices} = {source}\n", f"{slices}.shuffle({slices}.cardinality(){seed}){repeat}"
    return _Source([producer], set(targets), set(), opaque, params, _free("parse_slice", taken),
                   SLICER.split(".")[1], "tf.data.Dataset.from_tensor_slices", dataset, before, subscripts)


def _sliced(elements: list[cst.BaseExpression], taken: set[str]) -> list[str]:
    """The parse function's parameters for a queue read as `queue[k]`: each the name of the
    tensor it slices (a fresh name for an expression, or a tensor listed twice)."""
    names = [e.value if isinstance(e, cst.Name) else None for e in elements]
    return [name if name is not None and names.count(name) == 1 else _free(f"slice_{k}", taken)
            for k, name in enumerate(names)]


def _subscripts(producer: cst.SimpleStatementLine, queue: str, size: int, module: cst.Module) -> dict[int, int]:
    """id(the queue's name) -> k of each `queue[k]`; `_Kept` when the queue is read otherwise."""
    subscripts: dict[int, int] = {}
    for node in walk(module):
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == queue:
            index = node.slice[0].slice if len(node.slice) == 1 else None
            if not (isinstance(index, cst.Index) and isinstance(index.value, cst.Integer)
                    and int(index.value.value) < size):
                raise _Kept(f"{queue} is read other than one slice at a time ({queue}[0])")
            subscripts[id(node.value)] = int(index.value.value)
    target = {id(n) for n in walk(producer.body[0].targets[0])}  # type: ignore[attr-defined]
    if any(n.value == queue and id(n) not in subscripts and id(n) not in target for n in names_read(module)):
        raise _Kept(f"{queue} is read other than one slice at a time ({queue}[0])")
    return subscripts


def _pipeline(block: Sequence[cst.BaseStatement], at: int, aliases: Aliases, module: cst.Module,
              taken: set[str]) -> _Pipeline:
    """The pipeline whose producer is ``block[at]``, or ``_Kept`` saying why there is none."""
    producer = block[at]
    targets, producer_call = _assign(producer)  # type: ignore[misc]
    if not isinstance(producer_call, cst.Call):
        raise _Kept("the producer is not bound to one name")
    if aliases.resolve(producer_call.func) == SLICER:
        source, start = _slice_source(producer, targets, producer_call, module, taken), at  # type: ignore[arg-type]
    elif len(targets) == 1:
        source, start = _file_source(block, producer, targets[0], producer_call, aliases, taken)  # type: ignore[arg-type]
    else:
        raise _Kept("the producer is not bound to one name")
    batch = None
    for stmt in block[start + 1:]:
        found = _assign(stmt)
        if found is not None and isinstance(found[1], cst.Call) and aliases.resolve(found[1].func) in BATCH_PARAMS:
            batch = (stmt, found[0], found[1], aliases.resolve(found[1].func))
            break
    if batch is None:
        raise _Kept("its reader, read or batch is not a statement of the block it is in", quiet=True)
    batch_stmt, outputs, batch_call, batch_path = batch
    bound = _bind(batch_call, BATCH_PARAMS[batch_path])  # type: ignore[index]
    tensors = bound.get("tensors")
    if not (isinstance(tensors, cst.List) and all(isinstance(e.value, cst.Name) for e in tensors.elements)
            and len(tensors.elements) == len(outputs) >= 2):
        raise _Kept("the batch is not a list of named tensors unpacked into as many names")
    if bound.get("enqueue_many") is not None and not _is_false(bound["enqueue_many"]):
        raise _Kept("the batch is given whole batches (enqueue_many)")
    if bound.get("dynamic_pad") is not None and not _is_false(bound["dynamic_pad"]):
        raise _Kept("the batch pads (dynamic_pad)")
    if "batch_size" not in bound:
        raise _Kept("the batch has no batch_size")
    parts = source.parts
    region = block[min(block.index(s) for s in parts):block.index(batch_stmt)]
    pipeline_names = set(source.names)
    moved = []
    for stmt in region:
        if stmt in parts:
            continue
        reads = {n.value for n in names_read(stmt)}
        if not reads & pipeline_names:
            continue  # plain code between the pipeline's statements stays where it is
        assigned = _assign(stmt)
        is_print = (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                    and isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, cst.Call)
                    and code(stmt.body[0].value.func) == "print")
        if assigned is None and not is_print:
            raise _Kept(f"a per-example statement is not an assignment: {code(stmt).strip()[:40]}")
        if reads & source.unread:
            raise _Kept("the queue or the reader is used other than by reader.read(queue)")
        moved.append(stmt)  # type: ignore[arg-type]
        if assigned is not None:
            pipeline_names |= set(assigned[0]) - {"_"}
    output_names = [e.value.value for e in tensors.elements]  # type: ignore[attr-defined]
    if not set(output_names) <= pipeline_names - source.opaque:
        raise _Kept("the batch takes tensors the per-example statements do not make")
    inside = {id(n) for s in [*parts, *moved] for n in walk(s)} | {id(n) for n in walk(tensors)}
    outside = {n.value for n in _reads_past(module, block, region[0]) if id(n) not in inside}
    if pipeline_names & outside:
        raise _Kept(f"{', '.join(sorted(pipeline_names & outside))} is used past the pipeline")
    if source.subscripts:
        _check_params(source, moved)
    batching = ""
    if batch_path == "train.shuffle_batch":
        if "min_after_dequeue" not in bound:
            raise _Kept("shuffle_batch() has no min_after_dequeue")
        seed = f", seed={code(bound['seed'])}" if "seed" in bound else ""
        batching += f".shuffle({code(bound['min_after_dequeue'])}{seed})"
    smaller = bound.get("allow_smaller_final_batch")
    if smaller is not None and not (_is_false(smaller) or _is_true(smaller)):
        raise _Kept("whether the last batch may be smaller is decided at run time")
    drop = "" if smaller is not None and _is_true(smaller) else ", drop_remainder=True"
    batching += f".batch({code(bound['batch_size'])}{drop})"
    summary = (f"{source.kind} → {batch_path.split('.')[1]} becomes "  # type: ignore[union-attr]
               f"{source.shown}(...).map({source.parse}){batching.split('(')[0]}(...)")
    sliced = {k: source.params[i] for k, i in source.subscripts.items()}
    return _Pipeline(block, producer, parts, moved, batch_stmt, source.params, source.parse,  # type: ignore[arg-type]
                     output_names, source.dataset, batching, summary, source.before, sliced)


def _reads_past(module: cst.Module, block: Sequence[cst.BaseStatement],
                first: cst.BaseStatement) -> list[cst.Name]:
    """The names read where the pipeline's values may be seen: in a function whose body it
    is, its statements from the pipeline's first on and the closures defined before; anywhere
    in the module otherwise."""
    owner = next((f for f in walk(module) if isinstance(f, cst.FunctionDef)
                  and isinstance(f.body, cst.IndentedBlock) and f.body.body is block), None)
    if owner is None:
        return names_read(module)
    closures = [n for stmt in block[:block.index(first)] for n in walk(stmt) if isinstance(n, (cst.FunctionDef, cst.Lambda))]
    return [n for stmt in [*closures, *block[block.index(first):]] for n in names_read(stmt)]


def _check_params(source: _Source, moved: list[cst.SimpleStatementLine]) -> None:
    """A slice's parameter takes the name of the tensor it slices: no per-example statement
    may read that tensor whole before binding the name again."""
    bound: set[str] = set()
    for stmt in moved:
        found = _assign(stmt)
        reads = {n.value for n in names_read(found[1] if found is not None else stmt) if id(n) not in source.subscripts}
        if reads & (set(source.params) - bound):
            raise _Kept(f"{', '.join(sorted(reads & set(source.params)))} is read whole by a per-example statement")
        bound |= set(found[0]) if found is not None else set()


def _free(name: str, taken: set[str]) -> str:
    k, free = 2, name
    while free in taken:
        free, k = f"{name}_{k}", k + 1
    taken.add(free)
    return free


class _Sliced(cst.CSTTransformer):
    """`queue[k]` → the parse function's parameter for slice k."""

    def __init__(self, sliced: dict[int, str]) -> None:
        self.sliced = sliced

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        return cst.Name(self.sliced[id(original.value)]) if id(original.value) in self.sliced else updated


def _parse_body(p: _Pipeline, lines: dict[int, int]) -> list[cst.BaseStatement]:
    """The per-example statements, reading slices through the parameters; a statement left
    binding a parameter to itself (`label = input_queue[1]`) goes, its comments kept above the next."""
    body: list[cst.BaseStatement] = []
    comments: list[cst.EmptyLine] = []
    for stmt in p.moved:
        new = stmt.visit(_Sliced(p.sliced)) if p.sliced else stmt
        assert isinstance(new, cst.SimpleStatementLine)
        copy_lines(stmt, new, lines)
        found = _assign(new)
        if found is not None and isinstance(found[1], cst.Name) and found[0] == [found[1].value]:
            comments += [ln for ln in new.leading_lines if ln.comment is not None]
            if new.trailing_whitespace.comment is not None:
                comments.append(cst.EmptyLine(comment=new.trailing_whitespace.comment))
            continue
        body.append(new.with_changes(leading_lines=[*comments, *new.leading_lines]) if comments else new)
        comments = []
    ret = cst.parse_statement(f"return {', '.join(p.outputs)}\n")
    return [*body, ret.with_changes(leading_lines=comments) if comments else ret]


def _emitted(p: _Pipeline, dataset_name: str, top_level: bool,
             lines: dict[int, int]) -> tuple[cst.FunctionDef, list[cst.BaseStatement]]:
    """The parse function, where the pipeline began (under the comments of the statements it
    replaces); the dataset and the batch taken from its iterator, where the batch was."""
    comments = [ln for s in p.parts for ln in s.leading_lines if ln.comment is not None]
    comments += [cst.EmptyLine(comment=s.trailing_whitespace.comment) for s in p.parts
                 if s.trailing_whitespace.comment is not None]
    gap = [cst.EmptyLine(indent=False)] * (2 if top_level else 1)
    params = cst.Parameters([cst.Param(cst.Name(name)) for name in p.params])
    parse = cst.FunctionDef(name=cst.Name(p.parse), params=params, body=cst.IndentedBlock(body=_parse_body(p, lines)),
                            leading_lines=[*gap, *comments])
    made = [cst.parse_statement(p.before)] if p.before else []
    made.append(cst.parse_statement(f"{dataset_name} = {p.dataset}.map({p.parse}){p.batching}\n"))
    comments = [ln for ln in p.batch.leading_lines if ln.comment is not None]
    made[0] = made[0].with_changes(leading_lines=[*gap, *comments])
    targets = ", ".join(code(e.value) for e in p.batch.body[0].targets[0].target.elements)  # type: ignore[attr-defined]
    take = cst.parse_statement(f"{targets} = {dataset_name}.make_one_shot_iterator().get_next()\n")
    made.append(take.with_changes(trailing_whitespace=p.batch.trailing_whitespace))
    return parse, made


@dataclass
class _Runners:
    """The Coordinator and queue-runner statements, and what reads them."""

    coords: set[str] = field(default_factory=set)
    threads: set[str] = field(default_factory=set)
    statements: set[int] = field(default_factory=set)  # ids of statements that go
    stops: set[int] = field(default_factory=set)  # ids of `coord.should_stop()` calls


def _runners(module: cst.Module, aliases: Aliases) -> _Runners:
    found = _Runners()
    lines = [s for s in walk(module) if isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1]
    for stmt in lines:
        small = stmt.body[0]
        value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
        if not isinstance(value, cst.Call):
            continue
        path = aliases.resolve(value.func)
        names = _assign(stmt)
        if path == COORDINATOR and names is not None and len(names[0]) == 1:
            found.coords.add(names[0][0])
            found.statements.add(id(stmt))
        elif path == RUNNERS:
            if names is not None:
                found.threads.update(names[0])
            found.statements.add(id(stmt))
    for stmt in lines:
        small = stmt.body[0]
        call = small.value if isinstance(small, cst.Expr) else None
        if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute)
                and isinstance(call.func.value, cst.Name) and call.func.value.value in found.coords
                and call.func.attr.value in ("request_stop", "join")):
            found.statements.add(id(stmt))
    inside = {id(n) for s in lines if id(s) in found.statements for n in walk(s)}
    for node in walk(module):
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and not node.args
                and isinstance(node.func.value, cst.Name) and node.func.value.value in found.coords
                and node.func.attr.value == "should_stop"):
            found.stops.add(id(node))
            inside |= {id(n) for n in walk(node)}
    for node in names_read(module):
        if node.value in found.coords | found.threads and id(node) not in inside:
            raise _Kept(f"{node.value} is used other than to stop and join the queue runners")
    return found


class _Rewrite(LineKeeping):
    """Pipelines in place of their batches, queue-runner statements gone."""

    def __init__(self, emitted: dict[int, list[cst.BaseStatement]], removed: set[int], stops: set[int],
                 lines: dict[int, int]) -> None:
        self.emitted, self.removed, self.stops, self.lines = emitted, removed, stops, lines
        self.defined = {id(s) for made in emitted.values() for s in made if isinstance(s, cst.FunctionDef)}

    def leave_If(self, original: cst.If, updated: cst.If):
        """`if coord.should_stop(): break` goes with the coordinator."""
        if id(original.test) in self.stops and updated.orelse is None:
            return cst.RemoveFromParent()
        return updated

    def leave_UnaryOperation(self, original: cst.UnaryOperation, updated: cst.UnaryOperation) -> cst.BaseExpression:
        if isinstance(original.operator, cst.Not) and id(original.expression) in self.stops:
            return cst.Name("True")
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return cst.Name("False") if id(original) in self.stops else updated

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if id(original) in self.emitted:
            return cst.FlattenSentinel(self.emitted[id(original)])
        if id(original) in self.removed:
            return cst.RemoveFromParent()
        return updated

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
        if not updated.body:
            return updated.with_changes(body=[cst.SimpleStatementLine([cst.Pass()])])
        return updated.with_changes(body=self._spaced(updated.body, 1))

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        return updated.with_changes(body=self._spaced(updated.body, 2))

    def _spaced(self, body: Sequence[cst.BaseStatement], gap: int) -> list[cst.BaseStatement]:
        """A statement after an emitted function is set off from it by blank lines, as PEP 8 has it."""
        out = list(body)
        for i in range(1, len(out)):
            before, stmt = out[i - 1], out[i]
            blank = len(stmt.leading_lines) - len(list(
                dropwhile(lambda ln: ln.comment is None, stmt.leading_lines)))
            if id(before) in self.defined and blank < gap:
                out[i] = stmt.with_changes(leading_lines=[*[cst.EmptyLine()] * (gap - blank), *stmt.leading_lines])
        return out

    def leave_Try(self, original: cst.Try, updated: cst.Try):
        final = updated.finalbody
        if final is not None and _only_pass(final.body) and updated.handlers:
            return updated.with_changes(finalbody=None)
        if final is not None and _only_pass(final.body) and updated.orelse is None:
            return cst.FlattenSentinel(list(updated.body.body))
        return updated


def _only_pass(block: cst.BaseSuite) -> bool:
    body = block.body if isinstance(block, cst.IndentedBlock) else []
    return len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and all(
        isinstance(s, cst.Pass) for s in body[0].body)


def _blocks(module: cst.Module) -> list[Sequence[cst.BaseStatement]]:
    return [module.body, *(n.body for n in walk(module) if isinstance(n, cst.IndentedBlock))]


def to_datasets(module: cst.Module, aliases: Aliases, lines: dict[int, int], findings: list[Finding]) -> cst.Module:
    """The module with its queue pipelines as tf.data pipelines, or as it was (with a note why)."""
    producers = [(block, i) for block in _blocks(module) for i, stmt in enumerate(block)
                 if (found := _assign(stmt)) is not None and isinstance(found[1], cst.Call)
                 and aliases.resolve(found[1].func) in PRODUCERS]
    if not producers:
        return module
    taken = {n.value for n in walk(module) if isinstance(n, cst.Name)}
    pipelines: list[_Pipeline] = []
    try:
        for block, at in producers:
            pipelines.append(_pipeline(block, at, aliases, module, taken))
        runners = _runners(module, aliases)
        converted = {id(n) for p in pipelines for s in [*p.parts, *p.moved, p.batch] for n in walk(s)}
        for call in (n for n in walk(module) if isinstance(n, cst.Call) and id(n) not in converted):
            path = aliases.resolve(call.func) or ""
            if path in QUEUE_INPUTS and path != RUNNERS:
                raise _Kept(f"tf.{path} feeds a queue this pass does not convert")
    except _Kept as why:
        if not why.quiet:
            line = lines.get(id(producers[0][0][producers[0][1]]), 0)
            findings.append(Finding(RULE.id, line, 0, f"queue-runner input kept: {why}", "info"))
        return module
    emitted: dict[int, list[cst.BaseStatement]] = {}
    removed = set(runners.statements)
    for p in pipelines:
        parse, statements = _emitted(p, _free("dataset", taken), p.block is module.body, lines)
        record_line(lines, parse, lines.get(id(p.producer), 0))
        for stmt in statements:
            fill_lines(stmt, lines.get(id(p.batch), 0), lines)
        emitted[id(p.producer)], emitted[id(p.batch)] = [parse], statements
        removed |= {id(s) for s in [*p.parts, *p.moved]}
        findings.append(Finding(RULE.id, lines.get(id(p.producer), 0), 0,
                                f"queue-runner input → tf.data: {p.summary}; each run takes the next batch "
                                "from a one-shot iterator", "fixed"))
    if runners.statements:
        first = min((line for s in walk(module) if id(s) in runners.statements
                     if (line := lines.get(id(s), 0))), default=0)
        findings.append(Finding(RULE.id, first, 0, "tf.train.Coordinator and queue runners removed: "
                                "tf.data needs no threads started", "fixed"))
    new = module.visit(_Rewrite(emitted, removed, runners.stops, lines))
    assert isinstance(new, cst.Module)
    return new


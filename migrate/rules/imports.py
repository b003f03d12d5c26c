"""TF101: `import tensorflow.compat.v1 as tf` + `disable_eager_execution()` → `import tensorflow as tf`."""

from __future__ import annotations

import libcst as cst

from ..codegen import comments, copy_lines, inner_comments, merge_leading, with_closing_comments
from ..imports import Aliases, dotted
from . import Rule

RULE = Rule(
    id="TF101",
    name="import-tensorflow-v2",
    summary="Import TensorFlow 2 and drop the calls that switch TF1 behaviour on.",
    doc=(
        "`import tensorflow.compat.v1 as tf`, `from tensorflow.compat import v1 as tf`, any "
        "other alias and try/except import shims become one `import tensorflow as tf`; names "
        "used through another alias are respelled `tf.`. "
        "`disable_eager_execution()`, `disable_v2_behavior()` and `reset_default_graph()` are "
        "removed: the rewritten program runs eagerly and builds graphs with `tf.function`."
    ),
    kind="auto",
)

# Calls that only configure TF1 graph mode; an idiomatic rewrite drops them.
MODE_CALLS = frozenset({
    "disable_eager_execution", "disable_v2_behavior", "reset_default_graph",
    "enable_resource_variables", "disable_tensor_equality",
    "python.framework.ops.reset_default_graph",  # `from tensorflow.python.framework import ops`
})


def is_mode_call(stmt: cst.BaseSmallStatement, aliases: Aliases) -> bool:
    return (
        isinstance(stmt, cst.Expr)
        and isinstance(stmt.value, cst.Call)
        and aliases.resolve(stmt.value.func) in MODE_CALLS
    )


def _imports_tf(stmt: cst.CSTNode) -> str | None:
    """Alias bound by an import of the TF (or compat.v1) module, or None."""
    if isinstance(stmt, cst.Import) and len(stmt.names) == 1:
        alias = stmt.names[0]
        path = ".".join(dotted(alias.name) or [])
        if path in ("tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2"):
            if alias.asname is not None:
                return alias.asname.name.value  # type: ignore[union-attr]
            return "tensorflow" if path == "tensorflow" else None
    if isinstance(stmt, cst.ImportFrom) and stmt.module is not None:
        path = ".".join(dotted(stmt.module) or [])
        names = stmt.names
        if path == "tensorflow.compat" and not isinstance(names, cst.ImportStar) and len(names) == 1:
            alias = names[0]
            if isinstance(alias.name, cst.Name) and alias.name.value in ("v1", "v2"):
                return alias.asname.name.value if alias.asname else alias.name.value  # type: ignore[union-attr]
    return None


# Every rewritten file reaches TensorFlow through this one name.
OUT_ALIAS = "tf"
TF2_IMPORT = f"import tensorflow as {OUT_ALIAS}\n"


def v2_import(stmt: cst.BaseStatement) -> cst.BaseStatement | None:
    """`import tensorflow as tf` replacing a TF import statement or import shim; None if not one."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        alias = _imports_tf(stmt.body[0])
        if alias is None:
            return None
        if cst.Module([]).code_for_node(stmt.with_changes(leading_lines=())) == TF2_IMPORT:
            return stmt
        new = cst.parse_statement(TF2_IMPORT)
        return new.with_changes(leading_lines=stmt.leading_lines)  # type: ignore[union-attr]
    if isinstance(stmt, cst.Try) and stmt.handlers and not stmt.orelse and not stmt.finalbody:
        blocks = [stmt.body.body] + [h.body.body for h in stmt.handlers]
        aliases = set()
        for block in blocks:
            for inner in block:
                if not isinstance(inner, cst.SimpleStatementLine):
                    return None
                for small in inner.body:
                    alias = _imports_tf(small)
                    if alias is not None:
                        aliases.add(alias)
                    elif not (isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)):
                        return None
        if len(aliases) == 1:
            new = cst.parse_statement(TF2_IMPORT)
            return new.with_changes(leading_lines=stmt.leading_lines)  # type: ignore[union-attr]
    return None


#: The comment on the statement starting a file of a program of several files (`migrate.programs`).
SEGMENT_MARK = "# tfmigrate:segment:"


def starts_file(stmt: cst.BaseStatement) -> bool:
    """The statement marking where the next file of a program of several files starts."""
    return (isinstance(stmt, cst.SimpleStatementLine) and stmt.trailing_whitespace.comment is not None
            and stmt.trailing_whitespace.comment.value.startswith(SEGMENT_MARK))


def with_v2_imports(
    body: list[cst.BaseStatement] | tuple[cst.BaseStatement, ...], lines: dict[int, int] | None = None,
) -> list[cst.BaseStatement]:
    """A module body with its TF imports replaced by one `import tensorflow as tf` (one for each
    file of a program of several files, which each need their own). The comments of an import
    dropped as a repeat go above the next statement (`lines`: where the statements came from)."""
    out: list[cst.BaseStatement] = []
    seen = False
    pending: list[cst.EmptyLine] = []
    for stmt in body:
        new = v2_import(stmt)
        if new is not None and seen:
            pending += [*stmt.leading_lines, *inner_comments(stmt)]
            continue
        kept = stmt if new is None else new
        if pending:
            noted = kept.with_changes(leading_lines=merge_leading(pending, list(kept.leading_lines)))
            if lines is not None:
                copy_lines(kept, noted, lines)
            kept, pending = noted, []
        out.append(kept)
        seen = True if new is not None else seen and not starts_file(stmt)
    if pending and out:
        out[-1] = with_closing_comments(out[-1:], comments(pending))[0]
    return out

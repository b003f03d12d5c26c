"""`# tfmigrate: skip` comments: the statement they end is left exactly as written."""

from __future__ import annotations

import libcst as cst

SKIP_FILE = "# tfmigrate: skip-file"
SKIP_STATEMENT = "# tfmigrate: skip"


def _is_skip(comment: cst.Comment | None) -> bool:
    return comment is not None and comment.value.strip() == SKIP_STATEMENT


def is_skipped(stmt: cst.CSTNode) -> bool:
    """True for a statement whose line (or compound header) ends with the skip comment."""
    if isinstance(stmt, cst.SimpleStatementLine):
        return _is_skip(stmt.trailing_whitespace.comment)
    body = getattr(stmt, "body", None)
    if isinstance(body, cst.IndentedBlock):
        return _is_skip(body.header.comment)
    return False

"""Variable listings: what TF1's variable collections held, spelled as TF2 reads it
(plain variables by name, Keras layers' and models' weights once they are built).
"""

from __future__ import annotations

import libcst as cst

from ..graph import INSIDE, Node
from ..report import Unsupported
from ..rules.eager_reads import RULE as EAGER_RULE
from . import layer_instances
from .state import MoveState


def lazy_owners(move: MoveState, node: Node) -> list[str]:
    """Keras layers and models a graph node calls: their weights exist once called."""
    if node.kind not in INSIDE:
        return []
    assert move.models is not None
    layers = [str(node.info["instance"])] if layer_instances.layer_has_weights(node) else []
    return layers + move.models.models_called(node.value)


def variable_listing(move: MoveState, attr: str, stmt: cst.BaseStatement, names_unused: bool) -> str:
    """The variables TF1's collection held, in creation order: plain variables by name,
    Keras layers' and models' through `attr` (only where their names are not used: a
    Keras variable's `name` is not TF1's scoped name)."""
    if attr == "variables" and any(n.kind == "train" for n in move.scope.nodes):
        raise Unsupported(EAGER_RULE.id, move.line(stmt), "global variables listed after a train op (TF1 lists its optimizer slots)")
    if move.graph_instances or move.variable_factories:
        raise Unsupported(EAGER_RULE.id, move.line(stmt), "variables created where the program model does not list them")
    parts: list[str] = []
    plain: list[str] = []
    for node in move.scope.nodes:
        if node.kind == "variable":
            if attr == "variables" or node.trainable:
                container = node.info.get("container")
                plain.extend([{"dict": f"*{node.name}.values()", "list": f"*{node.name}"}[str(container)]]
                             if container else node.names)
            continue
        for owner in lazy_owners(move, node):
            if not names_unused:
                raise Unsupported(EAGER_RULE.id, move.line(stmt), "names of Keras variables read from a TF1 variable list")
            if f"{owner}.{attr}" not in parts:
                parts.extend([f"[{', '.join(plain)}]"] if plain else [])
                plain = []
                parts.append(f"{owner}.{attr}")
    parts.extend([f"[{', '.join(plain)}]"] if plain else [])
    return " + ".join(parts) or "[]"


def keras_listing(listing: cst.BaseExpression) -> bool:
    """A listing made only of Keras owners' variables (`a.trainable_variables + b...`)."""
    while isinstance(listing, cst.BinaryOperation):
        if not keras_listing(listing.right):
            return False
        listing = listing.left
    return isinstance(listing, cst.Attribute)

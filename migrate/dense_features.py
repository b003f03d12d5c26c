"""`tf.keras.layers.DenseFeatures(columns)(features)` → `tf.compat.v1.feature_column.input_layer(
features, columns)`: Keras 3 has no DenseFeatures, and TF 2.21 still runs TF1's input layer,
eagerly too. Both order the columns by name and concatenate the same dense tensors.

Two shapes convert: the layer called where it is made, and a layer bound to a name in a block
whose one other use is a call later in that block (the TF guides' `call_feature_columns`).
The layer kept its embedding variables from call to call; `input_layer` makes them at each
call (the finding says so). Any other use of the layer (in a model, called twice) is left.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from .imports import Aliases
from .walk import walk

PATH = "keras.layers.DenseFeatures"
NOTE = ("tf.keras.layers.DenseFeatures → tf.compat.v1.feature_column.input_layer (Keras 3 has no "
        "DenseFeatures; the same columns in the same order; an embedding column gets its variables at each call)")


def columns(call: cst.BaseExpression, aliases: Aliases) -> cst.BaseExpression | None:
    """The feature columns of a `DenseFeatures(columns)` made with nothing else."""
    if not (isinstance(call, cst.Call) and aliases.resolve(call.func) == PATH and len(call.args) == 1):
        return None
    arg = call.args[0]
    if arg.star or (arg.keyword is not None and arg.keyword.value != "feature_columns"):
        return None
    return arg.value


def features(call: cst.Call) -> cst.BaseExpression | None:
    """The features a layer is called with, when that is all it is given."""
    if len(call.args) != 1 or call.args[0].star:
        return None
    arg = call.args[0]
    return arg.value if arg.keyword is None or arg.keyword.value == "features" else None


def input_layer(alias: str, given: cst.BaseExpression, cols: cst.BaseExpression) -> cst.Call:
    func = cst.parse_expression(f"{alias}.compat.v1.feature_column.input_layer")
    return cst.Call(func=func, args=[cst.Arg(given), cst.Arg(cols)])


def inline(call: cst.Call, updated: cst.Call, aliases: Aliases, alias: str) -> cst.Call | None:
    """`DenseFeatures(cols)(x)` (original `call`, renamed `updated`) as `input_layer(x, cols)`."""
    if columns(call.func, aliases) is None or features(updated) is None:
        return None
    return input_layer(alias, features(updated), updated.func.args[0].value)  # type: ignore[arg-type, attr-defined]


def _bound_layer(stmt: cst.BaseStatement, aliases: Aliases) -> str | None:
    """`name = DenseFeatures(cols)`: the name."""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)):
        return None
    assign = stmt.body[0]
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
        return None
    return assign.targets[0].target.value if columns(assign.value, aliases) is not None else None


def _uses(node: cst.CSTNode, name: str) -> list[cst.Name]:
    return [n for n in walk(node) if isinstance(n, cst.Name) and n.value == name]


def _the_call(stmt: cst.BaseStatement, name: str) -> bool:
    """The statement uses the name once, as `name(features)`."""
    uses = _uses(stmt, name)
    calls = [n for n in walk(stmt) if isinstance(n, cst.Call) and isinstance(n.func, cst.Name)
             and n.func.value == name and features(n) is not None]
    return len(uses) == 1 and len(calls) == 1


class _CallReplacer(cst.CSTTransformer):
    def __init__(self, name: str, alias: str, cols: cst.BaseExpression) -> None:
        super().__init__()
        self.name, self.alias, self.cols = name, alias, cols

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if isinstance(updated_node.func, cst.Name) and updated_node.func.value == self.name:
            return input_layer(self.alias, features(updated_node), self.cols)  # type: ignore[arg-type]
        return updated_node


def bound_layers(block: Sequence[cst.BaseStatement], scope: cst.CSTNode, aliases: Aliases) -> dict[int, int]:
    """Statement index of each `name = DenseFeatures(cols)` in the block whose name's one
    other use in its scope (function or module) is a call in a later statement → that index."""
    plan = {}
    for i, stmt in enumerate(block):
        name = _bound_layer(stmt, aliases)
        if name is None:
            continue
        later = [j for j in range(i + 1, len(block)) if _uses(block[j], name)]
        if len(later) == 1 and len(_uses(scope, name)) == 2 and _the_call(block[later[0]], name):
            plan[i] = later[0]
    return plan


def layer_func(stmt: cst.BaseStatement) -> cst.BaseExpression:
    """The `DenseFeatures` of a statement `bound_layers` picked."""
    return stmt.body[0].value.func  # type: ignore[attr-defined]


def fold(body: Sequence[cst.BaseStatement], plan: dict[int, int], alias: str) -> list[cst.BaseStatement]:
    """The (renamed) block with each planned layer folded into its call."""
    out: list[cst.BaseStatement | None] = list(body)
    for i, j in plan.items():
        made, call = out[i], out[j]
        assert made is not None and call is not None
        name = made.body[0].targets[0].target.value  # type: ignore[attr-defined]
        cols = made.body[0].value.args[0].value  # type: ignore[attr-defined]
        call = call.visit(_CallReplacer(name, alias, cols))  # type: ignore[assignment]
        out[j] = call.with_changes(leading_lines=[*made.leading_lines, *call.leading_lines])  # type: ignore[union-attr]
        out[i] = None
    return [s for s in out if s is not None]


class Folding(cst.CSTTransformer):
    """The rename pass's part: plans each block's folds on the way in (on original nodes),
    folds on the way out; `dense_layers` are the DenseFeatures names it drops (not renamed,
    not reported as missing from TF 2.21)."""

    aliases: Aliases
    alias: str

    def __init__(self) -> None:
        super().__init__()
        self.folds_dense_features = True
        self.scopes: list[cst.CSTNode] = []  # the module and the functions entered (name scopes)
        self.dense_plans: dict[int, dict[int, int]] = {}  # block -> `bound_layers`
        self.dense_layers: set[int] = set()

    def _dense_features_done(self, node: cst.CSTNode) -> None:
        raise NotImplementedError

    def _inline_dense_features(self, node: cst.Call) -> None:
        if (self.folds_dense_features and isinstance(node.func, cst.Call)
                and columns(node.func, self.aliases) is not None and features(node) is not None):
            self.dense_layers.add(id(node.func.func))

    def visit_Module(self, node: cst.Module) -> None:
        self.scopes.append(node)
        self._plan_dense_features(node, node.body)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        if self.scopes and self.scopes[-1] is original_node:
            self.scopes.pop()
        return updated_node

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._plan_dense_features(node, node.body)

    def _plan_dense_features(self, block: cst.CSTNode, body: Sequence[cst.BaseStatement]) -> None:
        """DenseFeatures layers bound to a name and called once (`dense_features`): folded on leave."""
        if not self.scopes or not self.folds_dense_features:
            return
        plan = bound_layers(body, self.scopes[-1], self.aliases)
        if plan:
            self.dense_plans[id(block)] = plan
            for i in plan:
                self.dense_layers.add(id(layer_func(body[i])))
                self._dense_features_done(body[i])

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        plan = self.dense_plans.pop(id(original_node), None)
        return updated_node if plan is None else updated_node.with_changes(
            body=fold(updated_node.body, plan, self.alias))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        plan = self.dense_plans.pop(id(original_node), None)
        return updated_node if plan is None else updated_node.with_changes(
            body=fold(updated_node.body, plan, self.alias))


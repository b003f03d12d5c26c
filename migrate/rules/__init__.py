"""The rule table: every rewrite the tool can make, with a stable id and its documentation.

Each rule lives in a module of its own and exports `RULE`; `RULES` is the single registry that
`all_rules()`, rule selection and finding ids read.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    summary: str
    doc: str
    kind: str  # "auto" | "manual"


def _load() -> dict[str, Rule]:
    from . import (
        absl_flags,
        api_rename,
        assign,
        compat_fallback,
        control_flow,
        data,
        dimensions,
        eager_reads,
        get_variable,
        gradients,
        graph_loops,
        imports,
        keras_seeds,
        layers,
        losses,
        optimizers,
        rnn_cells,
        rnn_layers,
        saver,
        session,
        summaries,
        tutorial_mnist,
        variable_scope,
    )

    modules = (
        imports, session, get_variable, variable_scope, gradients, optimizers, assign,
        api_rename, layers, losses, rnn_cells, rnn_layers, saver, summaries, data, dimensions,
        eager_reads, control_flow, graph_loops, compat_fallback, keras_seeds, absl_flags,
        tutorial_mnist,
    )
    rules = [m.RULE for m in modules] + [optimizers.RMSPROP_RULE, optimizers.MOMENTUM_RULE, data.QUEUE_RULE]
    return {rule.id: rule for rule in sorted(rules, key=lambda r: r.id)}


RULES: dict[str, Rule] = _load()

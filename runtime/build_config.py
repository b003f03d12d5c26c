"""What each program built, compared: initializers, dropouts, losses.

A setting can change without changing a number the run shows: a kernel drawn from a normal
where the original drew from a uniform and then overwritten by a restore, a dropout rate of
a layer the run only evaluates, a sum where the original took a mean over a batch of one.
The engine describes each in one vocabulary for TF1 and TF2 (``update_rules.build_rule``),
the trace keeps them (``initializer_drawn``, ``configured``), and they are compared with the
optimizers' update rules' own ``rule_difference``, so a difference is *different* with both
settings and both lines, whatever the tolerance:

- a variable's initializer, through the pairing of variables (``compare.pair_variables``);
  a variable either side starts without an initializer (from a tensor or an array) has no
  rule, and is compared by its values alone;
- dropouts and losses, in the order each program first builds them, when both build as many;
  otherwise they are not paired, and a note says so.
"""

from __future__ import annotations

from typing import Any

from runtime.observables import Divergence
from runtime.update_rules import rule_difference
from runtime.variable_pairs import first_steps, model_variables, pair_variables

#: What ``trace.configured`` records, paired by order.
BUILT_KINDS = ("dropout", "loss")


def compare_built(old: dict[str, Any], new: dict[str, Any]) -> tuple[Divergence | None, list[str]]:
    """The first setting built otherwise (initializers first, by the original's creation
    order), and notes on what could not be paired."""
    old_vars, new_vars = old["variables"], new["variables"]
    pairs = pair_variables(old_vars, new_vars, model_variables(old), model_variables(new), first_steps(old), first_steps(new))
    for i, j in sorted(pairs.items()):
        changed = rule_difference(old_vars[i].get("init"), new_vars[j].get("init"))
        if changed is not None:
            what, a, b = changed
            name = old_vars[i]["var"]
            return Divergence("configuration", None, name, a, b, old_vars[i]["line"],
                              new_vars[j]["line"], f"{name} draws its initial value otherwise: {what}"), []
    notes = []
    for kind in BUILT_KINDS:
        built = [[b for b in trace.get("built", []) if b["rule"]["kind"] == kind] for trace in (old, new)]
        if len(built[0]) != len(built[1]):
            notes.append(f"the original builds {len(built[0])} {kind} setting(s), the rewrite "
                         f"{len(built[1])}: those were not compared")
            continue
        for k, (a, b) in enumerate(zip(*built), 1):
            changed = rule_difference(a["rule"], b["rule"])
            if changed is not None:
                what, old_value, new_value = changed
                return Divergence("configuration", None, None, old_value, new_value, a["line"],
                                  b["line"], f"{kind} {k} of each program is built otherwise: {what}"), notes
    return None, notes

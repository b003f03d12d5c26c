"""TF129: a Python loop building graph pieces → variables listed once, computation in the step."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF129",
    name="graph-building-loop",
    summary="Split a loop that creates variables and computes with them: variables listed once, computation replayed in the step.",
    doc=(
        "A `for` loop over a `range(...)`, a literal list or a name, whose body creates "
        '`tf.Variable`s and computes tensors with them (`W = tf.Variable(..., name="weight_%d" % i)`, '
        "`y = tf.add(tf.multiply(tf.pow(x, i), W), y)`), becomes a list of the variables per "
        "loop variable (`W_list = [tf.Variable(...) for i in range(...)]`, created at the top "
        "level in TF1's order with TF1's names) and a loop over the same values zipped with "
        "those lists that the step function replays. A name the loop carries from a variable "
        "made before it takes the variable's TF1 name, and the step binds the carried name to it "
        "before the loop. A loop of assignments that computes from fed or computed tensors and "
        "creates no variable is replayed in the step as it is. Loops whose variables read what "
        "the loop computes, that make several unnamed variables per iteration, whose loop "
        "variable or variables are read after the loop or named like a value bound before it "
        "are not split: the file keeps TF1 graph semantics under tf.compat.v1, with a finding."
    ),
    kind="auto",
)

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
        "before the loop. Loops whose variables read what the loop computes, that make several "
        "unnamed variables per iteration, or whose loop variable or variables are read after "
        "the loop stay as they are (and the file under tf.compat.v1)."
    ),
    kind="auto",
)

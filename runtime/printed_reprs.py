"""Printed text with nothing to compare: a TF1 graph tensor's description, a memory address.

`print(node)` of a TF1 graph tensor prints `Tensor("Const:0", shape=(), dtype=float32)`, its
name and static shape; TF2 has no graph tensor to describe and prints the value. An object's
default repr holds its address, which differs from run to run of the same program. A first
difference on such a line proves neither program wrong, so the verdict is *unverified*.
"""

from __future__ import annotations

import re

#: TF1's repr of a graph tensor (`Tensor("add:0", shape=(2,), dtype=float32)`).
_GRAPH_TENSOR = re.compile(r'\bTensor\("[^"]*", shape=(?:\([^)]*\)|<unknown>)(?:, dtype=\w+)?\)')
#: Python's default repr (`<module.Class object at 0x7f8e78667450>`).
_ADDRESS = re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>")


def incomparable(line: str) -> str | None:
    """Why a differing printed line cannot be compared, or None when it can."""
    tensor = _GRAPH_TENSOR.search(line)
    if tensor is not None:
        return f"the original prints a graph tensor's description ({tensor.group()}), not its value"
    address = _ADDRESS.search(line)
    if address is not None:
        return f"the original prints an object's memory address ({address.group()}), which changes from run to run"
    return None

"""Feed dicts built in a variable: `feed = {x: xs, y: ys}` ... `sess.run(op, feed_dict=feed)`.

Placeholders do not exist in TF2, so such a dict is keyed by the placeholder's name instead
(`{"x": xs, "y": ys}`, `feed["keep_prob"] = 1.0`); a run site that feeds it passes
`feed["x"], feed["y"]` to its step function, whose parameters carry those names. A graph
class's placeholder `self.x` is keyed `"x"`, as its step's parameter is named.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from .graph_classes import PREFIX as SELF_PREFIX
from .walk import walk


def dict_feed_keys(value: cst.BaseExpression, is_placeholder: Callable[[str], bool]) -> list[str] | None:
    """The placeholder names keying a dict literal, None unless every key is one."""
    if not isinstance(value, cst.Dict) or not value.elements:
        return None
    keys: list[str] = []
    for element in value.elements:
        if not (isinstance(element, cst.DictElement) and isinstance(element.key, cst.Name)
                and is_placeholder(element.key.value)):
            return None
        keys.append(element.key.value)
    return keys


def subscript_key(node: cst.BaseExpression, feeds: dict[str, list[str]],
                  is_placeholder: Callable[[str], bool]) -> tuple[str, cst.Name] | None:
    """(feed variable, placeholder name node) for `feed[x]` on a recorded feed variable."""
    if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name)
            and node.value.value in feeds and len(node.slice) == 1):
        return None
    index = node.slice[0].slice
    if isinstance(index, cst.Index) and isinstance(index.value, cst.Name) and is_placeholder(index.value.value):
        return node.value.value, index.value
    return None


def record(stmt: cst.CSTNode, feeds: dict[str, list[str]], is_placeholder: Callable[[str], bool]) -> dict[int, list[str]]:
    """Record the feed variables a statement builds; the ids of the placeholder names it keys
    by, each with the keys of its feed."""
    keyed: dict[int, list[str]] = {}

    for node in walk(stmt):
        if not isinstance(node, cst.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0].target
        keys = dict_feed_keys(node.value, is_placeholder)
        if keys is not None and isinstance(target, cst.Name):
            feeds[target.value] = keys
            keyed.update((id(e.key), keys) for e in node.value.elements)  # type: ignore[union-attr]
            continue
        found = subscript_key(target, feeds, is_placeholder)  # type: ignore[arg-type]
        if found is not None:
            if found[1].value not in feeds[found[0]]:
                feeds[found[0]].append(found[1].value)
            keyed[id(found[1])] = feeds[found[0]]
    return keyed


def key_text(name: str, keys: list[str]) -> str:
    """The string a placeholder is keyed by: its user-facing name (`self__x` → `x`) unless that
    is another key of the same feed."""
    short = name.removeprefix(SELF_PREFIX)
    return short if short == name or short not in keys else name


def string_key(name: cst.Name, keys: list[str]) -> cst.SimpleString:
    return cst.SimpleString(f'"{key_text(name.value, keys)}"')


def fed_values(feed: str, keys: list[str]) -> dict[str, cst.BaseExpression]:
    """Each fed placeholder's value, read from the feed variable."""
    return {key: cst.parse_expression(f'{feed}["{key_text(key, keys)}"]') for key in keys}

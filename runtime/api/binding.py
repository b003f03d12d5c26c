"""Bind a call to an engine function by TF 2.21's signature, so it fails where TF's would.

A rewrite that passes ``dim=`` to ``tf.nn.softmax_cross_entropy_with_logits`` (TF 2.21 says
``axis``), or five positionals where TF reads the third as ``dtype``, must not run on the engine
either. Only a function whose own signature differs from the recorded one is wrapped, once,
when its facade module first hands it out; a call that uses the parameters the two share, in
the same positions, goes straight through, so the common call costs one length check.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from runtime.api import manifest
from runtime.errors import Unsupported

_KINDS = inspect.Parameter
_POSITIONAL = (_KINDS.POSITIONAL_ONLY, _KINDS.POSITIONAL_OR_KEYWORD)


def _same_position(tf_param: inspect.Parameter, own: inspect.Parameter, own_names: set) -> bool:
    """Whether a positional argument means the same to both: one name, or a name the engine
    does not use at all (``features`` in TF, ``x`` in the engine; TF1's ``value`` where the
    engine says ``input``)."""
    if tf_param.kind not in _POSITIONAL or own.kind not in _POSITIONAL:
        return False
    return tf_param.name == own.name or ("name" not in (tf_param.name, own.name) and tf_param.name not in own_names)


Prepare = Callable[[tuple, dict], tuple[tuple, dict]]


def as_tf(fn: Callable, tf_text: str, api_name: str) -> Callable:
    """``fn``, or a wrapper that binds every call by ``tf_text`` (a manifest signature) first."""
    own_text = manifest.signature_text(fn)
    if own_text is None or own_text == tf_text:
        return fn
    prepare = _binder(inspect.signature(fn), tf_text, api_name)

    @functools.wraps(fn)
    def bound_as_tf(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = prepare(args, kwargs)
        return fn(*args, **kwargs)

    bound_as_tf.__signature__ = manifest.parse_signature(tf_text)  # what inspect and help() show
    return bound_as_tf


class _BoundClassMeta(type):
    """The metaclass of a class bound by TF's signature: the bound class stands for the engine
    class in ``isinstance`` and ``issubclass``, so objects the engine makes pass as well."""

    def __instancecheck__(cls, obj: Any) -> bool:
        engine = cls.__dict__.get("_tf_engine_class")
        return isinstance(obj, engine) if engine is not None else super().__instancecheck__(obj)

    def __subclasscheck__(cls, sub: type) -> bool:
        engine = cls.__dict__.get("_tf_engine_class")
        return issubclass(sub, engine) if engine is not None else super().__subclasscheck__(sub)


def class_as_tf(cls: type, tf_text: str, api_name: str) -> type:
    """``cls``, or a subclass whose constructor binds its arguments by ``tf_text`` first."""
    own_text = manifest.signature_text(cls)
    if own_text is None or own_text == tf_text or type(cls) is not type or "__new__" in vars(cls):
        return cls
    prepare = _binder(inspect.signature(cls), tf_text, api_name)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        args, kwargs = prepare(args, kwargs)
        cls.__init__(self, *args, **kwargs)

    return _BoundClassMeta(cls.__name__, (cls,), {
        "__init__": __init__, "__module__": cls.__module__, "__qualname__": cls.__qualname__,
        "__doc__": cls.__doc__, "__signature__": manifest.parse_signature(tf_text), "_tf_engine_class": cls})


def _binder(own_sig: inspect.Signature, tf_text: str, api_name: str) -> Prepare:
    """Turns a call as TF would bind it into the arguments the engine's signature takes."""
    tf_sig = manifest.parse_signature(tf_text)
    tf_params = list(tf_sig.parameters.values())
    own_params = list(own_sig.parameters.values())
    own_names = {p.name for p in own_params}
    own_varkw = any(p.kind is _KINDS.VAR_KEYWORD for p in own_params)
    tf_varkw = any(p.kind is _KINDS.VAR_KEYWORD for p in tf_params)
    tf_keywords = frozenset(p.name for p in tf_params if p.kind in (_KINDS.POSITIONAL_OR_KEYWORD, _KINDS.KEYWORD_ONLY))
    # Positional arguments ``fn`` reads as TF does: the leading run of same-meaning positions.
    safe = 0
    rename: dict[str, str] = {}
    for tf_param, own in zip(tf_params, own_params):
        if not _same_position(tf_param, own, own_names):
            break
        safe += 1
        rename[tf_param.name] = own.name
    # At least what either side requires must come positionally for the fast path.
    required = max(sum(1 for p in params if p.kind in _POSITIONAL and p.default is p.empty)
                   for params in (tf_params, own_params))
    fast_ok = (required <= safe and not any(p.kind is _KINDS.VAR_POSITIONAL for p in tf_params)
               and not any(p.kind is _KINDS.KEYWORD_ONLY and p.default is p.empty for p in tf_params + own_params))
    # Keywords both accept under one name, at one position or past the safe run on both sides,
    # so that a positional argument fills the same parameter on both or on neither.
    keywordable = (_KINDS.POSITIONAL_OR_KEYWORD, _KINDS.KEYWORD_ONLY)
    tf_index = {p.name: i if p.kind in _POSITIONAL else len(tf_params) + len(own_params)
                for i, p in enumerate(tf_params) if p.kind in keywordable}
    own_index = {p.name: i if p.kind in _POSITIONAL else len(tf_params) + len(own_params)
                 for i, p in enumerate(own_params) if p.kind in keywordable}
    shared_keywords = frozenset(k for k, i in tf_index.items() if k in own_index
                                and (i == own_index[k] or min(i, own_index[k]) >= safe))

    def slow(args: tuple, kwargs: dict) -> Any:
        unexpected = [k for k in kwargs if k not in tf_keywords] if not tf_varkw else []
        if unexpected:  # Python reports these before a missing argument; so does TF
            raise TypeError(f"{api_name}() got an unexpected keyword argument '{unexpected[0]}'")
        try:
            bound = tf_sig.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{api_name}() {exc}") from None
        values: dict[str, Any] = {}
        extra_args: tuple = ()
        for name, value in bound.arguments.items():
            kind = tf_sig.parameters[name].kind
            if kind is _KINDS.VAR_POSITIONAL:
                extra_args = value
                continue
            items = value.items() if kind is _KINDS.VAR_KEYWORD else ((name, value),)
            for key, item in items:
                own_name = key if key in own_names else rename.get(key)
                if own_name is None and not own_varkw:
                    raise Unsupported(f"{api_name}({key}=...)")
                values[own_name or key] = item
        call_args: list[Any] = []
        for own in own_params:
            if own.kind is _KINDS.VAR_POSITIONAL:
                call_args.extend(extra_args)
                extra_args = ()
                break
            if own.kind not in _POSITIONAL or own.name not in values:
                break
            call_args.append(values.pop(own.name))
        if extra_args:
            raise Unsupported(f"{api_name}(*{len(extra_args)} more positional arguments)")
        try:
            own_sig.bind(*call_args, **values)
        except TypeError:  # TF takes this call, the engine's function would not
            raise Unsupported(f"{api_name}({', '.join(bound.arguments)})") from None
        return tuple(call_args), values

    def prepare(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
        if fast_ok and required <= len(args) <= safe and (not kwargs or kwargs.keys() <= shared_keywords):
            return args, kwargs
        return slow(args, kwargs)

    return prepare

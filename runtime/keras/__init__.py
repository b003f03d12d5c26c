"""Keras 3 as seen through ``tf.keras`` in TF 2.21: Layer, Model, Dense, optimizers."""

from typing import Any


def present_as_keras(modules: dict[type, str], *methods: Any) -> None:
    """Make classes and methods look like Keras's own, since TF's messages quote them.

    Classes get their ``keras.src.<module>`` name (reprs, ``TypeError`` texts); methods
    lose their annotations, as Keras's untyped signatures show none.
    """
    import inspect

    for cls, module in modules.items():
        cls.__module__ = f"keras.src.{module}"
    for fn in methods:
        sig = inspect.signature(fn)
        fn.__signature__ = sig.replace(
            parameters=[p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()],
            return_annotation=inspect.Signature.empty)

"""Record TF 2.21's public API — every name and every callable's signature — from a REAL TensorFlow.

Usage (from the repository root, with the referee interpreter):
``$TFMIGRATE_TF_PYTHON tests/record_tf_api.py`` writes ``runtime/api/tf221_api.json``;
``--stdout`` prints the same JSON instead (the tf tier compares it with the committed file).

The engine's facade is checked against this file: it exposes no name the file lacks and binds
call arguments by the recorded signatures, so a rewrite that would not run on TF 2.21 does not
run on the engine either. The walk starts at ``tf`` and goes through every submodule (``tf.keras``
and ``tf.compat.v1`` included); a module reached again by another path (``tf.compat.v1.keras`` is
``tf.keras``) is recorded once and the other path says ``{"same_as": path}``. ``tf.compat.v2``
is ``tf`` again under another name: its names are recorded, its members are not walked. Modules
outside the public API (``tf.compat.v1.flags`` is ``tensorflow.python.platform.flags``,
``tf.compat.v1.test.mock`` is ``unittest.mock``) have their names recorded, not their members.

A signature is Python's parameter syntax without default values: ``"x, /, y, z=, *args, k=, **kw"``
(``=`` marks a parameter with a default).
"""

from __future__ import annotations

import collections
import json
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))
from runtime.api.manifest import PATH as OUT
from runtime.api.manifest import signature_text

#: Implementation modules some API modules expose (``tf.compat.v1.flags`` is
#: ``tensorflow.python.platform.flags``): their names are recorded, their members are not walked.
INTERNAL = ("tensorflow.python.", "tensorflow.dtensor.python", "tensorflow.dtensor.proto", "tensorflow.tools.",
            "tensorflow.security.fuzzing", "keras.src.")


def _walked(path: str, module: types.ModuleType) -> bool:
    """Whether the members of ``module`` are recorded as API modules of their own."""
    name = module.__name__
    public = name.startswith(("tensorflow", "keras")) and not name.startswith(INTERNAL)
    # compat.v1 and compat.v2 again under tf.compat.v1.compat: the same API under another name.
    return public and not (path.endswith((".compat.v1", ".compat.v2")) and path != "tf.compat.v1")


def record(tf: types.ModuleType) -> dict[str, dict]:
    """Breadth first from ``tf``, so every module is recorded under its shortest path."""
    api: dict[str, dict] = {}
    seen: dict[int, str] = {}
    queue = collections.deque([("tf", tf)])
    while queue:
        path, module = queue.popleft()
        if id(module) in seen:
            api[path] = {"same_as": seen[id(module)]}
            continue
        seen[id(module)] = path
        try:
            names = sorted(n for n in dir(module) if not n.startswith("_"))
        except ImportError as exc:  # a lazy module whose target is missing: TF fails on any use
            print(f"not recorded: {path}: {exc}", file=sys.stderr)
            continue
        signatures: dict[str, str] = {}
        for name in names:
            try:
                value = getattr(module, name)
            except (ImportError, AttributeError) as exc:  # a lazy member that fails to load is still a name
                print(f"name only: {path}.{name}: {exc}", file=sys.stderr)
                continue
            if isinstance(value, types.ModuleType):
                if _walked(path, module):
                    queue.append((f"{path}.{name}", value))
            elif callable(value):
                text = signature_text(value)
                if text is not None:
                    signatures[name] = text
        api[path] = {"module": module.__name__, "names": names, "signatures": signatures}
    return api


def dumps(api: dict[str, dict]) -> str:
    """One module per line, sorted: small diffs when TensorFlow changes."""
    lines = [f"{json.dumps(path)}: {json.dumps(api[path], sort_keys=True, separators=(',', ':'))}"
             for path in sorted(api)]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: list[str]) -> int:
    del sys.argv[1:]  # absl parses sys.argv when the walk first reads tf.compat.v1.flags.FLAGS
    import tensorflow as tf

    if not tf.__version__.startswith("2.21."):
        print(f"needs TensorFlow 2.21, found {tf.__version__}", file=sys.stderr)
        return 1
    text = dumps(record(tf))
    if "--stdout" in argv:
        sys.stdout.write(text)
    else:
        Path(OUT).write_text(text, encoding="utf-8")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

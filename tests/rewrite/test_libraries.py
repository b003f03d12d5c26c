"""Graph modules nothing in the tree imports: rewritten for the importers they will have."""

from __future__ import annotations

from pathlib import Path

from migrate.api import RewriteConfig, rewrite_source
from migrate.programs import libraries, rewrite_tree

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "trees" / "library_module"
MODEL = (FIXTURE / "before" / "model.py").read_bytes()
NOTEBOOK = b'{"cells": [{"cell_type": "code", "source": ["import model\\n"]}], "nbformat": 4}'


def _names(sources: dict[Path, bytes]) -> list[str]:
    return [str(f.path) for f in libraries(sources)]


def test_a_module_no_file_imports_is_a_library() -> None:
    assert _names({Path("/a/model.py"): MODEL}) == ["/a/model.py"]


def test_a_module_its_folder_imports_is_not_one() -> None:
    script = b"import tensorflow as tf\nimport model\n"
    assert _names({Path("/a/model.py"): MODEL, Path("/a/train.py"): script}) == []
    assert _names({Path("/a/model.py"): MODEL, Path("/a/train.ipynb"): NOTEBOOK}) == []


def test_a_module_imported_through_its_package_is_not_one() -> None:
    for line in (b"from a import model\n", b"import a.model\n", b"from pkg.a.model import inference\n"):
        assert _names({Path("/src/a/model.py"): MODEL, Path("/src/train.py"): line}) == [], line


def test_a_file_elsewhere_importing_its_own_module_of_that_name_does_not_count() -> None:
    script = b"import model\n"
    assert _names({Path("/a/model.py"): MODEL, Path("/b/train.py"): script}) == ["/a/model.py"]


def test_the_library_rewrite_says_how_importers_call_it() -> None:
    outcomes, refused = rewrite_tree({Path("/a/model.py"): MODEL}, RewriteConfig())
    assert refused == {}
    outcome = outcomes[Path("/a/model.py")]
    assert outcome.level == "idiomatic"
    messages = [f.message for f in outcome.findings]
    assert "inference is not called in this module: code importing it creates one Inference(regularizer) " \
           "and calls that object" in messages
    assert any(m.startswith("get_weight_variable is no longer defined here") for m in messages)
    assert "tf.compat.v1" not in outcome.code and "disable_eager_execution" not in outcome.code


def test_a_module_without_a_model_call_convention_keeps_its_call_with_one_instance() -> None:
    plain = MODEL.replace(b"regularizer", b"unused_config").replace(b"    if unused_config != None:\n        tf.add_to_collection('losses', unused_config(weights))\n", b"")
    result = rewrite_source(plain.decode(), filename="model.py", library=True)
    assert result.level == "idiomatic"
    assert "\ninference = Inference()\n" in result.code
    assert any("calls inference(...) as before" in f.message for f in result.findings)


def test_a_library_the_move_cannot_convert_is_renamed_as_any_module_and_says_why() -> None:
    odd = MODEL.replace(b"    return logits", b"    tf.add_to_collection('logits', logits)\n    return logits")
    alone = rewrite_source(odd, filename="model.py")
    result = rewrite_source(odd, filename="model.py", library=True)
    assert result.code == alone.code and result.level == alone.level == "partial"
    assert b"disable_eager_execution" not in result.code
    why = [f for f in result.findings if f not in alone.findings]
    assert [f.message for f in why] == [
        "TF1 code outside the program model (tf.add_to_collection); the file keeps TF1 graph semantics under tf.compat.v1"]
    assert [f for f in result.findings if f not in why] == alone.findings
    outcomes, _ = rewrite_tree({Path("/a/model.py"): odd}, RewriteConfig())
    assert outcomes == {}  # rewritten alone, as before


def test_a_script_with_a_session_is_never_a_library() -> None:
    script = MODEL + b"\nwith tf.Session() as sess:\n    pass\n"
    assert _names({Path("/a/model.py"): script}) == []

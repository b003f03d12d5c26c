"""The seed documents: TF2 code blocks are left alone; every TF1 program reaches idiomatic TF2."""

from pathlib import Path

import pytest
from helpers import TF1_NAMES, check_noop, code_names

from migrate.api import rewrite_source

SEEDS = Path(__file__).resolve().parents[2] / "fixtures" / "seeds"
TF2_BLOCKS = sorted(p for p in SEEDS.glob("*.py") if not p.stem.endswith("_tf1"))


@pytest.mark.parametrize("path", TF2_BLOCKS, ids=[p.stem for p in TF2_BLOCKS])
def test_seed_tf2_block_is_untouched(path: Path) -> None:
    check_noop(path.read_text(encoding="utf-8"))


TF1_PROGRAMS = sorted(SEEDS.glob("*_tf1.py"))


@pytest.mark.parametrize("path", TF1_PROGRAMS, ids=[p.stem for p in TF1_PROGRAMS])
def test_seed_tf1_program_reaches_idiomatic_tf2(path: Path) -> None:
    """No compat.v1, Session, placeholder, get_variable, variable_scope, tf.gradients or minimize left."""
    result = rewrite_source(path.read_text(encoding="utf-8"))
    assert result.level == "idiomatic", [f.message for f in result.findings if f.kind == "manual"]
    assert not (code_names(result.code) & TF1_NAMES), code_names(result.code) & TF1_NAMES

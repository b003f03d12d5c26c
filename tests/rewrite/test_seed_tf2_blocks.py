"""The TF2 code blocks of the seed documents are already TF2: the rewriter leaves them alone."""

from pathlib import Path

import pytest
from helpers import check_noop

SEEDS = Path(__file__).resolve().parents[2] / "fixtures" / "seeds"
TF2_BLOCKS = sorted(p for p in SEEDS.glob("*.py") if not p.stem.endswith("_tf1"))


@pytest.mark.parametrize("path", TF2_BLOCKS, ids=[p.stem for p in TF2_BLOCKS])
def test_seed_tf2_block_is_untouched(path: Path) -> None:
    check_noop(path.read_text(encoding="utf-8"))

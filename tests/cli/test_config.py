"""[tool.tfmigrate] settings: read, typed, and refused when wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from migrate.config import ConfigError, Settings, find_pyproject, load_settings


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pyproject.toml"
    path.write_text(text)
    return path


def test_defaults_without_a_file_or_table(tmp_path: Path) -> None:
    assert load_settings(None) == Settings()
    assert load_settings(write(tmp_path, "[project]\nname='x'\n")) == Settings()


def test_values_are_read_with_dashed_keys(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, """
[tool.tfmigrate]
ignore = ["TF999"]
extend-exclude = ["third_party/**"]
max-steps = 50
rtol = 1
jobs = 3
"""))
    assert settings.ignore == ("TF999",)
    assert settings.extend_exclude == ("third_party/**",)
    assert settings.max_steps == 50 and settings.jobs == 3
    assert settings.rtol == 1.0 and isinstance(settings.rtol, float)


@pytest.mark.parametrize("body, message", [
    ("colour = true", "unknown key 'colour'"),
    ("jobs = 'four'", "jobs must be int"),
    ("jobs = true", "jobs must be int"),
    ("ignore = [1]", "list of strings"),
    ("jobs = 0", ">= 1"),
])
def test_bad_settings_are_errors(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(write(tmp_path, f"[tool.tfmigrate]\n{body}\n"))


def test_invalid_toml_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="invalid TOML"):
        load_settings(write(tmp_path, "[tool.tfmigrate\n"))


def test_nearest_pyproject_wins(tmp_path: Path) -> None:
    outer = write(tmp_path, "")
    inner_dir = tmp_path / "sub" / "pkg"
    inner_dir.mkdir(parents=True)
    assert find_pyproject(inner_dir / "mod.py") == outer
    inner = inner_dir / "pyproject.toml"
    inner.write_text("")
    assert find_pyproject(inner_dir / "mod.py") == inner

"""[tool.tfmigrate] settings: read, typed, and refused when wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate.cli import main
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


@pytest.mark.parametrize("body, message", [
    ("timeout = -5", "timeout = -5.0 is invalid: it must be a finite number of seconds > 0"),
    ("timeout = 0", "timeout = 0.0 is invalid"),
    ("timeout = inf", "timeout = inf is invalid"),
    ("rtol = -1e-4", "rtol = -0.0001 is invalid: it must be a finite number >= 0"),
    ("atol = -1", "atol = -1.0 is invalid"),
    ("rtol = nan", "rtol = nan is invalid"),
    ("max-steps = 0", "max-steps = 0 is invalid: it must be an integer >= 1"),
    ("jobs = -2", "jobs = -2 is invalid: it must be an integer >= 1 and <= 1024"),
    ("jobs = 99999999999999999999", "jobs = 99999999999999999999 is invalid"),
    ("timeout = 99999999999999999999" + "9" * 400, "is invalid: it must be a finite number of seconds > 0"),
    ('cache-dir = ""', "cache-dir = '' is invalid: it must be a non-empty path"),
    ('cache-dir = "  "', "cache-dir = '  ' is invalid"),
])
def test_values_out_of_range_are_errors_naming_key_and_value(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_settings(write(tmp_path, f"[tool.tfmigrate]\n{body}\n"))


def test_values_at_the_edges_of_their_ranges_are_taken(tmp_path: Path) -> None:
    settings = load_settings(write(tmp_path, "[tool.tfmigrate]\nrtol = 0\natol = 0\ntimeout = 0.5\n"
                                             "max-steps = 1\njobs = 1024\ncache-dir = 'c'\n"))
    assert (settings.rtol, settings.atol, settings.timeout) == (0.0, 0.0, 0.5)
    assert (settings.max_steps, settings.jobs, settings.cache_dir) == (1, 1024, "c")


@pytest.mark.parametrize("text", ["tool = 5\n", "[tool]\ntfmigrate = 5\n"])
def test_a_tool_or_tfmigrate_that_is_not_a_table_is_an_error(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigError, match="must be a table"):
        load_settings(write(tmp_path, text))


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.tfmigrate]\n")
    for i in range(10):
        (tmp_path / f"m{i}.py").write_text("import tensorflow as tf\nx = tf.log(1.0)\n")
    return tmp_path


@pytest.mark.parametrize("text", ["tool = 5\n", "[tool.tfmigrate]\ntimeout = -5\n", "[tool.tfmigrate]\ncache-dir = ''\n"])
@pytest.mark.parametrize("command", ["rewrite", "check", "verify"])
def test_a_bad_configuration_exits_2_with_its_message(project: Path, text: str, command: str) -> None:
    (project / "pyproject.toml").write_text(text)
    result = cli(command, "m0.py")
    assert result.exit_code == 2
    assert "pyproject.toml" in result.stderr and "Traceback" not in result.stderr
    assert (project / "m0.py").read_text() == "import tensorflow as tf\nx = tf.log(1.0)\n"


@pytest.mark.parametrize("args, message", [
    (("rewrite", "-j", "99999999999999999999", "."), "'-j' / '--jobs': 99999999999999999999 is invalid"),
    (("rewrite", "-j", "0", "."), "0 is invalid: it must be an integer >= 1"),
    (("verify", "--timeout", "-5", "m0.py"), "'--timeout': -5.0 is invalid: it must be a finite number"),
    (("verify", "--rtol", "-1", "m0.py"), "'--rtol': -1.0 is invalid"),
    (("verify", "--atol", "nan", "m0.py"), "'--atol': nan is invalid"),
    (("verify", "--max-steps", "0", "m0.py"), "'--max-steps': 0 is invalid"),
])
def test_options_out_of_range_are_usage_errors(project: Path, args: tuple[str, ...], message: str) -> None:
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_workers_are_capped_at_the_files_and_four_per_core(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from migrate import cli as command_line

    started: list[int] = []
    real = command_line._run_jobs

    def run_jobs(files, job, jobs, *args, **kwargs):
        started.append(jobs)
        return real(files, job, 1, *args, **kwargs)

    monkeypatch.setattr(command_line, "_run_jobs", run_jobs)
    monkeypatch.setattr(command_line.os, "cpu_count", lambda: 2)
    assert cli("rewrite", "--check", "-j", "1000", ".").exit_code == 1
    assert cli("rewrite", "--check", "-j", "5", ".").exit_code == 1
    assert cli("rewrite", "--check", "-j", "1000", "m0.py", "m1.py", "m2.py").exit_code == 1
    assert cli("rewrite", "--check", ".").exit_code == 1
    assert started == [8, 5, 3, 2]

"""Running one program: a private copy, limits, argv/stdin, seeding, budget, exceptions."""

from __future__ import annotations

import functools
import os
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from runtime.sandbox import (
    engine_command,
    parse_exception,
    python_command,
    run_program,
    traceback_line,
)


def run(path: Path, **kwargs):
    kwargs.setdefault("timeout", 60)
    return run_program(path, runner=python_command, **kwargs)


def test_program_writes_only_into_its_copy(tmp_path: Path, write_program) -> None:
    (tmp_path / "data.txt").write_text("original data")
    (tmp_path / "ckpt").mkdir()
    program = write_program("""
        import os
        print(open("data.txt").read())
        open("data.txt", "w").write("overwritten")
        open("ckpt/model.ckpt", "w").write("weights")
        os.remove("fake_engine.py")
        print(os.path.dirname(os.path.abspath(__file__)) == os.getcwd())
    """)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    result = run(program)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["original data", "True"]
    assert (tmp_path / "data.txt").read_text() == "original data"
    assert sorted(p.name for p in tmp_path.rglob("*")) == before


def test_a_symlinked_folder_is_copied_by_value(tmp_path: Path, write_program) -> None:
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (real / "a.csv").write_text("1,2")
    (real / "sub" / "b.csv").write_text("3,4")
    project = tmp_path / "project"
    project.mkdir()
    (project / "data").symlink_to(real)
    (project / "one.csv").symlink_to(real / "a.csv")
    program = write_program("""
        import os
        import shutil
        print(sorted(os.listdir("data")), os.path.islink("data"), open("one.csv").read())
        for name in os.listdir("data"):
            path = os.path.join("data", name)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        open("one.csv", "w").write("changed")
        print(sorted(n for n in os.listdir(".") if not n.startswith("__")))
    """, directory=project)
    result = run(program)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "['a.csv', 'sub'] False 1,2",
        "['data', 'fake_engine.py', 'one.csv', 'prog.py']",
    ]
    assert (real / "a.csv").read_text() == "1,2"
    assert (real / "sub" / "b.csv").read_text() == "3,4"


def test_link_loops_dangling_links_and_fifos_are_left_out(tmp_path: Path, write_program) -> None:
    project = tmp_path / "project"
    (project / "data").mkdir(parents=True)
    (project / "data" / "up").symlink_to(project)
    (project / "dangling").symlink_to(tmp_path / "missing")
    os.mkfifo(project / "pipe")  # reading it would wait forever
    program = write_program("""
        import os
        print(sorted(os.listdir(".")), os.listdir("data"))
    """, directory=project)
    result = run(program)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == "['data', 'fake_engine.py', 'prog.py'] []"


def test_home_and_the_temporary_folder_are_the_sandbox_s(
    tmp_path: Path, write_program, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, temporary = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    temporary.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TMPDIR", str(temporary))
    program = write_program("""
        import os
        import tempfile
        home = os.path.expanduser("~")
        with open(os.path.join(home, ".settings"), "w") as handle:
            handle.write("written")
        with tempfile.NamedTemporaryFile(delete=False) as handle:
            handle.write(b"scratch")
        print(home)
        print(tempfile.gettempdir() == os.environ["TMP"] == os.environ["TEMP"])
    """, directory=tmp_path / "project")
    result = run(program)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [str(home), "True"]  # printed as the user's home
    assert list(home.iterdir()) == [] and list(temporary.iterdir()) == []


DOUBLE_FORK = """
    import os
    import sys
    import time

    read_end, write_end = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.write(write_end, str(os.getpid()).encode())
            os.close(write_end)
            {escape}
            time.sleep(600)
        os._exit(0)
    os.close(write_end)
    os.wait()
    print(os.read(read_end, 32).decode())
"""
ESCAPES = {
    "leaves the folder": 'os.chdir("/")',
    "drops the environment": (
        'os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)"], {})'
    ),
}


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds leftovers through /proc")
@pytest.mark.parametrize("escape", ESCAPES.values(), ids=ESCAPES.keys())
def test_a_double_forked_sleeper_is_ended_with_the_run(escape: str, write_program) -> None:
    result = run(write_program(DOUBLE_FORK.replace("{escape}", escape)))
    assert result.exit_code == 0, result.stderr
    sleeper = int(result.stdout)
    try:
        deadline = time.monotonic() + 5
        while _running(sleeper) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not _running(sleeper)
    finally:
        if _running(sleeper):
            os.kill(sleeper, signal.SIGKILL)


def test_vcs_caches_and_virtualenvs_are_not_copied(tmp_path: Path, write_program) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref")
    (tmp_path / "myenv").mkdir()
    (tmp_path / "myenv" / "pyvenv.cfg").write_text("home = /usr")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "x.csv").write_text("1,2")
    program = write_program("""
        import os
        print(sorted(n for n in os.listdir(".") if not n.startswith("__")))
    """)
    assert run(program).stdout.strip() == "['data', 'fake_engine.py', 'prog.py']"


def test_argv_and_stdin_are_passed(write_program) -> None:
    program = write_program("""
        import sys
        print(sys.argv[1:], sys.stdin.read().upper())
    """)
    result = run(program, argv=["--lr", "0.5"], stdin=b"from stdin")
    assert result.stdout.strip() == "['--lr', '0.5'] FROM STDIN"


def test_source_replaces_the_program_in_the_copy_only(tmp_path: Path, write_program) -> None:
    program = write_program("print('on disk')\n")
    result = run(program, source="print('in memory')\n")
    assert result.stdout.strip() == "in memory"
    assert program.read_text() == "print('on disk')\n"


def test_numpy_and_hash_seeds_are_fixed(write_program) -> None:
    program = write_program("""
        import random
        import numpy as np
        print(np.random.rand(), random.random(), hash("tfmigrate"))
    """)
    first, second = run(program).stdout, run(program).stdout
    assert first == second
    assert float(first.split()[0]) == np.random.RandomState(0).rand()
    assert run(program, seed=1).stdout.split()[0] != first.split()[0]


def test_timeout_ends_the_program(write_program) -> None:
    program = write_program("""
        import time
        print("started", flush=True)
        time.sleep(600)
    """)
    start = time.monotonic()
    result = run(program, timeout=8.0)  # time to start and print on a busy machine
    assert result.timed_out
    assert time.monotonic() - start < 60
    assert result.stdout.strip() == "started"


def test_memory_cap(write_program) -> None:
    program = write_program("""
        import numpy as np
        block = np.ones(400_000_000)
        print("allocated")
    """)
    result = run(program, memory_mb=400)
    assert result.out_of_memory and result.exception.endswith("MemoryError")
    assert "allocated" not in result.stdout
    assert not run(program.parent / "prog.py", memory_mb=400, source="print(1)\n").out_of_memory


def test_exception_type_and_message_are_parsed(write_program) -> None:
    program = write_program("""
        print("before")
        raise ValueError("Unknown variable: b")
    """)
    result = run(program)
    assert (result.exit_code, result.exception) == (1, "ValueError")
    assert result.exception_message == "Unknown variable: b"
    assert result.stdout == "before\n"


def test_parse_exception_keeps_the_class_name_of_a_dotted_type() -> None:
    stderr = (
        'Traceback (most recent call last):\n  File "p.py", line 3, in <module>\n'
        "    tf.foo.bar()\nruntime.errors.Unsupported: tf.foo.bar is not supported\n"
    )
    assert parse_exception(stderr) == ("Unsupported", "tf.foo.bar is not supported")
    assert parse_exception("warning: something\n") == (None, None)
    chained = stderr + "\nDuring handling...\n\nTraceback (most recent call last):\n  x\nKeyError\n"
    assert parse_exception(chained) == ("KeyError", None)


def test_trace_records_steps_lines_and_final_values(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", [1.0, 2.0])
        for _ in range(3):
            print("loss", float((w.value ** 2).sum()))
            sgd([(2 * w.value, w)], 0.1)
    """)
    result = run(program)
    assert result.exit_code == 0, result.stderr
    trace = result.trace
    assert len(trace["steps"]) == 3 and not trace["stopped_early"]
    assert trace["variables"][0]["line"] == 3
    assert trace["steps"][0]["line"] == 6
    expected = np.array([1.0, 2.0], np.float32)
    for _ in range(3):
        expected = (expected - 0.1 * (2 * expected)).astype(np.float32)
    assert trace["variables"][0]["value"]["values"] == expected.tolist()
    # stdout offsets let the comparison order prints against steps
    offsets = [s["stdout_offset"] for s in trace["steps"]]
    lines = result.stdout.encode().split(b"\n")
    assert offsets == [
        len(lines[0]) + 1,
        len(lines[0]) + len(lines[1]) + 2,
        len(b"\n".join(lines[:3])) + 1,
    ]


def test_step_budget_ends_the_training_loop_and_the_rest_runs(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for i in range(100):
            sgd([(1.0, w)], 0.5)
            print("step", i)
        print("finished", w.numpy())
    """)
    result = run(program, max_steps=3)
    assert (result.exit_code, result.exception) == (0, None), result.stderr
    assert result.stopped_early and len(result.trace["steps"]) == 3
    assert result.stdout.split("\n")[:-1] == ["step 0", "step 1", "step 2", "finished -0.5"]
    assert result.trace["variables"][0]["value"]["values"] == [-0.5]
    assert result.trace["cut_loops"] == [4] and result.trace["stopped"] is None


def test_budget_with_a_runner_that_does_not_catch_stop_program(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for i in range(100):
            sgd([(1.0, w)], 0.5)
    """)
    result = run_program(program, max_steps=2, runner=lambda p, face: [sys.executable, str(p)])
    assert (result.exit_code, result.exception) == (0, None)
    assert result.stopped_early and len(result.trace["steps"]) == 2
    assert result.trace["stopped"] == {"step": 3, "line": 5}  # its loops were not cut


def test_no_budget_means_no_stop(write_program) -> None:
    program = write_program("""
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        for i in range(20):
            sgd([(1.0, w)], 0.5)
    """)
    result = run(program)
    assert len(result.trace["steps"]) == 20 and not result.stopped_early


FAKE_RUNNER = """
import runpy
import sys

face, program = sys.argv[2], sys.argv[3]
print("runner face", face)
sys.argv = sys.argv[3:]
runpy.run_path(program, run_name="__main__")
"""


def test_engine_runner_module_is_seeded_and_ends_cleanly_at_the_budget(
    tmp_path: Path, write_program
) -> None:
    (tmp_path / "fake_runner.py").write_text(FAKE_RUNNER)
    program = write_program("""
        import sys
        import numpy as np
        from fake_engine import Var, sgd
        print(sys.argv[1:], np.random.rand())
        w = Var("w:0", 1.0)
        while True:
            sgd([(1.0, w)], 0.5)
    """)
    result = run_program(
        program,
        argv=["--epochs", "3"],
        max_steps=4,
        face="tf1",
        runner=functools.partial(engine_command, module="fake_runner"),
        timeout=60,
    )
    assert (result.exit_code, result.exception) == (0, None), result.stderr
    first, second = result.stdout.splitlines()
    assert first == "runner face tf1"
    assert second == f"['--epochs', '3'] {np.random.RandomState(0).rand()}"
    assert result.stopped_early and len(result.trace["steps"]) == 4


def test_traceback_line_is_the_innermost_program_frame(tmp_path: Path) -> None:
    program = tmp_path / "prog.py"
    link = tmp_path / "link.py"
    link.symlink_to(program)
    stderr = (
        "Traceback (most recent call last):\n"
        f'  File "{program}", line 9, in <module>\n    main()\n'
        f'  File "{link}", line 4, in main\n    step()\n'
        '  File "/engine/optimizers.py", line 80, in step\n    raise ValueError\n'
        "ValueError: Unknown variable\n"
    )
    assert traceback_line(stderr, program) == 4
    assert traceback_line("no traceback\n", program) is None


def test_printed_paths_of_the_copy_show_the_users_directory(tmp_path: Path, write_program) -> None:
    program = write_program("""
        import os
        from fake_engine import Var, sgd
        w = Var("w:0", 1.0)
        print(os.getcwd(), __file__)
        sgd([(1.0, w)], 0.5)
        print("saved to", os.path.abspath("model.ckpt"))
    """)
    result = run(program)
    first_line = f"{tmp_path} {program}\n"
    assert result.stdout == first_line + f"saved to {tmp_path / 'model.ckpt'}\n"
    assert result.trace["steps"][0]["stdout_offset"] == len(first_line.encode())
    assert [offset for offset, _ in result.trace["prints"]] == [0, len(first_line.encode())]

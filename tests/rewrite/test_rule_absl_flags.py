"""TF122: TF1's flags and app.run as absl's, where absl's stricter parsing changes nothing."""

import pytest
from helpers import check_transformed

from migrate.api import rewrite_source
from migrate.report import RewriteConfig

SCRIPT = """import tensorflow as tf
{define}
FLAGS = {flags}.FLAGS


def main(argv):
    print(FLAGS.steps, argv)


if __name__ == "__main__":
    {run}
"""


@pytest.mark.parametrize(("define", "flags", "run", "after_define", "after_run", "imports"), [
    ("tf.app.flags.DEFINE_integer('steps', 3, 'n')", "tf.app.flags", "tf.app.run()",
     "flags.DEFINE_integer('steps', 3, 'n')", "app.run(main)", "from absl import app, flags\n"),
    ("tf.flags.DEFINE_integer('steps', 3, 'n')", "tf.flags", "tf.app.run(main=main)",
     "flags.DEFINE_integer('steps', 3, 'n')", "app.run(main)", "from absl import app, flags\n"),
    ("tf.app.flags.DEFINE_integer('steps', 3, 'n')", "tf.app.flags", "tf.app.run(main, ['prog'])",
     "flags.DEFINE_integer('steps', 3, 'n')", "app.run(main, argv=['prog'])", "from absl import app, flags\n"),
])
def test_a_script_entered_by_app_run_takes_absls_flags(define, flags, run, after_define, after_run, imports) -> None:
    before = SCRIPT.format(define=define, flags=flags, run=run)
    after = SCRIPT.format(define=after_define, flags="flags", run=after_run).replace(
        "import tensorflow as tf\n", "import tensorflow as tf\n" + imports)
    result = check_transformed(before, after)
    assert [f.line for f in result.findings if f.rule == "TF122"] == [2, 11]


def test_a_flags_alias_becomes_the_absl_import_in_its_place() -> None:
    before = ("import tensorflow as tf\n\n# the flags\nflags = tf.app.flags\nflags.DEFINE_string('name', 'a', 'who')\n"
              "F = flags.FLAGS\n\n\ndef main(_):\n    print(F.name)\n\n\ntf.app.run()\n")
    after = ("import tensorflow as tf\n\n# the flags\nfrom absl import app, flags\nflags.DEFINE_string('name', 'a', 'who')\n"
             "F = flags.FLAGS\n\n\ndef main(_):\n    print(F.name)\n\n\napp.run(main)\n")
    check_transformed(before, after)


def test_names_the_file_binds_are_not_taken() -> None:
    before = ("import tensorflow as tf\napp = 'my app'\ntf.flags.DEFINE_integer('n', 1, 'n')\n\n\n"
              "def main(_):\n    print(tf.flags.FLAGS.n, app)\n\n\ntf.app.run()\n")
    code = rewrite_source(before).code
    assert "from absl import app as absl_app, flags\n" in code and "absl_app.run(main)" in code


@pytest.mark.parametrize(("source", "why"), [
    # absl's FLAGS refuses a read before app.run parsed the command line
    (("import tensorflow as tf\ntf.flags.DEFINE_integer('n', 1, 'n')\nprint(tf.flags.FLAGS.n)\n"
     "def main(_):\n    pass\ntf.app.run()\n"), "read outside functions"),
    (("import tensorflow as tf\nFLAGS = tf.flags.FLAGS\ntf.flags.DEFINE_integer('n', 1, 'n')\n"
     "steps = FLAGS.n\ndef main(_):\n    pass\ntf.app.run()\n"), "read outside functions"),
    # a library: whoever imports it parses, or reads through TF1's FLAGS that parses on read
    ("import tensorflow as tf\ntf.flags.DEFINE_integer('n', 1, 'n')\ndef f():\n    return tf.flags.FLAGS.n\n",
     "no tf.app.run"),
    ("import tensorflow as tf\ntf.flags.DEFINE_integer('n', 1, 'n')\ntf.app.run()\n", "does not define"),
    ("import tensorflow as tf\ndef go():\n    tf.app.run(f)\n", "inside a function"),
])
def test_flags_absl_would_refuse_stay_tf1s(source: str, why: str) -> None:
    result = rewrite_source(source)
    assert "absl" not in result.code and "tf.compat.v1." in result.code
    notes = [f.message for f in result.findings if f.rule == "TF122"]
    assert len(notes) == 1 and why in notes[0]


def test_the_rule_deselected_keeps_tf1s_flags() -> None:
    source = SCRIPT.format(define="tf.flags.DEFINE_integer('steps', 3, 'n')", flags="tf.flags", run="tf.app.run()")
    result = rewrite_source(source, config=RewriteConfig(ignore=frozenset({"TF122"})))
    assert "absl" not in result.code and "tf.compat.v1.app.run()" in result.code


def test_a_second_run_changes_nothing() -> None:
    source = SCRIPT.format(define="tf.flags.DEFINE_integer('steps', 3, 'n')", flags="tf.flags", run="tf.app.run()")
    once = rewrite_source(source).code
    assert rewrite_source(once).code == once

"""Which files `migrate.programs` rewrites as one program, and why it leaves others apart."""

from __future__ import annotations

from pathlib import Path

from migrate import programs
from migrate.api import RewriteConfig
from migrate.programs import plan, rewrite_tree

TREE = Path(__file__).resolve().parents[2] / "fixtures" / "trees" / "model_module_import" / "before"
MODEL = (TREE / "model.py").read_bytes()
TRAIN = (TREE / "train.py").read_bytes()


def _tree(**files: bytes) -> dict[Path, bytes]:
    return {Path("/src") / name.replace("_py", ".py").replace("_ipynb", ".ipynb"): data for name, data in files.items()}


def _rewrite(**files: bytes):
    return rewrite_tree(_tree(**files), RewriteConfig())


def test_the_script_and_its_module_form_one_group() -> None:
    groups = plan(_tree(model_py=MODEL, train_py=TRAIN))
    assert [(g.importer.path.name, [m.path.name for m in g.modules]) for g in groups] == [("train.py", ["model.py"])]


def test_from_import_lists_the_names_the_script_now_reads() -> None:
    train = TRAIN.replace(b"import model\n", b"from model import inference, INPUT_NODE\n").replace(b"model.", b"")
    outcomes, refused = _rewrite(model_py=MODEL, train_py=train)
    assert refused == {}
    code = outcomes[Path("/src/train.py")].code
    assert "from model import INPUT_NODE, Inference\n" in code
    assert "inference = Inference()\n" in code
    assert "inference.trainable_variables" in code


def test_a_script_binding_a_name_of_the_module_is_rewritten_alone() -> None:
    train = TRAIN.replace(b"LEARNING_RATE = 0.5", b"HIDDEN_NODE = 7\nLEARNING_RATE = 0.5")
    outcomes, refused = _rewrite(model_py=MODEL, train_py=train)
    assert outcomes == {}
    assert refused[Path("/src/train.py")].message == (
        "not rewritten with model.py as one program: train.py and model.py both bind HIDDEN_NODE")
    assert refused[Path("/src/train.py")].line == 5  # the line importing the module


def test_a_module_passed_around_as_an_object_is_rewritten_alone() -> None:
    train = TRAIN.replace(b"LEARNING_RATE = 0.5", b"print(model)\nLEARNING_RATE = 0.5")
    outcomes, refused = _rewrite(model_py=MODEL, train_py=train)
    assert outcomes == {}
    assert "other than by reading its names" in refused[Path("/src/train.py")].message


def test_modules_that_run_code_when_imported_or_run_sessions_are_not_combined() -> None:
    calls = MODEL.replace(b"INPUT_NODE = 4", b"INPUT_NODE = int('4')")
    session = MODEL + b"\n\ndef run():\n    return tf.Session()\n"
    assert plan(_tree(model_py=calls, train_py=TRAIN)) == []
    assert plan(_tree(model_py=session, train_py=TRAIN)) == []


def test_a_module_whose_comment_names_a_session_is_still_combined() -> None:
    # tutorials leave their test code commented out: `# with tf.Session() as sess:`
    commented = MODEL + b"\n# with tf.Session() as sess:\n#     print(sess.run(inference))\n"
    groups = plan(_tree(model_py=commented, train_py=TRAIN))
    assert [(g.importer.path.name, [m.path.name for m in g.modules]) for g in groups] == [("train.py", ["model.py"])]


def test_a_module_imported_inside_a_function_elsewhere_is_not_combined() -> None:
    other = b"import tensorflow as tf\n\ndef load():\n    import model\n    return model.inference\n"
    assert plan(_tree(model_py=MODEL, train_py=TRAIN, other_py=other)) == []


def test_two_scripts_configuring_the_model_differently_share_one_module() -> None:
    """Each script makes its own instance (here named by the scope it calls the model under);
    the module holds only the classes, the same for both."""
    second = TRAIN.replace(b"logits = model.inference(x)", b'with tf.variable_scope("net"):\n    logits = model.inference(x)')
    outcomes, refused = _rewrite(model_py=MODEL, train_py=TRAIN, eval_py=second)
    assert refused == {}
    assert "inference = model.Inference()\n" in outcomes[Path("/src/train.py")].code
    assert "inference = model.Inference(name='net')\n" in outcomes[Path("/src/eval.py")].code
    assert "\ninference = " not in outcomes[Path("/src/model.py")].code


def test_scripts_whose_programs_change_the_module_differently_are_left_alone(monkeypatch) -> None:
    real = programs.rewrite_group

    def differing(group, config, runs=None, line_length=None):
        out = real(group, config, runs, line_length)
        module = next(p for p in out if p.name == "model.py")
        if group.importer.path.name == "eval.py":
            out[module] = programs.Outcome(out[module].code + "# another text\n", "idiomatic")
        return out

    monkeypatch.setattr(programs, "rewrite_group", differing)
    outcomes, refused = _rewrite(model_py=MODEL, train_py=TRAIN, eval_py=TRAIN)
    assert outcomes == {}
    assert {p.name: f.message for p, f in refused.items()} == dict.fromkeys(
        ["train.py", "eval.py"], "not rewritten with model.py as one program: "
        "the files importing model.py would change it in different ways")


def test_an_importer_that_cannot_be_combined_keeps_the_module_apart() -> None:
    """A script with CRLF endings is rewritten alone: the module must keep its functions for it."""
    crlf = TRAIN.replace(b"\n", b"\r\n")
    assert plan(_tree(model_py=MODEL, train_py=TRAIN, old_py=crlf)) == []


def test_a_file_importing_the_module_without_naming_tensorflow_keeps_it_apart() -> None:
    other = b"import model\n\nprint(model.inference)\n"
    assert plan(_tree(model_py=MODEL, train_py=TRAIN, show_py=other)) == []


def test_a_script_others_import_for_its_constants_is_still_combined() -> None:
    """`evaluate.py` reads `train.LEARNING_RATE`: the program's rewrite keeps that literal."""
    evaluate = b"import tensorflow as tf\nimport train\n\nprint(tf.constant(train.LEARNING_RATE))\n"
    outcomes, refused = _rewrite(model_py=MODEL, train_py=TRAIN, evaluate_py=evaluate)
    assert refused == {}
    assert "LEARNING_RATE = 0.5\n" in outcomes[Path("/src/train.py")].code


def test_a_script_others_import_for_more_than_constants_keeps_the_module_apart() -> None:
    evaluate = b"import tensorflow as tf\nimport train\n\nprint(train.logits)\n"
    assert plan(_tree(model_py=MODEL, train_py=TRAIN, evaluate_py=evaluate)) == []


def test_a_module_opening_with_a_future_import_keeps_it_first() -> None:
    future = b"from __future__ import division\n" + MODEL
    outcomes, refused = _rewrite(model_py=future, train_py=TRAIN)
    assert refused == {}
    assert outcomes[Path("/src/model.py")].code.startswith("from __future__ import division\n")


_WITH_AVERAGES = TRAIN.replace(b"train_op = tf.train.GradientDescentOptimizer(LEARNING_RATE).minimize(loss)\n", (
    b"global_step = tf.Variable(0, trainable=False)\n"
    b"train_step = tf.train.GradientDescentOptimizer(LEARNING_RATE).minimize(loss, global_step=global_step)\n"
    b"ema = tf.train.ExponentialMovingAverage(0.9, global_step)\n"
    b"ema_op = ema.apply(tf.trainable_variables())\n"
    b"train_op = tf.group(train_step, ema_op)\n"))


def test_a_script_whose_rewrite_defines_classes_is_one_program_with_its_imports_first() -> None:
    # the moving averages' class the rewrite defines goes below the script's imports
    outcomes, refused = _rewrite(model_py=MODEL, train_py=_WITH_AVERAGES)
    assert refused == {}
    assert {o.level for o in outcomes.values()} == {"idiomatic"}, [o.findings for o in outcomes.values()]
    code = outcomes[Path("/src/train.py")].code
    assert code.index("import model\n") < code.index("class ExponentialMovingAverage(tf.Module):")


def test_a_from_import_below_classes_the_rewrite_defines_still_imports_the_names_read() -> None:
    train = _WITH_AVERAGES.replace(b"import model\n", b"from model import inference, INPUT_NODE\n").replace(b"model.", b"")
    outcomes, refused = _rewrite(model_py=MODEL, train_py=train)
    assert refused == {}
    code = outcomes[Path("/src/train.py")].code
    assert code.index("from model import INPUT_NODE, Inference\n") < code.index("class ExponentialMovingAverage")


def test_a_class_two_scripts_run_differently_gets_the_steps_of_both_in_each_program() -> None:
    tree = Path(__file__).resolve().parents[2] / "fixtures" / "trees" / "trainer_and_predictor_module" / "before"
    sources = {Path("/src") / p.name: p.read_bytes() for p in tree.glob("*.py")}
    runs = programs.outside_runs(plan(sources))
    # by path: predict.py's prediction first, then train.py's runs (its `_` unpacking kept)
    assert [(r.fetch, r.fed, r.discarded) for r in runs[Path("/src/model.py"), "Network"]] == [
        ("y", ("x",), ()), ("global_step", (), ()), ("[train, loss]", ("x", "label"), (0,)),
        ("accuracy", ("x", "label"), ())]
    outcomes, refused = rewrite_tree(sources, RewriteConfig())
    assert refused == {}
    model = outcomes[Path("/src/model.py")].code
    assert "def compute_y(x):" in model and "def train_step(x, label):" in model


def test_a_class_of_the_same_name_in_another_folder_gets_only_its_own_importers_runs() -> None:
    """v1/model.py and v3/model.py both define Network; v3's trainer fetches its summaries."""
    trees = Path(__file__).resolve().parents[2] / "fixtures" / "trees"
    sources = {Path("/src/v1") / p.name: p.read_bytes() for p in (trees / "trainer_class_module" / "before").glob("*.py")}
    sources |= {Path("/src/v3") / p.name: p.read_bytes() for p in (trees / "trainer_class_summaries" / "before").glob("*.py")}
    runs = programs.outside_runs(plan(sources))
    assert all("tfmigrate__summaries" not in r.fetch for r in runs[Path("/src/v1/model.py"), "Network"])
    assert any("tfmigrate__summaries" in r.fetch for r in runs[Path("/src/v3/model.py"), "Network"])
    outcomes, refused = rewrite_tree(sources, RewriteConfig())
    assert refused == {}
    assert all(o.level == "idiomatic" for o in outcomes.values())


NOTEBOOK_TREE = TREE.parents[1] / "notebook_importer" / "before"


def test_a_notebook_importing_the_module_is_its_importer() -> None:
    sources = {Path("/src/model.py"): (NOTEBOOK_TREE / "model.py").read_bytes(),
               Path("/src/train.ipynb"): (NOTEBOOK_TREE / "train.ipynb").read_bytes()}
    groups = plan(sources)
    assert [(g.importer.path.name, [m.path.name for m in g.modules]) for g in groups] == [("train.ipynb", ["model.py"])]
    outcomes, refused = rewrite_tree(sources, RewriteConfig())
    assert refused == {}
    assert outcomes[Path("/src/train.ipynb")].code.startswith("{")  # the notebook's JSON, cells rewritten
    assert "model.Inference(" in outcomes[Path("/src/train.ipynb")].code


def test_a_notebook_this_cannot_read_keeps_the_module_it_imports_apart() -> None:
    broken = b'{"cells": [{"cell_type": "code", "source": ["import model\\n", "import tensorflow as tf\\n"]'
    assert plan(_tree(model_py=MODEL, train_py=TRAIN, eval_ipynb=broken)) == []


def test_a_module_gets_the_same_text_from_importers_with_lines_of_other_lengths() -> None:
    """Every program of a tree wraps at one line length: train.py has a line of 104 characters,
    evaluate.py none over 100, and the model's weights wrap between the two."""
    tree = TREE.parents[1] / "averages_train_and_eval" / "before"
    sources = {Path("/src") / p.name: p.read_bytes() for p in tree.glob("*.py")}
    outcomes, refused = rewrite_tree(sources, RewriteConfig())
    assert refused == {}
    assert {p.name for p in outcomes} == {"model.py", "train.py", "evaluate.py"}


def test_a_model_instance_named_as_its_module_is_renamed_in_the_importer() -> None:
    # `import inference` holding `def inference`: the instance may not take the module's name
    train = TRAIN.replace(b"import model\n", b"import inference\n").replace(b"model.", b"inference.")
    outcomes, refused = _rewrite(inference_py=MODEL, train_py=train)
    assert refused == {}
    code = outcomes[Path("/src/train.py")].code
    assert "inference_model = inference.Inference()\n" in code
    assert "inference_model.trainable_variables" in code
    assert "inference.INPUT_NODE" in code
    messages = [f.message for f in outcomes[Path("/src/inference.py")].findings]
    assert "function inference → Keras model Inference, created once as inference_model" in messages

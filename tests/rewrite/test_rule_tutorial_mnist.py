"""TF123: the tutorial MNIST loader, gone from TF 2.21, as a loader in the file over Keras's MNIST."""

import numpy as np
import pytest

from migrate.api import rewrite_source
from runtime import datasets

IMPORTS = "import tensorflow as tf\nfrom tensorflow.examples.tutorials.mnist import input_data\n"


def rewrite(body: str, imports: str = IMPORTS):
    return rewrite_source(imports + body)


@pytest.mark.parametrize(("call", "loader"), [
    ('input_data.read_data_sets("MNIST_data/", one_hot=True)', "Mnist(one_hot=True)"),
    ('input_data.read_data_sets("MNIST_data/", False, True)', "Mnist(one_hot=True)"),
    ("input_data.read_data_sets(FLAGS.dir, validation_size=0, reshape=False, one_hot=False)",
     "Mnist(one_hot=False, reshape=False, validation_size=0)"),
    ('input_data.read_data_sets("d", dtype=tf.float32, seed=4)', "Mnist(seed=4)"),
])
def test_a_load_becomes_the_loader_defined_after_the_imports(call: str, loader: str) -> None:
    result = rewrite(f"def load():\n    return {call}\n")
    assert f"return {loader}\n" in result.code
    assert "tensorflow.examples" not in result.code and result.level == "idiomatic"
    head = result.code.split("def load")[0]
    assert "import numpy as np\n" in head and "class MnistSplit:" in head and "class Mnist:" in head
    assert "tf.keras.datasets.mnist.load_data()" in head
    assert [f.rule for f in result.findings] == ["TF123"] and result.findings[0].line == 4


def test_the_loader_uses_the_files_numpy_name_and_keeps_the_imports_comments() -> None:
    source = ("import numpy\nimport tensorflow as tf\n# the tutorial's data\n"
              "from tensorflow.examples.tutorials.mnist import input_data  # 55k images\n"
              "mnist = input_data.read_data_sets('MNIST_data')\n")
    code = rewrite_source(source).code
    assert "numpy.random.shuffle(order)" in code and "import numpy as np" not in code
    assert "# the tutorial's data\n# 55k images\nmnist = Mnist()\n" in code


@pytest.mark.parametrize(("prelude", "loader"), [
    ("tf.set_random_seed(3)\n", "Mnist(one_hot=True, seed=3)"),
    ("SEED = 5\ntf.compat.v1.set_random_seed(SEED)\n", "Mnist(one_hot=True, seed=SEED)"),
    ("", "Mnist(one_hot=True)"),
])
def test_the_graph_seed_tf1s_loader_reseeded_numpy_with_is_passed_on(prelude: str, loader: str) -> None:
    result = rewrite(f"{prelude}mnist = input_data.read_data_sets('d', one_hot=True)\n")
    assert f"mnist = {loader}\n" in result.code
    # the loader reseeds only where TF1's did: code a run could not reach is not emitted
    assert ("np.random.seed(seed)" in result.code) == ("seed=" in loader)


@pytest.mark.parametrize("block", ["def main():\n", 'if __name__ == "__main__":\n'])
def test_a_graph_seed_set_in_the_block_that_loads_is_passed_on(block: str) -> None:
    result = rewrite(f"{block}    np.random.seed(4)\n    tf.set_random_seed(12)\n"
                     "    data = input_data.read_data_sets('d', one_hot=True)\n    print(data)\n",
                     imports="import numpy as np\n" + IMPORTS)
    assert "    data = Mnist(one_hot=True, seed=12)\n" in result.code
    assert result.level == "idiomatic" and "np.random.seed(seed)" in result.code


def test_a_graph_seed_set_after_a_top_level_load_is_not_tf1s_reseed() -> None:
    result = rewrite("mnist = input_data.read_data_sets('d')\ntf.set_random_seed(3)\n")
    assert "mnist = Mnist()\n" in result.code


@pytest.mark.parametrize(("body", "why"), [
    ("mnist = input_data.read_data_sets('d', fake_data=True)\n", "it asks for fake_data"),
    ("mnist = input_data.read_data_sets('d', dtype=tf.uint8)\n", "it asks for dtype tf.uint8"),
    ("data = input_data.DataSet(images, labels)\n", "input_data is used other than as"),
    ("class Mnist:\n    pass\nmnist = input_data.read_data_sets('d')\n", "the file binds Mnist"),
    ("def main():\n    tf.set_random_seed(1)\n    return load()\ndef load():\n    return input_data.read_data_sets('d')\n",
     "the graph seed is set inside a block the data is not loaded in"),
    ("def main():\n    data = input_data.read_data_sets('d')\n    tf.set_random_seed(1)\n",
     "the graph seed is set inside a block the data is not loaded in"),
    ("def main():\n    tf.set_random_seed(1)\n    with tf.Graph().as_default():\n        return input_data.read_data_sets('d')\n",
     "the graph seed is set inside a block the data is not loaded in"),
    ("def main():\n    tf.set_random_seed(1)\n    tf.reset_default_graph()\n    return input_data.read_data_sets('d')\n",
     "the default graph is reset, and its seed with it"),
    ("tf.set_random_seed(1)\ntf.set_random_seed(2)\nmnist = input_data.read_data_sets('d')\n",
     "the graph seed is set more than once"),
    ("tf.set_random_seed(seed())\nmnist = input_data.read_data_sets('d')\n", "the graph seed is computed"),
])
def test_what_the_loader_cannot_stand_for_keeps_the_import_and_says_why(body: str, why: str) -> None:
    result = rewrite(body + "tf.logging.info('loaded')\n")
    assert "from tensorflow.examples.tutorials.mnist import input_data" in result.code
    assert "class MnistSplit" not in result.code and result.level != "idiomatic"
    finding = next(f for f in result.findings if f.rule == "TF123")
    assert finding.kind == "manual" and why in finding.message and finding.line == 2


@pytest.mark.parametrize(("source", "why"), [
    (("import tensorflow as tf\ndef main():\n    from tensorflow.examples.tutorials.mnist import input_data\n"
     "    return input_data.read_data_sets('d')\n"), "the loader is imported inside a block"),
    (("from tensorflow.examples.tutorials.mnist import input_data\nmnist = input_data.read_data_sets('d')\n"
     "import tensorflow as tf\n"), "no `import tensorflow as tf` comes before MNIST is loaded"),
    ("import os\nfrom tensorflow.examples.tutorials.mnist import input_data\nmnist = input_data.read_data_sets('d')\n",
     "no `import tensorflow as tf` comes before MNIST is loaded"),
])
def test_a_loader_the_classes_could_not_be_defined_for_keeps_the_import(source: str, why: str) -> None:
    result = rewrite_source(source)
    assert "MnistSplit" not in result.code and "read_data_sets" in result.code
    finding = next(f for f in result.findings if f.rule == "TF123")
    assert why in finding.message and finding.kind == "manual"


def test_an_unused_import_of_the_loader_goes() -> None:
    result = rewrite_source(IMPORTS + "x = tf.placeholder(tf.float32)\n")
    assert "examples" not in result.code and "MnistSplit" not in result.code
    assert any(f.rule == "TF123" and "unused import" in f.message for f in result.findings)


def test_a_file_without_the_loader_is_left_alone() -> None:
    result = rewrite_source("import tensorflow as tf\nx = tf.keras.datasets.mnist.load_data()\n")
    assert "MnistSplit" not in result.code and not any(f.rule == "TF123" for f in result.findings)


def _loader(numpy_module=np):
    """The emitted classes, run here against the engine's Keras MNIST."""
    code = rewrite("mnist = input_data.read_data_sets('d')\n").code
    helpers = code[code.index("class MnistSplit"):code.index("mnist = Mnist(")]
    keras = type("keras", (), {"datasets": type("d", (), {"mnist": type("m", (), {
        "load_data": staticmethod(datasets.mnist_load_data)})})})
    scope = {"np": numpy_module, "tf": type("tf", (), {"keras": keras})}
    exec(helpers, scope)  # noqa: S102 - the rewrite's own output
    return scope["Mnist"]


@pytest.mark.parametrize("options", [{}, {"one_hot": True}, {"reshape": False, "validation_size": 100}])
def test_the_loader_serves_what_tf1s_read_data_sets_served(options: dict) -> None:
    """Same arrays, and the same batches drawn from numpy's global RNG, epoch after epoch."""
    mnist = _loader()(**options)
    reference = datasets.read_data_sets("d", **options)
    for part in ("train", "validation", "test"):
        ours, theirs = getattr(mnist, part), getattr(reference, part)
        assert ours.images.dtype == theirs.images.dtype and ours.labels.dtype == theirs.labels.dtype
        assert np.array_equal(ours.images, theirs.images) and np.array_equal(ours.labels, theirs.labels)
        assert ours.num_examples == theirs.num_examples
    np.random.seed(1)
    batches = [mnist.train.next_batch(200) for _ in range(2 * mnist.train.num_examples // 200 + 1)]
    np.random.seed(1)
    for images, labels in batches:
        expected = reference.train.next_batch(200)
        assert np.array_equal(images, expected[0]) and np.array_equal(labels, expected[1])
    assert mnist.train.epochs_completed == reference.train.epochs_completed == 2

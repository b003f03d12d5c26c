"""TF101: TF2 import, graph-mode switches dropped, any alias respelled `tf`."""

import json

from helpers import check_noop, check_transformed

from migrate.notebooks import rewrite_notebook


def test_compat_v1_alias_becomes_tf() -> None:
    check_transformed(
        """\
        import tensorflow.compat.v1 as tf1
        tf1.disable_v2_behavior()
        y = tf1.log(2.0)
        """,
        """\
        import tensorflow as tf
        y = tf.math.log(2.0)
        """,
    )


def test_try_except_shim_collapses_to_one_import() -> None:
    check_transformed(
        """\
        try:
            import tensorflow.compat.v1 as tf
        except ImportError:
            import tensorflow as tf
        y = tf.log(1.0)
        """,
        """\
        import tensorflow as tf
        y = tf.math.log(1.0)
        """,
    )


def test_from_tensorflow_compat_import_v1() -> None:
    check_transformed(
        "from tensorflow.compat import v1\nz = v1.to_float(3)\n",
        "import tensorflow as tf\nz = tf.cast(3, tf.float32)\n",
    )


def test_plain_tf2_import_is_kept() -> None:
    check_noop("import tensorflow as tf\nimport numpy as np\nx = tf.constant(np.ones(3))\n")


def test_a_repeated_import_goes_and_its_comments_stay() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.log(2.0)

        # a second cell imports it again
        import tensorflow as tf  # as notebooks do
        import numpy as np
        """,
        """\
        import tensorflow as tf
        x = tf.math.log(2.0)

        # a second cell imports it again
        # as notebooks do
        import numpy as np
        """,
    )


def test_a_notebook_cell_starting_with_a_repeated_import_keeps_its_place() -> None:
    cells = [["import tensorflow as tf\n", "x = tf.log(2.0)"], ["import tensorflow as tf\n", "import numpy as np\n", "y = np.ones(2)"]]
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
                          for c in cells], "metadata": {}, "nbformat": 4, "nbformat_minor": 2}
    result = rewrite_notebook(json.dumps(notebook, indent=1) + "\n")
    sources = ["".join(c["source"]) for c in json.loads(result.code)["cells"]]
    assert sources == ["import tensorflow as tf\nx = tf.math.log(2.0)", "import numpy as np\ny = np.ones(2)"]

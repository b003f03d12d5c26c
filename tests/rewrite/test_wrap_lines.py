"""Emitted lines stay within the file's line length, wrapped as black wraps a call."""

import libcst as cst

from migrate.wrap_lines import DEFAULT_LIMIT, line_limit, wrap_long_lines


def wrapped(source: str, limit: int = DEFAULT_LIMIT) -> str:
    return wrap_long_lines(cst.parse_module(source), limit).code


def test_the_limit_is_the_files_longest_line_or_100() -> None:
    assert line_limit("x = 1\n") == 100
    assert line_limit("x = 1\n" + "y" * 120 + "\n") == 120


def test_arguments_go_on_one_indented_line_when_they_fit_there() -> None:
    source = "opt = make_optimizer(learning_rate=0.3, initial_accumulator_value=0.1, epsilon=0.0)\n"
    assert wrapped(source, 70) == (
        "opt = make_optimizer(\n    learning_rate=0.3, initial_accumulator_value=0.1, epsilon=0.0\n)\n"
    )


def test_otherwise_one_argument_per_line_with_a_trailing_comma() -> None:
    source = "def f():\n    w = add_weight(name='weights', shape=[3, 3, 3, 6], initializer=make_initializer(0.1))\n"
    assert wrapped(source, 50) == (
        "def f():\n    w = add_weight(\n        name='weights',\n        shape=[3, 3, 3, 6],\n"
        "        initializer=make_initializer(0.1),\n    )\n"
    )


def test_the_call_a_method_is_called_on_opens_when_the_method_call_cannot_help() -> None:
    source = "Manager(saver, os.path.dirname(logdir), max_to_keep=5, checkpoint_name=name).save(checkpoint_number=5)\n"
    assert wrapped(source, 76) == (
        "Manager(\n    saver, os.path.dirname(logdir), max_to_keep=5, checkpoint_name=name\n).save(checkpoint_number=5)\n"
    )


def test_lines_within_the_limit_and_lines_already_wrapped_stay() -> None:
    for source in ("x = f(a, b)\n", "x = f(\n    aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbb, ccccccccccccccccccc)\n"):
        assert wrapped(source, 30) == source


def test_wrapping_twice_changes_nothing() -> None:
    source = "opt = make_optimizer(learning_rate=0.3, initial_accumulator_value=0.1, epsilon=0.0)\n"
    once = wrapped(source, 60)
    assert wrapped(once, 60) == once


def test_a_dict_opens_its_elements_then_one_per_line_then_its_longest_value() -> None:
    source = "d = {'x': np.array([1.0, 2.0], np.float32), 'y': np.array([0.0], np.float32)}\n"
    assert wrapped(source, 76) == (
        "d = {\n    'x': np.array([1.0, 2.0], np.float32), 'y': np.array([0.0], np.float32)\n}\n"
    )
    nested = "m = {'scalar': {'mean': mean, 'loss': loss}, 'histogram': {'hidden': hidden, 'pred': pred}}\n"
    assert wrapped(nested, 45) == (
        "m = {\n    'scalar': {'mean': mean, 'loss': loss},\n    'histogram': {\n"
        "        'hidden': hidden, 'pred': pred\n    },\n}\n"
    )


def test_a_comprehension_opens_then_splits_at_its_for_then_opens_its_element() -> None:
    source = "layers = [Dense(units, activation=relu, name='h%d' % i) for i, units in enumerate(sizes)]\n"
    assert wrapped(source, 85) == (
        "layers = [\n    Dense(units, activation=relu, name='h%d' % i) for i, units in enumerate(sizes)\n]\n"
    )
    assert wrapped(source, 50) == (
        "layers = [\n    Dense(units, activation=relu, name='h%d' % i)\n    for i, units in enumerate(sizes)\n]\n"
    )
    assert wrapped(source, 40) == (
        "layers = [\n    Dense(\n        units,\n        activation=relu,\n        name='h%d' % i,\n    )\n"
        "    for i, units in enumerate(sizes)\n]\n"
    )

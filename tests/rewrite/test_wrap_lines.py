"""Emitted lines stay within the file's line length, wrapped as black wraps them."""

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


def test_a_decorator_too_long_opens_as_black_opens_it() -> None:
    specs = "tf.TensorSpec([None, 784]), tf.TensorSpec([None, 10])"
    source = f"class M:\n    @tf.function(input_signature=[{specs}])\n    def step(self, x, y):\n        pass\n"
    assert wrapped(source) == source  # fits: one line
    assert wrapped(source, 85) == (
        f"class M:\n    @tf.function(\n        input_signature=[{specs}]\n    )\n"
        "    def step(self, x, y):\n        pass\n"
    )
    assert wrapped(source, 50) == (
        "class M:\n    @tf.function(\n        input_signature=[\n            tf.TensorSpec([None, 784]),\n"
        "            tf.TensorSpec([None, 10]),\n        ]\n    )\n    def step(self, x, y):\n        pass\n"
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


OPERANDS = "def f():\n    grads = tape.gradient(loss, dense.trainable_variables + norm.trainable_variables + out.trainable_variables)\n"
SOLE_OPERANDS = "loss = tf.reduce_mean(-c * tf.math.log(p + 1e-07) - (1 - c) * tf.math.log(1 - p + 1e-07))\n"
LAMBDA = "w = add_weight(name='kernel', initializer=lambda shape, dtype: tf.random.normal(shape, stddev=0.1, seed=self.seed))\n"
WITH = "with tf.compat.v1.variable_scope('towers', regularizer=tf.keras.regularizers.L2(0.01)) as scope:\n    pass\n"
DEF = "class Cell:\n    def __init__(self, num_units, activation=None, kernel_initializer=None, name=None):\n        pass\n"
SPLAT = (
    "values = {'hidden': hidden, **{var.path: tf.identity(var) for var in hidden_layer.trainable_variables + out_layer.trainable_variables}}\n"
)
NESTED = "loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(onehot), logits=logits))\n"
METHOD = "hits += compute_correct_count(data[start:start + size], labels[start:start + size]).numpy()\n"
ASSIGNED_OPERANDS = "total = first_model.trainable_variables + second_model.trainable_variables + third.trainable_variables\n"
LIST = "grads = tape.gradient(loss, [hidden_layer.kernel, hidden_layer.bias, out_layer.kernel, out_layer.bias])\n"
CHAIN = "dataset = tf.data.Dataset.from_tensor_slices((features, labels)).shuffle(buffer_size=120, seed=53).batch(32)\n"


def test_an_argument_of_operators_splits_before_each_of_its_loosest() -> None:
    assert wrapped(OPERANDS, 70) == (
        "def f():\n    grads = tape.gradient(\n        loss,\n        dense.trainable_variables\n"
        "        + norm.trainable_variables\n        + out.trainable_variables,\n    )\n"
    )


def test_a_sole_argument_of_operators_splits_inside_the_hugging_call_without_a_trailing_comma() -> None:
    assert wrapped(SOLE_OPERANDS, 60) == (
        "loss = tf.reduce_mean(\n    -c * tf.math.log(p + 1e-07)\n    - (1 - c) * tf.math.log(1 - p + 1e-07)\n)\n"
    )


def test_an_assigned_value_of_two_operators_or_more_splits_in_parentheses_of_its_own() -> None:
    assert wrapped(ASSIGNED_OPERANDS, 70) == (
        "total = (\n    first_model.trainable_variables\n    + second_model.trainable_variables\n"
        "    + third.trainable_variables\n)\n"
    )


def test_a_lambda_argument_opens_the_call_of_its_body() -> None:
    assert wrapped(LAMBDA, 80) == (
        "w = add_weight(\n    name='kernel',\n    initializer=lambda shape, dtype: tf.random.normal(\n"
        "        shape, stddev=0.1, seed=self.seed\n    ),\n)\n"
    )


def test_a_with_header_opens_its_items_call() -> None:
    assert wrapped(WITH, 70) == (
        "with tf.compat.v1.variable_scope(\n    'towers', regularizer=tf.keras.regularizers.L2(0.01)\n"
        ") as scope:\n    pass\n"
    )


def test_a_def_hugs_its_parameters_else_takes_one_per_line_with_a_trailing_comma() -> None:
    assert wrapped(DEF, 80) == (
        "class Cell:\n    def __init__(\n        self, num_units, activation=None, kernel_initializer=None, name=None\n"
        "    ):\n        pass\n"
    )
    assert wrapped(DEF, 50) == (
        "class Cell:\n    def __init__(\n        self,\n        num_units,\n        activation=None,\n"
        "        kernel_initializer=None,\n        name=None,\n    ):\n        pass\n"
    )


def test_a_dict_splat_comprehension_opens_and_splits_at_its_for_then_in_the_clause() -> None:
    assert wrapped(SPLAT, 90) == (
        "values = {\n    'hidden': hidden,\n    **{\n        var.path: tf.identity(var)\n"
        "        for var in hidden_layer.trainable_variables + out_layer.trainable_variables\n    },\n}\n"
    )
    assert wrapped(SPLAT, 80) == (  # its `for` clause still too long: split before its operator
        "values = {\n    'hidden': hidden,\n    **{\n        var.path: tf.identity(var)\n"
        "        for var in hidden_layer.trainable_variables\n        + out_layer.trainable_variables\n    },\n}\n"
    )


def test_the_innermost_call_still_too_long_opens_each_sole_argument_hugged() -> None:
    assert wrapped(NESTED, 70) == (
        "loss = tf.reduce_mean(\n    tf.nn.softmax_cross_entropy_with_logits(\n"
        "        labels=tf.stop_gradient(onehot), logits=logits\n    )\n)\n"
    )


def test_a_method_without_arguments_leaves_the_call_it_is_called_on_to_open() -> None:
    assert wrapped(METHOD, 70) == (
        "hits += compute_correct_count(\n    data[start:start + size], labels[start:start + size]\n).numpy()\n"
    )


def test_a_list_display_takes_one_element_per_line() -> None:
    assert wrapped(LIST, 70) == (
        "grads = tape.gradient(\n    loss,\n    [\n        hidden_layer.kernel,\n        hidden_layer.bias,\n"
        "        out_layer.kernel,\n        out_layer.bias,\n    ],\n)\n"
    )


def test_a_method_chain_splits_before_each_call_after_the_first() -> None:
    assert wrapped(CHAIN, 70) == (
        "dataset = (\n    tf.data.Dataset.from_tensor_slices((features, labels))\n"
        "    .shuffle(buffer_size=120, seed=53)\n    .batch(32)\n)\n"
    )


def test_each_shape_within_the_limit_stays() -> None:
    for source in (OPERANDS, SOLE_OPERANDS, ASSIGNED_OPERANDS, LAMBDA, WITH, DEF, SPLAT, NESTED, METHOD, LIST, CHAIN):
        assert wrapped(source, line_limit(source)) == source


USERS = (
    "def step():\n"
    "    loss = tf.reduce_mean(tf.nn.nce_loss(weights=w, biases=b, labels=labels,\n"
    "                                         inputs=embed, num_classes=size))\n"
)
MADE = (
    "def step():\n"
    "    loss = tf.reduce_mean(tf.nn.nce_loss(weights=w, biases=b, labels=labels,\n"
    "                                         inputs=embed, num_classes=size, sampled_values=sampler(labels, 1, seed=2)))\n"
)


def test_a_statement_spread_over_lines_is_laid_anew_when_the_rewrite_made_its_long_line() -> None:
    module = cst.parse_module(MADE)
    assert wrap_long_lines(module, 100, USERS).code == (
        "def step():\n    loss = tf.reduce_mean(\n        tf.nn.nce_loss(\n            weights=w,\n            biases=b,\n"
        "            labels=labels,\n            inputs=embed,\n            num_classes=size,\n"
        "            sampled_values=sampler(labels, 1, seed=2),\n        )\n    )\n"
    )
    assert wrap_long_lines(module, 100, MADE).code == MADE  # its long line is the user's
    assert wrap_long_lines(module, 100).code == MADE  # without the source: the user's layout
    commented = MADE.replace("labels=labels,\n", "labels=labels,  # the targets\n")
    assert wrap_long_lines(cst.parse_module(commented), 100, USERS).code == commented  # a comment would go

"""TF104: variable-creating functions → Keras Layer; scoped callers → Keras Model."""

from textwrap import dedent

import libcst as cst
import pytest
from helpers import check_transformed, squeezed

from migrate.api import rewrite_source
from migrate.scope_reads import function_constants, module_constants


def test_scoped_layers_become_model_with_shared_instance() -> None:
    check_transformed(
        """\
        import tensorflow as tf


        def dense(x, units):
            w = tf.get_variable('w', [x.shape[1], units], initializer=tf.zeros_initializer())
            return tf.matmul(x, w)


        def net(x):
            with tf.variable_scope('a'):
                h = dense(x, 4)
            with tf.variable_scope('a', reuse=True):
                h = dense(h, 4)
            return h


        inp = tf.placeholder(tf.float32, [1, 4])
        out = net(inp)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(out, {inp: [[1.0, 2.0, 3.0, 4.0]]}))
        """,
        """\
        import tensorflow as tf


        class Dense(tf.keras.layers.Layer):
            def __init__(self, units, **kwargs):
                super().__init__(**kwargs)
                self.units = units

            def build(self, input_shape):
                self.w = self.add_weight(name='w', shape=[input_shape[1], self.units], initializer='zeros')

            def call(self, x):
                return tf.matmul(x, self.w)


        class Net(tf.keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.a = Dense(4, name='a')

            def call(self, x):
                h = self.a(x)
                h = self.a(h)
                return h


        net = Net()


        @tf.function(input_signature=[tf.TensorSpec([1, 4])])
        def compute_out(inp):
            out = net(inp)
            return out


        print(compute_out([[1.0, 2.0, 3.0, 4.0]]).numpy())
        """,
    )


PER_CALL_MODELS = (
    "import tensorflow as tf\n"
    "def block(x, scope):\n"
    "    with tf.variable_scope(scope):\n"
    "        return tf.layers.dense(x, 2, name='fc')\n"
    "x = tf.placeholder(tf.float32, [None, 2])\n"
    "{opened}"
    "{indent}a = block(x, 'b1')\n"
    "{indent}b = block(a, 'b2')\n"
    "with tf.Session() as sess:\n"
    "    sess.run(tf.global_variables_initializer())\n"
    "    print(sess.run(b, {{x: [[1.0, 2.0]]}}).shape)\n"
)


def test_function_scoped_by_its_parameter_makes_one_model_per_call() -> None:
    result = rewrite_source(PER_CALL_MODELS.format(opened="", indent=""))
    assert result.level == "idiomatic"
    assert "b1 = Block(name='b1')" in result.code
    assert "b2 = Block(name='b2')" in result.code


def test_per_call_models_under_a_caller_scope_stay_in_graph_mode() -> None:
    # TF1 named the variables D/b1/fc/...: a Keras model cannot be named "D/b1".
    result = rewrite_source(PER_CALL_MODELS.format(opened="with tf.variable_scope('D'):\n", indent="    "))
    assert result.level == "partial"
    assert any("run under a variable_scope of their caller" in f.message for f in result.findings)


def test_a_get_variable_builder_that_makes_its_optimizer_is_inlined() -> None:
    # A layer cannot hold its own training step: the builder's graph moves to its caller, and
    # the weight made after a layer call keeps a shape of the configuration.
    result = rewrite_source(
        """\
import numpy as np
import tensorflow as tf


def build(x, y, hidden=3):
    h = tf.layers.dense(x, hidden)
    w = tf.get_variable("w", [hidden, 1], initializer=tf.constant_initializer(0.5))
    loss = tf.reduce_mean(tf.square(tf.matmul(h, w) - y))
    return loss, tf.train.GradientDescentOptimizer(0.1).minimize(loss)


x = tf.placeholder(tf.float32, [4, 2])
y = tf.placeholder(tf.float32, [4, 1])
loss, train_op = build(x, y)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([loss, train_op], {x: np.ones([4, 2]), y: np.zeros([4, 1])})[0])
"""
    )
    assert result.level == "idiomatic"
    assert "class Build" not in result.code and "def build" not in result.code
    assert "hidden = 3\nh_layer = tf.keras.layers.Dense(hidden)\n" in result.code
    assert 'w = tf.Variable(tf.fill([hidden, 1], 0.5), name="w")' in result.code


def test_only_what_weights_read_moves_to_build() -> None:
    # `h` reads the input before the weight is made but no weight reads `h`: it stays in call.
    result = rewrite_source(
        """\
import numpy as np
import tensorflow as tf


def head(x, units=2):
    n = int(x.shape[-1])
    h = tf.nn.relu(x)
    w = tf.get_variable("w", [n, units], initializer=tf.constant_initializer(0.5))
    return tf.matmul(h, w)


def net(x):
    with tf.variable_scope("head"):
        y = head(x)
    return y


x = tf.placeholder(tf.float32, [4, 3])
out = net(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {x: np.ones([4, 3])}))
"""
    )
    assert result.level == "idiomatic"
    assert squeezed(
        "    def build(self, input_shape):\n"
        "        n = int(input_shape[-1])\n"
        '        self.w = self.add_weight(name="w", shape=[n, self.units]'
    ) in squeezed(result.code)
    assert "    def call(self, x):\n        h = tf.nn.relu(x)\n        return tf.matmul(h, self.w)\n" in result.code


VARIABLE_LAYER = """\
import tensorflow as tf
{seed}

def fc(x, units, name):
    with tf.name_scope(name):
        in_dim = {in_dim}
        w = tf.Variable(tf.truncated_normal([in_dim, units], stddev=0.1), name="w")
        b = tf.Variable(tf.constant(0.1, shape=[units]), name="b")
        return tf.matmul(x, w) + b


def net(x):
    h = tf.nn.relu(fc(x, 8, "hidden"))
    return fc(h, 2, "out")


inp = tf.placeholder(tf.float32, [None, 4])
out = net(inp)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {{inp: [[1.0, 2.0, 3.0, 4.0]]}}))
"""


@pytest.mark.parametrize(("in_dim", "built"), [
    ("x.get_shape().as_list()[-1]", "input_shape[-1]"),
    ("x.get_shape()[-1].value", "input_shape[-1]"),
    ("x.shape.as_list()[1]", "input_shape[1]"),
    ("int(x.shape[-1])", "int(input_shape[-1])"),
])
def test_variable_layer_takes_weight_shape_from_input_shape(in_dim: str, built: str) -> None:
    result = rewrite_source(VARIABLE_LAYER.format(seed="tf.set_random_seed(1)", in_dim=in_dim))
    code = result.code
    assert result.level == "idiomatic", result.findings
    assert f"in_dim = {built}\n" in code
    assert squeezed("self.w = self.add_weight(name=\"w\", shape=[in_dim, self.units], initializer=lambda shape, dtype: "
            "tf.random.truncated_normal(shape, stddev=0.1, seed=self.seed))") in squeezed(code)
    assert squeezed("initializer=tf.constant_initializer(0.1))") in squeezed(code)
    # TF1's graph gave the two initial values op seeds 0 and 1, in the order net() built them.
    assert "self.hidden = Fc(8, seed=0, name='hidden')" in code
    assert "self.out = Fc(2, seed=1, name='out')" in code


def test_variable_layer_without_graph_seed_draws_unseeded() -> None:
    code = rewrite_source(VARIABLE_LAYER.format(seed="", in_dim="x.shape[-1]")).code
    assert "self.hidden = Fc(8, name='hidden')" in code
    assert "def __init__(self, units, seed=None, **kwargs):" in code


def test_layer_drawing_in_its_body_stops_the_seed_count() -> None:
    source = VARIABLE_LAYER.format(seed="tf.set_random_seed(1)", in_dim="x.shape[-1]").replace(
        "        return tf.matmul(x, w) + b", "        return tf.nn.dropout(tf.matmul(x, w) + b, 0.5)")
    code = rewrite_source(source).code
    assert "self.hidden = Fc(8, seed=0, name='hidden')" in code
    assert "self.out = Fc(2, name='out')" in code  # hidden's dropout took an op seed first in TF1


def test_variable_layer_named_twice_keeps_tf1_graph() -> None:
    # TF1 made the second name scope unique (`hidden_1`) and new variables under it.
    source = VARIABLE_LAYER.format(seed="", in_dim="x.shape[-1]").replace('fc(h, 2, "out")', 'fc(h, 2, "hidden")')
    result = rewrite_source(source)
    assert result.level == "partial"
    assert any("fc called twice under the name 'hidden'" in f.message for f in result.findings)

_BLOCKS = """\
import tensorflow as tf


def _weight(name, shape):
    with tf.device('/cpu:0'):
        var = tf.get_variable(name, shape, initializer=tf.constant_initializer(0.5))
    return var


def net(x, y):
    with tf.variable_scope('a'):
        w = _weight('w', [2, 2])
        h = tf.matmul(x, w){extra}
    return h


x = tf.placeholder(tf.float32, [1, 2])
y = tf.placeholder(tf.float32, [1, 2])
out = net(x, y)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(out, {{x: [[1.0, 2.0]], y: [[3.0, 4.0]]}}))
"""


def test_scope_block_with_weights_becomes_layer_of_model() -> None:
    result = rewrite_source(_BLOCKS.format(extra=""))
    assert result.level == "idiomatic", result.findings
    assert "class A(tf.keras.layers.Layer):" in result.code
    assert squeezed("self.w = self.add_weight(name='w', shape=[2, 2]") in squeezed(result.code)
    assert "        h = self.a(x)\n" in result.code
    assert "def _weight" not in result.code and "device" not in result.code
    messages = [f.message for f in result.findings]
    assert "get_variable wrapper _weight() inlined at its calls (its tf.device placement left to TF2)" in messages


def test_scope_block_reading_two_tensors_is_kept() -> None:
    source = _BLOCKS.format(extra=" + z").replace("    with tf.variable_scope('a'):", "    z = y * 2.0\n    with tf.variable_scope('a'):")
    result = rewrite_source(source)
    assert result.level == "partial"
    assert any("variable_scope 'a' computes from 2 tensors" in f.message for f in result.findings)


def test_an_assignment_computing_with_the_block_s_weights_right_after_it_joins_the_layer() -> None:
    # `with tf.variable_scope('local3') as scope: ... weights = ...` then
    # `local3 = tf.nn.relu(tf.matmul(reshape, weights) + biases, name=scope.name)`
    source = _BLOCKS.format(extra="").replace("    return h\n", "    h = h + tf.reduce_sum(w)\n    return h\n")
    result = rewrite_source(source)
    assert result.level == "idiomatic", result.findings
    assert "        h = tf.matmul(x, self.w)\n        h = h + tf.reduce_sum(self.w)\n        return h\n" in result.code


def test_scope_block_whose_weight_is_read_after_it_is_kept() -> None:
    source = _BLOCKS.format(extra="").replace("    return h\n", "    print(w)\n    return h\n")
    result = rewrite_source(source)
    assert result.level == "partial"
    assert any("the block's results are not one tensor" in f.message for f in result.findings)


def test_get_variable_wrapper_used_as_a_value_stays() -> None:
    source = _BLOCKS.format(extra="").replace("out = net(x, y)", "make = _weight\nout = net(x, y)")
    result = rewrite_source(source)
    assert "def _weight(" in result.code
    assert not any("inlined at its calls" in f.message for f in result.findings)


_HELPERS = """\
import tensorflow as tf


def weight_variable(shape):
    initial = tf.truncated_normal(shape, stddev=0.1, seed=2)
    return tf.Variable(initial)


def forward(x):
    w = weight_variable([2, 3])
    return tf.matmul(x, w)
{top}

x = tf.placeholder(tf.float32, [None, 2])
y = forward(x)
loss = tf.reduce_sum(y)
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([train, loss], {{x: [[1.0, 2.0]]}})[1])
"""


def test_variable_helper_called_by_a_model_function_is_inlined_into_it() -> None:
    # `initial = ...; return tf.Variable(initial)`: its weight is the function's own variable
    result = rewrite_source(_HELPERS.format(top=""))
    assert result.level == "idiomatic", result.findings
    assert "def weight_variable" not in result.code
    assert "w = tf.Variable(tf.random.truncated_normal([2, 3], stddev=0.1, seed=2))" in result.code
    assert "variable helper weight_variable() inlined at its calls" in [f.message for f in result.findings]


def test_variable_helper_also_called_at_the_top_level_stays_a_helper() -> None:
    result = rewrite_source(_HELPERS.format(top="\n\nbias = weight_variable([3])"))
    assert "def weight_variable(shape):" in result.code
    assert not any("inlined at its calls" in f.message for f in result.findings)


def test_unnamed_layers_in_the_scope_each_call_opens_keep_tf1_default_names() -> None:
    # Every entry into the scope restarts TF1's `dense`, `dense_1`: reused calls share them.
    check_transformed(
        """\
        import tensorflow as tf


        def critic(x):
            with tf.variable_scope("critic", reuse=tf.AUTO_REUSE):
                h = tf.layers.dense(x, 3, activation=tf.nn.relu)
                return tf.layers.dense(h, 1)


        a = tf.placeholder(tf.float32, [None, 2])
        score = critic(a) - critic(2.0 * a)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(score, {a: [[1.0, 2.0]]}).shape)
        """,
        """\
        import tensorflow as tf


        class Critic(tf.keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.dense = tf.keras.layers.Dense(3, activation=tf.nn.relu, name='dense')
                self.dense_1 = tf.keras.layers.Dense(1, name='dense_1')

            def call(self, x):
                h = self.dense(x)
                return self.dense_1(h)


        critic = Critic(name='critic')


        @tf.function(input_signature=[tf.TensorSpec([None, 2])])
        def compute_score(a):
            score = critic(a) - critic(2.0 * a)
            return score


        print(compute_score([[1.0, 2.0]]).numpy().shape)
        """,
    )


def test_unnamed_layers_outside_a_scope_of_their_own_stay_in_graph_mode() -> None:
    result = rewrite_source(
        b"import tensorflow as tf\n"
        b"def net(x):\n"
        b"    h = tf.layers.dense(x, 3)\n"
        b"    return tf.layers.dense(h, 1)\n"
        b"a = tf.placeholder(tf.float32, [None, 2])\n"
        b"with tf.variable_scope('outer'):\n"
        b"    y = net(a)\n"
        b"with tf.Session() as sess:\n"
        b"    sess.run(tf.global_variables_initializer())\n"
        b"    print(sess.run(y, {a: [[1.0, 2.0]]}).shape)\n"
    )
    assert result.level == "partial"
    assert any("layer outside a named variable_scope" in f.message for f in result.findings)


def test_layer_function_called_outside_any_model_function_stays_in_graph_mode() -> None:
    # Its class would be built only inside a model; called at the top level, nothing owns it.
    result = rewrite_source(
        b"import tensorflow as tf\n"
        b"def head(x):\n"
        b"    w = tf.get_variable('w', [2, 1], initializer=tf.ones_initializer())\n"
        b"    return tf.matmul(x, w)\n"
        b"x = tf.placeholder(tf.float32, [None, 2])\n"
        b"with tf.variable_scope('out'):\n"
        b"    y = head(x)\n"
        b"with tf.Session() as sess:\n"
        b"    sess.run(tf.global_variables_initializer())\n"
        b"    print(sess.run(y, {x: [[1.0, 2.0]]}))\n"
    )
    assert result.level == "partial"
    assert any("calls layer function head outside a model function" in f.message for f in result.findings)


def test_scoped_layer_called_under_a_module_variable_scope_stays_in_graph_mode() -> None:
    # TF1 named its variables `outer/block/w`: a Keras layer's name holds no "/".
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        def block(x, units, scope):
            with tf.variable_scope(scope):
                w = tf.get_variable("w", [x.get_shape()[-1], units])
                return tf.matmul(x, w)
        x = tf.placeholder(tf.float32, [None, 2])
        with tf.variable_scope("outer"):
            h = block(x, 3, "block")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(h, {x: [[1.0, 2.0]]}))
        """))
    assert result.level == "partial"
    assert "outside a model function" in result.fallback.message


def test_module_constant_read_by_a_model_function_call_is_its_literal() -> None:
    module = cst.parse_module(dedent("""\
        A, B = 3, [4, 5]
        C = "name"
        D = 1
        D = 2
        E = compute()
        def f(A_param, F=6):
            G = 7
        for H in range(2):
            pass
        I = [1, 2]
        I.append(3)
        J = [4]
        print(J[0], len(J))
        """))
    assert module_constants(module) == {"A": "3", "B": "[4, 5]", "C": '"name"'}


def test_a_weights_initializer_reads_the_layer_configuration_from_self() -> None:
    # `stddev=1.0 / n_out`: in `build` the function's parameter is the layer's configuration.
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf


        def fc(x, n_out, scope):
            with tf.variable_scope(scope):
                n_in = x.get_shape().as_list()[1]
                w = tf.get_variable('w', [n_in, n_out],
                                    initializer=tf.random_normal_initializer(stddev=1.0 / n_out))
                return tf.matmul(x, w)


        def net(x):
            with tf.variable_scope('net'):
                return fc(tf.nn.relu(fc(x, 3, 'hidden')), 2, 'out')


        x = tf.placeholder(tf.float32, [None, 4])
        out = net(x)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(out, {x: np.ones([2, 4])}))
        """,
        """\
        import numpy as np
        import tensorflow as tf


        class Fc(tf.keras.layers.Layer):
            def __init__(self, n_out, **kwargs):
                super().__init__(**kwargs)
                self.n_out = n_out

            def build(self, input_shape):
                n_in = input_shape[1]
                self.w = self.add_weight(
                    name='w',
                    shape=[n_in, self.n_out],
                    initializer=tf.random_normal_initializer(mean=0.0, stddev=1.0 / self.n_out),
                )

            def call(self, x):
                return tf.matmul(x, self.w)


        class Net(tf.keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.hidden = Fc(3, name='hidden')
                self.out = Fc(2, name='out')

            def call(self, x):
                return self.out(tf.nn.relu(self.hidden(x)))


        net = Net(name='net')


        @tf.function(input_signature=[tf.TensorSpec([None, 4])])
        def compute_out(x):
            out = net(x)
            return out


        print(compute_out(np.ones([2, 4])).numpy())
        """,
    )


def test_a_scope_blocks_initializer_reads_the_models_argument_from_self() -> None:
    # The model function's argument, read by a block's initializer, is the block layer's own.
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf


        def net(x, n_hidden):
            with tf.variable_scope('hidden'):
                w = tf.get_variable('w', [4, n_hidden],
                                    initializer=tf.truncated_normal_initializer(stddev=n_hidden ** -0.5))
                h = tf.nn.relu(tf.matmul(x, w))
            return h


        x = tf.placeholder(tf.float32, [None, 4])
        out = net(x, 3)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(out, {x: np.ones([2, 4])}))
        """,
        """\
        import numpy as np
        import tensorflow as tf


        class Hidden(tf.keras.layers.Layer):
            def __init__(self, n_hidden, **kwargs):
                super().__init__(**kwargs)
                self.n_hidden = n_hidden

            def build(self, input_shape):
                self.w = self.add_weight(
                    name='w',
                    shape=[4, self.n_hidden],
                    initializer=tf.keras.initializers.TruncatedNormal(
                        mean=0.0, stddev=self.n_hidden ** -0.5
                    ),
                )

            def call(self, x):
                h = tf.nn.relu(tf.matmul(x, self.w))
                return h


        class Net(tf.keras.Model):
            def __init__(self, n_hidden, **kwargs):
                super().__init__(**kwargs)
                self.hidden = Hidden(n_hidden, name='hidden')

            def call(self, x):
                h = self.hidden(x)
                return h


        net = Net(n_hidden=3)


        @tf.function(input_signature=[tf.TensorSpec([None, 4])])
        def compute_out(x):
            out = net(x)
            return out


        print(compute_out(np.ones([2, 4])).numpy())
        """,
    )


def test_a_variables_trainable_flag_reads_the_layer_configuration_from_self() -> None:
    # `trainable=train` on a tf.Variable weight: `train` is a constructor argument of the layer.
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf


        def fc(x, units, name, train=True):
            with tf.name_scope(name):
                in_dim = x.get_shape().as_list()[-1]
                w = tf.Variable(tf.truncated_normal([in_dim, units], stddev=1.0 / units), name="w", trainable=train)
                return tf.matmul(x, w)


        def net(x):
            h = tf.nn.relu(fc(x, 8, "hidden"))
            return fc(h, 2, "out", train=False)


        inp = tf.placeholder(tf.float32, [None, 4])
        out = net(inp)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(out, {inp: [[1.0, 2.0, 3.0, 4.0]]}))
        """,
        """\
        import numpy as np
        import tensorflow as tf


        class Fc(tf.keras.layers.Layer):
            def __init__(self, units, train=True, seed=None, **kwargs):
                super().__init__(**kwargs)
                self.units = units
                self.train = train
                self.seed = seed

            def build(self, input_shape):
                in_dim = input_shape[-1]
                self.w = self.add_weight(
                    name="w",
                    shape=[in_dim, self.units],
                    initializer=lambda shape, dtype: tf.random.truncated_normal(
                        shape, stddev=1.0 / self.units, seed=self.seed
                    ),
                    trainable=self.train,
                )

            def call(self, x):
                return tf.matmul(x, self.w)


        class Net(tf.keras.Model):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.hidden = Fc(8, name='hidden')
                self.out = Fc(2, train=False, name='out')

            def call(self, x):
                h = tf.nn.relu(self.hidden(x))
                return self.out(h)


        net = Net()


        @tf.function(input_signature=[tf.TensorSpec([None, 4])])
        def compute_out(inp):
            out = net(inp)
            return out


        print(compute_out([[1.0, 2.0, 3.0, 4.0]]).numpy())
        """,
    )


ADD_LAYER = """\
import tensorflow as tf

tf.set_random_seed(3)


def add_layer(inputs, in_size, out_size, activation_function=None):
    Weights = tf.Variable({weights})
    biases = tf.Variable(tf.zeros([1, out_size]) + 0.1)
    outputs = tf.matmul(inputs, Weights) + biases
    return outputs if activation_function is None else activation_function(outputs)


xs = tf.placeholder(tf.float32, [None, 2])
ys = tf.placeholder(tf.float32, [None, 1])
hidden = add_layer(xs, 2, 4, activation_function=tf.nn.relu)
out = add_layer(hidden, 4, 1)
loss = tf.reduce_mean(tf.square(ys - out))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run([train, loss], {{xs: [[1.0, 2.0]], ys: [[1.0]]}})[1])
"""


def test_a_layer_helper_sized_by_its_arguments_makes_an_instance_per_call() -> None:
    # Unnamed weights (named after the attribute holding them) from arithmetic on an initial-value
    # op: each call made new TF1 variables, so each call site gets its own layer, seeded with the
    # op seeds TF1's graph gave it.
    result = rewrite_source(ADD_LAYER.format(weights="tf.random_normal([in_size, out_size]) * 0.01"))
    assert result.level == "idiomatic", result.findings
    code = result.code
    assert squeezed('self.Weights = self.add_weight(name="Weights", shape=[self.in_size, self.out_size], '
            "initializer=lambda shape, dtype: tf.random.normal(shape, seed=self.seed) * 0.01)") in squeezed(code)
    assert squeezed('self.biases = self.add_weight(name="biases", shape=[1, self.out_size], '
            "initializer=lambda shape, dtype: tf.zeros(shape) + 0.1)") in squeezed(code)
    assert "hidden_layer = AddLayer(2, 4, activation_function=tf.nn.relu, seed=0)" in code
    assert "out_layer = AddLayer(4, 1, seed=1)" in code
    assert "hidden = hidden_layer(xs)" in code and "out = out_layer(hidden)" in code


def test_a_layer_helper_whose_initial_value_reads_a_tensor_stays_in_graph_mode() -> None:
    # Arithmetic with a call other than the initial-value op is no initializer Keras can run.
    result = rewrite_source(ADD_LAYER.format(weights="tf.random_normal([in_size, out_size]) * tf.sqrt(2.0)"))
    assert result.level == "partial"
    assert "class AddLayer" not in result.code


def test_a_layer_helper_given_a_graph_value_as_configuration_stays_in_graph_mode() -> None:
    # The instance is made once, outside every step: a placeholder passed as its configuration
    # (here the activation's argument) would be read where it no longer exists.
    source = ADD_LAYER.format(weights="tf.random_normal([in_size, out_size])").replace(
        "hidden = add_layer(xs, 2, 4, activation_function=tf.nn.relu)",
        "keep = tf.placeholder(tf.float32, [])\n"
        "hidden = add_layer(xs, 2, 4, activation_function=keep)").replace(
        "{xs: [[1.0, 2.0]], ys: [[1.0]]}", "{xs: [[1.0, 2.0]], ys: [[1.0]], keep: 0.5}")
    result = rewrite_source(source)
    assert result.level == "partial"
    assert "AddLayer(" not in result.code


def test_comments_of_a_layer_helpers_weights_go_to_build() -> None:
    result = rewrite_source(dedent("""\
        import tensorflow as tf
        def add_layer(inputs, in_size, out_size):
            # the weights
            w = tf.Variable(tf.zeros([in_size, out_size]))  # zeros
            return tf.matmul(inputs, w)
        x = tf.placeholder(tf.float32, [None, 2])
        y = add_layer(x, 2, 1)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(y, {x: [[1.0, 2.0]]}))
        """))
    assert result.level == "idiomatic", result.findings
    build = result.code[result.code.index("def build"):result.code.index("def call")]
    assert "# the weights" in build and "# zeros" in build


HYPHENATED = """\
import tensorflow as tf


def inference(x):
    with tf.variable_scope('layer1-fc'):
        w = tf.get_variable('weight', [3, 2], initializer=tf.zeros_initializer())
        h = tf.matmul(x, w)
    with tf.variable_scope('{second}'):
        v = tf.get_variable('weight', [2, 1], initializer=tf.zeros_initializer())
        y = tf.matmul(h, v)
    return y


x = tf.placeholder(tf.float32, [None, 3])
y = inference(x)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {{x: [[1.0, 2.0, 3.0]]}}))
"""


def test_a_hyphenated_scope_names_its_layer_attribute_as_an_identifier() -> None:
    result = rewrite_source(HYPHENATED.format(second="layer2-out"))
    assert result.level == "idiomatic", result.findings
    assert "self.layer1_fc = Layer1Fc(name='layer1-fc')" in result.code
    assert "self.layer2_out = Layer2Out(name='layer2-out')" in result.code


def test_two_scopes_spelled_as_one_identifier_are_refused() -> None:
    # `layer1-fc` and `layer1_fc` would share one attribute, so one layer's weights
    result = rewrite_source(HYPHENATED.format(second="layer1_fc"))
    assert result.level != "idiomatic"
    assert any("'layer1" in f.message and "not an identifier" in f.message for f in result.findings), result.findings


def test_blocks_of_one_scope_name_in_two_models_are_two_classes() -> None:
    # one class name for both would leave the second's definition to build the first model
    source = """\
import tensorflow as tf


def encoder(x):
    with tf.variable_scope('fc'):
        w = tf.get_variable('weight', [3, 2], initializer=tf.ones_initializer())
        h = tf.matmul(x, w)
    return h


def decoder(h):
    with tf.variable_scope('fc'):
        v = tf.get_variable('weight', [2, 1], initializer=tf.ones_initializer())
        y = tf.matmul(h, v)
    return y


x = tf.placeholder(tf.float32, [None, 3])
with tf.variable_scope('enc'):
    h = encoder(x)
with tf.variable_scope('dec'):
    y = decoder(h)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(y, {x: [[1.0, 2.0, 3.0]]}))
"""
    result = rewrite_source(source)
    classes = [line.split("(")[0] for line in result.code.splitlines() if line.startswith("class ")]
    assert len(classes) == len(set(classes)) == 4, classes
    assert "self.fc = DecoderFc(name='fc')" in result.code


@pytest.mark.parametrize(("signature", "constant"), [
    ("def train(x):", True),
    ("def train(x, *, n_classes=3):", False),  # a parameter: before the assignment it is the argument
    ("def train(x, *n_classes):", False),
    ("def train(x, /, n_classes=3):", False),
])
def test_a_literal_the_calling_function_binds_once_is_a_constant_unless_a_parameter_binds_it_too(
        signature: str, constant: bool) -> None:
    func = cst.parse_statement(f"{signature}\n    n_classes = 2\n    return model(x, n_classes)\n")
    assert isinstance(func, cst.FunctionDef)
    assert (function_constants(func) == {"n_classes": "2"}) is constant

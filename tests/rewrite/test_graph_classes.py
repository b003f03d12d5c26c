"""Classes holding placeholders/ops as attributes: steps built in __init__, runs in methods."""

import textwrap

from helpers import check_transformed, squeezed

from migrate.api import rewrite_source


def test_class_with_session_parameter() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf


        class Model:
            def __init__(self, n):
                self.x = tf.placeholder(tf.float32, [None, n])
                self.w = tf.Variable(tf.ones([n]))
                self.out = tf.reduce_sum(self.x * self.w)

            def score(self, sess, x):
                return sess.run(self.out, feed_dict={self.x: x})


        m = Model(2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(m.score(sess, [[1.0, 2.0]]), sess.run(m.w))
        """,
        """\
        import tensorflow as tf


        class Model:
            def __init__(self, n):
                self.w = tf.Variable(tf.ones([n]))

                @tf.function(input_signature=[tf.TensorSpec([None, n])])
                def compute_out(x):
                    out = tf.reduce_sum(x * self.w)
                    return out
                self.compute_out = compute_out

            def score(self, sess, x):
                return self.compute_out(x).numpy()


        m = Model(2)
        print(m.score(None, [[1.0, 2.0]]), m.w.numpy())
        """,
    )
    assert any(f.kind == "info" and "None" in f.message for f in result.findings)


def test_class_reading_an_unknown_attribute_outside_runs_falls_back() -> None:
    result = check_transformed(
        """\
        import tensorflow as tf


        class Model:
            def __init__(self):
                self.x = tf.placeholder(tf.float32, [])
                self.y = self.x * 2.0

            def shape(self):
                return self.y.shape

            def run(self, sess, v):
                return sess.run(self.y, {self.x: v})


        sess = tf.Session()
        m = Model()
        print(m.run(sess, 1.0))
        """,
        """\
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()


        class Model:
            def __init__(self):
                self.x = tf.compat.v1.placeholder(tf.float32, [])
                self.y = self.x * 2.0

            def shape(self):
                return self.y.shape

            def run(self, sess, v):
                return sess.run(self.y, {self.x: v})


        sess = tf.compat.v1.Session()
        m = Model()
        print(m.run(sess, 1.0))
        """,
        level="partial",
    )
    assert "graph tensor self.y used outside a session run" in result.fallback.message
    assert result.fallback.line == 9


def test_attribute_named_like_an_init_parameter_takes_a_fresh_local() -> None:
    # `self.x = tf.constant(x)` inside a step: the local `x` must not shadow the parameter.
    check_transformed(
        """\
        import tensorflow as tf


        class Model:
            def __init__(self, x):
                self.x = tf.constant(x)
                self.w = tf.Variable(tf.ones([2]))
                self.out = tf.reduce_sum(self.x * self.w)
                self.sess = tf.Session()
                self.sess.run(tf.global_variables_initializer())

            def score(self):
                return self.sess.run(self.out)


        print(Model([1.0, 2.0]).score())
        """,
        """\
        import tensorflow as tf


        class Model:
            def __init__(self, x):
                self.w = tf.Variable(tf.ones([2]))

                @tf.function
                def compute_out():
                    x_ = tf.constant(x)
                    out = tf.reduce_sum(x_ * self.w)
                    return out
                self.compute_out = compute_out

            def score(self):
                return self.compute_out().numpy()


        print(Model([1.0, 2.0]).score())
        """,
    )


def test_scope_argument_names_variables_and_lists_them() -> None:
    """A variable_scope named by a constructor argument names each instance's variables as TF1
    did; a listing by that scope in `__init__` is the instance's variables."""
    check_transformed(
        """\
        import tensorflow as tf


        class Net:
            def __init__(self, scope, n):
                self.x = tf.placeholder(tf.float32, [None, n])
                with tf.variable_scope(scope):
                    w = tf.get_variable("w", [n], initializer=tf.zeros_initializer())
                    self.loss = tf.reduce_sum(tf.square(self.x * w - 1.0))
                params = tf.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES, scope=scope)
                self.train_op = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss, var_list=params)

            def fit(self, sess, x):
                return sess.run([self.loss, self.train_op], {self.x: x})[0]


        net = Net("a", 2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(net.fit(sess, [[1.0, 2.0]]))
        """,
        """\
        import tensorflow as tf


        class Net:
            def __init__(self, scope, n):
                w = tf.Variable(tf.zeros([n]), name=f'{scope}/w')
                params = [w]
                self.optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, n])])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        loss = tf.reduce_sum(tf.square(x * w - 1.0))
                    grads = tape.gradient(loss, params)
                    self.optimizer.apply_gradients(zip(grads, params))
                    return loss
                self.train_step = train_step

            def fit(self, sess, x):
                return self.train_step(x).numpy()


        net = Net("a", 2)
        print(net.fit(None, [[1.0, 2.0]]))
        """,
    )


SCOPED_BY_HELPER = """\
import tensorflow as tf


def dense(x, n):
    w = tf.get_variable("w", [x.shape[1], n], initializer=tf.zeros_initializer())
    return tf.matmul(x, w)


class Net:
    def __init__(self, scope, n):
        self.scope = scope
        self.x = tf.placeholder(tf.float32, [None, n])
        with tf.variable_scope(scope):
            b = tf.get_variable("b", [n], initializer=tf.zeros_initializer())
            self.out = dense(self.x, n) + b

    def variables(self):
        return tf.trainable_variables(scope=self.scope)


net = Net("a", 2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(len(net.variables()), sess.run(net.out, {net.x: [[1.0, 2.0]]}))
"""


def test_scope_listing_with_variables_made_elsewhere_stays_compat() -> None:
    """A helper creating variables under the scope would be missing from the listing."""
    result = rewrite_source(SCOPED_BY_HELPER)
    assert result.level == "partial"
    assert "tf.compat.v1.trainable_variables(scope=self.scope)" in result.code


UPDATE_PASSED_ON = """\
import tensorflow as tf


class Net:
    def __init__(self, scope):
        self.scope = scope
        with tf.variable_scope(scope):
            self.w = tf.get_variable("w", [2], initializer=tf.ones_initializer())

    def variables(self):
        return tf.trainable_variables(scope=self.scope)


def copy_op(src, dst):
    return tf.group(*[tf.assign(d, s) for s, d in zip(src.variables(), dst.variables())])


a, b = Net("a"), Net("b")
update = copy_op(a, b)
both = tf.group(update, tf.assign_add(a.w, [1.0, 1.0]))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(both)
    print(sess.run(b.w))
"""


def test_update_factory_whose_op_is_used_beyond_runs_stays() -> None:
    """An update op grouped into another op cannot be a function called where it ran."""
    result = rewrite_source(UPDATE_PASSED_ON)
    assert result.level == "partial"
    assert "lambda" not in result.code


def test_a_step_named_as_a_layer_of_init_does_not_shadow_it() -> None:
    # The layer made for scope 'out' is the local `out` of __init__; the step fetching
    # `self.out` calls it, so the step takes another name (it would call itself).
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf


        def linear(x, n_out, scope):
            with tf.variable_scope(scope):
                w = tf.get_variable('w', [int(x.shape[1]), n_out],
                                    initializer=tf.truncated_normal_initializer(stddev=n_out ** -0.5))
                return tf.matmul(x, w)


        class Model(object):
            def __init__(self, n_in, n_hidden, n_out):
                self.x = tf.placeholder(tf.float32, [None, n_in])
                h = tf.nn.tanh(linear(self.x, n_hidden, 'h'))
                self.out = linear(h, n_out, 'out')


        m = Model(4, 3, 2)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run(m.out, feed_dict={m.x: np.ones((2, 4))}))
        """,
        """\
        import numpy as np
        import tensorflow as tf


        class Linear(tf.keras.layers.Layer):
            def __init__(self, n_out, **kwargs):
                super().__init__(**kwargs)
                self.n_out = n_out

            def build(self, input_shape):
                self.w = self.add_weight(
                    name='w',
                    shape=[int(input_shape[1]), self.n_out],
                    initializer=tf.keras.initializers.TruncatedNormal(mean=0.0, stddev=self.n_out ** -0.5),
                )

            def call(self, x):
                return tf.matmul(x, self.w)


        class Model(object):
            def __init__(self, n_in, n_hidden, n_out):
                h_layer = Linear(n_hidden, name='h')
                out = Linear(n_out, name='out')

                @tf.function(input_signature=[tf.TensorSpec([None, n_in])])
                def compute_out(x):
                    h = tf.nn.tanh(h_layer(x))
                    out_ = out(h)
                    return out_
                self.compute_out = compute_out


        m = Model(4, 3, 2)
        print(m.compute_out(np.ones((2, 4))).numpy())
        """,
    )


def test_a_default_session_lookup_goes_with_the_runs_it_served() -> None:
    """`sess = sess or tf.get_default_session()`: every read of `sess` is a run, which becomes a step call; the comment stays."""
    check_transformed(
        """\
        import tensorflow as tf


        class Doubler:
            def __init__(self):
                self.x = tf.placeholder(tf.float32)
                self.y = self.x * 2.0

            def predict(self, x, sess=None):
                sess = sess or tf.get_default_session()  # the caller's
                return sess.run(self.y, {self.x: x})


        doubler = Doubler()
        with tf.Session() as sess:
            print(doubler.predict(3.0))
        """,
        """\
        import tensorflow as tf


        class Doubler:
            def __init__(self):
                @tf.function(input_signature=[tf.TensorSpec(None)])
                def compute_y(x):
                    y = x * 2.0
                    return y
                self.compute_y = compute_y

            def predict(self, x, sess=None):
                # the caller's
                return self.compute_y(x).numpy()


        doubler = Doubler()
        print(doubler.predict(3.0))
        """,
    )


def test_layers_under_a_scope_named_by_a_constructor_argument_convert() -> None:
    """Each instance's layer is its own Keras layer; the scope only named TF1's variables."""
    check_transformed(
        """\
        import tensorflow as tf


        class Head:
            def __init__(self, scope="head"):
                with tf.variable_scope(scope):
                    self.x = tf.placeholder(tf.float32, [None, 2])
                    self.y = tf.contrib.layers.fully_connected(
                        self.x, 1, activation_fn=None, weights_initializer=tf.ones_initializer())

            def predict(self, sess, x):
                return sess.run(self.y, {self.x: x})


        a = Head("a")
        b = Head("b")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(a.predict(sess, [[1.0, 2.0]]), b.predict(sess, [[3.0, 4.0]]))
        """,
        """\
        import tensorflow as tf


        class Head:
            def __init__(self, scope="head"):
                dense = tf.keras.layers.Dense(1, activation=None, kernel_initializer=tf.ones_initializer())

                @tf.function(input_signature=[tf.TensorSpec([None, 2])])
                def compute_y(x):
                    y = dense(x)
                    return y
                self.compute_y = compute_y

            def predict(self, sess, x):
                return self.compute_y(x).numpy()


        a = Head("a")
        b = Head("b")
        print(a.predict(None, [[1.0, 2.0]]), b.predict(None, [[3.0, 4.0]]))
        """,
    )


def test_a_feed_dict_of_attribute_placeholders_is_keyed_by_their_names() -> None:
    """`{self.a: a}` → `{"a": a}`: the key is the step's parameter name, not an internal one."""
    check_transformed(
        """\
        import tensorflow as tf


        class Adder:
            def __init__(self):
                self.a = tf.placeholder(tf.float32)
                self.b = tf.placeholder(tf.float32)
                self.total = self.a + self.b

            def add(self, sess, a, b):
                feed = {self.a: a, self.b: b}
                return sess.run(self.total, feed)


        adder = Adder()
        with tf.Session() as sess:
            print(adder.add(sess, 1.0, 2.0))
        """,
        """\
        import tensorflow as tf


        class Adder:
            def __init__(self):
                @tf.function(input_signature=[tf.TensorSpec(None), tf.TensorSpec(None)])
                def compute_total(a, b):
                    total = a + b
                    return total
                self.compute_total = compute_total

            def add(self, sess, a, b):
                feed = {"a": a, "b": b}
                return self.compute_total(feed["a"], feed["b"]).numpy()


        adder = Adder()
        print(adder.add(None, 1.0, 2.0))
        """,
    )


def test_a_default_session_lookup_read_otherwise_keeps_graph_mode() -> None:
    result = rewrite_source(textwrap.dedent("""\
        import tensorflow as tf


        class Doubler:
            def __init__(self):
                self.x = tf.placeholder(tf.float32)
                self.y = self.x * 2.0

            def predict(self, x, sess=None):
                sess = sess or tf.get_default_session()
                print(sess.graph)
                return sess.run(self.y, {self.x: x})


        doubler = Doubler()
        with tf.Session() as sess:
            print(doubler.predict(3.0))
        """))
    assert result.level == "partial"
    assert "get_default_session" in result.code



def test_a_builder_method_called_once_from_init_is_inlined() -> None:
    """`self._build_model()` in `__init__`: its graph is `__init__`'s, its docstring a comment."""
    check_transformed(
        """\
        import tensorflow as tf


        class Scaler:
            def __init__(self, scope="scaler"):
                with tf.variable_scope(scope):
                    self._build_model()  # the graph

            def _build_model(self):
                '''Builds the graph.'''
                self.x = tf.placeholder(tf.float32)
                self.y = self.x * 3.0

            def predict(self, sess, x):
                return sess.run(self.y, {self.x: x})


        scaler = Scaler()
        with tf.Session() as sess:
            print(scaler.predict(sess, 2.0))
        """,
        """\
        import tensorflow as tf


        class Scaler:
            def __init__(self, scope="scaler"):
                # the graph
                # Builds the graph.
                @tf.function(input_signature=[tf.TensorSpec(None)])
                def compute_y(x):
                    y = x * 3.0
                    return y
                self.compute_y = compute_y

            def predict(self, sess, x):
                return self.compute_y(x).numpy()


        scaler = Scaler()
        print(scaler.predict(None, 2.0))
        """,
    )


def test_a_builder_method_called_elsewhere_too_is_not_inlined() -> None:
    result = rewrite_source(textwrap.dedent("""\
        import tensorflow as tf


        class Scaler:
            def __init__(self, scope="scaler"):
                with tf.variable_scope(scope):
                    self._build_model()  # the graph

            def _build_model(self):
                '''Builds the graph.'''
                self.x = tf.placeholder(tf.float32)
                self.y = self.x * 3.0

            def rebuild(self):
                self._build_model()

            def predict(self, sess, x):
                return sess.run(self.y, {self.x: x})


        scaler = Scaler()
        with tf.Session() as sess:
            print(scaler.predict(sess, 2.0))
        """))
    assert "def _build_model(self):" in result.code


def test_a_class_owning_the_session_runs_the_model_it_holds_through_its_steps() -> None:
    check_transformed(
        """\
        import tensorflow as tf


        class Net:
            def __init__(self):
                self.x = tf.placeholder(tf.float32, [None, 2])
                self.w = tf.Variable(tf.ones([2]))
                self.loss = tf.reduce_sum(tf.square(self.x * self.w))
                self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)


        class Trainer:
            def __init__(self):
                self.net = Net()
                self.sess = tf.Session()
                self.sess.run(tf.global_variables_initializer())

            def fit(self, x):
                _, loss = self.sess.run([self.net.train, self.net.loss], feed_dict={self.net.x: x})
                return loss


        print(Trainer().fit([[1.0, 2.0]]))
        """,
        """\
        import tensorflow as tf


        class Net:
            def __init__(self):
                self.w = tf.Variable(tf.ones([2]))
                self.optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, 2])])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        loss = tf.reduce_sum(tf.square(x * self.w))
                    grads = tape.gradient(loss, [self.w])
                    self.optimizer.apply_gradients(zip(grads, [self.w]))
                    return loss
                self.train_step = train_step


        class Trainer:
            def __init__(self):
                self.net = Net()

            def fit(self, x):
                loss = self.net.train_step(x).numpy()
                return loss


        print(Trainer().fit([[1.0, 2.0]]))
        """,
    )


def test_an_outside_run_keeping_its_train_ops_result_gets_the_none() -> None:
    # `out` keeps the whole list, None included: the step returns the op's place too
    result = rewrite_source(textwrap.dedent("""\
        import tensorflow as tf


        class Net:
            def __init__(self):
                self.x = tf.placeholder(tf.float32, [None, 2])
                self.w = tf.Variable(tf.ones([2]))
                self.loss = tf.reduce_sum(tf.square(self.x * self.w))
                self.train = tf.train.GradientDescentOptimizer(0.1).minimize(self.loss)


        net = Net()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run([net.train, net.loss], {net.x: [[1.0, 2.0]]})
            _, loss = sess.run([net.train, net.loss], {net.x: [[1.0, 2.0]]})
            print(out[1], loss)
        """))
    code = str(result.code)
    assert result.level == "idiomatic", result.findings
    assert "return [None, loss]" in code and "return loss\n" in code
    assert squeezed("out = tf.nest.map_structure(lambda t: None if t is None else t.numpy(), net.train_step(") in squeezed(code)
    assert "loss = net.train_step_2([[1.0, 2.0]]).numpy()" in code

"""Classes holding placeholders/ops as attributes: steps built in __init__, runs in methods."""

from helpers import check_transformed


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

                @tf.function(input_signature=[tf.TensorSpec([None, n], tf.float32)])
                def out(x):
                    out = tf.reduce_sum(x * self.w)
                    return out
                self.out = out

            def score(self, sess, x):
                return self.out(x).numpy()


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
    assert "graph tensor self.y used outside a session run" in result.findings[0].message
    assert result.findings[0].line == 9


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
                def out():
                    x_ = tf.constant(x)
                    out = tf.reduce_sum(x_ * self.w)
                    return out
                self.out = out

            def score(self):
                return self.out().numpy()


        print(Model([1.0, 2.0]).score())
        """,
    )

"""TF105: tf.gradients → GradientTape, list in and list out; grad_ys → output_gradients."""

from helpers import check_transformed


def test_gradients_with_grad_ys_and_placeholder_input() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [2])
        y = x * x
        g = tf.gradients(y, x, grad_ys=tf.constant([1.0, 3.0]))
        with tf.Session() as sess:
            print(sess.run(g, {x: [1.0, 2.0]}))
        """,
        """\
        import tensorflow as tf


        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def g(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x * x
            g = tape.gradient(y, [x], output_gradients=tf.constant([1.0, 3.0]))
            return g


        print(tf.nest.map_structure(lambda t: None if t is None else t.numpy(), g([1.0, 2.0])))
        """,
    )

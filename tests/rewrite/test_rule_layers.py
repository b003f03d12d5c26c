"""TF109: tf.layers.* calls → Keras layers created once outside the step."""

from helpers import check_transformed


def test_dense_layer_created_once_and_trained_through_its_variables() -> None:
    check_transformed(
        """\
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        h = tf.layers.dense(x, 3, activation=tf.nn.relu)
        loss = tf.reduce_mean(h)
        train = tf.train.AdamOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train, {x: [[1.0, 2.0]]})
        """,
        """\
        import tensorflow as tf
        h_layer = tf.keras.layers.Dense(3, activation=tf.nn.relu)
        optimizer = tf.keras.optimizers.Adam(learning_rate=0.1, epsilon=1e-08)


        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def train(x):
            with tf.GradientTape() as tape:
                h = h_layer(x)
                loss = tf.reduce_mean(h)
            grads = tape.gradient(loss, h_layer.trainable_variables)
            optimizer.apply_gradients(zip(grads, h_layer.trainable_variables))


        train([[1.0, 2.0]])
        """,
    )

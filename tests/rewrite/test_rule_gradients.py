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


        @tf.function(input_signature=[tf.TensorSpec([2])])
        def compute_g(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x * x
            g = tape.gradient(y, [x], output_gradients=tf.constant([1.0, 3.0]))
            return g


        print(tf.nest.map_structure(lambda t: t.numpy(), compute_g([1.0, 2.0])))
        """,
    )


def test_gradients_clipped_in_one_statement_are_bound_first() -> None:
    # `tf.clip_by_global_norm(tf.gradients(loss, tvars), ...)`, as char-rnn code writes it: the
    # tape's gradients get a statement of their own, binding the name the clip rebinds; `tvars`
    # reads the variables' owners.
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [4, 3])
        w = tf.Variable(tf.ones([3, 1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        tvars = tf.trainable_variables()
        grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tvars), 1.0)
        train_op = tf.train.GradientDescentOptimizer(0.1).apply_gradients(zip(grads, tvars))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run([loss, train_op], {x: np.ones([4, 3])})[0])
        """,
        """\
        import numpy as np
        import tensorflow as tf
        w = tf.Variable(tf.ones([3, 1]))
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([4, 3])])
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
            grads = tape.gradient(loss, [w])
            grads, _ = tf.clip_by_global_norm(grads, 1.0)
            optimizer.apply_gradients(zip(grads, ([w])))
            return loss


        print(train_step(np.ones([4, 3])).numpy())
        """,
    )


def test_a_listing_read_by_the_loss_reads_the_variables_in_the_step() -> None:
    # An L2 term over `tf.trainable_variables()`: the listing's statement leaves the graph, so
    # the loss replayed in the step reads the variables themselves, as the update does.
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [4, 3])
        w = tf.Variable(tf.ones([3, 1]), name='w')
        params = tf.trainable_variables()
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        loss = loss + 1e-3 * tf.add_n([tf.nn.l2_loss(v) for v in params])
        grads = tf.gradients(loss, params)
        train_op = tf.train.GradientDescentOptimizer(0.1).apply_gradients(zip(grads, params))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print(sess.run([loss, train_op], {x: np.ones([4, 3])})[0])
        """,
        """\
        import numpy as np
        import tensorflow as tf
        w = tf.Variable(tf.ones([3, 1]), name='w')
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([4, 3])])
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
                loss = loss + 1e-3 * tf.add_n([tf.nn.l2_loss(v) for v in ([w])])
            grads = tape.gradient(loss, [w])
            optimizer.apply_gradients(zip(grads, ([w])))
            return loss


        print(train_step(np.ones([4, 3])).numpy())
        """,
    )


def test_pairs_zipped_with_a_listing_and_the_listing_fetched_read_the_variables() -> None:
    # `list(zip(grads, params))` in a statement of its own, after the tape; `sess.run(params)`
    # fetches the variables' values as a list, as TF1 returned them.
    check_transformed(
        """\
        import numpy as np
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [4, 3])
        w = tf.Variable(tf.ones([3, 1]), name='w')
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
        params = tf.trainable_variables()
        grads = tf.gradients(loss, params)
        grads_and_vars = list(zip(grads, params))
        train_op = tf.train.GradientDescentOptimizer(0.1).apply_gradients(grads_and_vars)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train_op, {x: np.ones([4, 3])})
            print(sess.run(params))
            print(sess.run(params[0]).shape)
        """,
        """\
        import numpy as np
        import tensorflow as tf
        w = tf.Variable(tf.ones([3, 1]), name='w')
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


        @tf.function(input_signature=[tf.TensorSpec([4, 3])])
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
            grads = tape.gradient(loss, [w])
            grads_and_vars = list(zip(grads, ([w])))
            optimizer.apply_gradients(grads_and_vars)


        @tf.function
        def compute_params():
            return ([w])


        @tf.function
        def compute_params_2():
            return ([w])[0]


        train_step(np.ones([4, 3]))
        print(tf.nest.map_structure(lambda t: t.numpy(), compute_params()))
        print(compute_params_2().numpy().shape)
        """,
    )

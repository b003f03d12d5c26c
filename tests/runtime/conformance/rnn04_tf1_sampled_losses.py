# face: tf1
"""nce_loss and sampled_softmax_loss with given sampled_values (deterministic: TF's own logits
and gradients, accidental hits removed or not, num_true 1 and 2); the log-uniform sampler's
shapes, dtypes, ranges and expected counts; truncated_normal with a NumPy float64 stddev."""
import numpy as np
import tensorflow as tf

classes, dim = 7, 3
weights = tf.Variable(np.cos(np.arange(classes * dim) * 0.4).reshape(classes, dim).astype(np.float32))
biases = tf.Variable(np.linspace(-0.3, 0.3, classes).astype(np.float32))
inputs = tf.constant(np.sin(np.arange(4 * dim) * 0.9).reshape(4, dim).astype(np.float32))
labels1 = tf.constant([[1], [4], [2], [6]])
labels2 = tf.constant([[1, 3], [4, 0], [2, 2], [6, 5]], dtype=tf.int64)
sampled = tf.constant([2, 0, 5], dtype=tf.int64)
expected_true1 = tf.constant([[0.5], [0.25], [0.4], [0.1]])
expected_true2 = tf.constant([[0.5, 0.2], [0.25, 0.6], [0.4, 0.4], [0.1, 0.3]])
expected_sampled = tf.constant([0.4, 0.7, 0.15])
losses = {
    "nce": tf.nn.nce_loss(weights, biases, labels1, inputs, 3, classes,
                          sampled_values=(sampled, expected_true1, expected_sampled)),
    "nce_hits_num_true2": tf.nn.nce_loss(weights, biases, labels2, inputs, 3, classes, num_true=2,
                                         sampled_values=(sampled, expected_true2, expected_sampled),
                                         remove_accidental_hits=True),
    "softmax": tf.nn.sampled_softmax_loss(weights, biases, labels1, inputs, 3, classes,
                                          sampled_values=(sampled, expected_true1, expected_sampled)),
    "softmax_keep_hits": tf.nn.sampled_softmax_loss(weights, biases, labels1, inputs, 3, classes,
                                                    remove_accidental_hits=False,
                                                    sampled_values=(sampled, expected_true1, expected_sampled)),
    "softmax_num_true2": tf.nn.sampled_softmax_loss(weights, biases, labels2, inputs, 3, classes, num_true=2,
                                                    sampled_values=(sampled, expected_true2, expected_sampled)),
}
total = tf.add_n([tf.reduce_sum(v) for v in losses.values()])
grads = [tf.convert_to_tensor(g) for g in tf.gradients(total, [weights, biases, inputs])]

s_unique = tf.nn.log_uniform_candidate_sampler(labels2, 2, 5, True, 50)
s_plain = tf.random.log_uniform_candidate_sampler(labels2, 2, 6, False, 50)
drawn = tf.nn.sampled_softmax_loss(weights, biases, labels1, inputs, 4, classes)
init = tf.truncated_normal([2, 2], stddev=1.0 / np.sqrt(16))

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for name, value in sess.run(losses).items():
        print(name, value)
    for g in sess.run(grads):
        print("grad", g)
    (cand, true_count, samp_count), (cand2, true_count2, samp_count2) = sess.run([s_unique, s_plain])
    p = lambda v: np.log((v + 2.0) / (v + 1.0)) / np.log(51.0)
    print(cand.dtype, cand.shape, true_count.dtype, true_count.shape, samp_count.shape)
    print("unique", len(set(cand.tolist())) == 5, cand.min() >= 0, cand.max() < 50)
    print("plain true counts", true_count2)
    print("plain sampled counts", np.allclose(samp_count2, 6 * p(cand2)), cand2.shape)
    # unique sampling: counts are p*5 without retries, else 1 - (1 - p)^tries for the tries made
    pt = p(np.array([[1, 3], [4, 0], [2, 2], [6, 5]]))
    fits = [np.allclose(true_count, 5 * pt if t == 5 else -np.expm1(t * np.log1p(-pt)), rtol=1e-5)
            for t in range(5, 500)]
    print("unique counts from one number of tries", sum(fits) == 1)
    print("drawn loss", sess.run(drawn).shape, sess.run(init).dtype)

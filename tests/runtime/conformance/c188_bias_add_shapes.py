# ruff: noqa
import tensorflow as tf

# BiasAdd does not broadcast: TF checks the ranks and the channel count, eagerly in its
# kernel and, in a function, when the graph is built.
bias = tf.constant([1.0, 2.0, 3.0])
cases = [
    ('matrix', tf.ones([2, 3]), bias, None),
    ('channels first', tf.ones([2, 3, 5]), bias, 'NCHW'),
    ('swapped', bias, tf.ones([2, 3]), None),
    ('vector value', tf.ones([3]), bias, None),
    ('matrix bias', tf.ones([2, 3]), tf.ones([1, 3]), None),
    ('wrong channels', tf.ones([2, 4]), bias, None),
]


@tf.function
def traced(value, bias, data_format):
    return tf.nn.bias_add(value, bias, data_format=data_format)


for label, value, b, data_format in cases:
    for run in (tf.nn.bias_add, traced):
        try:
            print(label, run is traced, run(value, b, data_format=data_format).numpy().sum())
        except (tf.errors.InvalidArgumentError, ValueError) as e:
            message = str(e)
            for text in ('Input tensor must be at least 2D', 'Biases must be 1D', 'Must provide as many biases',
                         'Shape must be at least rank 2', 'Shape must be rank 1', 'Dimensions must be equal'):
                if text in message:
                    print(label, run is traced, type(e).__name__, text)

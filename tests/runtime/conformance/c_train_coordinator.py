# face: tf2
"""tf.train.Coordinator: a stop flag, a clean stop on OutOfRangeError, any other exception kept
for join(), stop_on_exception, and a thread joined."""
import threading

import tensorflow as tf

coord = tf.train.Coordinator()
print("fresh", coord.should_stop(), coord.joined)
coord.request_stop(tf.errors.OutOfRangeError(None, None, "end of input"))
print("clean stop", coord.should_stop())
coord.join()
print("joined", coord.joined)
coord.clear_stop()
print("cleared", coord.should_stop(), coord.joined)
with coord.stop_on_exception():
    raise ValueError("bad batch")
print("stopped by", coord.should_stop())
try:
    coord.join()
except ValueError as error:
    print("join raised", type(error).__name__, error)
coord.clear_stop()
seen = []


def work():
    while not coord.should_stop():
        seen.append(1)
        if len(seen) == 3:
            coord.request_stop()


thread = threading.Thread(target=work)
thread.start()
coord.join([thread])
print("thread", thread.is_alive(), len(seen), coord.wait_for_stop(0.0))
try:
    coord.request_stop("not an exception")
except TypeError as error:
    print("TypeError", type(error).__name__)
other = tf.train.Coordinator()
other.request_stop("not an exception")
try:
    other.join()
except ValueError as error:
    print("recorded", type(error).__name__, str(error).startswith("ex must be a tuple"))

# ruff: noqa
import tensorflow as tf
tf.config.set_soft_device_placement(True)
tf.debugging.set_log_device_placement(False)
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
tf.config.threading.set_intra_op_parallelism_threads(1)
print(tf.config.list_physical_devices(), tf.config.threading.get_intra_op_parallelism_threads())
try:
    tf.config.experimental.set_memory_growth(tf.config.list_physical_devices("CPU")[0], True)
except ValueError as e:
    print("ValueError", e)

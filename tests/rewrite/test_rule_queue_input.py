"""TF116: queue-runner input pipelines become the tf.data pipelines they stand for."""

from textwrap import dedent

import libcst as cst
import pytest
from helpers import check_transformed

from migrate.imports import collect_aliases
from migrate.report import Finding
from migrate.rules.queue_input import to_datasets

TEXT_LINES = """\
import tensorflow as tf

queue = tf.train.string_input_producer(["a.csv", "b.csv"], num_epochs=1, shuffle=False)
reader = tf.TextLineReader()
_, line = reader.read(queue)
x, y = tf.decode_csv(line, record_defaults=[[0.0], [0.0]])
xs, ys = tf.train.batch([x, y], batch_size=2, allow_smaller_final_batch=True)
total = tf.reduce_sum(xs * ys)
with tf.Session() as sess:
    sess.run(tf.local_variables_initializer())
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess=sess, coord=coord)
    try:
        while not coord.should_stop():
            print(sess.run(total))
    except tf.errors.OutOfRangeError:
        print("done")
    finally:
        coord.request_stop()
    coord.join(threads)
"""


def test_a_text_line_pipeline_becomes_a_dataset_and_its_runners_go() -> None:
    result = check_transformed(TEXT_LINES, '''\
        import tensorflow as tf


        def parse_line(line):
            x, y = tf.io.decode_csv(line, record_defaults=[[0.0], [0.0]])
            return x, y


        dataset = tf.data.TextLineDataset(["a.csv", "b.csv"]).repeat(1).map(parse_line).batch(2)
        iterator = iter(dataset)


        @tf.function
        def compute_total(xs, ys):
            total = tf.reduce_sum(xs * ys)
            return total


        try:
            while True:
                print(compute_total(*iterator.get_next()).numpy())
        except tf.errors.OutOfRangeError:
            print("done")
        ''')
    queue = [f for f in result.findings if f.rule == "TF116"]
    assert [(f.line, f.kind) for f in queue] == [(3, "fixed"), (11, "fixed")]


def prepass(body: str) -> tuple[str, list[Finding]]:
    """The pass alone, on TF1 code: its output is TF1 code too."""
    module = cst.parse_module("import tensorflow as tf\n" + dedent(body))
    findings: list[Finding] = []
    return to_datasets(module, collect_aliases(module), {}, findings).code, findings


PIPELINE = """\
files = ["a.tfrecord", "b.tfrecord"]
queue = tf.train.string_input_producer(files, seed=7)
reader = tf.TFRecordReader()
_, serialized = reader.read(queue)
parsed = tf.parse_single_example(serialized, {"v": tf.FixedLenFeature([2], tf.float32)})
v = parsed["v"]
w = parsed["v"] * 2.0
vs, ws = BATCH
"""


def test_shuffled_files_and_a_shuffle_batch_keep_their_seeds_and_buffer() -> None:
    code, _ = prepass(PIPELINE.replace("BATCH", "tf.train.shuffle_batch([v, w], 8, capacity=100, "
                                       "min_after_dequeue=50, seed=3)"))
    assert "filenames = tf.data.Dataset.from_tensor_slices(files).shuffle(len(files), seed=7).repeat()\n" in code
    assert ("dataset = tf.data.TFRecordDataset(filenames).map(parse_example).shuffle(50, seed=3)"
            ".batch(8, drop_remainder=True)\n") in code
    assert "vs, ws = dataset.make_one_shot_iterator().get_next()\n" in code


@pytest.mark.parametrize(("change", "why"), [
    (("tf.TFRecordReader()", "tf.TFRecordReader(options=opts)"), "tf.TFRecordReader is given options"),
    (("_, serialized", "key, serialized"), "the record keys the reader returns are read"),
    (("vs, ws = BATCH", "vs, ws = BATCH\nprint(v)"), "v is used past the pipeline"),
    (("BATCH", "tf.train.batch([v, w], 8, enqueue_many=True)"), "the batch is given whole batches"),
    (("BATCH", "tf.train.batch([v, w], 8, dynamic_pad=True)"), "the batch pads"),
    (("BATCH", "tf.train.batch([v, w], 8, allow_smaller_final_batch=small)"),
     "whether the last batch may be smaller is decided at run time"),
    (("seed=7", "shuffle=flag"), "whether the input is shuffled is decided at run time"),
    (("vs, ws = BATCH", "vs, ws = BATCH\nq = tf.FIFOQueue(3, tf.float32)"),
     "tf.FIFOQueue feeds a queue this pass does not convert"),
    (("vs, ws = BATCH", "vs, ws = BATCH\ncoord = tf.train.Coordinator()\nprint(coord.joined)"),
     "coord is used other than to stop and join the queue runners"),
])
def test_a_pipeline_the_pass_cannot_follow_stays_a_queue_and_says_why(change: tuple[str, str], why: str) -> None:
    body = PIPELINE.replace(*change).replace("BATCH", "tf.train.batch([v, w], 8)")
    code, findings = prepass(body)
    assert code == "import tensorflow as tf\n" + dedent(body)
    assert len(findings) == 1 and findings[0].kind == "info" and why in findings[0].message, findings


def test_comments_of_the_removed_statements_stay_above_the_parse_function() -> None:
    code, _ = prepass(PIPELINE.replace("BATCH", "tf.train.batch([v, w], 8)").replace(
        "reader = tf.TFRecordReader()", "# records\nreader = tf.TFRecordReader()  # one per read"))
    assert "# records\n# one per read\ndef parse_example(serialized):\n" in code


SLICES = """\
def get_batch(image, label, batch_size):
    image = tf.cast(image, tf.string)
    queue = tf.train.slice_input_producer([image, label])
    label = queue[1]
    contents = tf.read_file(queue[0])  # the file
    image = tf.image.decode_jpeg(contents, channels=3)
    image_batch, label_batch = tf.train.batch([image, label], batch_size=batch_size, num_threads=64)
    return image_batch, label_batch
"""


def test_a_sliced_queue_becomes_a_dataset_of_slices_shuffled_each_epoch() -> None:
    code, findings = prepass(SLICES)
    assert code == "import tensorflow as tf\n" + dedent("""\
        def get_batch(image, label, batch_size):
            image = tf.cast(image, tf.string)

            def parse_slice(image, label):
                contents = tf.read_file(image)  # the file
                image = tf.image.decode_jpeg(contents, channels=3)
                return image, label

            slices = tf.data.Dataset.from_tensor_slices((image, label))
            dataset = slices.shuffle(slices.cardinality()).repeat().map(parse_slice).batch(batch_size, drop_remainder=True)
            image_batch, label_batch = dataset.make_one_shot_iterator().get_next()
            return image_batch, label_batch
        """)
    assert [f.kind for f in findings] == ["fixed"] and "slice_input_producer → batch" in findings[0].message


def test_an_unshuffled_sliced_queue_keeps_its_order_and_epochs() -> None:
    code, _ = prepass(SLICES.replace("([image, label])", "([image, label], num_epochs=2, shuffle=False)"))
    assert "dataset = tf.data.Dataset.from_tensor_slices((image, label)).repeat(2).map(parse_slice)" in code


@pytest.mark.parametrize(("change", "why"), [
    (("([image, label])", "(pair)"), "is not given a list of tensors"),
    (("label = queue[1]", "label = queue[1]\n    n = len(queue)"), "queue is read other than one slice at a time"),
    (("label = queue[1]", "label = queue[i]"), "queue is read other than one slice at a time"),
    # the slice's parameter takes the tensor's name: a statement reading the whole tensor first
    (("label = queue[1]", "label = queue[1] + tf.size(image)"), "image is read whole by a per-example statement"),
])
def test_a_sliced_queue_the_pass_cannot_follow_stays_a_queue(change: tuple[str, str], why: str) -> None:
    body = SLICES.replace(*change)
    code, findings = prepass(body)
    assert code == "import tensorflow as tf\n" + dedent(body)
    assert len(findings) == 1 and why in findings[0].message, findings


def test_slices_unpacked_by_name_are_the_parse_function_s_parameters() -> None:
    code, findings = prepass("""\
        def get_batch(paths, labels, batch_size):
            image, label = tf.train.slice_input_producer([paths, labels], shuffle=False)
            image = tf.read_file(image)
            x_batch, y_batch = tf.train.batch([image, label], batch_size=batch_size)
            return x_batch, y_batch
        """)
    assert "    def parse_slice(image, label):\n        image = tf.read_file(image)\n        return image, label\n" in code
    assert "dataset = tf.data.Dataset.from_tensor_slices((paths, labels)).repeat().map(parse_slice)" in code
    assert [f.kind for f in findings] == ["fixed"]


def test_a_closure_made_before_the_pipeline_reading_its_names_keeps_the_queue() -> None:
    body = SLICES.replace("    image = tf.cast(image, tf.string)\n",
                          "    image = tf.cast(image, tf.string)\n    show = lambda: print(contents)\n")
    code, findings = prepass(body)
    assert code == "import tensorflow as tf\n" + dedent(body)
    assert "contents is used past the pipeline" in findings[0].message

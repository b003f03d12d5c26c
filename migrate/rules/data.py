"""TF115: tf.data iterators → Python iteration over the dataset."""

from __future__ import annotations

from . import Rule

RULE = Rule(
    id="TF115",
    name="dataset-iteration",
    summary="Pull tf.data batches with Python iteration instead of graph iterators.",
    doc=(
        "A dataset is created once, outside the step functions; "
        "`iterator = dataset.make_one_shot_iterator()` becomes `iterator = iter(dataset)` and "
        "`x, y = iterator.get_next()` a batch each run site pulls, as every `sess.run` pulled "
        "one: the step function takes `x, y` as arguments and is called as "
        "`train_op(*iterator.get_next())`. `get_next()` still raises "
        "`tf.errors.OutOfRangeError` at the end of the data, so TF1 end-of-epoch handling "
        "keeps working. An initializable iterator starts a new Python iteration where TF1 ran "
        "its initializer: a dataset built from placeholders becomes a function of them "
        "(`make_dataset(x, y, batch_size)`) and `sess.run(iterator.initializer, feed)` becomes "
        "`iterator = iter(make_dataset(<fed values>))`. In a file kept in graph mode, "
        "`dataset.make_*_iterator()` becomes `tf.compat.v1.data.make_*_iterator(dataset)`."
    ),
    kind="auto",
)

QUEUE_RULE = Rule(
    id="TF116",
    name="queue-runner-input",
    summary="Turn a queue-runner input pipeline into the tf.data pipeline it stands for.",
    doc=(
        "`tf.train.string_input_producer(files)`, a TFRecord or text-line reader's `read`, the "
        "per-example ops and `tf.train.batch`/`shuffle_batch` become a parse function mapped "
        "over `tf.data.TFRecordDataset`/`TextLineDataset` (the files shuffled per epoch where "
        "TF1 shuffled them, `shuffle_batch` as a shuffle buffer of `min_after_dequeue`), and "
        "the batch is taken from a one-shot iterator, which the program move iterates (TF115); "
        "`tf.train.Coordinator` and `start_queue_runners` go. `tf.train.slice_input_producer("
        "[images, labels])` read as `queue[0]`, `queue[1]` becomes `tf.data.Dataset."
        "from_tensor_slices((images, labels))` shuffled whole each epoch (`shuffle(slices."
        "cardinality())`, as TF1 drew a new order per epoch) and mapped with a function of one "
        "parameter per slice. Other queues (`FIFOQueue`, whole-file or fixed-length readers, "
        "`enqueue_many`) have no TF2 form: they are kept as `tf.compat.v1.*` (the file keeps "
        "graph mode) and reported."
    ),
    kind="auto",
)

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
    summary="Queue-runner input pipelines have no TF2 form: rewrite the input with tf.data.",
    doc=(
        "`tf.train.string_input_producer`, `tf.train.batch`/`shuffle_batch`, readers, "
        "`FIFOQueue` and `tf.train.start_queue_runners` feed a TF1 graph from background "
        "threads; TF2 has no queue runners. The calls are kept as `tf.compat.v1.*` (the file "
        "keeps graph mode) and reported: the replacement is a `tf.data` pipeline "
        "(`tf.data.TFRecordDataset(...).map(parse).shuffle(...).batch(...)`), which the "
        "program move then iterates (TF115)."
    ),
    kind="manual",
)

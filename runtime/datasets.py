"""Small deterministic stand-ins for the data sets tutorials download.

A verify run must not reach the network, and must be fast: programs that call
``input_data.read_data_sets`` or ``tf.keras.datasets.*.load_data`` get a few
hundred synthetic examples with the real dtypes and per-example shapes. Each
class has a fixed template image; examples are that template plus noise, so a
model can learn the labels and training loss falls as it would on real data.

Everything is drawn from local generators seeded per data set name. Loading moves
numpy's global RNG only where TF1's loader did: ``read_data_sets`` reseeds it from the
graph seed, as its DataSet did.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

TRAIN_EXAMPLES = 512
TEST_EXAMPLES = 128
#: TF1's ``read_data_sets`` holds out this many of MNIST's training images as validation
#: (its ``validation_size`` default); Keras's MNIST has them too, so it has that many more.
VALIDATION_EXAMPLES = 5000
MNIST_TRAIN_EXAMPLES = VALIDATION_EXAMPLES + TRAIN_EXAMPLES
#: ``random_seed``'s bound: TF reduces seeds modulo it.
_MAXINT32 = 2**31 - 1

_SEEDS = {
    "mnist": 1,
    "fashion_mnist": 2,
    "cifar10": 3,
    "cifar100": 4,
    "boston_housing": 5,
}


def _rng(name: str, part: str) -> np.random.Generator:
    return np.random.default_rng([_SEEDS[name], {"templates": 0, "train": 1, "test": 2}[part]])


def class_images(
    name: str, part: str, count: int, shape: tuple[int, ...], classes: int
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` images in [0, 1] (float32) and their labels (int64), balanced over classes.

    Templates are coarse random blobs, upsampled, so neighbouring pixels agree like
    in real images; examples scale the template and add pixel noise.
    """
    templates_rng = _rng(name, "templates")
    height, width = shape[0], shape[1]
    channels = shape[2] if len(shape) == 3 else 1
    coarse = templates_rng.random((classes, height // 4 + 1, width // 4 + 1, channels))
    blobs = np.repeat(np.repeat(coarse, 4, axis=1), 4, axis=2)[:, :height, :width, :]
    templates = np.where(blobs > 0.55, blobs, 0.0)
    rng = _rng(name, part)
    labels = rng.permutation(np.arange(count) % classes)
    strength = rng.uniform(0.7, 1.0, size=(count, 1, 1, 1))
    noise = rng.normal(0.0, 0.12, size=(count, height, width, channels))
    images = np.clip(templates[labels] * strength + noise, 0.0, 1.0).astype(np.float32)
    return images.reshape((count, *shape)), labels.astype(np.int64)


def _as_uint8(images: np.ndarray) -> np.ndarray:
    return np.round(images * 255.0).astype(np.uint8)


def _split(
    name: str, shape: tuple[int, ...], classes: int, train: int = TRAIN_EXAMPLES
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    x_train, y_train = class_images(name, "train", train, shape, classes)
    x_test, y_test = class_images(name, "test", TEST_EXAMPLES, shape, classes)
    return (_as_uint8(x_train), y_train.astype(np.uint8)), (
        _as_uint8(x_test),
        y_test.astype(np.uint8),
    )


# ------------------------------------------------------------------ tf.keras.datasets.*


def mnist_load_data(path: str = "mnist.npz") -> tuple:
    """``tf.keras.datasets.mnist.load_data()``: uint8 images (N, 28, 28), uint8 labels (N,).

    The same images as ``input_data.read_data_sets`` serves (validation first, as in the
    real files), so a loader rewritten onto Keras reads what the TF1 one read.
    """
    return _split("mnist", (28, 28), 10, MNIST_TRAIN_EXAMPLES)


def fashion_mnist_load_data() -> tuple:
    """``tf.keras.datasets.fashion_mnist.load_data()``: as MNIST, other templates."""
    return _split("fashion_mnist", (28, 28), 10)


def cifar10_load_data() -> tuple:
    """``tf.keras.datasets.cifar10.load_data()``: uint8 (N, 32, 32, 3), uint8 labels (N, 1)."""
    (x_train, y_train), (x_test, y_test) = _split("cifar10", (32, 32, 3), 10)
    return (x_train, y_train.reshape(-1, 1)), (x_test, y_test.reshape(-1, 1))


def cifar100_load_data(label_mode: str = "fine") -> tuple:
    """``tf.keras.datasets.cifar100.load_data()``: 100 fine or 20 coarse classes, labels (N, 1)."""
    if label_mode not in ("fine", "coarse"):
        raise ValueError(
            f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: label_mode={label_mode}.'
        )
    (x_train, y_train), (x_test, y_test) = _split("cifar100", (32, 32, 3), 100)
    if label_mode == "coarse":
        y_train, y_test = y_train // 5, y_test // 5
    return (x_train, y_train.reshape(-1, 1)), (x_test, y_test.reshape(-1, 1))


def boston_housing_load_data(
    path: str = "boston_housing.npz", test_split: float = 0.2, seed: int = 113
) -> tuple:
    """``tf.keras.datasets.boston_housing.load_data()``: float64 (N, 13) features, float64 prices.

    Prices are a fixed linear function of the features plus noise, so regression learns.
    """
    rng = np.random.default_rng([_SEEDS["boston_housing"], seed])
    total = 506
    x = rng.gamma(2.0, 2.0, size=(total, 13)) * rng.uniform(0.5, 50.0, size=13)
    weights = rng.normal(0.0, 1.0, size=13) / x.std(axis=0)
    y = np.clip(
        22.5 + 6.0 * (x - x.mean(axis=0)) @ weights / 3.6 + rng.normal(0, 2.0, total), 5.0, 50.0
    )
    cut = int(total * (1 - test_split))
    return (x[:cut], y[:cut]), (x[cut:], y[cut:])


KERAS_LOADERS = {
    "mnist": mnist_load_data,
    "fashion_mnist": fashion_mnist_load_data,
    "cifar10": cifar10_load_data,
    "cifar100": cifar100_load_data,
    "boston_housing": boston_housing_load_data,
}


# ------------------------------------------- tensorflow.examples.tutorials.mnist.input_data


def _no_graph_seed() -> int | None:
    return None


#: The program's graph-level seed (``tf.set_random_seed``), which TF1's DataSet reads; the
#: engine, or a runner serving these sets under real TensorFlow, points it at its own.
graph_seed: Callable[[], int | None] = _no_graph_seed


def _numpy_seed(seed: int | None) -> int | None:
    """What TF1's DataSet passed to ``numpy.random.seed``: ``random_seed.get_seed(seed)``'s
    first part, or its second for an explicit ``seed``. ``None`` means fresh OS entropy in
    TF1; the engine keeps numpy's stream then, so a run stays reproducible."""
    global_seed = graph_seed()
    if seed is None:
        return None if global_seed is None else global_seed % _MAXINT32
    if global_seed is not None and global_seed % _MAXINT32 == 0 and seed % _MAXINT32 == 0:
        return _MAXINT32  # get_seed never returns (0, 0)
    return seed % _MAXINT32


class DataSet:
    """``input_data``'s DataSet: ``images``, ``labels``, ``num_examples``, ``next_batch``.

    Built as TF1 built it: numpy's global RNG reseeded from the graph seed, uint8 pixels
    scaled to float32 [0, 1], images flattened unless ``reshape=False``, one-hot labels as
    float64. ``next_batch`` shuffles with numpy's global RNG like the tutorial code did.
    """

    def __init__(
        self, images: np.ndarray, labels: np.ndarray, one_hot: bool = False, reshape: bool = True,
        seed: int | None = None,
    ) -> None:
        numpy_seed = _numpy_seed(seed)
        if numpy_seed is not None:
            np.random.seed(numpy_seed)
        count = images.shape[0]
        images = images.reshape(count, 784) if reshape else images.reshape(count, 28, 28, 1)
        self._images = images.astype(np.float32) * np.float32(1.0 / 255.0)
        self._labels = np.eye(10)[labels] if one_hot else labels
        self._num_examples = count
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self) -> np.ndarray:
        return self._images

    @property
    def labels(self) -> np.ndarray:
        return self._labels

    @property
    def num_examples(self) -> int:
        return self._num_examples

    @property
    def epochs_completed(self) -> int:
        return self._epochs_completed

    def _shuffle(self) -> None:
        order = np.arange(self._num_examples)
        np.random.shuffle(order)
        self._images = self._images[order]
        self._labels = self._labels[order]

    def next_batch(
        self, batch_size: int, fake_data: bool = False, shuffle: bool = True
    ) -> tuple[np.ndarray, np.ndarray]:
        """The next ``batch_size`` examples; an epoch's tail is joined to the next epoch's head."""
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:
            self._shuffle()
        if start + batch_size <= self._num_examples:
            self._index_in_epoch += batch_size
            return self._images[start : start + batch_size], self._labels[
                start : start + batch_size
            ]
        self._epochs_completed += 1
        rest_images = self._images[start:]
        rest_labels = self._labels[start:]
        if shuffle:
            self._shuffle()
        self._index_in_epoch = batch_size - (self._num_examples - start)
        end = self._index_in_epoch
        return (
            np.concatenate([rest_images, self._images[:end]], axis=0),
            np.concatenate([rest_labels, self._labels[:end]], axis=0),
        )


class Datasets(NamedTuple):
    train: DataSet
    validation: DataSet
    test: DataSet


def read_data_sets(
    train_dir: str,
    fake_data: bool = False,
    one_hot: bool = False,
    dtype: object = None,
    reshape: bool = True,
    validation_size: int = VALIDATION_EXAMPLES,
    seed: int | None = None,
    source_url: str | None = None,
) -> Datasets:
    """``input_data.read_data_sets``: train/validation/test of ``mnist_load_data``'s images;
    nothing is downloaded or written.

    ``dtype`` and ``source_url`` are accepted for the original signature; images are always
    float32 in [0, 1].
    """
    (images, labels), (test_images, test_labels) = mnist_load_data()
    if not 0 <= validation_size <= len(images):
        raise ValueError(
            f"Validation size should be between 0 and {len(images)}. Received: {validation_size}."
        )
    options = {"one_hot": one_hot, "reshape": reshape, "seed": seed}
    train = DataSet(images[validation_size:], labels[validation_size:], **options)
    validation = DataSet(images[:validation_size], labels[:validation_size], **options)
    test = DataSet(test_images, test_labels, **options)
    return Datasets(train=train, validation=validation, test=test)


# ------------------------------------------------------------------ mounting in the facade
TUTORIAL_MODULES = (
    "tensorflow.examples",
    "tensorflow.examples.tutorials",
    "tensorflow.examples.tutorials.mnist",
)


def mount_tutorial_loader(modules: dict[str, types.ModuleType]) -> None:
    """``tensorflow.examples.tutorials.mnist.input_data`` in ``modules``, reading these sets."""
    parent: types.ModuleType | None = None
    for name in (*TUTORIAL_MODULES, f"{TUTORIAL_MODULES[-1]}.input_data"):
        module = modules.get(name) or types.ModuleType(name)
        modules[name] = module
        if parent is not None:
            setattr(parent, name.rsplit(".", 1)[1], module)
        parent = module
    parent.read_data_sets = read_data_sets  # type: ignore[union-attr]


def mount(modules: dict[str, types.ModuleType]) -> None:
    """Serve the synthetic data where programs download it from.

    ``tensorflow.examples.tutorials.mnist.input_data`` (gone from TF 2.21, still in
    every TF1 tutorial) and ``tf.keras.datasets.*.load_data`` both read these sets, so
    a program that downloads data runs offline and the same on both sides of a verify.
    """
    mount_tutorial_loader(modules)
    global graph_seed
    from runtime import context
    from runtime.api import ApiModule

    def engine_graph_seed() -> int | None:
        return context.STATE.global_seed

    graph_seed = engine_graph_seed

    keras_datasets = ApiModule("tensorflow.keras.datasets", "tf.keras.datasets")
    modules["tensorflow.keras"].datasets = keras_datasets
    modules["tensorflow.keras.datasets"] = keras_datasets
    for name, loader in KERAS_LOADERS.items():
        module = types.ModuleType(f"tensorflow.keras.datasets.{name}")
        module.load_data = loader
        setattr(keras_datasets, name, module)
        modules[module.__name__] = module

"""Synthetic stand-ins for downloaded data: real dtypes and shapes, deterministic, learnable."""

from __future__ import annotations

import numpy as np
import pytest

from runtime import datasets


@pytest.mark.parametrize(
    ("name", "x_shape", "y_shape", "x_dtype", "classes"),
    [
        ("mnist", (28, 28), (), np.uint8, 10),
        ("fashion_mnist", (28, 28), (), np.uint8, 10),
        ("cifar10", (32, 32, 3), (1,), np.uint8, 10),
        ("cifar100", (32, 32, 3), (1,), np.uint8, 100),
    ],
)
def test_keras_image_sets(name, x_shape, y_shape, x_dtype, classes) -> None:
    (x_train, y_train), (x_test, y_test) = datasets.KERAS_LOADERS[name]()
    train = datasets.MNIST_TRAIN_EXAMPLES if name == "mnist" else datasets.TRAIN_EXAMPLES
    assert x_train.shape == (train, *x_shape)
    assert x_test.shape == (datasets.TEST_EXAMPLES, *x_shape)
    assert y_test.shape == (datasets.TEST_EXAMPLES, *y_shape) and y_test.dtype == np.uint8
    assert y_train.shape == (train, *y_shape)
    assert x_train.dtype == x_dtype and y_train.dtype == np.uint8
    assert int(y_train.max()) == classes - 1 and int(y_train.min()) == 0
    assert 0 < x_train.mean() < 255


def test_cifar100_coarse_labels() -> None:
    (_, y_train), _ = datasets.cifar100_load_data(label_mode="coarse")
    assert int(y_train.max()) == 19
    with pytest.raises(ValueError):
        datasets.cifar100_load_data(label_mode="medium")


def test_boston_housing_shapes_and_split() -> None:
    (x_train, y_train), (x_test, y_test) = datasets.boston_housing_load_data()
    assert x_train.shape == (404, 13) and x_test.shape == (102, 13)
    assert x_train.dtype == y_train.dtype == np.float64 and y_test.shape == (102,)


def test_loaders_are_deterministic_and_leave_the_global_rng_alone() -> None:
    np.random.seed(7)
    expected = np.random.rand()
    np.random.seed(7)
    first = datasets.mnist_load_data()
    second = datasets.mnist_load_data()
    assert np.random.rand() == expected
    for a, b in zip(first[0] + first[1], second[0] + second[1]):
        assert np.array_equal(a, b)
    assert not np.array_equal(first[0][0], datasets.fashion_mnist_load_data()[0][0])


def nearest_centroid_accuracy(x_train, y_train, x_test, y_test) -> float:
    x_train = x_train.reshape(len(x_train), -1).astype(np.float64)
    x_test = x_test.reshape(len(x_test), -1).astype(np.float64)
    classes = np.unique(y_train)
    centroids = np.stack([x_train[y_train == c].mean(axis=0) for c in classes])
    distances = ((x_test[:, None, :] - centroids[None]) ** 2).sum(axis=-1)
    return float((classes[distances.argmin(axis=1)] == y_test).mean())


@pytest.mark.parametrize("name", ["mnist", "cifar10"])
def test_labels_are_learnable(name: str) -> None:
    (x_train, y_train), (x_test, y_test) = datasets.KERAS_LOADERS[name]()
    accuracy = nearest_centroid_accuracy(x_train, y_train.ravel(), x_test, y_test.ravel())
    assert accuracy > 0.8


def test_boston_prices_are_learnable() -> None:
    (x_train, y_train), (x_test, y_test) = datasets.boston_housing_load_data()
    design = np.c_[x_train, np.ones(len(x_train))]
    weights = np.linalg.lstsq(design, y_train, rcond=None)[0]
    residual = np.c_[x_test, np.ones(len(x_test))] @ weights - y_test
    assert (residual**2).mean() < 0.3 * y_test.var()


def test_read_data_sets_layout() -> None:
    mnist = datasets.read_data_sets("MNIST_data/", one_hot=True)
    train = mnist.train
    assert train.images.shape == (train.num_examples, 784) and train.images.dtype == np.float32
    assert 0.0 <= train.images.min() and train.images.max() <= 1.0
    assert train.labels.shape == (train.num_examples, 10)
    assert np.array_equal(train.labels.sum(axis=1), np.ones(train.num_examples))
    assert mnist.validation.num_examples == datasets.VALIDATION_EXAMPLES
    assert mnist.test.num_examples == datasets.TEST_EXAMPLES
    plain = datasets.read_data_sets("MNIST_data/", one_hot=False, reshape=False)
    assert plain.train.labels.dtype == np.uint8 and plain.train.images.shape[1:] == (28, 28, 1)
    assert np.array_equal(plain.train.labels, mnist.train.labels.argmax(axis=1))


def test_next_batch_walks_epochs_and_wraps() -> None:
    train = datasets.read_data_sets("MNIST_data/").train
    n = train.num_examples
    np.random.seed(0)
    seen = [train.next_batch(100)[1] for _ in range(n // 100)]
    assert train.epochs_completed == 0
    images, labels = train.next_batch(100)  # crosses into epoch 2
    assert train.epochs_completed == 1 and images.shape == (100, 784) and labels.shape == (100,)
    first_epoch = np.concatenate([*seen, labels[: n % 100]])
    assert np.array_equal(np.bincount(first_epoch), np.bincount(train.labels))


def test_next_batch_order_follows_the_global_seed() -> None:
    def batches(seed: int | None, shuffle: bool = True) -> list[np.ndarray]:
        if seed is not None:
            np.random.seed(seed)
        train = datasets.read_data_sets("MNIST_data/").train
        return [train.next_batch(64, shuffle=shuffle)[1] for _ in range(10)]

    assert all(np.array_equal(a, b) for a, b in zip(batches(3), batches(3)))
    assert not all(np.array_equal(a, b) for a, b in zip(batches(3), batches(4)))
    unshuffled = datasets.read_data_sets("MNIST_data/").train
    assert np.array_equal(batches(None, shuffle=False)[0], unshuffled.labels[:64])


def test_softmax_regression_loss_falls_on_tutorial_data() -> None:
    mnist = datasets.read_data_sets("MNIST_data/", one_hot=True)
    weights = np.zeros((784, 10))
    np.random.seed(0)
    losses = []
    for _ in range(60):
        x, y = mnist.train.next_batch(64)
        logits = x @ weights
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        losses.append(float(-(y * np.log(p + 1e-12)).sum(axis=1).mean()))
        weights -= 0.5 * x.T @ (p - y) / len(x)
    assert np.mean(losses[-10:]) < 0.5 * losses[0]


def test_read_data_sets_serves_keras_mnist_as_tf1_split_and_scaled_it() -> None:
    (images, labels), (_, test_labels) = datasets.mnist_load_data()
    mnist = datasets.read_data_sets("MNIST_data/", validation_size=100)
    assert np.array_equal(mnist.validation.images, images[:100].reshape(100, 784).astype(np.float32) * (1.0 / 255.0))
    assert np.array_equal(mnist.train.labels, labels[100:]) and mnist.train.labels.dtype == np.uint8
    assert mnist.train.num_examples == len(images) - 100
    assert np.array_equal(mnist.test.labels, test_labels)
    with pytest.raises(ValueError, match="Validation size should be between 0 and"):
        datasets.read_data_sets("MNIST_data/", validation_size=len(images) + 1)


@pytest.fixture
def seeded_graph(monkeypatch):
    seed = {"value": None}
    monkeypatch.setattr(datasets, "graph_seed", lambda: seed["value"])
    return seed


def test_a_graph_seed_reseeds_numpy_as_tf1s_data_sets_did(seeded_graph) -> None:
    np.random.seed(5)
    np.random.rand()
    seeded_graph["value"] = 3
    datasets.read_data_sets("MNIST_data/")
    after = np.random.rand()
    np.random.seed(3)
    assert after == np.random.rand()
    datasets.read_data_sets("MNIST_data/", seed=11)  # an explicit seed wins
    after = np.random.rand()
    np.random.seed(11)
    assert after == np.random.rand()


def test_without_a_graph_seed_numpy_keeps_its_stream(seeded_graph) -> None:
    np.random.seed(5)
    expected = np.random.rand()
    np.random.seed(5)
    datasets.read_data_sets("MNIST_data/")
    assert np.random.rand() == expected

"""Variable listings: which listings only Keras owners' variables make (move/listings.py)."""

from helpers import expression

from migrate.move.listings import keras_listing


def test_a_sum_of_owners_variables_is_a_keras_listing() -> None:
    assert keras_listing(expression("dense.trainable_variables"))
    assert keras_listing(expression("enc.trainable_variables + dec.trainable_variables + head.weights"))


def test_a_listing_with_anything_else_is_not() -> None:
    assert not keras_listing(expression("enc.trainable_variables + [w]"))
    assert not keras_listing(expression("[w] + enc.trainable_variables"))
    assert not keras_listing(expression("variables"))

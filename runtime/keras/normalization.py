"""Keras 3 ``BatchNormalization``: moving statistics updated as ``m * momentum + batch * (1 - momentum)``."""

from __future__ import annotations

from typing import Any

from runtime.errors import Unsupported
from runtime.keras import present_as_keras
from runtime.keras.input_spec import InputSpec
from runtime.keras.layers import Layer
from runtime.ops import array as A
from runtime.ops import nn as N


class BatchNormalization(Layer):
    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = "zeros", gamma_initializer: Any = "ones",
                 moving_mean_initializer: Any = "zeros", moving_variance_initializer: Any = "ones",
                 beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, synchronized: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if beta_regularizer is not None or gamma_regularizer is not None:
            raise Unsupported("tf.keras.layers.BatchNormalization with beta_regularizer or gamma_regularizer")
        self.axis, self.momentum, self.epsilon = int(axis), float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        self._inits = (gamma_initializer, beta_initializer, moving_mean_initializer, moving_variance_initializer)

    def build(self, input_shape: Any) -> None:
        rank = len(input_shape)
        self._ax = self.axis % rank
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: input_shape[self.axis]})
        depth = (input_shape[self._ax],)
        g_init, b_init, mm_init, mv_init = self._inits
        self.gamma = self.add_weight(name="gamma", shape=depth, initializer=g_init) if self.scale else None
        self.beta = self.add_weight(name="beta", shape=depth, initializer=b_init) if self.center else None
        self.moving_mean = self.add_weight(name="moving_mean", shape=depth, initializer=mm_init, trainable=False)
        self.moving_variance = self.add_weight(name="moving_variance", shape=depth, initializer=mv_init,
                                               trainable=False)
        self._axes = [i for i in range(rank) if i != self._ax]
        self._shape = [1] * rank
        self._shape[self._ax] = depth[0]

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if training and self.trainable:
            mean, variance = N.moments(inputs, self._axes)
            self.moving_mean.assign(self.moving_mean._as_tensor() * self.momentum + mean * (1.0 - self.momentum))
            self.moving_variance.assign(
                self.moving_variance._as_tensor() * self.momentum + variance * (1.0 - self.momentum))
        else:
            mean, variance = self.moving_mean._as_tensor(), self.moving_variance._as_tensor()

        def view(t: Any) -> Any:
            return None if t is None else A.reshape(t, self._shape)

        beta = None if self.beta is None else self.beta._as_tensor()
        gamma = None if self.gamma is None else self.gamma._as_tensor()
        return N.batch_normalization(inputs, view(mean), view(variance), view(beta), view(gamma), self.epsilon)


present_as_keras({BatchNormalization: "layers.normalization.batch_normalization"})

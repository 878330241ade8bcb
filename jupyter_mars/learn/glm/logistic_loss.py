"""The objective ``LogisticRegression`` minimises, evaluated on chunked data.

The objective is scikit-learn's: the weighted mean of the per-sample losses plus an L2
penalty on the coefficients (not the intercepts),

    f(w) = sum_i s_i loss_i(w) / sum_i s_i + l2 / 2 * |W|²,    l2 = 1 / (C sum_i s_i),

with the binomial loss ``log(1 + e^z) - t z`` (one linear predictor ``z``; ``t`` is 1
for the second class) for two classes, and the multinomial loss ``logsumexp(z) - z_y``
(one predictor per class) for more. Each call of ``LogisticObjective`` builds one graph
from the parameters (small, bound to the kernel): one task per row block
(``block_objective``) computes, a slice of rows at a time, the predictors ``X W^T + b``,
the losses and their derivatives, and the gradient ``G^T X``, reading the rows once.
The blocks' losses and gradients (``n_classes x (n_features + 1)`` numbers at most) are
fetched and added, and SciPy's L-BFGS in the driver takes the next step.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import expit

from jupyter_mars.executable import Session
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.learn.utils.blocks import per_block
from jupyter_mars.tensor.core import Tensor

Kernel = Callable[..., np.ndarray]
"""A chunk kernel: the rows of ``z``, the targets and (optionally) the weights in, one
array shaped like ``z`` out."""


@dataclass
class LogisticObjective:
    """The objective and its gradient at flat parameter vectors, for L-BFGS."""

    x: Tensor
    """The data, ``(n_samples, n_features)``, executed once before the iterations."""
    targets: Tensor
    """For two classes, 1.0 where a sample is of the second class, else 0.0 (1-d); for
    more, the one-hot encoding of the classes, ``(n_samples, n_classes)``."""
    weights: Tensor | None
    """Each sample's weight (sample and class weights combined), or None for ones."""
    weight_sum: float
    """The sum of the weights (``n_samples`` without weights)."""
    n_classes: int
    fit_intercept: bool
    l2: float
    """The penalty's strength, ``1 / (C * weight_sum)`` (0 without penalty)."""
    session: Session | None = None
    run_kwargs: dict[str, Any] | None = None
    evaluations: int = field(default=0, init=False)
    """How many times the data was passed over: one per call."""

    @property
    def n_features(self) -> int:
        return int(self.x.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        """The parameters as a matrix: one row per linear predictor, the coefficients
        then (with an intercept) the intercept."""
        rows = 1 if self.n_classes == 2 else self.n_classes
        return rows, self.n_features + int(self.fit_intercept)

    def split(self, flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Coefficients ``(rows, n_features)`` and intercepts ``(rows,)`` of ``flat``."""
        params = flat.reshape(self.shape)
        coef = params[:, : self.n_features]
        intercept = params[:, -1] if self.fit_intercept else np.zeros(params.shape[0])
        return coef, intercept

    def __call__(self, flat: np.ndarray) -> tuple[float, np.ndarray]:
        coef, intercept = self.split(flat)
        dtype = self.x.dtype
        binomial = self.n_classes == 2
        kernel = functools.partial(
            block_objective,
            coef=coef.astype(dtype),
            intercept=intercept.astype(dtype),
            kernels=(binomial_losses, binomial_slopes)
            if binomial
            else (multinomial_losses, multinomial_slopes),
            binomial=binomial,
        )
        given = () if self.weights is None else (self.weights,)
        parts = per_block(kernel, self.x, self.targets, *given, name="logistic_objective")
        (found,) = fetch_all(parts, session=self.session, run_kwargs=self.run_kwargs)
        total, coef_grad, intercept_grad = (
            functools.reduce(np.add, (part[i] for part in found)) for i in range(3)
        )
        self.evaluations += 1
        loss = float(total) / self.weight_sum + 0.5 * self.l2 * float(np.sum(coef * coef))
        grad = np.zeros(self.shape)
        grad[:, : self.n_features] = (
            np.reshape(coef_grad, coef.shape) / self.weight_sum + self.l2 * coef
        )
        if self.fit_intercept:
            grad[:, -1] = np.reshape(intercept_grad, -1) / self.weight_sum
        return loss, grad.ravel()


SLICE_ROWS = 16384
"""Rows whose predictors, losses and slopes one step of ``block_objective`` holds."""


def block_objective(
    x: np.ndarray,
    targets: np.ndarray,
    *weights: np.ndarray,
    coef: np.ndarray,
    intercept: np.ndarray,
    kernels: tuple[Kernel, Kernel],
    binomial: bool,
) -> tuple[float, np.ndarray, np.ndarray]:
    """A block's summed losses, gradient of the coefficients (``slopes^T x``) and of the
    intercepts, a slice of rows at a time: the rows are read once, while in cache."""
    losses, slopes = kernels
    total = 0.0
    coef_grad = np.zeros(coef.shape, dtype=np.float64)
    intercept_grad = np.zeros(coef.shape[0], dtype=np.float64)
    for start in range(0, len(x), SLICE_ROWS):
        stop = start + SLICE_ROWS
        rows = x[start:stop]
        z = rows @ coef.T + intercept
        extra: tuple[Any, ...] = ()
        if weights:
            extra = (weights[0][start:stop] if binomial else weights[0][start:stop, None],)
        if binomial:
            z = z[:, 0]
        t = targets[start:stop]
        total += float(losses(z, t, *extra).sum())
        slope = slopes(z, t, *extra)
        if binomial:
            coef_grad[0] += slope @ rows
            intercept_grad[0] += slope.sum()
        else:
            coef_grad += slope.T @ rows
            intercept_grad += slope.sum(axis=0)
    return total, coef_grad, intercept_grad


# ---- chunk kernels: z, the targets and (optionally) the weights of the same rows ----------


def binomial_losses(z: np.ndarray, t: np.ndarray, weights: Any = 1.0) -> np.ndarray:
    """``log(1 + e^z) - t z``, weighted."""
    losses: np.ndarray = (np.logaddexp(0.0, z) - t * z) * weights
    return losses


def binomial_slopes(z: np.ndarray, t: np.ndarray, weights: Any = 1.0) -> np.ndarray:
    """The derivatives of the losses in ``z``: ``expit(z) - t``, weighted."""
    slopes: np.ndarray = (expit(z) - t) * weights
    return slopes


def _shifted_and_log_norm(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``z`` less each row's maximum, and the log of each row's sum of exponentials of
    that (``logsumexp(z) - max(z)``), safe from overflow."""
    shifted = z - z.max(axis=1, keepdims=True)
    return shifted, np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def multinomial_losses(z: np.ndarray, onehot: np.ndarray, weights: Any = 1.0) -> np.ndarray:
    """Terms whose sum along a row is that row's (weighted) ``logsumexp(z) - z_y``: the
    loss sits in the sample's class column (its one-hot row picks it out)."""
    shifted, log_norm = _shifted_and_log_norm(z)
    terms: np.ndarray = onehot * (log_norm - shifted) * weights
    return terms


def multinomial_slopes(z: np.ndarray, onehot: np.ndarray, weights: Any = 1.0) -> np.ndarray:
    """The derivatives of the losses in ``z``: ``softmax(z) - onehot``, weighted."""
    shifted, log_norm = _shifted_and_log_norm(z)
    slopes: np.ndarray = (np.exp(shifted - log_norm) - onehot) * weights
    return slopes

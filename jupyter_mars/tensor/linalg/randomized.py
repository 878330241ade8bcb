"""``randomized_svd``: the leading singular triplets of a matrix by random projection.

The algorithm of Halko, Martinsson and Tropp (2011), as Mars and scikit-learn run it:

1. a Gaussian test matrix ``G`` (``n x (n_components + n_oversamples)``) drawn from
   ``random_state``, chunked like the columns of ``M``;
2. the range finder: ``Q = M G``, then ``n_iter`` power iterations ``Q = M (M^T Q)``,
   each product re-orthonormalised by QR (the chunk-parallel TSQR of ``qr``: the products
   are tall and skinny, chunked along ``M``'s rows or columns), and a final ``Q = qr(M Q)``;
3. ``B = Q^T M`` (small and wide), its SVD ``B = U_b S V^T`` (``svd`` of ``mt.linalg``),
   and ``U = Q U_b``;
4. with ``flip_sign``, each singular pair gets the sign that makes the largest entry (in
   absolute value) of its column of the returned ``U`` positive (when ``M^T`` was
   factored, that column is a row of its ``V^T``), so results are deterministic; then
   the first ``n_components`` are kept.

Every step is a lazy tensor operation, so the whole result is one graph.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from jupyter_mars.tensor.arithmetic import where
from jupyter_mars.tensor.core import Tensor
from jupyter_mars.tensor.datasource import astensor
from jupyter_mars.tensor.elemwise import elemwise
from jupyter_mars.tensor.linalg.qr import qr, svd
from jupyter_mars.tensor.random import RandomState
from jupyter_mars.tensor.reduction import argmax
from jupyter_mars.tensor.reduction import sum as tensor_sum

NORMALIZERS = ("auto", "QR", "LU", "none")


def _random_state(random_state: Any) -> RandomState:
    """A ``RandomState`` from an int, None, NumPy's or our own ``RandomState``."""
    if isinstance(random_state, RandomState):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return RandomState(int(random_state.randint(np.iinfo(np.int32).max)))
    if random_state is None or isinstance(random_state, (int, np.integer)):
        return RandomState(random_state)
    raise ValueError(f"random_state must be None, an int or a RandomState, got {random_state!r}")


def _int_at_least(name: str, value: Any, low: int) -> int:
    try:
        out = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {value!r}") from None
    if out < low:
        raise ValueError(f"{name} must be at least {low}, got {out}")
    return out


def _orthonormal(x: Tensor, normalizer: str) -> Tensor:
    if normalizer == "none":
        return x
    q: Tensor = qr(x)[0]
    return q


def range_finder(m: Tensor, size: int, n_iter: int, normalizer: str, state: RandomState) -> Tensor:
    """An orthonormal ``Q`` (``m.shape[0] x size``) whose range approximates ``m``'s."""
    q = state.normal(size=(m.shape[1], size), dtype=m.dtype)
    for _ in range(n_iter):
        q = _orthonormal(m @ q, normalizer)
        q = _orthonormal(m.T @ q, normalizer)
    return _orthonormal(m @ q, "QR")


def _flip_signs(u: Tensor, vt: Tensor, u_based: bool) -> tuple[Tensor, Tensor]:
    """The sign of the largest entry of each ``u`` column (``vt`` row) made positive."""
    lead = u if u_based else vt.T
    k = lead.shape[1]
    rows = argmax(elemwise(np.abs, lead), axis=0)
    positions = astensor(np.arange(lead.shape[0]))[:, None]
    picked = tensor_sum(where(positions == rows[None, :], lead, 0), axis=0)
    signs = elemwise(np.sign, picked)
    assert signs.shape == (k,)
    return u * signs[None, :], vt * signs[:, None]


def randomized_svd(
    M: Any,  # noqa: N803 - Mars's and scikit-learn's name
    n_components: int,
    n_oversamples: int = 10,
    n_iter: Any = "auto",
    power_iteration_normalizer: str = "auto",
    transpose: Any = "auto",
    flip_sign: bool = True,
    random_state: Any = 0,
) -> tuple[Tensor, Tensor, Tensor]:
    """The ``n_components`` leading singular triplets ``(U, s, Vt)`` of the matrix ``M``
    (Mars's and scikit-learn's ``randomized_svd``; see the module docstring).

    ``n_iter='auto'``: 7 power iterations when ``n_components`` is under a tenth of the
    smaller side, else 4. ``transpose='auto'``: work on ``M.T`` when ``M`` is wide.
    ``power_iteration_normalizer``: ``'auto'`` (none for ``n_iter <= 2``, else ``'LU'``),
    ``'QR'``, ``'LU'`` or ``'none'``; ``'LU'`` is computed by QR here, which spans the same
    subspace. ``random_state`` (an int, None or a ``RandomState``) draws the test matrix.
    """
    m = astensor(M)
    if m.ndim != 2:
        raise ValueError(f"randomized_svd(): M must be a 2-d matrix, got {m.ndim} dimensions")
    if m.dtype.kind not in "biuf":
        raise TypeError(f"randomized_svd(): M must be a real matrix, got dtype {m.dtype}")
    if any(isinstance(n, float) for n in m.shape):
        raise ValueError("randomized_svd(): the shape of M is unknown; execute it first")
    rows, cols = (int(n) for n in m.shape)
    k = _int_at_least("n_components", n_components, 1)
    if k > min(rows, cols):
        raise ValueError(
            f"n_components (={k}) must be at most the smaller side of M {(rows, cols)}"
        )
    oversamples = _int_at_least("n_oversamples", n_oversamples, 0)
    if isinstance(n_iter, str):
        if n_iter != "auto":
            raise ValueError(f"n_iter must be 'auto' or an int, got {n_iter!r}")
        iterations = 7 if k < 0.1 * min(rows, cols) else 4
    else:
        iterations = _int_at_least("n_iter", n_iter, 0)
    if power_iteration_normalizer not in NORMALIZERS:
        raise ValueError(
            f"power_iteration_normalizer must be one of {', '.join(map(repr, NORMALIZERS))}, "
            f"got {power_iteration_normalizer!r}"
        )
    normalizer = power_iteration_normalizer
    if normalizer == "auto":
        normalizer = "none" if iterations <= 2 else "LU"
    if transpose == "auto":
        transpose = rows < cols
    elif not isinstance(transpose, (bool, np.bool_)):
        raise ValueError(f"transpose must be 'auto' or a bool, got {transpose!r}")
    state = _random_state(random_state)

    if m.dtype.kind != "f":
        m = m.astype(np.float64)
    if transpose:
        m = m.T
    q = range_finder(m, k + oversamples, iterations, normalizer, state)
    u_small, s, vt = svd(q.T @ m)
    u = q @ u_small
    if flip_sign:
        u, vt = _flip_signs(u, vt, u_based=not transpose)
    if transpose:
        return vt[:k].T, s[:k], u[:, :k].T
    return u[:, :k], s[:k], vt[:k]

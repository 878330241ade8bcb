"""Shared pieces of the sparse tests: sample matrices and one comparison with SciPy/NumPy."""

from typing import Any

import numpy as np
import scipy.sparse as sps

from tests.conftest import assert_same


def sample(shape: tuple[int, int], density: float = 0.3, dtype: Any = "f8", seed: int = 0) -> Any:
    """A CSR matrix with about ``density`` of its entries stored (negative ones too)."""
    rng = np.random.default_rng(seed)
    m = sps.random(*shape, density=density, format="csr", random_state=rng, dtype="f8")
    m.data = (m.data - 0.5) * 10
    return sps.csr_matrix(m, dtype=np.dtype(dtype)) if np.dtype(dtype) != m.dtype else m


def check(result: Any, expected: Any, *, sparse: bool, **kwargs: Any) -> None:
    """``result`` is (or is not) a sparse tensor, and executes to ``expected``'s values and
    dtype; a sparse one fetches as a CSR matrix."""
    assert result.issparse() is sparse
    got = result.execute().fetch()
    if sparse:
        assert isinstance(got, sps.csr_matrix)
        got = got.toarray()
    elif isinstance(expected, np.generic):  # a whole reduction: a scalar, as in NumPy
        assert isinstance(got, np.generic), type(got)
    else:
        assert isinstance(got, np.ndarray)
    dense = expected.toarray() if sps.issparse(expected) else np.asarray(expected)
    if isinstance(expected, np.matrix):  # SciPy's reductions give matrices
        dense = np.asarray(expected)
    assert_same(got, dense, **kwargs)

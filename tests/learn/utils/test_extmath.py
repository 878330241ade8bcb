"""Driver-side linear algebra against scikit-learn's and NumPy's."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.extmath import svd_flip

from jupyter_mars.learn.utils.extmath import eigh_descending, flip_signs


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (0, 3)])
def test_signs_are_scikit_learns_svd_flip_by_the_rows_of_vt(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(shape))
    data = rng.normal(size=shape)
    u, _, vt = np.linalg.svd(data, full_matrices=False)
    _, expected = svd_flip(u, vt, u_based_decision=False)
    np.testing.assert_array_equal(flip_signs(vt), expected)


def test_eigenpairs_come_largest_first_as_rows_and_never_below_zero() -> None:
    rng = np.random.default_rng(3)
    data = rng.normal(size=(20, 4))
    data[:, 3] = data[:, 0]  # one eigenvalue is zero, up to rounding
    gram = data.T @ data
    for given in (gram, sp.csr_matrix(gram)):
        values, vectors = eigh_descending(given)
        assert (np.diff(values) <= 0).all()
        assert (values >= 0).all()
        np.testing.assert_allclose(values, np.sort(np.linalg.eigvalsh(gram).clip(0))[::-1])
        np.testing.assert_allclose(vectors @ gram @ vectors.T, np.diag(values), atol=1e-9)

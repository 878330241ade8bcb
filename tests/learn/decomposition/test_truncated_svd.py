"""``TruncatedSVD`` against scikit-learn's on the same dense and sparse data, over
several chunkings, with scikit-learn's errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import decomposition as skd
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.decomposition import TruncatedSVD
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(1)
DENSE = RNG.normal(size=(150, 8)) @ RNG.normal(size=(8, 8)) + 1.0
SPARSE = sp.random(200, 12, density=0.25, format="csr", random_state=4)
CHUNKS = [(31, 8), (50, 3), (200, 12)]
FITTED = ["components_", "explained_variance_", "explained_variance_ratio_", "singular_values_"]


def assert_same_fit(ours: Any, theirs: Any, rtol: float = 1e-7) -> None:
    assert ours.n_features_in_ == theirs.n_features_in_
    for name in FITTED:
        got, expected = getattr(ours, name), getattr(theirs, name)
        assert got.shape == expected.shape, name
        assert got.dtype == expected.dtype, name
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("algorithm", ["arpack", "randomized"])
@pytest.mark.parametrize("data", [DENSE, SPARSE], ids=["dense", "sparse"])
def test_fits_as_scikit_learn(data: Any, algorithm: str, chunks: Any) -> None:
    x = mt.tensor(data, chunk_size=chunks)
    # enough power iterations that the randomized method reaches the exact triplets
    ours = TruncatedSVD(3, algorithm=algorithm, n_iter=12, random_state=0).fit(x)
    theirs = skd.TruncatedSVD(3, algorithm=algorithm, n_iter=12, random_state=0).fit(data)
    assert_same_fit(ours, theirs, rtol=1e-6)
    projected = ours.transform(x)
    assert isinstance(projected, Tensor)
    got = fetch_all(projected, ours.inverse_transform(projected), ours.fit_transform(x))
    np.testing.assert_allclose(got[0], theirs.transform(data), atol=1e-8)
    np.testing.assert_allclose(got[1], theirs.inverse_transform(theirs.transform(data)), atol=1e-8)
    np.testing.assert_allclose(got[2], theirs.fit_transform(data), atol=1e-6)


@given(
    rows=st.integers(4, 40),
    cols=st.integers(2, 8),
    chunk=st.integers(1, 40),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=15, deadline=None)
def test_arpack_matches_on_any_shape_and_chunking(
    rows: int, cols: int, chunk: int, seed: int
) -> None:
    data = np.random.default_rng(seed).normal(size=(rows, cols))
    k = min(rows, cols) - 1
    x = mt.tensor(data, chunk_size=(chunk, max(1, cols // 2)))
    ours = TruncatedSVD(k, algorithm="arpack").fit(x)
    theirs = skd.TruncatedSVD(k, algorithm="arpack", random_state=0).fit(data)
    assert_same_fit(ours, theirs, rtol=1e-6)


def test_every_form_of_input_fits_the_same() -> None:
    frame = pd.DataFrame(DENSE)
    theirs = skd.TruncatedSVD(2, algorithm="arpack").fit(DENSE)
    for form in [
        DENSE,
        DENSE.tolist(),
        frame,
        mt.tensor(DENSE, chunk_size=40),
        md.DataFrame(frame, chunk_size=40),
    ]:
        assert_same_fit(TruncatedSVD(2, algorithm="arpack").fit(form), theirs)


def test_float32_and_integers() -> None:
    single = DENSE.astype(np.float32)
    ours = TruncatedSVD(2, algorithm="arpack").fit(single)
    assert ours.components_.dtype == np.float32
    assert ours.transform(single).dtype == np.float32
    counts = RNG.integers(0, 5, size=(40, 5))
    assert_same_fit(
        TruncatedSVD(2, algorithm="arpack").fit(counts),
        skd.TruncatedSVD(2, algorithm="arpack").fit(counts),
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_components": 0}, "n_components"),
        ({"algorithm": "lanczos"}, "algorithm"),
        ({"n_iter": -1}, "n_iter"),
        ({"tol": -1.0}, "tol"),
        ({"n_components": 9}, r"n_components\(9\) must be <= n_features\(8\)"),
    ],
)
def test_bad_arguments_raise_scikit_learns_errors(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        skd.TruncatedSVD(**kwargs).fit(DENSE)
    with pytest.raises(ValueError, match=match):
        TruncatedSVD(**kwargs).fit(DENSE)


def test_arpack_keeps_fewer_components_than_the_smaller_side() -> None:
    with pytest.raises(ValueError, match="0 < k < min"):  # ARPACK's own message
        skd.TruncatedSVD(8, algorithm="arpack").fit(DENSE)
    with pytest.raises(ValueError, match="n_components=8 must be strictly less"):
        TruncatedSVD(8, algorithm="arpack").fit(DENSE)


def test_bad_data_and_unfitted_use_raise() -> None:
    with pytest.raises(NotFittedError):
        TruncatedSVD().transform(DENSE)
    with pytest.raises(ValueError, match="minimum of 2 is required"):
        TruncatedSVD(1).fit(DENSE[:, :1])
    fitted = TruncatedSVD(2).fit(DENSE)
    with pytest.raises(ValueError, match="X has 7 features, but TruncatedSVD is expecting 8"):
        fitted.transform(DENSE[:, :7])


def test_it_is_a_scikit_learn_estimator() -> None:
    svd = TruncatedSVD(3, algorithm="arpack", random_state=5)
    assert clone(svd).get_params() == svd.get_params()
    assert list(svd.fit(DENSE).get_feature_names_out()) == [
        "truncatedsvd0",
        "truncatedsvd1",
        "truncatedsvd2",
    ]

"""``PCA`` against scikit-learn's on the same data: every solver, several chunkings, the
forms of input, the model's likelihood, and scikit-learn's errors."""

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
from sklearn.pipeline import make_pipeline

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.decomposition import PCA
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.tensor.core import Tensor

RNG = np.random.default_rng(0)
DATA = RNG.normal(size=(120, 6)) @ RNG.normal(size=(6, 6)) + 3.0
"""Correlated features, not centred: every component matters, none ties."""
CHUNKS = [(23, 6), (40, 4), (120, 6)]
"""Uneven row chunks, chunks across the columns too, and one chunk."""
FITTED = [
    "components_",
    "explained_variance_",
    "explained_variance_ratio_",
    "singular_values_",
    "mean_",
    "noise_variance_",
]


def assert_same_fit(ours: Any, theirs: Any, rtol: float = 1e-7) -> None:
    assert ours.n_components_ == theirs.n_components_
    assert ours.n_samples_ == theirs.n_samples_
    assert ours.n_features_in_ == theirs.n_features_in_
    for name in FITTED:
        got, expected = getattr(ours, name), getattr(theirs, name)
        assert np.shape(got) == np.shape(expected), name
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize(
    ("solver", "n_components"),
    [
        ("full", 3),
        ("full", None),
        ("full", 0.8),
        ("full", "mle"),
        ("covariance_eigh", 2),
        ("covariance_eigh", 0.95),
        ("arpack", 4),
        ("arpack", None),
        ("randomized", 3),
        ("auto", None),
    ],
)
def test_every_solver_fits_as_scikit_learn(chunks: Any, solver: str, n_components: Any) -> None:
    x = mt.tensor(DATA, chunk_size=chunks)
    ours = PCA(n_components, svd_solver=solver, random_state=0).fit(x)
    theirs = skd.PCA(n_components, svd_solver=solver, random_state=0).fit(DATA)
    assert ours._fit_svd_solver == theirs._fit_svd_solver
    assert_same_fit(ours, theirs)
    assert ours.components_.flags.c_contiguous
    projected = ours.transform(x)
    assert isinstance(projected, Tensor)
    np.testing.assert_allclose(projected.execute().fetch(), theirs.transform(DATA), atol=1e-8)


def test_auto_picks_scikit_learns_solver() -> None:
    wide = RNG.normal(size=(30, 510))
    tall = RNG.normal(size=(510, 60))
    for data, n_components in [(DATA, 2), (wide, 5), (wide, 29), (tall, 10), (tall, None)]:
        ours = PCA(n_components, random_state=0).fit(data)
        theirs = skd.PCA(n_components, random_state=0).fit(data)
        assert ours._fit_svd_solver == theirs._fit_svd_solver
        if ours._fit_svd_solver != "randomized":  # on noise it does not converge
            assert_same_fit(ours, theirs, rtol=1e-6)


def test_randomized_solver_reaches_the_exact_components() -> None:
    """The random draws are ours, not NumPy's: with a decaying spectrum and power
    iterations, the leading components agree with the exact SVD's."""
    scales = 2.0 ** -np.arange(30)
    data = RNG.normal(size=(500, 30)) * scales
    x = mt.tensor(data, chunk_size=(90, 30))
    ours = PCA(5, svd_solver="randomized", iterated_power=6, random_state=3).fit(x)
    exact = skd.PCA(5, svd_solver="full").fit(data)
    np.testing.assert_allclose(ours.explained_variance_, exact.explained_variance_, rtol=1e-6)
    np.testing.assert_allclose(ours.components_, exact.components_, atol=1e-4)
    np.testing.assert_allclose(ours.noise_variance_, exact.noise_variance_, rtol=1e-3)


@given(
    rows=st.integers(8, 40),
    cols=st.integers(1, 7),
    chunk=st.integers(1, 40),
    seed=st.integers(0, 2**16),
    kept=st.floats(0.05, 0.95),
)
@settings(max_examples=15, deadline=None)
def test_full_solver_matches_on_any_shape_and_chunking(
    rows: int, cols: int, chunk: int, seed: int, kept: float
) -> None:
    data = np.random.default_rng(seed).normal(size=(rows, cols))
    x = mt.tensor(data, chunk_size=(chunk, max(1, cols // 2)))
    for n_components in (min(rows, cols), kept):
        ours = PCA(n_components, svd_solver="full").fit(x)
        theirs = skd.PCA(n_components, svd_solver="full").fit(data)
        assert_same_fit(ours, theirs, rtol=1e-6)


def test_every_form_of_input_fits_the_same() -> None:
    frame = pd.DataFrame(DATA, columns=list("abcdef"))
    theirs = skd.PCA(3).fit(DATA)
    for form in [
        DATA,
        DATA.tolist(),
        frame,
        mt.tensor(DATA, chunk_size=25),
        md.DataFrame(frame, chunk_size=25),
    ]:
        assert_same_fit(PCA(3).fit(form), theirs)


def test_rows_known_only_after_computing_are_computed_first() -> None:
    frame = pd.DataFrame(DATA, columns=list("abcdef"))
    kept = frame[frame.a > frame.a.median()]
    lazy = md.DataFrame(frame, chunk_size=30)
    lazy = lazy[lazy.a > frame.a.median()]
    assert_same_fit(PCA(2).fit(lazy), skd.PCA(2).fit(kept.to_numpy()))


def test_float32_stays_float32() -> None:
    data = DATA.astype(np.float32)
    ours = PCA(3, svd_solver="full").fit(mt.tensor(data, chunk_size=50))
    theirs = skd.PCA(3, svd_solver="full").fit(data)
    for name in ["components_", "explained_variance_", "singular_values_", "mean_"]:
        assert getattr(ours, name).dtype == getattr(theirs, name).dtype == np.float32, name
    assert ours.transform(data).dtype == np.float32
    np.testing.assert_allclose(ours.components_, theirs.components_, atol=1e-4)


@pytest.mark.parametrize("whiten", [False, True])
def test_transforms_and_likelihood_match(whiten: bool) -> None:
    new = RNG.normal(size=(30, 6)) + 3.0
    x = mt.tensor(DATA, chunk_size=(33, 6))
    ours = PCA(4, whiten=whiten).fit(x)
    theirs = skd.PCA(4, whiten=whiten).fit(DATA)
    projected = ours.transform(mt.tensor(new, chunk_size=7))
    restored = ours.inverse_transform(projected)
    log_like = ours.score_samples(new)
    assert all(isinstance(t, Tensor) for t in (projected, restored, log_like))
    got = fetch_all(projected, restored, log_like, ours.fit_transform(x))
    np.testing.assert_allclose(got[0], theirs.transform(new), atol=1e-8)
    np.testing.assert_allclose(got[1], theirs.inverse_transform(theirs.transform(new)), atol=1e-8)
    np.testing.assert_allclose(got[2], theirs.score_samples(new), rtol=1e-8)
    np.testing.assert_allclose(got[3], theirs.fit_transform(DATA), atol=1e-8)
    score = ours.score(new)
    assert isinstance(score, float)
    assert score == pytest.approx(theirs.score(new), rel=1e-10)
    np.testing.assert_allclose(ours.get_covariance(), theirs.get_covariance(), atol=1e-8)
    np.testing.assert_allclose(ours.get_precision(), theirs.get_precision(), atol=1e-8)


def test_all_components_leave_no_noise() -> None:
    ours, theirs = PCA().fit(DATA), skd.PCA().fit(DATA)
    assert ours.noise_variance_ == theirs.noise_variance_ == 0.0
    np.testing.assert_allclose(ours.get_precision(), theirs.get_precision(), rtol=1e-6)


@pytest.mark.parametrize("solver", ["arpack", "covariance_eigh", "auto"])
def test_sparse_input_fits_without_densifying(solver: str) -> None:
    data = sp.random(150, 8, density=0.3, format="csr", random_state=2)
    theirs = skd.PCA(3, svd_solver=solver).fit(data)
    for form in [data, mt.tensor(data, chunk_size=40)]:
        ours = PCA(3, svd_solver=solver).fit(form)
        assert ours._fit_svd_solver == theirs._fit_svd_solver
        assert_same_fit(ours, theirs, rtol=1e-6)


def test_sparse_input_with_a_dense_solver_is_refused() -> None:
    data = sp.random(20, 4, density=0.5, format="csr", random_state=2)
    with pytest.raises(TypeError, match="only support sparse inputs"):
        PCA(2, svd_solver="full").fit(data)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_components": -1}, "n_components"),
        ({"n_components": 1.5}, "n_components"),
        ({"n_components": "many"}, "n_components"),
        ({"svd_solver": "lapack"}, "svd_solver"),
        ({"iterated_power": -1}, "iterated_power"),
        ({"n_oversamples": 0}, "n_oversamples"),
        ({"tol": -1.0}, "tol"),
        ({"n_components": 7, "svd_solver": "full"}, "n_components=7 must be between 0"),
        ({"n_components": 6, "svd_solver": "arpack"}, "n_components=6 must be strictly less"),
        ({"n_components": 0, "svd_solver": "randomized"}, "n_components=0 must be between 1"),
        ({"n_components": "mle", "svd_solver": "randomized"}, "n_components='mle' cannot"),
    ],
)
def test_bad_arguments_raise_scikit_learns_errors(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        skd.PCA(**kwargs).fit(DATA)
    ours = PCA(**kwargs)  # stored unchecked, checked by fit
    assert ours.get_params()["svd_solver"] == kwargs.get("svd_solver", "auto")
    with pytest.raises(ValueError, match=match):
        ours.fit(DATA)


def test_mle_needs_more_samples_than_features() -> None:
    with pytest.raises(ValueError, match="n_components='mle' is only supported"):
        PCA("mle", svd_solver="full").fit(DATA[:4])


def test_bad_data_and_unfitted_use_raise() -> None:
    with pytest.raises(NotFittedError):
        PCA().transform(DATA)
    with pytest.raises(ValueError, match="Expected 2D array"):
        PCA().fit(DATA[:, 0])
    with pytest.raises(ValueError, match="Input X contains NaN"):
        PCA().fit(np.where(DATA > 4, np.nan, DATA))
    fitted = PCA(2).fit(DATA)
    with pytest.raises(ValueError, match="X has 5 features, but PCA is expecting 6"):
        fitted.transform(DATA[:, :5])


def test_it_is_a_scikit_learn_estimator() -> None:
    pca = PCA(2, whiten=True, svd_solver="full")
    copy = clone(pca)
    assert copy.get_params() == pca.get_params()
    assert copy.set_params(n_components=3).n_components == 3
    pipeline = make_pipeline(PCA(3), PCA(2)).fit(DATA)
    got = pipeline.transform(DATA)
    expected = make_pipeline(skd.PCA(3), skd.PCA(2)).fit(DATA).transform(DATA)
    np.testing.assert_allclose(np.asarray(got), expected, atol=1e-8)
    assert list(PCA(2).fit(DATA).get_feature_names_out()) == ["pca0", "pca1"]


def test_fit_runs_on_the_session_given(session: Any) -> None:
    ours = PCA(2).fit(DATA, session=session, run_kwargs={"show_progress": False})
    assert_same_fit(ours, skd.PCA(2).fit(DATA))

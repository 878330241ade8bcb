"""``StandardScaler`` against scikit-learn's, over several chunkings and every form of
input, with NaN, weights, constant features and large offsets."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn import preprocessing as sk
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.preprocessing import StandardScaler

RNG = np.random.RandomState(1)
DATA = RNG.normal(size=(29, 4)) * [1.0, 10.0, 0.01, 3.0] + [0.0, 1e6, -5.0, 2.0]
DATA[:, 3] = 2.5  # a constant feature: scale 1
DATA[[2, 17, 20], 0] = np.nan  # ignored when fitting, kept when transforming
WEIGHTS = RNG.uniform(0.5, 3.0, size=29)
CHUNKS = [4, (9, 3), 29]
FLAGS = [
    {},
    {"with_mean": False},
    {"with_std": False},
    {"with_mean": False, "with_std": False},
]


def _same_fit(ours: Any, theirs: Any) -> None:
    for name in ("mean_", "var_", "scale_", "n_samples_seen_"):
        got, expected = getattr(ours, name), getattr(theirs, name)
        if expected is None:
            assert got is None, name
            continue
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-20, err_msg=name)
        assert np.asarray(got).dtype == np.asarray(expected).dtype, name
        assert np.shape(got) == np.shape(expected), name
    assert ours.n_features_in_ == theirs.n_features_in_


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("flags", FLAGS)
def test_fit_and_transform_match_scikit_learn(chunks: Any, flags: dict[str, bool]) -> None:
    theirs = sk.StandardScaler(**flags).fit(DATA)
    rows = chunks[0] if isinstance(chunks, tuple) else chunks
    frame = pd.DataFrame(DATA, columns=list("abcd"))
    forms = [DATA, mt.tensor(DATA, chunk_size=chunks), frame, md.DataFrame(frame, chunk_size=rows)]
    for form in forms:
        ours = StandardScaler(**flags).fit(form)
        _same_fit(ours, theirs)
        scaled = ours.transform(form)
        assert isinstance(scaled, mt.Tensor)
        # x - mean of values near 1e6 keeps only the last digits of the mean
        expected = theirs.transform(DATA)
        np.testing.assert_allclose(scaled.execute().fetch(), expected, rtol=1e-9, atol=1e-8)
        back = ours.inverse_transform(theirs.transform(DATA))
        np.testing.assert_allclose(back.execute().fetch(), DATA, rtol=1e-9)


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("flags", FLAGS)
def test_sample_weights_match_scikit_learn(chunks: Any, flags: dict[str, bool]) -> None:
    ours = StandardScaler(**flags).fit(mt.tensor(DATA, chunk_size=chunks), sample_weight=WEIGHTS)
    _same_fit(ours, sk.StandardScaler(**flags).fit(DATA, sample_weight=WEIGHTS))
    scalar = StandardScaler(**flags).fit(DATA, sample_weight=2.0)
    _same_fit(scalar, sk.StandardScaler(**flags).fit(DATA, sample_weight=2.0))


@settings(max_examples=8, deadline=None)
@given(
    cuts=st.lists(st.integers(1, 28), min_size=1, max_size=3, unique=True),
    flags=st.sampled_from(FLAGS),
    weighted=st.booleans(),
)
def test_partial_fit_over_batches_equals_one_fit(
    cuts: list[int], flags: dict[str, bool], weighted: bool
) -> None:
    # a batch may hold only NaN in a feature (where scikit-learn's own merge gives NaN):
    # the batches together must give what one fit of all the rows gives
    ours = StandardScaler(**flags)
    bounds = sorted(cuts)
    for batch, weights in zip(np.split(DATA, bounds), np.split(WEIGHTS, bounds)):
        ours.partial_fit(
            mt.tensor(batch, chunk_size=5), sample_weight=weights if weighted else None
        )
    theirs = sk.StandardScaler(**flags).fit(DATA, sample_weight=WEIGHTS if weighted else None)
    _same_fit(ours, theirs)


@settings(max_examples=10, deadline=None)
@given(
    data=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=12),
        elements=st.floats(-1e4, 1e4),
    ),
    rows=st.integers(1, 12),
    columns=st.integers(1, 12),
)
def test_any_shape_and_chunking(data: np.ndarray, rows: int, columns: int) -> None:
    ours = StandardScaler().fit(mt.tensor(data, chunk_size=(rows, columns)))
    theirs = sk.StandardScaler().fit(data)
    _same_fit(ours, theirs)
    got = ours.transform(data).execute().fetch()
    np.testing.assert_allclose(got, theirs.transform(data), rtol=1e-7, atol=1e-7)


def test_fit_runs_on_the_session_given() -> None:
    other = mars.new_session(n_cpu=1)
    try:
        ours = StandardScaler().fit(
            mt.tensor(DATA, chunk_size=6), session=other, run_kwargs={"show_progress": False}
        )
    finally:
        other.close()
    _same_fit(ours, sk.StandardScaler().fit(DATA))


def test_an_all_nan_feature_and_float32_follow_scikit_learn() -> None:
    data = DATA.astype(np.float32)
    data[:, 1] = np.nan
    with pytest.warns(RuntimeWarning, match="invalid value"):  # scikit-learn's 0 / 0
        theirs = sk.StandardScaler().fit(data)
    ours = StandardScaler().fit(mt.tensor(data, chunk_size=7))
    np.testing.assert_allclose(ours.mean_, theirs.mean_, rtol=1e-6)
    np.testing.assert_allclose(ours.var_, theirs.var_, rtol=1e-5)
    np.testing.assert_array_equal(ours.n_samples_seen_, theirs.n_samples_seen_)
    got = ours.transform(data).execute().fetch()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, theirs.transform(data), rtol=1e-4, atol=1e-5)


def test_estimator_protocol() -> None:
    scaler = StandardScaler(with_mean=False)
    assert scaler.get_params() == sk.StandardScaler(with_mean=False).get_params()
    assert clone(scaler).get_params() == scaler.get_params()
    with pytest.raises(NotFittedError):
        scaler.transform(DATA)
    fitted = scaler.fit_transform(mt.tensor(DATA, chunk_size=5))
    expected = sk.StandardScaler(with_mean=False).fit_transform(DATA)
    np.testing.assert_allclose(fitted.execute().fetch(), expected, rtol=1e-9, atol=1e-8)
    names = StandardScaler().fit(pd.DataFrame(DATA, columns=list("wxyz")))
    np.testing.assert_array_equal(names.get_feature_names_out(), list("wxyz"))


def test_bad_input_raises_value_errors_naming_it() -> None:
    with pytest.raises(ValueError, match="'with_mean' parameter"):
        StandardScaler(with_mean="yes").fit(DATA)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Sample weights must be 1D"):
        StandardScaler().fit(DATA, sample_weight=np.ones((29, 2)))
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[29, 3\]"):
        StandardScaler().fit(DATA, sample_weight=np.ones(3))
    fitted = StandardScaler().fit(DATA)
    with pytest.raises(ValueError, match="X has 2 features, but StandardScaler is expecting 4"):
        fitted.transform(DATA[:, :2])
    with pytest.raises(ValueError, match="X has 2 features, but StandardScaler is expecting 4"):
        fitted.partial_fit(DATA[:, :2])
    with pytest.raises(ValueError, match="Found array with 0 sample"):
        StandardScaler().fit(np.zeros((0, 3)))

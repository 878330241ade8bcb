"""``MinMaxScaler`` and ``minmax_scale`` against scikit-learn's, over several chunkings
and every form of input."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import preprocessing as sk
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import make_pipeline

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.preprocessing import MinMaxScaler, StandardScaler, minmax_scale

RNG = np.random.RandomState(0)
DATA = RNG.uniform(-50, 50, size=(23, 4))
DATA[:, 2] = 7.0  # a constant feature: scale 1
DATA[[3, 11], 1] = np.nan  # ignored when fitting, kept when transforming
ATTRIBUTES = ("data_min_", "data_max_", "data_range_", "scale_", "min_", "n_samples_seen_")
CHUNKS = [5, (7, 3), 23]


def _same_fit(ours: Any, theirs: Any) -> None:
    for name in ATTRIBUTES:
        got, expected = getattr(ours, name), getattr(theirs, name)
        np.testing.assert_allclose(got, expected, rtol=1e-12)
        assert np.asarray(got).dtype == np.asarray(expected).dtype, name
    assert ours.n_features_in_ == theirs.n_features_in_


def _forms(chunks: Any) -> list[Any]:
    """Functions giving data in each form: an array, a tensor, a pandas frame, a frame."""
    rows = chunks[0] if isinstance(chunks, tuple) else chunks

    def frame(data: np.ndarray) -> pd.DataFrame:
        return pd.DataFrame(data, columns=list("abcd"))

    return [
        lambda data: data,
        lambda data: mt.tensor(data, chunk_size=chunks),
        frame,
        lambda data: md.DataFrame(frame(data), chunk_size=rows),
    ]


@pytest.mark.parametrize("chunks", CHUNKS)
@pytest.mark.parametrize("kwargs", [{}, {"feature_range": (-3, 2)}, {"clip": True}])
def test_fit_and_transform_match_scikit_learn(chunks: Any, kwargs: dict[str, Any]) -> None:
    theirs = sk.MinMaxScaler(**kwargs).fit(DATA)
    unseen = DATA * 1.5 + 3
    for form in _forms(chunks):
        ours = MinMaxScaler(**kwargs).fit(form(DATA))
        _same_fit(ours, theirs)
        scaled = ours.transform(form(unseen))
        assert isinstance(scaled, mt.Tensor)
        np.testing.assert_allclose(scaled.execute().fetch(), theirs.transform(unseen), rtol=1e-12)
        back = ours.inverse_transform(theirs.transform(DATA))
        np.testing.assert_allclose(back.execute().fetch(), DATA, rtol=1e-12)


def test_feature_names_come_from_frames() -> None:
    frame = md.DataFrame(pd.DataFrame(DATA, columns=list("abcd")), chunk_size=6)
    ours = MinMaxScaler().fit(frame)
    np.testing.assert_array_equal(ours.feature_names_in_, ["a", "b", "c", "d"])
    np.testing.assert_array_equal(ours.get_feature_names_out(), ["a", "b", "c", "d"])
    assert not hasattr(MinMaxScaler().fit(DATA), "feature_names_in_")
    other = md.DataFrame(pd.DataFrame(DATA, columns=list("abce")), chunk_size=6)
    with pytest.raises(ValueError, match="feature names should match"):
        ours.transform(other)


def test_float32_stays_float32_and_integers_become_float64() -> None:
    small = DATA.astype(np.float32)
    ours = MinMaxScaler().fit(mt.tensor(small, chunk_size=6))
    theirs = sk.MinMaxScaler().fit(small)
    assert ours.scale_.dtype == theirs.scale_.dtype == np.float32
    got = ours.transform(small).execute().fetch()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, theirs.transform(small), rtol=1e-5, atol=1e-6)
    ints = np.arange(12).reshape(6, 2)
    assert MinMaxScaler().fit(ints).transform(ints).dtype == np.float64


@settings(max_examples=8, deadline=None)
@given(cuts=st.lists(st.integers(1, 22), min_size=1, max_size=3, unique=True))
def test_partial_fit_over_batches_equals_one_fit(cuts: list[int]) -> None:
    # a batch may hold only NaN in a feature (where scikit-learn's own partial_fit gives
    # NaN): the batches together must give what one fit of all the rows gives
    ours = MinMaxScaler()
    for batch in np.split(DATA, sorted(cuts)):
        ours.partial_fit(mt.tensor(batch, chunk_size=4))
    _same_fit(ours, sk.MinMaxScaler().fit(DATA))


def test_fit_forgets_earlier_batches() -> None:
    scaler = MinMaxScaler().partial_fit(DATA[:5]).partial_fit(DATA[5:])
    scaler.fit(DATA[:9])
    _same_fit(scaler, sk.MinMaxScaler().fit(DATA[:9]))


@pytest.mark.parametrize("chunks", [1, 4, 23])
@pytest.mark.parametrize("axis", [0, 1])
def test_minmax_scale_is_lazy_and_matches_scikit_learn(chunks: int, axis: int) -> None:
    finite = np.nan_to_num(DATA)
    got = minmax_scale(mt.tensor(finite, chunk_size=chunks), (1, 4), axis=axis)
    assert isinstance(got, mt.Tensor)
    expected = sk.minmax_scale(finite, (1, 4), axis=axis)
    np.testing.assert_allclose(got.execute().fetch(), expected, rtol=1e-12)
    column = minmax_scale(mt.tensor(finite[:, 0], chunk_size=chunks))
    assert column.shape == (23,)
    np.testing.assert_allclose(column.execute().fetch(), sk.minmax_scale(finite[:, 0]))


def test_fit_runs_on_the_session_given(session: Any) -> None:
    other = mars.new_session(n_cpu=1)
    try:
        ours = MinMaxScaler().fit(
            mt.tensor(DATA, chunk_size=6), session=other, run_kwargs={"show_progress": False}
        )
    finally:
        other.close()
    _same_fit(ours, sk.MinMaxScaler().fit(DATA))
    filtered = mt.tensor(DATA, chunk_size=6)
    kept = filtered[filtered[:, 0] > 0]  # a row count known only once computed
    _same_fit(MinMaxScaler().fit(kept), sk.MinMaxScaler().fit(DATA[DATA[:, 0] > 0]))


def test_estimator_protocol() -> None:
    scaler = MinMaxScaler(feature_range=(2, 5), clip=True)
    assert scaler.get_params() == sk.MinMaxScaler(feature_range=(2, 5), clip=True).get_params()
    copy = clone(scaler)
    assert copy.get_params() == scaler.get_params()
    assert copy is not scaler
    with pytest.raises(NotFittedError):
        scaler.transform(DATA)
    pipeline = make_pipeline(MinMaxScaler(), StandardScaler()).fit(DATA)
    expected = make_pipeline(sk.MinMaxScaler(), sk.StandardScaler()).fit(DATA).transform(DATA)
    np.testing.assert_allclose(pipeline.transform(DATA).execute().fetch(), expected, atol=1e-12)
    fitted = MinMaxScaler().fit_transform(mt.tensor(DATA, chunk_size=5))
    np.testing.assert_allclose(fitted.execute().fetch(), sk.MinMaxScaler().fit_transform(DATA))


def test_bad_input_raises_value_errors_naming_it() -> None:
    with pytest.raises(ValueError, match=r"desired feature range .* feature_range=\(1, 0\)"):
        MinMaxScaler(feature_range=(1, 0)).fit(DATA)
    with pytest.raises(ValueError, match="'feature_range' parameter"):
        MinMaxScaler(feature_range=[0, 1]).fit(DATA)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'clip' parameter"):
        MinMaxScaler(clip=1).fit(DATA)  # type: ignore[arg-type]
    fitted = MinMaxScaler().fit(DATA)
    with pytest.raises(ValueError, match="X has 3 features, but MinMaxScaler is expecting 4"):
        fitted.transform(DATA[:, :3])
    with pytest.raises(ValueError, match="Expected 2D array"):
        MinMaxScaler().fit(DATA[:, 0])
    with pytest.raises(ValueError, match="Input X contains infinity"):
        MinMaxScaler().fit(np.array([[1.0], [np.inf]]))
    with pytest.raises(ValueError, match="'axis' parameter"):
        minmax_scale(DATA, axis=2)

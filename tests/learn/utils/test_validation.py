"""``check_array`` and friends against scikit-learn's own, on arrays, pandas objects,
SciPy matrices, tensors and frames over several chunkings; the checks of fitted widths,
sample weights and random states; computing what a fit keeps."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.preprocessing import StandardScaler
from sklearn.utils import validation as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import (
    check_array,
    check_consistent_length,
    check_X_y,
    column_or_1d,
    fetch_all,
)
from jupyter_mars.learn.utils.validation import (
    all_zero,
    check_n_features,
    check_random_state,
    check_sample_weight,
    execute_all,
    float_input,
    raise_if_all_zero,
)

CHUNKS = [2, 3, (5, 1)]
DATA = np.arange(30, dtype=np.float64).reshape(10, 3)


def _forms(chunks: Any) -> list[Any]:
    frame = pd.DataFrame(DATA, columns=list("abc"))
    rows = chunks[0] if isinstance(chunks, tuple) else chunks
    return [
        DATA,
        DATA.tolist(),
        frame,
        mt.tensor(DATA, chunk_size=chunks),
        md.DataFrame(frame, chunk_size=rows),
    ]


@pytest.mark.parametrize("chunks", CHUNKS)
def test_every_form_of_input_gives_scikit_learns_array(chunks: Any) -> None:
    for form in _forms(chunks):
        (got,) = fetch_all(check_array(form))
        np.testing.assert_array_equal(got, sk.check_array(DATA))


def test_dtypes_follow_scikit_learn() -> None:
    ints = np.arange(6).reshape(3, 2)
    for dtype in ("numeric", np.float32, [np.float64, np.float32], None):
        assert check_array(ints, dtype=dtype).dtype == sk.check_array(ints, dtype=dtype).dtype
    objects = np.array([[1, 2], [3, 4]], dtype=object)
    assert check_array(objects).dtype == sk.check_array(objects).dtype


@pytest.mark.parametrize(
    ("bad", "kwargs"),
    [
        (np.arange(4.0), {}),
        (np.zeros((0, 3)), {}),
        (np.zeros((3, 0)), {}),
        (np.zeros((2, 2, 2)), {}),
        (np.array([[1.0, np.nan]]), {}),
        (np.array([[1.0, np.inf]]), {}),
        (np.array([[1.0, np.inf]]), {"ensure_all_finite": "allow-nan"}),
    ],
)
def test_bad_arrays_raise_scikit_learns_error_type(bad: np.ndarray, kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"^(Expected|Found|Input)") as theirs:
        sk.check_array(bad, **kwargs)
    with pytest.raises(ValueError, match=r"^(Expected|Found|Input)") as ours:
        check_array(bad, **kwargs)
    assert str(ours.value).split()[:3] == str(theirs.value).split()[:3]


def test_nan_in_a_tensor_is_reported_when_it_is_computed() -> None:
    t = mt.tensor(np.array([[1.0, 2.0], [np.nan, 4.0]]), chunk_size=1)
    checked = check_array(t)  # lazily: the values are not known yet
    with pytest.raises(ValueError, match="Input contains NaN"):
        fetch_all(checked)
    (allowed,) = fetch_all(check_array(t, ensure_all_finite="allow-nan"))
    assert np.isnan(allowed).sum() == 1


def test_finite_values_whose_sum_overflows_pass_the_check() -> None:
    big = np.full((4, 3), np.finfo(np.float64).max)
    (kept,) = fetch_all(check_array(mt.tensor(big, chunk_size=2)))
    np.testing.assert_array_equal(kept, big)
    # infinities of both signs sum to NaN: still reported as infinities
    with pytest.raises(ValueError, match="Input contains infinity"):
        fetch_all(check_array([[np.inf, -np.inf]], ensure_all_finite="allow-nan"))


def test_lengths_and_targets() -> None:
    check_consistent_length(np.zeros(3), mt.zeros(3, chunk_size=2), None)
    with pytest.raises(ValueError, match=r"inconsistent numbers of samples: \[3, 4\]"):
        check_consistent_length(np.zeros(3), mt.zeros(4, chunk_size=2))
    (y,) = fetch_all(column_or_1d(np.arange(4).reshape(-1, 1)))
    np.testing.assert_array_equal(y, sk.column_or_1d(np.arange(4).reshape(-1, 1)))
    with pytest.raises(ValueError, match="y should be a 1d array"):
        column_or_1d(np.zeros((3, 2)))
    x, t = check_X_y(DATA, np.arange(10))
    assert (x.shape, t.shape) == ((10, 3), (10,))
    with pytest.raises(ValueError, match="requires y to be passed"):
        check_X_y(DATA, None)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        check_X_y(DATA, np.arange(9))


def test_sparse_matrices_are_sparse_tensors_refused_where_dense_data_is_required() -> None:
    matrix = sp.random(8, 3, density=0.4, format="csr", random_state=0)
    x = float_input(matrix, accept_sparse=True)
    assert x.issparse()
    (got,) = fetch_all(x)
    np.testing.assert_array_equal(got.toarray(), matrix.toarray())
    with pytest.raises(TypeError, match="Sparse data was passed"):
        float_input(matrix)
    with pytest.raises(TypeError, match="Sparse data was passed"):
        sk.check_array(matrix)


@pytest.mark.parametrize("chunks", CHUNKS)
def test_float_input_keeps_floats_of_the_dtypes_given(chunks: Any) -> None:
    ints = np.arange(12).reshape(4, 3)
    assert float_input(ints).dtype == np.float64
    assert float_input(ints.astype(np.float32)).dtype == np.float32
    scaled = float_input(mt.tensor(ints.astype(np.float16), chunk_size=chunks), dtype=[np.float16])
    assert scaled.dtype == np.float16
    with pytest.raises(ValueError, match="Input X contains NaN"):
        float_input([[1.0, np.nan]])
    (kept,) = fetch_all(float_input([[1.0, np.nan]], ensure_all_finite="allow-nan"))
    assert np.isnan(kept[0, 1])


def test_a_fitted_estimator_refuses_another_width() -> None:
    fitted = StandardScaler().fit(DATA)
    check_n_features(fitted, mt.tensor(DATA, chunk_size=4))
    with pytest.raises(ValueError, match="X has 2 features, but StandardScaler is expecting 3"):
        check_n_features(fitted, mt.tensor(DATA[:, :2]))
    check_n_features(object(), mt.tensor(DATA[:, :2]))  # nothing fitted, nothing expected


@pytest.mark.parametrize(
    "weights", [None, 2.0, np.arange(1.0, 11.0), list(range(1, 11)), pd.Series(np.arange(10.0))]
)
@pytest.mark.parametrize("lazy", [False, True])
def test_sample_weights_equal_scikit_learns(weights: Any, lazy: bool) -> None:
    array_like = weights is not None and np.ndim(weights) == 1
    given = mt.tensor(np.asarray(weights), chunk_size=3) if lazy and array_like else weights
    ours = check_sample_weight(given, 10, np.float32)
    if weights is None:
        assert ours is None
        return
    assert ours is not None
    assert ours.dtype == np.float32
    (got,) = fetch_all(ours)
    np.testing.assert_array_equal(got, sk._check_sample_weight(weights, DATA, dtype=np.float32))


def test_bad_sample_weights_raise_scikit_learns_errors() -> None:
    for bad, message in [
        (np.ones((10, 2)), "Sample weights must be 1D array or scalar, got 2D array"),
        (np.ones(3), r"sample_weight.shape == \(3,\), expected \(10,\)!"),
        (np.zeros(10), "at least one non-zero number"),
        ([1.0] * 9 + [np.inf], "Input sample_weight contains infinity"),
    ]:
        with pytest.raises(ValueError, match=message):
            sk._check_sample_weight(bad, DATA)
        with pytest.raises(ValueError, match=message):
            check_sample_weight(bad, 10, np.float64)
    assert (
        check_sample_weight(np.zeros(10), 10, np.float64, allow_all_zero_weights=True) is not None
    )
    negative = -np.arange(10.0)
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        check_sample_weight(negative, 10, np.float64, non_negative=True)
    lazy = check_sample_weight(mt.tensor(negative, chunk_size=4), 10, np.float64, non_negative=True)
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        fetch_all(lazy)  # a tensor's values are checked when they are computed
    none, some = fetch_all(all_zero(mt.zeros(10, chunk_size=3)), all_zero(mt.ones(4)))
    assert (bool(none), bool(some)) == (True, False)
    with pytest.raises(ValueError, match="at least one non-zero number"):
        raise_if_all_zero(none)
    raise_if_all_zero(some)


def test_random_states_are_scikit_learns_or_a_tensor_states_seeds() -> None:
    assert check_random_state(3).randint(1000) == sk.check_random_state(3).randint(1000)
    state = np.random.RandomState(0)
    assert check_random_state(state) is state
    tensor_state = mt.random.RandomState(7)
    assert check_random_state(tensor_state) is tensor_state._state


def test_fetch_all_holds_what_it_keeps_and_returns_what_is_wanted(session: Any) -> None:
    kept = mt.tensor(DATA, chunk_size=4) * 2
    total = kept.sum()
    assert fetch_all(total, keep=[kept]) == [DATA.sum() * 2]
    assert session.is_executed(kept)
    more = mt.tensor(DATA, chunk_size=4) + 1
    execute_all(more)
    assert session.is_executed(more)

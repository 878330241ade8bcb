"""``check_array`` and friends against scikit-learn's own, on arrays, pandas objects,
tensors and frames over several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
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

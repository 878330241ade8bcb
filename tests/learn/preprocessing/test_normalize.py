"""``normalize`` against scikit-learn's: every norm, both axes, several chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn import preprocessing as sk

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.preprocessing import normalize

DATA = np.random.RandomState(2).normal(size=(17, 5))
DATA[4] = 0.0  # a zero sample: its norm is taken as 1
DATA[:, 3] = 0.0  # a zero feature


@pytest.mark.parametrize("chunks", [3, (6, 2), 17])
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("axis", [0, 1])
def test_norms_match_scikit_learn(chunks: Any, norm: str, axis: int) -> None:
    scaled, norms = normalize(mt.tensor(DATA, chunk_size=chunks), norm, axis=axis, return_norm=True)
    assert isinstance(scaled, mt.Tensor)
    expected, expected_norms = sk.normalize(DATA, norm, axis=axis, return_norm=True)
    np.testing.assert_allclose(scaled.execute().fetch(), expected, rtol=1e-12)
    np.testing.assert_allclose(norms.execute().fetch(), expected_norms, rtol=1e-12)


@settings(max_examples=10, deadline=None)
@given(
    data=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=9),
        elements=st.floats(-1e3, 1e3),
    ),
    chunk=st.integers(1, 9),
    norm=st.sampled_from(["l1", "l2", "max"]),
)
def test_any_shape_and_chunking(data: np.ndarray, chunk: int, norm: str) -> None:
    got = normalize(mt.tensor(data, chunk_size=chunk), norm).execute().fetch()
    np.testing.assert_allclose(got, sk.normalize(data, norm), rtol=1e-10, atol=1e-300)


def test_other_inputs_and_dtypes() -> None:
    frame = pd.DataFrame(DATA)
    for form in (DATA.tolist(), frame, md.DataFrame(frame, chunk_size=5)):
        np.testing.assert_allclose(normalize(form).execute().fetch(), sk.normalize(DATA))
    small = DATA.astype(np.float32)
    got = normalize(small, "l1").execute().fetch()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, sk.normalize(small, "l1"), rtol=1e-6)
    assert normalize(np.arange(6).reshape(2, 3)).dtype == np.float64


def test_bad_input_raises_value_errors_naming_it() -> None:
    with pytest.raises(ValueError, match="'l3' is not a supported norm"):
        normalize(DATA, "l3")
    with pytest.raises(ValueError, match="'2' is not a supported axis"):
        normalize(DATA, axis=2)
    with pytest.raises(ValueError, match="minimum of 1 is required by the normalize function"):
        normalize(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="Expected 2D array"):
        normalize(DATA[0])

"""What the estimators read of chunks and rows before computing: chunk lengths without
running anything, rechunking for TSQR and for sums that agree, rows known or counted, and
stand-ins for computed tensors."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.learn.utils.chunks import (
    chunk_lengths,
    row_count,
    same_row_chunks,
    tall_and_skinny,
    with_known_rows,
    without_history,
)

FRAME = pd.DataFrame({"a": np.arange(10.0), "b": np.arange(10.0) ** 2})


def _filtered() -> Any:
    frame = md.DataFrame(FRAME, chunk_size=3)
    return frame[frame["a"] > 3]  # type: ignore[index]  # six rows, known once computed


def test_chunk_lengths_are_known_without_running_anything() -> None:
    t = mt.tensor(np.zeros((10, 4)), chunk_size=(4, 3))
    assert chunk_lengths(t) == ((4, 4, 2), (3, 1))
    assert chunk_lengths((t + 1).T) == ((3, 1), (4, 4, 2))
    kept = _filtered().to_tensor()
    lengths = chunk_lengths(kept)  # as many chunks, their lengths not known yet
    assert lengths is not None
    assert all(np.isnan(n) for n in lengths[0])


@settings(max_examples=10, deadline=None)
@given(rows=st.integers(1, 40), cols=st.integers(1, 8), chunk=st.integers(1, 12))
def test_tall_and_skinny_chunks_are_as_long_as_the_matrix_is_wide(
    rows: int, cols: int, chunk: int
) -> None:
    data = np.random.default_rng(rows * cols).random((rows, cols))
    x = tall_and_skinny(mt.tensor(data, chunk_size=(chunk, cols)))
    lengths = chunk_lengths(x)
    assert lengths is not None
    if rows > cols:  # every chunk but the last, which holds what is left
        assert min(lengths[0][:-1], default=cols) >= cols
    _, s, _ = mt.linalg.svd(x)
    got, values = fetch_all(s, x)
    np.testing.assert_array_equal(values, data)
    np.testing.assert_allclose(got, np.linalg.svd(data, compute_uv=False), atol=1e-12)


def test_same_row_chunks_follow_the_other_tensor() -> None:
    like = mt.tensor(np.zeros(10), chunk_size=3)
    t = same_row_chunks(mt.tensor(np.arange(10.0), chunk_size=5), like)
    assert chunk_lengths(t) == ((3, 3, 3, 1),)
    other = mt.tensor(np.arange(8.0), chunk_size=5)
    assert same_row_chunks(other, like) is other  # lengths apart: left as it is


@pytest.mark.parametrize("lazy", ["tensor", "frame"])
def test_rows_known_after_computing_and_counted_lazily(lazy: str) -> None:
    data = _filtered() if lazy == "frame" else _filtered().to_tensor()
    assert np.isnan(data.shape[0])
    values = data.to_tensor() if lazy == "frame" else data
    (count,) = fetch_all(row_count(values))
    assert count == 6
    assert with_known_rows(data) is data
    assert data.shape[0] == 6
    assert row_count(mt.zeros((7, 2), chunk_size=3)) == 7


def test_a_stand_in_reads_the_computed_chunks_without_their_history(
    session: mars.Session,
) -> None:
    source = mt.tensor(np.arange(12.0), chunk_size=5)
    doubled = source * 2
    fetch_all(keep=[doubled])
    stand_in = without_history(doubled)
    assert stand_in.inputs == []
    assert (stand_in.shape, stand_in.dtype, stand_in.key) == (
        doubled.shape,
        doubled.dtype,
        doubled.key,
    )
    (got,) = fetch_all(stand_in + 1)
    np.testing.assert_array_equal(got, np.arange(12.0) * 2 + 1)
    del doubled, stand_in
    gc.collect()

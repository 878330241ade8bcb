"""``argmax``/``argmin`` and NaN forms: ties, flat indices across chunks, all-NaN slices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings
from tests.tensor.reduction.helpers import (
    ARG_REDUCTIONS,
    check_like_numpy,
    data,
    run_numpy,
    tensors,
)


@pytest.mark.parametrize("name", ARG_REDUCTIONS)
@pytest.mark.parametrize("chunks", chunkings((5, 6)))
def test_arg_reduction_matches_numpy_including_ties(name: str, chunks: Any, xp: Any) -> None:
    x = data((5, 6), seed=2)  # many equal values: the first occurrence must win
    for axis in [None, 0, 1, -1, -2]:
        for keepdims in (False, True):
            check_like_numpy(name, x, chunks, xp=xp, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("name", ARG_REDUCTIONS)
def test_arg_reduction_flat_index_when_chunks_interleave_flat_order(name: str) -> None:
    # chunk (0, 1) holds flat index 2 while chunk (1, 0) holds 4: ties resolved by index
    x = np.zeros((4, 4))
    x[0, 2] = x[2, 0] = x[1, 1] = 5.0 if "max" in name else -5.0
    for chunks in [2, (1, 3), (3, 1)]:
        check_like_numpy(name, x, chunks)


@given(st.data(), st.sampled_from(ARG_REDUCTIONS))
def test_arg_reduction_hypothesis_shapes_chunks_axes(hyp: Any, name: str) -> None:
    x, chunks = hyp.draw(tensors(nans=name.startswith("nan")))
    axis = hyp.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)))
    keepdims = hyp.draw(st.booleans())
    expected, _ = run_numpy(getattr(np, name), x, axis=axis, keepdims=keepdims)
    got = getattr(mt, name)(mt.tensor(x, chunk_size=chunks), axis=axis, keepdims=keepdims)
    if isinstance(expected, ValueError):  # an all-NaN slice: raised when executed
        with pytest.raises(ValueError, match="All-NaN slice"):
            got.execute()
        return
    assert_same(got, expected)


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nanarg_of_all_nan_slice_raises_when_executed(name: str) -> None:
    x = np.array([[np.nan, 1.0], [np.nan, 2.0]])
    t = getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=0)
    with pytest.raises(ValueError, match="All-NaN slice"):
        t.execute()
    assert_same(getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=1), getattr(np, name)(x, axis=1))


def test_infinities_tie_with_replaced_nans_like_numpy() -> None:
    x = np.array([np.nan, np.inf, np.inf, -np.inf, np.nan, -np.inf])
    for chunks in [1, 2, 4]:
        check_like_numpy("nanargmin", x, chunks)
        check_like_numpy("nanargmax", x, chunks)

"""``rechunk``: values kept and every ``chunk_size`` form."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.engine.chunks import normalize_chunk_size
from tests.conftest import assert_same
from tests.tensor.conftest import on
from tests.tensor.shape.helpers import axis_chunks, data, shape_and_chunks, tile_graph


@given(st.data())
def test_rechunk_preserves_values_for_any_pair_of_chunkings(xp: Any, data_: Any) -> None:
    shape, first = data_.draw(shape_and_chunks())
    second = tuple(data_.draw(axis_chunks(n)) for n in shape)
    a = data(shape)
    y = on(xp, mt.tensor(a, chunk_size=first)).rechunk(second)
    out, _, _ = tile_graph(y)
    assert out.nsplits == normalize_chunk_size(shape, second, 8)
    assert_same(y, a)


def test_rechunk_accepts_every_chunk_size_form() -> None:
    a = data((5, 4))
    x = mt.tensor(a, chunk_size=2)
    forms = [3, -1, (2, None), ((1, 4), -1), {1: 1, 0: (2, 3)}, None]
    for form in forms:
        y = mt.rechunk(x, form)
        out, _, _ = tile_graph(y)
        assert out.nsplits == normalize_chunk_size((5, 4), form, 8)
        assert_same(y, a)


def test_a_dict_leaves_the_axes_it_does_not_name_as_they_are() -> None:
    # as Mars's and Dask's rechunk: {0: 5} cuts axis 0 anew and keeps axis 1's chunks
    a = data((5, 4))
    x = mt.tensor(a, chunk_size=(2, 3))
    for form, want in [
        ({0: 5}, ((5,), (3, 1))),
        ({-1: 2}, ((2, 2, 1), (2, 2))),
        ({1: (1, 3)}, ((2, 2, 1), (1, 3))),
        ({}, ((2, 2, 1), (3, 1))),
    ]:
        y = x.rechunk(form)
        out, _, _ = tile_graph(y)
        assert out.nsplits == want
        assert_same(y, a)
    with pytest.raises(np.exceptions.AxisError):
        x.rechunk({2: 1})
    with pytest.raises(TypeError, match="chunk_size keys"):
        x.rechunk({"rows": 1})


def test_rechunk_bad_chunk_size_names_chunk_size() -> None:
    x = mt.tensor(data((5, 4)))
    with pytest.raises(ValueError, match="chunk_size"):
        x.rechunk(0)
    with pytest.raises(ValueError, match="chunk_size"):
        x.rechunk((2, 2, 2))
    with pytest.raises(ValueError, match=r"chunk_size\[0\]"):
        x.rechunk(((2, 2), 4))
    with pytest.raises(TypeError, match="chunk_size"):
        x.rechunk(1.5)

"""Parts: a training set's row blocks, kept where they are computed, and where that is."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.contrib.parts import Part, build_parts, concat_field, here, locate
from jupyter_mars.learn.utils import fetch_all, to_tensor

RNG = np.random.default_rng(0)
DATA = RNG.random((23, 3))
LABEL = RNG.integers(0, 3, 23)
WEIGHT = RNG.random(23)
MARGIN = RNG.random((23, 2))


@pytest.mark.parametrize("rows", [5, 9, 23])
def test_parts_cut_every_field_into_the_data_row_blocks(rows: int) -> None:
    x = mt.tensor(DATA, chunk_size=(rows, 2))  # split by columns as well: parts are whole rows
    label = mt.tensor(LABEL, chunk_size=7)  # chunked apart from the data
    parts = build_parts(x, label=label, weight=to_tensor(WEIGHT), margin=to_tensor(MARGIN))
    (held,) = fetch_all(parts)
    assert all(isinstance(p, Part) for p in held)
    assert [p.n_rows for p in held] == [len(DATA[i : i + rows]) for i in range(0, 23, rows)]
    np.testing.assert_array_equal(concat_field(list(held), "data"), DATA)
    np.testing.assert_array_equal(concat_field(list(held), "label"), LABEL)
    np.testing.assert_array_equal(concat_field(list(held), "weight"), WEIGHT)
    np.testing.assert_array_equal(concat_field(list(held), "margin"), MARGIN)
    assert concat_field(list(held), "qid") is None
    assert {p.place for p in held} == {here()}  # the embedded session: this process


def test_locate_keeps_the_parts_and_tells_where_they_are_and_their_rows() -> None:
    frame = md.DataFrame(pd.DataFrame(DATA, columns=["a", "b", "c"]), chunk_size=10)
    parts = build_parts(to_tensor(frame), label=to_tensor(LABEL))
    located = locate(parts, None, None)
    assert located == [(here(), 10), (here(), 10), (here(), 3)]
    (held,) = fetch_all(parts)  # executed once, held since
    np.testing.assert_array_equal(concat_field(list(held), "data"), DATA)


def test_build_parts_refuses_fields_it_does_not_know() -> None:
    with pytest.raises(TypeError, match="unexpected fields"):
        build_parts(mt.tensor(DATA), group=mt.tensor(LABEL))


def test_concat_field_of_no_parts_is_none() -> None:
    assert concat_field([], "data") is None

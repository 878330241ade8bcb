"""Row blocks: one task per block of rows, columns whole, the inputs' rows matched."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.learn.utils import fetch_all
from jupyter_mars.learn.utils.blocks import as_object, map_rows, per_block
from jupyter_mars.learn.utils.chunks import chunk_lengths


def row_summary(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Each row's sum, its target and its number of columns."""
    return np.column_stack([x.sum(axis=1), y, np.full(len(x), x.shape[1])])


def block_facts(x: np.ndarray, y: np.ndarray) -> tuple[int, int, float]:
    return len(x), x.shape[1], float(y.sum())


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(1, 30),
    n_features=st.integers(1, 5),
    rows=st.integers(1, 12),
    columns=st.integers(1, 5),
    target_rows=st.integers(1, 12),
)
def test_rows_of_every_block_see_every_column_and_their_own_targets(
    n: int, n_features: int, rows: int, columns: int, target_rows: int
) -> None:
    data = np.random.default_rng(n).random((n, n_features))
    target = np.arange(n, dtype=np.float64)
    x = mt.tensor(data, chunk_size=(rows, columns))
    y = mt.tensor(target, chunk_size=target_rows)
    result = map_rows(row_summary, x, y, trailing=(3,), name="summary")
    assert result.shape == (n, 3)
    (got,) = fetch_all(result)
    np.testing.assert_allclose(got[:, 0], data.sum(axis=1))
    np.testing.assert_array_equal(got[:, 1], target)
    assert (got[:, 2] == n_features).all()
    (facts,) = fetch_all(per_block(block_facts, x, y))
    assert [f[0] for f in facts] == [len(b) for b in np.array_split(data, range(rows, n, rows))]
    assert {f[1] for f in facts} == {n_features}
    assert sum(f[2] for f in facts) == target.sum()


def test_frames_and_filtered_frames_are_read_by_their_row_blocks() -> None:
    frame = pd.DataFrame(np.arange(40.0).reshape(10, 4), columns=list("abcd"))
    distributed = md.DataFrame(frame, chunk_size=3)
    kept = distributed[distributed["a"] > 10]  # rows unknown until computed
    expected = frame[frame["a"] > 10].to_numpy()
    result = map_rows(functools.partial(np.sum, axis=1), kept)
    (got,) = fetch_all(result)
    np.testing.assert_allclose(got, expected.sum(axis=1))
    (facts,) = fetch_all(per_block(block_facts, kept, np.arange(len(expected))))
    assert sum(f[0] for f in facts) == len(expected)


def test_per_block_keeps_each_object_whole() -> None:
    def pair(x: Any) -> Any:
        return (x.shape, np.ones(2))

    (got,) = fetch_all(per_block(pair, np.zeros((5, 2)), name="pairs"))
    assert got.dtype == object
    assert len(got) == 1
    assert got[0][0] == (5, 2)
    assert as_object([np.zeros(3), np.ones(3)]).shape == (2,)


def _stack(a: np.ndarray, b: np.ndarray, scale: float) -> np.ndarray:
    return np.column_stack([a.sum(axis=1), b * scale, np.full(len(a), len(a))])


@pytest.mark.parametrize(("chunks_a", "chunks_b"), [((3, 2), 4), (10, 10), (1, 7)])
def test_blocks_of_rows_with_a_new_width_and_bound_arguments(
    chunks_a: object, chunks_b: object
) -> None:
    a = np.arange(30.0).reshape(10, 3)
    b = np.arange(10.0)
    kernel = functools.partial(_stack, scale=2.0)
    out = map_rows(
        kernel, mt.tensor(a, chunk_size=chunks_a), mt.tensor(b, chunk_size=chunks_b), trailing=(3,)
    )
    assert out.shape == (10, 3)
    (got,) = fetch_all(out)
    np.testing.assert_allclose(got[:, :2], np.column_stack([a.sum(axis=1), b * 2]))
    lengths = chunk_lengths(mt.tensor(a, chunk_size=chunks_a))
    assert lengths is not None
    rows = [int(n) for n in lengths[0]]
    # one call per block of rows of the first input: each saw that many rows
    np.testing.assert_array_equal(got[:, 2], np.repeat(rows, rows))


def test_one_value_per_row_in_the_dtype_asked_for() -> None:
    a = np.arange(12).reshape(6, 2)
    out = map_rows(functools.partial(np.max, axis=1), mt.tensor(a, chunk_size=4), dtype=a.dtype)
    assert out.dtype == a.dtype
    (got,) = fetch_all(out)
    np.testing.assert_array_equal(got, a.max(axis=1))


def _block_total(x: np.ndarray) -> float:
    return float(x.sum())


def _plus_state(x: np.ndarray, state: float) -> np.ndarray:
    return x.sum(axis=1) + state


def _carried(x: np.ndarray, state: float) -> tuple[int, float]:
    return len(x), state


@pytest.mark.parametrize("chunks", [(3, 2), 4, 10])
def test_paired_inputs_give_each_block_its_own_item(chunks: object) -> None:
    a = np.arange(30.0).reshape(10, 3)
    x = mt.tensor(a, chunk_size=chunks)
    state = per_block(_block_total, x, name="state")
    carried = per_block(_carried, x, state, name="carried", paired=(1,))
    rows = map_rows(_plus_state, x, state, name="plus", paired=(1,))
    items, got = fetch_all(carried, rows)
    lengths = chunk_lengths(x)
    assert lengths is not None
    blocks = np.split(a, np.cumsum([int(n) for n in lengths[0]])[:-1])
    assert list(items) == [(len(b), float(b.sum())) for b in blocks]
    np.testing.assert_allclose(got, np.concatenate([b.sum(axis=1) + b.sum() for b in blocks]))


def test_a_paired_input_of_other_blocks_is_refused() -> None:
    state = per_block(_block_total, mt.tensor(np.ones((10, 2)), chunk_size=5), name="state")
    other = mt.tensor(np.ones((10, 2)), chunk_size=2)
    with pytest.raises(ValueError, match="has 2 items, one per block of 5 row blocks expected"):
        fetch_all(per_block(_carried, other, state, paired=(1,)))

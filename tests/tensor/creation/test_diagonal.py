"""``eye``, ``identity``, ``tri``, ``diag``, ``tril``, ``triu``: values and chunk reuse."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.tensor as mt
from jupyter_mars.tensor.creation import diagonal
from tests.conftest import assert_same, chunkings
from tests.tensor.creation.helpers import first_stage, funcs_in, nsplits_of, shape_and_chunks


@given(
    st.integers(0, 8),
    st.one_of(st.none(), st.integers(0, 8)),
    st.integers(-9, 9),
    st.integers(1, 9),
)
def test_eye_matches_numpy(n: int, m: int | None, k: int, chunk: int) -> None:
    assert_same(mt.eye(n, m, k=k, chunk_size=chunk), np.eye(n, m, k=k))
    assert_same(mt.tri(n, m, k=k, chunk_size=chunk), np.tri(n, m, k=k))


def test_eye_identity_and_tri_dtypes() -> None:
    assert_same(mt.eye(4, 3, 1, dtype=np.int8, chunk_size=2), np.eye(4, 3, 1, dtype=np.int8))
    assert_same(mt.identity(5, chunk_size=2), np.identity(5))
    assert_same(mt.identity(3, dtype=bool), np.identity(3, dtype=bool))
    assert_same(mt.tri(4, 5, -1, dtype=int, chunk_size=3), np.tri(4, 5, -1, dtype=int))


def test_eye_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="negative"):
        mt.eye(-1)
    with pytest.raises(TypeError):
        mt.eye(2.5)
    with pytest.raises(TypeError):
        mt.eye(3, k=0.5)
    with pytest.raises(TypeError):
        mt.identity(3, dtype="bogus")


@pytest.mark.parametrize("n", [0, 1, 5])
@pytest.mark.parametrize("k", [0, 2, -3])
def test_diag_of_a_vector_matches_numpy(n: int, k: int) -> None:
    v = np.arange(1, n + 1, dtype=np.float32)
    for chunk in chunkings(v.shape):
        assert_same(mt.diag(mt.tensor(v, chunk_size=chunk), k), np.diag(v, k))
        assert_same(mt.diag(v, k, chunk_size=chunk), np.diag(v, k))
    assert_same(mt.diag(v, k), np.diag(v, k))


@given(shape_and_chunks(max_ndim=2, max_len=8), st.integers(-9, 9))
def test_diag_of_a_matrix_matches_numpy(sc: Any, k: int) -> None:
    shape, chunk = sc
    if len(shape) != 2:
        shape, chunk = (len(shape) + 3, 5), 2
    x = np.arange(int(np.prod(shape))).reshape(shape)
    assert_same(mt.diag(mt.tensor(x, chunk_size=chunk), k), np.diag(x, k))


def test_diag_of_a_vector_reads_only_diagonal_chunks(session: Any) -> None:
    v = mt.tensor(np.arange(6.0), chunk_size=2)
    t = mt.diag(v, 1)
    funcs = funcs_in(first_stage(t))
    assert funcs.count(diagonal.diag_block) == 3
    assert funcs.count(diagonal.zeros_chunk) == 4 * 4 - 3
    assert nsplits_of(t, session) == ((2, 2, 2, 1), (1, 2, 2, 2))


def test_diag_of_a_matrix_reads_only_blocks_on_the_diagonal() -> None:
    x = mt.tensor(np.arange(36).reshape(6, 6), chunk_size=2)
    graph = first_stage(mt.diag(x))
    deps = set().union(*(task.dependencies for task in graph.values()))
    # only the 3 diagonal blocks of the 3x3 grid are read (their tasks are fused in)
    assert len(graph) == 3
    assert not deps


def test_diag_errors_match_numpy() -> None:
    with pytest.raises(ValueError, match="1- or 2-d"):
        mt.diag(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="1- or 2-d"):
        mt.diag(5)
    with pytest.raises(TypeError):
        mt.diag([1, 2], k=1.5)


@given(shape_and_chunks(max_len=6), st.integers(-7, 7), st.booleans())
def test_tril_triu_match_numpy(sc: Any, k: int, lower: bool) -> None:
    shape, chunk = sc
    if not shape:
        return
    x = np.arange(1, int(np.prod(shape)) + 1).reshape(shape)
    func, npfunc = (mt.tril, np.tril) if lower else (mt.triu, np.triu)
    assert_same(func(mt.tensor(x, chunk_size=chunk), k), npfunc(x, k))


def test_tril_triu_of_arrays_and_vectors() -> None:
    x = np.arange(1.0, 13.0).reshape(3, 4)
    assert_same(mt.tril(x, -1), np.tril(x, -1))
    assert_same(mt.triu(x.tolist(), 1), np.triu(x, 1))
    v = np.arange(1, 6)
    for chunk in chunkings(v.shape):
        assert_same(mt.tril(mt.tensor(v, chunk_size=chunk), 1), np.tril(v, 1))
        assert_same(mt.triu(mt.tensor(v, chunk_size=chunk)), np.triu(v))


def test_tril_reuses_lower_chunks_and_zeros_upper_ones(session: Any) -> None:
    x = mt.tensor(np.ones((6, 6)), chunk_size=2)
    x.execute()
    t = mt.tril(x)
    graph = first_stage(t)
    funcs = funcs_in(graph)
    # 3 diagonal blocks are cut, 3 upper blocks are zeros, 3 lower blocks are x's own
    assert funcs.count(diagonal.triangle_chunk) == 3
    assert funcs.count(diagonal.zeros_chunk) == 3
    assert_same(t, np.tril(np.ones((6, 6))))
    tiled = session.engine.executed[t.key]
    source = session.engine.executed[x.key]
    assert tiled.keys[2, 0] == source.keys[2, 0]


def test_tril_errors() -> None:
    with pytest.raises(ValueError, match="at least 1-d"):
        mt.tril(5)
    with pytest.raises(TypeError):
        mt.triu(np.ones((2, 2)), k="1")

"""``mt.spatial.distance`` (``cdist``, ``pdist``, ``squareform``) against SciPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import distance as sd

import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings

RNG = np.random.default_rng(7)
XA = RNG.random((9, 4))
XB = RNG.random((7, 4))
W = RNG.random(4) + 0.5

METRICS: list[tuple[Any, dict[str, Any]]] = [
    ("euclidean", {}),
    ("sqeuclidean", {}),
    ("cityblock", {}),
    ("minkowski", {"p": 3}),
    ("minkowski", {"p": 1.5, "w": W}),
    ("chebyshev", {}),
    ("cosine", {}),
    ("correlation", {}),
    ("hamming", {}),
    ("jaccard", {}),
    ("braycurtis", {}),
    ("canberra", {}),
    ("seuclidean", {}),
    ("seuclidean", {"V": W}),
    ("mahalanobis", {}),
    ("euclidean", {"w": W}),
    ("jensenshannon", {}),
    (lambda u, v: np.abs(u - v).max(), {}),
]


@pytest.mark.parametrize(("metric", "kwargs"), METRICS)
def test_cdist_and_pdist_match_scipy(metric: Any, kwargs: dict[str, Any]) -> None:
    for chunks in chunkings(XA.shape):
        xa = mt.tensor(XA, chunk_size=chunks)
        xb = mt.tensor(XB, chunk_size=chunks)
        assert_same(
            mt.spatial.distance.cdist(xa, xb, metric, **kwargs), sd.cdist(XA, XB, metric, **kwargs)
        )
        assert_same(mt.spatial.distance.pdist(xa, metric, **kwargs), sd.pdist(XA, metric, **kwargs))


def test_boolean_metrics_and_aliases() -> None:
    a, b = XA > 0.5, XB > 0.5
    for metric in ["jaccard", "hamming", "dice", "yule", "rogerstanimoto", "russellrao"]:
        with np.errstate(all="ignore"):
            expected = sd.cdist(a, b, metric)
        assert_same(mt.spatial.distance.cdist(mt.tensor(a, chunk_size=3), b, metric), expected)
    assert_same(mt.spatial.distance.pdist(XA, "cheb"), sd.pdist(XA, "chebyshev"))
    assert_same(
        mt.spatial.distance.pdist(XA, "wminkowski", p=3, w=W), sd.pdist(XA, "minkowski", p=3, w=W)
    )


def test_results_are_chunked_by_blocks_of_rows() -> None:
    x = mt.tensor(XA, chunk_size=(4, 2))
    d = mt.spatial.distance.cdist(x, mt.tensor(XB, chunk_size=(3, 4)))
    assert d._layout() == ((4, 4, 1), (3, 3, 1))
    p = mt.spatial.distance.pdist(x)
    assert p.shape == (36,)
    assert p._layout() == ((8 + 7 + 6 + 5, 4 + 3 + 2 + 1, 0),)


@settings(max_examples=10)
@given(st.integers(0, 7), st.integers(1, 6), st.integers(1, 3), st.integers(1, 4), st.booleans())
def test_pdist_shapes(rows: int, cols: int, row_chunk: int, col_chunk: int, tall: bool) -> None:
    x = RNG.normal(size=(rows, cols))
    t = mt.tensor(x, chunk_size=(row_chunk, col_chunk))
    assert_same(mt.spatial.distance.pdist(t, "cityblock"), sd.pdist(x, "cityblock"))
    y = RNG.normal(size=(rows + int(tall), cols))
    assert_same(mt.spatial.distance.cdist(t, mt.tensor(y, chunk_size=row_chunk)), sd.cdist(x, y))


def test_squareform_both_ways() -> None:
    v = sd.pdist(XA)
    m = sd.squareform(v)
    for chunks in chunkings(v.shape):
        assert_same(mt.spatial.distance.squareform(mt.tensor(v, chunk_size=chunks)), m)
    for chunks in chunkings(m.shape):
        assert_same(mt.spatial.distance.squareform(mt.tensor(m, chunk_size=chunks)), v)
        assert_same(
            mt.spatial.distance.squareform(mt.tensor(m, chunk_size=chunks), checks=False), v
        )
    ints = np.arange(1, 4, dtype=np.int32)
    assert_same(mt.spatial.distance.squareform(ints), sd.squareform(ints))
    assert_same(mt.spatial.distance.squareform(np.zeros(0)), sd.squareform(np.zeros(0)))
    assert_same(mt.spatial.distance.squareform(np.zeros((1, 1))), sd.squareform(np.zeros((1, 1))))
    assert_same(mt.spatial.distance.squareform(mt.spatial.distance.pdist(XA)), m)
    # Mars's chunk_size: rows of the square matrix per block
    for size in (1, 4, (3, 3), 20):
        assert_same(mt.spatial.distance.squareform(v, chunk_size=size), m)
        assert_same(mt.spatial.distance.squareform(m, chunk_size=size), v)
    assert mt.spatial.distance.squareform(m, chunk_size=4)._layout() == ((26, 10, 0),)


def test_squareform_rejects_what_scipy_rejects() -> None:
    sf = mt.spatial.distance.squareform
    with pytest.raises(ValueError, match="binomial coefficient"):
        sf(np.arange(4.0))
    with pytest.raises(ValueError, match="must be square"):
        sf(np.ones((2, 3)))
    with pytest.raises(ValueError, match="3-dimensional"):
        sf(np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="Forcing 'tovector'"):
        sf(np.ones(3), force="tovector")
    with pytest.raises(ValueError, match="chunk_size must be a positive int"):
        sf(np.ones(3), chunk_size=0)
    with pytest.raises(ValueError, match="Forcing 'tomatrix'"):
        sf(np.zeros((2, 2)), force="tomatrix")
    # symmetry and the diagonal need the data: checked when executed
    with pytest.raises(ValueError, match="must be symmetric"):
        sf(mt.tensor(np.array([[0, 1], [2, 0.0]]), chunk_size=1)).execute()
    with pytest.raises(ValueError, match="diagonal must be zero"):
        sf(np.ones((1, 1))).execute()


def test_bad_arguments_fail_at_the_call() -> None:
    dist = mt.spatial.distance
    with pytest.raises(ValueError, match="XA must be a 2-dimensional array"):
        dist.cdist(np.ones(3), XB)
    with pytest.raises(ValueError, match="XB must be a 2-dimensional array"):
        dist.cdist(XA, np.ones(3))
    with pytest.raises(ValueError, match="same number of columns"):
        dist.cdist(XA, np.ones((2, 3)))
    with pytest.raises(ValueError, match="A 2-dimensional array must be passed"):
        dist.pdist(np.ones(3))
    with pytest.raises(ValueError, match="Unknown Distance Metric: foo"):
        dist.pdist(XA, "foo")
    with pytest.raises(TypeError, match="string identifier or a function"):
        dist.pdist(XA, 3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'p'"):
        dist.cdist(XA, XB, "euclidean", p=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'w'"):
        dist.pdist(XA, "seuclidean", w=W)
    with pytest.raises(ValueError, match="Weights must have same size as input vector. 2 vs. 4"):
        dist.cdist(XA, XB, "minkowski", w=np.ones(2))
    with pytest.raises(ValueError, match="Variance vector V must be of the same dimension"):
        dist.cdist(XA, XB, "seuclidean", V=np.ones(2))
    with pytest.raises(ValueError, match=r"number of observations \(3\) is too small"):
        dist.pdist(XA[:3], "mahalanobis")
    with pytest.raises(ValueError, match="p must be greater than 0"):
        dist.pdist(XA, "minkowski", p=0)
    # negative weights need the data: SciPy's error when executed
    with pytest.raises(ValueError, match="non-negative"):
        dist.pdist(mt.tensor(XA, chunk_size=4), "euclidean", w=-W).execute()


def test_out_rebinds_the_given_tensor() -> None:
    out = mt.empty((9, 7))
    result = mt.spatial.distance.cdist(XA, XB, out=out)
    assert result is out
    assert_same(out, sd.cdist(XA, XB))
    with pytest.raises(ValueError, match="incorrect shape"):
        mt.spatial.distance.pdist(XA, out=mt.empty(3))
    with pytest.raises(TypeError, match="must be a tensor"):
        mt.spatial.distance.pdist(XA, out=np.empty(36))


def test_rows_whose_number_a_filter_decides() -> None:
    t = mt.tensor(XA, chunk_size=(4, 2))
    kept = t[t[:, 0] > 0.3]
    rows = XA[XA[:, 0] > 0.3]
    assert_same(mt.spatial.distance.cdist(kept, XB, "cosine"), sd.cdist(rows, XB, "cosine"))
    assert_same(mt.spatial.distance.pdist(kept), sd.pdist(rows))
    assert_same(mt.spatial.distance.pdist(kept, "seuclidean"), sd.pdist(rows, "seuclidean"))

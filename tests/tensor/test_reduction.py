"""Reductions, arg-reductions and scans against NumPy: values, shapes, dtypes, warnings
and errors, over several chunkings and fan-ins."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars
import jupyter_mars.tensor as mt
from jupyter_mars.engine.graph import Ref
from jupyter_mars.engine.node import Node, Op, TileContext, Tiled, key_grid, tile_rule
from jupyter_mars.engine.plan import plan_stages
from jupyter_mars.tensor.core import new_tensor
from tests.conftest import assert_same, chunkings

REDUCTIONS = [
    "sum", "prod", "max", "min", "mean", "var", "std", "ptp", "count_nonzero", "any", "all",
    "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd",
]  # fmt: skip
MOMENTS = {"var", "std", "nanvar", "nanstd"}
ARG_REDUCTIONS = ["argmax", "argmin", "nanargmax", "nanargmin"]
SCANS = ["cumsum", "cumprod", "nancumsum", "nancumprod"]


def data(shape: tuple[int, ...], seed: int = 0, nans: bool = False) -> np.ndarray:
    """Halves in [-1.5, 1.5]: many ties and zeros, products stay finite."""
    rng = np.random.default_rng(seed)
    x = rng.integers(-3, 4, size=shape).astype(np.float64) / 2
    if nans:
        x[rng.random(shape) < 0.25] = np.nan
    return x


def run_numpy(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """NumPy's result (or exception) and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - compared with ours
            result = exc
    return result, [str(w.message) for w in caught]


def build(func: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """Our tensor (or the exception raised when building it) and the warnings given then;
    execution happens later, outside, where any warning is an error."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - compared with NumPy's
            result = exc
    return result, [str(w.message) for w in caught]


def check_like_numpy(
    name: str, x: np.ndarray, chunks: Any, tol: float = 1e-7, **kwargs: Any
) -> None:
    expected, np_warnings = run_numpy(getattr(np, name), x, **kwargs)
    got, our_warnings = build(getattr(mt, name), mt.tensor(x, chunk_size=chunks), **kwargs)
    if isinstance(expected, Exception):
        assert type(got) is type(expected), (got, expected)
        return
    assert not isinstance(got, Exception), got
    if not name.startswith("nan"):  # NumPy's NaN-slice warnings depend on the data
        assert bool(our_warnings) == bool(np_warnings), (our_warnings, np_warnings)
    assert_same(got, expected, rtol=tol, atol=1e-12)


# ---- every reduction over chunkings -------------------------------------------------------------


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("chunks", chunkings((5, 6)))
def test_reduction_matches_numpy_for_every_axis_and_chunking(name: str, chunks: Any) -> None:
    x = data((5, 6), nans=name.startswith("nan"))
    for axis in [None, 0, 1, -1, (0, 1), (1, -2), ()]:
        for keepdims in (False, True):
            check_like_numpy(name, x, chunks, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_of_3d_tensor_over_axis_pairs(name: str) -> None:
    x = data((4, 3, 5), seed=1, nans=name.startswith("nan"))
    for chunks in chunkings(x.shape):
        for axis in [(0, 2), (2, 1), (-1, 0, 1)]:
            check_like_numpy(name, x, chunks, axis=axis)


@pytest.mark.parametrize("name", ARG_REDUCTIONS)
@pytest.mark.parametrize("chunks", chunkings((5, 6)))
def test_arg_reduction_matches_numpy_including_ties(name: str, chunks: Any) -> None:
    x = data((5, 6), seed=2)  # many equal values: the first occurrence must win
    for axis in [None, 0, 1, -1, -2]:
        for keepdims in (False, True):
            check_like_numpy(name, x, chunks, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("name", SCANS)
@pytest.mark.parametrize("chunks", chunkings((5, 6)))
def test_scan_matches_numpy_for_every_axis(name: str, chunks: Any) -> None:
    x = data((5, 6), seed=3, nans=name.startswith("nan"))
    for axis in [None, 0, 1, -1, -2]:
        check_like_numpy(name, x, chunks, axis=axis)


@pytest.mark.parametrize("name", SCANS)
def test_scan_of_3d_tensor_flattens_in_c_order(name: str) -> None:
    x = data((3, 4, 5), seed=4, nans=name.startswith("nan"))
    for chunks in [*chunkings(x.shape), (2, 3, 2)]:
        check_like_numpy(name, x, chunks)
        check_like_numpy(name, x, chunks, axis=1)


@pytest.mark.parametrize("name", ARG_REDUCTIONS)
def test_arg_reduction_flat_index_when_chunks_interleave_flat_order(name: str) -> None:
    # chunk (0, 1) holds flat index 2 while chunk (1, 0) holds 4: ties resolved by index
    x = np.zeros((4, 4))
    x[0, 2] = x[2, 0] = x[1, 1] = 5.0 if "max" in name else -5.0
    for chunks in [2, (1, 3), (3, 1)]:
        check_like_numpy(name, x, chunks)


# ---- Hypothesis: shapes, chunks, axes, keepdims, ddof -------------------------------------------


@st.composite
def tensors(draw: Any, nans: bool = False) -> tuple[np.ndarray, tuple[int, ...]]:
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    chunks = tuple(draw(st.integers(1, n)) for n in shape)
    return data(shape, seed=draw(st.integers(0, 2**16)), nans=nans), chunks


def axes_for(ndim: int) -> st.SearchStrategy[Any]:
    one = st.integers(-ndim, ndim - 1)
    several = st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).flatmap(
        lambda axes: st.tuples(*(st.sampled_from([a, a - ndim]) for a in axes))
    )
    return st.one_of(st.none(), one, several)


@given(st.data(), st.sampled_from(REDUCTIONS))
def test_reduction_hypothesis_shapes_chunks_axes(hyp: Any, name: str) -> None:
    x, chunks = hyp.draw(tensors(nans=name.startswith("nan")))
    kwargs: dict[str, Any] = {
        "axis": hyp.draw(axes_for(x.ndim)),
        "keepdims": hyp.draw(st.booleans()),
    }
    if name in MOMENTS:
        kwargs["ddof"] = hyp.draw(st.integers(0, 2))
    check_like_numpy(name, x, chunks, **kwargs)


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


@given(st.data(), st.sampled_from(SCANS))
def test_scan_hypothesis_shapes_chunks_axes(hyp: Any, name: str) -> None:
    x, chunks = hyp.draw(tensors(nans=name.startswith("nan")))
    axis = hyp.draw(st.one_of(st.none(), st.integers(-x.ndim, x.ndim - 1)))
    check_like_numpy(name, x, chunks, axis=axis)


# ---- dtypes -------------------------------------------------------------------------------------


DTYPE_CASES = [
    ("sum", np.int32, {}),
    ("sum", np.uint8, {}),
    ("sum", np.bool_, {}),
    ("sum", np.int8, {"dtype": np.int8}),
    ("sum", np.float32, {}),
    ("sum", np.int64, {"dtype": np.float32}),
    ("prod", np.int16, {}),
    ("prod", np.float32, {"dtype": np.float64}),
    ("max", np.int8, {}),
    ("min", np.uint16, {}),
    ("max", np.bool_, {}),
    ("any", np.int64, {}),
    ("all", np.float32, {}),
    ("count_nonzero", np.float32, {}),
    ("ptp", np.int8, {}),
    ("mean", np.int32, {}),
    ("mean", np.bool_, {}),
    ("mean", np.float16, {}),
    ("mean", np.int32, {"dtype": np.int32}),
    ("mean", np.complex64, {}),
    ("var", np.int16, {}),
    ("var", np.float32, {}),
    ("var", np.complex128, {}),
    ("var", np.complex64, {"ddof": 1}),
    ("var", np.int64, {"dtype": np.float32}),
    ("std", np.uint8, {"ddof": 1}),
    ("std", np.float16, {}),
    ("nansum", np.int32, {}),
    ("nanprod", np.int8, {}),
    ("nanmax", np.int32, {}),
    ("nanmean", np.int16, {}),
    ("nanmean", np.float32, {}),
    ("nanvar", np.bool_, {}),
    ("nanstd", np.float32, {}),
    ("argmax", np.bool_, {}),
    ("argmin", np.uint8, {}),
    ("nanargmax", np.int32, {}),
    ("cumsum", np.int32, {}),
    ("cumsum", np.bool_, {}),
    ("cumsum", np.int64, {"dtype": np.float32}),
    ("cumprod", np.float16, {}),
    ("nancumsum", np.int8, {}),
    ("nancumprod", np.float32, {}),
]


@pytest.mark.parametrize(("name", "dtype", "kwargs"), DTYPE_CASES)
def test_result_dtype_and_values_match_numpy(name: str, dtype: Any, kwargs: dict[str, Any]) -> None:
    rng = np.random.default_rng(5)
    x = (rng.integers(0, 4, size=(6, 5)) + (1j if np.dtype(dtype).kind == "c" else 0)).astype(dtype)
    if np.dtype(dtype) == np.int8 and name in {"sum", "ptp"}:
        x[0, :] = [-100, 100, 90, 80, -70]  # wraps around, as in NumPy
    tol = 2e-3 if np.dtype(dtype) == np.float16 else 1e-5
    for chunks in chunkings(x.shape):
        check_like_numpy(name, x, chunks, tol=tol, **kwargs)
        if not name.startswith(("arg", "nanarg", "cum", "nancum")):
            check_like_numpy(name, x, chunks, tol=tol, axis=0, **kwargs)


def test_sum_with_initial_is_applied_once() -> None:
    x = data((6, 4))
    for name in ["sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin"]:
        for chunks in chunkings(x.shape):
            check_like_numpy(name, x, chunks, initial=1.25)
            check_like_numpy(name, x, chunks, axis=0, initial=-3)


def test_min_max_with_initial_on_empty_axis_give_initial() -> None:
    x = np.empty((0, 3))
    assert_same(mt.min(mt.tensor(x), axis=0, initial=5), np.min(x, axis=0, initial=5))
    assert_same(mt.nanmax(mt.tensor(x), initial=-1), np.nanmax(x, initial=-1))


# ---- precision and fan-in -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_variance_keeps_precision_with_large_offset(name: str) -> None:
    rng = np.random.default_rng(6)
    x = 1e9 + rng.standard_normal((400, 3))
    for chunks in [(7, 3), (1, 1), (400, 3)]:
        for axis in [None, 0]:
            got = getattr(mt, name)(mt.tensor(x, chunk_size=chunks), axis=axis, ddof=1)
            expected = getattr(np, name)(x, axis=axis, ddof=1)
            np.testing.assert_allclose(got.execute().fetch(), expected, rtol=1e-6)
    # the naive sum-of-squares formula would lose every digit here
    naive = (np.sum(x**2) - np.sum(x) ** 2 / x.size) / (x.size - 1)
    assert not np.isclose(naive, np.var(x, ddof=1), rtol=1e-2)


@pytest.mark.parametrize("name", REDUCTIONS + ARG_REDUCTIONS + SCANS)
def test_combine_size_two_and_eight_give_the_same_result(name: str) -> None:
    x = data((17, 3), seed=7, nans=name.startswith("nan"))
    x[0, :] = 1.0  # no all-NaN column
    results = []
    for size in (2, 8):
        with jupyter_mars.option_context({"combine_size": size}):
            t = getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=0)
        results.append(t.execute().fetch())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12, atol=1e-15)
    assert results[0].dtype == results[1].dtype
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(np, name)(x, axis=0)
    assert_same(results[0], expected, atol=1e-12)


# ---- empty inputs, NaN slices and NumPy's warnings ----------------------------------------------


@pytest.mark.parametrize(
    "name", ["min", "max", "nanmin", "nanmax", "ptp", "argmin", "argmax", "nanargmax"]
)
def test_reduction_without_identity_of_empty_axis_raises_at_build(name: str) -> None:
    t = mt.tensor(np.empty((0, 3)))
    with pytest.raises(ValueError, match="empty|zero-size"):
        getattr(mt, name)(t, axis=0)
    with pytest.raises(ValueError, match="empty|zero-size"):
        getattr(mt, name)(t)
    # reducing the non-empty axis of an empty tensor is fine
    assert_same(getattr(mt, name)(t, axis=1), getattr(np, name)(np.empty((0, 3)), axis=1))


@pytest.mark.parametrize(
    "name", ["sum", "prod", "nansum", "nanprod", "any", "all", "count_nonzero"]
)
def test_reduction_with_identity_of_empty_tensor(name: str) -> None:
    x = np.empty((0, 3))
    for axis in [None, 0, 1]:
        assert_same(getattr(mt, name)(mt.tensor(x), axis=axis), getattr(np, name)(x, axis=axis))


@pytest.mark.parametrize("name", ["mean", "nanmean", "var", "std", "nanvar", "nanstd"])
def test_mean_and_variance_of_empty_slice_warn_like_numpy(name: str) -> None:
    x = np.empty((0, 3))
    with pytest.warns(RuntimeWarning):
        got = getattr(mt, name)(mt.tensor(x), axis=0)
    with pytest.warns(RuntimeWarning):
        expected = getattr(np, name)(x, axis=0)
    assert_same(got, expected)
    assert_same(getattr(mt, name)(mt.tensor(x), axis=1), getattr(np, name)(x, axis=1))


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_ddof_not_below_count_warns_like_numpy(name: str) -> None:
    x = np.array([[1.0, 2.0], [3.0, 5.0]])
    for ddof in (2, 3):
        with pytest.warns(RuntimeWarning) as record:
            got = getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=0, ddof=ddof)
        assert any("Degrees of freedom" in str(w.message) for w in record)
        with pytest.warns(RuntimeWarning):
            expected = getattr(np, name)(x, axis=0, ddof=ddof)
        assert_same(got, expected)


@pytest.mark.parametrize("name", ["nanmin", "nanmax", "nanmean", "nanvar", "nanstd"])
def test_all_nan_slice_gives_nan_without_warning_from_kernels(name: str) -> None:
    x = np.array([[np.nan, 1.0, np.nan], [np.nan, np.nan, 2.0], [np.nan, 4.0, np.nan]])
    with pytest.warns(RuntimeWarning):
        expected = getattr(np, name)(x, axis=0)
    for chunks in chunkings(x.shape):
        got = getattr(mt, name)(mt.tensor(x, chunk_size=chunks), axis=0)
        assert_same(got, expected)  # warnings are errors here: none may leak from kernels


@pytest.mark.parametrize("name", ["nansum", "nanprod", "nancumsum", "nancumprod"])
def test_nan_sum_product_of_all_nan_is_identity(name: str) -> None:
    x = np.full((3, 4), np.nan)
    for chunks in chunkings(x.shape):
        assert_same(
            getattr(mt, name)(mt.tensor(x, chunk_size=chunks), axis=0), getattr(np, name)(x, axis=0)
        )


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nanarg_of_all_nan_slice_raises_when_executed(name: str) -> None:
    x = np.array([[np.nan, 1.0], [np.nan, 2.0]])
    t = getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=0)
    with pytest.raises(ValueError, match="All-NaN slice"):
        t.execute()
    assert_same(getattr(mt, name)(mt.tensor(x, chunk_size=1), axis=1), getattr(np, name)(x, axis=1))


@pytest.mark.parametrize("name", ["argmax", "argmin", "max", "min", "ptp"])
def test_nan_propagates_and_first_nan_wins(name: str) -> None:
    x = np.array([[1.0, np.nan, 3.0, np.nan], [5.0, 0.0, np.nan, 2.0], [1.0, 2.0, 3.0, 4.0]])
    for chunks in chunkings(x.shape):
        for axis in [None, 0, 1]:
            check_like_numpy(name, x, chunks, axis=axis)


def test_infinities_tie_with_replaced_nans_like_numpy() -> None:
    x = np.array([np.nan, np.inf, np.inf, -np.inf, np.nan, -np.inf])
    for chunks in [1, 2, 4]:
        check_like_numpy("nanargmin", x, chunks)
        check_like_numpy("nanargmax", x, chunks)


def test_zero_dim_tensor_reductions_and_scans() -> None:
    x = np.array(2.5)
    for name in REDUCTIONS + ARG_REDUCTIONS:
        check_like_numpy(name, x, ())
    for name in SCANS:
        check_like_numpy(name, x, (), axis=0)
        check_like_numpy(name, x, ())
    check_like_numpy("argmax", x, (), axis=-1)


def test_scans_of_empty_tensor() -> None:
    x = np.empty((0, 3))
    for name in SCANS:
        for axis in [None, 0, 1]:
            check_like_numpy(name, x, (1, 2), axis=axis)


# ---- unknown chunk lengths (a filter whose output sizes depend on the data) ---------------------


@dataclass(frozen=True, eq=False)
class _KeepPositive(Op):
    pass


def _keep_positive(block: Any) -> Any:
    return block[block > 0]


@tile_rule(_KeepPositive)
def _tile_keep_positive(node: Node, inputs: list[Tiled], ctx: TileContext) -> Tiled:
    (x,) = inputs
    grid = key_grid(node.key, x.numblocks)
    for i in range(x.numblocks[0]):
        ctx.add_blockwise(grid[i], _keep_positive, (Ref(x.keys[i]),), {})
    return Tiled(((math.nan,) * x.numblocks[0],), grid)


def keep_positive(x: np.ndarray, chunks: int) -> Any:
    t = mt.tensor(x, chunk_size=chunks)
    return new_tensor(_KeepPositive(), [t], (math.nan,), t.dtype)


@pytest.mark.parametrize("name", REDUCTIONS + ARG_REDUCTIONS + SCANS)
def test_reductions_of_unknown_length_chunks_some_empty(name: str) -> None:
    x = np.array([-1.0, -2.0, 3.0, 0.5, -4.0, -1.0, 2.0, 2.0, 7.0, -3.0, 0.25])
    kept = x[x > 0]
    t = keep_positive(x, 2)  # chunks [-1, -2] and [-4, -1] become empty
    assert_same(getattr(mt, name)(t), getattr(np, name)(kept))


def test_min_of_unknown_length_all_empty_raises_when_executed() -> None:
    t = keep_positive(np.array([-1.0, -2.0, -3.0]), 2)
    with pytest.raises(ValueError, match="zero-size"):
        mt.min(t).execute()
    with pytest.raises(ValueError, match="empty sequence"):
        mt.argmax(t).execute()


# ---- scan tiling --------------------------------------------------------------------------------


def test_scan_tasks_grow_linearly_and_read_at_most_two_chunks() -> None:
    x = np.arange(64.0).reshape(16, 4)
    t = mt.cumsum(mt.tensor(x, chunk_size=(2, 2)), axis=0)  # 8 x 2 chunks
    stage = next(plan_stages([t.node], {}))
    assert len(stage.graph) <= 4 * 16
    assert max(len(task.dependencies) for task in stage.graph.values()) <= 2
    result = t.execute()
    assert_same(result, np.cumsum(x, axis=0))


def test_flattening_scan_keeps_chunks_no_bigger_than_input_chunks(session: Any) -> None:
    x = np.arange(120.0).reshape(2, 6, 10)
    for chunks, biggest in [((1, 3, 4), 12), ((2, 6, 10), 120), ((1, 6, 5), 30)]:
        t = mt.cumsum(mt.tensor(x, chunk_size=chunks))
        assert_same(t, np.cumsum(x))
        (lengths,) = session.engine.executed[t.key].nsplits
        assert sum(lengths) == 120
        assert max(lengths) <= biggest


# ---- average ------------------------------------------------------------------------------------


def test_average_without_weights_matches_numpy() -> None:
    x = data((4, 5), seed=8)
    for chunks in chunkings(x.shape):
        t = mt.tensor(x, chunk_size=chunks)
        for axis in [None, 0, (1, 0)]:
            for keepdims in (False, True):
                assert_same(
                    mt.average(t, axis=axis, keepdims=keepdims),
                    np.average(x, axis=axis, keepdims=keepdims),
                )
                avg, scl = mt.average(t, axis=axis, returned=True, keepdims=keepdims)
                exp_avg, exp_scl = np.average(x, axis=axis, returned=True, keepdims=keepdims)
                assert_same(avg, exp_avg)
                assert_same(scl, exp_scl)


def test_average_with_weights_matches_numpy() -> None:
    rng = np.random.default_rng(9)
    x = rng.integers(0, 10, size=(4, 3, 5))
    full = rng.random((4, 3, 5))
    cases: list[tuple[Any, Any]] = [
        (None, full),
        (1, rng.random(3)),
        (-1, rng.random(5).astype(np.float32)),
        ((2, 0), rng.random((5, 4))),
        ((0, 2), rng.random((4, 5))),
        ((0, 1, 2), full),
    ]
    for chunks in chunkings(x.shape):
        t = mt.tensor(x, chunk_size=chunks)
        for axis, w in cases:
            for keepdims in (False, True):
                for weights in (w, mt.tensor(w, chunk_size=2)):
                    avg, scl = mt.average(
                        t, axis=axis, weights=weights, returned=True, keepdims=keepdims
                    )
                    exp_avg, exp_scl = np.average(
                        x, axis=axis, weights=w, returned=True, keepdims=keepdims
                    )
                    assert_same(avg, exp_avg)
                    assert_same(scl, exp_scl)


def test_average_dtype_of_float32_data_and_float16_weights() -> None:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    w = np.ones(2, dtype=np.float16)
    avg, scl = mt.average(mt.tensor(x), axis=0, weights=w, returned=True)
    exp_avg, exp_scl = np.average(x, axis=0, weights=w, returned=True)
    assert_same(avg, exp_avg)
    assert_same(scl, exp_scl)


def test_average_bad_weights() -> None:
    x = mt.tensor(np.ones((2, 3)))
    with pytest.raises(TypeError, match="Axis must be specified"):
        mt.average(x, weights=np.ones(3))
    with pytest.raises(ValueError, match="Shape of weights"):
        mt.average(x, axis=1, weights=np.ones(2))
    with pytest.raises(ValueError, match="Shape of weights"):
        mt.average(x, axis=1, weights=np.ones((3, 1)))
    with pytest.raises(np.exceptions.AxisError):
        mt.average(x, axis=2, weights=np.ones(3))
    zero = mt.average(x, axis=1, weights=np.zeros(3))
    with pytest.raises(ZeroDivisionError, match="Weights sum to zero"):
        zero.execute()


# ---- methods and NumPy dispatch -----------------------------------------------------------------


def test_tensor_methods_follow_numpy_2_ndarray() -> None:
    x = data((5, 4), seed=10)
    t = mt.tensor(x, chunk_size=2)
    assert_same(t.var(ddof=1), x.var(ddof=1))
    assert_same(t.std(axis=0, keepdims=True), x.std(axis=0, keepdims=True))
    assert_same(t.argmax(axis=0), x.argmax(axis=0))
    assert_same(t.argmin(), x.argmin())
    assert_same(t.cumsum(), x.cumsum())
    assert_same(t.cumprod(axis=1), x.cumprod(axis=1))
    assert_same(t.sum(axis=1, dtype=np.float32), x.sum(axis=1, dtype=np.float32))
    assert_same(t.mean(), x.mean())
    assert_same(t.max(axis=-1), x.max(axis=-1))
    assert_same(t.min(initial=-2.0), x.min(initial=-2.0))
    assert_same(t.prod(axis=0), x.prod(axis=0))
    assert_same(t.any(axis=0), x.any(axis=0))
    assert_same(t.all(), x.all())
    assert not hasattr(t, "ptp")  # ndarray.ptp is gone in NumPy 2


def test_numpy_functions_dispatch_to_tensor_reductions() -> None:
    x = data((4, 4), seed=11, nans=True)
    t = mt.tensor(x, chunk_size=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.nanvar(x, axis=0)
    result = np.nanvar(t, axis=0)
    assert isinstance(result, mt.Tensor)
    assert_same(result, expected)
    assert_same(np.cumsum(t, axis=1), np.cumsum(x, axis=1))
    assert_same(np.count_nonzero(t, axis=0), np.count_nonzero(x, axis=0))


def test_correction_is_ddof() -> None:
    x = data((5, 3), seed=12)
    assert_same(mt.var(mt.tensor(x, chunk_size=2), correction=1), np.var(x, correction=1))
    assert_same(mt.nanstd(mt.tensor(x), axis=0, correction=1.5), np.nanstd(x, axis=0, ddof=1.5))


# ---- bad input ----------------------------------------------------------------------------------

ALL_AXIS = REDUCTIONS + ["average"]


@pytest.mark.parametrize("name", ALL_AXIS + ARG_REDUCTIONS + SCANS)
def test_axis_out_of_range_raises_axis_error(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    for axis in (2, -3):
        with pytest.raises(np.exceptions.AxisError):
            getattr(mt, name)(t, axis=axis)


@pytest.mark.parametrize("name", ALL_AXIS)
def test_duplicate_axes_raise_value_error(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match="duplicate"):
        getattr(mt, name)(t, axis=(0, -2))


@pytest.mark.parametrize("name", ALL_AXIS + ARG_REDUCTIONS + SCANS)
def test_non_integer_axis_raises_type_error(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    with pytest.raises(TypeError):
        getattr(mt, name)(t, axis=1.0)


@pytest.mark.parametrize("name", ARG_REDUCTIONS + SCANS)
def test_single_axis_functions_reject_tuples(name: str) -> None:
    with pytest.raises(TypeError, match="axis"):
        getattr(mt, name)(mt.tensor(np.ones((2, 3))), axis=(0,))


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
def test_bad_ddof(name: str) -> None:
    t = mt.tensor(np.ones((2, 3)))
    for ddof in ("1", None, [1]):
        with pytest.raises(TypeError, match="ddof"):
            getattr(mt, name)(t, ddof=ddof)
    with pytest.raises(ValueError, match="ddof and correction"):
        getattr(mt, name)(t, ddof=1, correction=1)


def test_other_bad_arguments() -> None:
    t = mt.tensor(np.ones((2, 3), dtype=np.int8))
    with pytest.raises(TypeError, match="keepdims"):
        mt.sum(t, keepdims=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="out"):
        mt.mean(t, out=np.empty(()))
    with pytest.raises(TypeError, match="where"):
        mt.sum(t, where=np.ones((2, 3), dtype=bool))
    with pytest.raises(TypeError, match="not understood"):
        mt.sum(t, dtype="foo")
    with pytest.raises(OverflowError):
        mt.max(t, initial=300)
    with pytest.raises(TypeError):
        mt.ptp(mt.tensor(np.ones(3, dtype=bool)))
    with pytest.raises(TypeError):
        mt.mean(mt.tensor(np.array(["a", "b"])))
    with pytest.raises(TypeError, match="out"):
        mt.cumsum(t, out=np.empty((2, 3)))

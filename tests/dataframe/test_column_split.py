"""Frames split by columns as well as rows (``chunk_size=(rows, cols)``), against pandas.

Each operation that keeps the split is checked over several grids and for not merging
the column chunks; the others are checked to give pandas' results through the fallback
that merges them."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.config import option_context
from jupyter_mars.dataframe.chunks import column_splits
from jupyter_mars.engine.plan import inputs_for, plan_context, tile_rule_for

GRIDS = [(1, 1), (3, 2), (8, 3), (5, 4)]
"""(rows, cols) per chunk: one value each, uneven both ways, all rows, few columns."""

REDUCTIONS = ["sum", "prod", "count", "min", "max", "any", "all", "mean", "var", "std", "sem"]


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "i": [3, -1, 4, 1, 5, 9, 2, 6],
            "f": [1.5, np.nan, 2.25, -3.0, np.nan, 4.0, 0.5, 8.0],
            "b": [True, False, True, True, False, True, True, True],
            "n": [np.nan] * 8,
            "s": list("abcdefgh"),
            "t": pd.date_range("2020", periods=8),
            "j": np.arange(8, dtype="int32"),
        },
        index=pd.Index(np.arange(8) * 3, name="id"),
    )


def _numbers() -> pd.DataFrame:
    data = np.random.default_rng(0).standard_normal((9, 5))
    data[2, 1] = data[6, 3] = np.nan
    return pd.DataFrame(data, columns=list("abcde"))


def _tile(lazy: Any) -> tuple[Any, list[Any]]:
    """The tiled form of ``lazy``, and the frames whose column chunks its plan merged."""
    ctx, order = plan_context([lazy.node], {})
    tiled: dict[str, Any] = {}
    for node in order:
        tiled[node.key] = tile_rule_for(node)(node, inputs_for(node, tiled, ctx), ctx)
    merged = [note for note in ctx.notes if note[0] == "merged-columns"]
    return tiled[lazy.node.key], merged


def _same(lazy: Any, expected: Any) -> None:
    got = lazy.to_pandas()
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


def _kept_split(lazy: Any, n_col_chunks: int | None = None) -> None:
    tiled, merged = _tile(lazy)
    assert not merged, "the column chunks were merged"
    if n_col_chunks is not None:
        assert tiled.keys.shape[1] == n_col_chunks


def test_column_splits_reads_the_cols_of_chunk_size() -> None:
    assert column_splits(7, (3, 2)) == (2, 2, 2, 1)
    assert column_splits(7, (3, 7)) is None
    assert column_splits(7, 3) is None
    with pytest.raises(ValueError, match="cols"):
        md.DataFrame(_numbers(), chunk_size=(3, 0))
    with pytest.raises(TypeError, match="cols"):
        md.DataFrame(_numbers(), chunk_size=(3, 1.5))


@pytest.mark.parametrize("grid", GRIDS)
def test_a_split_frame_executes_to_its_data(grid: tuple[int, int]) -> None:
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=grid)
    _same(df, pdf)
    tiled, _ = _tile(df)
    assert tiled.nsplits[1] == column_splits(7, grid)
    assert df.shape == (8, 7)


@pytest.mark.parametrize("grid", GRIDS[1:])
@pytest.mark.parametrize("how", REDUCTIONS)
@pytest.mark.parametrize("only", [False, True])
def test_reductions_down_the_rows_work_per_column_chunk(
    grid: tuple[int, int], how: str, only: bool
) -> None:
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=grid)
    kwargs = {"bool_only" if how in ("any", "all") else "numeric_only": only}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            expected = getattr(pdf, how)(**kwargs)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(df, how)(**kwargs)
        return
    lazy = getattr(df, how)(**kwargs)
    _same(lazy, expected)
    _kept_split(lazy)


@pytest.mark.parametrize("grid", [(2, 2), (4, 3), (9, 1)])
@pytest.mark.parametrize("how", ["sum", "prod", "count", "min", "max", "mean"])
def test_row_reductions_merge_the_partials_of_column_chunks(
    grid: tuple[int, int], how: str
) -> None:
    pdf = _numbers()
    pdf.iloc[4, :] = np.nan
    pdf["i"] = np.arange(9)
    pdf["j"] = np.arange(9, dtype="int32")
    for frame in (pdf, pdf[["i", "j"]], pdf.iloc[:0]):
        df = md.DataFrame(frame, chunk_size=grid)
        for skipna in (True, False):
            kwargs = {} if how == "count" else {"skipna": skipna}
            lazy = getattr(df, how)(axis=1, **kwargs)
            _same(lazy, getattr(frame, how)(axis=1, **kwargs))
            _kept_split(lazy)
    with_text = _frame()
    df = md.DataFrame(with_text, chunk_size=grid)
    only = {} if how == "count" else {"numeric_only": True}
    _same(getattr(df, how)(axis=1, **only), getattr(with_text, how)(axis=1, **only))


@pytest.mark.parametrize("grid", GRIDS)
def test_element_wise_operations_keep_the_split(grid: tuple[int, int]) -> None:
    pdf = _numbers()
    df = md.DataFrame(pdf, chunk_size=grid)
    cases = [
        (df + 1, pdf + 1),
        (2 * df - df, 2 * pdf - pdf),
        (df > 0, pdf > 0),
        (abs(df), abs(pdf)),
        (df.round(1), pdf.round(1)),
        (df.clip(-0.5, 0.5), pdf.clip(-0.5, 0.5)),
        (df.isna(), pdf.isna()),
        (df.notna(), pdf.notna()),
        (df.astype("float32"), pdf.astype("float32")),
        (df.fillna(0), pdf.fillna(0)),
    ]
    for lazy, expected in cases:
        _same(lazy, expected)
        _kept_split(lazy)


@pytest.mark.parametrize("grid", GRIDS)
def test_column_selections_read_the_chunks_that_hold_them(grid: tuple[int, int]) -> None:
    pdf = _frame()
    df = md.DataFrame(pdf, chunk_size=grid)
    for key in ["f", "t", ["s", "i", "f"], ["j"], ["i", "f", "b", "n"], ["n", "n"]]:
        lazy = df[key]
        _same(lazy, pdf[key])
        _kept_split(lazy)
    lazy = df.iloc[:, [6, 0, 1]]
    _same(lazy, pdf.iloc[:, [6, 0, 1]])
    _kept_split(lazy)


def test_selecting_one_column_chunk_reads_only_it() -> None:
    df = md.DataFrame(_numbers(), chunk_size=(4, 2))
    tiled, _ = _tile(df[["c", "d"]])
    assert tiled.keys.shape == (3, 1)


@pytest.mark.parametrize("grid", GRIDS)
def test_row_filters_apply_one_mask_to_every_column_chunk(grid: tuple[int, int]) -> None:
    pdf = _numbers()
    df = md.DataFrame(pdf, chunk_size=grid)
    cases = [
        (df[df["a"] > 0], pdf[pdf["a"] > 0]),
        (df[(df.a > 0) | (df.e < 0)], pdf[(pdf.a > 0) | (pdf.e < 0)]),
        (df[df.b.notna()].mean(), pdf[pdf.b.notna()].mean()),
        (df[df.a > 0][["e", "a"]] * 2, pdf[pdf.a > 0][["e", "a"]] * 2),
    ]
    for lazy, expected in cases:
        _same(lazy, expected)
        _kept_split(lazy)
    # a mask on another index is aligned on labels
    mask = pd.Series(pdf["c"].to_numpy() > 0, index=pdf.index)[::-1]
    _same(df[md.Series(mask, chunk_size=4)], pdf[mask.reindex(pdf.index)])


@pytest.mark.parametrize("grid", GRIDS[1:])
def test_other_operations_merge_the_column_chunks_and_match_pandas(grid: tuple[int, int]) -> None:
    pdf = _frame()
    nums = _numbers()
    df = md.DataFrame(pdf, chunk_size=grid)
    dn = md.DataFrame(nums, chunk_size=grid)
    cases = [
        (dn.sum(axis=1, min_count=3), nums.sum(axis=1, min_count=3)),
        (dn.var(axis=1), nums.var(axis=1)),
        (dn[(dn > 0).all(axis=1)], nums[(nums > 0).all(axis=1)]),
        (df.sort_values("f"), pdf.sort_values("f")),
        (df.head(3), pdf.head(3)),
        (df.groupby("b").i.sum(), pdf.groupby("b").i.sum()),
        (df.rename(columns={"i": "k"}), pdf.rename(columns={"i": "k"})),
        (df.reset_index(), pdf.reset_index()),
        (df[[]], pdf[[]]),
        (dn - dn.mean(), nums - nums.mean()),
        (dn.cumsum(), nums.cumsum()),
        (df.astype({"i": "float64"}), pdf.astype({"i": "float64"})),
        (md.concat([df, df]), pd.concat([pdf, pdf])),
        (dn.idxmax(), nums.idxmax()),
        (dn.corr(), nums.corr()),
        (dn.describe(), nums.describe()),
        (
            dn.apply(lambda row: row.a - row.e, axis=1),
            nums.apply(lambda row: row.a - row.e, axis=1),
        ),
        (dn.assign(z=dn.a + dn.e), nums.assign(z=nums.a + nums.e)),
        (df.merge(df[["j", "f"]], on="j"), pdf.merge(pdf[["j", "f"]], on="j")),
    ]
    for lazy, expected in cases:
        _same(lazy, expected)
    np.testing.assert_array_equal(np.asarray(dn), nums.to_numpy())


def _wide_mixed() -> pd.DataFrame:
    """Forty columns of the kinds wide blocks reduce dtype by dtype, and of the others."""
    base = _frame()
    columns = {}
    for k in range(40):
        name = base.columns[k % base.shape[1]]
        columns[f"{name}{k}"] = base[name].to_numpy()
    out = pd.DataFrame(columns)
    out["f8"] = [np.nan] * 8
    out["i7"] = out["i7"] * -2
    return out


@pytest.mark.parametrize("grid", [(8, 40), (3, 25)])
@pytest.mark.parametrize("how", REDUCTIONS)
@pytest.mark.parametrize("skipna", [True, False])
def test_wide_blocks_reduce_as_pandas(grid: tuple[int, int], how: str, skipna: bool) -> None:
    pdf = _wide_mixed()
    df = md.DataFrame(pdf, chunk_size=grid)
    kwargs = {"bool_only" if how in ("any", "all") else "numeric_only": True}
    if how != "count":
        kwargs["skipna"] = skipna
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(pdf, how)(**kwargs)
    _same(getattr(df, how)(**kwargs), expected)
    if how in ("min", "max", "count"):
        plain = {k: v for k, v in kwargs.items() if k != "numeric_only"}
        _same(getattr(df, how)(**plain), getattr(pdf, how)(**plain))
    _same(getattr(df.iloc[:0], how)(**kwargs), getattr(pdf.iloc[:0], how)(**kwargs))


def test_an_executed_split_frame_is_read_split_and_merged() -> None:
    pdf = _numbers()
    df = md.DataFrame(pdf, chunk_size=(4, 2))
    df.execute()
    _same(df.sum(), pdf.sum())
    _same(df.sum(axis=1), pdf.sum(axis=1))
    _same(df[df.a > 0], pdf[pdf.a > 0])


def test_a_wide_frame_reduces_and_filters_by_column_chunks() -> None:
    rng = np.random.default_rng(1)
    pdf = pd.DataFrame(rng.standard_normal((200, 10_000)))
    df = md.DataFrame(pdf, chunk_size=(100, 1_000))
    total = df.sum()
    _kept_split(total)
    pd.testing.assert_series_equal(total.to_pandas(), pdf.sum(), check_exact=False)
    pd.testing.assert_series_equal(df.mean().to_pandas(), pdf.mean(), check_exact=False)
    kept = df[df[0] > 0]
    _kept_split(kept, 10)
    pd.testing.assert_frame_equal(kept.to_pandas(), pdf[pdf[0] > 0])


@settings(max_examples=15)
@given(
    rows=st.integers(0, 7),
    cols=st.integers(1, 6),
    row_chunk=st.integers(1, 8),
    col_chunk=st.integers(1, 7),
    seed=st.integers(0, 2**16),
)
def test_split_frames_match_pandas_on_any_grid(
    rows: int, cols: int, row_chunk: int, col_chunk: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    pdf = pd.DataFrame(rng.integers(-3, 4, (rows, cols)), columns=[f"c{k}" for k in range(cols)])
    df = md.DataFrame(pdf, chunk_size=(row_chunk, col_chunk))
    _same(df.sum(), pdf.sum())
    _same(df.max(), pdf.max())
    _same(df[df.c0 > 0], pdf[pdf.c0 > 0])
    _same((df * 2)[list(reversed(pdf.columns))], (pdf * 2)[list(reversed(pdf.columns))])


@pytest.mark.parametrize("chunk_size", [(2, 3), (None, 2), 5, (9, 1), (None, None), (20, 20)])
@pytest.mark.parametrize("grid", [4, (3, 2)])
def test_rechunk_keeps_the_data_in_new_chunks(chunk_size: Any, grid: Any) -> None:
    pdf = _numbers()
    lazy = md.DataFrame(pdf, chunk_size=grid).rechunk(chunk_size)
    _same(lazy, pdf)
    _same(lazy.sum(), pdf.sum())
    _same(lazy[lazy.a > 0], pdf[pdf.a > 0])


def test_rechunk_splits_frames_of_unknown_length_and_read_from_files(tmp_path: Any) -> None:
    pdf = _numbers()
    _same(md.DataFrame(pdf, chunk_size=2)[lambda d: d.a > 0].rechunk((3, 2)), pdf[pdf.a > 0])
    path = tmp_path / "wide.csv"
    pdf.to_csv(path, index=False)
    read = md.read_csv(str(path)).rechunk((4, 2))
    _same(read.mean(), pdf.mean())
    _same(md.Series(pdf.a, chunk_size=2).rechunk(4), pdf.a)
    _same(md.DataFrame(pdf.iloc[:0], chunk_size=2).rechunk((3, 2)), pdf.iloc[:0])


def test_rechunk_checks_chunk_size_where_it_is_called() -> None:
    df = md.DataFrame(_numbers(), chunk_size=4)
    with pytest.raises(ValueError, match="cols"):
        df.rechunk((3, 0))
    with pytest.raises(TypeError, match="chunk_size"):
        df.rechunk("x")
    with pytest.raises(ValueError, match="rows"):
        md.Series(_numbers().a).rechunk((3, 2))


def test_frames_from_tensors_split_their_columns_too() -> None:
    expected = pd.DataFrame(np.arange(30).reshape(6, 5), columns=list("abcde"))
    df = md.DataFrame(
        mt.arange(30, chunk_size=7).reshape(6, 5), columns=list("abcde"), chunk_size=(4, 2)
    )
    _same(df, expected)
    _same(df.sum(), expected.sum())
    _kept_split(df.sum())


def _filter_cases() -> list[pd.DataFrame]:
    rng = np.random.default_rng(4)
    floats = pd.DataFrame(rng.standard_normal((11, 7)), index=[f"r{k}" for k in range(11)])
    ints = pd.DataFrame(rng.integers(-9, 9, (11, 7)), columns=list("abcdefg"))
    dates = pd.DataFrame({k: pd.date_range("2021", periods=11, freq=f"{k + 1}D") for k in range(7)})
    mixed = floats.assign(**{"1": np.arange(11), "4": list("abcdefghijk")})
    # dtypes with and without a compiled gather, and an index with repeated labels
    small = pd.DataFrame(rng.standard_normal((11, 7)).astype(np.float32), index=[3, 1] * 5 + [0])
    octets = pd.DataFrame(rng.integers(0, 255, (11, 7)).astype(np.uint8))
    complexes = floats + 1j * floats.to_numpy()[::-1]
    spans = dates - dates.iloc[0, 0]
    return [floats, ints, ints > 0, dates, mixed, small, octets, complexes, spans]


FILTER_CASES = len(_filter_cases())


@pytest.mark.parametrize("grid", [(11, 3), (4, 3), (3, 2), (5, 1)])
@pytest.mark.parametrize("case", range(FILTER_CASES))
def test_a_filter_gives_one_chunk_per_column_chunk(grid: tuple[int, int], case: int) -> None:
    pdf = _filter_cases()[case]
    df = md.DataFrame(pdf, chunk_size=grid)
    first = pdf.iloc[:, 0]
    bound = np.asarray(first)[3]  # a NumPy scalar (a datetime64 for the dates)
    mask = first > bound if case != 2 else first
    lazy_mask = df.iloc[:, 0] > bound if case != 2 else df.iloc[:, 0]
    for lazy, expected in [
        (df[lazy_mask], pdf[mask]),
        (df[~lazy_mask & lazy_mask], pdf[~mask & mask]),  # no row kept
        (df[lazy_mask | ~lazy_mask], pdf),  # every row kept
    ]:
        tiled, merged = _tile(lazy)
        assert not merged
        assert tiled.keys.shape == (1, -(-pdf.shape[1] // grid[1]))
        _same(lazy, expected)


def test_a_filter_keeps_the_row_chunks_beyond_the_chunk_budget_or_unknown_lengths() -> None:
    pdf = _filter_cases()[0]
    df = md.DataFrame(pdf, chunk_size=(4, 3))
    with option_context(chunk_store_limit=100):
        kept = df[df[0] > 0]
        assert _tile(kept)[0].keys.shape == (3, 3)
        _same(kept, pdf[pdf[0] > 0])
    # a mask on another index keeps the grid, and then the rows' lengths are unknown:
    # one task per chunk of the grid
    aligned = df[md.Series(pdf[0] > 0, chunk_size=5)]
    twice = aligned[aligned[1] > 0]
    assert _tile(aligned)[0].keys.shape == _tile(twice)[0].keys.shape == (3, 3)
    _same(twice, pdf[(pdf[0] > 0) & (pdf[1] > 0)])

"""Grouped aggregations, cumcount, transform, apply and filter against pandas."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.groupby  # noqa: F401 - attaches groupby
from jupyter_mars.dataframe.groupby import plan
from jupyter_mars.engine.graph import Task, get_sync
from jupyter_mars.engine.plan import plan_stages

CHUNKS = [1, 3, None]
PLAIN = ["size", "count", "sum", "mean", "min", "max", "first", "last", "prod"]
NUMERIC = ["var", "std", "median"]


def _frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": [1.0, np.nan, 1.0, 2.0, 3.0, 3.0, 1.0, 2.0, np.nan, 4.0],
            "g": ["a", "b", "a", "b", "a", "b", "a", "b", "a", "a"],
            "v": [1.0, 2.0, 3.0, np.nan, 5.0, 6.0, 7.0, 8.0, 9.0, np.nan],
            "i": [5, 4, 3, 2, 1, 0, 9, 8, 7, 6],
            "b": [True, False, True, True, False, False, True, True, False, True],
            "s": ["p", "q", "r", "s", "t", "u", "v", "w", "x", "y"],
        },
        index=[10, 11, 12, 13, 10, 15, 16, 17, 18, 19],
    )


def _lazy(df: pd.DataFrame, chunk: int | None) -> Any:
    return md.DataFrame(df, chunk_size=chunk or max(len(df), 1))


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, pd.Series):
        pd.testing.assert_series_equal(got, expected, rtol=1e-10)
    else:
        pd.testing.assert_frame_equal(got, expected, rtol=1e-10)


def _check(pairs: list[tuple[Any, Any]]) -> None:
    """Execute the lazy results together, then compare each with pandas'."""
    mars.execute(*(lazy for lazy, _ in pairs))
    for lazy, expected in pairs:
        _same(lazy.to_pandas(), expected)


def _task_keys(result: Any) -> set[str]:
    """Node names of every task the plan of ``result`` runs (fused ones included)."""
    stages = plan_stages([result.node], {})
    names: set[str] = set()
    store: dict[Any, Any] = {}

    def visit(arg: Any) -> None:
        if isinstance(arg, Task):
            names.add(str(arg.key[0] if isinstance(arg.key, tuple) else arg.key))
            for a in arg.args:
                visit(a)
        elif isinstance(arg, (list, tuple)):
            for a in arg:
                visit(a)

    stage = next(stages)
    while True:
        for task in stage.graph.values():
            visit(task)
        values = get_sync(stage.graph, stage.outputs, store)
        store.update(zip(stage.outputs, values))
        shapes = {k: v.shape for k, v in zip(stage.outputs, values) if hasattr(v, "shape")}
        try:
            stage = stages.send(shapes)
        except StopIteration:
            return names


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("dropna", [True, False])
def test_methods_match_pandas(chunk: int | None, dropna: bool) -> None:
    pairs: list[tuple[Any, Any]] = []
    for how in PLAIN:
        _method_pairs(pairs, how, chunk, dropna)
    _check(pairs)


def _method_pairs(pairs: list[Any], how: str, chunk: int | None, dropna: bool) -> None:
    df = _frame()
    mdf = _lazy(df, chunk)
    gb, mgb = df.groupby("k", dropna=dropna), mdf.groupby("k", dropna=dropna)
    try:
        expected = getattr(gb, how)()
    except TypeError:  # strings have no mean or product: the lazy call raises at once too
        with pytest.raises(TypeError):
            getattr(mgb, how)()
        expected = getattr(gb, how)(numeric_only=True)
        pairs.append((getattr(mgb, how)(numeric_only=True), expected))
    else:
        pairs.append((getattr(mgb, how)(), expected))
    pairs.append((getattr(mdf.groupby("g").v, how)(), getattr(df.groupby("g").v, how)()))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_numeric_and_holistic_methods(chunk: int | None) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame()[["k", "g", "v", "i", "b"]]
    mdf = _lazy(df, chunk)
    for how, by in itertools.product(NUMERIC + ["nunique"], ("k", ["g", "b"])):
        kwargs = {} if how == "nunique" else {"numeric_only": True}
        pairs.append(
            (getattr(mdf.groupby(by), how)(**kwargs), getattr(df.groupby(by), how)(**kwargs))
        )
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_ddof_and_numeric_only(chunk: int | None) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame()
    mdf = _lazy(df, chunk)
    for ddof in (0, 2):
        pairs.append(
            (
                mdf.groupby("g").var(ddof=ddof, numeric_only=True),
                df.groupby("g").var(ddof=ddof, numeric_only=True),
            )
        )
        pairs.append((mdf.groupby("g").i.std(ddof=ddof), df.groupby("g").i.std(ddof=ddof)))
    pairs.append(
        (mdf.groupby("g").mean(numeric_only=True), df.groupby("g").mean(numeric_only=True))
    )
    pairs.append((mdf.groupby("g").sum(min_count=3), df.groupby("g").sum(min_count=3)))
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(
    "kwargs", [{"skipna": False}, {"min_count": 2}, {"min_count": 1, "skipna": False}]
)
def test_first_and_last_keywords(chunk: int | None, kwargs: dict[str, Any]) -> None:
    df = pd.DataFrame(
        {"g": list("aabbccd"), "x": [np.nan, 1, 2, np.nan, np.nan, np.nan, 5], "y": range(7)}
    )
    mdf = _lazy(df, chunk)
    pairs: list[tuple[Any, Any]] = []
    for how in ("first", "last"):
        pairs.append(
            (getattr(mdf.groupby("g"), how)(**kwargs), getattr(df.groupby("g"), how)(**kwargs))
        )
        pairs.append(
            (getattr(mdf.groupby("g").x, how)(**kwargs), getattr(df.groupby("g").x, how)(**kwargs))
        )
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_agg_forms(chunk: int | None) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame()
    mdf = _lazy(df, chunk)
    gb, mgb = df.groupby(["g", "b"]), mdf.groupby(["g", "b"])
    pairs.append((mgb.agg("sum"), gb.agg("sum")))
    pairs.append(
        (mgb[["v", "i"]].agg(["mean", "sum", "std"]), gb[["v", "i"]].agg(["mean", "sum", "std"]))
    )
    spec = {"v": ["min", "max"], "s": "first", "i": "median"}
    pairs.append((mgb.agg(spec), gb.agg(spec)))
    pairs.append(
        (mgb.aggregate({"v": "mean", "i": "var"}), gb.aggregate({"v": "mean", "i": "var"}))
    )
    named = {"total": ("v", "sum"), "n": ("s", "count"), "top": ("i", "max")}
    pairs.append((mgb.agg(**named), gb.agg(**named)))
    pairs.append(
        (
            mdf.groupby("g").v.agg(total="sum", avg="mean"),
            df.groupby("g").v.agg(total="sum", avg="mean"),
        )
    )
    pairs.append(
        (
            mdf.groupby("g").i.agg(lambda x: x.max() - x.min()),
            df.groupby("g").i.agg(lambda x: x.max() - x.min()),
        )
    )
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_flags_and_keys(chunk: int | None) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame()
    mdf = _lazy(df, chunk)
    for kwargs in ({"as_index": False}, {"sort": False}, {"as_index": False, "dropna": False}):
        pairs.append(
            (
                mdf.groupby("k", **kwargs)[["v", "i"]].sum(),
                df.groupby("k", **kwargs)[["v", "i"]].sum(),
            )
        )
        pairs.append((mdf.groupby("k", **kwargs).size(), df.groupby("k", **kwargs).size()))
        pairs.append(
            (mdf.groupby(["g", "k"], **kwargs).v.mean(), df.groupby(["g", "k"], **kwargs).v.mean())
        )
    # a lazy Series with the frame's index, a column of the frame, an unaligned Series
    key = mdf["i"] % 3
    pairs.append((mdf.groupby(key).v.sum(), df.groupby(df["i"] % 3).v.sum()))
    pairs.append((mdf.groupby(mdf["g"]).sum(), df.groupby(df["g"]).sum()))
    unique = df.reset_index(drop=True)
    other = pd.Series([0, 1, 1] * 3 + [0], index=unique.index[::-1], name="z")
    pairs.append(
        (
            _lazy(unique, chunk).groupby(md.Series(other, chunk_size=4)).i.sum(),
            unique.groupby(other).i.sum(),
        )
    )
    ms = md.Series(df["v"], chunk_size=chunk or 10)
    pairs.append((ms.groupby(key).mean(), df["v"].groupby(df["i"] % 3).mean()))
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_level_keys(chunk: int | None) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame().set_index(["g", "b"])
    mdf = _lazy(df, chunk)
    pairs.append((mdf.groupby(level=0).v.sum(), df.groupby(level=0).v.sum()))
    pairs.append((mdf.groupby(level=["g", "b"]).i.max(), df.groupby(level=["g", "b"]).i.max()))
    pairs.append((mdf.groupby("b")[["v"]].mean(), df.groupby("b")[["v"]].mean()))
    s = md.Series(df["i"], chunk_size=chunk or 10)
    pairs.append((s.groupby(level="g").sum(), df["i"].groupby(level="g").sum()))
    _check(pairs)


def test_errors_at_build_time() -> None:
    mdf = _lazy(_frame(), 3)
    with pytest.raises(KeyError, match="nope"):
        mdf.groupby("nope")
    with pytest.raises(KeyError, match="nope"):
        mdf.groupby("g")["nope"]
    with pytest.raises(KeyError):
        mdf.groupby("g").agg({"nope": "sum"})
    with pytest.raises(TypeError):
        mdf.groupby("g").mean()
    with pytest.raises(TypeError):
        mdf.groupby("g").s.std()
    with pytest.raises(TypeError):
        mdf.groupby()
    with pytest.raises(ValueError, match="method"):
        mdf.groupby("g").agg("sum", method="fast")


def _by_keys(frame: pd.DataFrame, by: Any, as_index: bool) -> pd.DataFrame:
    if as_index:
        return frame.sort_index()
    return frame.sort_values(by, na_position="last").reset_index(drop=True)


@pytest.mark.parametrize("method", ["tree", "shuffle"])
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("as_index", [True, False])
def test_forced_paths_give_pandas_results(method: str, sort: bool, as_index: bool) -> None:
    rng = np.random.default_rng(7)
    df = pd.DataFrame(
        {
            "k": rng.integers(0, 40, 300),
            "j": rng.choice(["x", "y", None], 300),
            "v": rng.random(300),
        }
    )
    mdf = _lazy(df, 37)
    for by, dropna in (("k", True), (["k", "j"], False)):
        mgb = mdf.groupby(by, sort=sort, as_index=as_index, dropna=dropna)
        gb = df.groupby(by, sort=sort, as_index=as_index, dropna=dropna)
        if as_index:
            result = mgb[["v"]].agg(["mean", "sum", "var", "first"], method=method)
            expected = gb[["v"]].agg(["mean", "sum", "var", "first"])
        else:
            result = mgb.agg(total=("v", "sum"), avg=("v", "mean"), method=method)
            expected = gb.agg(total=("v", "sum"), avg=("v", "mean"))
        got = result.to_pandas()
        if method == "shuffle" and not sort:  # groups come in hash-partition order
            got, expected = _by_keys(got, by, as_index), _by_keys(expected, by, as_index)
        _same(got, expected)
    names = _task_keys(mdf.groupby("k").v.agg(["mean", "sum"], method=method))
    shuffled = any(n.endswith("-part") for n in names)
    combined = any("-combine" in n for n in names)
    assert shuffled == (method == "shuffle")
    assert combined == (method == "tree")


def test_auto_path_follows_the_reduction_ratio(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    few = pd.DataFrame({"k": rng.integers(0, 5, 400), "v": rng.random(400)})
    many = pd.DataFrame({"k": np.arange(400), "v": rng.random(400)})
    monkeypatch.setattr(plan, "TREE_MAX_PARTIAL_ROWS", 100)
    for df, path in ((few, "tree"), (many, "shuffle")):
        result = _lazy(df, 40).groupby("k").v.mean()
        names = _task_keys(result)
        assert any(n.endswith("-part") for n in names) == (path == "shuffle")
        _same(result.to_pandas(), df.groupby("k").v.mean())
    assert plan.choose_path([10, 10], "auto") == "tree"
    assert plan.choose_path([60, 60], "auto") == "shuffle"
    assert plan.choose_path([600], "auto") == "tree"


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("dropna", [True, False])
def test_cumcount(chunk: int | None, dropna: bool) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame()
    mdf = _lazy(df, chunk)
    for ascending in (True, False):
        for by in ("k", ["g", "b"]):
            pairs.append(
                (
                    mdf.groupby(by, dropna=dropna).cumcount(ascending=ascending),
                    df.groupby(by, dropna=dropna).cumcount(ascending=ascending),
                )
            )
    _check(pairs)


def _demean(x: Any) -> Any:
    return x - x.mean()


def _big(g: Any) -> bool:
    return len(g) > 2


@pytest.mark.parametrize("chunk", CHUNKS)
def test_transform(chunk: int | None) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame()[["k", "g", "v", "i"]]
    mdf = _lazy(df, chunk)
    for how in ("sum", "mean", "max", "count", "median", _demean, "cumsum"):
        pairs.append(
            (
                mdf.groupby("k")[["v", "i"]].transform(how),
                df.groupby("k")[["v", "i"]].transform(how),
            )
        )
        pairs.append((mdf.groupby(["g"]).v.transform(how), df.groupby(["g"]).v.transform(how)))
    pairs.append((mdf.groupby("g").i.transform("size"), df.groupby("g").i.transform("size")))
    # aligned with the rows: usable beside the frame's own columns
    pairs.append(
        (
            (mdf["v"] - mdf.groupby("g").v.transform("mean")),
            df["v"] - df.groupby("g").v.transform("mean"),
        )
    )
    _check(pairs)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_apply_and_filter(chunk: int | None) -> None:
    pairs: list[tuple[Any, Any]] = []
    df = _frame()
    mdf = _lazy(df, chunk)
    pairs.append((mdf.groupby("k").filter(_big), df.groupby("k").filter(_big)))
    pairs.append((mdf.groupby("g")[["v"]].filter(_big), df.groupby("g")[["v"]].filter(_big)))
    pairs.append((mdf.groupby("k").v.filter(_big), df.groupby("k").v.filter(_big)))
    pairs.append((mdf.groupby("g").apply(len), df.groupby("g").apply(len)))
    pairs.append((mdf.groupby("k").v.apply(_demean), df.groupby("k").v.apply(_demean)))
    pairs.append((mdf.groupby(["g", "b"]).apply(_head), df.groupby(["g", "b"]).apply(_head)))
    _check(pairs)


def _head(g: Any) -> Any:
    return g.head(2)


def test_empty_chunks_and_empty_result() -> None:
    df = _frame()
    mdf = _lazy(df, 2)
    none = mdf[mdf["i"] > 100]
    _same(none.groupby("g").v.sum().to_pandas(), df[df["i"] > 100].groupby("g").v.sum())
    some = mdf[mdf["i"] > 6]
    expected = df[df["i"] > 6].groupby("g")[["v", "i"]].agg(["sum", "var"])
    _same(some.groupby("g")[["v", "i"]].agg(["sum", "var"]).to_pandas(), expected)


@pytest.mark.parametrize("chunk", [2, 3, None])
@pytest.mark.parametrize("method", ["tree", "shuffle", "auto"])
@pytest.mark.parametrize("by", ["a", ["a", "c"]])
def test_no_value_columns_gives_the_keys_alone(chunk: int | None, method: str, by: Any) -> None:
    """Grouping a frame of key columns only: no columns, one row per group, as pandas."""
    s = pd.Series([1, 2, 2, 3, 3, 3, 5, 1])
    df = pd.DataFrame({"a": s, "c": s % 2})[["a", "c"] if isinstance(by, list) else ["a"]]
    mdf = _lazy(df, chunk)
    for how in ("sum", "mean", "max"):
        _same(mdf.groupby(by).agg(how, method=method).to_pandas(), df.groupby(by).agg(how))
    _same(mdf.groupby(by).count().to_pandas(), df.groupby(by).count())


@pytest.mark.parametrize("chunk", [2, None])
@pytest.mark.parametrize("method", ["tree", "shuffle"])
def test_nullable_columns_keep_pandas_nullable_dtypes(chunk: int | None, method: str) -> None:
    pdf = pd.DataFrame(
        {
            "a": pd.array([1, 2, None, 4, 7, None], dtype="Int64"),
            "b": np.arange(6.0),
            "k": [1, 1, 2, 2, 3, 3],
            "f": pd.array([0.5, None, 1.5, 2.5, None, 3.0], dtype="Float64"),
        }
    )
    df = md.DataFrame(pdf, chunk_size=chunk)
    for how in ("mean", "count", "std", "var", "sem", "sum", "min", "max", "median"):
        for kw in ({}, {"as_index": False}):
            expected = getattr(pdf.groupby("k", **kw), how)()
            call = getattr(df.groupby("k", **kw), how)
            got = call(method=method) if how in ("mean", "count", "sum", "min", "max") else call()
            pd.testing.assert_frame_equal(got.to_pandas(), expected, rtol=1e-12, obj=f"{how} {kw}")
        pd.testing.assert_series_equal(
            getattr(df.groupby("k")["a"], how)().to_pandas(), getattr(pdf.groupby("k")["a"], how)()
        )
    named = df.groupby("k").agg(x=("a", "mean"), y=("f", "count")).to_pandas()
    pd.testing.assert_frame_equal(named, pdf.groupby("k").agg(x=("a", "mean"), y=("f", "count")))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_groupers(chunk: int | None) -> None:
    rng = np.random.default_rng(0)
    n = 17
    df = pd.DataFrame(
        {
            "g": rng.choice(list("abc"), n),
            "y": rng.integers(0, 9, n),
            "t": pd.date_range("2020-01-01", periods=n, freq="5h"),
        }
    )
    mdf = _lazy(df, chunk)
    cases = [
        lambda d: d.groupby(pd.Grouper(key="t", freq="D")).y.sum(),  # bins of times
        lambda d: d.groupby(pd.Grouper(key="t", freq="12h", closed="right", label="right"))[
            ["y"]
        ].max(),
        lambda d: d.set_index("t").groupby(pd.Grouper(freq="D")).y.mean(),  # on the index
        lambda d: d.groupby(pd.Grouper(key="g")).y.sum(),  # keys in order of appearance
        lambda d: d.groupby(pd.Grouper(key="g", sort=True)).y.sum(),
        lambda d: d.groupby([pd.Grouper(key="g"), "y"]).size(),
        lambda d: d.set_index("g").groupby(pd.Grouper(level="g")).y.sum(),
    ]
    _check([(case(mdf), case(df)) for case in cases])
    with pytest.raises(NotImplementedError, match="Grouper"):
        mdf.groupby([pd.Grouper(key="t", freq="D"), "g"])

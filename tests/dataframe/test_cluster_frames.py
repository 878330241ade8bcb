"""DataFrame operations on a cluster of real supervisor and worker processes, against
pandas on the same data: shuffles cross worker processes, readers run on workers, and
writers leave whole files."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.cluster.processes import cli_cluster, remote_session


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with cli_cluster(2, "--n-cpu", "1") as c:
        yield c


@pytest.fixture
def remote(cluster: Any, session: Any) -> Iterator[Any]:
    with remote_session(cluster, session) as remote:
        yield remote


def _data(n: int = 600) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    v = rng.normal(size=n)
    v[rng.integers(0, n, n // 10)] = np.nan
    return pd.DataFrame(
        {
            "k": rng.integers(0, 40, n),
            "s": rng.choice(["red", "green", "blue", "a b", "Zed"], n),
            "v": v,
            "i": rng.integers(-50, 50, n),
            "t": pd.date_range("2024-01-01", periods=n, freq="37min"),
        }
    )


def _tree(frame: Any) -> dict[str, str]:
    """Mars's ``method="tree"`` for a lazy frame; nothing for pandas, which lacks it."""
    return {"method": "tree"} if isinstance(frame, md.DataFrame) else {}


def _sorted(obj: Any) -> Any:
    return obj.sort_index() if isinstance(obj, pd.Series) else obj.sort_index(axis=0)


OPERATIONS: dict[str, tuple[Callable[[Any], Any], bool]] = {
    # name: (operation on a lazy or pandas frame, compare after sorting the index)
    "groupby_tree": (lambda d: d.groupby("k").agg({"v": ["mean", "sum"], "i": "max"}), False),
    "groupby_median": (lambda d: d.groupby(["k", "s"]).v.median(), False),
    "groupby_transform": (lambda d: d.groupby("k").v.transform("mean"), False),
    "sort_values": (lambda d: d.sort_values(["s", "i"], kind="stable"), False),
    "drop_duplicates": (lambda d: d.drop_duplicates(subset=["k", "s"]), False),
    "value_counts": (lambda d: d.s.value_counts(), False),
    "filter_then_iloc": (lambda d: d[d.v > 0].iloc[5:40], False),
    "query_assign": (lambda d: d.query("i > 0").assign(w=lambda x: x.v * 2), False),
    "fillna_ffill_cumsum": (lambda d: d.v.ffill().cumsum(), False),
    "rolling_mean": (lambda d: d.v.rolling(5, min_periods=1).mean(), False),
    "str_and_dt": (lambda d: d.s.str.upper() + d.t.dt.day_name(), False),
    "nlargest": (lambda d: d.nlargest(7, "i", keep="all"), False),
    "describe": (lambda d: d[["v", "i"]].describe(), False),
    "describe_all": (lambda d: d[["v", "s"]].describe(include="all"), False),
    "agg_list": (lambda d: d[["v", "i"]].agg(["sum", "skew", "median"]), False),
    "quantiles": (lambda d: d[["v", "i"]].quantile([0.1, 0.5, 0.9]), False),
    "mode": (lambda d: d[["k", "s"]].mode(), False),
    "drop_duplicates_tree": (lambda d: d.drop_duplicates(["k", "s"], **_tree(d)), False),
    "expanding_agg": (lambda d: d.v.expanding().agg(["kurt", "mean"]), False),
    "pivot_table": (
        lambda d: d.pivot_table(values="v", index="k", columns="s", aggfunc="sum"),
        False,
    ),
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_operations_equal_pandas_on_worker_processes(remote: Any, name: str) -> None:
    pdf = _data()
    op, sort_after = OPERATIONS[name]
    got = op(md.DataFrame(pdf, chunk_size=70)).execute(session=remote).fetch(session=remote)
    expected = op(pdf)
    if sort_after:
        got, expected = _sorted(got), _sorted(expected)
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=1e-9)
    else:
        pd.testing.assert_series_equal(got, expected, check_exact=False, rtol=1e-9)


@pytest.mark.parametrize("how", ["sum", "median"])
def test_groupby_shuffle_across_workers(remote: Any, how: str) -> None:
    pdf = _data()
    lazy = md.DataFrame(pdf, chunk_size=50).groupby(["k", "s"]).agg({"v": how}, method="shuffle")
    got = lazy.execute(session=remote).fetch(session=remote)
    pd.testing.assert_frame_equal(got, pdf.groupby(["k", "s"]).agg({"v": how}))


@pytest.mark.parametrize("how", ["inner", "left", "outer"])
def test_merge_shuffles_across_workers(remote: Any, how: str) -> None:
    left = _data(500)
    right = pd.DataFrame({"k": np.arange(0, 60, 2), "w": np.arange(30) * 1.5})
    import jupyter_mars.dataframe.joins.plan as plan

    # a small threshold makes both sides shuffle, so parts cross worker processes
    old = plan.BROADCAST_MAX_ROWS
    plan.BROADCAST_MAX_ROWS = 1
    try:
        got = md.merge(
            md.DataFrame(left, chunk_size=60), md.DataFrame(right, chunk_size=8), on="k", how=how
        )
        result = got.execute(session=remote).fetch(session=remote)
    finally:
        plan.BROADCAST_MAX_ROWS = old
    expected = left.merge(right, on="k", how=how)
    columns = list(expected.columns)
    pd.testing.assert_frame_equal(
        result.sort_values(columns, kind="stable").reset_index(drop=True),
        expected.sort_values(columns, kind="stable").reset_index(drop=True),
    )


def test_files_are_read_and_written_by_workers(remote: Any, tmp_path: Path) -> None:
    pdf = _data(300)
    pdf.to_csv(tmp_path / "in.csv", index=False)
    pdf.to_parquet(tmp_path / "in.parquet", row_group_size=40)
    from_csv = md.read_csv(str(tmp_path / "in.csv"), chunk_bytes=2000, parse_dates=["t"])
    out = (from_csv.groupby("s").i.sum()).execute(session=remote).fetch(session=remote)
    pd.testing.assert_series_equal(out, pdf.groupby("s").i.sum())
    filtered = md.read_parquet(str(tmp_path / "in.parquet"), filters=[("i", ">", 10)])
    target = tmp_path / "out"
    md.to_parquet(filtered, str(target) + "/", session=remote)
    expected = pdf[pdf.i > 10].reset_index(drop=True)
    pd.testing.assert_frame_equal(pd.read_parquet(target), expected)


def test_pandas_errors_raised_on_a_worker_keep_their_type(remote: Any, tmp_path: Path) -> None:
    with_nan = md.DataFrame(pd.DataFrame({"a": [1.0, np.nan, 3.0]}), chunk_size=2)
    with pytest.raises(pd.errors.IntCastingNaNError, match="non-finite values") as info:
        with_nan.astype("int64").execute(session=remote)
    assert isinstance(info.value, ValueError)
    (tmp_path / "bad.csv").write_text('a,b\n1,2\n"x,3\n')
    with pytest.raises(pd.errors.ParserError, match="EOF inside string"):
        md.read_csv(str(tmp_path / "bad.csv")).execute(session=remote)

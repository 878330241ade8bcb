"""merge and join against pandas: both plans (broadcast, hash shuffle), over chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.joins.plan as merge_plan
from jupyter_mars.dataframe.joins import merge
from jupyter_mars.dataframe.joins.kernels import gather_small
from jupyter_mars.dataframe.joins.plan import Merge
from jupyter_mars.engine.graph import Graph
from jupyter_mars.engine.node import TILE_RULES, TileContext, walk

CHUNKS = [1, 3, None]  # one row per chunk, uneven chunks, one chunk
HOWS = ["inner", "left", "right", "outer"]


def _left() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": [2.0, 1.0, 2.0, np.nan, 3.0, 7.0, 1.0, 2.0],
            "k2": ["a", "b", "a", "b", "a", "b", "b", "a"],
            "v": [10, 11, 12, 13, 14, 15, 16, 17],
            "s": list("pqrstuvw"),
        }
    )


def _right() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "k": [2.0, np.nan, 1.0, 2.0, 5.0, 1.0],
            "k2": ["a", "b", "b", "b", "a", "b"],
            "v": [0.5, 1.5, 2.5, 3.5, 4.5, 5.5],
            "flag": [True, False, True, True, False, True],
        }
    )


def _lazy(df: Any, chunk_size: int | None) -> Any:
    return md.DataFrame(df, chunk_size=chunk_size)


def _merge_node(result: Any) -> Any:
    node = result.node
    while not isinstance(node.op, Merge):
        node = node.inputs[0]
    return node


def _graph(result: Any) -> Graph:
    """The merge's chunk tasks, tiled as the engine tiles them, before fusion."""
    ctx = TileContext()
    tiled: dict[str, Any] = {}
    for node in walk([_merge_node(result)], stop=lambda n: False):
        inputs = [tiled[i.key] for i in node.inputs]
        tiled[node.key] = TILE_RULES[type(node.op)](node, inputs, ctx)
    return ctx.graph


def _plan(result: Any) -> str:
    """Which plan the tiled graph shows: shuffle splits, or one gathered small side."""
    node_key = _merge_node(result).key
    names = [k[0] for k in _graph(result) if isinstance(k, tuple)]
    splits = {n for n in names if n.endswith("-split")}
    if splits:
        assert splits == {f"{node_key}-left-split", f"{node_key}-right-split"}
        return "shuffle"
    gathered = [n for n in names if n in (f"{node_key}-left", f"{node_key}-right")]
    assert len(gathered) == 1, names
    return "broadcast-" + gathered[0].rsplit("-", 1)[1]


def _merge_tasks(result: Any) -> int:
    node_key = _merge_node(result).key
    return sum(1 for k in _graph(result) if isinstance(k, tuple) and k[0] == node_key)


def _canon(df: pd.DataFrame) -> pd.DataFrame:
    """Rows in one order whatever order they came in (index kept as a column)."""
    if isinstance(df.index, pd.RangeIndex):
        return df.sort_values(list(df.columns), na_position="last", ignore_index=True)
    levels = [f"level {i}" for i in range(df.index.nlevels)]
    flat = df.reset_index(names=levels)
    by = list(flat.columns[len(levels) :]) + levels
    return flat.sort_values(by, na_position="last", ignore_index=True)


def _same_rows(got: pd.DataFrame, expected: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(_canon(got), _canon(expected))


@pytest.fixture
def shuffle_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """No side counts as small unless it is one chunk."""
    monkeypatch.setattr(merge_plan, "BROADCAST_MAX_ROWS", 0)


# --- broadcast plans keep pandas' order exactly -------------------------------------------


@pytest.mark.parametrize("how", ["inner", "left"])
@pytest.mark.parametrize("lchunk", CHUNKS)
@pytest.mark.parametrize("rchunk", CHUNKS)
def test_broadcast_of_the_right_side_equals_pandas(how, lchunk, rchunk):
    lf, r = _left(), _right()
    got = merge(_lazy(lf, lchunk), _lazy(r, rchunk), how=how, on="k")
    assert _plan(got) == "broadcast-right"
    assert _merge_tasks(got) == len(_lazy(lf, lchunk).node.op.splits)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.merge(lf, r, how=how, on="k"))


@pytest.mark.parametrize("rchunk", [1, 3])
def test_right_merge_broadcasts_the_left_side_in_right_order(rchunk):
    lf, r = _left(), _right()
    got = merge(_lazy(lf, None), _lazy(r, rchunk), how="right", on=["k", "k2"])
    assert _plan(got) == "broadcast-left"
    pd.testing.assert_frame_equal(got.to_pandas(), pd.merge(lf, r, how="right", on=["k", "k2"]))


@pytest.mark.parametrize("how", HOWS)
def test_one_chunk_each_is_one_pandas_merge(how):
    lf, r = _left(), _right()
    got = merge(_lazy(lf, None), _lazy(r, None), how=how, on="k", suffixes=("_l", "_r"))
    assert _merge_tasks(got) == 1
    want = pd.merge(lf, r, how=how, on="k", suffixes=("_l", "_r"))
    pd.testing.assert_frame_equal(got.to_pandas(), want)


def test_outer_merge_of_chunked_sides_shuffles():
    lf, r = _left(), _right()
    got = merge(_lazy(lf, 3), _lazy(r, 2), how="outer", on="k")
    assert _plan(got) == "shuffle"
    _same_rows(got.to_pandas(), pd.merge(lf, r, how="outer", on="k"))


def test_large_sides_shuffle_and_small_ones_broadcast(monkeypatch):
    lf, r = _left(), _right()
    monkeypatch.setattr(merge_plan, "BROADCAST_MAX_ROWS", len(r) + 1)
    assert _plan(merge(_lazy(lf, 2), _lazy(r, 2), on="k")) == "broadcast-right"
    monkeypatch.setattr(merge_plan, "BROADCAST_MAX_ROWS", len(r))
    assert _plan(merge(_lazy(lf, 2), _lazy(r, 2), on="k")) == "shuffle"
    assert _plan(merge(_lazy(lf, 2), _lazy(r, None), on="k")) == "broadcast-right"
    # validate needs every row of a left key together: a chunked left side is shuffled
    assert _plan(merge(_lazy(lf, 2), _lazy(r, None), on="k", validate="1:m")) == "shuffle"


# --- shuffle plan: the same rows as pandas ------------------------------------------------


@pytest.mark.usefixtures("shuffle_only")
@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize(("lchunk", "rchunk"), [(1, 1), (3, 4), (2, 5)])
def test_shuffle_merge_has_pandas_rows(how, lchunk, rchunk):
    lf, r = _left(), _right()
    got = merge(_lazy(lf, lchunk), _lazy(r, rchunk), how=how, on=["k", "k2"])
    assert _plan(got) == "shuffle"
    assert _merge_tasks(got) == max(-(-len(lf) // lchunk), -(-len(r) // rchunk))
    out = got.to_pandas()
    pd.testing.assert_index_equal(out.index, pd.RangeIndex(len(out)))
    _same_rows(out, pd.merge(lf, r, how=how, on=["k", "k2"]))


@pytest.mark.usefixtures("shuffle_only")
@pytest.mark.parametrize("how", HOWS)
def test_int_and_float_keys_meet_in_one_part(how):
    lf = pd.DataFrame({"a": np.arange(12) % 5, "x": np.arange(12)})
    r = pd.DataFrame({"b": [0.0, 1.0, 2.0, -0.0, 4.0, 9.0, np.nan], "y": list("abcdefg")})
    got = merge(_lazy(lf, 3), _lazy(r, 2), how=how, left_on="a", right_on="b")
    assert _plan(got) == "shuffle"
    _same_rows(got.to_pandas(), pd.merge(lf, r, how=how, left_on="a", right_on="b"))


@pytest.mark.usefixtures("shuffle_only")
@pytest.mark.parametrize("how", HOWS)
def test_many_to_many_keys(how):
    lf = pd.DataFrame({"k": [1, 1, 2, 2, 2, 3] * 3, "x": range(18)})
    r = pd.DataFrame({"k": [1, 2, 2, 4, 1] * 2, "y": range(10)})
    want = pd.merge(lf, r, how=how, on="k")
    _same_rows(merge(_lazy(lf, 4), _lazy(r, 3), how=how, on="k").to_pandas(), want)


# --- keys on the index, suffixes, indicator -----------------------------------------------


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize(("lchunk", "rchunk"), [(3, 2), (None, None), (2, None)])
def test_merge_on_both_indexes(how, lchunk, rchunk, shuffle_only):
    lf = _left().set_index("v")
    r = _right().set_index(pd.Index([12, 10, 10, 99, 13, 17], name="w"))
    got = merge(_lazy(lf, lchunk), _lazy(r, rchunk), how=how, left_index=True, right_index=True)
    _same_rows(got.to_pandas(), pd.merge(lf, r, how=how, left_index=True, right_index=True))


@pytest.mark.parametrize("how", ["inner", "left"])
def test_column_against_index_keeps_pandas_labels(how):
    lf = _left()
    r = _right().set_index(pd.Index([10, 11, 12, 13, 14, 15], name="id"))
    got = merge(_lazy(lf, 3), _lazy(r, 2), how=how, left_on="v", right_index=True)
    pd.testing.assert_frame_equal(
        got.to_pandas(), pd.merge(lf, r, how=how, left_on="v", right_index=True)
    )
    got = merge(_lazy(r, 2), _lazy(lf, 3), how=how, left_index=True, right_on="v")
    _same_rows(got.to_pandas(), pd.merge(r, lf, how=how, left_index=True, right_on="v"))


@pytest.mark.parametrize("how", HOWS)
def test_suffixes_and_indicator(how, shuffle_only):
    lf, r = _left(), _right()
    kw: dict[str, Any] = dict(how=how, on="k", suffixes=("_left", None), indicator="origin")
    kw["suffixes"] = ("_left", "_right")
    got = merge(_lazy(lf, 3), _lazy(r, 2), **kw)
    _same_rows(got.to_pandas(), pd.merge(lf, r, **kw))
    got = merge(_lazy(lf, None), _lazy(r, 2), how=how, on="k2", indicator=True)
    want = pd.merge(lf, r, how=how, on="k2", indicator=True)
    assert list(got.columns) == list(want.columns)
    _same_rows(got.to_pandas(), want)


def test_left_on_and_right_on_with_other_names_and_overlaps():
    lf = _left()
    r = _right().rename(columns={"k": "key"}).assign(s=list("abcdef"))
    got = merge(_lazy(lf, 3), _lazy(r, None), left_on=["k", "k2"], right_on=["key", "k2"])
    want = pd.merge(lf, r, left_on=["k", "k2"], right_on=["key", "k2"])
    pd.testing.assert_frame_equal(got.to_pandas(), want)


def test_cross_merge_in_left_order():
    lf, r = _left().head(4), _right().head(3)
    got = merge(_lazy(lf, 3), _lazy(r, 2), how="cross")
    pd.testing.assert_frame_equal(got.to_pandas(), pd.merge(lf, r, how="cross"))


# --- sort=True: pandas' order exactly ------------------------------------------------------


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("threshold", [0, 100])
def test_sort_gives_pandas_order(how, threshold, monkeypatch):
    monkeypatch.setattr(merge_plan, "BROADCAST_MAX_ROWS", threshold)
    lf, r = _left(), _right()
    got = merge(_lazy(lf, 3), _lazy(r, 2), how=how, on=["k2", "k"], sort=True)
    pd.testing.assert_frame_equal(
        got.to_pandas(), pd.merge(lf, r, how=how, on=["k2", "k"], sort=True)
    )


@pytest.mark.parametrize("how", HOWS)
def test_sort_on_differently_named_keys(how, shuffle_only):
    lf = _left()
    r = _right().rename(columns={"k": "key"})
    kw: dict[str, Any] = dict(how=how, left_on="k", right_on="key", sort=True)
    pd.testing.assert_frame_equal(
        merge(_lazy(lf, 3), _lazy(r, 2), **kw).to_pandas(), pd.merge(lf, r, **kw)
    )
    kw = dict(how=how, left_index=True, right_index=True, sort=True)
    lf, r = lf.set_index("v"), r.set_index(pd.Index([12, 10, 10, 99, 13, 17]))
    pd.testing.assert_frame_equal(
        merge(_lazy(lf, 3), _lazy(r, 2), **kw).to_pandas(), pd.merge(lf, r, **kw)
    )


# --- the lookup join (a small side with a unique key) -------------------------------------


@pytest.mark.parametrize("how", ["inner", "left"])
@pytest.mark.parametrize("lchunk", CHUNKS)
def test_lookup_join_against_a_unique_right_key(how, lchunk):
    lf = pd.DataFrame({"key": [3, 1, 4, 1, 5, 9, 2, 6, 5, 3], "a": np.arange(10.0)})
    r = pd.DataFrame(
        {
            "key": [1, 2, 3, 4, 5, 6],
            "i": [10, 20, 30, 40, 50, 60],
            "b": [True, False, True, True, False, True],
            "t": pd.to_datetime([f"2020-01-0{d}" for d in range(1, 7)]),
            "s": pd.array(list("uvwxyz"), dtype="str"),
        }
    )
    frame, index = gather_small(r.iloc[:0], "key", r.iloc[:3], r.iloc[3:])
    assert index is not None
    got = merge(_lazy(lf, lchunk), _lazy(r, 4), how=how, on="key")
    assert _plan(got) == "broadcast-right"
    pd.testing.assert_frame_equal(got.to_pandas(), pd.merge(lf, r, how=how, on="key"))
    renamed = r.rename(columns={"key": "rkey"})
    got = merge(_lazy(lf, lchunk), _lazy(renamed, 4), how=how, left_on="key", right_on="rkey")
    want = pd.merge(lf, renamed, how=how, left_on="key", right_on="rkey")
    pd.testing.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("how", ["inner", "right"])
def test_lookup_join_against_a_unique_left_key(how, shuffle_only):
    lf = pd.DataFrame({"key": [1, 2, 3, 4], "x": [1, 2, 3, 4]})
    r = pd.DataFrame({"key": [3, 1, 8, 1, 5, 9, 2], "a": np.arange(7.0)})
    got = merge(_lazy(lf, None), _lazy(r, 3), how=how, on="key")
    assert _plan(got) == "broadcast-left"
    want = pd.merge(lf, r, how=how, on="key")
    if how == "right":
        pd.testing.assert_frame_equal(got.to_pandas(), want)
    else:
        _same_rows(got.to_pandas(), want)
    lr = lf.rename(columns={"key": "lk"})
    got = merge(_lazy(lr, None), _lazy(r, 3), how=how, left_on="lk", right_on="key")
    _same_rows(got.to_pandas(), pd.merge(lr, r, how=how, left_on="lk", right_on="key"))


# --- validation, errors, empty sides, pandas inputs ---------------------------------------


@pytest.mark.parametrize("threshold", [0, 100])
def test_validate_fails_on_duplicate_keys(threshold, monkeypatch):
    monkeypatch.setattr(merge_plan, "BROADCAST_MAX_ROWS", threshold)
    lf, r = _left(), _right()
    for validate in ["1:1", "1:m", "m:1"]:
        with pytest.raises(pd.errors.MergeError):
            merge(_lazy(lf, 3), _lazy(r, 2), on="k", validate=validate).execute()
    lu = lf.drop_duplicates("k")
    ru = r.drop_duplicates("k")
    got = merge(_lazy(lu, 2), _lazy(ru, 2), on="k", validate="1:1").to_pandas()
    _same_rows(got, pd.merge(lu, ru, on="k", validate="1:1"))
    got = merge(_lazy(lf, 2), _lazy(ru, 2), on="k", validate="m:1").to_pandas()
    _same_rows(got, pd.merge(lf, ru, on="k", validate="m:1"))


def test_bad_arguments_raise_at_the_call():
    lf, r = _lazy(_left(), 3), _lazy(_right(), 2)
    with pytest.raises(KeyError, match="nope"):
        merge(lf, r, on="nope")
    with pytest.raises(KeyError, match="zz"):
        merge(lf, r, left_on="k", right_on="zz")
    with pytest.raises(ValueError, match="int64 and str"):
        merge(lf, r, left_on="v", right_on="k2")
    with pytest.raises(ValueError, match="sideways"):
        merge(lf, r, on="k", how="sideways")
    with pytest.raises(ValueError, match="2:2"):
        merge(lf, r, on="k", validate="2:2")
    with pytest.raises(ValueError, match="name"):
        merge(lf, md.Series(pd.Series([1.0, 2.0])), left_on="k", right_index=True)
    with pytest.raises(TypeError, match="right"):
        merge(lf, [1, 2])


@pytest.mark.parametrize("how", HOWS)
def test_empty_sides(how):
    lf, r = _left(), _right()
    for a, b in [(lf.iloc[:0], r), (lf, r.iloc[:0]), (lf.iloc[:0], r.iloc[:0])]:
        got = merge(_lazy(a, 3), _lazy(b, 2), how=how, on="k").to_pandas()
        _same_rows(got, pd.merge(a, b, how=how, on="k"))


def test_pandas_inputs_and_series_are_wrapped():
    lf, r = _left(), _right()
    pd.testing.assert_frame_equal(
        merge(lf, _lazy(r, 2), on="k").to_pandas(), pd.merge(lf, r, on="k")
    )
    s = r.set_index("k")["v"].rename("w")
    got = merge(_lazy(lf, 3), s, left_on="k", right_index=True, how="left")
    pd.testing.assert_frame_equal(
        got.to_pandas(), pd.merge(lf, s, left_on="k", right_index=True, how="left")
    )
    got = _lazy(lf, 3).merge(md.Series(s, chunk_size=2), left_on="k", right_index=True)
    _same_rows(got.to_pandas(), lf.merge(s, left_on="k", right_index=True))


def test_merge_of_a_merge_with_unknown_lengths():
    lf, r = _left(), _right()
    extra = pd.DataFrame({"v_y": [0.5, 2.5, 3.5], "z": ["one", "two", "three"]})
    first = merge(_lazy(lf, 3), _lazy(r, 2), on="k")
    assert np.isnan(first.shape[0])
    got = merge(first, _lazy(extra, 2), on="v_y", how="left").to_pandas()
    pd.testing.assert_frame_equal(
        got, pd.merge(pd.merge(lf, r, on="k"), extra, on="v_y", how="left")
    )


# --- join -----------------------------------------------------------------------------------


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize(("lchunk", "rchunk"), [(3, 2), (None, 2), (3, None)])
def test_join_on_the_index(how, lchunk, rchunk):
    lf = _left().set_index("s")
    r = _right().set_index(pd.Index(list("qpzsrx"), name="s"))
    got = _lazy(lf, lchunk).join(_lazy(r, rchunk), how=how, suffixes=("_l", "_r"))
    want = lf.join(r, how=how, suffixes=("_l", "_r"))
    if how == "left" and rchunk is None:
        pd.testing.assert_frame_equal(got.to_pandas(), want)
    else:
        _same_rows(got.to_pandas(), want)


def test_join_on_a_column_and_a_series():
    lf = _left()
    other = pd.DataFrame({"w": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    got = _lazy(lf, 3).join(_lazy(other, 2), on="k2")
    pd.testing.assert_frame_equal(got.to_pandas(), lf.join(other, on="k2"))
    s = pd.Series([5, 6], index=[10, 12], name="extra")
    got = _lazy(lf.set_index("v"), 3).join(s, how="inner")
    pd.testing.assert_frame_equal(got.to_pandas(), lf.set_index("v").join(s, how="inner"))
    with pytest.raises(ValueError, match="overlap"):
        _lazy(lf, 3).join(_lazy(_right(), 2))


# --- Hypothesis: any frames, any chunking, either plan -------------------------------------


@st.composite
def _frames(draw: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    def side(n: int, name: str) -> pd.DataFrame:
        keys = draw(st.lists(st.one_of(st.integers(0, 4), st.none()), min_size=n, max_size=n))
        return pd.DataFrame(
            {
                "k": pd.array([np.nan if k is None else float(k) for k in keys]),
                "j": draw(st.lists(st.sampled_from("ab"), min_size=n, max_size=n)),
                name: np.arange(n, dtype=np.int64),
            }
        ).astype({"k": "float64", "j": "str"})

    return side(draw(st.integers(0, 12)), "x"), side(draw(st.integers(0, 12)), "y")


@given(
    frames=_frames(),
    lchunk=st.integers(1, 5),
    rchunk=st.integers(1, 5),
    how=st.sampled_from(HOWS),
    on=st.sampled_from([["k"], ["k", "j"]]),
    shuffle=st.booleans(),
)
def test_merge_equals_pandas_on_any_frames(frames, lchunk, rchunk, how, on, shuffle):
    lf, r = frames
    old = merge_plan.BROADCAST_MAX_ROWS
    merge_plan.BROADCAST_MAX_ROWS = 0 if shuffle else old
    try:
        got = merge(_lazy(lf, lchunk), _lazy(r, rchunk), how=how, on=on).to_pandas()
    finally:
        merge_plan.BROADCAST_MAX_ROWS = old
    want = pd.merge(lf, r, how=how, on=on)
    pd.testing.assert_index_equal(got.index, pd.RangeIndex(len(got)))
    _same_rows(got, want)


@pytest.mark.parametrize("how", ["left_anti", "right_anti"])
def test_anti_merges_are_not_supported(how):
    with pytest.raises(NotImplementedError, match=how):
        merge(_lazy(_left(), 3), _lazy(_right(), 2), how=how, on="k")


@pytest.mark.parametrize("how", ["inner", "left"])
def test_lookup_join_matches_nan_and_signed_zero_keys(how):
    lf = pd.DataFrame({"k": [1.0, np.nan, -0.0, 3.0, 2.0, np.nan], "a": range(6)})
    r = pd.DataFrame({"k": [np.nan, 0.0, 2.0], "b": [True, False, True]})
    got = merge(_lazy(lf, 2), _lazy(r, 2), on="k", how=how)
    pd.testing.assert_frame_equal(got.to_pandas(), pd.merge(lf, r, on="k", how=how))

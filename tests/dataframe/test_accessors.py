"""The .str, .dt and .cat accessors and as_category against pandas over row chunkings."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jupyter_mars.dataframe as md
import jupyter_mars.dataframe.accessors  # noqa: F401 - attaches the accessors
from jupyter_mars.dataframe.accessors import as_category

CHUNKS = [1, 3, None]
TEXT = ["a b", None, "Cd e f", "x", "", "g h", "12", "ab_ab", " pad "]

STR_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("lower", (), {}),
    ("upper", (), {}),
    ("strip", (), {}),
    ("lstrip", (), {}),
    ("rstrip", (" d",), {}),
    ("len", (), {}),
    ("contains", ("b",), {}),
    ("contains", ("A|c",), {"case": False, "regex": True}),
    ("contains", ("a",), {"na": False}),
    ("startswith", ("a",), {}),
    ("endswith", ("b",), {}),
    ("replace", ("[ab]", "Z"), {"regex": True}),
    ("replace", ("a", "-"), {"regex": False}),
    ("split", (), {}),
    ("rsplit", (" ",), {"n": 1}),
    ("slice", (1, 3), {}),
    ("get", (0,), {}),
    ("zfill", (4,), {}),
    ("pad", (5,), {"side": "both", "fillchar": "*"}),
    ("title", (), {}),
    ("capitalize", (), {}),
    ("find", ("b",), {}),
    ("count", ("a",), {}),
    ("match", ("[a-c]",), {}),
    ("fullmatch", ("[a-z]+",), {}),
    ("isdigit", (), {}),
    ("isalpha", (), {}),
    ("isnumeric", (), {}),
    ("isspace", (), {}),
    ("partition", (" ",), {}),
]


def _text(dtype: Any) -> pd.Series:
    return pd.Series(TEXT, dtype=dtype, name="t", index=np.arange(10, 10 + len(TEXT)))


def _assert_same(got: Any, expected: Any) -> None:
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(got, expected)
    else:
        pd.testing.assert_series_equal(got, expected)


@pytest.mark.parametrize("dtype", [object, "str"])
@pytest.mark.parametrize("chunk", CHUNKS)
def test_str_methods(dtype: Any, chunk: int | None) -> None:
    s = _text(dtype)
    ms: Any = md.Series(s, chunk_size=chunk)
    for name, args, kwargs in STR_CALLS:
        lazy = getattr(ms.str, name)(*args, **kwargs)
        expected = getattr(s.str, name)(*args, **kwargs)
        _assert_same(lazy.to_pandas(), expected)


@pytest.mark.parametrize("dtype", [object, "str"])
@pytest.mark.parametrize("chunk", CHUNKS)
def test_str_expanding(dtype: Any, chunk: int | None) -> None:
    s = _text(dtype)
    ms: Any = md.Series(s, chunk_size=chunk)
    for kwargs in ({}, {"n": 1}, {"pat": "b"}):
        expected = s.str.split(expand=True, **kwargs)
        got = ms.str.split(expand=True, **kwargs)
        assert list(got.columns) == list(expected.columns)  # known before executing
        pd.testing.assert_frame_equal(got.to_pandas(), expected)
    pd.testing.assert_frame_equal(
        ms.str.rsplit(n=1, expand=True).to_pandas(), s.str.rsplit(n=1, expand=True)
    )
    pd.testing.assert_frame_equal(
        ms.str.extract(r"(?P<first>\w)(\w)?").to_pandas(), s.str.extract(r"(?P<first>\w)(\w)?")
    )
    pd.testing.assert_series_equal(
        ms.str.extract(r"(\w)", expand=False).to_pandas(), s.str.extract(r"(\w)", expand=False)
    )
    for sep in (None, "-"):
        assert ms.str.cat(sep=sep).to_numpy() == s.str.cat(sep=sep)
    assert ms.str.cat(sep=",", na_rep="?").to_numpy() == s.str.cat(sep=",", na_rep="?")


def test_str_meta_is_known_at_build_time() -> None:
    ms: Any = md.Series(_text(object), chunk_size=2)
    assert ms.str.contains("a").dtype == np.dtype(bool)
    assert ms.str.len().dtype == np.dtype(np.int64)
    assert list(ms.str.partition().columns) == [0, 1, 2]


def test_str_errors_at_build_time() -> None:
    with pytest.raises(AttributeError, match=r"\.str"):
        md.Series([1, 2, 3]).str  # noqa: B018
    ms: Any = md.Series(_text(object), chunk_size=2)
    with pytest.raises(AttributeError):
        ms.str.no_such_method()
    with pytest.raises(TypeError):
        ms.str.zfill("x")
    with pytest.raises(ValueError, match="group"):
        ms.str.extract("no groups")


@given(
    values=st.lists(
        st.one_of(st.none(), st.text(alphabet="ab 1C", max_size=5)), min_size=0, max_size=14
    ),
    chunk=st.integers(1, 5),
    string_dtype=st.booleans(),
)
def test_str_hypothesis(values: list[str | None], chunk: int, string_dtype: bool) -> None:
    s = pd.Series(values, dtype="str" if string_dtype else object)
    ms: Any = md.Series(s, chunk_size=chunk)
    if not string_dtype and len(s) and s.isna().all():
        # pandas types a numeric result with no value at all as object (see _call)
        return
    pd.testing.assert_series_equal(ms.str.upper().to_pandas(), s.str.upper())
    pd.testing.assert_series_equal(ms.str.len().to_pandas(), s.str.len())
    pd.testing.assert_series_equal(ms.str.contains("a").to_pandas(), s.str.contains("a"))
    pd.testing.assert_series_equal(ms.str.count("b").to_pandas(), s.str.count("b"))
    pd.testing.assert_frame_equal(ms.str.split(expand=True).to_pandas(), s.str.split(expand=True))
    assert ms.str.cat(sep="|").to_numpy() == s.str.cat(sep="|")


def _times(tz: str | None) -> pd.Series:
    stamps = pd.date_range("1999-12-30 22:10:05", periods=11, freq="37h", tz=tz)
    s = pd.Series(stamps, name="when", index=np.arange(11)[::-1])
    s.iloc[4] = pd.NaT
    return s


DT_FIELDS = [
    "year",
    "month",
    "day",
    "hour",
    "minute",
    "second",
    "day_of_week",
    "day_of_year",
    "quarter",
    "date",
    "time",
    "is_month_start",
    "is_month_end",
    "is_quarter_start",
    "is_year_end",
    "days_in_month",
]


@pytest.mark.parametrize("tz", [None, "Europe/Paris"])
@pytest.mark.parametrize("chunk", CHUNKS)
def test_dt_fields_and_methods(tz: str | None, chunk: int | None) -> None:
    s = _times(tz)
    ms: Any = md.Series(s, chunk_size=chunk)
    for name in DT_FIELDS:
        pd.testing.assert_series_equal(getattr(ms.dt, name).to_pandas(), getattr(s.dt, name))
    for alias, name in (("dayofweek", "day_of_week"), ("weekday", "day_of_week")):
        pd.testing.assert_series_equal(getattr(ms.dt, alias).to_pandas(), getattr(s.dt, name))
    pd.testing.assert_series_equal(
        ms.dt.strftime("%Y/%m %H").to_pandas(), s.dt.strftime("%Y/%m %H")
    )
    for method in ("floor", "ceil", "round"):
        pd.testing.assert_series_equal(
            getattr(ms.dt, method)("h").to_pandas(), getattr(s.dt, method)("h")
        )
    pd.testing.assert_series_equal(ms.dt.normalize().to_pandas(), s.dt.normalize())
    if tz is None:
        got = ms.dt.tz_localize("UTC").dt.tz_convert("Asia/Tokyo").to_pandas()
        pd.testing.assert_series_equal(got, s.dt.tz_localize("UTC").dt.tz_convert("Asia/Tokyo"))
        pd.testing.assert_series_equal(ms.dt.to_period("M").to_pandas(), s.dt.to_period("M"))
    else:
        pd.testing.assert_series_equal(ms.dt.tz_convert(None).to_pandas(), s.dt.tz_convert(None))


@pytest.mark.parametrize("chunk", CHUNKS)
def test_dt_timedeltas(chunk: int | None) -> None:
    s = pd.Series(pd.to_timedelta([1.5, None, 30, 2000, -3], unit="h"))
    ms: Any = md.Series(s, chunk_size=chunk)
    pd.testing.assert_series_equal(ms.dt.total_seconds().to_pandas(), s.dt.total_seconds())
    pd.testing.assert_series_equal(ms.dt.days.to_pandas(), s.dt.days)
    pd.testing.assert_frame_equal(ms.dt.components.to_pandas(), s.dt.components)


def test_dt_errors_at_build_time() -> None:
    with pytest.raises(AttributeError, match=r"\.dt"):
        md.Series(["a"]).dt  # noqa: B018
    ms: Any = md.Series(_times(None))
    with pytest.raises(AttributeError):
        ms.dt.total_seconds()  # a timedelta method
    with pytest.raises(ValueError, match="freq"):
        ms.dt.floor("no such freq")


@pytest.mark.parametrize("chunk", CHUNKS)
def test_as_category_one_set_of_categories(chunk: int | None) -> None:
    s = pd.Series(["b", "a", None, "c", "a", "b", "d"], name="k")
    cat: Any = as_category(md.Series(s, chunk_size=chunk))
    expected = s.astype("category")
    assert isinstance(cat.dtype, pd.CategoricalDtype)
    pd.testing.assert_series_equal(cat.to_pandas(), expected)
    pd.testing.assert_index_equal(cat.cat.categories, expected.cat.categories)
    pd.testing.assert_series_equal(cat.cat.codes.to_pandas(), expected.cat.codes)
    renamed = cat.cat.rename_categories(["w", "x", "y", "z"])
    pd.testing.assert_series_equal(
        renamed.to_pandas(), expected.cat.rename_categories(["w", "x", "y", "z"])
    )
    pd.testing.assert_series_equal(
        cat.cat.rename_categories(str.upper).to_pandas(),
        expected.cat.rename_categories(str.upper),
    )
    ordered = cat.cat.as_ordered()
    assert ordered.cat.ordered
    pd.testing.assert_series_equal(ordered.to_pandas(), expected.cat.as_ordered())


@pytest.mark.parametrize("chunk", CHUNKS)
def test_as_category_frame(chunk: int | None) -> None:
    df = pd.DataFrame(
        {
            "s": ["x", "y", None, "x", "z", "y"],
            "i": [3, 1, 2, 3, 1, 200],
            "f": [0.5, np.nan, 0.5, 1.5, 2.5, 0.5],
            "c": pd.Categorical(["p", "q", "p", "p", "q", "p"], categories=["q", "p"]),
        }
    )
    mdf: Any = md.DataFrame(df, chunk_size=chunk)
    pd.testing.assert_frame_equal(as_category(mdf).to_pandas(), df.astype("category"))
    pd.testing.assert_frame_equal(
        as_category(mdf, ["i", "s"]).to_pandas(), df.astype({"i": "category", "s": "category"})
    )
    with pytest.raises(KeyError, match="nope"):
        as_category(mdf, ["nope"])


def test_many_categories_codes_type() -> None:
    s = pd.Series(np.arange(300) % 150)
    cat: Any = as_category(md.Series(s, chunk_size=70))
    pd.testing.assert_series_equal(cat.cat.codes.to_pandas(), s.astype("category").cat.codes)


def test_cat_of_known_categories_needs_no_data() -> None:
    s = pd.Series(pd.Categorical(["a", "b"], categories=["b", "a", "c"]))
    ms: Any = md.Series(s, chunk_size=1)
    pd.testing.assert_index_equal(ms.cat.categories, s.cat.categories)
    pd.testing.assert_series_equal(ms.cat.codes.to_pandas(), s.cat.codes)
    with pytest.raises(AttributeError, match=r"\.cat"):
        md.Series([1.0]).cat  # noqa: B018


@given(
    values=st.lists(st.one_of(st.none(), st.integers(-3, 3)), max_size=12),
    chunk=st.integers(1, 5),
)
def test_as_category_hypothesis(values: list[int | None], chunk: int) -> None:
    s = pd.Series(values, dtype="Int64").astype(float)
    cat: Any = as_category(md.Series(s, chunk_size=chunk))
    pd.testing.assert_series_equal(cat.to_pandas(), s.astype("category"))


@pytest.mark.parametrize("chunk", [1, 2, 5])
def test_get_dummies_finds_the_tokens_of_the_whole_column(chunk: int) -> None:
    # chunks of missing values only have no token (pandas 3 raises for such str chunks)
    data = pd.Series(["a|b", None, "c", "b|a|d", np.nan], index=list("vwxyz"))
    got = md.Series(data, chunk_size=chunk).str.get_dummies()
    pd.testing.assert_frame_equal(got.execute().fetch(), data.str.get_dummies())
    empty = pd.Series([None, None], dtype=object)
    got = md.Series(empty, chunk_size=min(chunk, 2)).str.get_dummies()
    pd.testing.assert_frame_equal(got.execute().fetch(), empty.str.get_dummies())

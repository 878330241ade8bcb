"""read_csv's skiprows (line numbers, callables) and skipfooter against pandas, over several
byte chunkings, one file and several."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jupyter_mars.dataframe.io import read_csv
from jupyter_mars.dataframe.io.csv_lines import LineKinds, QuoteRule, count_lines, find_data_start
from jupyter_mars.dataframe.io.csv_numbered import count_range, number_file
from jupyter_mars.dataframe.io.csv_skip import RowSkipping

CHUNK_BYTES = [1, 9, 40, 10**9]
"""Every line its own chunk, a few lines per chunk, one chunk per file."""

TEXTS = {
    "blank_and_comment": "a,b\n1,x\n2,y\n\n3,z\n#c\n4,w\n5,v\n6,u\n7,t\n",
    "quoted": 'a,b\n1,"x,1"\n2,"y ""q"""\n3,z\n4,"w"\n5,v\n6,"u,u"\n7,t\n',
    "quoted_newline": 'a,b\n1,"x\ny"\n2,y\n3,z\n4,"w\r\nv"\n5,v\n6,u\n',
    "crlf_no_last_newline": "a,b\r\n1,x\r\n2,y\r\n\r\n3,z\r\n4,w\r\n5,v",
}

HEADER_ONLY: list[dict[str, Any]] = [{"skiprows": {0}}, {"skiprows": [0, 2], "header": 1}]
"""Options whose skipped lines all come before the data: the chunks need no numbering."""
NUMBERED: list[dict[str, Any]] = [
    {"skiprows": [1, 3]},
    {"skiprows": np.array([2, 5])},
    {"skiprows": range(2, 4)},
    {"skiprows": lambda n: n % 3 == 2},
    {"skiprows": [1, 4], "header": None},
    {"skiprows": [2, 6], "names": ["A", "B"]},
    {"skiprows": lambda n: n in (0, 4), "comment": "#"},
    {"skiprows": [2, 3], "usecols": ["b"], "comment": "#"},
    {"skiprows": [3], "nrows": 3},
    {"skiprows": [2, 5], "index_col": "a", "comment": "#"},
    {"skipfooter": 2, "engine": "python"},
    {"skipfooter": 1, "skiprows": [2], "engine": "python"},
    {"skipfooter": 3, "skiprows": lambda n: n == 1, "engine": "python"},
    {"skipfooter": 50, "engine": "python"},
]


def _write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_bytes(text.encode())
    return str(path)


def _same(got: Any, want: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(got.to_pandas(), want)


@pytest.mark.parametrize("chunk_bytes", CHUNK_BYTES)
@pytest.mark.parametrize("text", list(TEXTS))
def test_skipping_matches_pandas(tmp_path: Path, text: str, chunk_bytes: int) -> None:
    path = _write(tmp_path, "a.csv", TEXTS[text])
    # without numbering, a quoted line ending at a chunk boundary is misread (read_csv's
    # documented limitation); with it, such a file is read whole
    options = NUMBERED if text == "quoted_newline" else HEADER_ONLY + NUMBERED
    for kwargs in options:
        want = pd.read_csv(path, **kwargs)
        _same(read_csv(path, chunk_bytes=chunk_bytes, **kwargs), want)


@pytest.mark.parametrize("chunk_bytes", CHUNK_BYTES)
def test_lines_are_numbered_per_file(tmp_path: Path, chunk_bytes: int) -> None:
    paths = [_write(tmp_path, f"p{k}.csv", TEXTS[name]) for k, name in enumerate(TEXTS)]
    cases: list[dict[str, Any]] = [
        {"skiprows": [1, 4]},
        {"skiprows": lambda n: n == 2},
        {"skipfooter": 1, "skiprows": [3], "engine": "python"},
    ]
    for case in cases:
        kwargs = {**case, "comment": "#"}  # every file's column "a" holds ints
        want = pd.concat([pd.read_csv(p, **kwargs) for p in paths], ignore_index=True)
        _same(read_csv(str(tmp_path / "p*.csv"), chunk_bytes=chunk_bytes, **kwargs), want)
        listed = [paths[2], paths[0], paths[2]]
        want = pd.concat([pd.read_csv(p, **kwargs) for p in listed], ignore_index=True)
        _same(read_csv(listed, chunk_bytes=chunk_bytes, **kwargs), want)


@pytest.mark.parametrize("chunk_bytes", [7, 10**9])
def test_skipfooter_without_engine_warns_and_uses_python(tmp_path: Path, chunk_bytes: int) -> None:
    path = _write(tmp_path, "a.csv", TEXTS["quoted"])
    with pytest.warns(pd.errors.ParserWarning, match="python"):
        want = pd.read_csv(path, skipfooter=2)
    with pytest.warns(pd.errors.ParserWarning, match="python") as record:
        got = read_csv(path, chunk_bytes=chunk_bytes, skipfooter=2)
    assert len(record) == 1
    _same(got, want)


def test_footer_lines_are_left_out_of_the_dtypes(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.csv", "a,b\n" + "1,2\n" * 30 + "total,60\n")
    kwargs = {"skipfooter": 1, "engine": "python"}
    want = pd.read_csv(path, **kwargs)
    assert want["a"].dtype == np.int64
    for chunk_bytes in (8, 10**9):
        got = read_csv(path, chunk_bytes=chunk_bytes, head_bytes=20, **kwargs)
        assert got.dtypes["a"] == np.int64
        _same(got, want)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"skiprows": 1.5}, TypeError),
        ({"skiprows": True}, TypeError),
        ({"skiprows": "1"}, TypeError),
        ({"skiprows": ["a"]}, TypeError),
        ({"skipfooter": -1, "engine": "python"}, ValueError),
        ({"skipfooter": 1.5, "engine": "python"}, ValueError),
        ({"skipfooter": "1", "engine": "python"}, ValueError),
        ({"skipfooter": 1, "engine": "c"}, ValueError),
        ({"skipfooter": 1, "nrows": 2, "engine": "python"}, ValueError),
        ({"skiprows": [1], "engine": "pyarrow"}, ValueError),
    ],
)
def test_bad_options_raise_what_pandas_raises(tmp_path: Path, kwargs: Any, error: Any) -> None:
    path = _write(tmp_path, "a.csv", TEXTS["blank_and_comment"])
    with pytest.raises(error) as expected:
        pd.read_csv(path, **kwargs)
    with pytest.raises(error, match=str(expected.value)[:30]):
        read_csv(path, **kwargs)


@pytest.mark.parametrize("skiprows", [-1, [-1], [], 0])
def test_options_that_skip_nothing(tmp_path: Path, skiprows: Any) -> None:
    path = _write(tmp_path, "a.csv", TEXTS["blank_and_comment"])
    _same(read_csv(path, chunk_bytes=9, skiprows=skiprows), pd.read_csv(path, skiprows=skiprows))


def test_quote_rule_and_counts(tmp_path: Path) -> None:
    rule = QuoteRule(b'"', b",")
    assert rule.exact(b'1,"a,b"\n2,"c ""d"""\n')
    assert not rule.exact(b'1,"a\nb"\n')
    assert rule.exact(b'1,a"b\n2,c"\n')  # a quote inside a field is a character
    assert not QuoteRule(b'"', None).exact(b'1,"a"\n')  # a regex separator: not followed
    assert QuoteRule(None, b",").exact(b'1,"a\nb"\n')  # QUOTE_NONE
    assert not QuoteRule(b'"', b",", escapechar=b"\\").exact(b"1,a\\\nb\n")
    assert count_lines(b"a\nb\r\nc\rd") == 4
    path = _write(tmp_path, "a.csv", 'a\n1\n"2\n3"\n4\n')
    assert count_range(path, 0, 3, True, rule) == (2, True)
    assert count_range(path, 3, 100, False, rule) == (3, False)  # 2 lines, 3 endings
    assert number_file((2, True), (3, True), (1, True)).starts == (0, 2, 5)


def test_data_start_passes_over_skipped_blank_and_comment_lines(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.csv", '#x\n\nskip\n"a\nA",b\n1,2\n')
    kinds = LineKinds(comment=b"#")
    with open(path, "rb") as f:
        start = find_data_start(f, 0, RowSkipping(frozenset({2})), QuoteRule(b'"', b","), kinds)
    assert (start.line, start.header) == (4, b'"a\nA",b\n')
    assert pd.read_csv(path, skiprows=[2], comment="#").columns.tolist() == ["a\nA", "b"]


def test_shifted_skipping() -> None:
    skipping = RowSkipping(frozenset({1, 5, 7}), footer=2)
    assert skipping.shifted(4, count=4, stop=8) == {1, 3}
    assert RowSkipping(range(3)).shifted(2) == {0}
    shifted = RowSkipping(lambda n: n == 6).shifted(4, count=4, stop=7)
    assert [shifted(i) for i in range(4)] == [False, False, True, True]


_LINES = st.sampled_from(["{i},w{i}", "{i},w{i}", '{i},"q,{i}"', '{i},"n\n{i}"', "", "#c{i}"])


@given(
    lines=st.lists(_LINES, min_size=1, max_size=14),
    # a line after the header is skipped, so the chunks number their lines (without
    # numbering, a quoted line ending at a chunk boundary is misread)
    skipped=st.sets(st.integers(1, 16), min_size=1, max_size=5),
    footer=st.integers(0, 3),
    chunk_bytes=st.integers(1, 30),
)
def test_random_files_match_pandas(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[str],
    skipped: set[int],
    footer: int,
    chunk_bytes: int,
) -> None:
    text = "a,b\n" + "".join(line.format(i=i) + "\n" for i, line in enumerate(lines))
    path = _write(tmp_path_factory.mktemp("csv"), "a.csv", text)
    kwargs: dict[str, Any] = {"skiprows": skipped, "comment": "#", "dtype": {"b": str}}
    if footer:
        kwargs.update(skipfooter=footer, engine="python")
    want = pd.read_csv(path, **kwargs)
    _same(read_csv(path, chunk_bytes=chunk_bytes, **kwargs), want)


@pytest.mark.parametrize("chunk_bytes", [9, 10**9])
def test_pyarrow_engine_takes_a_count_of_lines(tmp_path: Path, chunk_bytes: int) -> None:
    path = _write(tmp_path, "a.csv", TEXTS["quoted"])
    for kwargs in ({"skiprows": 2, "header": None}, {}):
        want = pd.read_csv(path, engine="pyarrow", **kwargs)
        _same(read_csv(path, chunk_bytes=chunk_bytes, engine="pyarrow", **kwargs), want)

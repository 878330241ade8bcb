"""info() prints pandas' text to the character, from per-chunk summaries."""

from __future__ import annotations

import io
from typing import Any

import pandas as pd
import pytest

import jupyter_mars.dataframe as md
from tests.dataframe.helpers import CHUNKS, labelled_frame, lazy_copy

FRAME = pd.DataFrame(
    {
        "a": [1, 2, 2, 5, 7],
        "b": [0.5, None, 1, 2, 3],
        "c": list("abcde"),
        "d": pd.date_range("2024", periods=5),
    }
)
FRAMES = [FRAME, FRAME.set_index("d"), FRAME.set_index("c"), labelled_frame(), FRAME.iloc[:0]]
OPTIONS: list[dict[str, Any]] = [
    {},
    {"verbose": False},
    {"memory_usage": "deep"},
    {"show_counts": False},
    {"memory_usage": False},
    {"max_cols": 2},
]


def _printed(obj: Any, **kwargs: Any) -> str:
    buf = io.StringIO()
    obj.info(buf=buf, **kwargs)
    return buf.getvalue()


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("data", FRAMES)
def test_frame_info_prints_as_pandas(chunk: int | None, data: pd.DataFrame) -> None:
    df = lazy_copy(data, chunk)
    for kwargs in OPTIONS:
        assert _printed(df, **kwargs) == _printed(data, **kwargs)
    column = data.columns[0]
    assert _printed(df[column]) == _printed(data[column])


def test_info_of_a_filtered_frame_and_of_no_columns(capsys: pytest.CaptureFixture[str]) -> None:
    df = md.DataFrame(FRAME, chunk_size=2)
    assert _printed(df[df["a"] > 1]) == _printed(FRAME[FRAME["a"] > 1])
    no_columns = pd.DataFrame(index=range(3))
    assert _printed(md.DataFrame(no_columns)) == _printed(no_columns)
    df.info()
    FRAME.info()
    out = capsys.readouterr().out
    half = len(out) // 2
    assert out[:half] == out[half:]

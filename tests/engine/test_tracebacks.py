"""An error in a chunk function reads as the user's code: the library's frames between the
call to ``execute`` and the function are hidden from IPython's tracebacks and the widget's
preview, unless full tracebacks are asked for."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from IPython.core.ultratb import VerboseTB

import jupyter_mars.tensor as mt
from jupyter_mars.engine.tracebacks import FULL_TRACEBACKS_ENV, HIDE, user_frames
from jupyter_mars.widgets.preview import error_html


def broken_block(block: np.ndarray) -> np.ndarray:
    raise ValueError("this block is broken")


def _failure(wait: bool) -> ValueError:
    x = mt.elemwise(broken_block, mt.ones(4, chunk_size=2), dtype=np.float64).sum()
    if wait:
        with pytest.raises(ValueError, match="this block is broken") as caught:
            x.execute()
        return caught.value
    future = x.execute(wait=False)
    with pytest.raises(ValueError, match="this block is broken") as caught:
        future.result(timeout=30)
    return caught.value


@pytest.fixture
def hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FULL_TRACEBACKS_ENV, raising=False)


def test_hiding_follows_the_environment_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FULL_TRACEBACKS_ENV, raising=False)
    assert HIDE
    assert HIDE(None) is True
    monkeypatch.setenv(FULL_TRACEBACKS_ENV, "1")
    assert not HIDE
    assert HIDE(None) is False


@pytest.mark.parametrize("wait", [True, False])
@pytest.mark.usefixtures("hidden")
def test_only_the_callers_and_the_functions_frames_are_left(wait: bool) -> None:
    error = _failure(wait)
    names = [frame.name for frame in user_frames(error.__traceback__)]
    assert names[-1] == "broken_block"
    assert "_failure" in names  # the caller's line stays
    library = {"execute", "_execute", "run", "drive", "_work", "execute_task", "_call"}
    assert not library & set(names), names
    # every frame is there for a full traceback
    everything = [frame.name for frame in traceback.extract_tb(error.__traceback__)]
    assert {"execute_task", "_call"} <= set(everything)


@pytest.mark.usefixtures("hidden")
def test_ipython_skips_the_hidden_frames() -> None:
    error = _failure(wait=True)
    printed = VerboseTB(theme_name="nocolor").text(type(error), error, error.__traceback__)
    assert "skipping hidden" in printed
    assert "broken_block" in printed
    assert "graph.py" not in printed
    assert "threads.py" not in printed


def test_full_tracebacks_show_everything() -> None:
    error = _failure(wait=True)  # the test suite asks for full tracebacks
    printed = VerboseTB(theme_name="nocolor").text(type(error), error, error.__traceback__)
    assert "skipping hidden" not in printed
    assert "graph.py" in printed


@pytest.mark.usefixtures("hidden")
def test_the_widget_preview_shows_the_users_frames() -> None:
    detail = error_html(_failure(wait=False))
    assert "broken_block" in detail
    assert "graph.py" not in detail
    assert "<b>ValueError</b>: this block is broken" in detail

"""``FutureView`` without a kernel: built for real executions and brought up to date by
``refresh()``, or by its updater task when an asyncio loop runs."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
import types
from typing import Any

import IPython
import numpy as np
import pandas as pd
import pytest

import jupyter_mars as mars
import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.engine import future as engine_future
from jupyter_mars.engine.future import ExecutionFuture, Progress
from jupyter_mars.widgets import FutureView, snapshot
from jupyter_mars.widgets.future import format_seconds
from jupyter_mars.widgets.preview import TRACEBACK_FRAMES

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def sleepy(x: Any, seconds: float) -> Any:
    time.sleep(seconds)
    return x


def fail_with_a_message(x: Any) -> Any:
    raise ZeroDivisionError("no chunk may pass")


def refresh_until_done(view: FutureView, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not view.future.done() and time.monotonic() < deadline:
        view.refresh()
        time.sleep(0.02)
    view.refresh()


def chunk_totals(future: ExecutionFuture) -> tuple[int, int]:
    operators = future.operators()["operators"]
    return sum(op["done"] for op in operators), sum(op["total"] for op in operators)


def test_a_finished_sum_shows_its_chunks_and_a_preview(session: mars.Session) -> None:
    future = (mt.ones((400, 400), chunk_size=100) + 1).sum().execute(wait=False, session=session)
    view = FutureView(future)
    refresh_until_done(view)
    done, total = chunk_totals(future)
    assert done == total >= 16
    assert view.state == view.state_label.value == "succeeded"
    assert view.bar.value == view.bar.max == total
    assert view.progress_label.value == f"{total} / {total} chunks"
    assert view.bar.bar_style == "success"
    assert view.cancel_button.disabled
    assert "shape=()" in view.detail.value
    assert "dtype=float64" in view.detail.value
    assert "320000." in view.detail.value  # one element: its data is shown
    assert view.elapsed_label.value.endswith(" s")


def test_a_large_tensor_is_previewed_without_its_data() -> None:
    future = (mt.ones((20, 10), chunk_size=5) * 3).execute(wait=False)
    view = FutureView(future)
    refresh_until_done(view)
    assert "shape=(20, 10) dtype=float64" in view.detail.value
    assert "array(" not in view.detail.value


def test_a_failure_shows_the_error_and_a_short_traceback() -> None:
    x = mt.tensor(np.arange(8), chunk_size=2)
    future = mt.elemwise(fail_with_a_message, x, dtype=np.int64).execute(wait=False)
    view = FutureView(future)
    refresh_until_done(view)
    assert view.state == "failed"
    assert view.bar.bar_style == "danger"
    assert view.cancel_button.disabled
    detail = view.detail.value
    assert "<b>ZeroDivisionError</b>: no chunk may pass" in detail
    assert "<details>" in detail
    assert 1 <= detail.count("  File ") <= TRACEBACK_FRAMES
    assert "fail_with_a_message" in detail  # the innermost frames are the ones kept


def test_the_cancel_button_cancels_the_execution() -> None:
    x = mt.tensor(np.arange(40), chunk_size=1)
    future = mt.elemwise(sleepy, x, 0.2, dtype=np.int64).execute(wait=False)
    view = FutureView(future)
    assert not view.cancel_button.disabled
    clicked = time.monotonic()
    view.cancel_button.click()  # at once: the job may still be being submitted
    assert future.cancelled()
    assert view.state == view.state_label.value == "cancelled"
    assert "cancelled" in view.detail.value
    assert view.cancel_button.disabled
    with pytest.raises(concurrent.futures.CancelledError):
        future.result(timeout=1)
    # the cancelled job ends, not after 40 * 0.2 s: later work runs at once
    assert (mt.tensor(np.arange(3)) + 1).sum().execute().fetch() == 6
    assert time.monotonic() - clicked < 2


def test_result_blocks_until_the_end_or_the_timeout() -> None:
    x = mt.tensor(np.arange(4), chunk_size=1)
    future = mt.elemwise(sleepy, x, 0.1, dtype=np.int64).execute(wait=False)
    with pytest.raises(concurrent.futures.TimeoutError):
        future.result(timeout=0.01)
    np.testing.assert_array_equal(future.result(timeout=10).fetch(), np.arange(4))


def test_a_cell_waiting_on_result_keeps_the_view_moving(session: mars.Session) -> None:
    # a cell blocked in result() blocks the kernel's event loop, where the view's own
    # updater runs: result() itself refreshes the view between short waits
    # 24 chunks of 0.2 s on the fixture's two threads: seconds on any machine
    x = mt.tensor(np.arange(24), chunk_size=1)
    future = mt.elemwise(sleepy, x, 0.2, dtype=np.int64).execute(wait=False)
    view = future.widget()
    assert not view.following  # no event loop here: nothing else moves it
    shown: list[tuple[str, int]] = []
    refresh = view.refresh

    def recording_refresh() -> None:
        refresh()
        shown.append((view.state, int(view.bar.value)))

    view.refresh = recording_refresh  # type: ignore[method-assign]
    started = time.monotonic()
    np.testing.assert_array_equal(future.result(timeout=60).fetch(), np.arange(24))
    waited = time.monotonic() - started
    assert shown, f"no refresh while result() waited {waited:.2f} s"
    assert any(state == "running" and 0 < done < 24 for state, done in shown), shown


def test_a_dataframe_result_is_previewed_by_its_head() -> None:
    data = pd.DataFrame({"n": range(10), "letter": list("abcdefghij")})
    future = md.DataFrame(data, chunk_size=3).execute(wait=False)
    view = FutureView(future)
    refresh_until_done(view)
    assert view.state == "succeeded"
    detail = view.detail.value
    assert "DataFrame: 10 rows × 2 columns" in detail
    assert data.head(5).to_html(max_cols=20) in detail
    assert "<td>f</td>" not in detail  # the sixth row is not part of the head


def test_a_tuple_result_is_previewed_element_by_element() -> None:
    t = mt.tensor(np.arange(6), chunk_size=2)
    series = md.Series(pd.Series([1.5, 2.5], name="price"), chunk_size=1)
    future = mars.execute(t, series, wait=False)
    view = FutureView(future)
    refresh_until_done(view)
    detail = view.detail.value
    assert "<b>[0]</b>" in detail
    assert "<b>[1]</b>" in detail
    assert "array([0, 1, 2, 3, 4, 5])" in detail
    assert "Series &#x27;price&#x27;: 2 rows" in detail


def test_without_operators_the_bar_falls_back_to_progress() -> None:
    future = ExecutionFuture(Progress(), lambda job: None)
    reading = snapshot(future)
    assert (reading.state, reading.done, reading.total) == ("pending", 0.0, 1.0)
    assert reading.progress_text == "0%"
    future.set_result({"answer": 42})
    view = FutureView(future)
    assert view.state == "succeeded"
    assert view.progress_label.value == "100%"
    assert view.bar.value == view.bar.max
    assert "{&#x27;answer&#x27;: 42}" in view.detail.value


def test_the_name_comes_from_the_future_unless_the_view_has_one() -> None:
    future = ExecutionFuture(Progress(), lambda job: None)
    view = FutureView(future)
    assert view.name == "execution"
    future.name = "monthly totals"
    view.refresh()
    assert view.name_label.value == "<b>monthly totals</b>"
    assert repr(future) == "<ExecutionFuture 'monthly totals' running progress=0%>"
    view.name = "<override>"
    assert view.name_label.value == "<b>&lt;override&gt;</b>"
    future.cancel()


def test_outside_a_kernel_the_future_displays_as_text() -> None:
    future = (mt.ones(4) + 1).execute(wait=False)
    future.result(timeout=10)
    assert future._repr_mimebundle_() == {"text/plain": repr(future)}
    assert repr(future) == "<ExecutionFuture 'add(ones)' finished progress=100%>"


def _fake_kernel_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    shell = types.SimpleNamespace(kernel=object())
    monkeypatch.setattr(IPython, "get_ipython", lambda: shell)


def test_in_a_kernel_the_future_displays_as_its_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    future = (mt.ones(4) + 1).execute(wait=False)
    future.result(timeout=10)
    _fake_kernel_shell(monkeypatch)
    bundle = future._repr_mimebundle_(include=None, exclude=None)
    view = future.widget()
    assert isinstance(view, FutureView)
    assert future.widget() is view  # every display shows the same widget
    assert bundle[WIDGET_MIME]["model_id"] == view.model_id
    assert bundle["text/plain"] == repr(future)


def test_in_a_kernel_without_a_registered_view_the_future_displays_as_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    future = (mt.ones(4) + 1).execute(wait=False)
    future.result(timeout=10)
    _fake_kernel_shell(monkeypatch)
    monkeypatch.setattr(engine_future, "_view", None)  # as where ipywidgets is missing
    assert future._repr_mimebundle_() == {"text/plain": repr(future)}
    with pytest.raises(RuntimeError, match="import jupyter_mars.widgets"):
        future.widget()


def test_the_widgets_package_registers_its_view() -> None:
    future = (mt.ones(4) + 1).execute(wait=False)
    future.result(timeout=10)
    assert engine_future._view is FutureView
    assert isinstance(future.widget(), FutureView)


def test_on_a_running_loop_the_view_updates_itself_from_that_loop() -> None:
    x = mt.tensor(np.arange(8), chunk_size=1)
    future = mt.elemwise(sleepy, x, 0.2, dtype=np.int64).execute(wait=False)
    seen: list[tuple[str, float]] = []

    async def watch() -> FutureView:
        view = FutureView(future)
        assert view.following
        loop_thread = threading.current_thread().name
        view.bar.observe(
            lambda change: seen.append((threading.current_thread().name, change["new"])),
            names="value",
        )
        assert loop_thread == "MainThread"
        await future
        await asyncio.wait_for(view.settled(), 5)
        return view

    view = asyncio.run(watch())
    assert not view.following
    assert view.state == "succeeded"
    assert view.bar.value == view.bar.max
    assert {thread for thread, _ in seen} == {"MainThread"}
    assert any(0 < value < view.bar.max for _, value in seen)  # it moved while work ran


def test_closing_the_view_stops_its_updater() -> None:
    x = mt.tensor(np.arange(20), chunk_size=1)
    future = mt.elemwise(sleepy, x, 0.1, dtype=np.int64).execute(wait=False)

    async def close_early() -> FutureView:
        view = FutureView(future)
        await asyncio.sleep(0.1)
        view.close()
        await view.settled()  # returns at once: nothing is left to show
        return view

    view = asyncio.run(close_early())
    assert not view.following
    future.cancel()


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.04, "0.0 s"), (12.345, "12.3 s"), (185, "3 min 05 s"), (3720, "1 h 02 min")],
)
def test_format_seconds(seconds: float, text: str) -> None:
    assert format_seconds(seconds) == text

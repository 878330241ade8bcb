"""Freed chunks: kept for the next ones, given back near the limits (in fresh processes:
the thresholds are the whole process's)."""

import time

import numpy as np
import pytest

from jupyter_mars.engine.storage import admission, heap
from tests.fresh_interpreter import run_in_fresh_interpreter

MiB = 1 << 20
CHUNK = 32 * MiB


def _churn(n: int) -> None:
    """Make and free ``n`` chunk-sized arrays, one at a time."""
    for i in range(n):
        a = np.empty(CHUNK // 8)
        a[:] = i  # touch every page
        del a


def kept_then_given_back() -> None:
    """Scenario: freed chunks stay resident for reuse, until the process nears a limit."""
    assert heap.keep_freed_chunks(1 << 32)
    base = admission.process_rss()
    _churn(4)
    kept = admission.process_rss()
    assert kept - base >= CHUNK // 2, (base, kept)  # the last chunk's memory is kept
    assert admission.process_rss(trim_above=kept * 10) >= kept - MiB  # far below: kept
    heap._last_trim = 0.0  # noqa: SLF001 - the throttle would skip a trim this soon
    trimmed = admission.process_rss(trim_above=base)
    assert trimmed - base < CHUNK // 2, (base, kept, trimmed)


def test_freed_chunks_are_kept_and_given_back_near_a_limit():
    run_in_fresh_interpreter("tests.engine.storage.test_heap", "kept_then_given_back")


def reused_not_mapped_again() -> None:
    """Scenario: a chunk made after one was freed takes its memory (few page faults)."""
    import resource

    assert heap.keep_freed_chunks(1 << 32)
    _churn(1)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    _churn(8)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    # a fresh mapping faults once per 4 KiB page: 8 chunks would be 65,536 faults
    assert faults < CHUNK // 4096, faults


def test_chunks_freed_are_reused_without_faulting_pages_in_again():
    run_in_fresh_interpreter("tests.engine.storage.test_heap", "reused_not_mapped_again")


def test_trims_asked_by_samples_are_spaced(monkeypatch):
    trims = []
    monkeypatch.setattr(heap, "trim", lambda: trims.append(1))
    monkeypatch.setattr(heap, "_last_trim", 0.0)
    assert heap.trim_now_and_then()
    monkeypatch.setattr(heap, "_last_trim", time.monotonic())
    assert not heap.trim_now_and_then()
    assert len(trims) == 1


@pytest.mark.parametrize("line", [0, 2**62])
def test_process_rss_is_the_resident_size_either_side_of_the_line(line):
    assert 0 < admission.process_rss(trim_above=line) < 2**62


def smallest_budget_holds() -> None:
    """Scenario: a runtime without a limit, after one with a small limit, keeps the
    small limit's budget."""
    assert heap.keep_freed_chunks(64 * MiB)  # 4 MiB kept
    assert heap.keep_freed_chunks(1 << 40)
    assert heap._budget == 4 * MiB  # noqa: SLF001 - the budget in force
    assert heap.keep_freed_chunks(16 * MiB)
    assert heap._budget == MiB  # noqa: SLF001


def test_the_smallest_budget_asked_for_holds():
    run_in_fresh_interpreter("tests.engine.storage.test_heap", "smallest_budget_holds")

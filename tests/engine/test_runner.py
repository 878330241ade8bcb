"""The task runner both runtimes share: interruption, and where it may not land."""

import sys
import threading
import time

import pytest

from jupyter_mars.engine.executors.runner import TaskInterrupted, TaskRunner, uninterruptible
from jupyter_mars.engine.graph import Task


def _count_to(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def _swallow_everything(started: threading.Event) -> str:
    started.set()
    try:
        while True:
            pass
    except BaseException:  # noqa: BLE001 - a chunk function that catches too much
        return "swallowed"


def test_an_interrupt_before_the_run_starts_stops_it_before_it_computes():
    runner = TaskRunner(n_slots=1, n_cpu=1)
    calls = []
    run = runner.begin("a")
    assert runner.interrupt("a") == 1
    with pytest.raises(TaskInterrupted):
        runner.run(run, Task("a", calls.append, (1,)), {})
    runner.end(run)
    assert calls == []
    assert runner.interrupt("a") == 0  # unregistered


class _OutOfRoom(TaskInterrupted):
    """A reason to stop a run, as the worker's memory rule has one."""


def _spin(started: threading.Event) -> str:
    started.set()
    while True:
        pass


def _interrupted_while_computing(kernel, reason: type[TaskInterrupted]) -> list[object]:
    """What a run of ``kernel(started)`` ends with when interrupted with ``reason`` once it
    started: its value or the exception it raised."""
    runner = TaskRunner(n_slots=1, n_cpu=1)
    started = threading.Event()
    outcome: list[object] = []
    run = runner.begin("a")

    def compute() -> None:
        try:
            outcome.append(runner.run(run, Task("a", kernel, (started,)), {}))
        except TaskInterrupted as exc:
            outcome.append(exc)

    thread = threading.Thread(target=compute)
    thread.start()
    assert started.wait(10)
    assert runner.interrupt("a", reason) == 1
    thread.join(10)
    assert not thread.is_alive()
    runner.end(run)
    return outcome


def test_a_result_is_discarded_even_if_the_chunk_function_catches_the_interrupt():
    outcome = _interrupted_while_computing(_swallow_everything, TaskInterrupted)
    assert [type(o) for o in outcome] == [TaskInterrupted]


def test_an_interrupt_raises_the_reason_given_both_while_and_before_it_computes():
    assert [type(o) for o in _interrupted_while_computing(_spin, _OutOfRoom)] == [_OutOfRoom]
    runner = TaskRunner(n_slots=1, n_cpu=1)
    early = runner.begin("b")
    runner.interrupt("b", _OutOfRoom)
    with pytest.raises(_OutOfRoom, match="before it started"):
        runner.run(early, Task("b", _count_to, (10,)), {})
    runner.end(early)


def test_an_interrupt_never_lands_in_the_caller_after_the_run():
    """Runs end while interrupts are sent at random moments: each run either computes or
    raises TaskInterrupted from ``run``, and the code after it never sees one."""
    runner = TaskRunner(n_slots=1, n_cpu=1)
    current: list[object] = [None]
    stop = threading.Event()
    stray: list[str] = []
    outcomes = {"done": 0, "interrupted": 0}

    def compute() -> None:
        try:
            compute_all()
        finally:
            stop.set()

    def compute_all() -> None:
        for i in range(3000):
            run = runner.begin(i)
            current[0] = i
            try:
                runner.run(run, Task(i, _count_to, (200,)), {})
                outcomes["done"] += 1
            except TaskInterrupted:
                outcomes["interrupted"] += 1
            finally:
                runner.end(run)
            try:  # Python code of the caller's, where no interrupt may land
                for _ in range(20):
                    pass
            except TaskInterrupted:
                stray.append(f"after run {i}")

    def interrupt() -> None:
        while not stop.is_set():
            runner.interrupt(current[0])
            time.sleep(0)

    threads = [threading.Thread(target=compute), threading.Thread(target=interrupt, daemon=True)]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the GIL changes hands often: interrupts land anywhere
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        sys.setswitchinterval(switch)
    assert stray == []
    assert outcomes["done"] + outcomes["interrupted"] == 3000
    assert outcomes["interrupted"] > 0


class _Marks:
    """What a kernel reached (an object, not a list: task arguments that are lists are
    rebuilt when the task runs)."""

    def __init__(self) -> None:
        self.reached: list[str] = []


def _shielded_spin(started: threading.Event, marks: _Marks) -> str:
    with uninterruptible():
        started.set()
        deadline = time.monotonic() + 0.3
        while time.monotonic() < deadline:
            pass
        marks.reached.append("block ended")
    marks.reached.append("after the block")  # never: the deferred interrupt comes first
    return "finished"


def test_an_interrupt_inside_an_uninterruptible_block_waits_for_its_end():
    runner = TaskRunner(n_slots=1, n_cpu=1)
    started = threading.Event()
    marks = _Marks()
    outcome: list[object] = []
    run = runner.begin("a")

    def compute() -> None:
        try:
            outcome.append(runner.run(run, Task("a", _shielded_spin, (started, marks)), {}))
        except TaskInterrupted as exc:
            outcome.append(exc)

    thread = threading.Thread(target=compute)
    thread.start()
    assert started.wait(10)
    assert runner.interrupt("a", _OutOfRoom) == 1
    thread.join(10)
    assert not thread.is_alive()
    runner.end(run)
    assert marks.reached == ["block ended"]
    assert [type(o) for o in outcome] == [_OutOfRoom]

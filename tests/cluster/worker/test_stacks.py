"""thread_stacks: every thread's stack, task slot threads first."""

from __future__ import annotations

import threading

from jupyter_mars.cluster.worker.stacks import thread_stacks


def _parked_here(release: threading.Event, parked: threading.Event) -> None:
    parked.set()
    release.wait(10)


def test_a_slot_thread_comes_first_with_the_function_it_waits_in():
    release, parked = threading.Event(), threading.Event()
    thread = threading.Thread(
        target=_parked_here, args=(release, parked), name="mars-slot-test", daemon=True
    )
    thread.start()
    try:
        assert parked.wait(5)
        stacks = thread_stacks()
    finally:
        release.set()
        thread.join(5)
    first = stacks[0]
    assert first["thread"] == "mars-slot-test"
    assert first["ident"] == thread.ident
    assert first["daemon"] is True
    assert "_parked_here" in first["stack"]
    assert "release.wait(10)" in first["stack"]  # the source line of each frame
    # innermost last: the thread's start, then the function, then what it waits in
    assert first["stack"].index("in _bootstrap") < first["stack"].index("in _parked_here")
    assert first["stack"].rstrip().splitlines()[-1].strip() != "release.wait(10)"


def test_every_thread_is_listed_once_with_its_name():
    stacks = thread_stacks()
    idents = [s["ident"] for s in stacks]
    assert len(idents) == len(set(idents))
    (main,) = [s for s in stacks if s["ident"] == threading.main_thread().ident]
    assert main["thread"] == threading.main_thread().name
    assert "test_every_thread_is_listed_once_with_its_name" in main["stack"]
    assert all(set(s) == {"thread", "ident", "daemon", "stack"} for s in stacks)

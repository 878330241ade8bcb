"""Looking for the active supervisor waits only while a failover can still come: not when
every address it knows refuses the connection (the cluster stopped)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from jupyter_mars.remote.failover import find_active
from jupyter_mars.remote.http import NothingListens
from tests.cluster.processes import free_port


class Pauses:
    """Records the pauses between two rounds over the known supervisors."""

    def __init__(self) -> None:
        self.taken: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.taken.append(seconds)
        time.sleep(seconds)


@pytest.fixture
def silent_url() -> Iterator[str]:
    """An address that takes connections and never answers: a hung supervisor."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def test_addresses_that_all_refuse_fail_after_one_round_without_waiting() -> None:
    known = [f"http://127.0.0.1:{free_port()}", f"http://127.0.0.1:{free_port()}"]
    pauses = Pauses()
    with pytest.raises(NothingListens, match="nothing listens"):
        find_active(known, "token", time.monotonic() + 3600, pause=pauses)
    assert pauses.taken == []


def test_an_address_that_does_not_answer_in_time_is_waited_for(silent_url: str) -> None:
    known = [f"http://127.0.0.1:{free_port()}", silent_url]
    pauses = Pauses()
    with pytest.raises(ConnectionError, match="no active jupyter_mars supervisor") as caught:
        find_active(known, "token", time.monotonic() + 1.0, request_timeout=0.2, pause=pauses)
    assert not isinstance(caught.value, NothingListens)
    assert pauses.taken  # it went round again: the silent one may come back

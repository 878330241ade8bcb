"""Where the trainers meet: the rendezvous of LightGBM's workers, the driver's address."""

from __future__ import annotations

import socket
import threading

import pytest

from jupyter_mars.learn.contrib.network import Rendezvous, driver_host, join, reserve_port


def join_all(address: str, ports: dict[int, int]) -> dict[int, object]:
    answers: dict[int, object] = {}

    def one(index: int, port: int) -> None:
        try:
            answers[index] = join(address, index, port, timeout=10)
        except ConnectionError as exc:
            answers[index] = exc

    threads = [threading.Thread(target=one, args=item) for item in ports.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def test_every_worker_learns_every_address_in_the_order_of_their_indices() -> None:
    with Rendezvous(3, "127.0.0.1", timeout=20) as meeting:
        answers = join_all(meeting.address, {2: 7002, 0: 7000, 1: 7001})
    machines = ["127.0.0.1:7000", "127.0.0.1:7001", "127.0.0.1:7002"]
    assert answers == {i: (machines, machines[i]) for i in range(3)}


def test_workers_that_came_are_failed_when_the_others_do_not_come_in_time() -> None:
    with Rendezvous(3, "127.0.0.1", timeout=1) as meeting:
        answers = join_all(meeting.address, {0: 7000, 1: 7001})
    assert set(answers) == {0, 1}
    for answer in answers.values():
        assert isinstance(answer, ConnectionError)
        assert "2 of 3 workers came (timed out)" in str(answer)


def test_closing_the_rendezvous_fails_the_workers_waiting() -> None:
    meeting = Rendezvous(2, "127.0.0.1", timeout=60)
    answers: dict[int, object] = {}
    waiter = threading.Thread(target=lambda: answers.update(join_all(meeting.address, {0: 1})))
    waiter.start()
    meeting.close()  # before or after the worker came: it fails either way
    waiter.join(30)
    assert isinstance(answers[0], ConnectionError)


def test_a_reserved_port_is_held_until_closed_and_refuses_connections() -> None:
    held = reserve_port()
    port = held.getsockname()[1]
    other = reserve_port()
    assert other.getsockname()[1] != port
    # a peer is refused (and tries again) rather than accepted and reset at the close
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5)
    held.close()
    other.close()


def test_the_driver_is_reached_on_loopback_by_the_embedded_session(session) -> None:
    assert driver_host(session) == "127.0.0.1"


class Remote:
    address = "http://127.0.0.1:8080/"


def test_the_driver_is_reached_where_its_route_to_the_supervisor_leaves_from() -> None:
    assert driver_host(Remote()) == "127.0.0.1"


class Unreachable:
    address = "http://no-such-host.invalid:8080/"


def test_a_remote_address_that_does_not_resolve_falls_back_to_this_machine() -> None:
    assert driver_host(Unreachable())  # this machine's own address, or loopback

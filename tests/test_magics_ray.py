"""``%mars`` with Ray on a real IPython shell: the Ray forms of ``connect`` and ``start``,
what they refuse, and ``status`` of a Ray session's nodes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

import jupyter_mars as mars
from jupyter_mars import magics


def test_ray_addresses_are_told_from_cluster_addresses() -> None:
    assert magics.ray_address("ray://10.0.0.1:10001") == "ray://10.0.0.1:10001"
    assert magics.ray_address("ray") is None
    assert magics.ray_address("ray://") is False
    assert magics.ray_address("http://127.0.0.1:7103") is False
    assert magics.ray_address(None) is False
    assert magics.parse_line("start --ray").ray
    assert not magics.parse_line("start").ray


def test_status_of_ray_nodes_counts_live_nodes_only() -> None:
    nodes = [
        {"NodeManagerAddress": "127.0.0.1", "Alive": True, "Resources": {"CPU": 1.0}},
        {"NodeManagerAddress": "127.0.0.2", "Alive": True, "Resources": {"CPU": 2.0}},
        {"NodeManagerAddress": "127.0.0.3", "Alive": False, "Resources": {"CPU": 8.0}},
    ]
    lines = magics.ray_status_text("127.0.0.1:6379", nodes).splitlines()
    assert lines[0] == "Ray session at 127.0.0.1:6379, 2 nodes: 3 CPUs, 0.0 GiB memory"
    assert [line.split()[0] for line in lines[2:]] == ["127.0.0.1", "127.0.0.2"]


@pytest.fixture(scope="module")
def shell() -> Iterator[InteractiveShell]:
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "jupyter_mars")
    yield ip
    owned = ip.magics_manager.registry["MarsMagics"].ray_session
    if owned is not None:
        owned.close()
    InteractiveShell.clear_instance()


@pytest.fixture
def mars_magic(shell: InteractiveShell, session: mars.Session) -> Iterator[Any]:
    def run(line: str) -> Any:
        return shell.run_line_magic("mars", line)

    yield run
    session.as_default()


def test_a_token_is_refused_for_ray(mars_magic: Any, capsys: Any) -> None:
    before = mars.get_default_session()
    assert mars_magic("connect ray://127.0.0.1:10001 --token abc") is None
    assert "--token is for jupyter_mars clusters, not Ray" in capsys.readouterr().out
    assert mars.get_default_session() is before

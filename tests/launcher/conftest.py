"""Fixtures for the SSH launcher's tests: real sshd servers, on loopback or as hosts in
network namespaces (``tests/launcher/sshd.py`` has the classes, for tests that need their
own, such as one whose host key changes)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from jupyter_mars.launcher.ssh import SSHConnection
from tests.launcher.sshd import NetnsHosts, SshServer


@pytest.fixture(scope="module")
def ssh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    """An sshd on 127.0.0.1 shared by a module's tests; its ``known_hosts`` knows it."""
    with SshServer(tmp_path_factory.mktemp("sshd")) as server:
        yield server


@pytest.fixture
def ssh_connection(ssh_server: SshServer) -> Iterator[SSHConnection]:
    """A connected ``SSHConnection`` to ``ssh_server``, closed after the test."""
    with ssh_server.connection() as connection:
        yield connection


@pytest.fixture(scope="module")
def netns_hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NetnsHosts]:
    """Two hosts in network namespaces, each with an sshd on its address, port 22;
    skipped where namespaces cannot be made (not root)."""
    with NetnsHosts(2, tmp_path_factory.mktemp("netns")) as hosts:
        yield hosts

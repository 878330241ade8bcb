"""The SSH launcher's shell commands, run by a real ``sh`` here: a worker starts
detached with the token in its environment but never on a command line, its PID is
printed, it is seen alive, and stopping leaves neither it nor its directory."""

from __future__ import annotations

import doctest
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from jupyter_mars.launcher import command
from jupyter_mars.launcher.command import alive, make_workdir, start_worker, stop_workers
from jupyter_mars.launcher.hosts import Host

TOKEN = "s3cret-token-value"


def test_the_examples_hold() -> None:
    assert doctest.testmod(command).failed == 0


def _sh(script: str, shell: str = "sh") -> subprocess.CompletedProcess[str]:
    return subprocess.run([shell, "-c", script], capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("shell", ["sh", "bash"])  # a login shell over SSH may be either
def test_a_worker_starts_detached_and_stops_for_good(tmp_path: Path, shell: str) -> None:
    workdir = str(tmp_path / "cluster dir")  # a space: quoting matters
    assert _sh(make_workdir(workdir)).returncode == 0
    assert oct(os.stat(workdir).st_mode & 0o777) == "0o700"
    Path(workdir, "token").write_text(TOKEN)
    host = Host("localhost", python=sys.executable, env={"MARS_EXTRA": "a b"})
    code = (
        "import os, time; "
        "print(os.environ['MARS_TOKEN'], os.environ['MARS_EXTRA'], flush=True); time.sleep(60)"
    )
    started = _sh(start_worker(host, ["-c", code], workdir, "worker-0"), shell)
    pid = int(started.stdout.strip())
    try:
        log = Path(workdir, "worker-0.log")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and TOKEN not in log.read_text():
            time.sleep(0.05)
        assert log.read_text().strip() == f"{TOKEN} a b"
        process = psutil.Process(pid)
        assert TOKEN not in " ".join(process.cmdline())  # only in its environment
        assert os.getsid(pid) == pid  # a session of its own: no hang-up reaches it
        finished = psutil.Popen(["true"])  # a PID that ran and ended
        finished.wait()
        assert _sh(alive([pid, finished.pid])).stdout.split() == [str(pid)]
    finally:
        stopped = _sh(stop_workers([pid], workdir))
    assert stopped.returncode == 0
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    assert not Path(workdir).exists()
    assert _sh(alive([pid])).stdout == ""


def test_a_worker_ignoring_sigterm_is_killed(tmp_path: Path) -> None:
    workdir = str(tmp_path)
    Path(workdir, "token").write_text(TOKEN)
    code = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)"
    host = Host("localhost", python=sys.executable)
    pid = int(_sh(start_worker(host, ["-c", code], workdir, "stubborn")).stdout)
    time.sleep(0.3)  # let it install its handler
    assert _sh(stop_workers([pid], None, wait=1)).returncode == 0
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_an_environment_is_activated_before_python(tmp_path: Path) -> None:
    workdir = str(tmp_path)
    Path(workdir, "token").write_text(TOKEN)
    activate = tmp_path / "activate"
    activate.write_text("export ACTIVATED=yes\n")
    host = Host("localhost", python=f". {activate} && {sys.executable}")
    code = "import os; print(os.environ['ACTIVATED'])"
    pid = int(_sh(start_worker(host, ["-c", code], workdir, "env")).stdout)
    deadline = time.monotonic() + 10
    log = tmp_path / "env.log"
    while time.monotonic() < deadline and "yes" not in log.read_text():
        time.sleep(0.05)
    assert log.read_text().strip() == "yes"
    _sh(stop_workers([pid], None))


def test_workers_whose_start_was_never_confirmed_are_stopped_from_the_pids_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # a narrow ``ps`` would cut the command line short
    workdir = str(tmp_path / "cluster")
    _sh(make_workdir(workdir))
    Path(workdir, "token").write_text(TOKEN)
    host = Host("localhost", python=sys.executable)
    code = "import time; time.sleep(60)  # a jupyter_mars worker"
    pid = int(_sh(start_worker(host, ["-c", code], workdir, "lost")).stdout)  # answer "lost"
    bystander = psutil.Popen(["sleep", "60"])  # its PID in the file, but not ours
    with Path(workdir, "pids").open("a") as pids:
        pids.write(f"{bystander.pid}\n")
    try:
        assert _sh(stop_workers([], workdir, wait=2)).returncode == 0
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        assert bystander.is_running()
        assert bystander.status() != psutil.STATUS_ZOMBIE
        assert not Path(workdir).exists()
    finally:
        bystander.kill()
        bystander.wait()

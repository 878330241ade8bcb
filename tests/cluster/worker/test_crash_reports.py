"""A worker's death is never silent: a crash leaves its stack, the nanny names the signal,
and an exception that escapes a thread or the event loop is logged as the reason."""

from __future__ import annotations

import asyncio
import ctypes
import re
import signal
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

from jupyter_mars.cluster.wire.rpc import RemoteError, RPCClient, RPCServer
from jupyter_mars.engine.graph import Task
from jupyter_mars.launcher.local import _Process
from tests.cluster.processes import WORKER, cli_cluster

WAIT = 60
"""Seconds to wait for what takes about one: generous for a loaded machine."""


def _wait_for_line(process: _Process, text: str) -> None:
    deadline = time.monotonic() + WAIT
    while not any(text in line for line in process.lines):
        assert time.monotonic() < deadline, f"no {text!r} in:\n" + "\n".join(process.lines)
        time.sleep(0.1)


def test_a_worker_that_segfaults_leaves_its_stack_and_its_nanny_names_the_signal() -> None:
    with cli_cluster(0) as cluster:
        argv = [
            sys.executable,
            "-m",
            "jupyter_mars.deploy.worker",
            "-H",
            "127.0.0.1",
            "-s",
            cluster.rpc,
        ]
        process = _Process([*argv, "--n-cpu", "1"], cluster.env)  # under its nanny
        try:
            address = process.wait_for(WORKER, WAIT)

            async def crash() -> None:
                client = RPCClient(address, cluster.token, timeout=WAIT)
                try:
                    # reads address 0: a segfault in C, in a task slot
                    task = Task("crash", ctypes.string_at, (0,))
                    with pytest.raises(ConnectionError):
                        await client.call("execute", key="crash", task=task, locations={})
                finally:
                    await client.close()

            asyncio.run(crash())
            _wait_for_line(process, "was killed by SIGSEGV")
            log = "\n".join(process.lines)
            assert "Fatal Python error: Segmentation fault" in log
            assert "in string_at" in log, "the stack of the crashing thread is missing"
        finally:
            process.stop()


def _run_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )


def test_an_exception_that_escapes_a_thread_is_logged_with_its_reason() -> None:
    result = _run_python(
        """
        import logging, threading
        from jupyter_mars.cluster.worker.crash_reports import report_crashes
        logging.basicConfig(format="%(levelname)s %(name)s: %(message)s")
        report_crashes()
        def fail():
            raise ValueError("the reason")
        thread = threading.Thread(target=fail, name="mars-slot-0")
        thread.start()
        thread.join()
        """
    )
    assert result.returncode == 0, result.stderr
    assert (
        "CRITICAL jupyter_mars.cluster.worker.crash_reports: uncaught exception in thread "
        "mars-slot-0: ValueError: the reason"
    ) in result.stderr
    assert "line 7, in fail" in result.stderr  # the traceback


def test_a_worker_whose_loop_fails_logs_why_before_it_exits() -> None:
    async def main() -> tuple[int | None, str]:
        # a supervisor that answers registrations with an error the worker cannot handle
        async def refuse(**_: object) -> None:
            raise RuntimeError("no workers wanted here")

        async def unregister(**_: object) -> None:
            return None

        supervisor = RPCServer(
            {"register_worker": refuse, "unregister_worker": unregister}, "token"
        )
        address = await supervisor.start()
        try:
            worker = await asyncio.create_subprocess_exec(
                *(
                    sys.executable,
                    "-m",
                    "jupyter_mars.deploy.worker",
                    "-H",
                    "127.0.0.1",
                    "-s",
                    address,
                ),
                *("--token", "token", "--no-nanny"),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            _, stderr = await asyncio.wait_for(worker.communicate(), WAIT)
        finally:
            await supervisor.stop()
        return worker.returncode, stderr.decode()

    returncode, stderr = asyncio.run(main())
    assert returncode == 1, stderr
    reason = re.search(r"CRITICAL .*: (worker \S+ is stopping on an unexpected error: .*)", stderr)
    assert reason, stderr
    assert reason.group(1).endswith("RuntimeError: no workers wanted here")


def test_a_task_that_calls_sys_exit_fails_and_its_worker_lives() -> None:
    with cli_cluster(1, "--n-cpu", "1") as cluster:
        worker = cluster.workers[0]
        address = worker.wait_for(WORKER, 1)

        async def leave() -> None:
            client = RPCClient(address, cluster.token, timeout=WAIT)
            try:
                task = Task("leave", sys.exit, (3,))
                with pytest.raises(RemoteError, match="SystemExit: 3"):
                    await client.call("execute", key="leave", task=task, locations={})
                assert (await client.call("info"))["address"] == address
            finally:
                await client.close()

        asyncio.run(leave())
        assert worker.popen.poll() is None


def test_a_worker_stopped_behind_its_nannys_back_is_logged_by_the_nanny() -> None:
    with cli_cluster(0) as cluster:
        argv = [
            sys.executable,
            "-m",
            "jupyter_mars.deploy.worker",
            "-H",
            "127.0.0.1",
            "-s",
            cluster.rpc,
        ]
        process = _Process([*argv, "--n-cpu", "1"], cluster.env)
        try:
            process.wait_for(WORKER, WAIT)
            (worker,) = psutil.Process(process.popen.pid).children()
            worker.send_signal(signal.SIGTERM)  # a clean stop, not asked of the nanny
            assert process.popen.wait(WAIT) == 0
            _wait_for_line(process, f"worker process {worker.pid} exited with status 0")
        finally:
            process.stop()

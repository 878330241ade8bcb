"""The nanny: a small parent process that runs a worker and restarts it when it dies.

``mars-worker`` runs as a nanny unless given ``--no-nanny``; the nanny starts the same
command line with ``--no-nanny`` as its child, the real worker. It

- sets what a long-lived numeric process needs before the child starts, since the C
  libraries read it only then: one BLAS / OpenMP thread (the worker runs one per task
  slot). Values already set are kept. (How much freed memory glibc keeps, the worker sets
  itself: ``engine/storage/heap.py``.)
- restarts the child when it dies, after a delay that doubles with each death, and gives
  up after too many deaths in a short window (``restarts.py``); it logs every end of the
  child, with its status or signal.
  A child that exits 0 was stopped on purpose, and one that exits 2 was given a bad
  command line: neither is restarted.
- forwards SIGTERM and SIGINT to the child and exits once it has exited; a child that is
  still running ``STOP_GRACE`` seconds later is killed.

The child runs in a session (and process group) of its own, so that a terminal's Ctrl-C
reaches it once, through the nanny, and it watches a pipe from the nanny: when the nanny
dies without stopping it (SIGKILL), the pipe closes and the child ends at once, as if
killed with it.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, MutableMapping, Sequence
from types import FrameType

from jupyter_mars.deploy.restarts import RestartPolicy, describe_exit, exit_status

logger = logging.getLogger("jupyter_mars.nanny")

NUMERIC_ENVIRONMENT = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
}
"""Set in the worker's environment unless already there."""

NANNY_FD_ENV = "JUPYTER_MARS_NANNY_FD"
"""The child's end of the pipe it watches to learn that its nanny is gone."""

STOP_GRACE = 30.0
"""Seconds a child has to exit after the nanny forwarded a signal, before it is killed."""

USAGE_STATUS = 2
"""What the programs exit with when their command line is wrong (``run_cli``)."""

_POLL = 0.1


def child_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` with ``NUMERIC_ENVIRONMENT`` added where not set.

    >>> env = child_environment({"OMP_NUM_THREADS": "4"})
    >>> env["OMP_NUM_THREADS"], env["OPENBLAS_NUM_THREADS"]
    ('4', '1')
    """
    return {**NUMERIC_ENVIRONMENT, **environ}


class Nanny:
    """Runs ``command`` as a child process until told to stop (see the module docstring)."""

    def __init__(
        self,
        command: Sequence[str],
        environ: Mapping[str, str] | None = None,
        policy: RestartPolicy | None = None,
        stop_grace: float = STOP_GRACE,
    ) -> None:
        self.command = list(command)
        self.environ = child_environment(os.environ if environ is None else environ)
        self.policy = policy or RestartPolicy()
        self.stop_grace = stop_grace
        self.child: subprocess.Popen[bytes] | None = None
        self._signals: list[int] = []
        """Signals received and not yet acted on: the handler only records them."""
        self._stop_signal: int | None = None
        self._stop_since = 0.0

    def run(self) -> int:
        """Run and restart the child; this process's exit status once it stops."""
        previous = {sig: signal.signal(sig, self._on_signal) for sig in _STOP_SIGNALS}
        try:
            return self._run()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _run(self) -> int:
        while True:
            self._take_signals()
            if self._stop_signal is not None:
                return 0
            returncode = self._run_child()
            assert self.child is not None
            # every end of the child is logged: one that exits of itself is never silent
            ended = f"worker process {self.child.pid} {describe_exit(returncode)}"
            if self._stop_signal is not None:
                logger.info("%s", ended)
                return 0 if returncode in (0, -self._stop_signal) else exit_status(returncode)
            if returncode in (0, USAGE_STATUS):
                level = logging.WARNING if returncode == 0 else logging.ERROR
                logger.log(level, "%s; not starting it again", ended)
                return returncode
            delay = self.policy.after_death(time.monotonic())
            if delay is None:
                logger.error(
                    "worker process %d %s; it died %d times within %.0f s: not restarting",
                    self.child.pid,
                    describe_exit(returncode),
                    self.policy.max_restarts + 1,
                    self.policy.window,
                )
                return exit_status(returncode)
            logger.warning(
                "worker process %d %s; restarting it in %.1f s",
                self.child.pid,
                describe_exit(returncode),
                delay,
            )
            until = time.monotonic() + delay
            while time.monotonic() < until:
                self._take_signals()
                if self._stop_signal is not None:
                    return 0
                time.sleep(_POLL)

    def _run_child(self) -> int:
        """Start the child and wait for it to exit; its ``returncode``."""
        read_end, write_end = os.pipe()
        try:
            self.child = subprocess.Popen(
                self.command,
                env={**self.environ, NANNY_FD_ENV: str(read_end)},
                pass_fds=(read_end,),
                start_new_session=True,
            )
        finally:
            os.close(read_end)
        try:
            logger.info("started worker process %d", self.child.pid)
            while True:
                self._take_signals()
                try:
                    return self.child.wait(_POLL)
                except subprocess.TimeoutExpired:
                    pass
                if (
                    self._stop_signal is not None
                    and time.monotonic() - self._stop_since > self.stop_grace
                ):
                    logger.warning(
                        "worker process %d still runs %.0f s after %s: killing it",
                        self.child.pid,
                        self.stop_grace,
                        signal.Signals(self._stop_signal).name,
                    )
                    self.child.kill()
                    return self.child.wait()
        finally:
            os.close(write_end)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self._signals.append(signum)

    def _take_signals(self) -> None:
        """Act on the signals received since the last call: the first one stops the
        child; a second SIGINT is passed on too (Ctrl-C again: the child exits at once)."""
        while self._signals:
            signum = self._signals.pop(0)
            if self._stop_signal is None:
                logger.info("%s: stopping the worker", signal.Signals(signum).name)
                self._stop_signal, self._stop_since = signum, time.monotonic()
            elif signum != signal.SIGINT:
                continue
            if self.child is not None and self.child.poll() is None:
                self.child.send_signal(signum)


_STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


def run_nanny(command: Sequence[str]) -> int:
    """Run ``command`` under a nanny in this process; the exit status for this process."""
    return Nanny(command).run()


def worker_command(argv: Sequence[str]) -> list[str]:
    """The command line of the worker a nanny runs for ``mars-worker argv``."""
    return [sys.executable, "-m", "jupyter_mars.deploy.worker", *argv, "--no-nanny"]


def exit_with_nanny(environ: MutableMapping[str, str] | None = None) -> None:
    """In a worker started by a nanny, end this process as soon as the nanny is gone.
    (A supervisor or worker that a Ray actor keeps is given the same pipe by the actor.)

    The nanny never writes to the pipe: reading it returns only when the nanny's end
    closes, which the kernel does when the nanny dies, however it dies.
    """
    env = os.environ if environ is None else environ
    raw = env.pop(NANNY_FD_ENV, None)  # not passed on to this worker's own children
    if raw is None:
        return
    fd = int(raw)
    nanny = os.getppid()

    def watch() -> None:
        try:
            while os.read(fd, 1):
                pass
        except OSError:
            pass
        logger.error("the nanny (process %d) is gone: exiting", nanny)
        os._exit(1)

    threading.Thread(target=watch, name="mars-nanny-watch", daemon=True).start()

"""Which subdirectories of a spill directory belong to live stores, and sweeping the rest.

Each store spills under a subdirectory of its own, ``jupyter-mars-chunks-<pid>-<random>``,
holding an exclusive ``flock`` on the ``.owner.lock`` file inside it for as long as it
lives. The kernel drops the lock when the process dies, however it dies (SIGKILL, the
OOM killer), so a starting store can tell the subdirectories of dead ones: their lock can
be taken. It removes those before claiming its own, and a spill directory shared by
workers that are killed and restarted never holds more than one subdirectory per live
worker. (``flock`` locks belong to the open file, so two stores of one process exclude
each other too.)

A subdirectory is made under a hidden staging name, locked, then renamed: a subdirectory
with the public name is locked from the moment it appears, and one found without a lock
file was left by a store that did not lock (an older version) and is swept as well.
Staging names are never swept, so no sweep can take a lock before its owner does (one
left by a process that died within that instant holds nothing but an empty lock file).
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass

logger = logging.getLogger(__name__)

PREFIX = "jupyter-mars-chunks-"
_STAGING = ".jupyter-mars-staging-"
LOCK_NAME = ".owner.lock"


@dataclass
class OwnedDir:
    """A subdirectory this process owns, and the open lock file that says so."""

    path: str
    lock_fd: int

    def release(self) -> None:
        """Delete the subdirectory and every file in it, then let go of the lock."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self.lock_fd >= 0:
            os.close(self.lock_fd)
            self.lock_fd = -1


def claim(root: str) -> OwnedDir:
    """Sweep ``root`` of dead stores' subdirectories, then make and lock one of ours.

    ``root`` must exist; errors making the subdirectory raise ``OSError``.
    """
    sweep(root)
    staging = tempfile.mkdtemp(prefix=f"{_STAGING}{os.getpid()}-", dir=root)
    path = os.path.join(root, PREFIX + os.path.basename(staging)[len(_STAGING) :])
    try:
        fd = _lock(os.path.join(staging, LOCK_NAME), create=True)
        if fd is None:  # nobody else opens a staging directory's lock
            raise OSError(f"{staging} is locked by another process")
        try:
            os.rename(staging, path)
        except OSError:
            os.close(fd)
            raise
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return OwnedDir(path, fd)


def sweep(root: str) -> list[str]:
    """Remove the subdirectories under ``root`` whose owner is gone; the paths removed.

    Errors are logged, never raised: a leftover costs disk, not data, and must not stop a
    worker from starting.
    """
    try:
        names = os.listdir(root)
    except OSError as exc:
        logger.warning("could not list spill directory %s: %s", root, exc)
        return []
    removed = []
    for name in names:
        if not name.startswith(PREFIX):
            continue
        path = os.path.join(root, name)
        if os.path.islink(path) or not os.path.isdir(path):
            continue
        try:
            fd = _lock(os.path.join(path, LOCK_NAME), create=False)
        except FileNotFoundError:
            fd = -1  # an older store's, from before the lock
        except OSError as exc:
            logger.warning("could not check spill directory %s: %s", path, exc)
            continue
        if fd is None:
            continue  # its owner lives
        OwnedDir(path, fd).release()
        removed.append(path)
    if removed:
        logger.info("removed %d spill directories of stopped workers under %s", len(removed), root)
    return removed


def _lock(path: str, *, create: bool) -> int | None:
    """An open descriptor of ``path`` holding its exclusive lock, or None when another
    open file holds it."""
    flags = os.O_RDWR | os.O_CLOEXEC | (os.O_CREAT if create else 0)
    fd = os.open(path, flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError:
        os.close(fd)
        raise
    return fd

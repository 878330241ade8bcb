"""``mars-worker --cuda-devices`` is checked against the machine before the worker starts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.worker import check_cuda_devices
from tests.conftest import needs_gpu, no_gpu

TIMEOUT = 120
"""Seconds a worker that refuses to start may take at most on a loaded machine."""


def _start_worker(*args: str) -> subprocess.CompletedProcess[str]:
    # the supervisor address is never contacted: the check comes first
    argv = [sys.executable, "-m", "jupyter_mars.deploy.worker", "-s", "127.0.0.1:9", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, check=False)


@no_gpu
def test_a_worker_asked_for_a_gpu_where_none_can_be_used_exits_2_with_one_line() -> None:
    done = _start_worker("--cuda-devices", "0")
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("mars-worker: error: --cuda-devices 0 needs a GPU, and none can")


@no_gpu
def test_no_device_or_every_device_needs_no_gpu_to_start() -> None:
    check_cuda_devices([])  # "": no device
    check_cuda_devices(None)  # left out: every device there is, maybe none
    with pytest.raises(UsageError, match="--cuda-devices 1,0 needs a GPU"):
        check_cuda_devices([1, 0])


@needs_gpu
def test_a_worker_asked_for_a_device_that_does_not_exist_exits_2_with_one_line() -> None:
    done = _start_worker("--cuda-devices", "0,99")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("mars-worker: error: --cuda-devices 0,99: no CUDA device 99")

"""``mars-worker --cuda-devices`` is checked against the machine before the worker starts."""

from __future__ import annotations

import functools
import subprocess
import sys

import pytest

from jupyter_mars.deploy.cli import parse_worker_args, run_cli
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.worker import check_cuda_devices
from tests.conftest import needs_gpu, no_gpu
from tests.deploy.conftest import MACHINE

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


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("8g", 8 << 30), ("512m", 512 << 20), ("90%", 0.9), ("0.5", 0.5), ("100%", 1.0)],
)
def test_gpu_mem_is_bytes_or_a_share_of_each_device(raw, expected):
    config = parse_worker_args(["-s", "10.0.0.1:7001", "--gpu-mem", raw], env={}, resources=MACHINE)
    assert config.gpu_mem == expected
    assert type(config.gpu_mem) is type(expected)  # a share stays a share of the device


def test_gpu_mem_is_left_to_the_worker_by_default():
    config = parse_worker_args(["-s", "10.0.0.1:7001"], env={}, resources=MACHINE)
    assert config.gpu_mem is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("150%", "--gpu-mem: expected a share of the device's memory up to 100%, got '150%'"),
        ("0", "--gpu-mem: expected more than 0 bytes, got '0'"),
        ("lots", "--gpu-mem: expected a size such as"),
    ],
)
def test_a_bad_gpu_mem_is_refused_in_one_line(capsys, raw, expected):
    parse = functools.partial(parse_worker_args, env={}, resources=MACHINE)
    argv = ["-s", "10.0.0.1:7001", "--gpu-mem", raw]
    status = run_cli(parse, argv, lambda _: 0, prog="mars-worker")
    (line,) = capsys.readouterr().err.splitlines()
    assert status == 2
    assert line.startswith(f"mars-worker: error: argument {expected}")

"""``mars-worker`` (also ``python -m jupyter_mars.deploy.worker``).

Takes the older generation's flags too (``--cpu-procs``, ``--cuda-device``: see
``deploy/old_flags.py``). Registers with the supervisors given by ``-s`` (retrying with
backoff while none answers) and prints ``Mars Worker started at <host:port>`` once it has
joined. Unless given
``--no-nanny``, this process is the worker's nanny (``deploy/nanny.py``): it runs the worker
as its child, with the same flags, and restarts it when it dies.

``--cuda-devices`` is checked against this machine first, in the process that was started
(the nanny, or the worker itself): a device that does not exist, or no usable GPU at all,
stops it with exit status 2 and one line, before any supervisor hears of it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence

from jupyter_mars.deploy.arguments import WORKER_OPTIONS
from jupyter_mars.deploy.cli import WORKER_PROG, parse_worker_args, run_cli, with_old_flags
from jupyter_mars.deploy.configs import WorkerConfig
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.logs import configure_logging
from jupyter_mars.deploy.nanny import exit_with_nanny, run_nanny, worker_command
from jupyter_mars.deploy.old_flags import WORKER_OLD_FLAGS
from jupyter_mars.engine.devices import GPUUnavailable, check_devices
from jupyter_mars.remote.tokens import read_token_file


def serve(config: WorkerConfig, argv: Sequence[str] = ()) -> int:
    """Run a worker as ``config`` says: under a nanny that runs ``mars-worker argv
    --no-nanny``, or in this process."""
    configure_logging(config.log_level, config.log_format, config.log_conf)
    # CUDA numbers devices fastest first unless told otherwise, NVML by PCI bus: the same
    # order for both, so that --cuda-devices 1 is the GPU whose figures say index 1
    os.environ.setdefault("CUDA_DEVICE_ORDER", "PCI_BUS_ID")
    check_cuda_devices(config.cuda_devices)
    if config.nanny:
        return run_nanny(worker_command(argv))
    exit_with_nanny()
    return serve_here(config)


def check_cuda_devices(devices: Sequence[int] | None) -> None:
    """Raise ``UsageError`` (exit status 2) unless every device of ``--cuda-devices``
    exists here. It runs before the worker starts, not when parsing: a config names the
    devices of the machine it will run on, not of the one that reads it."""
    if not devices:
        return  # None: every device there is; []: none
    try:
        check_devices(devices, f"--cuda-devices {','.join(map(str, devices))}")
    except GPUUnavailable as error:
        raise UsageError(str(error)) from None


def serve_here(config: WorkerConfig) -> int:
    """Run a worker in this process until SIGTERM or SIGINT; its death is never silent
    (``cluster/worker/crash_reports.py``)."""
    from jupyter_mars.cluster.serve import (
        exit_if_threads_linger,
        new_event_loop_policy,
        run_until_signalled,
    )
    from jupyter_mars.cluster.worker.crash_reports import log_fatal, report_crashes
    from jupyter_mars.cluster.worker.server import WorkerServer

    report_crashes()
    try:
        new_event_loop_policy(config.use_uvloop)
    except RuntimeError as exc:
        raise UsageError(str(exc)) from None
    token = config.token
    for address in config.supervisors:
        token = token or read_token_file(address)
    if token is None:
        raise UsageError(
            "no cluster token: give --token, set MARS_TOKEN, or run on the supervisor's "
            "machine as the same user"
        )
    server = WorkerServer(
        supervisors=config.supervisors,
        token=token,
        host=config.host,
        port=config.port,
        advertise_address=config.advertise_address,
        n_cpu=config.n_cpu,
        n_io_process=config.n_io_process,
        cuda_devices=config.cuda_devices,
        gpu_mem=config.gpu_mem,
        cache_bytes=config.cache_mem,
        phy_mem_bytes=config.phy_mem,
        phy_mem_given=config.phy_mem_given,
        spill_dirs=config.spill_dirs,
        memory_soft_limit=config.memory_soft_limit,
        memory_hard_limit=config.memory_hard_limit,
    )

    async def start() -> None:
        await server.start()
        print(f"Mars Worker started at {server.address}", flush=True)

    try:
        asyncio.run(run_until_signalled(start, server.stop))
    except Exception as error:
        log_fatal(f"worker {server.address}" if server.address else "worker", error)
        exit_if_threads_linger(1)
        return 1
    exit_if_threads_linger(0)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``mars-worker``; the older flags (``--cpu-procs``) are rewritten as today's first,
    and the nanny hands its worker the rewritten ones, so each note is printed once."""
    today: list[str] = []

    def parse(arguments: Sequence[str]) -> WorkerConfig:
        today[:] = with_old_flags(WORKER_PROG, arguments, WORKER_OLD_FLAGS, WORKER_OPTIONS)
        return parse_worker_args(today)

    arguments = sys.argv[1:] if argv is None else list(argv)
    return run_cli(parse, arguments, lambda config: serve(config, today), prog=WORKER_PROG)


if __name__ == "__main__":
    sys.exit(main())

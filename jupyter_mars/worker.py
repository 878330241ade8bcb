"""``mars-worker`` (also ``python -m jupyter_mars.worker``).

Registers with the supervisors given by ``-s`` (retrying with backoff while none answers)
and prints ``Mars Worker started at <host:port>`` once it has joined.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from jupyter_mars.deploy.cli import parse_worker_args, run_cli
from jupyter_mars.deploy.configs import WorkerConfig
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.logs import configure_logging
from jupyter_mars.deploy.tokens import read_token_file


def serve(config: WorkerConfig) -> int:
    from jupyter_mars.engine.cluster.serve import new_event_loop_policy, run_until_signalled
    from jupyter_mars.engine.cluster.worker_server import WorkerServer

    configure_logging(config.log_level, config.log_format, config.log_conf)
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
        cache_bytes=config.cache_mem,
        phy_mem_bytes=config.phy_mem,
        spill_dirs=config.spill_dirs,
        memory_soft_limit=config.memory_soft_limit,
        memory_hard_limit=config.memory_hard_limit,
    )

    async def start() -> None:
        await server.start()
        print(f"Mars Worker started at {server.address}", flush=True)

    asyncio.run(run_until_signalled(start, server.stop))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_cli(parse_worker_args, argv, serve)


if __name__ == "__main__":
    sys.exit(main())

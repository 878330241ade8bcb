"""``mars-supervisor`` (also ``python -m jupyter_mars.deploy.supervisor``).

Prints ``Mars Supervisor started at <host:port>`` and ``Mars Web started at <host:port>``
once both services accept connections. Without a token (``--token``, ``MARS_TOKEN`` or
the config file) it generates one and stores it in a file only this user can read, under
the web and RPC addresses, where local clients and workers find it.

With ``-s a:7001,b:7002`` listing this supervisor among others, it is active only while
no supervisor listed before it is alive; the others stand by and take over when it dies.

The web service (``jupyter_mars/web/``: the HTTP API and the dashboard on ``-w``) is built
here and handed to the supervisor as its front; the supervisor never imports it.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Sequence

from jupyter_mars.deploy.cli import parse_supervisor_args, run_cli
from jupyter_mars.deploy.configs import SupervisorConfig
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.logs import configure_logging
from jupyter_mars.deploy.nanny import exit_with_nanny
from jupyter_mars.remote.tokens import generate_token, remove_token_file, write_token_file

logger = logging.getLogger(__name__)


def local_aliases(address: str) -> list[str]:
    """The addresses local clients may use for a service listening on ``address``."""
    host, port = address.rsplit(":", 1)
    hosts = [host]
    if host in ("0.0.0.0", "::", "[::]"):
        hosts += ["127.0.0.1", "localhost"]
    elif host == "127.0.0.1":
        hosts.append("localhost")
    return [f"{h}:{port}" for h in hosts]


def serve(config: SupervisorConfig) -> int:
    from jupyter_mars.cluster.serve import (
        exit_if_threads_linger,
        new_event_loop_policy,
        run_until_signalled,
    )
    from jupyter_mars.cluster.supervisor.server import SupervisorServer
    from jupyter_mars.web.server import WebServer

    configure_logging(config.log_level, config.log_format, config.log_conf)
    # a supervisor kept by another process (a Ray actor) ends when its keeper dies
    exit_with_nanny()
    try:
        new_event_loop_policy(config.use_uvloop)
    except RuntimeError as exc:
        raise UsageError(str(exc)) from None
    token = config.token or generate_token()
    server = SupervisorServer(
        token=token,
        host=config.host,
        port=config.port,
        front=WebServer(
            port=config.web_port,
            base_path=config.web_base_path,
            allowed_hosts=config.allowed_hosts,
        ),
        advertise_address=config.advertise_address,
        supervisors=config.supervisors,
        no_workers_timeout=config.no_workers_timeout,
        session_timeout=config.session_timeout,
    )
    written: list[str] = []

    async def start() -> None:
        await server.start()
        listening = [server.web_listen_address, server.web_address, server.address]
        for address in dict.fromkeys(a for served in listening for a in local_aliases(served)):
            write_token_file(address, token)
            written.append(address)
        print(f"Mars Supervisor started at {server.address}", flush=True)
        print(f"Mars Web started at {server.web_address}", flush=True)

    async def stop() -> None:
        await server.stop()
        for address in written:
            remove_token_file(address)

    asyncio.run(run_until_signalled(start, stop))
    exit_if_threads_linger(0)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_cli(parse_supervisor_args, argv, serve)


if __name__ == "__main__":
    sys.exit(main())

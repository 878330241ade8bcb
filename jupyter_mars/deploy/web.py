"""``mars-web`` (also ``python -m jupyter_mars.deploy.web``): the web service, HTTP API
and dashboard, as a process of its own in front of the supervisors, as Mars's older
standalone mode ran it::

    mars-web -a <web_ip> -p <web_port> -s <scheduler_ip>:<scheduler_port>

It forwards every request to the active supervisor's own web service
(``jupyter_mars/web/proxy.py``), so ``new_session('http://<web_ip>:<web_port>')`` and a
browser work as they do at the supervisor's ``-w`` port. It needs the cluster token to
ask the supervisors where that is: ``--token``, ``MARS_TOKEN``, the config file, or the
supervisor's token file on the same machine. It starts whether or not a supervisor is up
(answering 502 until one is), prints ``Mars Web started at <host:port>`` and, as the
supervisor does, writes the token to a file under its own address, where clients on this
machine, as the same user, find it.

``main(argv)`` is the whole program; a container's entry point calls it with the
address, port and supervisors it read from its environment.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from jupyter_mars.deploy.cli import WEB_PROG, parse_web_args, run_cli
from jupyter_mars.deploy.configs import WebConfig
from jupyter_mars.deploy.errors import UsageError
from jupyter_mars.deploy.logs import configure_logging
from jupyter_mars.deploy.supervisor import local_aliases
from jupyter_mars.remote.tokens import read_token_file, remove_token_file, write_token_file


def find_token(config: WebConfig) -> str:
    """The cluster token: given, or the token file a supervisor on this machine wrote."""
    token = config.token
    for address in config.supervisors:
        token = token or read_token_file(address)
    if token is None:
        raise UsageError(
            "no cluster token: give --token, set MARS_TOKEN, or run on the supervisor's "
            "machine as the same user"
        )
    return token


def serve(config: WebConfig) -> int:
    from jupyter_mars.cluster.serve import new_event_loop_policy, run_until_signalled
    from jupyter_mars.web.proxy import WebProxy

    configure_logging(config.log_level, config.log_format, config.log_conf)
    try:
        new_event_loop_policy(config.use_uvloop)
    except RuntimeError as exc:
        raise UsageError(str(exc)) from None
    token = find_token(config)
    names = [config.host, *([config.advertise_address] if config.advertise_address else [])]
    proxy = WebProxy(config.supervisors, token, names, config.allowed_hosts)
    written: list[str] = []

    async def start() -> None:
        listening = proxy.start(config.host, config.port)
        port = listening.rsplit(":", 1)[1]
        shown = f"{config.advertise_address}:{port}" if config.advertise_address else listening
        for address in dict.fromkeys(local_aliases(listening) + local_aliases(shown)):
            write_token_file(address, token)
            written.append(address)
        print(f"Mars Web started at {shown}", flush=True)

    async def stop() -> None:
        await proxy.stop()
        for address in written:
            remove_token_file(address)

    asyncio.run(run_until_signalled(start, stop))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return run_cli(parse_web_args, argv, serve, prog=WEB_PROG)


if __name__ == "__main__":
    sys.exit(main())

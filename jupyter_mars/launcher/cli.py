"""``mars-cluster``: start a cluster on a host list, see the clusters running from this
machine, stop one.

    mars-cluster up hosts.yml [--min-workers N] [--timeout S] [--known-hosts FILE]
    mars-cluster status [ID]
    mars-cluster down [ID]

``up`` prints the cluster's id, web endpoint and dashboard, and leaves it running; the
cluster is recorded in the registry of this machine's clusters, where ``status`` and
``down`` find it (without ID: the only one, or the newest). Mistakes exit 2 with one line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from jupyter_mars.launcher import registry
from jupyter_mars.remote import HttpClient
from jupyter_mars.remote.http import token_for

PROG = "mars-cluster"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Start, list and stop jupyter_mars clusters.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    up = commands.add_parser("up", help="start a cluster on a host list (YAML)")
    up.add_argument("hosts", help="the host list file")
    up.add_argument("--min-workers", type=int, help="return once this many joined (all)")
    up.add_argument("--timeout", type=float, default=120.0, help="seconds to wait (120)")
    up.add_argument("--known-hosts", help="known_hosts file (~/.ssh/known_hosts)")
    up.add_argument(
        "--accept-new-host-key",
        action="store_true",
        help="record the key of a host never seen before (a changed key is always refused)",
    )
    up.add_argument("--web-port", type=int, default=0, help="the dashboard's port (any)")
    status = commands.add_parser("status", help="clusters started from this machine")
    status.add_argument("id", nargs="?", help="one cluster (all when left out)")
    down = commands.add_parser("down", help="stop a cluster and every process it started")
    down.add_argument("id", nargs="?", help="the cluster (the only or newest one if left out)")
    return parser


def _pick(
    cluster_id: str | None, kinds: tuple[str, ...] = registry.KINDS
) -> registry.ClusterRecord:
    found = [e for e in registry.entries() if e.kind in kinds]
    if cluster_id is not None:
        match = [e for e in found if e.id == cluster_id]
        if not match:
            known = ", ".join(e.id for e in found) or "none"
            raise LookupError(f"no cluster {cluster_id!r} runs here; clusters: {known}")
        return match[0]
    if not found:
        raise LookupError("no cluster started from this machine runs")
    return found[0]


def _up(args: argparse.Namespace) -> int:
    from jupyter_mars.launcher.ssh_cluster import SSHCluster

    cluster = SSHCluster(
        args.hosts,
        known_hosts=args.known_hosts,
        accept_new_host_key=args.accept_new_host_key,
        web_port=args.web_port,
        connect=False,  # the cluster stays; this process goes
    )
    cluster.start(min_workers=args.min_workers, timeout=args.timeout)
    print(f"cluster {cluster.id} is up with {len(cluster.workers)} workers")
    print(f"endpoint  {cluster.endpoint}")
    print(f"dashboard {cluster.dashboard_url}")
    print(f"stop it with: {PROG} down {cluster.id}")
    return 0


def _status(args: argparse.Namespace) -> int:
    entries = [_pick(args.id)] if args.id else registry.entries()
    if not entries:
        print("no cluster started from this machine runs")
        return 0
    # one line per cluster: a Jupyter server's SSH cluster has a record of each kind
    by_endpoint: dict[str, list[registry.ClusterRecord]] = {}
    for entry in entries:
        by_endpoint.setdefault(entry.endpoint, []).append(entry)
    for endpoint, group in by_endpoint.items():
        main = next((e for e in group if e.kind == "ssh"), group[0])  # the one down stops
        kinds = "+".join(dict.fromkeys(e.kind for e in [main, *group]))
        try:
            http = HttpClient(endpoint, token_for(endpoint), timeout=5)
            workers = len(http.json("GET", "/api/v1/cluster")["workers"])
            state = f"{workers} workers joined"
        except (ConnectionError, PermissionError, RuntimeError) as exc:
            state = f"not answering ({exc})"
        print(f"{main.id}  {kinds:6}  {endpoint}  {state}")
    return 0


def _down(args: argparse.Namespace) -> int:
    entry = _pick(args.id, ("ssh",))
    from jupyter_mars.launcher.ssh_cluster import SSHCluster

    SSHCluster.attach(entry, connect=False).stop()
    print(f"cluster {entry.id} is down: every process it started is gone")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return {"up": _up, "status": _status, "down": _down}[args.command](args)
    except (LookupError, ValueError, ConnectionError, RuntimeError, TimeoutError) as exc:
        print(f"{PROG} {args.command}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

"""``%mars`` and ``%%mars``: connecting a notebook's kernel to a cluster and running cells
in the background (``%load_ext jupyter_mars``).

``%mars connect [URL] [--token T]``, ``start``, ``stop``, ``status``, ``embedded`` pick the
kernel's default session (``connect ray://HOST:PORT``, ``connect ray`` and ``start --ray``:
a Ray session, whose chunk tasks run on a Ray cluster); ``%%mars`` runs a cell and submits
the lazy tensors and frames it assigns at top level, with its last expression, as one
graph. Arguments are parsed by ``parse_line`` / ``parse_cell`` (pure); a mistake prints the
usage, never a traceback.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import difflib
import html
import math
import re
import shlex
import sys
import time
from collections.abc import Sequence
from typing import Any

from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.display import display

import jupyter_mars as mars
from jupyter_mars.engine.future import in_kernel
from jupyter_mars.engine.naming import checked_name, shorten
from jupyter_mars.engine.progressbar import TextProgressBar
from jupyter_mars.executable import Executable, default_session
from jupyter_mars.launcher import new_cluster, registry
from jupyter_mars.launcher.display import cluster_view, gpu_text
from jupyter_mars.ray.session import RaySession
from jupyter_mars.remote import HttpClient, RemoteSession
from jupyter_mars.session import EmbeddedSession, available_cpus

CONNECT_TIMEOUT = 5.0
"""Seconds ``%mars connect`` waits for an address that does not answer."""


CELL_FILE = "<%%mars cell>"
"""The file name a ``%%mars`` cell's code is compiled under: errors point at its lines."""


class UsageError(ValueError):
    """A ``%mars`` line or ``%%mars`` flags that do not parse; the message is the usage."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # never exits the kernel
        raise UsageError(f"{self.format_usage().rstrip()}\n{self.prog}: error: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> Any:
        raise UsageError(message or self.format_help())


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected seconds >= 0, got {text!r}")
    return value


def _line_parser() -> tuple[_Parser, dict[str, _Parser]]:
    """The ``%mars`` parser and its subcommands' parsers, by name."""
    parser = _Parser(prog="%mars", description="Choose where this kernel's work runs.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    connect = commands.add_parser("connect", help="use a running cluster")
    connect.add_argument(
        "url",
        nargs="?",
        help="http://host:port (default: the one published); ray://host:port: a Ray "
        "cluster's client address; ray: this machine's Ray (started if none runs)",
    )
    connect.add_argument("--token", help="the cluster token (default: found on this machine)")
    start = commands.add_parser("start", help="start a local cluster owned by this kernel")
    start.add_argument("--workers", type=_positive_int, default=2, help="worker processes")
    start.add_argument("--n-cpu", type=_positive_int, default=1, help="cores per worker")
    start.add_argument("--memory", help="memory limit per worker, such as 2g or 50%%")
    start.add_argument(
        "--ray", action="store_true", help="a local Ray instance instead, owned by this kernel"
    )
    commands.add_parser("stop", help="stop the cluster this kernel started")
    commands.add_parser("status", help="workers and running tasks")
    commands.add_parser("embedded", help="back to the in-process runtime")
    return parser, dict(commands.choices)


def _cell_parser() -> _Parser:
    parser = _Parser(prog="%%mars", description="Run a cell's lazy results as one graph.")
    parser.add_argument("--block", action="store_true", help="wait, showing progress")
    parser.add_argument("--name", help="name shown by the future")
    parser.add_argument(
        "--progress-after",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="with --block: show progress once the work took S seconds (default 1)",
    )
    return parser


def parse_line(line: str) -> argparse.Namespace:
    """The ``%mars`` arguments; UsageError (with the usage) when they do not parse: an
    option the subcommand does not know is reported with that subcommand's usage and the
    option it most likely meant."""
    parser, commands = _line_parser()
    args, unknown = parser.parse_known_args(_split(line))
    if unknown:
        command = commands[args.command]
        message = f"unrecognized arguments: {' '.join(unknown)}"
        known = re.findall(r"--[\w-]+", command.format_usage())
        close = difflib.get_close_matches(unknown[0].split("=")[0], known, n=1)
        command.error(message + (f" (did you mean {close[0]}?)" if close else ""))
    return args


def parse_cell(line: str) -> argparse.Namespace:
    return _cell_parser().parse_args(_split(line))


def _split(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"cannot read the arguments: {exc}") from None


def _cell_name(names: list[str], last: ast.stmt | None) -> str:
    """What a ``%%mars`` cell computes, as its future's name: the lazy names it assigns
    and its last expression (``y, z, (y + z).sum()``), shortened to fit a line."""
    parts = [*names, *([ast.unparse(last)] if last is not None else [])]
    return shorten(", ".join(parts) or "%%mars cell")


def assigned_names(body: Sequence[ast.stmt]) -> list[str]:
    """Names a cell's top-level statements assign, in order (``a = ...``, ``a, b = ...``,
    ``a: T = ...``, ``a += ...``).

    >>> assigned_names(ast.parse("a = 1\\nb, (c, d) = 2, (3, 4)\\nx.y = 5\\ne += 1").body)
    ['a', 'b', 'c', 'd', 'e']
    """
    names: list[str] = []

    def visit(target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            names.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                visit(element)
        elif isinstance(target, ast.Starred):
            visit(target.value)

    for statement in body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                visit(target)
        elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)) and statement.value is not None:
            visit(statement.target)
    return list(dict.fromkeys(names))


def describe_cluster(
    url: str, cluster: dict[str, Any], dashboard: str = "", login_link: str = ""
) -> str:
    """The one line ``connect`` and ``start`` print. It names only a dashboard link that
    works: ``dashboard``, the dashboard's path on the Jupyter server that owns the cluster
    (the browser's Jupyter login applies), else ``login_link``, a link that logs one
    browser in (``RemoteSession.dashboard_link``), else none. Cores and memory are the
    supervisor's totals, which count a machine that several workers share once."""
    workers = cluster.get("workers", [])
    totals = cluster.get("totals") or {}
    cores = int(totals.get("n_cpu") or 0)
    memory = int(totals.get("memory") or 0)
    plural = "" if len(workers) == 1 else "s"
    line = (
        f"Connected to {url}: {len(workers)} worker{plural}, {cores} "
        f"core{'' if cores == 1 else 's'}, "
        f"{memory / 2**30:.1f} GiB memory"
    )
    if dashboard:
        return f"{line}; dashboard {dashboard} on this Jupyter server"
    if login_link:
        return f"{line}; dashboard {login_link} (logs one browser in, once)"
    return line


def _login_link(session: RemoteSession) -> str:
    """A fresh login link to the session's dashboard; none from a supervisor that cannot
    make one (an older one) or does not answer now."""
    try:
        return session.dashboard_link()
    except (ConnectionError, PermissionError, RuntimeError, KeyError, TypeError):
        return ""


def _announce(session: RemoteSession, dashboard: str = "") -> None:
    """What ``connect`` and ``start`` print, and in a kernel the dashboard as a link to
    click ("Open the dashboard") rather than a login link's text."""
    kernel = in_kernel()
    link = "" if dashboard else _login_link(session)
    print(describe_cluster(session.address, session.cluster, dashboard, "" if kernel else link))
    target = dashboard or link
    if kernel and target:
        from IPython.display import HTML, display

        href = html.escape(target, quote=True)
        text = "Open the cluster dashboard" if dashboard else "Open the dashboard"
        anchor = f'<a href="{href}" target="_blank" rel="noopener">{text}</a>'
        display(HTML(anchor))  # type: ignore[no-untyped-call]


def _gpus(worker: dict[str, Any]) -> list[dict[str, Any]]:
    return list((worker.get("resources") or {}).get("gpus") or [])


def status_header(cluster: dict[str, Any]) -> list[str]:
    """The columns of ``%mars status``: a GPU column only where some worker has a GPU."""
    with_gpus = any(_gpus(w) for w in cluster.get("workers", []))
    return ["worker", "cores", "CPU used", "memory", *(["GPUs"] if with_gpus else []), "tasks"]


def status_rows(cluster: dict[str, Any]) -> list[list[str]]:
    """One row per worker: address, cores, CPU used, memory used of its share, its GPUs'
    use and memory (where some worker has a GPU), tasks."""
    with_gpus = any(_gpus(w) for w in cluster.get("workers", []))
    rows = []
    for w in cluster.get("workers", []):
        r = w.get("resources") or {}
        cpu = min(max(float(r.get("cpu_used") or 0.0), 0.0), float(w.get("n_cpu", 0)))
        used = int(r.get("memory_rss") or 0) / 2**20
        share = int(w.get("memory_share") or 0) / 2**30
        rows.append(
            [
                str(w.get("address", "")),
                str(w.get("n_cpu", "")),
                f"{cpu:.2f}",
                f"{used:.0f} MiB of {share:.1f} GiB",
                *([gpu_text(_gpus(w))] if with_gpus else []),
                str(w.get("running", 0)),
            ]
        )
    return rows


def status_title(address: str, cluster: dict[str, Any]) -> str:
    """The line above ``%mars status``'s table: workers, machines and the totals."""
    totals = cluster.get("totals") or {}
    n, hosts = len(cluster.get("workers", [])), int(totals.get("hosts") or 0)
    return (
        f"Cluster at {address}, {n} worker{'' if n == 1 else 's'} on {hosts} "
        f"host{'' if hosts == 1 else 's'}: {int(totals.get('n_cpu') or 0)} cores, "
        f"{int(totals.get('memory') or 0) / 2**30:.1f} GiB memory"
    )


RAY_SCHEME = "ray://"


def ray_address(url: str | None) -> str | None | bool:
    """What ``%mars connect`` hands to ``new_ray_session`` for ``url``: the Ray client
    address for ``ray://host:port``, None for ``ray`` (this machine's Ray), False for an
    address that is not Ray's.

    >>> ray_address("ray://127.0.0.1:10001"), ray_address("ray"), ray_address("http://h:1")
    ('ray://127.0.0.1:10001', None, False)
    """
    if url == "ray":
        return None
    if url is not None and url.startswith(RAY_SCHEME) and len(url) > len(RAY_SCHEME):
        return url
    return False


def ray_nodes_rows(nodes: list[dict[str, Any]]) -> list[list[str]]:
    """One row per live Ray node (as ``ray.nodes()`` lists them): address, CPUs, memory."""
    rows = []
    for node in nodes:
        if not node.get("Alive", False):
            continue
        resources = node.get("Resources") or {}
        rows.append(
            [
                str(node.get("NodeManagerAddress", "")),
                f"{float(resources.get('CPU', 0)):g}",
                f"{float(resources.get('memory', 0)) / 2**30:.1f} GiB",
            ]
        )
    return rows


def ray_status_text(address: str, nodes: list[dict[str, Any]]) -> str:
    """``%mars status`` of a Ray session: a title with the totals, then one row per node.

    >>> print(ray_status_text("127.0.0.1:6379", [{"NodeManagerAddress": "127.0.0.1",
    ...     "Alive": True, "Resources": {"CPU": 2.0, "memory": 2**31}}]))
    Ray session at 127.0.0.1:6379, 1 node: 2 CPUs, 2.0 GiB memory
    node       CPUs  memory
    127.0.0.1  2     2.0 GiB
    """
    rows = ray_nodes_rows(nodes)
    live = [n for n in nodes if n.get("Alive", False)]
    cpus = sum(float((n.get("Resources") or {}).get("CPU", 0)) for n in live)
    memory = sum(float((n.get("Resources") or {}).get("memory", 0)) for n in live)
    title = (
        f"Ray session at {address}, {len(rows)} node{'' if len(rows) == 1 else 's'}: "
        f"{cpus:g} CPU{'' if cpus == 1 else 's'}, {memory / 2**30:.1f} GiB memory"
    )
    return f"{title}\n{_table(['node', 'CPUs', 'memory'], rows)}"


def _ray_nodes() -> list[dict[str, Any]]:
    import ray  # the session that needs it imported it already

    nodes: list[dict[str, Any]] = ray.nodes()
    return nodes


def _same_address(a: str, b: str) -> bool:
    return a.rstrip("/") == b.rstrip("/")


def _dashboard(address: str) -> str:
    """The dashboard's path on the Jupyter server that owns the cluster at ``address``
    (behind the browser's Jupyter login); "" for one no server owns."""
    found = [e for e in registry.entries() if _same_address(e.endpoint, address)]
    return found[0].jupyter_dashboard if found else ""


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in column) for column in zip(header, *rows)]
    lines = [header, *rows]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip() for line in lines)


@magics_class
class MarsMagics(Magics):
    """The ``%mars`` line magic and ``%%mars`` cell magic of a kernel."""

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.cluster: Any = None
        """The local cluster ``%mars start`` started, owned by this kernel."""
        self.ray_session: Any = None
        """The Ray session ``%mars start --ray`` started, owned by this kernel."""
        self.ray_published: Any = None
        """The progress API of the last Ray session made here, listed for the Lab panel."""

    @line_cell_magic
    def mars(self, line: str, cell: str | None = None) -> Any:
        try:
            if cell is None:
                return self._line(parse_line(line))
            return self._cell(parse_cell(line), cell)
        except UsageError as exc:
            print(exc)
            return None

    # ---- %mars ----------------------------------------------------------------------------

    def _line(self, args: argparse.Namespace) -> Any:
        return getattr(self, f"_{args.command}")(args)

    def _connect(self, args: argparse.Namespace) -> Any:
        url = args.url
        address = ray_address(url)
        if address is not False:
            if args.token is not None:
                raise UsageError("%mars connect: --token is for jupyter_mars clusters, not Ray")
            self._use_ray(address)  # type: ignore[arg-type]  # False was ruled out
            return None
        dashboard = ""
        if url is None:
            found = registry.published()
            if found is None:
                print(
                    "No jupyter_mars cluster is published on this machine: start one with "
                    "%mars start, or give its address: %mars connect http://host:port"
                )
                return None
            url, dashboard = found.endpoint, found.jupyter_dashboard

        started = time.monotonic()
        try:
            session = RemoteSession(url, token=args.token, timeout=CONNECT_TIMEOUT)
        except (ConnectionError, PermissionError, RuntimeError, ValueError) as exc:
            waited = time.monotonic() - started
            print(f"Cannot connect to {url} ({waited:.1f} s): {exc}")
            return None
        session.as_default()
        _announce(session, dashboard)
        return None

    def _use_ray(self, address: str | None, owned: bool = False) -> None:
        """Make a Ray session on ``address`` (None: this machine's) the default; the kernel
        owns it (``%mars stop`` closes it) when ``owned``."""
        try:
            session = mars.new_ray_session(address)
        except (ImportError, ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
            where = address or "this machine's Ray"
            print(f"Cannot connect to {where}: {exc}")
            return
        if owned:
            self.ray_session = session
        nodes = _ray_nodes()
        print(f"Connected to Ray: {ray_status_text(session.address, nodes).splitlines()[0]}")
        self._unpublish()
        # the web app that serves its progress: loaded for Ray sessions only
        from jupyter_mars.launcher.ray_sessions import publish

        try:  # the Lab panel lists it with this machine's clusters
            self.ray_published = publish(session)
        except OSError as exc:
            print(f"(The Lab panel will not list it: {exc})")

    def _unpublish(self) -> None:
        if self.ray_published is not None:
            self.ray_published.close()
            self.ray_published = None

    def _start(self, args: argparse.Namespace) -> Any:
        if self.cluster is not None:
            print(f"This kernel's cluster runs at {self.cluster.endpoint}; %mars stop it first.")
            return None
        if self.ray_session is not None:
            print(f"This kernel's Ray runs at {self.ray_session.address}; %mars stop it first.")
            return None
        if args.ray:
            self._use_ray(None, owned=True)
            return None

        try:
            self.cluster = new_cluster(args.workers, args.n_cpu, memory=args.memory)
        except (RuntimeError, TimeoutError, ValueError) as exc:
            print(f"The cluster did not start: {exc}")
            return None
        _announce(self.cluster.session)
        return None

    def _stop(self, args: argparse.Namespace) -> Any:
        if self.ray_session is not None:
            return self._stop_ray()
        if self.cluster is None:
            print("This kernel started no cluster (%mars start starts one).")
            return None
        endpoint = self.cluster.endpoint
        current = mars.get_default_session()
        address = getattr(current, "address", None)
        on_it = address is None or address.rstrip("/") == endpoint.rstrip("/")
        self.cluster.stop()
        self.cluster = None
        if not on_it:
            print(f"Stopped the cluster at {endpoint}. This kernel still uses {address}.")
            return None
        if current is not None and address is not None:
            current.close()  # a %mars connect session to the stopped cluster
        mars.new_session()
        print(
            f"Stopped the cluster at {endpoint}. This kernel's work now runs in this process "
            "(the embedded runtime); %mars start or %mars connect uses a cluster again."
        )
        return None

    def _stop_ray(self) -> None:
        owned, self.ray_session = self.ray_session, None
        address = owned.address
        self._unpublish()
        was_default = mars.get_default_session() is owned
        owned.close()  # shuts Ray down too, as this session started it
        if not was_default:
            print(f"Stopped the Ray session at {address}.")
            return
        mars.new_session()
        print(
            f"Stopped the Ray session at {address}. This kernel's work now runs in this "
            "process (the embedded runtime)."
        )

    def _status(self, args: argparse.Namespace) -> Any:
        session = mars.get_default_session()
        address = getattr(session, "address", None)
        if isinstance(session, RaySession):
            print(ray_status_text(str(address), _ray_nodes()))
            return None
        if session is None or address is None:
            n_cpu = getattr(session, "n_cpu", None) or available_cpus()
            print(f"Embedded runtime: work runs in this process on {n_cpu} threads.")
            return None

        token = getattr(session, "_token", None)
        http = HttpClient(address, token, CONNECT_TIMEOUT)
        try:
            cluster = http.json("GET", "/api/v1/cluster")
        except (ConnectionError, PermissionError, RuntimeError) as exc:
            print(f"The cluster at {address} does not answer: {exc}")
            return None
        table = _table(status_header(cluster), status_rows(cluster))
        text = f"{status_title(address, cluster)}\n{table}"
        # the kernel's own cluster gets the Scale control; one it connected to does not:
        # its owner (another kernel, mars-cluster, the Jupyter server) keeps the list of
        # its workers, which a scale from here would leave behind
        owned = self.cluster
        if owned is not None and _same_address(owned.endpoint, address):
            view = cluster_view(owned.endpoint, owned.token, owner=owned)
        else:
            view = cluster_view(address, token, _dashboard(address))
        if view is None:
            print(text)
        else:  # a kernel with ipywidgets: the live widget, the table as its text form
            bundle = {**view._repr_mimebundle_(), "text/plain": text}
            display(bundle, raw=True)  # type: ignore[no-untyped-call]
        return None

    def _embedded(self, args: argparse.Namespace) -> Any:
        session = EmbeddedSession()
        session.as_default()
        print(f"Embedded runtime: work runs in this process on {session.n_cpu} threads.")
        return None

    # ---- %%mars ---------------------------------------------------------------------------

    def _cell(self, args: argparse.Namespace, cell: str) -> Any:
        assert self.shell is not None
        try:
            tree = ast.parse(cell, filename=CELL_FILE)
        except SyntaxError:
            # as IPython shows a cell's syntax error: the line, a caret and the message,
            # not a traceback through this magic and the parser
            self.shell.showsyntaxerror()  # type: ignore[no-untyped-call]
            return None
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        namespace = self.shell.user_ns
        exec(compile(ast.Module(tree.body, type_ignores=[]), CELL_FILE, "exec"), namespace)
        value = None
        if isinstance(last, ast.Expr):
            value = eval(compile(ast.Expression(last.value), CELL_FILE, "eval"), namespace)
        targets: dict[int, Executable] = {}
        names: dict[str, None] = {}
        for name in assigned_names(tree.body):
            if isinstance(namespace.get(name), Executable):
                targets.setdefault(id(namespace[name]), namespace[name])
                names[name] = None
        if isinstance(value, Executable):
            targets.setdefault(id(value), value)
        if not targets:
            return value
        # one graph; the future's result is the cell's value, as the cell would show it
        nodes = [t.node for t in targets.values()]
        name = checked_name(args.name) or _cell_name(list(names), last)
        future = default_session(None)._execute(nodes, False, False, value, name)
        if not args.block:
            return future
        _wait(future, args.progress_after)
        future.result()
        return value


def _wait(future: Any, progress_after: float) -> None:
    """Block until ``future`` ends; a text progress bar once it took ``progress_after`` s."""
    started = time.monotonic()
    bar: TextProgressBar | None = None
    try:
        while not future.done():
            if bar is None and time.monotonic() - started >= progress_after:
                bar = TextProgressBar(stream=sys.stdout)
            if bar is not None:
                bar.update(future.progress())
            concurrent.futures.wait([future], timeout=0.1)
    except KeyboardInterrupt:
        future.cancel()
        raise
    finally:
        ok = future.done() and not future.cancelled() and future.exception() is None
        if bar is not None and ok:
            bar.close()


def load_ipython_extension(shell: Any) -> None:
    shell.register_magics(MarsMagics)

"""``RemoteSession``: a session whose tensors execute on a cluster, over its HTTP API.

The expression graph is pickled and sent to the active supervisor, which plans, tiles and
schedules it on the workers; the client polls the execution's state and progress, and
fetches results as a stream of chunks. Results stay on the workers while the tensor lives
here: when it is garbage-collected, a background thread tells the supervisor to free them.

Failover. The client talks to one supervisor and one session there: a ``_Term``. When a
request cannot reach it (or it answers that it stands by), the client asks the
supervisors it knows of for the active one (``failover.py``, for up to
``failover_wait`` seconds). The same supervisor in the same epoch means the failure was
passing: the term stands, unless it said it no longer has the session (it closed it, or
it was restarted): then a new session is opened there. Otherwise the client opens a
session on the active supervisor, and that is the new term. The executions of the old
term are gone with it: each unfinished one is resubmitted by the thread that follows it
(the client still has its nodes), and results executed before are marked lost, to be
executed again when fetched.

Lease. The supervisor closes a session whose client went silent (``lease.py``): while
this object lives, a daemon thread renews the lease, and a process that exits without
``close()`` closes its session on the way out. A client cut off for longer than the lease
finds its session gone (404 ``no session``) and goes on in a new one, as after a restart.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import CancelledError, Future
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from jupyter_mars.engine.future import ExecutionFuture, Progress
from jupyter_mars.engine.naming import describe
from jupyter_mars.engine.node import Node, Tiled
from jupyter_mars.engine.progressbar import TextProgressBar
from jupyter_mars.engine.session import settle
from jupyter_mars.engine.tracebacks import HIDE
from jupyter_mars.executable import Executable, Session, available_cpus
from jupyter_mars.remote.errors import rebuild_error
from jupyter_mars.remote.failover import find_active, web_urls
from jupyter_mars.remote.http import (
    HttpClient,
    NothingListens,
    SessionGone,
    SupervisorUnavailable,
    read_piece,
    token_for,
)
from jupyter_mars.remote.lease import Lease, session_timeout_of
from jupyter_mars.remote.request_body import request_body

logger = logging.getLogger(__name__)
T = TypeVar("T")

ATTEMPTS = 5
"""Tries of one request, a failover between two; more means the cluster is unwell."""
DEFAULT_SESSION_TIMEOUT = 300.0
"""The session timeout assumed of a supervisor that does not announce one."""
RELEASE_RETRY = 1.0
"""Seconds before releases that did not get through are sent again."""
RELEASE_BATCH = 1000
"""Keys released per request at most."""
REFRESH_INTERVAL = 2.0
"""Seconds between two requests for the supervisors' web addresses, while some lack."""


class ClusterGone(ConnectionError):
    """The session's cluster stopped: no supervisor of it answers any more."""


@dataclass(frozen=True)
class _Term:
    """The supervisor and the session there that requests go to, until a failover."""

    http: HttpClient
    session_id: str
    epoch: str
    """The supervisor's epoch when the session was opened: it changes on a takeover."""
    session_timeout: float
    """Seconds the supervisor keeps the session without a word from here (``lease.py``)."""

    @property
    def base(self) -> str:
        return f"/api/v1/sessions/{self.session_id}"


class _Run:
    """One execution: its nodes, and its id in the term it was last submitted to."""

    def __init__(self, nodes: list[Node], name: str) -> None:
        self.nodes = nodes
        self.name = name
        self.term: _Term | None = None
        self.execution_id = ""
        self.cancelled = False


class RemoteSession(Session):
    def __init__(
        self,
        address: str,
        token: str | None = None,
        timeout: float = 5.0,
        failover_wait: float = 15.0,
    ) -> None:
        token = token or os.environ.get("MARS_TOKEN") or token_for(address)
        http = HttpClient(address, token, timeout)
        self._token = token
        self._timeout = timeout
        self._failover_wait = failover_wait
        self._known = [http.url]
        """Web URLs of every supervisor heard of, the first one given first."""
        self._lock = threading.Lock()
        self._executed: dict[str, tuple[tuple[int, ...], ...]] = {}
        self._lost: set[str] = set()
        """Keys of results executed in an earlier term: executed again when fetched."""
        self.cluster: dict[str, Any] = {}
        """The cluster model of the supervisor in use, as last asked for."""
        self._refreshed = time.monotonic()
        try:
            self._term = self._open(http)
        except SupervisorUnavailable:
            self._term = self._open_active(None)  # a standby was given: follow it
        term = self._term
        self._lease = Lease(term.http, term.session_id, term.session_timeout)
        self._lease.start()
        # a script that ends without close() closes its session as the interpreter exits
        self._close_at_exit = weakref.finalize(self, self._lease.close_session)
        self._releases: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._releaser = threading.Thread(target=self._release_loop, daemon=True)
        self._releaser.start()
        self._closed = False

    @property
    def address(self) -> str:
        return self._term.http.url

    @property
    def session_id(self) -> str:
        return self._term.session_id

    def __repr__(self) -> str:
        return f"<Session {self.address} {self.session_id}>"

    def logview_address(self) -> str:
        """The dashboard of the supervisor in use (PyODPS's LogView)."""
        return self.address.rstrip("/") + "/"

    def dashboard_link(self) -> str:
        """A link that opens the cluster's dashboard in a browser, logged in, once and
        within a few minutes (``POST /api/v1/login-links``); it never holds the token."""
        made = self._retrying(lambda term: term.http.json("POST", "/api/v1/login-links"))
        return str(made["url"])

    # ---- supervisors ------------------------------------------------------------------

    def _open(self, http: HttpClient) -> _Term:
        cluster = http.json("GET", "/api/v1/cluster")
        self._learn(cluster)
        opened = http.json("POST", "/api/v1/sessions")
        self.cluster = cluster
        timeout = session_timeout_of(opened, DEFAULT_SESSION_TIMEOUT)
        return _Term(http, str(opened["session_id"]), str(cluster.get("epoch", "")), timeout)

    def _learn(self, cluster: Any) -> None:
        for url in web_urls(cluster):
            if url not in self._known:
                self._known.append(url)

    def _refresh_supervisors(self) -> None:
        """Ask again for the supervisors' web addresses while some are not known (the
        supervisor learns them by pinging), at most every ``REFRESH_INTERVAL`` seconds."""
        entries = self.cluster.get("supervisors") or []
        if len(web_urls(self.cluster)) >= len(entries):
            return
        now = time.monotonic()
        if now - self._refreshed < REFRESH_INTERVAL:
            return
        self._refreshed = now
        term = self._term
        try:
            self.cluster = term.http.json("GET", "/api/v1/cluster")
        except ConnectionError:
            return  # the request that follows fails over
        self._learn(self.cluster)

    def _open_active(self, seen: _Term | None, session_gone: bool = False) -> _Term:
        """A session on the active supervisor; ``seen`` itself when it still is and still
        has the session (``session_gone``: it said it has not)."""
        deadline = time.monotonic() + self._failover_wait
        while True:
            url, cluster = find_active(self._known, self._token, deadline)
            if (
                seen is not None
                and not session_gone
                and url == seen.http.url
                and cluster.get("epoch") == seen.epoch
            ):
                return seen
            try:
                return self._open(HttpClient(url, self._token, self._timeout))
            except ConnectionError:  # it went away or stood down meanwhile: look again
                if time.monotonic() >= deadline:
                    raise

    def _failover(self, seen: _Term, error: ConnectionError | None = None) -> _Term:
        """The term to use now that a request of ``seen`` failed to reach its supervisor,
        or (``error`` a ``SessionGone``) found its session gone."""
        with self._lock:
            if self._term is not seen:
                return self._term  # another thread already moved on
            try:
                term = self._open_active(seen, session_gone=isinstance(error, SessionGone))
            except ConnectionError as exc:
                # one line that says what happened and what to do, not two chained
                # connection errors from inside the client
                what = (
                    "stopped: nothing listens at its supervisors' addresses any more"
                    if isinstance(exc, NothingListens)
                    else "is gone: none of its supervisors answered within "
                    f"{self._failover_wait:g} s"
                )
                raise ClusterGone(
                    f"the cluster at {seen.http.url} {what}. Start one (%mars "
                    "start, new_cluster()), connect to another (%mars connect ADDRESS) or "
                    "go back to this process (%mars embedded)"
                ) from None
            if term is not seen:
                logger.warning(
                    "supervisor %s is gone; continuing on the active one, %s: "
                    "unfinished executions are resubmitted",
                    seen.http.url,
                    term.http.url,
                )
                self._lost.update(self._executed)
                self._executed.clear()
                self._term = term
                self._lease.retarget(term.http, term.session_id, term.session_timeout)
            return self._term

    def _retrying(self, call: Callable[[_Term], T]) -> T:
        """``call(term)``, called again on the term after a failover when it cannot
        reach its supervisor."""
        term = self._term
        for _ in range(ATTEMPTS - 1):
            try:
                return call(term)
            except ConnectionError as exc:
                term = self._failover(term, exc)
        return call(term)

    # ---- execution --------------------------------------------------------------------

    def _execute(self, nodes: list[Node], wait: bool, show: bool, result: Any, name: str) -> Any:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        if self._closed:
            raise RuntimeError("the session is closed; create a new one with new_session()")
        self._refresh_supervisors()
        run = _Run(nodes, name)
        self._submit(run)
        progress = _RemoteProgress()
        if wait:
            self._follow(run, progress, show)
            return result
        future = ExecutionFuture(progress, lambda _run: self._cancel(run))
        future.name = name
        progress.current = run

        def drive() -> None:
            try:
                self._follow(run, progress, show)
            except CancelledError:
                # cancelled elsewhere (the Lab panel, the dashboard, another client): the
                # future is cancelled, as when its own cancel() is called, not failed
                Future.cancel(future)
                return
            except BaseException as exc:  # noqa: BLE001 - handed to the future
                settle(future.set_exception, exc)
                return
            settle(future.set_result, result)

        threading.Thread(target=drive, name="mars-remote-execute", daemon=True).start()
        return future

    def _submit(self, run: _Run) -> None:
        def post(term: _Term) -> None:
            if run.cancelled:
                raise CancelledError("the execution was cancelled")
            response = term.http.request(
                "POST",
                f"{term.base}/executions",
                request_body(run.nodes, self._executed, run.name),
                "application/octet-stream",
            )
            run.execution_id = term.http.check(response)["execution_id"]
            run.term = term

        self._retrying(post)

    def _follow(self, run: _Run, progress: _RemoteProgress, show: bool) -> None:
        __tracebackhide__ = HIDE  # noqa: F841 - read by IPython and pytest
        bar = TextProgressBar() if show else None
        failures = 0
        complete = False
        try:
            while True:
                if run.term is not self._term:
                    # submitted to a supervisor that is gone: its executions went with it
                    self._submit(run)
                    progress.value = 0.0
                term = run.term
                assert term is not None
                try:
                    # a progress event: answered when progress moves or the execution ends
                    after = progress.value if progress.value > 0 else -1.0
                    model = term.http.json(
                        "GET",
                        f"{term.base}/executions/{run.execution_id}?wait=1&after={after!r}",
                    )
                except ConnectionError as exc:
                    failures += 1
                    if failures >= ATTEMPTS:
                        raise
                    self._failover(term, exc)
                    continue
                failures = 0
                progress.value = float(model.get("progress", 0.0))
                progress.chunks = (
                    int(model.get("chunks_done", 0)),
                    int(model.get("chunks_total", 0)),
                )
                if bar is not None:
                    bar.update(progress.value)
                state = model["state"]
                if state == "succeeded":
                    self._record(run, model["results"])
                    complete = True
                    return
                if state == "failed":
                    raise rebuild_error(model["error"])
                if state == "cancelled":
                    raise CancelledError("the execution was cancelled")
        except KeyboardInterrupt:
            self._cancel(run)
            raise
        finally:
            progress.finish(complete)
            if bar is not None:
                bar.close()

    def _record(self, run: _Run, results: dict[str, Any]) -> None:
        with self._lock:
            current = run.term is self._term
            for node in run.nodes:
                info = results.get(node.key)
                if info is None:
                    continue
                node.shape = tuple(info["shape"])
                if node.key not in self._executed and node.key not in self._lost:
                    weakref.finalize(node, self._releases.put, node.key)
                if current:
                    self._executed[node.key] = tuple(tuple(axis) for axis in info["nsplits"])
                    self._lost.discard(node.key)
                else:
                    self._lost.add(node.key)

    def _cancel(self, run: _Run) -> None:
        run.cancelled = True
        term = run.term
        if term is None:
            return
        try:
            term.http.json("POST", f"{term.base}/executions/{run.execution_id}/cancel")
        except ConnectionError:
            pass  # gone with its supervisor; the follower will not resubmit it

    # ---- results ----------------------------------------------------------------------

    def is_executed(self, tensor: Executable) -> bool:
        return tensor.key in self._executed

    def _fetch(self, node: Node) -> Any:
        for _ in range(ATTEMPTS):
            term = self._term
            if node.key not in self._executed:
                if node.key not in self._lost:
                    raise ValueError("Cannot fetch unexecuted tensor; call .execute() first")
                # executed before a failover: the result went with that supervisor
                self._execute([node], wait=True, show=False, result=None, name=describe([node]))
                continue
            try:
                return self._download(term, node)
            except ConnectionError as exc:
                self._failover(term, exc)
        raise ConnectionError(f"could not fetch {node.key!r}: the cluster keeps failing")

    def _download(self, term: _Term, node: Node) -> Any:
        response = term.http.request("GET", f"{term.base}/tensors/{node.key}/data")
        if response.status != 200:
            term.http.check(response)
        with response:
            header = read_piece(response)
            chunks = [read_piece(response) for _ in range(header["n_chunks"])]
        grid = np.empty(tuple(len(axis) for axis in header["nsplits"]), dtype=object)
        # the chunks are put together in this process, on its own cores
        return node.assemble(Tiled(header["nsplits"], grid), chunks, available_cpus())

    # ---- lifetime -----------------------------------------------------------------------

    def _release_loop(self) -> None:
        """Tell the supervisor which results were garbage-collected here, in batches. A
        request that does not get through (a supervisor too busy to answer in time, a
        network hiccup, a failover) is sent again later: dropping it would leave those
        results on the workers for the session's whole life."""
        pending: list[str] = []
        while True:
            try:
                key = self._releases.get(timeout=RELEASE_RETRY if pending else None)
            except queue.Empty:
                key = ""  # nothing new: time to send again what did not get through
            if key is None:
                return
            fresh = [key] if key else []
            while not self._releases.empty() and len(fresh) < RELEASE_BATCH:
                more = self._releases.get()
                if more is None:
                    self._releases.put(None)
                    break
                fresh.append(more)
            with self._lock:
                for k in fresh:
                    self._executed.pop(k, None)
                    self._lost.discard(k)
            pending = self._send_releases(pending + fresh)

    def _send_releases(self, keys: list[str]) -> list[str]:
        """Post ``keys`` for release; the ones to send again later."""
        for start in range(0, len(keys), RELEASE_BATCH):
            term = self._term
            try:
                batch = keys[start : start + RELEASE_BATCH]
                term.http.json("POST", f"{term.base}/release", {"keys": batch})
            except ConnectionError:
                return keys[start:]
            except (RuntimeError, PermissionError):
                return []  # the session is gone, and its results with it
        return []

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._releases.put(None)
        self._close_at_exit()  # stops the keep-alives and deletes the session


class _RemoteProgress(Progress):
    """Progress as last reported by the supervisor."""

    def __init__(self) -> None:
        super().__init__()
        self.value = 0.0
        self.chunks = (0, 0)
        """Chunk tasks done and in all, reported with ``value``."""

    def counts(self) -> tuple[int, int]:
        return self.chunks

    def reading(self) -> tuple[int, int, float]:
        done, total = self.chunks
        return done, total, 1.0 if self._complete else min(self.value, 0.999)

    def operators(self) -> dict[str, Any]:
        """The execution's per-operator figures, asked of the supervisor now (none while
        it is not submitted, or when the supervisor cannot be reached)."""
        run = self.current
        term = None if run is None else run.term
        if term is None:
            return {"operators": [], "edges": []}
        try:
            model = term.http.json("GET", f"{term.base}/executions/{run.execution_id}/operators")
        except (ConnectionError, RuntimeError):
            return {"operators": [], "edges": []}
        return {"operators": model["operators"], "edges": model["edges"]}

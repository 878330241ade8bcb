"""``RemoteSession``: a session whose tensors execute on a cluster, over its HTTP API.

The expression graph is pickled and sent to the supervisor, which plans, tiles and
schedules it on the workers; the client polls the execution's state and progress, and
fetches results as a stream of chunks. Results stay on the workers while the tensor lives
here: when it is garbage-collected, a background thread tells the supervisor to free them.
"""

from __future__ import annotations

import http.client
import importlib
import json
import os
import pickle
import queue
import struct
import threading
import time
import weakref
from concurrent.futures import CancelledError
from typing import Any
from urllib.parse import urlsplit

import cloudpickle
import numpy as np

from jupyter_mars.engine.future import ExecutionFuture, Progress
from jupyter_mars.engine.node import Node, Tiled
from jupyter_mars.engine.progressbar import TextProgressBar
from jupyter_mars.engine.session import assemble, settle
from jupyter_mars.session import Session
from jupyter_mars.tensor.core import Tensor

PIECE_HEADER = struct.Struct("<Q")
_ERROR_MODULES = ("builtins", "numpy", "scipy", "jupyter_mars", "concurrent")


class RemoteError(RuntimeError):
    """An error raised on the cluster whose type is not importable here."""


def rebuild_error(model: dict[str, Any]) -> BaseException:
    """The cluster's error as the same exception type, with its message and notes."""
    module, name, message = model.get("module", ""), model.get("type", ""), model["message"]
    error: BaseException = RemoteError(f"{name}: {message}")
    if module.split(".")[0] in _ERROR_MODULES:
        try:
            cls = getattr(importlib.import_module(module), name)
            if isinstance(cls, type) and issubclass(cls, Exception):
                error = cls(message)
        except Exception:  # noqa: BLE001 - fall back to RemoteError
            pass
    for note in model.get("notes", []):
        if hasattr(error, "add_note"):
            error.add_note(note)
    return error


class _Http:
    """Small JSON/binary client for the supervisor's API (one connection per call)."""

    def __init__(self, url: str, token: str | None, timeout: float) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http" or not parts.hostname or not parts.port:
            raise ValueError(f"address must look like 'http://host:port', got {url!r}")
        self.url = f"http://{parts.hostname}:{parts.port}"
        self.host, self.port = parts.hostname, parts.port
        self.token = token
        self.timeout = timeout

    def request(
        self, method: str, path: str, body: bytes | None = None, content_type: str | None = None
    ) -> http.client.HTTPResponse:
        """Send a request; the caller reads the response and then ``close``s it."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        headers = {"Authorization": f"token {self.token or ''}", "Connection": "close"}
        if content_type:
            headers["Content-Type"] = content_type
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
        except OSError as exc:
            raise ConnectionError(
                f"no jupyter_mars supervisor answers at {self.url} ({exc})"
            ) from None
        finally:
            # the response keeps its own reference to the socket until it is closed
            conn.close()
        return response

    def json(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        response = self.request(method, path, data, "application/json" if data else None)
        return self._check(response)

    def _check(self, response: http.client.HTTPResponse) -> Any:
        with response:
            payload = response.read()
        if response.status == 401:
            raise PermissionError(f"the supervisor at {self.url} refused the cluster token")
        try:
            model = json.loads(payload or b"null")
        except ValueError:
            model = None
        if response.status >= 400:
            message = model.get("error") if isinstance(model, dict) else None
            raise RuntimeError(f"{self.url}: HTTP {response.status}: {message or 'error'}")
        return model


class RemoteSession(Session):
    def __init__(self, address: str, token: str | None = None, timeout: float = 5.0) -> None:
        token = token or os.environ.get("MARS_TOKEN") or _token_for(address)
        self._http = _Http(address, token, timeout)
        self.address = self._http.url
        self.cluster = self._http.json("GET", "/api/v1/cluster")
        self.session_id: str = self._http.json("POST", "/api/v1/sessions")["session_id"]
        self._executed: dict[str, tuple[tuple[int, ...], ...]] = {}
        self._releases: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._releaser = threading.Thread(target=self._release_loop, daemon=True)
        self._releaser.start()
        self._closed = False

    def __repr__(self) -> str:
        return f"<Session {self.address} {self.session_id}>"

    @property
    def _base(self) -> str:
        return f"/api/v1/sessions/{self.session_id}"

    # ---- execution --------------------------------------------------------------------

    def _execute(self, nodes: list[Node], wait: bool, show: bool, result: Any) -> Any:
        if self._closed:
            raise RuntimeError("the session is closed; create a new one with new_session()")
        body = cloudpickle.dumps({"nodes": nodes}, protocol=5)
        reply = self._http._check(
            self._http.request("POST", f"{self._base}/executions", body, "application/octet-stream")
        )
        execution_id = reply["execution_id"]
        progress = _RemoteProgress()
        if wait:
            self._follow(execution_id, nodes, progress, show)
            return result
        future = ExecutionFuture(progress, lambda _job: self._cancel(execution_id))
        progress.current = execution_id

        def drive() -> None:
            try:
                self._follow(execution_id, nodes, progress, show)
            except BaseException as exc:  # noqa: BLE001 - handed to the future
                settle(future.set_exception, exc)
                return
            settle(future.set_result, result)

        threading.Thread(target=drive, name="mars-remote-execute", daemon=True).start()
        return future

    def _follow(
        self, execution_id: str, nodes: list[Node], progress: _RemoteProgress, show: bool
    ) -> None:
        bar = TextProgressBar() if show else None
        delay = 0.005
        try:
            while True:
                model = self._http.json("GET", f"{self._base}/executions/{execution_id}")
                progress.value = float(model.get("progress", 0.0))
                if bar is not None:
                    bar.update(progress.value)
                state = model["state"]
                if state == "succeeded":
                    self._record(nodes, model["results"])
                    return
                if state == "failed":
                    raise rebuild_error(model["error"])
                if state == "cancelled":
                    raise CancelledError("the execution was cancelled")
                time.sleep(delay)
                delay = min(delay * 1.5, 0.1)
        except KeyboardInterrupt:
            self._cancel(execution_id)
            raise
        finally:
            progress.finish()
            if bar is not None:
                bar.close()

    def _record(self, nodes: list[Node], results: dict[str, Any]) -> None:
        for node in nodes:
            info = results.get(node.key)
            if info is None:
                continue
            node.shape = tuple(info["shape"])
            if node.key not in self._executed:
                weakref.finalize(node, self._releases.put, node.key)
            self._executed[node.key] = tuple(tuple(axis) for axis in info["nsplits"])

    def _cancel(self, execution_id: str) -> None:
        self._http.json("POST", f"{self._base}/executions/{execution_id}/cancel")

    # ---- results ----------------------------------------------------------------------

    def is_executed(self, tensor: Tensor) -> bool:
        return tensor.key in self._executed

    def _fetch(self, node: Node) -> Any:
        if node.key not in self._executed:
            raise ValueError("Cannot fetch unexecuted tensor; call .execute() first")
        response = self._http.request("GET", f"{self._base}/tensors/{node.key}/data")
        if response.status != 200:
            self._http._check(response)
        with response:
            header = _read_piece(response)
            chunks = [_read_piece(response) for _ in range(header["n_chunks"])]
        grid = np.empty(tuple(len(axis) for axis in header["nsplits"]), dtype=object)
        return assemble(Tiled(header["nsplits"], grid), chunks, node.dtype)

    # ---- lifetime -----------------------------------------------------------------------

    def _release_loop(self) -> None:
        while True:
            key = self._releases.get()
            if key is None:
                return
            keys = [key]
            while not self._releases.empty() and len(keys) < 1000:
                more = self._releases.get()
                if more is None:
                    self._releases.put(None)
                    break
                keys.append(more)
            for k in keys:
                self._executed.pop(k, None)
            try:
                self._http.json("POST", f"{self._base}/release", {"keys": keys})
            except (ConnectionError, RuntimeError, PermissionError):
                pass  # the cluster or the session is gone: nothing left to free

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._releases.put(None)
        try:
            self._http.json("DELETE", self._base)
        except (ConnectionError, RuntimeError):
            pass


class _RemoteProgress(Progress):
    """Progress as last reported by the supervisor."""

    def __init__(self) -> None:
        super().__init__()
        self.value = 0.0

    def fraction(self) -> float:
        return 1.0 if self._finished else min(self.value, 0.999)


def _read_piece(response: http.client.HTTPResponse) -> Any:
    size = PIECE_HEADER.unpack(_read_exactly(response, PIECE_HEADER.size))[0]
    return pickle.loads(_read_exactly(response, size))


def _read_exactly(response: http.client.HTTPResponse, n: int) -> bytes:
    data = response.read(n)
    if len(data) != n:
        raise ConnectionError("the supervisor closed the result stream early")
    return data


def _token_for(address: str) -> str | None:
    """The token a local supervisor stored for this address, if it did."""
    try:
        from jupyter_mars.deploy.tokens import read_token_file
    except ImportError:
        return None
    parts = urlsplit(address)
    if not parts.hostname or not parts.port:
        return None
    return read_token_file(f"{parts.hostname}:{parts.port}")

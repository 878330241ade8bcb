"""A client of the supervisor's state stream for the tests, closed completely: after its
close the server's close frame is awaited, so that no socket is left to the garbage
collector when ``asyncio.run`` ends the loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import tornado.httpclient
import tornado.websocket

from tests.cluster.processes import CliCluster


@asynccontextmanager
async def open_stream(cluster: CliCluster, **headers: str) -> AsyncIterator[Any]:
    url = cluster.url.replace("http://", "ws://") + "/api/v1/stream"
    request = tornado.httpclient.HTTPRequest(url, headers=headers, request_timeout=15)
    conn = await tornado.websocket.websocket_connect(request)
    try:
        yield conn
    finally:
        conn.close()
        while await asyncio.wait_for(conn.read_message(), 10) is not None:
            pass

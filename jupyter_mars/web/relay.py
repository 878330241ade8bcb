"""Relaying a supervisor's WebSocket messages to a browser: shared by the web process
(``proxy.py``) and the Jupyter server's proxy (``server/proxy.py``)."""

from __future__ import annotations

from typing import Any

import tornado.websocket


async def relay_to_browser(handler: tornado.websocket.WebSocketHandler, upstream: Any) -> None:
    """Write each message ``upstream`` (a client connection to the supervisor, or None)
    reads to ``handler``'s browser, text as text and bytes as bytes, until either side
    closes; then close the browser's side."""
    while upstream is not None:
        message = await upstream.read_message()
        if message is None:
            break
        try:
            await handler.write_message(message, binary=isinstance(message, bytes))
        except tornado.websocket.WebSocketClosedError:
            break
    handler.close()

"""Message channels between cluster processes: one interface, a TCP and an in-process transport.

``base.py`` is the interface and its errors, ``frames.py`` the byte layout of a message,
``auth.py`` the token handshake, ``tcp.py`` (on ``protocol.py``) and ``inproc.py`` the
transports, ``rejections.py`` which refused connections the listener logs.
"""

from jupyter_mars.cluster.wire.comm.auth import AuthenticationError
from jupyter_mars.cluster.wire.comm.base import (
    Comm,
    CommClosedError,
    MessageTooLargeError,
    ProtocolError,
)
from jupyter_mars.cluster.wire.comm.inproc import inproc_pair
from jupyter_mars.cluster.wire.comm.tcp import Listener, connect, listen

__all__ = [
    "AuthenticationError",
    "Comm",
    "CommClosedError",
    "Listener",
    "MessageTooLargeError",
    "ProtocolError",
    "connect",
    "inproc_pair",
    "listen",
]

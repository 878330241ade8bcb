"""Failures that cross the wire: raised on one side of an RPC, caught by type on the other.

The RPC layer re-raises a remote exception as the same type (``rpc.py``), so a class
raised by a worker and told apart by the supervisor lives here, where both sides see it.
"""

from __future__ import annotations


class InputLost(ConnectionError):
    """An input chunk of a task is not held by any live worker (yet): retry later."""

"""``UsageError``: a bad command line or configuration value, reported in one line.

The message names the flag (or config-file key) and what was expected, and never contains
the cluster token. ``run_cli`` prints it as ``mars-worker: error: <message>`` and exits 2,
the status argparse uses for usage errors.
"""

from __future__ import annotations


class UsageError(Exception):
    """A command-line or configuration value that cannot be used."""

    def __init__(self, message: str, *, prog: str | None = None, usage: str | None = None):
        super().__init__(message)
        self.message = message
        """One line: the flag or key, and what was expected."""
        self.prog = prog
        """The program whose command line was wrong (``mars-worker``), when known."""
        self.usage = usage
        """argparse's usage text, printed before the message for argparse's own errors."""

    def __str__(self) -> str:
        return self.message

"""Names an expression reads, looked up as pandas' ``eval`` and ``query`` look them up."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def first_found(names: Iterable[str], scopes: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Each of ``names`` bound to its value in the first of ``scopes`` that has it (the
    innermost first); names no scope has are left out."""
    ordered = list(scopes)
    found: dict[str, Any] = {}
    for name in names:
        for scope in ordered:
            if name in scope:
                found[name] = scope[name]
                break
    return found

"""A module imported when one of its attributes is first read.

SQLAlchemy takes longer to import than the rest of ``jupyter_mars.dataframe`` but pandas;
only ``read_sql`` and ``to_sql`` use it, so the SQL modules hold it as a ``LazyModule``
and a notebook that never touches a database never loads it. Type checkers see the real
module (the SQL modules import it under ``TYPE_CHECKING``).
"""

from __future__ import annotations

import importlib
from typing import Any


class LazyModule:
    """Stands for the module ``name`` until an attribute is read, which imports it."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(importlib.import_module(self.name), attribute)

    def __repr__(self) -> str:
        return f"<lazy module {self.name!r}>"

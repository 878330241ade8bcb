"""Writers of one whole document: pandas writes the fetched data.

Pickle, Excel, Feather, ORC, XML, Stata and HDF5 files, and the text renderings
(``to_string``, ``to_html``, ``to_markdown``, ``to_latex``), hold the whole frame in one
file whose layout only the writer knows, so the frame is executed and fetched and
pandas' method writes it, at the call. With no target (``buf=None``, ``path=None``) the
text or bytes come back, as in pandas; with a target, the result is an executed empty
frame whose ``.execute()`` returns it without writing again (Mars's habit).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jupyter_mars.dataframe.core import DataFrame, FrameBase, Series
from jupyter_mars.dataframe.io.written import written

TARGETS: dict[str, str] = {
    "to_pickle": "path",
    "to_excel": "excel_writer",
    "to_feather": "path",
    "to_orc": "path",
    "to_xml": "path_or_buffer",
    "to_stata": "path",
    "to_hdf": "path_or_buf",
    "to_string": "buf",
    "to_html": "buf",
    "to_markdown": "buf",
    "to_latex": "buf",
}
"""Writer -> the name of its first argument, the file (None: return the text)."""

SERIES_WRITERS = ("to_pickle", "to_excel", "to_hdf", "to_string", "to_markdown", "to_latex")
"""The writers pandas' Series has too."""


def pandas_writer(name: str) -> Callable[..., Any]:
    """``name`` as a method: fetch, let pandas write, return the text or ``written``."""
    target = TARGETS[name]

    def method(self: FrameBase, *args: Any, session: Any = None, **kwargs: Any) -> Any:
        where = args[0] if args else kwargs.get(target)
        out = getattr(self.to_pandas(session=session), name)(*args, **kwargs)
        return out if where is None else written(session)

    method.__name__ = name
    method.__doc__ = (
        f"pandas' ``{name}`` of the whole data, written at once (fetched first). With no "
        f"``{target}``, the text or bytes; else an executed empty frame."
    )
    return method


def _attach() -> None:
    for name in TARGETS:
        setattr(DataFrame, name, pandas_writer(name))
    for name in SERIES_WRITERS:
        setattr(Series, name, pandas_writer(name))


_attach()

"""Readers of formats read whole: ``read_stata``, ``read_sas``, ``read_spss``,
``read_xml`` and ``read_html``, and pandas' top-level ``to_pickle``.

These formats have no row ranges a task could read on its own (SAS and Stata files are
read from their start, XML and HTML documents are parsed whole), so each reader runs
pandas' own when called, with pandas' arguments and errors (a missing optional library
included), and makes a lazy frame of the result in chunks of ``chunk_size`` rows, as
``read_pickle`` does. ``read_html`` gives a list of them, one per table.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from jupyter_mars.dataframe.core import FrameBase
from jupyter_mars.dataframe.io.pickle_read import held


def read_stata(path: Any, *, chunk_size: Any = None, **kwargs: Any) -> Any:
    """``pandas.read_stata`` as a lazy DataFrame (an iterator stays pandas')."""
    return held(pd.read_stata(path, **kwargs), chunk_size)


def read_sas(path: Any, *, chunk_size: Any = None, **kwargs: Any) -> Any:
    """``pandas.read_sas`` as a lazy DataFrame (a reader stays pandas')."""
    return held(pd.read_sas(path, **kwargs), chunk_size)


def read_spss(path: Any, *, chunk_size: Any = None, **kwargs: Any) -> Any:
    """``pandas.read_spss`` (it needs ``pyreadstat``) as a lazy DataFrame."""
    return held(pd.read_spss(path, **kwargs), chunk_size)


def read_xml(path: Any, *, chunk_size: Any = None, **kwargs: Any) -> Any:
    """``pandas.read_xml`` as a lazy DataFrame."""
    return held(pd.read_xml(path, **kwargs), chunk_size)


def read_html(io: Any, *, chunk_size: Any = None, **kwargs: Any) -> list[Any]:
    """``pandas.read_html``: a lazy DataFrame per table found."""
    return [held(table, chunk_size) for table in pd.read_html(io, **kwargs)]


def to_pickle(obj: Any, filepath_or_buffer: Any, **kwargs: Any) -> None:
    """``pandas.to_pickle``: a lazy object is computed and written, as its own
    ``to_pickle`` writes it."""
    if isinstance(obj, FrameBase):
        obj.to_pickle(filepath_or_buffer, **kwargs)  # type: ignore[attr-defined]
        return
    pd.to_pickle(obj, filepath_or_buffer, **kwargs)

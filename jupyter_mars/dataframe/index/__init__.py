"""Lazy pandas Index methods: ``df.index``, ``s.index`` and ``md.Index`` objects.

Importing this package attaches the methods to ``Index`` (and the ``index`` property to
DataFrame and Series). Every method is a pandas call run in one of three ways
(``_calls.py``): per chunk (``rows.py``), on the whole index in one task
(``whole.py``), or on the workers with the plain value fetched (``values.py``). What
only a MultiIndex has (levels, codes and their edits) is in ``multi.py``.
"""

from __future__ import annotations

import jupyter_mars.dataframe.index.datetimes  # noqa: F401
import jupyter_mars.dataframe.index.multi  # noqa: F401
import jupyter_mars.dataframe.index.operators  # noqa: F401
import jupyter_mars.dataframe.index.strings  # noqa: F401
import jupyter_mars.dataframe.index.values  # noqa: F401
import jupyter_mars.dataframe.index.whole  # noqa: F401
from jupyter_mars.dataframe.index.rows import series_from_index

__all__ = ["series_from_index"]

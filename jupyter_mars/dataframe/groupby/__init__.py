"""Grouped operations: ``df.groupby(...)`` with aggregations, ``cumcount``, ``transform``,
``apply`` and ``filter``, and ``pivot_table`` / ``crosstab`` built on them.

Importing the package attaches ``groupby`` to DataFrame and Series and ``pivot_table`` to
DataFrame.
"""

from jupyter_mars.dataframe.groupby import calls as _calls  # noqa: F401 - attaches methods
from jupyter_mars.dataframe.groupby import counts as _counts  # noqa: F401
from jupyter_mars.dataframe.groupby import introspection as _introspection  # noqa: F401
from jupyter_mars.dataframe.groupby import numbering as _numbering  # noqa: F401
from jupyter_mars.dataframe.groupby import picks as _picks  # noqa: F401
from jupyter_mars.dataframe.groupby import plots as _plots  # noqa: F401
from jupyter_mars.dataframe.groupby import windows as _windows  # noqa: F401 - attaches methods
from jupyter_mars.dataframe.groupby.core import DataFrameGroupBy, SeriesGroupBy
from jupyter_mars.dataframe.groupby.extras import NamedAgg
from jupyter_mars.dataframe.groupby.pivot import crosstab, pivot_table

__all__ = ["DataFrameGroupBy", "NamedAgg", "SeriesGroupBy", "crosstab", "pivot_table"]

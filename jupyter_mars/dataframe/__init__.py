"""The pandas-compatible lazy API: ``import jupyter_mars.dataframe as md``.

Frames are chunked by rows and run on the same engine, embedded or on a cluster, as
tensors. ``md.DataFrame(pandas_df_or_dict_or_array_or_tensor, chunk_size=rows)``;
``chunk_size=(rows, cols)`` splits the columns too, for wide frames (``column_split``).
"""

from jupyter_mars.dataframe import methods as _methods  # noqa: F401 - attaches methods
from jupyter_mars.dataframe.concatenate import concat
from jupyter_mars.dataframe.construct import date_range
from jupyter_mars.dataframe.core import DataFrame, Index, Series
from jupyter_mars.dataframe.groupby import crosstab, pivot_table
from jupyter_mars.dataframe.io import (
    read_csv,
    read_json,
    read_parquet,
    read_sql,
    read_sql_query,
    read_sql_table,
    to_csv,
    to_json,
    to_parquet,
    to_sql,
)
from jupyter_mars.dataframe.joins import merge
from jupyter_mars.dataframe.reshape import get_dummies, melt

__all__ = [
    "DataFrame",
    "Index",
    "Series",
    "concat",
    "crosstab",
    "date_range",
    "get_dummies",
    "melt",
    "merge",
    "pivot_table",
    "read_csv",
    "read_json",
    "read_parquet",
    "read_sql",
    "read_sql_query",
    "read_sql_table",
    "to_csv",
    "to_json",
    "to_parquet",
    "to_sql",
]

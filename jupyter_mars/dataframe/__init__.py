"""The pandas-compatible lazy API: ``import jupyter_mars.dataframe as md``.

Frames are chunked by rows and run on the same engine, embedded or on a cluster, as
tensors. ``md.DataFrame(pandas_df_or_dict_or_array_or_tensor, chunk_size=rows)``;
``chunk_size=(rows, cols)`` splits the columns too, for wide frames (``column_split``).
"""

from jupyter_mars.dataframe import methods as _methods  # noqa: F401 - attaches methods
from jupyter_mars.dataframe.arrow_types import (
    ArrowListArray,
    ArrowListDtype,
    ArrowStringArray,
    ArrowStringDtype,
)
from jupyter_mars.dataframe.concatenate import concat
from jupyter_mars.dataframe.construct import date_range, from_dict, from_records
from jupyter_mars.dataframe.core import DataFrame, Index, MultiIndex, Series
from jupyter_mars.dataframe.cut import cut, qcut
from jupyter_mars.dataframe.eval import eval
from jupyter_mars.dataframe.from_tensor import dataframe_from_tensor, series_from_tensor
from jupyter_mars.dataframe.functions import (
    factorize,
    isna,
    isnull,
    notna,
    notnull,
    to_datetime,
    to_numeric,
    to_timedelta,
    unique,
)
from jupyter_mars.dataframe.groupby import NamedAgg, crosstab, pivot_table
from jupyter_mars.dataframe.index import series_from_index
from jupyter_mars.dataframe.io import (
    read_csv,
    read_json,
    read_parquet,
    read_ray_dataset,
    read_raydataset,
    read_sql,
    read_sql_query,
    read_sql_table,
    to_csv,
    to_json,
    to_parquet,
    to_ray_dataset,
    to_sql,
)
from jupyter_mars.dataframe.joins import merge
from jupyter_mars.dataframe.joins.asof import merge_asof
from jupyter_mars.dataframe.reduction.custom import CustomReduction
from jupyter_mars.dataframe.reshape import get_dummies, melt
from jupyter_mars.dataframe.scalars import (
    NA,
    DateOffset,
    Interval,
    NaT,
    Timedelta,
    Timestamp,
    offsets,
)
from jupyter_mars.session import ExecutableTuple

__all__ = [
    "NA",
    "CustomReduction",
    "DataFrame",
    "DateOffset",
    "Index",
    "Interval",
    "MultiIndex",
    "NaT",
    "ArrowListArray",
    "ArrowListDtype",
    "ArrowStringArray",
    "ArrowStringDtype",
    "ExecutableTuple",
    "NamedAgg",
    "Series",
    "Timedelta",
    "Timestamp",
    "concat",
    "crosstab",
    "cut",
    "dataframe_from_tensor",
    "date_range",
    "eval",
    "factorize",
    "from_dict",
    "from_records",
    "get_dummies",
    "isna",
    "isnull",
    "melt",
    "merge",
    "merge_asof",
    "notna",
    "notnull",
    "offsets",
    "pivot_table",
    "qcut",
    "read_csv",
    "read_json",
    "read_parquet",
    "read_ray_dataset",
    "read_raydataset",
    "read_sql",
    "read_sql_query",
    "read_sql_table",
    "series_from_index",
    "series_from_tensor",
    "to_csv",
    "to_datetime",
    "to_json",
    "to_numeric",
    "to_parquet",
    "to_ray_dataset",
    "to_sql",
    "to_timedelta",
    "unique",
]

"""Reading and writing frames: CSV and other text, Parquet, JSON Lines, Feather, ORC, HDF5,
SQL databases and Ray Datasets.

``read_csv`` (and ``read_table``, ``read_fwf``), ``read_parquet``, ``read_json``,
``read_feather``, ``read_orc`` and ``read_hdf`` build lazy DataFrames from the files;
``read_pickle``, ``read_excel`` and the readers of ``whole_read`` (Stata, SAS, SPSS, XML,
HTML) load their data whole and split it into chunks.
``to_csv``, ``to_parquet`` and ``to_json`` are attached to DataFrame (``to_csv`` and
``to_json`` to Series too) and write atomically; the one-document formats (``to_pickle``,
``to_excel``, ``to_html``...) are written by pandas from the fetched data
(``pandas_write``).
"""

from typing import Any

from jupyter_mars.dataframe.core import DataFrame, Series
from jupyter_mars.dataframe.io.csv_read import read_csv
from jupyter_mars.dataframe.io.csv_write import to_csv
from jupyter_mars.dataframe.io.excel_read import read_excel
from jupyter_mars.dataframe.io.feather_read import read_feather
from jupyter_mars.dataframe.io.fwf_read import read_fwf
from jupyter_mars.dataframe.io.hdf_read import read_hdf
from jupyter_mars.dataframe.io.json_read import read_json
from jupyter_mars.dataframe.io.json_write import to_json
from jupyter_mars.dataframe.io.orc_read import read_orc
from jupyter_mars.dataframe.io.pandas_write import pandas_writer
from jupyter_mars.dataframe.io.parquet_read import read_parquet
from jupyter_mars.dataframe.io.parquet_write import to_parquet
from jupyter_mars.dataframe.io.pickle_read import read_pickle
from jupyter_mars.dataframe.io.ray_dataset import (
    read_ray_dataset,
    read_raydataset,
    to_ray_dataset,
)
from jupyter_mars.dataframe.io.sql_read import read_sql, read_sql_query, read_sql_table
from jupyter_mars.dataframe.io.sql_write import to_sql
from jupyter_mars.dataframe.io.table_read import read_table
from jupyter_mars.dataframe.io.whole_read import (
    read_html,
    read_sas,
    read_spss,
    read_stata,
    read_xml,
    to_pickle,
)

frame_methods: dict[str, Any] = {
    "to_csv": to_csv,
    "to_parquet": to_parquet,
    "to_json": to_json,
    "to_ray_dataset": to_ray_dataset,
}
series_methods: dict[str, Any] = {
    "to_csv": to_csv,
    "to_json": to_json,
    "to_ray_dataset": to_ray_dataset,
}

for attr, value in frame_methods.items():
    setattr(DataFrame, attr, value)
for attr, value in series_methods.items():
    setattr(Series, attr, value)

__all__ = [
    "pandas_writer",
    "read_csv",
    "read_excel",
    "read_feather",
    "read_fwf",
    "read_hdf",
    "read_html",
    "read_json",
    "read_orc",
    "read_parquet",
    "read_pickle",
    "read_ray_dataset",
    "read_raydataset",
    "read_sas",
    "read_spss",
    "read_sql",
    "read_sql_query",
    "read_sql_table",
    "read_stata",
    "read_table",
    "read_xml",
    "to_csv",
    "to_json",
    "to_parquet",
    "to_pickle",
    "to_ray_dataset",
    "to_sql",
]

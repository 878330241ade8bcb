"""Reading and writing frames: ``read_csv`` and ``DataFrame.to_csv``."""

from jupyter_mars.dataframe.core import DataFrame
from jupyter_mars.dataframe.io.csv_read import read_csv
from jupyter_mars.dataframe.io.csv_write import to_csv

DataFrame.to_csv = to_csv  # type: ignore[attr-defined]

__all__ = ["read_csv", "to_csv"]

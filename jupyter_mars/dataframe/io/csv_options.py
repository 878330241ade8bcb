"""Mars's keywords of ``read_csv`` that pandas lacks, checked and turned into settings.

- ``chunk_bytes`` and ``head_bytes`` take a byte count or a size such as ``"64M"``,
  ``"100k"`` or ``"1.5G"`` (powers of 1024), as Mars's do;
- ``index_col`` (pandas') names the columns, by label or position among the columns
  read, that become the index: each chunk sets its own rows' index, so the result's
  index is pandas';
- ``incremental_index=False`` keeps each chunk's own ``0..n-1`` row labels (Mars's
  cheaper option; pandas numbers rows over the whole file, the default here too);
- ``use_arrow_dtype=True`` reads into Arrow-backed dtypes (pandas' ``dtype_backend``).
"""

from __future__ import annotations

import re
from typing import Any

_SIZE = re.compile(r"^\s*(\d+(?:\.\d*)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_bytes(value: Any, name: str) -> int:
    """A positive byte count from an int or a size string.

    >>> parse_bytes("64M", "chunk_bytes"), parse_bytes("1.5k", "chunk_bytes"), parse_bytes(10, "x")
    (67108864, 1536, 10)
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a positive int or a size such as '64M', got {value!r}")
    if isinstance(value, int):
        size = value
    elif isinstance(value, str) and (match := _SIZE.match(value)):
        size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    else:
        raise ValueError(f"{name} must be a positive int or a size such as '64M', got {value!r}")
    if size <= 0:
        raise ValueError(f"{name} must be a positive int or a size such as '64M', got {value!r}")
    return size


def index_labels(index_col: Any, columns: list[Any]) -> list[Any] | None:
    """The labels of the columns ``index_col`` names (None: no index columns)."""
    if index_col is None or index_col is False:
        return None
    if index_col is True:
        raise ValueError("The value of index_col couldn't be 'True'")
    wanted = list(index_col) if isinstance(index_col, (list, tuple)) else [index_col]
    labels = []
    for item in wanted:
        if isinstance(item, int) and not isinstance(item, bool) and item not in columns:
            if not -len(columns) <= item < len(columns):
                raise IndexError(f"index_col: position {item} is out of range")
            labels.append(columns[item])
        elif item in columns:
            labels.append(item)
        else:
            raise ValueError(f"index_col: Index {item} invalid")
    return labels


def check_mars_keywords(gpu: Any, storage_options: Any) -> None:
    if gpu:
        raise NotImplementedError("gpu=True: frames live in host memory")
    if storage_options:
        raise NotImplementedError("storage_options: only local files are read")

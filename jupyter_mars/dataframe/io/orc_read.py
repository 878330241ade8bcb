"""``read_orc``: a lazy DataFrame over an ORC file, a chunk per stripe.

Only the file's tail is read when ``read_orc`` is called: the schema gives the columns
and dtypes. pyarrow does not tell a stripe's row count without reading it, so each chunk
task reads its stripes with the chosen columns, converts them as ``pandas.read_orc``
does, and the rows are numbered ``0..n-1`` once every chunk's length is known.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.orc as orc

from jupyter_mars.dataframe.io.arrow_read import arrow_frame, check_arrow_args


def orc_stripe(source: Any, block: int, columns: list[Any] | None) -> pa.RecordBatch:
    """Stripe ``block`` of the open ORC file ``source``, of ``columns``."""
    return orc.ORCFile(source).read_stripe(block, columns=columns)


def read_orc(
    path: Any,
    columns: Any = None,
    dtype_backend: str | None = None,
    filesystem: Any = None,
    chunk_size: int | None = None,
    **kwargs: Any,
) -> Any:
    """A lazy DataFrame of an ORC file, equal to ``pandas.read_orc`` of it.

    Each stripe is a chunk; with ``chunk_size`` (rows), neighbouring stripes are grouped
    to about that many rows (by the file's average rows per stripe). Only ``columns`` are
    read.
    """
    if filesystem is not None:
        raise NotImplementedError("filesystem: only local files are read")
    if kwargs:
        raise TypeError(f"read_orc got unexpected arguments {sorted(kwargs)}")
    source = check_arrow_args(path, chunk_size, dtype_backend, None)
    with pa.OSFile(source) as f:
        file = orc.ORCFile(f)
        blocks, total, schema = file.nstripes, file.nrows, file.schema
    for name in [] if columns is None else columns:
        if isinstance(name, str) and name not in schema.names:
            # what pyarrow's ORC reader raises for it
            valid = ", ".join(schema.names)
            raise OSError(f"Invalid column selected {name}. Valid names are {valid}")
    return arrow_frame(
        "read_orc", orc_stripe, source, schema, (blocks, total), columns, chunk_size,
        dtype_backend,
    )  # fmt: skip

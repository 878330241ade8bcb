"""``read_feather``: a lazy DataFrame over a Feather (Arrow IPC) file, a chunk per batch.

Only the file's footer is read when ``read_feather`` is called: the schema (with the
pandas metadata) gives the columns and dtypes, the record batches their row counts. Each
chunk task reads its batches (or a slice of one) with the chosen columns and converts
them as ``pandas.read_feather`` does; the index is the stored one, or the stored
``RangeIndex`` numbered from each chunk's offset.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from jupyter_mars.dataframe.io.arrow_read import arrow_frame, check_arrow_args


def feather_batch(source: Any, block: int, columns: list[Any] | None) -> pa.RecordBatch:
    """Record batch ``block`` of the open Feather file ``source``, of ``columns``."""
    batch = pa.ipc.open_file(source).get_batch(block)
    return batch if columns is None else batch.select(columns)


def read_feather(
    path: Any,
    columns: Any = None,
    use_threads: bool = True,
    storage_options: Any = None,
    dtype_backend: str | None = None,
    chunk_size: int | None = None,
) -> Any:
    """A lazy DataFrame of a Feather file, equal to ``pandas.read_feather`` of it.

    Each record batch is a chunk; with ``chunk_size`` (rows), the batches are cut and
    joined into chunks of ``chunk_size`` rows. Only ``columns`` are read. ``use_threads``
    is accepted and has no effect (each chunk is one task).
    """
    source = check_arrow_args(path, chunk_size, dtype_backend, storage_options)
    with pa.OSFile(source) as f:
        reader = pa.ipc.open_file(f)
        rows = [reader.get_batch(i).num_rows for i in range(reader.num_record_batches)]
        schema = reader.schema
    for name in [] if columns is None else columns:
        if isinstance(name, str) and name not in schema.names:
            raise pa.ArrowInvalid(f"Field named {name} is not found")  # as pyarrow's reader
    return arrow_frame(
        "read_feather", feather_batch, source, schema, rows, columns, chunk_size, dtype_backend
    )

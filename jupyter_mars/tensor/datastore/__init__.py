"""Tensors read from and written to files.

``from_hdf5``/``to_hdf5`` (``hdf5``) and ``from_zarr``/``to_zarr`` (``zarr_store``) read
chunk by chunk, one task per chunk (``regions``), with shape and dtype read at the call;
writers are lazy tensors that write atomically when executed (``atomic``).
"""

from jupyter_mars.tensor.datastore.hdf5 import from_hdf5, fromhdf5, to_hdf5, tohdf5
from jupyter_mars.tensor.datastore.zarr_store import from_zarr, fromzarr, to_zarr, tozarr

__all__ = [
    "from_hdf5",
    "from_zarr",
    "fromhdf5",
    "fromzarr",
    "to_hdf5",
    "to_zarr",
    "tohdf5",
    "tozarr",
]

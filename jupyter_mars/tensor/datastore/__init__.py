"""Tensors read from and written to files, and made from frames.

``from_hdf5``/``to_hdf5`` (``hdf5``), ``from_zarr``/``to_zarr`` (``zarr_store``) and
``imread`` (``images``) read chunk by chunk, one task per chunk (``regions``), with
shape and dtype read at the call; writers are lazy tensors that write atomically when
executed (``atomic``). ``from_dataframe`` (``frames``) takes a frame's values.
"""

from jupyter_mars.tensor.datastore.frames import from_dataframe
from jupyter_mars.tensor.datastore.hdf5 import from_hdf5, fromhdf5, to_hdf5, tohdf5
from jupyter_mars.tensor.datastore.images import imread
from jupyter_mars.tensor.datastore.zarr_store import from_zarr, fromzarr, to_zarr, tozarr

__all__ = [
    "from_dataframe",
    "from_hdf5",
    "from_zarr",
    "fromhdf5",
    "fromzarr",
    "imread",
    "to_hdf5",
    "to_zarr",
    "tohdf5",
    "tozarr",
]

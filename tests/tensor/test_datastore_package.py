"""``mt`` exposes Mars's file readers and writers, and their Mars aliases."""

import jupyter_mars.tensor as mt

MARS_NAMES = [
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


def test_every_mars_name_is_exported() -> None:
    assert sorted(mt.datastore.__all__) == MARS_NAMES
    for name in MARS_NAMES:
        assert name in mt.__all__
        assert callable(getattr(mt, name))


def test_aliases_are_the_same_functions() -> None:
    assert mt.fromhdf5 is mt.from_hdf5
    assert mt.tohdf5 is mt.to_hdf5
    assert mt.fromzarr is mt.from_zarr
    assert mt.tozarr is mt.to_zarr

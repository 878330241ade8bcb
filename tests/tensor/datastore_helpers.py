"""Shared by the HDF5 and Zarr tests: sample data, a chunk function that fails on
demand, and what a folder and an executed tensor look like."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

import jupyter_mars as mars
import jupyter_mars.tensor as mt


def sample(shape: tuple[int, ...], dtype: str) -> np.ndarray:
    values = np.arange(int(np.prod(shape))).reshape(shape) % 7
    return values.astype(dtype)


def fail_on_negative(block: np.ndarray) -> np.ndarray:
    if (block < 0).any():
        raise ValueError("a negative value")
    return block


def listing(folder: Path) -> list[str]:
    return sorted(os.listdir(folder))


def layout(t: mt.Tensor) -> tuple:
    """The chunk lengths ``t`` was executed with."""
    t.execute()
    return mars.get_default_session().engine.executed[t.key].nsplits

"""``imread`` against Pillow's decoding of the same files, and ``from_dataframe`` against
pandas' ``to_numpy``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from tests.conftest import assert_same, chunkings


def _images(folder: Path, n: int, shape: tuple[int, ...], mode: str) -> np.ndarray:
    rng = np.random.default_rng(n)
    stack = rng.integers(0, 256, size=(n, *shape), dtype=np.uint8)
    for i, pixels in enumerate(stack):
        Image.fromarray(pixels, mode=mode).save(folder / f"img{i:02d}.png")
    return stack


@pytest.mark.parametrize("chunk_size", [None, *chunkings((5, 4, 6, 3))])
def test_imread_stacks_a_pattern_in_name_order(tmp_path: Path, chunk_size: object) -> None:
    stack = _images(tmp_path, 5, (4, 6, 3), "RGB")
    t = mt.imread(str(tmp_path / "img*.png"), chunk_size=chunk_size)
    assert (t.shape, t.dtype) == (stack.shape, stack.dtype)
    assert_same(t, stack)


@pytest.mark.parametrize("chunk_size", [None, *chunkings((7, 5))])
def test_imread_of_one_file(tmp_path: Path, chunk_size: object) -> None:
    (pixels,) = _images(tmp_path, 1, (7, 5), "L")
    assert_same(mt.imread(str(tmp_path / "img00.png"), chunk_size=chunk_size), pixels)
    assert_same(mt.imread(str(tmp_path / "img*.png"), chunk_size=chunk_size), pixels)


def test_imread_of_a_list_and_images_per_chunk(tmp_path: Path) -> None:
    stack = _images(tmp_path, 4, (3, 2), "L")
    names = [str(tmp_path / f"img{i:02d}.png") for i in (2, 0, 3)]
    assert_same(mt.imread(names, chunk_size=2), stack[[2, 0, 3]])


def test_imread_errors_raise_at_the_call(tmp_path: Path) -> None:
    _images(tmp_path, 2, (3, 2), "L")
    Image.fromarray(np.zeros((3, 3), dtype=np.uint8)).save(tmp_path / "other.png")
    with pytest.raises(FileNotFoundError, match="no file matches"):
        mt.imread(str(tmp_path / "*.jpg"))
    with pytest.raises(FileNotFoundError, match="missing.png"):
        mt.imread(str(tmp_path / "missing.png"))
    with pytest.raises(ValueError, match="other.png"):
        mt.imread(str(tmp_path / "*.png"))
    with pytest.raises(TypeError, match="path"):
        mt.imread(3)
    (tmp_path / "text.png").write_text("not an image")
    with pytest.raises(OSError, match="text.png"):
        mt.imread(str(tmp_path / "text.png"))


FRAME = pd.DataFrame({"a": np.arange(7), "b": np.linspace(0, 1, 7), "c": np.arange(7) % 3})


@pytest.mark.parametrize("chunk_size", [1, 3, 7])
def test_from_dataframe_takes_the_frame_values(chunk_size: int) -> None:
    df = md.DataFrame(FRAME, chunk_size=chunk_size)
    assert_same(mt.from_dataframe(df), FRAME.to_numpy())
    assert_same(mt.from_dataframe(df[["a", "c"]]), FRAME[["a", "c"]].to_numpy())
    assert_same(mt.from_dataframe(df["b"]), FRAME["b"].to_numpy())
    assert_same(mt.from_dataframe(df[["a", "b"]], dtype="f4"), FRAME[["a", "b"]].to_numpy("f4"))


def test_from_dataframe_of_pandas_and_errors() -> None:
    assert_same(mt.from_dataframe(FRAME[["a", "b"]]), FRAME[["a", "b"]].to_numpy())
    with pytest.raises(TypeError, match="DataFrame or a Series"):
        mt.from_dataframe(np.zeros(3))
    with pytest.raises(TypeError, match="DataFrame or a Series"):
        mt.from_dataframe(mt.ones(3))
    mixed = pd.DataFrame({"a": [1, 2], "s": ["x", "y"]})
    got = mt.from_dataframe(md.DataFrame(mixed, chunk_size=1)).execute().fetch()
    assert got.dtype == object  # no common NumPy dtype: objects, as pandas and Mars give
    assert got.tolist() == mixed.to_numpy().tolist()

"""Write docs/api-coverage.md: which of NumPy's, pandas' and Mars's names ``mt`` and
``md`` have.

Run it after adding or removing a tensor function:
``PYTHONPATH=. .venv/bin/python scripts/api_coverage.py`` (``--check`` only compares).

Both sides are read from the live modules: NumPy's main namespace as installed, and
``jupyter_mars.tensor``. Mars's public names per module come from
``scripts/mars_public_api.json`` (Mars's own ``__all__`` lists, copied here so that the
repository alone can regenerate the page). Every name ``mt`` lacks must have a reason
below; ``tests/test_api_coverage.py`` checks that, that the page is up to date, and that
``mt`` covers at least ``NUMPY_TARGET`` of NumPy's array functions.
"""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import jupyter_mars.dataframe as md
import jupyter_mars.tensor as mt
from jupyter_mars.dataframe.groupby import DataFrameGroupBy, SeriesGroupBy
from jupyter_mars.dataframe.timeseries.resample import Resampler
from jupyter_mars.dataframe.window import EWM, Expanding, Rolling

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "api-coverage.md"
MARS_API = Path(__file__).resolve().parent / "mars_public_api.json"
DIVERGENCES = Path(__file__).resolve().parent / "api_divergences.md"
"""Where ``mt`` differs from NumPy and Mars: prose, kept by hand, put in the page as is."""
FRAME_DIVERGENCES = Path(__file__).resolve().parent / "api_divergences_dataframe.md"
"""Where ``md`` differs from pandas and Mars, likewise."""
NUMPY_TARGET = 0.90

# NumPy callables that are not functions of arrays, by group: (why, names). A name that
# the installed NumPy lacks is ignored, so the table can name several NumPy versions.
EXCLUDED: dict[str, tuple[str, tuple[str, ...]]] = {
    "not NumPy's": (
        "put into NumPy's namespace by numexpr, which pandas imports when it is installed",
        ("expm1x",),
    ),
    "text formatting": (
        "they turn arrays or numbers into text for display; an executed tensor prints "
        "through NumPy's own functions",
        (
            "array2string",
            "array_repr",
            "array_str",
            "base_repr",
            "binary_repr",
            "format_float_positional",
            "format_float_scientific",
            "typename",
        ),
    ),
    "printing options": (
        "they set how NumPy prints, which tensors use as they are",
        ("get_printoptions", "printoptions", "set_printoptions"),
    ),
    "files and byte buffers": (
        "they read or write one machine's files, text or bytes; tensors have chunked "
        "readers and writers of their own (HDF5, Zarr, images, data frames)",
        (
            "frombuffer",
            "fromfile",
            "fromregex",
            "fromstring",
            "genfromtxt",
            "load",
            "loadtxt",
            "save",
            "savetxt",
            "savez",
            "savez_compressed",
        ),
    ),
    "build, configuration and runtime helpers": (
        "they describe or configure the NumPy installation and its C iterators, not arrays; "
        "an error callback set in the client could not run on the workers",
        (
            "get_include",
            "getbufsize",
            "geterrcall",
            "info",
            "nested_iters",
            "setbufsize",
            "seterrcall",
            "show_config",
            "show_runtime",
            "test",
        ),
    ),
    "ufunc factory": (
        "it makes a NumPy ufunc from a Python function; `mt.elemwise` applies any "
        "function chunk by chunk",
        ("frompyfunc",),
    ),
    "datetime and business-day helpers": (
        "calendar arithmetic on datetime64 values, which Mars leaves to its data frames",
        ("busday_count", "busday_offset", "datetime_as_string", "datetime_data", "is_busday"),
    ),
    "dtype and Python-object introspection": (
        "they answer questions about dtypes or Python objects, not array values; NumPy's "
        "answer for a tensor's `dtype` is the answer",
        (
            "can_cast",
            "isdtype",
            "isscalar",
            "issubdtype",
            "iterable",
            "min_scalar_type",
            "mintypecode",
            "promote_types",
        ),
    ),
    "memory layout and sharing": (
        "they ask about memory buffers; a tensor's chunks are separate arrays that may live "
        "on other machines",
        ("isfortran", "may_share_memory", "shares_memory"),
    ),
    "matrix class": (
        "`np.matrix` is discouraged by NumPy, and Mars has no matrix type",
        ("asmatrix", "bmat"),
    ),
    "legacy polynomial functions": (
        "the `poly1d` family works on short coefficient vectors, where chunking gains "
        "nothing; NumPy points users to `numpy.polynomial`",
        (
            "poly",
            "polyadd",
            "polyder",
            "polydiv",
            "polyfit",
            "polyint",
            "polymul",
            "polysub",
            "polyval",
            "roots",
        ),
    ),
    "deprecated aliases": (
        "NumPy 2 deprecates `row_stack` in favour of `vstack`, which `mt` has",
        ("row_stack",),
    ),
}

# Why `mt` lacks a NumPy array function that is not excluded above.
NUMPY_MISSING: dict[str, str] = {
    "shape": "`mt.shape` is the package of shape functions, as in Mars; `Tensor.shape` "
    "and `np.shape(tensor)` give a tensor's shape",
    "real_if_close": "its dtype depends on the values, which a lazy tensor does not know "
    "before it runs",
}

# Why `mt` lacks a Mars name, per module ("" is `mars.tensor` itself).
MARS_MISSING: dict[str, str] = {
    "fromtiledb": "TileDB storage is not supported (its client library is not a dependency)",
    "from_tiledb": "TileDB storage is not supported (its client library is not a dependency)",
    "totiledb": "TileDB storage is not supported (its client library is not a dependency)",
    "to_tiledb": "TileDB storage is not supported (its client library is not a dependency)",
    "fromvineyard": "Vineyard storage is not supported (it needs a Vineyard server)",
    "from_vineyard": "Vineyard storage is not supported (it needs a Vineyard server)",
    "tovineyard": "Vineyard storage is not supported (it needs a Vineyard server)",
    "to_vineyard": "Vineyard storage is not supported (it needs a Vineyard server)",
}
MARS_MISSING.update(
    {
        "from_vineyard": "Vineyard storage is not supported (it needs a Vineyard server)",
        "read_ray_dataset": "comes with the Ray runtime",
        "read_ray_mldataset": "comes with the Ray runtime",
        "read_raydataset": "comes with the Ray runtime",
        "to_ray_dataset": "comes with the Ray runtime",
        "to_ray_mldataset": "comes with the Ray runtime",
    }
)
MODULE_MISSING = "the module `{module}` is being added"

PANDAS_CLASSES = {"DataFrame": (pd.DataFrame, md.DataFrame), "Series": (pd.Series, md.Series)}
PANDAS_CLASSES["Index"] = (pd.Index, md.Index)
PANDAS_CLASSES["MultiIndex"] = (pd.MultiIndex, md.MultiIndex)
# the objects windows, resampling and groupings return (pandas names them in api.typing)
PANDAS_CLASSES["api.typing.Rolling"] = (pd.api.typing.Rolling, Rolling)
PANDAS_CLASSES["api.typing.Expanding"] = (pd.api.typing.Expanding, Expanding)
PANDAS_CLASSES["api.typing.ExponentialMovingWindow"] = (pd.api.typing.ExponentialMovingWindow, EWM)
PANDAS_CLASSES["api.typing.Resampler"] = (pd.api.typing.Resampler, Resampler)
PANDAS_CLASSES["api.typing.DataFrameGroupBy"] = (pd.api.typing.DataFrameGroupBy, DataFrameGroupBy)
PANDAS_CLASSES["api.typing.SeriesGroupBy"] = (pd.api.typing.SeriesGroupBy, SeriesGroupBy)
"""pandas' class -> (its own, ``md``'s)."""
PANDAS_MISSING: dict[str, str] = {
    "sparse": "pandas' sparse accessor: frames here are dense (tensors have `sparse=True`)",
    "to_clipboard": "there is no clipboard on a cluster; fetch and use pandas'",
    "to_iceberg": "Iceberg catalogs need a server this project does not run",
    "dtypes": "a Series has `dtype`; pandas' `Series.dtypes` is the same value",
    "to_sql": "a Series is written with `to_frame().to_sql(...)`",
    "online": "pandas' online mean keeps its state in the client between calls that feed "
    "it more rows, and runs only with the numba engine; `ewm().mean()` of a lazy frame "
    "carries that same state from chunk to chunk",
}
"""Why ``md`` lacks a pandas name, by name."""

PANDAS_TOPLEVEL_MISSING: dict[str, str] = {
    "ExcelFile": "an open workbook for pandas' `read_excel`; `DataFrame.to_excel` writes",
    "ExcelWriter": "an open workbook for pandas' `to_excel`; `DataFrame.to_excel` writes",
    "HDFStore": "an open HDF5 file for pandas' readers and writers; `DataFrame.to_hdf` writes",
    "read_clipboard": "there is no clipboard on a cluster; read with pandas and wrap",
    "read_iceberg": "Iceberg catalogs need a server this project does not run",
    "test": "runs pandas' own test suite",
}
"""Why ``md`` lacks a callable or class of pandas' top-level namespace, by name."""


@dataclass
class Section:
    """One module's comparison."""

    title: str
    present: list[str]
    missing: dict[str, str]
    """Missing name -> why."""

    @property
    def total(self) -> int:
        return len(self.present) + len(self.missing)

    @property
    def coverage(self) -> float:
        return len(self.present) / self.total if self.total else 1.0


def _is_function(value: Any) -> bool:
    """A callable that is not a class (dtypes, scalar types, ``ndarray``, ``errstate``...)."""
    return callable(value) and not isinstance(value, (type, types.ModuleType))


def excluded_names() -> dict[str, str]:
    """Excluded NumPy name -> its group."""
    return {name: group for group, (_, names) in EXCLUDED.items() for name in names}


def numpy_functions() -> list[str]:
    """NumPy's public main-namespace functions and ufuncs that take arrays."""
    excluded = excluded_names()
    return sorted(
        name
        for name in dir(np)
        if not name.startswith("_") and name not in excluded and _is_function(getattr(np, name))
    )


def numpy_section() -> Section:
    names = numpy_functions()
    # ``mt.shape`` is the package of shape functions, not NumPy's ``shape``
    present = [n for n in names if _is_function(getattr(mt, n, None))]
    missing = {n: NUMPY_MISSING.get(n, "") for n in names if n not in present}
    return Section("NumPy main namespace", present, missing)


def _module(path: str) -> Any:
    target: Any = mt
    for part in path.split(".")[2:]:
        target = getattr(target, part, None)
        if target is None:
            return None
    return target


def mars_sections() -> list[Section]:
    api: dict[str, list[str]] = json.loads(MARS_API.read_text())
    sections = []
    for module, names in sorted(api.items()):
        target = _module_of(module)
        if target is None:
            why = MODULE_MISSING.format(module=module.replace("mars.tensor", "mt", 1))
            sections.append(Section(module, [], dict.fromkeys(names, why)))
            continue
        present = sorted(n for n in names if hasattr(target, n))
        missing = {n: MARS_MISSING.get(n, "") for n in sorted(names) if not hasattr(target, n)}
        sections.append(Section(module, present, missing))
    return sections


def pandas_sections() -> list[Section]:
    """pandas' public DataFrame, Series and Index names (and those of the window,
    resampler and grouping objects), looked up on ``md``'s."""
    sections = []
    for title, (theirs, ours) in PANDAS_CLASSES.items():
        names = [n for n in dir(theirs) if not n.startswith("_")]
        present = sorted(n for n in names if hasattr(ours, n))
        missing = {n: PANDAS_MISSING.get(n, "") for n in sorted(names) if not hasattr(ours, n)}
        sections.append(Section(f"pandas.{title}", present, missing))
    return sections


def pandas_toplevel_section() -> Section:
    """pandas' public top-level callables and classes (not its submodules), looked up on
    ``md``."""
    names = sorted(n for n in dir(pd) if not n.startswith("_") and _is_callable(getattr(pd, n)))
    present = [n for n in names if hasattr(md, n)]
    missing = {n: PANDAS_TOPLEVEL_MISSING.get(n, "") for n in names if not hasattr(md, n)}
    return Section("pandas top-level", present, missing)


def _is_callable(value: Any) -> bool:
    """A function or class, not a module, a constant (``NA``) or an object such as
    ``IndexSlice`` or ``options``."""
    return callable(value) and not isinstance(value, types.ModuleType)


def _module_of(path: str) -> Any:
    if path.startswith("mars.dataframe"):
        target: Any = md
        for part in path.split(".")[2:]:
            target = getattr(target, part, None)
        return target
    return _module(path)


def _names(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) if names else "none"


def _missing_table(section: Section) -> list[str]:
    if not section.missing:
        return ["Nothing is missing.", ""]
    lines = ["| missing | why |", "| --- | --- |"]
    lines += [f"| `{n}` | {why or 'no reason recorded'} |" for n, why in section.missing.items()]
    return [*lines, ""]


def render() -> str:
    numpy = numpy_section()
    mars = mars_sections()
    pandas = pandas_sections()
    toplevel = pandas_toplevel_section()
    lines = [
        "# API coverage",
        "",
        "Generated by `scripts/api_coverage.py` from the installed modules "
        f"(NumPy {np.__version__}, pandas {pd.__version__}); do not edit by hand.",
        "",
        "## Summary",
        "",
        "| module | present | missing | coverage |",
        "| --- | --- | --- | --- |",
    ]
    for s in [numpy, toplevel, *pandas, *mars]:
        lines.append(f"| {s.title} | {len(s.present)} | {len(s.missing)} | {s.coverage:.1%} |")
    lines += [
        "",
        "## NumPy main namespace",
        "",
        f"`mt` has {len(numpy.present)} of NumPy's {numpy.total} main-namespace functions "
        f"and ufuncs that take arrays: **{numpy.coverage:.1%}** (target {NUMPY_TARGET:.0%}).",
        "Classes (dtypes, scalar types, `ndarray`, `vectorize`, `errstate`, ...) are not "
        "counted, nor are the groups below.",
        "",
        *_missing_table(numpy),
        "### Not counted",
        "",
        "| group | why | names |",
        "| --- | --- | --- |",
    ]
    for group, (why, names) in EXCLUDED.items():
        shown = [n for n in names if hasattr(np, n)]
        if shown:
            lines.append(f"| {group} | {why} | {_names(shown)} |")
    lines += ["", "### Present", "", _names(numpy.present), ""]
    lines += ["## Where `mt` differs", "", DIVERGENCES.read_text().rstrip(), ""]
    lines += [
        "## pandas' top-level namespace",
        "",
        "pandas' public functions and classes (`dir(pandas)` without `_` names, "
        "submodules, constants such as `NA` and objects such as `IndexSlice` and "
        "`options`), looked up on `md`. Types and helpers that hold no lazy data (dtypes, "
        "`Grouper`, `IndexSlice`, options) are pandas' own objects; `md.Index`, "
        "`md.MultiIndex`, `md.DataFrame` and `md.Series` are the lazy ones.",
        "",
        f"{len(toplevel.present)} of {toplevel.total} present ({toplevel.coverage:.1%}).",
        "",
        *_missing_table(toplevel),
        f"Present: {_names(toplevel.present)}",
        "",
    ]
    lines += ["## pandas' DataFrame, Series and Index", ""]
    lines += [
        "pandas' public names of each class (`dir()`, without `_` names), looked up on "
        "`md`'s. Methods that hand data back to Python (`to_dict`, `items`, `iterrows`, "
        "`equals`, ...) fetch, as Mars's do.",
        "",
    ]
    for s in pandas:
        lines += [
            f"### {s.title}",
            "",
            f"{len(s.present)} of {s.total} present ({s.coverage:.1%}).",
            "",
            *_missing_table(s),
        ]
    lines += ["## Where `md` differs", "", FRAME_DIVERGENCES.read_text().rstrip(), ""]
    lines += ["## Mars modules", ""]
    lines += [
        "Mars's public names per module (its `__all__` lists, in "
        "`scripts/mars_public_api.json`), looked up in the matching `mt` module.",
        "",
    ]
    for s in mars:
        lines += [
            f"### {s.title}",
            "",
            f"{len(s.present)} of {s.total} present ({s.coverage:.1%}).",
            "",
            *_missing_table(s),
            f"Present: {_names(s.present)}",
            "",
        ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not DOC.exists() or DOC.read_text() != text:
            print(f"{DOC.relative_to(ROOT)} is out of date: run scripts/api_coverage.py")
            return 1
        return 0
    DOC.write_text(text)
    print(f"wrote {DOC.relative_to(ROOT)}: NumPy coverage {numpy_section().coverage:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

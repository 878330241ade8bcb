"""``scripts/api_coverage.py``: the committed coverage page is what the script writes, and
``mt`` covers NumPy's array functions to the target."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "api_coverage.py"


@pytest.fixture(scope="module")
def coverage() -> ModuleType:
    spec = importlib.util.spec_from_file_location("api_coverage", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up in sys.modules
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_committed_page_is_up_to_date(coverage: ModuleType) -> None:
    committed = coverage.DOC.read_text()
    versions = re.search(r"\(NumPy ([^,]+), pandas ([^)]+)\)", committed)
    assert versions is not None
    if versions.groups() != (np.__version__, pd.__version__):
        pytest.skip(f"the page describes NumPy and pandas {versions.groups()}, not these")
    assert coverage.render() == committed, "run scripts/api_coverage.py and commit the page"


def test_numpy_coverage_reaches_the_target(coverage: ModuleType) -> None:
    numpy = coverage.numpy_section()
    assert numpy.coverage >= coverage.NUMPY_TARGET >= 0.9, sorted(numpy.missing)


def test_every_missing_name_has_a_reason(coverage: ModuleType) -> None:
    sections = [
        coverage.numpy_section(),
        coverage.pandas_toplevel_section(),
        *coverage.pandas_sections(),
        *coverage.mars_sections(),
    ]
    unexplained = [f"{s.title}.{n}" for s in sections for n, why in s.missing.items() if not why]
    assert not unexplained


def test_pandas_coverage_reaches_ninety_percent(coverage: ModuleType) -> None:
    for section in coverage.pandas_sections():
        assert section.coverage >= 0.9, (section.title, sorted(section.missing))


def test_excluded_groups_hold_no_counted_name(coverage: ModuleType) -> None:
    counted = set(coverage.numpy_functions())
    assert not counted & set(coverage.excluded_names())
    assert "add" in counted
    assert "ndarray" not in counted  # classes are not functions

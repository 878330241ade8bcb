"""The panel's adaptive scaling control in a real ``jupyter lab`` and Chromium: a mistake
in the bounds is named, Adapt makes the server's cluster adapt (it grows to the minimum),
the panel shows the bounds, and Stop adapting ends it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import ARTIFACTS, chromium_page
from tests.labextension.jupyterlab import PANEL, WAIT, Lab, jupyter_lab, stop

CONTROL = f"{PANEL} .jp-MarsPanel-adaptControl"


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    root = tmp_path / "notebooks"
    root.mkdir()
    fast = {"jupyter_mars/plugin": {"refreshSeconds": 0.5}}
    args = ("--MarsExtension.n_workers=1", "--MarsExtension.n_cpu=1")
    with jupyter_lab(root, *args, "--MarsExtension.start_timeout=60", settings=fast) as lab:
        yield lab


def _workers(page, n: int) -> None:
    page.wait_for_function(
        f"document.querySelectorAll('{PANEL} .jp-MarsPanel-worker').length === {n}",
        timeout=WAIT,
    )


def test_the_adapt_toggle_makes_the_cluster_adapt_between_the_bounds_and_back(lab: Lab) -> None:
    with chromium_page(1400, 900) as page:
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(lab.open_url("lab"))
        page.click(".lm-TabBar-tab[data-id='jupyter-mars-panel']", timeout=WAIT)
        page.click(f"{PANEL} .jp-MarsPanel-start", timeout=WAIT)
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-state[data-state='running']", timeout=WAIT)
        _workers(page, 1)
        page.wait_for_selector(f"{CONTROL}[data-adapting='false']:has-text('fixed size')")

        page.fill(f"{CONTROL} input[name=adapt_minimum]", "3")
        page.fill(f"{CONTROL} input[name=adapt_maximum]", "2")
        page.click(f"{CONTROL} .jp-MarsPanel-adapt")
        page.wait_for_selector(
            f"{PANEL} .jp-MarsPanel-error:has-text('maximum workers must be at least the "
            "minimum (3), got 2')"
        )

        page.fill(f"{CONTROL} input[name=adapt_minimum]", "2")
        page.fill(f"{CONTROL} input[name=adapt_maximum]", "3")
        page.click(f"{CONTROL} .jp-MarsPanel-adapt")
        page.wait_for_selector(
            f"{CONTROL}[data-adapting='true']:has-text('adapting between 2 and 3 workers')",
            timeout=WAIT,
        )
        assert not page.is_visible(f"{PANEL} .jp-MarsPanel-error")
        assert page.text_content(f"{CONTROL} .jp-MarsPanel-adapt") == "Stop adapting"
        _workers(page, 2)  # the adaptive loop brought it up to the minimum
        page.screenshot(path=str(ARTIFACTS / "lab-panel-adapting.png"))

        page.click(f"{CONTROL} .jp-MarsPanel-adapt")
        page.wait_for_selector(f"{CONTROL}[data-adapting='false']", timeout=WAIT)
        assert page.text_content(f"{CONTROL} .jp-MarsPanel-adapt") == "Adapt"
        _workers(page, 2)  # the workers that ran stay

        page.click(f"{PANEL} .jp-MarsPanel-stop")
        page.wait_for_selector(f"{PANEL} .jp-MarsPanel-state[data-state='stopped']", timeout=WAIT)
        assert not [e for e in errors if "mars" in e.lower()], errors

    left = stop(lab)
    assert left == [], [p.info for p in left]

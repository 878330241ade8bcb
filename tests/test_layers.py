"""The package's layers run one way, read from the source's imports.

From the top: faces (magics, widgets, the Jupyter server extension, the web front end,
the command lines and launchers) → API (``learn`` above ``dataframe`` above ``tensor``) → client
(sessions, ``executable``, ``remote``) → engine (graph, plan, scheduler, executors,
storage). The cluster's processes (``cluster/``: ``wire`` below ``supervisor`` and
``worker``, which never import each other) use the engine only, and only faces start them.

Every import of a package module counts, at module level or inside a function; only
imports under ``if TYPE_CHECKING:`` (never run) are left out. Besides the order, folders
must not import each other in a circle: the top-level packages, and the subfolders of the
engine (and of the cluster and deploy), which are separate parts. The API packages' own
subfolders are one part each: their families attach methods to one another's classes by
design.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "jupyter_mars"

FACES = frozenset(
    {"magics", "widgets", "server", "web", "labextension", "demo", "deploy", "launcher"}
    | {"supervisor", "worker", "__main__"}
)
CLIENT = frozenset({"session", "executable", "remote", "ray"})
"""``ray``: a session whose runtime is Ray, as ``remote`` is one whose runtime is a cluster."""
RANKS = {"faces": 6, "learn": 5, "dataframe": 4, "tensor": 3, "client": 2, "engine": 0}
"""A module may import from its own layer or a lower one (the cluster: see below)."""


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    in_function: bool


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str:
    """The package module an imported name lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _imports() -> list[Import]:
    out: list[Import] = []
    for module, path in MODULES.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        _visit(ast.parse(path.read_text()), module, package, False, out)
    return out


def _visit(node: ast.AST, module: str, package: str, in_function: bool, out: list[Import]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:  # the branch that runs
                _visit(other, module, package, in_function, out)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            for name in _names(child, package):
                if name.startswith("jupyter_mars"):
                    out.append(Import(module, _resolve(name), child.lineno, in_function))
        nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        _visit(child, module, package, nested, out)


def _names(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        anchor = package
        for _ in range(node.level - 1):
            anchor = anchor.rpartition(".")[0]
        base = f"{anchor}.{base}" if base else anchor
    return [f"{base}.{alias.name}" for alias in node.names]


IMPORTS = _imports()


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "faces"  # the package's own __init__: the face users import
    top = parts[1]
    if top in FACES:
        return "faces"
    if top in CLIENT:
        return "client"
    if top in ("tensor", "dataframe", "learn"):
        return top
    if top == "cluster":
        return "cluster"
    if top in ("engine", "config"):
        return "engine"
    raise AssertionError(f"{module}: no layer is set for this package; add it to the contract")


CLUSTER_SIDES = {"supervisor": 1, "worker": 1, "wire": 0}
"""Inside ``cluster/``: each side may use the wire and the shared modules, not the other."""


def _cluster_side(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[2] in CLUSTER_SIDES else None


def _violation(source: str, target: str) -> bool:
    here, there = layer(source), layer(target)
    if here == there == "cluster":
        mine, theirs = _cluster_side(source), _cluster_side(target)
        if mine is None or theirs is None or mine == theirs:
            # the modules both processes share may use the wire, not either side
            return mine is None and theirs in ("supervisor", "worker")
        return CLUSTER_SIDES[theirs] >= CLUSTER_SIDES[mine]
    if here == there:
        return False
    if there == "cluster":
        return here != "faces"  # the cluster's processes are started by faces only
    if here == "cluster":
        return there != "engine"
    return RANKS[there] > RANKS[here]


def test_every_module_has_a_layer() -> None:
    for module in MODULES:
        layer(module)


def test_no_import_runs_back_up() -> None:
    upward = [
        f"{i.source}:{i.line} imports {i.target} ({layer(i.source)} -> {layer(i.target)})"
        for i in IMPORTS
        if _violation(i.source, i.target)
    ]
    assert not upward, "imports that run up a layer:\n" + "\n".join(upward)


def part(module: str) -> str:
    """The folder a module belongs to, for the cycle check. The subfolders of ``engine``,
    ``cluster`` and ``deploy`` are parts of their own: ``deploy.kubernetes`` names the
    launcher of ``launcher.kubernetes``, and ``launcher``'s host lists read ``deploy``'s
    values."""
    parts = module.split(".")
    if (
        len(parts) > 2
        and parts[1] in ("engine", "cluster", "deploy")
        and (PACKAGE / parts[1] / parts[2]).is_dir()
    ):
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected parts of more than one folder (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return found


def test_no_cycle_between_folders() -> None:
    edges: dict[str, set[str]] = defaultdict(set)
    examples: dict[tuple[str, str], str] = {}
    for i in IMPORTS:
        a, b = part(i.source), part(i.target)
        if a != b and a != "jupyter_mars":
            edges[a].add(b)
            edges[b]  # noqa: B018 - every folder is a node
            examples.setdefault((a, b), f"{i.source}:{i.line} -> {i.target}")
    report = []
    for cycle in _cycles(edges):
        links = [examples[(a, b)] for a in cycle for b in cycle if (a, b) in examples]
        report.append(" <-> ".join(cycle) + "\n    " + "\n    ".join(links))
    assert not report, "folders importing each other:\n" + "\n".join(report)


@pytest.mark.parametrize("source", ["jupyter_mars.engine", "jupyter_mars.tensor"])
def test_the_contract_sees_a_violation(source: str) -> None:
    """The check itself: an engine or API module importing a face is caught."""
    assert _violation(f"{source}.anything", "jupyter_mars.widgets.future")
    assert not _violation("jupyter_mars.widgets.future", f"{source}.anything")
    assert _violation("jupyter_mars.tensor.core", "jupyter_mars.dataframe.core")
    assert _violation("jupyter_mars.session", "jupyter_mars.cluster.supervisor")
    assert _violation("jupyter_mars.cluster.wire.rpc", "jupyter_mars.cluster.worker.server")
    assert _violation("jupyter_mars.cluster.worker.tasks", "jupyter_mars.cluster.supervisor.server")
    assert not _violation("jupyter_mars.cluster.worker.tasks", "jupyter_mars.cluster.wire.rpc")
    assert _violation("jupyter_mars.cluster.supervisor.server", "jupyter_mars.web.app")
    assert _violation("jupyter_mars.cluster.serve", "jupyter_mars.cluster.worker.server")
    assert not _violation("jupyter_mars.cluster.serve", "jupyter_mars.cluster.wire.rpc")
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]


def _private_imports() -> list[str]:
    """Imports of a private name, or of a private module from outside its package."""
    found = []
    for module, path in MODULES.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom) or node.level:
                continue
            source = node.module or ""
            if not source.startswith("jupyter_mars"):
                continue
            private = [a.name for a in node.names if a.name.startswith("_")]
            parts = source.split(".")
            for i, piece in enumerate(parts):
                owner = ".".join(parts[:i])
                if piece.startswith("_") and not f"{package}.".startswith(f"{owner}."):
                    private.append(source)
            if private:
                found.append(f"{module}:{node.lineno} imports {', '.join(private)} from {source}")
    return found


def test_no_private_name_is_imported_across_modules() -> None:
    """What modules share is public; a private module serves its own package only."""
    found = _private_imports()
    assert not found, "\n".join(found)


LAZY_IMPORTS = {
    ("jupyter_mars", "jupyter_mars.magics"): "IPython is loaded by %load_ext only",
    ("jupyter_mars", "jupyter_mars.launcher.ray.cluster"): "Ray: optional, new_cluster_in_ray only",
    ("jupyter_mars.server", "jupyter_mars.server.app"): "jupyter_server is loaded by the server",
    ("jupyter_mars.ray.session", "jupyter_mars.ray.runtime"): "Ray: optional, Ray sessions only",
    ("jupyter_mars.launcher", "jupyter_mars.launcher.ssh_cluster"): "paramiko: SSH users only",
    ("jupyter_mars.launcher.cli", "jupyter_mars.launcher.ssh_cluster"): "paramiko: SSH users only",
    ("jupyter_mars.server.clusters", "jupyter_mars.launcher.ssh_cluster"): "paramiko: SSH only",
    ("jupyter_mars.launcher.reattach", "jupyter_mars.launcher.ssh_cluster"): "paramiko: SSH only",
    ("jupyter_mars.launcher.odps", "jupyter_mars.launcher.ssh_cluster"): "paramiko: SSH only",
    ("jupyter_mars.launcher.odps", "jupyter_mars.launcher.kubernetes.cluster"): "the same",
    ("jupyter_mars.deploy.supervisor", "jupyter_mars.cluster.serve"): "--help without the engine",
    ("jupyter_mars.deploy.supervisor", "jupyter_mars.cluster.supervisor.server"): "the same",
    ("jupyter_mars.deploy.supervisor", "jupyter_mars.web.server"): "the same",
    ("jupyter_mars.deploy.web", "jupyter_mars.cluster.serve"): "the same",
    ("jupyter_mars.deploy.web", "jupyter_mars.web.proxy"): "the same",
    ("jupyter_mars.deploy.worker", "jupyter_mars.cluster.serve"): "the same",
    ("jupyter_mars.deploy.worker", "jupyter_mars.cluster.worker.crash_reports"): "the same",
    ("jupyter_mars.deploy.worker", "jupyter_mars.cluster.worker.server"): "the same",
    ("jupyter_mars.widgets.preview", "jupyter_mars.dataframe.core"): "pandas: frames only",
    ("jupyter_mars.magics", "jupyter_mars.launcher.ray_sessions"): "the web app: Ray users only",
    ("jupyter_mars.widgets.preview", "jupyter_mars.tensor.core"): "only once tensors are",
    (
        "jupyter_mars.deploy.kubernetes",
        "jupyter_mars.launcher.kubernetes.cluster",
    ): "the kubernetes client: launcher users only",
    (
        "jupyter_mars.launcher.kubernetes",
        "jupyter_mars.launcher.kubernetes.cluster",
    ): "the same",
}
"""The imports made inside functions, each to keep a heavy or optional dependency from
loading until it is used; none dodges a circle (the tests above would find one)."""


def test_imports_inside_functions_only_defer_heavy_dependencies() -> None:
    found = {(i.source, i.target) for i in IMPORTS if i.in_function}
    unexpected = sorted(found - LAZY_IMPORTS.keys())
    assert not unexpected, (
        "imports inside functions: move them to the top of the module, or (for an optional "
        f"or heavy dependency only) list them in LAZY_IMPORTS with why: {unexpected}"
    )
    assert not LAZY_IMPORTS.keys() - found, "LAZY_IMPORTS lists imports that are gone"

"""The layers of docs/design.md ("How the engine is laid out"): no module imports one of a
layer above its own (lazy imports inside functions included), and every module imports alone
in a fresh interpreter."""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

PYTHON = Path(__file__).resolve().parents[2] / "python"

# Bottom to top; a module may import its own layer and those below. A module's layer is its
# folder's: each layer but the first has folders of its own (`FOLDERS`). The package root holds
# the shared base (the first layer) and the public namespaces that keep their import path
# (`curnet.coexpression`, `curnet.nx`, ...: docs/design.md, "Where the files are"), each named
# in `ROOT` with its layer; a new analysis goes in `analyses/`, a new subcommand in `cli/`.
LAYERS = ["the graph and what all share", "backends", "drivers", "above the drivers", "front doors"]
FOLDERS = {
    "curnet.backends": "backends",
    "curnet.algorithms": "drivers",
    "curnet.analyses": "above the drivers",
    "curnet.cli": "front doors", "curnet.r_bridge": "front doors", "curnet.nx": "front doors",
}
ROOT = {
    **{f"curnet.{name}": "the graph and what all share" for name in (
        "_version", "errors", "columns", "memory", "progress", "work", "sources", "options", "renamed",
        "graph", "io", "datasets", "generators", "jit", "compiled_sort")},
    # the public namespaces of analyses
    **{f"curnet.{name}": "above the drivers" for name in ("coexpression", "propagation", "distributed", "csgraph")},
    # the package's namespace, `python -m curnet`, NetworkX's backend info
    **{name: "front doors" for name in ("curnet", "curnet.__main__", "_curnet_nx")},
}


def layer_of(module: str) -> int:
    parts = module.split(".")
    for k in range(len(parts), 0, -1):
        top = ".".join(parts[:k])
        if top in FOLDERS or (top in ROOT and (k == len(parts) or top != "curnet")):
            return LAYERS.index(FOLDERS.get(top) or ROOT[top])
    raise AssertionError(f"{module} is in no layer: put it in its layer's folder (FOLDERS), or name it "
                         f"in ROOT, and in docs/design.md")


def modules() -> dict:
    """Each module of the engine, by name, and its file."""
    found = {}
    for path in sorted(PYTHON.rglob("*.py")):
        parts = list(path.relative_to(PYTHON).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: dict) -> set:
    """The engine's modules `name` imports anywhere in its file; `from pkg import x` counts as
    the module pkg.x when there is one, else as pkg itself."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                base_name = ".".join(base + ([node.module] if node.module else []))
            else:
                base_name = node.module or ""
            for alias in node.names:
                sub = f"{base_name}.{alias.name}"
                targets.add(sub if sub in known else base_name)
    return {t for t in targets if t in known}


def test_no_import_runs_up_the_layers():
    known = modules()
    upward = []
    for name, path in known.items():
        mine = layer_of(name)
        for target in imports_of(name, path, known):
            if layer_of(target) > mine:
                upward.append(f"{name} ({LAYERS[mine]}) imports {target} ({LAYERS[layer_of(target)]})")
    assert upward == []


def test_the_cuda_backend_imports_nothing_of_the_cpu_backend():
    """Inside the backends, the two backends are side by side: what both need (the host copy of
    a graph, the long-diameter routes, the bit helpers) is in shared modules of backends/
    (hostgraph, host_routes, arrays), never imported across from the other backend."""
    known = modules()
    assert {"curnet.backends.cpu.backend", "curnet.backends.cpu.bfs", "curnet.backends.hostgraph"} <= set(known)
    across = [f"{name} imports {target}" for name, path in known.items()
              if name.startswith("curnet.backends.cuda")
              for target in imports_of(name, path, known)
              if target == "curnet.backends.cpu" or target.startswith("curnet.backends.cpu.")]
    assert across == []


def test_the_scan_sees_an_upward_import(tmp_path):
    """The scan itself: a driver importing a front door, lazily, is caught."""
    fake = tmp_path / "bad.py"
    fake.write_text("def f():\n    from .. import r_bridge\n    from ..analyses.engine_info import info\n")
    known = modules()
    got = imports_of("curnet.algorithms.bad", fake, known)
    assert got == {"curnet.r_bridge", "curnet.analyses.engine_info"}
    assert all(layer_of(t) > layer_of("curnet.algorithms.bad") for t in got)


def test_no_function_hides_its_module():
    """No package exports a name that is also one of its modules (`curnet.info` the function
    hid the module curnet/info.py): `import curnet.x as m` gives the module, and a test can
    patch it by attribute."""
    known = modules()
    hidden = []
    for name, path in known.items():
        if path.name != "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                for alias in node.names:
                    exported = alias.asname or alias.name
                    if f"{name}.{exported}" in known:
                        hidden.append(f"{name}.{exported}: from .{node.module} import {alias.name}")
    assert hidden == []
    import curnet
    assert callable(curnet.proximity) and callable(curnet.info) and callable(curnet.betweenness)


# Each module is imported in a child forked from an interpreter that has imported the
# third-party libraries the engine uses but none of the engine: as fresh as a new interpreter
# for the engine's own imports, without paying NumPy's, SciPy's and Dask's import per module.
_FORK_EACH = """
import importlib, json, os, sys
for lib in ("numpy", "scipy.sparse", "scipy.sparse.csgraph", "pyarrow", "pyarrow.csv", "pandas",
            "networkx", "dask", "distributed"):
    try:
        importlib.import_module(lib)
    except ImportError:
        pass
for m in [m for m in sys.modules if m.split(".")[0] in ("curnet", "_curnet_nx")]:
    del sys.modules[m]                       # networkx reads its backends' info at import
results = {}
for name in json.loads(sys.argv[1]):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            importlib.import_module(name)
            msg = ""
        except BaseException as e:
            msg = f"{type(e).__name__}: {e}" or "failed"
        os.write(w, msg.encode())
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        results[name] = f.read()
    os.waitpid(pid, 0)
print(json.dumps(results))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks a child a module")
def test_every_module_imports_alone():
    """Each module alone, before any other of the engine: no import cycle that a given order
    would hide. The CUDA modules need CuPy: without it each says so."""
    import json
    try:
        import cupy  # noqa: F401
        has_cupy = True
    except ImportError:
        has_cupy = False
    names = sorted(modules())
    res = subprocess.run([sys.executable, "-c", _FORK_EACH, json.dumps(names)], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(PYTHON)), timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    results = json.loads(res.stdout.strip().splitlines()[-1])
    assert sorted(results) == names
    failed = []
    for name, error in results.items():
        if name.startswith("curnet.backends.cuda") and not has_cupy:
            if "CuPy" not in error:
                failed.append(f"{name}: without CuPy, {error or 'imported'}")
        elif error:
            failed.append(f"{name}: {error}")
    assert failed == []


def test_coexpression_reaches_the_devices_only_through_the_contract():
    """curnet.coexpression, WGCNA's module detection (`coexpression.modules`) included, takes
    its device, tile side and free memory from the backend contract: it imports
    `curnet.backends` (get_backend) and nothing inside it, no driver, and branches on no
    device kind."""
    import re
    known = modules()
    names = [n for n in known if n == "curnet.coexpression" or n.startswith("curnet.coexpression.")]
    assert {"curnet.coexpression.expression", "curnet.coexpression.correlations", "curnet.coexpression.edges",
            "curnet.coexpression.wgcna", "curnet.coexpression.tom", "curnet.coexpression.modules.detection",
            "curnet.coexpression.modules.dissimilarity", "curnet.coexpression.modules.membership"} <= set(names)
    reached = {t for n in names for t in imports_of(n, known[n], known)}
    assert "curnet.backends" in reached
    assert [t for t in reached if t.startswith(("curnet.backends.", "curnet.algorithms", "curnet.analyses.community_detection"))] == []
    branches = [f"{n}: {m.group(0)}" for n in names
                for m in re.finditer(r"xp is (not )?np|\.name ?[!=]= ?[\"']|hasattr\(\w+, \"free_memory\"\)",
                                     known[n].read_text())]
    assert branches == []

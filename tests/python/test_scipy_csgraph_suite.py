"""SciPy's own csgraph tests, as shipped inside the installed SciPy, run against curnet.csgraph.

The test functions of scipy/sparse/csgraph/tests/test_{shortest_path,traversal,connected_components}.py
are imported here (not copied) and every reference they hold to a function curnet.csgraph
provides (module globals, the `csgraph` module they call through, parametrize values) is
pointed at curnet.csgraph's while they run. Tests that call none of curnet's functions are
skipped; the few that cannot pass are xfailed with the reason (listed in docs/csgraph.md).
"""
from __future__ import annotations

import importlib
import inspect
import types

import pytest
import scipy.sparse.csgraph as scipy_csgraph

from curnet import csgraph as curnet_csgraph

OURS = {name: getattr(curnet_csgraph, name) for name in curnet_csgraph.__all__
        if name != "NegativeCycleError"}
THEIRS = {getattr(scipy_csgraph, name): fn for name, fn in OURS.items()}

# The csgraph module the tests call through (`csgraph.connected_components(...)`): SciPy's,
# with curnet's functions in place of SciPy's.
PATCHED_CSGRAPH = types.ModuleType("scipy.sparse.csgraph (curnet)")
PATCHED_CSGRAPH.__dict__.update(vars(scipy_csgraph))
PATCHED_CSGRAPH.__dict__.update(OURS)

MODULES = {"sp": "test_shortest_path", "trav": "test_traversal", "cc": "test_connected_components"}

# Tests that exercise none of curnet.csgraph's functions (SciPy's yen, depth_first_tree).
NOT_OURS = {
    "test_yen_directed", "test_yen_dense", "test_yen_undirected", "test_yen_unweighted",
    "test_yen_no_paths", "test_yen_negative_weights", "test_yen_source_sink_validation",
    "test_graph_depth_first", "test_graph_depth_first_trivial_graph",
}
EXPECTED_FAILURES = {
    "test_int64_indices_directed":
        "strong components are numbered by smallest vertex in cuRnet (labels [0, 1]); SciPy "
        "numbers them in its search's completion order ([1, 0]): the same partition",
}


def _repoint_marks(fn):
    """parametrize values bound at SciPy's import time (e.g. tree_func=breadth_first_tree)."""
    marks = getattr(fn, "pytestmark", [])
    new = []
    for mark in marks:
        if mark.name == "parametrize" and len(mark.args) >= 2:
            values = [THEIRS.get(v, v) if callable(v) else v for v in mark.args[1]]
            mark = pytest.mark.parametrize(mark.args[0], values, *mark.args[2:], **mark.kwargs).mark
        new.append(mark)
    return new


def _wrap(module, name, fn):
    def test(*args, **kwargs):
        return fn(*args, **kwargs)
    test.__name__ = test.__qualname__ = name
    test.__signature__ = inspect.signature(fn)
    test.__doc__ = fn.__doc__
    test.pytestmark = _repoint_marks(fn)
    if name in NOT_OURS:
        test.pytestmark.append(pytest.mark.skip(reason="calls no curnet.csgraph function"))
    if name in EXPECTED_FAILURES:
        test.pytestmark.append(pytest.mark.xfail(reason=EXPECTED_FAILURES[name], strict=True))
    return test


@pytest.fixture(autouse=True)
def _curnet_csgraph(monkeypatch):
    for module in _modules.values():
        for name, fn in OURS.items():
            if name in vars(module):
                monkeypatch.setattr(module, name, fn)
        if "csgraph" in vars(module):
            monkeypatch.setattr(module, "csgraph", PATCHED_CSGRAPH)


_modules = {prefix: importlib.import_module(f"scipy.sparse.csgraph.tests.{mod}")
            for prefix, mod in MODULES.items()}
for _prefix, _module in _modules.items():
    for _name, _fn in vars(_module).items():
        if _name.startswith("test_") and callable(_fn) and getattr(_fn, "__module__", None) == _module.__name__:
            globals()[f"test_{_prefix}_{_name[5:]}"] = _wrap(_module, _name, _fn)


def test_suite_runs_against_curnet():
    """The imported tests see curnet's functions while they run (the fixture above), not SciPy's."""
    assert _modules["sp"].dijkstra is curnet_csgraph.dijkstra
    assert _modules["trav"].breadth_first_tree is curnet_csgraph.breadth_first_tree
    assert _modules["cc"].csgraph.connected_components is curnet_csgraph.connected_components
    params = [m for m in globals()["test_trav_int64_indices"].pytestmark if m.name == "parametrize"]
    assert any(curnet_csgraph.breadth_first_tree in m.args[1] for m in params)

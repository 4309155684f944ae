"""The backend contract (backends/contract.py) against the backends, and the drivers' use of it."""
import ast
import os

import numpy as np
import pytest

from contract_names import OPTIONAL, contract_names, missing
from curnet.backends.contract import Backend, GraphArrays
from curnet.backends.cpu import CPUBackend

ALGORITHMS = os.path.join(os.path.dirname(__file__), "..", "..", "python", "curnet", "algorithms")


def test_cpu_backend_has_the_whole_contract():
    be = CPUBackend()
    assert missing(be) == []
    assert {"dijkstra", "scc_labels"} <= set(OPTIONAL)   # the CPU's methods name both
    assert hasattr(be, "dijkstra") and hasattr(be, "scc_labels")


def attributes_read(*owners: str) -> set:
    """The attributes the drivers read off the names `owners` (`be.xp`, `hg.n`, ...)."""
    used = set()
    for folder, _, files in os.walk(ALGORITHMS):          # betweenness/ and any other package too
        for fname in files:
            if fname.endswith(".py"):
                used |= _attributes_in(os.path.join(folder, fname), owners)
    return used


def _attributes_in(path: str, owners) -> set:
    with open(path) as f:
        tree = ast.parse(f.read())
    return {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in owners}


def test_drivers_call_only_the_contract():
    """Every attribute the drivers read off a backend (`be.`, `dev.`) is in the contract, and
    every field they read off a graph copy (`hg.`) is in GraphArrays. (The type checker,
    `make typecheck`, checks the same through the annotations; this holds without them.)"""
    used = attributes_read("be", "dev", "member")
    assert used and used <= set(contract_names()), sorted(used - set(contract_names()))
    fields = attributes_read("hg")
    assert fields and fields <= set(contract_names(GraphArrays)), sorted(fields - set(contract_names(GraphArrays)))


def test_what_get_backend_returns():
    from curnet.backends import get_backend
    be = get_backend("cpu")
    assert missing(be, Backend) == [] and be.members == [be]
    hg = be.device_graph(__import__("curnet").generators.path(4))
    assert missing(hg, GraphArrays) == [] and hg.n == 4
    assert contract_names(Backend) == ["describe", "device_scope", "host_result", "info", "members", "name"]
    assert set(OPTIONAL) <= set(contract_names()) and not set(OPTIONAL) & set(contract_names(Backend))


def test_a_method_without_its_primitive_is_an_error(monkeypatch):
    """A device whose sssp_method / scc_method names a primitive it lacks gets a clear error."""
    from curnet.algorithms.scc import scc
    from curnet.algorithms.sssp import solve_batch
    from curnet.generators import path

    class NoNative(CPUBackend):
        scc_labels = None                        # not the SccLabels primitive

        def sssp_method(self, hg, kb, with_pred):
            return "near_far"                    # which the CPU has not

    be = NoNative()
    g = path(5, weighted=True)
    with pytest.raises(TypeError, match="chose 'near_far' but has no such primitive"):
        solve_batch(be, be.device_graph(g), np.array([0], np.int32), False)
    from curnet import backends
    monkeypatch.setitem(backends._instances, "cpu", be)
    with pytest.raises(TypeError, match="chose 'native' but has no such primitive"):
        scc(g, backend="cpu")


def test_sssp_method_is_the_one_decision():
    from curnet.generators import path
    be = CPUBackend()
    g = path(5, weighted=True)
    assert be.sssp_method(be.device_graph(g), 3, True) == "dijkstra"
    from curnet.graph import Graph
    neg = Graph.from_edges([0, 1], [1, 2], [1.0, -1.0])
    assert be.sssp_method(be.device_graph(neg), 3, True) == "bellman_ford"
    assert be.scc_method(be.device_graph(g)) == "native"


def test_backends_delegate_explicitly():
    """No backend class forwards unknown attributes (`__getattr__`): what each offers is
    written out, so the type checker sees it (MultiCUDABackend's members, its tuning)."""
    backends = os.path.join(ALGORITHMS, "..", "backends")
    found = []
    for dirpath, _, files in os.walk(backends):
        for fname in files:
            if fname.endswith(".py"):
                with open(os.path.join(dirpath, fname)) as f:
                    tree = ast.parse(f.read())
                found += [f"{fname}:{node.name}" for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                          for item in node.body
                          if isinstance(item, ast.FunctionDef) and item.name in ("__getattr__", "__getattribute__")]
    assert found == []

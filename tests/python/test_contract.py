"""The backend contract (backends/contract.py) against the backends, and the drivers' use of it."""
import ast
import os

from curnet.backends.contract import OPTIONAL, contract_names, missing
from curnet.backends.cpu import CPUBackend

ALGORITHMS = os.path.join(os.path.dirname(__file__), "..", "..", "python", "curnet", "algorithms")


def test_cpu_backend_has_the_whole_contract():
    be = CPUBackend()
    assert missing(be) == []
    assert {"dijkstra", "scc_labels"} <= set(OPTIONAL)   # the CPU's methods name both
    assert hasattr(be, "dijkstra") and hasattr(be, "scc_labels")


def test_drivers_call_only_the_contract():
    """Every attribute the drivers read off a backend (`be.`, `dev.`) is in the contract."""
    names = set(contract_names())
    used = set()
    for fname in os.listdir(ALGORITHMS):
        if not fname.endswith(".py"):
            continue
        with open(os.path.join(ALGORITHMS, fname)) as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in ("be", "dev", "member"):
                used.add(node.attr)
    assert used and used <= names, sorted(used - names)


def test_sssp_method_is_the_one_decision():
    from curnet.generators import path
    be = CPUBackend()
    g = path(5, weighted=True)
    assert be.sssp_method(be.device_graph(g), 3, True) == "dijkstra"
    from curnet.graph import Graph
    neg = Graph.from_edges([0, 1], [1, 2], [1.0, -1.0])
    assert be.sssp_method(be.device_graph(neg), 3, True) == "bellman_ford"
    assert be.scc_method(be.device_graph(g)) == "native"

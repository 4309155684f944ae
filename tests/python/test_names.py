"""One name a concept (docs/design.md, "Names"), and one place that resolves backend 'auto'."""
from __future__ import annotations

import inspect

import pytest

import curnet
import curnet.backends as backends


def test_auto_is_resolved_once_a_process_in_one_place(monkeypatch):
    """get_backend('auto') asks for a GPU once (per CURNET_DISABLE_CUDA value), and NetworkX's
    calls go through it rather than keeping their own answer."""
    asked = []

    def cuda_available():
        asked.append(1)
        return False

    monkeypatch.delenv("CURNET_DISABLE_CUDA", raising=False)
    monkeypatch.setattr(backends, "_auto_names", {})
    monkeypatch.setattr(backends, "cuda_available", cuda_available)
    for _ in range(3):
        assert backends.get_backend("auto").name == "cpu"
    assert backends.auto_backend_name() == "cpu" and len(asked) == 1
    monkeypatch.setenv("CURNET_DISABLE_CUDA", "1")
    assert backends.get_backend("auto").name == "cpu" and len(asked) == 2
    pytest.importorskip("networkx")
    from curnet.nx import algorithms
    assert algorithms.engine_backend() == "auto"       # passed on, resolved by get_backend
    assert not hasattr(algorithms, "_AUTO")


FLOAT_WIDTH_WORDS = {"precision", "double", "single"}


def test_the_public_functions_name_float_width_dtype():
    """No public function of the namespace takes the float width under another name, except as
    a deprecated alias that defaults to None (pcsf's precision)."""
    for name in curnet.__all__:
        f = getattr(curnet, name)
        if not callable(f) or inspect.isclass(f):
            continue
        try:
            params = inspect.signature(f).parameters
        except (TypeError, ValueError):
            continue
        for word in FLOAT_WIDTH_WORDS & set(params):
            assert params[word].default is None and "dtype" in params, (name, word)


def test_the_r_bridge_takes_float_width_as_dtype():
    """R keeps its words (precision = "double"/"single") and maps them (R/graph.R's
    engine_dtype): the bridge's functions that build or run on a graph take the engine's dtype."""
    from curnet.r_bridge import graphs, pcsf
    for f in (graphs.graph_from_arrow, graphs.graph_from_table, graphs.read_graph, graphs.read_graph_warned,
              pcsf.pcsf_for_r):
        params = inspect.signature(f).parameters
        assert "dtype" in params and not FLOAT_WIDTH_WORDS & set(params), f.__name__

"""Every warning cuRnet gives points at the user's line (`errors.warn`: the first caller outside
the package), whatever route the engine took: a propagation's max_iter on the step route and on
the CPU's compiled route, a deprecated argument, a gene of undefined correlations, dummies
outside the network, a file's header and weight column."""
import warnings
from unittest import mock

import numpy as np
import pytest

import curnet
from curnet import io
from curnet.analyses.steiner_forest import pcsf, pcsf_rand
from curnet.analyses.steiner_forest.inputs import PCSFWarning
from curnet.coexpression import CoexpressionWarning, cor
from curnet.propagation import ConvergenceWarning

CPU = {"backend": "cpu"}


def said_here(category, call):
    """The warnings of `category` that call() gives, each checked to name this file."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    said = [w for w in caught if issubclass(w.category, category)]
    assert said, f"no {category.__name__}"
    for w in said:
        assert w.filename == __file__, (w.filename, w.lineno, str(w.message))
    return said


def path_graph(n=200):
    return curnet.Graph.from_edges(np.arange(n - 1), np.arange(1, n), directed=False)


def test_max_iter_points_at_the_caller_on_every_route():
    g = path_graph()
    said_here(ConvergenceWarning, lambda: curnet.pagerank(g, max_iter=2, **CPU))
    said_here(ConvergenceWarning, lambda: curnet.rwr(g, [0], max_iter=2, **CPU))
    said_here(ConvergenceWarning, lambda: curnet.diffuse(g, np.r_[1.0, np.zeros(199)], max_iter=2, **CPU))


def test_max_iter_points_at_the_caller_on_the_compiled_route():
    pytest.importorskip("numba")
    from curnet.backends.cpu import compiled_propagation as compiled
    from curnet.backends.cpu import propagation as cpu_propagation
    g = path_graph()
    block = np.eye(200)[:, :20]
    with mock.patch.object(cpu_propagation, "COMPILED_MIN_WORK", 0), \
            mock.patch.object(compiled, "walk_chunk", wraps=compiled.walk_chunk) as walk, \
            mock.patch.object(compiled, "laplacian_cg_chunk", wraps=compiled.laplacian_cg_chunk) as cg:
        said = said_here(ConvergenceWarning, lambda: curnet.pagerank(g, block, max_iter=2, **CPU))
        assert "20 column" in str(said[0].message)
        said_here(ConvergenceWarning, lambda: curnet.diffuse(g, block, max_iter=2, **CPU))
    assert walk.called and cg.called


def test_data_and_argument_warnings_point_at_the_caller(tmp_path):
    x = np.random.default_rng(1).normal(size=(8, 10))
    x[4] = 3.0
    said_here(CoexpressionWarning, lambda: cor(x, **CPU))
    names = np.array([f"v{i}" for i in range(6)])
    g = curnet.Graph.from_edges(names[:5], names[1:], np.ones(5), directed=False, names=names)
    prizes = {"v0": 2.0, "v3": 2.0, "v5": 1.0}
    said_here(PCSFWarning, lambda: pcsf(g, prizes, dummies=["v0", "zz"], **CPU))
    said_here(DeprecationWarning, lambda: pcsf_rand(g, prizes, n=2, seed=1, **CPU))
    header = tmp_path / "genes.tsv"
    header.write_text("gene1\tgene2\nTP53\tMDM2\nMDM2\tATM\n")
    said_here(UserWarning, lambda: io.read_graph(header))
    scored = tmp_path / "reg.csv"
    scored.write_text("tf,target,evidence\nA,B,1\nB,C,3\n")
    said_here(io.WeightColumnNote, lambda: io.read_graph(scored))

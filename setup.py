"""Installs the cuRnet engine, the Python package `curnet`, from python/."""
import re
from pathlib import Path

from setuptools import find_packages, setup

version = re.search(r'__version__ = "([^"]+)"',
                    Path("python/curnet/_version.py").read_text()).group(1)

setup(
    name="curnet",
    version=version,
    description="GPU and CPU graph analytics (BFS, shortest paths, SCC) for biological networks",
    long_description=Path("README.md").read_text() if Path("README.md").exists() else "",
    long_description_content_type="text/markdown",
    license="GPL-3.0-or-later",
    package_dir={"": "python"},
    packages=find_packages("python"),
    package_data={"curnet": ["backends/kernels/*.cu", "backends/kernels/*.cuh"]},
    python_requires=">=3.11",
    # pandas: datasets builds its cache (curnet demo, datasets.load) with it
    install_requires=["numpy>=1.26", "scipy>=1.11", "pyarrow>=14", "pandas>=1.5"],
    extras_require={
        # CuPy's wheel must match the CUDA driver: [gpu] and [gpu-cuda12] for CUDA 12, [gpu-cuda13] for 13
        "gpu": ["cupy-cuda12x>=13"],
        "gpu-cuda12": ["cupy-cuda12x>=13"],
        "gpu-cuda13": ["cupy-cuda13x>=13"],
        # many-source jobs on a Dask cluster (curnet.distributed); dask-cuda for one worker per GPU
        "dask": ["dask>=2024.1", "distributed>=2024.1"],
        "dask-cuda": ["dask>=2024.1", "distributed>=2024.1", "dask-cuda>=24.2"],
        "networkx": ["networkx>=3.4,<3.7"],
        "test": ["pytest", "hypothesis", "networkx", "python-igraph", "pandas", "polars"],
    },
    entry_points={
        "console_scripts": ["curnet=curnet.cli:main"],
        # NetworkX's backend dispatch: nx.<function>(G, backend="curnet")
        "networkx.backends": ["curnet = curnet.nx:backend"],
        "networkx.backend_info": ["curnet = _curnet_nx:get_info"],
    },
)

#!/usr/bin/env bash
# Declares the engine's NetworkX backend (setup.py's entry points) in a dist-info folder inside
# python/, for a machine where the engine cannot be pip-installed (no setuptools, no registry):
# with python/ on PYTHONPATH, nx.<function>(G, backend="curnet") then finds it.
set -eu
cd "$(dirname "$0")/.."
version=$(sed -n 's/^__version__ = "\([^"]*\)".*/\1/p' python/curnet/_version.py)
info=python/curnet-$version.dist-info
mkdir -p "$info"
printf 'Metadata-Version: 2.1\nName: curnet\nVersion: %s\n' "$version" >"$info/METADATA"
printf '[networkx.backends]\ncurnet = curnet.nx:backend\n\n[networkx.backend_info]\ncurnet = _curnet_nx:get_info\n' \
  >"$info/entry_points.txt"
echo "NetworkX backend declared in $info"

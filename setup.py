"""The engine's build entry point: the metadata is in pyproject.toml (PEP 621). The R
package ships this file beside python/ and pyproject.toml (inst/python), and
cuRnet_install() builds the engine from there."""
from setuptools import setup

setup()

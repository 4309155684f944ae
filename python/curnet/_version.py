"""The engine's version, in a module of its own: setup.py and the R package's tests read it
here, and any module may import it without importing the package."""
__version__ = "2.0.0"  # the R package's version (DESCRIPTION): they ship together

"""The CPU backend (NumPy and SciPy)."""
from .backend import CPUBackend, HostGraph, words_for

__all__ = ["CPUBackend", "HostGraph", "words_for"]

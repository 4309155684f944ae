"""Which of the CPU backend's routes a call takes: a compiled module (backends/cpu/compiled_*.py,
Numba) where the call's work reaches the route's threshold and Numba imports, else the
NumPy/SciPy route. The module is imported here, at the first call that takes it, so Numba's
import (~0.5 s, once a process) is paid by the calls it speeds up, not by `import curnet`."""
from __future__ import annotations

import importlib
from types import ModuleType


def compiled_module(name: str, work: int = 0, threshold: int = 0) -> ModuleType | None:
    """backends/cpu/`name` where `work` >= `threshold` and Numba imports, else None. Callers
    pass their module's threshold at the call, so a test or the warm-up may lower it."""
    if work < threshold:
        return None
    module = importlib.import_module(f"{__package__}.{name}")
    return module if module.available() else None

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "python"))

try:  # a GPU machine may lack hypothesis; the gpu suite does not need it
    from hypothesis import settings
except ImportError:
    settings = None
else:
    # CI runs many random graphs per property; locally a quicker profile is fine.
    settings.register_profile("ci", max_examples=150, deadline=None, derandomize=True)
    settings.register_profile("dev", max_examples=40, deadline=None)
    settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def _cuda_usable() -> bool:
    try:
        from curnet.backends import cuda_available
        return cuda_available()
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if _cuda_usable():
        return
    skip = pytest.mark.skip(reason="no CUDA GPU / CuPy on this machine")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)

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
    # a longer hunt, random seeds (HYPOTHESIS_PROFILE=deep), before a release or after a
    # change to a compiled route
    settings.register_profile("deep", max_examples=1000, deadline=None)
    settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


_LD_LIBRARY_PATH = os.environ.get("LD_LIBRARY_PATH")


def pytest_collection_finish(session):
    """rpy2, imported while collecting test_r_api.py, puts R's library folders first on
    LD_LIBRARY_PATH; a Python subprocess started after that loads Debian's libpython under
    this venv's standard library and breaks (multiprocessing fails on a missing RLock method).
    Subprocesses get the environment the run started with."""
    if _LD_LIBRARY_PATH is None:
        os.environ.pop("LD_LIBRARY_PATH", None)
    else:
        os.environ["LD_LIBRARY_PATH"] = _LD_LIBRARY_PATH


_exit_status = 0


def pytest_sessionfinish(session, exitstatus):
    global _exit_status
    _exit_status = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """With R embedded (rpy2: test_r_api.py's own process), the process leaves without the
    interpreter's teardown, which runs reticulate 1.28's finalizers without the GIL and now and
    then crashed the process after every test had passed (a segmentation fault once in CI,
    2026-12-04). The summary is written by then; the run's status is the process's."""
    if "rpy2.rinterface" in sys.modules:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            stream.flush()
        os._exit(_exit_status)


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

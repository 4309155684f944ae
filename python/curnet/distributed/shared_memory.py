"""Results in shared memory: a (k, n) matrix the workers on the caller's host write their rows
into, so the rows never go through a socket.

SHARED_DIR and available_host_memory are read from the package (`curnet.distributed`) at each
use, so that setting them there (`curnet.distributed.SHARED_DIR = ...`, as a test does) takes
effect."""
from __future__ import annotations

import mmap
import os
import sys
import uuid

import numpy as np


SHARED_DIR = os.environ.get("CURNET_SHARED_DIR", "/dev/shm")   # a tmpfs the workers of this host see


def _package():
    return sys.modules[__package__]


def shared_dir() -> str:
    """The folder of shared-memory results: the package's SHARED_DIR."""
    return _package().SHARED_DIR


class SharedMatrix:
    """A (k, n) Fortran-ordered result in shared memory that workers on the caller's host map
    and write their rows into, so the rows never go through a socket. It is a file in
    SHARED_DIR when that has room, else an anonymous memory file (Linux memfd) that the
    workers open through /proc/<caller>/fd/: a container's /dev/shm is often 64 MiB, far
    short of a large result, while the memory itself is there."""

    def __init__(self, shape, dtype, place: str):
        self.shape, self.dtype = tuple(int(x) for x in shape), np.dtype(dtype)
        nbytes = max(1, int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize)
        self.fd = None
        if place == "memfd":
            self.fd = os.memfd_create("curnet-result")
            os.ftruncate(self.fd, nbytes)
            self.path = f"/proc/{os.getpid()}/fd/{self.fd}"
        else:
            self.path = os.path.join(shared_dir(), f"curnet-{uuid.uuid4().hex}.bin")
            with open(self.path, "wb") as f:
                f.truncate(nbytes)
        self.array = self.open(self.spec())

    def spec(self):
        return self.path, self.dtype.str, self.shape

    @staticmethod
    def open(spec) -> np.ndarray:
        """The whole matrix, mapped (shared) into this process."""
        path, dtype, shape = spec
        with open(path, "r+b") as f:
            mapping = mmap.mmap(f.fileno(), 0)
        return np.ndarray(tuple(shape), dtype=np.dtype(dtype), buffer=mapping, order="F")

    def unlink(self):
        """Remove the file (close the memory file); the caller's mapping (self.array) stays valid."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None
            return
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass

    @staticmethod
    def where(nbytes: int) -> str | None:
        """Where `nbytes` of results fit: "dir" (SHARED_DIR), "memfd", or None."""
        try:
            st = os.statvfs(shared_dir())
            if st.f_bavail * st.f_frsize >= nbytes:
                return "dir"
        except OSError:
            pass
        if hasattr(os, "memfd_create") and _package().available_host_memory() >= nbytes:
            return "memfd"
        return None


def sees_file(path, inode, dask_worker=None) -> bool:
    try:
        return os.stat(path).st_ino == inode
    except OSError:
        return False

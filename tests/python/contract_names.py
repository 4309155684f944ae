"""The names in the backend contract (backends/contract.py), for the tests that hold a
backend or a graph copy against it."""
from curnet.backends.contract import Device, Dijkstra, NearFar, SccLabels

# Primitives a device has only where its sssp_method / scc_method can name them.
OPTIONAL_PROTOCOLS = (Dijkstra, NearFar, SccLabels)


def protocol_names(protocol: type) -> set:
    """The attributes and methods a protocol of contract.py declares (its bases' included)."""
    names: set = set()
    for cls in protocol.__mro__:
        if cls.__module__ == Device.__module__:
            names |= set(cls.__dict__.get("__annotations__", {}))
            names |= {k for k in vars(cls) if not k.startswith("_")}
    return names


OPTIONAL = tuple(sorted(set().union(*(protocol_names(p) for p in OPTIONAL_PROTOCOLS))))


def contract_names(protocol: type | None = None) -> list:
    """A protocol's names; by default everything a driver may call on a device (Device and
    the optional primitives)."""
    if protocol is None:
        return sorted(protocol_names(Device) | set(OPTIONAL))
    return sorted(protocol_names(protocol))


def missing(obj, protocol: type | None = None) -> list:
    """The protocol's members `obj` lacks, the optional primitives aside."""
    return [n for n in contract_names(protocol) if n not in OPTIONAL and not hasattr(obj, n)]

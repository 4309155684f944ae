"""Communities by Leiden and Louvain (`curnet.leiden`, `curnet.louvain`), one partition or a
sweep of resolutions and seeds with its consensus (docs/communities.md)."""
from .partitions import leiden, louvain
from .runs import Partition, modularity
from .sweeps import PartitionSweep

__all__ = ["Partition", "PartitionSweep", "leiden", "louvain", "modularity"]

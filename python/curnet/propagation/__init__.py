"""Network propagation: PageRank and the random walk with restart, diffuStats' diffusion scores,
dense graph kernels and degree-matched permutation nulls, for one vector or thousands at once
(one sparse x dense product a step: SciPy on the CPU, cuSPARSE on a GPU). docs/propagation.md."""
from .kernels import KERNELS, diffusion_kernel
from .nulls import PropagationNull, propagation_null
from .scores import METHODS, diffuse
from .solvers import ConvergenceWarning
from .walks import pagerank, rwr

__all__ = ["pagerank", "rwr", "diffuse", "diffusion_kernel", "propagation_null", "PropagationNull",
           "ConvergenceWarning", "KERNELS", "METHODS"]

"""The names the R adapters once imported from here, now in `curnet.r_bridge` (the hand-off
in `r_bridge.handoff`, the session in `r_bridge.session`, each domain's adapter in a module
of its own). Kept while adapters and scripts still import them from here."""
from __future__ import annotations

from .r_bridge.coexpression import expression_from_r
from .r_bridge.handoff import R_NA_INTEGER, check_result_fits, import_arrow, plain, r_array
from .r_bridge.session import run_on as _backend, use_cluster  # noqa: F401  (_backend: the older adapters)

__all__ = ["R_NA_INTEGER", "check_result_fits", "expression_from_r", "import_arrow", "plain",
           "r_array", "use_cluster"]

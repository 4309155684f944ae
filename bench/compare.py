"""Two runs of the GPU check (`python -m bench gpu-check --json`), side by side.

    python -m bench gpu-compare BEFORE.json AFTER.json [--tolerance 0.05] [--layers engine]
"""
from __future__ import annotations

import argparse
import json
import sys


def rows_of(path: str) -> dict:
    with open(path) as f:
        doc = json.load(f)
    return {(r["row"], r["layer"]): r for r in doc["rows"]}


def main(argv=None) -> int:
    """Two runs of the GPU check (a reference tree and this one) row by row. A row is "ok" when
    AFTER's median is at most (1 + tolerance) x BEFORE's (faster always passes), "slower"
    otherwise. Both runs should come from one machine in one call (scripts/gpu-check.sh
    --compare REF does that): medians from different machines or moments are not comparable.
    Exit status 1 when a compared row is slower."""
    ap = argparse.ArgumentParser(prog="python -m bench gpu-compare", description=main.__doc__)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--layers", default="engine",
                    help="comma-separated layer prefixes to compare (default: engine)")
    args = ap.parse_args(argv)
    before, after = rows_of(args.before), rows_of(args.after)
    layers = tuple(args.layers.split(","))
    slower = 0
    print(f"{'row':34s} {'layer':18s} {'before ms':>10s} {'after ms':>10s} {'after/before':>12s}  verdict")
    for key, b in before.items():
        if not key[1].startswith(layers):
            continue
        a = after.get(key)
        if a is None:
            print(f"{key[0]:34s} {key[1]:18s} {b['median_ms']:10.3f} {'-':>10s} {'-':>12s}  missing after")
            slower += 1
            continue
        ratio = a["median_ms"] / b["median_ms"]
        verdict = "ok" if ratio <= 1 + args.tolerance else "slower"
        slower += verdict == "slower"
        print(f"{key[0]:34s} {key[1]:18s} {b['median_ms']:10.3f} {a['median_ms']:10.3f} {ratio:12.3f}  {verdict}")
    print(f"compared rows slower than {1 + args.tolerance:.2f} x before: {slower}")
    return 1 if slower else 0


if __name__ == "__main__":
    sys.exit(main())

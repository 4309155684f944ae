#!/usr/bin/env bash
# A/B of git branches on the GPU machine in one device call, with bench/nearfar_ab.py.
#
# Here (the checkout), once: each branch's python/, bench/ and tests/ into .ab-trees/NAME
# (.ab-trees must be in .git/info/exclude: it travels as a carried path, not as the tree):
#   bash bench/ab_trees.sh prepare main:m0 my-branch:b1
# In the device call, with carry [".ab-trees"] (and ".leiden-data" for SCC's mouse-liver row):
#   bash bench/ab_trees.sh run --only=sssp,batches m0 b1 b1 m0
# Each tree runs in the order given (alternate them: the machine drifts within a call), one
# line of medians a run printed as it ends, the JSON and logs packed into $OUT/ab.tgz after
# every run, so a call cut short keeps what it finished. NAME@T1@T2 times tree NAME under the
# tunings T1, T2 in one run (nearfar_ab.py's tuning arguments: `-` the defaults, `a=1,b=2`):
#   bash bench/ab_trees.sh run --only=sssp,batches m0@-@nf_loop_max_arcs=0 b1
# R-MAT 22 is built once for the call
# (NEARFAR_CACHE; ~70-85 s on the H200 host): put that in the call's time limit.
#   bash bench/ab_trees.sh test NAME -k near_far     (a tree's GPU tests, into the pack too)
set -u
case "${1:-}" in
prepare)
    shift
    for spec in "$@"; do
        branch=${spec%%:*} name=${spec##*:}
        rm -rf ".ab-trees/$name" && mkdir -p ".ab-trees/$name"
        git archive "$branch" python bench tests | tar -x -C ".ab-trees/$name"
        echo "$name: $branch $(git rev-parse --short "$branch")"
    done
    du -sh .ab-trees ;;
run)
    shift
    only=$1; shift
    work=/tmp/ab; mkdir -p "$work" "${NEARFAR_CACHE:=/tmp/nfc}"; export NEARFAR_CACHE
    export CURNET_DATA=${CURNET_DATA:-$PWD/.leiden-data/data}
    i=0
    for spec in "$@"; do
        name=${spec%%@*}
        IFS=@ read -r -a tunings <<< "${spec#"$name"}"
        tunings=("${tunings[@]:1}")
        i=$((i + 1)); start=$(date +%s)
        PYTHONPATH= timeout 300 python3 bench/nearfar_ab.py ".ab-trees/$name" "$work/ab_$name$i.json" "$only" \
            "${tunings[@]}" > "$work/ab_$name$i.log" 2>&1 || tail -n 5 "$work/ab_$name$i.log"
        python3 - "$work/ab_$name$i.json" "$name$i" "$(( $(date +%s) - start ))" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
short = ("kernel levels ms", "host ms", "route ms", "driver ms")
for tuning, got in doc.items():
    if not isinstance(got, dict):
        continue
    rows = {k: v.get("median ms", {a: b for a, b in v.items() if a in short} or v) if isinstance(v, dict) else v
            for k, v in got.items()}
    print(f"{sys.argv[2]} {tuning} ({sys.argv[3]} s):", json.dumps(rows), flush=True)
EOF
        tar czf "$OUT/ab.tgz" -C /tmp ab
    done ;;
test)
    shift
    name=$1; shift
    mkdir -p /tmp/ab
    (cd ".ab-trees/$name" && PYTHONPATH=$PWD/python timeout 240 python3 -m pytest tests/python/test_gpu.py \
        tests/python/test_paths.py -m gpu -q -p no:cacheprovider "$@" > "/tmp/ab/tests_$name.log" 2>&1)
    echo "tests $name: $(tail -n 1 "/tmp/ab/tests_$name.log")"
    grep -E "^(FAILED|ERROR)" "/tmp/ab/tests_$name.log" | head -n 5
    tar czf "$OUT/ab.tgz" -C /tmp ab ;;
*)
    sed -n '2,15p' "$0"; exit 2 ;;
esac

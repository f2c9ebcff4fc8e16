#!/usr/bin/env bash
# Runs one fuzz target under libFuzzer (cargo-fuzz) for SECONDS (default 1200: 20 minutes),
# seeded from examples/fuzz_seeds.rs (Groundwork's own files, the fixtures, Warzone 2100's
# data) and its own corpus; `all` runs every target in turn. A crash, a hang (one input over
# 10 s) or memory over 1 GiB (resident, or one allocation) is saved under
# fuzz/artifacts/<target>/; copy it into fuzz/regressions/<target>/ once fixed, so
# tests/fuzz_regressions.rs keeps it in CI. Prints executions, coverage and findings.
#   fuzz/run.sh TARGET [SECONDS]
#   fuzz/run.sh all [SECONDS]
# SKIP_BUILD=1 reuses the last build and seeds. Exits 1 when any target left a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    echo "usage: fuzz/run.sh TARGET|all [SECONDS]" >&2
    exit 2
fi
target="$1"
seconds="${2:-1200}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
[ -n "${SKIP_BUILD:-}" ] || cargo run -q --example fuzz_seeds -- fuzz/corpus
# cargo-fuzz passes -Z flags; a stable compiler takes them with this (set for the fuzz crate's
# own build folder only, so the project's is not rebuilt)
export RUSTC_BOOTSTRAP=1
cd fuzz
mapfile -t known < <(cargo fuzz list)
if [ "$target" = all ]; then
    targets=("${known[@]}")
elif printf '%s\n' "${known[@]}" | grep -qx "$target"; then
    targets=("$target")
else
    echo "no fuzz target $target; the targets: ${known[*]}" >&2
    exit 2
fi
[ -n "${SKIP_BUILD:-}" ] || cargo fuzz build -s none --release --debug-assertions >/dev/null
bin="target/$(rustc -vV | sed -n 's/^host: //p')/release"
summary=()
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="artifacts/$t/run.log"
    set +e
    "$bin/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" -max_total_time="$seconds" \
        -rss_limit_mb=1024 -malloc_limit_mb=1024 -timeout=10 -print_final_stats=1 >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    found=$(find "artifacts/$t" -type f ! -name run.log | wc -l)
    line="$t: ${seconds} s, ${execs} executions, coverage ${cov} edges, ${ft} features, exit ${rc}, ${found} findings"
    if [ "$found" -gt 0 ] || [ "$rc" -ne 0 ]; then
        status=1
        line="$line: $(find "artifacts/$t" -type f ! -name run.log -printf '%f ' | head -c 300)"
    fi
    echo "$line"
    summary+=("$line")
done
echo
printf '%s\n' "${summary[@]}"
exit $status

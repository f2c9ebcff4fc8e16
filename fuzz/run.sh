#!/usr/bin/env bash
# Runs every fuzz target for a fixed time (default 120 s each, `fuzz/run.sh 600` for ten
# minutes), seeded from the fixtures, and prints executions and findings per target. A crash,
# hang (over 10 s) or allocation over 2 GiB is saved under fuzz/artifacts/<target>/; copy it
# into fuzz/regressions/<target>/ once fixed, so tests/fuzz_regressions.rs keeps it in CI.
#   fuzz/run.sh [SECONDS] [TARGET ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-120}"
shift || true
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
[ -n "${SKIP_BUILD:-}" ] || cargo run -q --example fuzz_seeds -- fuzz/corpus
# cargo-fuzz passes -Z flags; the stable compiler takes them with this (set only for the fuzz
# crate's own build folder, so the project's is not rebuilt)
export RUSTC_BOOTSTRAP=1
targets=("$@")
cd fuzz
if [ ${#targets[@]} -eq 0 ]; then mapfile -t targets < <(cargo fuzz list); fi
[ -n "${SKIP_BUILD:-}" ] || cargo fuzz build -s none --release --debug-assertions >/dev/null
bin="target/$(rustc -vV | sed -n 's/^host: //p')/release"
summary=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    log="artifacts/$t/run.log"
    set +e
    "$bin/$t" "corpus/$t" -artifact_prefix="artifacts/$t/" -max_total_time="$seconds" \
        -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 -print_final_stats=1 >"$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo "?")
    found=$(find "artifacts/$t" -type f ! -name run.log | wc -l)
    line="$t: ${seconds} s, ${execs} executions, coverage ${cov}, exit ${rc}, ${found} findings"
    echo "$line"
    summary+=("$line")
done
echo
printf '%s\n' "${summary[@]}"

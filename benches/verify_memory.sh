#!/usr/bin/env bash
# The verifier's peak memory on honest proof files, as `flockwork verify` runs them: SHA-256
# chains of 2^10, 2^14 and 2^18 compressions over each commitment, and Poseidon2b GKR
# (ragged, inputs committed with FRI) at the published widths' total count. Prints a
# Markdown table: the file, its size, the verify time, the peak resident set (GNU time's
# "Maximum resident set size") and that peak above the process baseline (the peak of
# `flockwork verify` on a file it refuses at once).
#
# Usage: benches/verify_memory.sh [BINARY] [LOG_SIZES]
#   BINARY     the flockwork binary (default: target/release/flockwork)
#   LOG_SIZES  comma-separated log2 counts (default: 10,14,18; 2^18 needs ~15 GiB to prove)
set -euo pipefail
bin=${1:-target/release/flockwork}
sizes=${2:-10,14,18}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

peak_kib() { /usr/bin/time -f '%M %e' "$@" 2>&1 >/dev/null | tail -1; }

printf 'FWPF' >"$dir/refused.bin"
read -r base _ < <(peak_kib "$bin" verify "$dir/refused.bin" || true)
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); baseline ${base} KiB"
echo
echo '| proof | file | verify (s) | peak RSS (MiB) | above baseline (MiB) |'
echo '|---|---:|---:|---:|---:|'
row() {
    local name=$1 file=$2
    read -r peak secs < <(peak_kib "$bin" verify "$file")
    awk -v n="$name" -v kib="$(( $(stat -c %s "$file") / 1024 ))" -v s="$secs" -v p="$peak" \
        -v b="$base" 'BEGIN { printf "| %s | %s KiB | %s | %.1f | %.1f |\n", n, kib, s, p / 1024, (p - b) / 1024 }'
}
for log in ${sizes//,/ }; do
    for pcs in ligerito fri blaze; do
        f="$dir/sha256-$log-$pcs.bin"
        "$bin" prove --hash sha256 --log-instances "$log" --pcs "$pcs" --out "$f" >/dev/null
        row "SHA-256 chain, 2^$log, $pcs" "$f"
        rm -f "$f"
    done
done
# The published widths 14,15,17,16,12,15,16,12,13 hold 360,448 permutations; `prove --count`
# lays them out in its binary decomposition (2^18 + 2^16 + 2^15 + 2^12).
f="$dir/poseidon2b.bin"
"$bin" prove --hash poseidon2b --count 360448 --pcs fri --out "$f" >/dev/null
row "Poseidon2b GKR, 360,448 (inputs committed, FRI; outputs stated)" "$f"
"$bin" prove --hash poseidon2b --count 360448 --out "$f" >/dev/null
row "Poseidon2b GKR, 360,448 (inputs and outputs stated)" "$f"

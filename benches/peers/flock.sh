#!/usr/bin/env bash
# flockwork against the reference Flock prover (succinctlabs/flock), measured the way the
# reference measures itself: best of 3 runs after a warm-up, witness generation included.
# Run with --help for the usage.

set -euo pipefail

usage() {
	cat <<'EOF'
usage: benches/peers/flock.sh REFERENCE_CHECKOUT [THREADS] [LOG2S]

Proves batches of SHA-256, BLAKE3 and Keccak-f[1600] compressions with the reference Flock
prover and with flockwork on this machine, and prints one Markdown table side by side.

  REFERENCE_CHECKOUT  a checkout of the reference prover (github.com/succinctlabs/flock) that
                      you provide; the script never downloads it and copies none of its code.
                      It is built in place with its own .cargo/config.toml
                      (-C target-cpu=native), into its own target/ or $REF_TARGET_DIR.
  THREADS             thread counts, a list (default "1 2")
  LOG2S               log2 batch sizes, a list (default "12 14"); the reference's bench
                      needs each to be at least 8

What runs, per thread count T:
  reference  RAYON_NUM_THREADS=T HASH_BENCH_LOG2S="LOG2S" HASH_BENCH_RUNS=3 \
               cargo bench --bench hash_throughput
             (best of 3 after a warm-up, both witness layouts; the table takes the better
             layout per hash and batch), and
             RAYON_NUM_THREADS=T KECCAK3_KS="…" cargo bench --bench keccak3_proof
             (its 3-wide Keccak encoder, best of 3 after a warm-up). keccak3_proof proves
             3·2^(L-1) permutations for a batch of 2^L, as the reference's own
             benchmarks/bench_keccak.sh does. A Keccak row compares against the
             reference's best Keccak rate of the two benches (keccak3_proof's, where it
             ran and is the faster) and names which bench, layout or count it is.
             REF_KECCAK3=0 skips keccak3_proof.
  flockwork  target/release/flockwork --threads T prove --hash H --log-instances L \
               --reps 3 --json
             (a warm-up, then best of 3; each run generates the witness, proves and
             verifies), built with cargo build --release --bin flockwork in the project
             root (CARGO_TARGET_DIR is honoured for it, and only for it).

Columns: flockwork per s and the reference per s are proved compressions (permutations)
per second of the best run; the ratio is flockwork / reference; peak MiB (the process's
peak resident memory over its warm-up and 3 runs), verify ms (the least of the runs) and
proof KiB are flockwork's.

The ratio only counts on a CPU with AVX-512F, VPCLMULQDQ and GFNI: the reference selects
its x86 kernels at compile time (target-cpu=native) and runs portable loops otherwise. The
script prints the CPU model and whether those three flags are present, and warns if not.

On rustc 1.95 the reference needs one local edit: x.isolate_lowest_one() is unstable
there, and x & x.wrapping_neg() is the same value (four call sites, in
crates/flock-core/src/zerocheck/multilinear.rs, crates/flock-core/src/ntt/inv_table.rs,
crates/flock-core/src/ntt/inv_table_deg4.rs and crates/flock-prover/src/chain.rs).

Environment: REF_TARGET_DIR (the reference's target directory), REF_KECCAK3=0 (skip
keccak3_proof). RUSTFLAGS is cleared for the reference's build so that its own
.cargo/config.toml applies.
EOF
}

case "${1:-}" in
-h | --help)
	usage
	exit 0
	;;
"")
	usage >&2
	exit 2
	;;
esac
(($# <= 3)) || {
	echo "error: at most three arguments (see --help)" >&2
	exit 2
}

[[ -d "$1" ]] || {
	echo "error: no such folder: $1 (the reference checkout; see --help)" >&2
	exit 2
}
REF="$(cd "$1" && pwd)"
THREADS="${2:-1 2}"
LOG2S="${3:-12 14}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
REF_TARGET_DIR="${REF_TARGET_DIR:-$REF/target}"
REF_KECCAK3="${REF_KECCAK3:-1}"

for t in $THREADS; do
	[[ "$t" =~ ^[1-9][0-9]*$ ]] || {
		echo "error: THREADS must be positive integers, got '$t'" >&2
		exit 2
	}
done
for l in $LOG2S; do
	[[ "$l" =~ ^[1-9][0-9]*$ ]] && ((l >= 8 && l <= 24)) || {
		echo "error: LOG2S must be integers from 8 (the reference's minimum) to 24, got '$l'" >&2
		exit 2
	}
done
[[ -n "${THREADS// /}" && -n "${LOG2S// /}" ]] || {
	echo "error: empty THREADS or LOG2S" >&2
	exit 2
}
for f in Cargo.toml crates/flock-prover/benches/hash_throughput.rs \
	crates/flock-prover/benches/keccak3_proof.rs; do
	[[ -f "$REF/$f" ]] || {
		echo "error: $REF does not look like a checkout of the reference Flock prover (no $f)" >&2
		exit 2
	}
done
command -v python3 >/dev/null || {
	echo "error: python3 is needed to read the results" >&2
	exit 2
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# ---- the CPU --------------------------------------------------------------------------
cpu="$(grep -m1 "model name" /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//' || true)"
cpu="${cpu:-unknown}"
# A virtual machine may report a bare "AMD EPYC": the family and model name the generation.
family="$(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/^[^:]*:[[:space:]]*//' || true)"
model="$(grep -m1 '^model[[:space:]]' /proc/cpuinfo | sed 's/^[^:]*:[[:space:]]*//' || true)"
if [[ -n "$family" && -n "$model" ]]; then
	cpu="$cpu (family $family, model $model)"
fi
flags=" $(grep -m1 '^flags' /proc/cpuinfo | sed 's/^flags[[:space:]]*:[[:space:]]*//' || true) "
present=""
missing=""
for flag in avx512f vpclmulqdq gfni; do
	if [[ "$flags" == *" $flag "* ]]; then
		present="${present:+$present }$flag"
	else
		missing="${missing:+$missing }$flag"
	fi
done
echo "CPU: $cpu" >&2
echo "AVX-512F, VPCLMULQDQ, GFNI: present [${present:-none}], missing [${missing:-none}]" >&2
if [[ -n "$missing" ]]; then
	cat >&2 <<EOF

!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!! WARNING: this CPU lacks $missing.
!! The reference selects its x86 kernels at compile time and runs portable loops here:
!! its figures, and so the ratio, do not count on this machine.
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

EOF
fi

ref_commit="$(git -C "$REF" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git -C "$REF" status --porcelain --untracked-files=no 2>/dev/null || true)" ]]; then
	ref_commit="$ref_commit + local edits"
fi

# ---- builds -----------------------------------------------------------------------------
ref_cargo() {
	(cd "$REF" && env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS \
		CARGO_TARGET_DIR="$REF_TARGET_DIR" cargo "$@")
}

echo "== building the reference ($REF, $ref_commit) ==" >&2
start=$SECONDS
if ! ref_cargo bench -p flock-prover --bench hash_throughput --bench keccak3_proof --no-run; then
	if grep -rqs 'isolate_lowest_one()' "$REF/crates"; then
		echo "error: the reference did not build; on rustc 1.95 it needs the local edit" \
			"x.isolate_lowest_one() -> x & x.wrapping_neg() (see --help)" >&2
	else
		echo "error: the reference did not build" >&2
	fi
	exit 1
fi
ref_build=$((SECONDS - start))
echo "reference build: ${ref_build} s" >&2

echo "== building flockwork ($ROOT) ==" >&2
(cd "$ROOT" && cargo build --release --bin flockwork)
bin="${CARGO_TARGET_DIR:-$ROOT/target}/release/flockwork"
[[ "$bin" == /* ]] || bin="$ROOT/$bin"

# ---- the reference ----------------------------------------------------------------------
for t in $THREADS; do
	echo "== reference hash_throughput, $t thread(s), batches 2^[$LOG2S] ==" >&2
	RAYON_NUM_THREADS="$t" HASH_BENCH_LOG2S="$LOG2S" HASH_BENCH_RUNS=3 \
		ref_cargo bench -p flock-prover --bench hash_throughput >"$work/throughput-$t.out" 2> >(tee "$work/throughput-$t.err" >&2)
	if [[ "$REF_KECCAK3" != 0 ]]; then
		ks=""
		for l in $LOG2S; do ks="${ks:+$ks }$((3 << (l - 1)))"; done
		echo "== reference keccak3_proof, $t thread(s), K = [$ks] ==" >&2
		if ! RAYON_NUM_THREADS="$t" KECCAK3_KS="$ks" \
			ref_cargo bench -p flock-prover --bench keccak3_proof >"$work/keccak3-$t.out" 2> >(tee "$work/keccak3-$t.err" >&2); then
			echo "warning: keccak3_proof failed at $t thread(s); Keccak compares against hash_throughput" >&2
			rm -f "$work/keccak3-$t.out"
		fi
	fi
done

# ---- flockwork ----------------------------------------------------------------------------
for hash in sha256 blake3 keccak; do
	for l in $LOG2S; do
		for t in $THREADS; do
			echo "== flockwork $hash 2^$l, $t thread(s) ==" >&2
			"$bin" --threads "$t" prove --hash "$hash" --log-instances "$l" --reps 3 --json \
				>"$work/flockwork-$hash-$l-$t.json"
		done
	done
done

# ---- the table ----------------------------------------------------------------------------
python3 - "$work" "$cpu" "$missing" "$ref_commit" "$ref_build" "$THREADS" "$LOG2S" <<'PY'
import json, os, re, sys

work, cpu, missing, ref_commit, ref_build, threads, log2s = sys.argv[1:]
threads = threads.split()
log2s = [int(l) for l in log2s.split()]

# hash_throughput: RESULT\thash\tlayout\tbatch\tthreads\tseconds\tthroughput; best layout.
throughput = {}
for t in threads:
    with open(os.path.join(work, f"throughput-{t}.out")) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 7 or parts[0] != "RESULT":
                continue
            _, h, layout, batch, _, _, per_sec = parts
            key = (h, int(batch), t)
            if float(per_sec) > throughput.get(key, (0.0, ""))[0]:
                throughput[key] = (float(per_sec), layout)

# keccak3_proof: "=== K = N Keccaks ..." then "best prove_fast: X ms" (or "X s").
keccak3 = {}
for t in threads:
    path = os.path.join(work, f"keccak3-{t}.out")
    if not os.path.exists(path):
        continue
    k = None
    with open(path) as f:
        for line in f:
            m = re.search(r"=== K =\s*(\d+) Keccaks", line)
            if m:
                k = int(m.group(1))
            m = re.search(r"best prove_fast:\s*([0-9.]+)\s*(ms|s)\b", line)
            if m and k is not None:
                seconds = float(m.group(1)) * (1e-3 if m.group(2) == "ms" else 1.0)
                keccak3[(k, t)] = k / seconds

def fmt(x):
    return f"{x:,.0f}" if x is not None else "—"

names = {"sha256": ("sha2", "SHA-256"), "blake3": ("blake3", "BLAKE3"), "keccak": ("keccak", "Keccak-f[1600]")}
print(f"CPU: {cpu}" + (f" — lacks {missing}: the reference ran its portable loops, the ratio does not count" if missing else ""))
print(f"reference: {ref_commit} (built in {ref_build} s); best of 3 runs after a warm-up on both sides")
print()
print("| hash | batch | threads | reference per s | flockwork per s | ratio (flockwork / reference) | flockwork peak MiB | flockwork verify ms | proof KiB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for hash in ["sha256", "blake3", "keccak"]:
    ref_name, label = names[hash]
    for l in log2s:
        batch = 1 << l
        for t in threads:
            with open(os.path.join(work, f"flockwork-{hash}-{l}-{t}.json")) as f:
                fw = json.loads(f.read())
            reference, source = None, "no result"
            if (ref_name, batch, t) in throughput:
                reference, layout = throughput[(ref_name, batch, t)]
                source = f"hash_throughput, {layout}"
            k = 3 << (l - 1)
            if hash == "keccak" and keccak3.get((k, t), 0.0) > (reference or 0.0):
                reference = keccak3[(k, t)]
                source = f"keccak3_proof, 3·2^{l - 1} = {k:,} permutations"
            ratio = f"{fw['per_sec'] / reference:.2f}" if reference else "—"
            print(
                f"| {label} (reference: {source}) | 2^{l} | {t} | {fmt(reference)} | {fmt(fw['per_sec'])} "
                f"| {ratio} | {fw['peak_mib']:.0f} | {fw['verify_ms']:.2f} | {fw['proof_bytes'] / 1024:.1f} |"
            )
PY

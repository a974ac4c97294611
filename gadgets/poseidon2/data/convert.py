#!/usr/bin/env python3
"""Converts the shared constants files (`<field>_t<t>_constants.json`) into the compact,
line-oriented `data/<field>_t<t>.txt` files the crate embeds with `include_str!`.

The conversion is lossless for everything the crate uses: every value keeps its exact hex
string; only JSON punctuation and descriptive fields are dropped. Usage:

    python3 data/convert.py ../../../shared/vectors/poseidon2 data
"""
import json, os, sys

src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    if not name.endswith("_constants.json"):
        continue
    c = json.load(open(os.path.join(src, name)))
    stats = c["grain_stats"]
    diag_rej = stats["internal_diag_candidates_rejected_by_minpoly_check"]
    strip = lambda v: v[2:] if v.startswith("0x") else v
    flat = lambda rows: " ".join(strip(v) for row in rows for v in row)
    lines = [
        f"# Poseidon2 constants, converted by data/convert.py from shared/vectors/poseidon2/{name}",
        f"# source: {c['source']}",
        f"field {c['field']}",
        f"t {c['t']}",
        f"d {c['d']}",
        f"rf {c['rf']}",
        f"rp {c['rp']}",
        f"grain_sbox {c['grain_seed']['sbox']}",
        f"rc_rejected {stats['round_constant_draws_rejected_ge_p']}",
        f"diag_rejected {'-' if diag_rej is None else diag_rej}",
        "diag_m_1 " + " ".join(strip(v) for v in c["mat_internal_diag_m_1"]),
        "full_begin " + flat(c["round_constants_full_begin"]),
        "partial " + " ".join(strip(v) for v in c["round_constants_partial"]),
        "full_end " + flat(c["round_constants_full_end"]),
    ]
    out = name.replace("_constants.json", ".txt")
    open(os.path.join(dst, out), "w").write("\n".join(lines) + "\n")
    print(out)

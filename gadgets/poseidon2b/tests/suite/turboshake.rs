//! TurboSHAKE256 against RFC 9861 and against an independent implementation.

use flockwork_poseidon2b::turboshake::{RATE, TurboShake256, turboshake256};
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// `ptn(n)`: the RFC 9861 §5 test pattern `00 01 … F9 FA` repeated, truncated to `n` bytes.
fn ptn(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn rfc9861_test_vectors() {
    // RFC 9861 §5: TurboSHAKE256(M = `00`^0, D = `1F`, 64).
    let mut out = [0u8; 64];
    turboshake256(0x1F, &[], &mut out);
    assert_eq!(
        out.to_vec(),
        unhex(
            "36 7A 32 9D AF EA 87 1C 78 02 EC 67 F9 05 AE 13 C5 76 95 DC 2C 66 63 C6 10 35 F5 9A 18 F8 E7 DB
             11 ED C0 E1 2E 91 EA 60 EB 6B 32 DF 06 DD 7F 00 2F BA FA BB 6E 13 EC 1C C2 0D 99 55 47 60 0D B0"
        )
    );
    // RFC 9861 §5: TurboSHAKE256(M = ptn(17^0 bytes), D = `1F`, 64).
    turboshake256(0x1F, &ptn(1), &mut out);
    assert_eq!(
        out.to_vec(),
        unhex(
            "3E 17 12 F9 28 F8 EA F1 05 46 32 B2 AA 0A 24 6E D8 B0 C3 78 72 8F 60 BC 97 04 10 15 5C 28 82 0E
             90 CC 90 D8 A3 00 6A A2 37 2C 5C 5E A1 76 B0 68 2B F2 2B AE 74 67 AC 94 F7 4D 43 D3 9B 04 82 E2"
        )
    );
}

fn reference(domain: u8, message: &[u8], len: usize) -> Vec<u8> {
    let mut h = sha3::TurboShake256::from_core(sha3::TurboShake256Core::new(domain));
    h.update(message);
    let mut out = vec![0u8; len];
    h.finalize_xof().read(&mut out);
    out
}

#[test]
fn matches_rustcrypto_sha3_across_block_boundaries() {
    // Message lengths around the 136-byte rate (0, RATE − 1, RATE, RATE + 1, 2·RATE, …) and
    // outputs spanning several squeeze blocks; two domain bytes.
    for domain in [0x1F, 0x07] {
        for len in (0..=2 * RATE + 3).chain([17 * 17, 1000]) {
            let msg = ptn(len);
            let mut out = vec![0u8; 3 * RATE + 5];
            turboshake256(domain, &msg, &mut out);
            assert_eq!(
                out,
                reference(domain, &msg, out.len()),
                "D = {domain:#x}, len {len}"
            );
        }
    }
}

#[test]
fn incremental_absorb_and_squeeze_equal_one_shot() {
    let msg = ptn(500);
    let mut one_shot = vec![0u8; 700];
    turboshake256(0x1F, &msg, &mut one_shot);
    for step in [1usize, 7, 136, 137] {
        let mut xof = TurboShake256::new(0x1F);
        for chunk in msg.chunks(step) {
            xof.absorb(chunk);
        }
        let mut out = vec![0u8; 700];
        for chunk in out.chunks_mut(step) {
            xof.squeeze(chunk);
        }
        assert_eq!(out, one_shot, "step {step}");
    }
}

#[test]
#[should_panic(expected = "domain byte")]
fn rejects_domain_zero() {
    let _ = TurboShake256::new(0);
}

//! The compact constants format embedded in the crate and its parser.
//!
//! `data/<field>_t<t>.txt` is a lossless conversion (by `data/convert.py`) of the shared
//! `<field>_t<t>_constants.json` files: `#` comment lines, then one `key value…` line per
//! field. Field elements are big-endian hex (no `0x`), canonical and zero-padded.
//!
//! ```text
//! field bn254        t 3        d 5        rf 8        rp 56      grain_sbox 0
//! rc_rejected 20     diag_rejected -      (or the number of rejected diagonal candidates)
//! diag_m_1 …  full_begin …  partial …  full_end …
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use flockwork_field::Field;

use crate::field::Poseidon2Field;
use crate::params::Poseidon2Params;

/// One parsed constants file: the instance plus the Grain bookkeeping recorded with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstantsFile<F> {
    /// Field name as in the file (`bn254`, `bls12_381`, `goldilocks`, …).
    pub field: String,
    /// The instance.
    pub params: Poseidon2Params<F>,
    /// The S-box type bits of the Grain seed (0 for `x^d` in the current reference script).
    pub grain_sbox: u8,
    /// Round-constant draws `>= p` the generator threw away.
    pub rc_rejected: usize,
    /// Internal-diagonal candidates that failed the minimal-polynomial check (`None` for
    /// `t = 2, 3`, whose internal matrix is fixed).
    pub diag_rejected: Option<usize>,
}

/// Decodes one big-endian hex field element; `None` if malformed or not canonical.
#[must_use]
pub fn parse_hex<F: Field>(hex: &str) -> Option<F> {
    let hex = hex.strip_prefix("0x").unwrap_or(hex);
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    let mut le: Vec<u8> = (0..hex.len() / 2)
        .rev()
        .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
        .collect::<Option<_>>()?;
    if le.len() > F::NUM_BYTES && le[F::NUM_BYTES..].iter().any(|&b| b != 0) {
        return None;
    }
    le.resize(F::NUM_BYTES, 0);
    F::read_bytes(&le)
}

/// The value of `key` (the rest of its line), if present.
fn value<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(' '))
}

/// A numeric `key`.
fn number(text: &str, key: &str) -> Option<usize> {
    value(text, key)?.trim().parse().ok()
}

/// The field elements of `key`.
fn elements<F: Field>(text: &str, key: &str) -> Option<Vec<F>> {
    value(text, key)?
        .split_whitespace()
        .map(parse_hex)
        .collect()
}

impl<F: Poseidon2Field> ConstantsFile<F> {
    /// Parses the compact format (module docs); `None` if anything is missing, malformed,
    /// not canonical in `F`, or fails [`Poseidon2Params::new`].
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        let t = number(text, "t")?;
        let params = Poseidon2Params::new(
            t,
            number(text, "d")? as u64,
            number(text, "rf")?,
            number(text, "rp")?,
            elements(text, "full_begin")?,
            elements(text, "partial")?,
            elements(text, "full_end")?,
            elements(text, "diag_m_1")?,
        )
        .ok()?;
        let diag = value(text, "diag_rejected")?.trim();
        Some(Self {
            field: value(text, "field")?.trim().to_string(),
            params,
            grain_sbox: u8::try_from(number(text, "grain_sbox")?).ok()?,
            rc_rejected: number(text, "rc_rejected")?,
            diag_rejected: if diag == "-" {
                None
            } else {
                Some(diag.parse().ok()?)
            },
        })
    }
}

//! The byte encoding of a commitment's parameters
//! ([`ConfiguredCommitment::parameter_bytes`](crate::security::ConfiguredCommitment::parameter_bytes)):
//! what protocols hash into the setup digest their proofs carry, so it is fixed within a
//! proof format version.
//!
//! ## Fields
//!
//! The bytes are a sequence of fields, each one of:
//!
//! * **integer** (a variable count, a rate exponent, a query count, grinding bits): its value
//!   as a `u64`, little-endian (8 bytes);
//! * **real** (the Johnson slack `η`, an assumed distance): its IEEE 754 binary64 bits as a
//!   `u64`, little-endian;
//! * **tag** (the name of a scheme, a code or a regime): its length in bytes as an integer,
//!   then its ASCII bytes;
//! * **bytes of fixed length** (a 32-byte seed): the bytes;
//! * **list**: its length as an integer, then its elements.
//!
//! ## Order
//!
//! Every scheme starts with its tag ([`ConfiguredCommitment::name`](crate::security::ConfiguredCommitment::name)).
//!
//! * A **regime**: tag `unique-decoding`; or tag `johnson`, then `η` (real).
//! * A **Reed–Solomon level** ([`LevelConfig`]): `k_i`, `R_i`, `Q_i`, fold grinding bits,
//!   query grinding bits, out-of-domain samples.
//! * **Ligerito** ([`LigeritoConfig`]): tag `ligerito`, `ℓ`, field bits, regime, the list of
//!   levels.
//! * **Blaze** ([`BlazeConfig`]): tag `blaze`, `ℓ`, field bits, regime; the RAA level: `k_0`,
//!   `R_0`, `Q_0`, fold grinding bits, query grinding bits, assumed distance `δ` (real), the
//!   32-byte seed, the tag of the permutations' derivation from the seed
//!   ([`flockwork_codes::RAA_PERMUTATIONS`]: `feistel6-chacha20`); then the list of
//!   Reed–Solomon levels.
//! * **FRI** ([`FriConfig`]): tag `fri`, the code's tag
//!   ([`FoldableCode::NAME`](flockwork_codes::FoldableCode::NAME): `binary-rs` for
//!   FRI-Binius, `radix2-rs` for BaseFold), `ℓ`, field bits, `R`, `b`, the list of arities
//!   `ϑ_i`, `Q`, query grinding bits, fold grinding bits.
//!
//! The Merkle hash is part of a commitment's type and the field of its generic parameter;
//! neither is written (protocols name their transcript and field themselves).

use crate::blaze::BlazeConfig;
use crate::fri::FriConfig;
use crate::ligerito::{LevelConfig, LigeritoConfig};
use crate::security::Regime;

/// A parameter encoding under construction ([module docs](self)).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParameterBytes(Vec<u8>);

impl ParameterBytes {
    /// The encoding of the scheme named `scheme`, before its parameters.
    #[must_use]
    pub fn new(scheme: &str) -> Self {
        let mut out = Self::default();
        out.tag(scheme);
        out
    }

    /// Appends an integer: `u64` little-endian.
    pub fn int(&mut self, value: u64) -> &mut Self {
        self.0.extend_from_slice(&value.to_le_bytes());
        self
    }

    /// Appends a `usize` as an integer.
    pub fn size(&mut self, value: usize) -> &mut Self {
        self.int(value as u64)
    }

    /// Appends a real: its binary64 bits as an integer.
    pub fn real(&mut self, value: f64) -> &mut Self {
        self.int(value.to_bits())
    }

    /// Appends a tag: its length as an integer, then its bytes.
    pub fn tag(&mut self, tag: &str) -> &mut Self {
        self.size(tag.len());
        self.0.extend_from_slice(tag.as_bytes());
        self
    }

    /// Appends bytes of a length fixed by the scheme.
    pub fn fixed(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.extend_from_slice(bytes);
        self
    }

    /// Appends a list: its length as an integer, then each element.
    pub fn list<T: EncodeParameters>(&mut self, items: &[T]) -> &mut Self {
        self.size(items.len());
        for item in items {
            item.encode_parameters(self);
        }
        self
    }

    /// The bytes.
    #[must_use]
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
}

/// A parameter set with a fixed byte encoding ([module docs](self)).
pub trait EncodeParameters {
    /// Appends the parameters (without the scheme's tag) to `out`.
    fn encode_parameters(&self, out: &mut ParameterBytes);
}

impl EncodeParameters for Regime {
    fn encode_parameters(&self, out: &mut ParameterBytes) {
        match *self {
            Regime::UniqueDecoding => {
                out.tag("unique-decoding");
            }
            Regime::Johnson { eta } => {
                out.tag("johnson").real(eta);
            }
        }
    }
}

impl EncodeParameters for LevelConfig {
    fn encode_parameters(&self, out: &mut ParameterBytes) {
        out.size(self.log_cols)
            .size(self.log_inv_rate)
            .size(self.num_queries)
            .int(self.fold_pow_bits.into())
            .int(self.query_pow_bits.into())
            .size(self.ood_samples);
    }
}

impl EncodeParameters for LigeritoConfig {
    fn encode_parameters(&self, out: &mut ParameterBytes) {
        out.size(self.num_vars).int(self.field_bits.into());
        self.regime.encode_parameters(out);
        out.list(&self.levels);
    }
}

impl EncodeParameters for BlazeConfig {
    fn encode_parameters(&self, out: &mut ParameterBytes) {
        out.size(self.num_vars).int(self.field_bits.into());
        self.regime.encode_parameters(out);
        let raa = &self.raa;
        out.size(raa.log_cols)
            .size(raa.log_inv_rate)
            .size(raa.num_queries)
            .int(raa.fold_pow_bits.into())
            .int(raa.query_pow_bits.into())
            .real(raa.distance)
            .fixed(&raa.seed)
            .tag(flockwork_codes::RAA_PERMUTATIONS)
            .list(&self.levels);
    }
}

impl EncodeParameters for FriConfig {
    fn encode_parameters(&self, out: &mut ParameterBytes) {
        out.size(self.num_vars)
            .int(self.field_bits.into())
            .size(self.log_inv_rate)
            .size(self.log_batch)
            .size(self.arities.len());
        for &arity in &self.arities {
            out.size(arity);
        }
        out.size(self.num_queries)
            .int(self.query_pow_bits.into())
            .int(self.fold_pow_bits.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blaze::{DEFAULT_DISTANCE, DEFAULT_SEED, RaaLevelConfig};

    fn le(values: &[u64]) -> Vec<u8> {
        values.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    fn level(seed: usize) -> LevelConfig {
        LevelConfig {
            log_cols: seed + 1,
            log_inv_rate: seed + 2,
            num_queries: seed + 3,
            fold_pow_bits: seed as u32 + 4,
            query_pow_bits: seed as u32 + 5,
            ood_samples: seed + 6,
        }
    }

    fn encoded(scheme: &str, params: &impl EncodeParameters) -> Vec<u8> {
        let mut out = ParameterBytes::new(scheme);
        params.encode_parameters(&mut out);
        out.into_bytes()
    }

    /// Known answers: the documented layout, field by field.
    #[test]
    fn encodings_follow_the_documented_layout() {
        let ligerito = LigeritoConfig {
            num_vars: 20,
            levels: vec![level(0), level(10)],
            regime: Regime::Johnson { eta: 0.5 },
            field_bits: 128,
        };
        let mut expected = le(&[8]);
        expected.extend(b"ligerito");
        expected.extend(le(&[20, 128, 7]));
        expected.extend(b"johnson");
        expected.extend(le(&[0x3FE0_0000_0000_0000, 2, 1, 2, 3, 4, 5, 6]));
        expected.extend(le(&[11, 12, 13, 14, 15, 16]));
        assert_eq!(encoded("ligerito", &ligerito), expected);

        let blaze = BlazeConfig {
            num_vars: 20,
            raa: RaaLevelConfig {
                log_cols: 3,
                log_inv_rate: 2,
                num_queries: 1060,
                fold_pow_bits: 1,
                query_pow_bits: 9,
                distance: 0.25,
                seed: [7; 32],
            },
            levels: vec![level(0)],
            regime: Regime::UniqueDecoding,
            field_bits: 64,
        };
        let mut expected = le(&[5]);
        expected.extend(b"blaze");
        expected.extend(le(&[20, 64, 15]));
        expected.extend(b"unique-decoding");
        expected.extend(le(&[3, 2, 1060, 1, 9, 0x3FD0_0000_0000_0000]));
        expected.extend([7; 32]);
        expected.extend(le(&[17]));
        expected.extend(b"feistel6-chacha20");
        expected.extend(le(&[1, 1, 2, 3, 4, 5, 6]));
        assert_eq!(encoded("blaze", &blaze), expected);

        let fri = FriConfig {
            num_vars: 12,
            log_inv_rate: 1,
            log_batch: 4,
            arities: vec![2, 3],
            num_queries: 90,
            query_pow_bits: 16,
            fold_pow_bits: 0,
            field_bits: 128,
        };
        let mut expected = le(&[3]);
        expected.extend(b"fri");
        expected.extend(le(&[12, 128, 1, 4, 2, 2, 3, 90, 16, 0]));
        assert_eq!(encoded("fri", &fri), expected);
    }

    /// Every field of a schedule reaches the bytes: changing any one changes them.
    #[test]
    fn every_parameter_changes_the_bytes() {
        let base = BlazeConfig {
            num_vars: 20,
            raa: RaaLevelConfig {
                log_cols: 3,
                log_inv_rate: 2,
                num_queries: 1060,
                fold_pow_bits: 1,
                query_pow_bits: 0,
                distance: DEFAULT_DISTANCE,
                seed: DEFAULT_SEED,
            },
            levels: vec![level(0), level(1)],
            regime: Regime::Johnson { eta: 0.02 },
            field_bits: 128,
        };
        let edits: Vec<fn(&mut BlazeConfig)> = vec![
            |c| c.num_vars += 1,
            |c| c.field_bits -= 1,
            |c| c.regime = Regime::UniqueDecoding,
            |c| c.regime = Regime::Johnson { eta: 0.03 },
            |c| c.raa.log_cols += 1,
            |c| c.raa.log_inv_rate += 1,
            |c| c.raa.num_queries += 1,
            |c| c.raa.fold_pow_bits += 1,
            |c| c.raa.query_pow_bits += 1,
            |c| c.raa.distance = 0.2,
            |c| c.raa.seed[31] ^= 1,
            |c| {
                c.levels.pop();
            },
            |c| c.levels[1].log_cols += 1,
            |c| c.levels[1].log_inv_rate += 1,
            |c| c.levels[1].num_queries += 1,
            |c| c.levels[1].fold_pow_bits += 1,
            |c| c.levels[1].query_pow_bits += 1,
            |c| c.levels[1].ood_samples += 1,
        ];
        let reference = encoded("blaze", &base);
        for (i, edit) in edits.iter().enumerate() {
            let mut changed = base.clone();
            edit(&mut changed);
            assert_ne!(encoded("blaze", &changed), reference, "edit {i}");
        }
        assert_ne!(encoded("ligerito", &base), reference);
    }
}

//! The Poseidon2b permutation over GF(2^128) (polynomial basis, [`Ghash128`]) as a
//! [`Relation`]: input and output are one state of `T` elements; the batch evaluation is
//! [`Poseidon2b::permute_many`]. The known answers are the first vector of the official
//! instances' files (`vectors/official_n128t4.json`: `P(0, 1, 2, 3)`, the check value of
//! `notes/poseidon2b-gkr.md` (a); `vectors/official_n128t6.json`: `P(0, …, 5)`); frost-gkr's
//! variant has none (it is not Poseidon2b).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use flockwork_core::relation::Relation;
use flockwork_field::BinaryField;

use crate::{Ghash128, Instance, Poseidon2b};

/// `P(0, 1, 2, 3)` of the official `t = 4` instance.
const OFFICIAL_T4_0123: [u128; 4] = [
    0x8f76_55ab_db74_8e34_e248_218d_828e_976e,
    0x03d8_a962_b3ef_9fdb_012a_2bab_ed7a_22a4,
    0xebef_045a_528b_84d0_c013_04ec_452e_b78c,
    0x1c59_b581_7ed7_99d5_8530_654b_62a4_0a39,
];

/// `P(0, 1, 2, 3, 4, 5)` of the official `t = 6` instance.
const OFFICIAL_T6_012345: [u128; 6] = [
    0x9e10_c8df_9286_4878_0cab_0bf6_d567_3c55,
    0xabeb_1bd0_4ff9_217c_ec84_343e_8838_3615,
    0x227c_1b6d_3624_0da0_eb0f_29f6_a982_05b7,
    0xf9ce_a45b_a4f1_7a60_7b69_a2f2_270c_eec2,
    0x86eb_5924_9108_207b_cd8c_22f7_3f9f_7be9,
    0xd30f_ba39_80bd_3522_2558_c0a9_2394_e500,
];

impl<const T: usize> Relation for Poseidon2b<Ghash128, T> {
    type Input = [Ghash128; T];
    type Output = [Ghash128; T];
    /// The whole state (an iterated permutation).
    type State = [Ghash128; T];

    fn name(&self) -> String {
        match self.instance() {
            Instance::Official => format!("poseidon2b-t{T}"),
            Instance::FrostGkr => format!("poseidon2b-frost-gkr-t{T}"),
        }
    }

    fn evaluate(&self, input: &[Ghash128; T]) -> [Ghash128; T] {
        self.permutation(*input)
    }

    fn evaluate_batch(&self, inputs: &[[Ghash128; T]]) -> Vec<[Ghash128; T]> {
        let mut states = inputs.to_vec();
        self.permute_many(&mut states);
        states
    }

    fn input_state(&self, input: &Self::Input) -> Option<[Ghash128; T]> {
        Some(*input)
    }

    fn output_state(&self, output: &Self::Output) -> Option<[Ghash128; T]> {
        Some(*output)
    }

    fn known_answers(&self) -> Vec<([Ghash128; T], [Ghash128; T])> {
        let output: &[u128] = match (self.instance(), T) {
            (Instance::Official, 4) => &OFFICIAL_T4_0123,
            (Instance::Official, 6) => &OFFICIAL_T6_012345,
            _ => return Vec::new(),
        };
        let input = core::array::from_fn(|i| Ghash128::from_bits(i as u128));
        let output = core::array::from_fn(|i| Ghash128::from_bits(output[i]));
        alloc::vec![(input, output)]
    }
}

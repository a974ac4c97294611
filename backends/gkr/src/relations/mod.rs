//! Layered relations shipped with the GKR backend.
//!
//! | relation | field | layers | degree |
//! |---|---|---|---|
//! | [`Poseidon2bRelation`] | GF(2^128) (polynomial basis) | 66 | 7 |
//! | [`Poseidon2Relation`] | any prime field of `flockwork-poseidon2` (BN254 t = 3: 64 layers) | `R_F + R_P` | `d` |

mod poseidon2;
mod poseidon2b;

pub use poseidon2::Poseidon2Relation;
pub use poseidon2b::Poseidon2bRelation;

//! The format's identity: its magic bytes, the version this build writes and reads, and every
//! retired version with the last commit whose `flockwork verify` reads its files (the rule for
//! changing the version is the module's, [`super`]).

/// The file's magic bytes.
pub const MAGIC: [u8; 4] = *b"FWPF";
/// The format version this build writes and reads. Version 5: batch-R1CS files record the
/// exact block count (`u32 blocks`, any count, instead of `u8 log_blocks`) and carry the
/// batch-R1CS proof version 4 (the count in the setup digest and the constant pin). Version 6:
/// batch-R1CS proof version 5 (the commitment's parameters in their fixed byte encoding), the
/// exact count (`u32 count`: Merkle trees over any number of leaves, Keccak-f chains of any
/// length), and system 3 (Keccak-f with GKR on its Boolean layers). Version 7: Poseidon2b
/// GKR files (systems 1 and 2) state every instance's outputs in place of an output point
/// and claimed values, and carry GKR proof version 2 (the points drawn in the transcript).
pub const VERSION: u16 = 7;
/// Every earlier version, with the last commit whose `flockwork verify` reads its files: 2
/// (no `copies` byte; proofs before the proof-of-work change d591d4c), 3 (the layer-0
/// commitment at its target; files written from d591d4c on, earlier ones by b2fc788), 4
/// (power-of-two block counts, batch-R1CS proof version 3), 5 (batch-R1CS proof version 4)
/// and 6 (Poseidon2b GKR files with a stated output point and claimed values).
pub const RETIRED: [(u16, &str); 5] = [
    (2, "b2fc788"),
    (3, "7e089aa"),
    (4, "21c80a4"),
    (5, "40c760a"),
    (6, "dd373e8"),
];

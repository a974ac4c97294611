//! The Poseidon2 permutation ([`Poseidon2`], any instance over any [`Poseidon2Field`]) as a
//! [`Relation`]: input and output are one state of `t` field elements (a `Vec` of length `t`),
//! evaluated by [`Poseidon2::permutation`].
//!
//! The known answers are `P(0, 1, …, t − 1)` for the reference instances that have an external
//! test vector for that input (the `"seq"` vectors of `tests/data/<field>.json`, copied from
//! `shared/vectors/poseidon2`): the HorizenLabs reference's own KATs
//! (`HorizenLabs/poseidon2@bb476b9c`, `plain_implementations/src/poseidon2/poseidon2.rs`,
//! test `kats()`) for BN254 `t = 3`, BLS12-381 `t = 2, 3, 4`, Goldilocks `t = 12`, BabyBear
//! `t = 24`, Pallas and Vesta `t = 3`, and `taceo-poseidon2` 0.3.1's for BN254
//! `t = 2, 4, 8, 12, 16`. An instance has them when its field (compared by `p − 1`) and every
//! parameter and constant equal a reference instance's ([`crate::instances::DATA`]); any
//! other instance (the Plonky3 convention, generated instances) has none.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use flockwork_core::relation::Relation;
use flockwork_field::PrimeField;

use crate::data::{ConstantsFile, parse_hex};
use crate::instances::DATA;
use crate::{Convention, Poseidon2, Poseidon2Field};

/// The fields of the reference instances: name and `p − 1` (big-endian hex).
const FIELDS: &[(&str, &str)] = &[
    (
        "bn254",
        "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000",
    ),
    (
        "bls12_381",
        "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000000",
    ),
    ("goldilocks", "ffffffff00000000"),
    ("babybear", "78000000"),
    (
        "pallas",
        "40000000000000000000000000000000224698fc094cf91b992d30ed00000000",
    ),
    (
        "vesta",
        "40000000000000000000000000000000224698fc0994a8dd8c46eb2100000000",
    ),
];

/// `P(0, 1, …, t − 1)` of reference instances: the instance's name in
/// [`crate::instances::DATA`] and the output (big-endian hex), copied from `tests/data/`
/// (module docs).
const SEQ_KATS: &[(&str, &[&str])] = &[
    (
        "bn254_t3",
        &[
            "0bb61d24daca55eebcb1929a82650f328134334da98ea4f847f760054f4a3033",
            "303b6f7c86d043bfcbcc80214f26a30277a15d3f74ca654992defe7ff8d03570",
            "1ed25194542b12eef8617361c3ba7c52e660b145994427cc86296242cf766ec8",
        ],
    ),
    (
        "bn254_t2",
        &[
            "1d01e56f49579cec72319e145f06f6177f6c5253206e78c2689781452a31878b",
            "0d189ec589c41b8cffa88cfc523618a055abe8192c70f75aa72fc514560f6c61",
        ],
    ),
    (
        "bn254_t4",
        &[
            "01bd538c2ee014ed5141b29e9ae240bf8db3fe5b9a38629a9647cf8d76c01737",
            "239b62e7db98aa3a2a8f6a0d2fa1709e7a35959aa6c7034814d9daa90cbac662",
            "04cbb44c61d928ed06808456bf758cbf0c18d1e15a7b6dbc8245fa7515d5e3cb",
            "2e11c5cff2a22c64d01304b778d78f6998eff1ab73163a35603f54794c30847a",
        ],
    ),
    (
        "bn254_t8",
        &[
            "1d1a50bcde871247856df135d56a4ca61af575f1140ed9b1503c77528cf345df",
            "2d3943cf476ed49fd8a636660d8a76c83b55f07d06bc082005ad7eb1a21791c5",
            "2fcda2dd846fadfde8104b1d05175dcf3cf8bd698ed8ea3ad2fbcf9c06e00310",
            "28811ac7e0829171f9d3d81f1c0ff8f34b360d407a16b331a1cb6b5d992de094",
            "2c07c1817cfccb67c1297935514885c07abad5a0e15477f6c076c0b0fb1ad6f3",
            "1b6114397199bc44e37437dd3ba1754dff007d3315bfcdcdc14ec27d02452f52",
            "1431250baf36fb61a07618caee4dd2f500da339a05c553e8f529a3349e617aa2",
            "0b19bfa00c8f1d505074130e7f8b49a8624b1905e280ceca5ba11099b081b265",
        ],
    ),
    (
        "bn254_t12",
        &[
            "3014e0ec17029f7e4f5cfe8c7c54fc3df6a5f7539f6aa304b2f3c747a9105618",
            "2f90753e7aaf46c158cd12346da7dd37c3136353ec51525cabbaaf2b2350f9b2",
            "2e28bdc8b2c68b09da0cb653ee7e54eca909cf2ae010784554aa3e165b1a105f",
            "1d6a97ef87dbd3476a848af45beebe6b5d79cb047b37212e3e5839f1e80b397a",
            "24e23df24b19b75f44218a08d107709d35561bc1b982cfc317d54568cd496519",
            "185a08e623b85e797844191a1f184f7b8fc486253919eb20f1186a8331757018",
            "069ed78df853a105c8949dae5b4e81cbe370e8f6e25735a688aa8ff3df9659eb",
            "284395d79b64123211a4a59b81a90f9cfa8d8314dccde4cef22ec1e31431efd3",
            "0f24be5a8c95e3504ead0da9e792b77d7056f94461d69b04b33ea5d239f8e444",
            "022469ccfef0ce5a237518c38dec31fc2804e633b3b365c23a9f703ca31ef393",
            "1fcdcee218d5a0101bd233d572f184964854d445ca08d2bd6df6ceba5651e322",
            "0905469a776b7d5a3f18841edb90fa0d8c6de479c2789c042dafefb367ad1a2b",
        ],
    ),
    (
        "bn254_t16",
        &[
            "0fc2e6b758f493969e1d860f9a44ee3bdffdf796f382aa4ffb16fa4e9bcc333f",
            "0c118155a0dfeca3f91faf14a350511228ac33743be91249c6e0b3a635a50de4",
            "1a02b3a6571f22bb6392322d3f9f5de145b4f00bdf483072ce6188c30ba0f83d",
            "26631df6b2522ecde57413cd680ed590ded356e1c680f865f45be8eb960d1e06",
            "250ac4dfed40dc37bac9abe46f7bff3a80481d52a157ac80a1e5d39a5ed60e18",
            "17160980d8e7d9cb31addaf294cf047768bffd9fe433e8903b4ed262ee913f5b",
            "1d708a9f0995c2e0cd2f55e5dc795126f7191a0eb934ac8172bf54e520361ff6",
            "20721a18915e96e37e12c9697427f34d6a366787ea94ea65565c36813a0d77a3",
            "08671a9e58105eed9ac673249dcf22f08f098e3c6eb28f9eaa55d67d755972d0",
            "01e879484303c6d057128fbcc3a4222c779a62d3666df65d4e0b64c8031d7cc4",
            "239e2ce87955ebe19aaad000b38725b729f51175ab7d688f15d997edf0e3b7fc",
            "06be612f42b3ebdbade3fe199338c9118eb6b5fb760bda96e45443f130a8b2de",
            "11b2c04b4eb9e4844e5ddbb19b56059a815ed5d69405ba51786961235d5f073c",
            "006da33e2d57616c0ffc855b48d225a1237c3d80fc7e6b6e73b74e162b85c8a8",
            "0ef50c2615882523c6c73a69b4371332a066b2dc4b9630f186db47e3bfca88c8",
            "0e2ceb1f8fde5f80be1f41bd239fabdc2f6133a6a98920a55c42891c3a925152",
        ],
    ),
    (
        "bls12_381_t2",
        &[
            "73c46dd530e248a87b61d19e67fa1b4ed30fc3d09f16531fe189fb945a15ce4e",
            "1f0e305ee21c9366d5793b80251405032a3fee32b9dd0b5f4578262891b043b4",
        ],
    ),
    (
        "bls12_381_t3",
        &[
            "1b152349b1950b6a8ca75ee4407b6e26ca5cca5650534e56ef3fd45761fbf5f0",
            "4c5793c87d51bdc2c08a32108437dc0000bd0275868f09ebc5f36919af5b3891",
            "1fc8ed171e67902ca49863159fe5ba6325318843d13976143b8125f08b50dc6b",
        ],
    ),
    (
        "bls12_381_t4",
        &[
            "28ff6c4edf9768c08ae26290487e93449cc8bc155fc2fad92a344adceb3ada6d",
            "0e56f2b6fad25075aa93560185b70e2b180ed7e269159c507c288b6747a0db2d",
            "6d8196f28da6006bb89b3df94600acdc03d0ba7c2b0f3f4409a54c1db6bf30d0",
            "07cfb49540ee456cce38b8a7d1a930a57ffc6660737f6589ef184c5e15334e36",
        ],
    ),
    (
        "goldilocks_t12",
        &[
            "01eaef96bdf1c0c1",
            "1f0d2cc525b2540c",
            "6282c1dfe1e0358d",
            "e780d721f698e1e6",
            "280c0b6f753d833b",
            "1b942dd5023156ab",
            "43f0df3fcccb8398",
            "e8e8190585489025",
            "56bdbf72f77ada22",
            "7911c32bf9dcd705",
            "ec467926508fbe67",
            "6a50450ddf85a6ed",
        ],
    ),
    (
        "babybear_t24",
        &[
            "2ed3e23d", "12921fb0", "0e659e79", "61d81dc9", "32bae33b", "62486ae3", "1e681b60",
            "24b91325", "2a2ef5b9", "50e8593e", "5bc818ec", "10691997", "35a14520", "2ba6a3c5",
            "279d47ec", "55014e81", "5953a67f", "2f403111", "6b8828ff", "1801301f", "2749207a",
            "3dc9cf21", "3c985ba2", "57a99864",
        ],
    ),
    (
        "pallas_t3",
        &[
            "1a9b54c7512a914dd778282c44b3513fea7251420b9d95750baae059b2268d7a",
            "1c48ea0994a7d7984ea338a54dbf0c8681f5af883fe988d59ba3380c9f7901fc",
            "079ddd0a80a3e9414489b526a2770448964766685f4c4842c838f8a23120b401",
        ],
    ),
    (
        "vesta_t3",
        &[
            "261ecbdfd62c617b82d297705f18c788fc9831b14a6a2b8f61229bef68ce2792",
            "2c76327e0b7653873263158cf8545c282364b183880fcdea93ca8526d518c66f",
            "262316c0ce5244838c75873299b59d763ae0849d2dd31bdc95caf7db1c2901bf",
        ],
    ),
];

/// The name of `F` among the reference fields ([`FIELDS`]), if it is one.
fn field_name<F: PrimeField>() -> Option<&'static str> {
    let minus_one = F::ZERO - F::ONE;
    FIELDS
        .iter()
        .find(|(_, p_minus_1)| parse_hex::<F>(p_minus_1) == Some(minus_one))
        .map(|&(name, _)| name)
}

/// The permutation as a [`Relation`] (module docs).
impl<F: Poseidon2Field> Relation for Poseidon2<F> {
    type Input = Vec<F>;
    type Output = Vec<F>;
    /// The whole state (an iterated permutation).
    type State = Vec<F>;

    /// `poseidon2-<field>-t<t>` (`-plonky3` for that convention); a field that is not one of
    /// the reference fields is named by its modulus size, `p<bits>`.
    fn name(&self) -> String {
        let field = field_name::<F>().map_or_else(|| format!("p{}", F::MODULUS_BITS), String::from);
        let convention = match self.params().convention() {
            Convention::HorizenLabs => "",
            Convention::Plonky3 => "-plonky3",
        };
        format!("poseidon2-{field}-t{}{convention}", self.width())
    }

    /// # Panics
    /// If `input.len()` is not the width `t`.
    fn evaluate(&self, input: &Vec<F>) -> Vec<F> {
        self.permutation(input)
    }

    fn input_state(&self, input: &Vec<F>) -> Option<Vec<F>> {
        Some(input.clone())
    }

    fn output_state(&self, output: &Vec<F>) -> Option<Vec<F>> {
        Some(output.clone())
    }

    fn known_answers(&self) -> Vec<(Vec<F>, Vec<F>)> {
        let Some(field) = field_name::<F>() else {
            return Vec::new();
        };
        let t = self.width();
        let name = format!("{field}_t{t}");
        let Some((_, output)) = SEQ_KATS.iter().find(|(n, _)| *n == name) else {
            return Vec::new();
        };
        let reference = DATA
            .iter()
            .find(|d| d.name == name)
            .and_then(|d| ConstantsFile::<F>::parse(d.text));
        if reference.is_none_or(|file| file.params != *self.params()) {
            return Vec::new();
        }
        let input = (0..t as u64).map(F::from_u64).collect();
        let output = output
            .iter()
            .map(|x| parse_hex(x).expect("the known answers are canonical"))
            .collect();
        alloc::vec![(input, output)]
    }
}

//! One chain per region ([`Flock::region_chains`]): regions of unequal sizes back to back
//! (the ragged layout) and regions padded to one size with unconstrained real instances
//! between them (the padded layout). Honest proofs verify; a wrong start or end of any
//! region, a witness that runs one chain through a region boundary and a bad bit in the last
//! region's last instance are rejected; setups with unusable regions are refused; the
//! mutation harness rejects every sampled change.

use flockwork_boolean::io::{ChainStep, chain_witness};
use flockwork_boolean::{Blake3Block, Blake3Compress};
use flockwork_circuit::{BatchWitness, batch_witness};
use flockwork_r1cs::{Flock, FlockConfig, FlockError, Region, SetupError, Statement};
use flockwork_testkit::mutation::{MutationBudget, check_mutations};

fn block(i: usize) -> Blake3Block {
    Blake3Block {
        words: core::array::from_fn(|j| (i as u32).wrapping_mul(0x0101_0101) ^ j as u32),
        counter: i as u64,
        block_len: 64,
        flags: 0,
    }
}

fn setup(
    instances: usize,
    regions: &[(usize, usize)],
) -> Result<Flock<Blake3Compress>, SetupError> {
    Flock::for_count(Blake3Compress, instances, FlockConfig::default())?.region_chains(
        Blake3Compress::STATE_IN,
        Blake3Compress::STATE_OUT,
        regions
            .iter()
            .map(|&(offset, log_len)| Region { offset, log_len })
            .collect(),
    )
}

/// The witness of `instances` instances with one chain per region (from the start
/// `[a + 1; 8]`), the instances outside every region hashing zeros; and its statement.
fn regions_witness(instances: usize, regions: &[(usize, usize)]) -> (Vec<u64>, Statement) {
    let words = Blake3Compress.chain_input(&[0; 8], &block(0)).len();
    let mut inputs = vec![0u64; instances * words];
    let (mut start, mut end) = (Vec::new(), Vec::new());
    for (a, &(offset, log_len)) in regions.iter().enumerate() {
        let init = [a as u32 + 1; 8];
        let data: Vec<Blake3Block> = (offset..offset + (1 << log_len)).map(block).collect();
        let chain = chain_witness(&Blake3Compress, init, &data, false);
        inputs[offset * words..][..chain.inputs.len()].copy_from_slice(&chain.inputs);
        start.extend(Blake3Compress.state_words(&init));
        end.extend(Blake3Compress.state_words(chain.states.last().unwrap()));
    }
    (inputs, Statement::Chain { start, end })
}

fn rejected(flock: &Flock<Blake3Compress>, statement: &Statement, w: &BatchWitness, what: &str) {
    let (proof, _) = flock.prove_witness(w, statement).unwrap();
    assert!(
        matches!(
            flock.verify(statement, proof.as_bytes()),
            Err(FlockError::Opening(_) | FlockError::Zerocheck(_) | FlockError::Lincheck(_))
        ),
        "{what}"
    );
}

fn regions_at(instances: usize, regions: &[(usize, usize)]) {
    let flock = setup(instances, regions).unwrap();
    let (inputs, statement) = regions_witness(instances, regions);
    let (proof, _) = flock.prove(&inputs, &statement).unwrap();
    flock.verify(&statement, proof.as_bytes()).unwrap();
    let Statement::Chain { start, end } = &statement else {
        unreachable!()
    };
    // A wrong start or end of each region.
    for a in 0..regions.len() {
        for which in [0, 1] {
            let (mut s, mut e) = (start.clone(), end.clone());
            [&mut s, &mut e][which][4 * a + 1] ^= 1 << 7;
            let wrong = Statement::Chain { start: s, end: e };
            assert!(
                flock.verify(&wrong, proof.as_bytes()).is_err(),
                "region {a}, {}",
                ["start", "end"][which]
            );
        }
    }
    // One chain through every instance: region 1 reads region 0's last output, not its start.
    if regions.len() > 1 {
        let data: Vec<Blake3Block> = (0..instances).map(block).collect();
        let through = chain_witness(&Blake3Compress, [1; 8], &data, true);
        rejected(
            &flock,
            &statement,
            &through.witness,
            "one chain through the boundary",
        );
    }
    // A bad bit in the last region's last instance.
    let (last, log_len) = *regions.last().unwrap();
    let mut w = batch_witness(&Blake3Compress, &inputs, true);
    let words = w.block_words();
    w.z[(last + (1 << log_len) - 1) * words + words / 3] ^= 1 << 3;
    w.lanes = None;
    rejected(&flock, &statement, &w, "a bad bit in the last instance");
}

#[test]
fn ragged_and_padded_regions_prove_one_chain_each() {
    // Ragged: widths 2, 1, 0 back to back (7 instances in 8 blocks).
    regions_at(7, &[(0, 2), (4, 1), (6, 0)]);
    // Padded: widths 1 and 2 each in a block of 4 instances.
    regions_at(8, &[(0, 1), (4, 2)]);
    // One region: a plain chain of 4 under the region claim.
    regions_at(4, &[(0, 2)]);
}

#[test]
fn unusable_regions_are_refused() {
    for (n, regions) in [
        (8, &[][..]),
        (8, &[(2, 2)][..]),
        (8, &[(4, 1), (0, 1)][..]),
        (8, &[(0, 2), (2, 1)][..]),
        (6, &[(0, 2), (4, 2)][..]),
        (8, &[(0, 4)][..]),
    ] {
        assert!(
            matches!(setup(n, regions), Err(SetupError::ChainLayout(_))),
            "{regions:?} in {n}"
        );
    }
    // Fewer instances after the regions were set.
    let flock = setup(8, &[(0, 2), (4, 2)]).unwrap();
    assert!(flock.with_instances(7).is_err());
}

#[test]
fn region_chain_proofs_reject_sampled_mutations() {
    let regions = [(0, 1), (2, 0)];
    let flock = setup(3, &regions).unwrap();
    let (inputs, statement) = regions_witness(3, &regions);
    let (proof, _) = flock.prove(&inputs, &statement).unwrap();
    let budget = MutationBudget {
        exhaustive_limit: 16_000,
        truncation_limit: 1000,
        seed: 0x0072_6567_696f,
    };
    check_mutations("flock/region-chains", proof.as_bytes(), budget, |bytes| {
        flock.verify(&statement, bytes)
    });
}

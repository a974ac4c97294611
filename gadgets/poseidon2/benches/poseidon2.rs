//! Poseidon2 side by side: flockwork-poseidon2 (const-generic and runtime paths, batch API)
//! against zkhash 0.2.0 (the HorizenLabs reference) and taceo-poseidon2 0.3.1 on every
//! shared instance, and against p3-poseidon2 0.9.0-rc.2 (`p3-goldilocks`, `p3-baby-bear`,
//! portable build: no `target-cpu`, so Plonky3's scalar path) on the Plonky3-convention
//! instances. Every iteration permutes a fresh random state made outside the timed
//! region (`iter_batched`), so there is no loop-carried dependency.
//!
//! Run: `cargo bench -p flockwork-poseidon2 --bench poseidon2` (filters: `goldilocks`, `plonky3`, `bn254`, …).
//! Batch rows report time per call of `N` states; their throughput line is states/s.
//! Goldilocks batches of 8 and 16 run the AVX-512 kernel where the CPU has it (16 is its
//! widest interleaving); smaller batches run the interleaved scalar kernel.

use std::hint::black_box;
use std::sync::Arc;

use ark_ff_04::PrimeField as Ark04PrimeField;
use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main,
};
use flockwork_field::Field;
use flockwork_field::PrimeField;
use flockwork_field_prime::{BabyBearArk, Bn254Fr, Goldilocks};
use flockwork_poseidon2::{Poseidon2, Poseidon2Field, Poseidon2Fixed, instances, plonky3};
use flockwork_testkit::{random_vec, rng};
use p3_symmetric::Permutation as P3Permutation;
use rand_chacha::ChaCha20Rng;
use zkhash::poseidon2::poseidon2::Poseidon2 as ZkPoseidon2;
use zkhash::poseidon2::poseidon2_params::Poseidon2Params as ZkParams;
use zkhash::poseidon2::{
    poseidon2_instance_bls12 as zk_bls, poseidon2_instance_bn256 as zk_bn,
    poseidon2_instance_goldilocks as zk_gold,
};

type Group<'a> = BenchmarkGroup<'a, WallTime>;

fn to_zk<F: Field, Z: Ark04PrimeField>(x: &F) -> Z {
    let mut bytes = vec![0u8; F::NUM_BYTES];
    x.write_bytes(&mut bytes);
    Z::from_le_bytes_mod_order(&bytes)
}

fn fresh<F: Field, const T: usize>(r: &mut ChaCha20Rng) -> [F; T] {
    random_vec(r, T).try_into().expect("T elements")
}

/// flockwork's const-generic and runtime paths.
fn bench_ours<F: Poseidon2Field, const T: usize, const RP: usize>(
    g: &mut Group<'_>,
    fixed: &Poseidon2Fixed<F, T, 4, RP>,
    runtime: &Poseidon2<F>,
) {
    let mut r = rng("ours");
    g.bench_function("flockwork fixed", |b| {
        b.iter_batched(
            || fresh::<F, T>(&mut r),
            |s| black_box(fixed.permutation(s)),
            BatchSize::SmallInput,
        )
    });
    g.bench_function("flockwork runtime", |b| {
        b.iter_batched(
            || fresh::<F, T>(&mut r).to_vec(),
            |mut s| {
                runtime.permute(&mut s);
                black_box(s)
            },
            BatchSize::SmallInput,
        )
    });
}

/// zkhash's reference permutation.
fn bench_zkhash<F: Field, Z: Ark04PrimeField, const T: usize>(
    g: &mut Group<'_>,
    params: &Arc<ZkParams<Z>>,
) {
    let theirs = ZkPoseidon2::new(params);
    let mut r = rng("zkhash");
    g.bench_function("zkhash", |b| {
        b.iter_batched(
            || fresh::<F, T>(&mut r).iter().map(to_zk).collect::<Vec<Z>>(),
            |s| black_box(theirs.permutation(&s)),
            BatchSize::SmallInput,
        )
    });
}

/// taceo-poseidon2's BN254 permutation.
fn bench_taceo<const T: usize>(
    g: &mut Group<'_>,
    perm: fn(&[ark_bn254::Fr; T]) -> [ark_bn254::Fr; T],
) {
    let mut r = rng("taceo");
    g.bench_function("taceo", |b| {
        b.iter_batched(
            || fresh::<Bn254Fr, T>(&mut r).map(Bn254Fr::into_inner),
            |s| black_box(perm(&s)),
            BatchSize::SmallInput,
        )
    });
}

/// The batch API: `N` states per call; criterion reports time per call, so divide by `N`
/// (the group's throughput is set to elements = states).
fn bench_batch<F: Poseidon2Field, const T: usize, const RP: usize, const N: usize>(
    g: &mut Group<'_>,
    fixed: &Poseidon2Fixed<F, T, 4, RP>,
) {
    let mut r = rng("batch");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function(format!("flockwork batch x{N}"), |b| {
        b.iter_batched(
            || core::array::from_fn::<[F; T], N, _>(|_| fresh::<F, T>(&mut r)),
            |mut s| {
                fixed.permute_batch(&mut s);
                black_box(s)
            },
            BatchSize::SmallInput,
        )
    });
    g.throughput(Throughput::Elements(1));
}

fn bn254(c: &mut Criterion) {
    let mut g = c.benchmark_group("bn254 t3");
    bench_ours(&mut g, instances::bn254_t3_fixed(), instances::bn254_t3());
    bench_zkhash::<Bn254Fr, _, 3>(&mut g, &zk_bn::POSEIDON2_BN256_PARAMS);
    bench_taceo(&mut g, taceo_poseidon2::bn254::t3::permutation);
    g.finish();
    macro_rules! taceo_only {
        ($name:literal, $fixed:ident, $runtime:ident, $taceo:ident) => {
            let mut g = c.benchmark_group($name);
            bench_ours(&mut g, instances::$fixed(), instances::$runtime());
            bench_taceo(&mut g, taceo_poseidon2::bn254::$taceo::permutation);
            g.finish();
        };
    }
    taceo_only!("bn254 t2", bn254_t2_fixed, bn254_t2, t2);
    taceo_only!("bn254 t4", bn254_t4_fixed, bn254_t4, t4);
    taceo_only!("bn254 t8", bn254_t8_fixed, bn254_t8, t8);
    taceo_only!("bn254 t12", bn254_t12_fixed, bn254_t12, t12);
    taceo_only!("bn254 t16", bn254_t16_fixed, bn254_t16, t16);
}

fn bls12_381(c: &mut Criterion) {
    let mut g = c.benchmark_group("bls12_381 t3");
    bench_ours(
        &mut g,
        instances::bls12_381_t3_fixed(),
        instances::bls12_381_t3(),
    );
    bench_zkhash::<flockwork_field_prime::Bls12_381Fr, _, 3>(
        &mut g,
        &zk_bls::POSEIDON2_BLS_3_PARAMS,
    );
    g.finish();
    let mut g = c.benchmark_group("bls12_381 t8");
    bench_ours(
        &mut g,
        instances::bls12_381_t8_fixed(),
        instances::bls12_381_t8(),
    );
    bench_zkhash::<flockwork_field_prime::Bls12_381Fr, _, 8>(
        &mut g,
        &zk_bls::POSEIDON2_BLS_8_PARAMS,
    );
    g.finish();
}

fn goldilocks(c: &mut Criterion) {
    macro_rules! gl {
        ($name:literal, $fixed:ident, $runtime:ident, $zk:ident, $t:literal) => {
            let mut g = c.benchmark_group($name);
            bench_ours(&mut g, instances::$fixed(), instances::$runtime());
            bench_zkhash::<Goldilocks, _, $t>(&mut g, &zk_gold::$zk);
            bench_batch::<_, $t, 22, 2>(&mut g, instances::$fixed());
            bench_batch::<_, $t, 22, 4>(&mut g, instances::$fixed());
            bench_batch::<_, $t, 22, 8>(&mut g, instances::$fixed());
            bench_batch::<_, $t, 22, 16>(&mut g, instances::$fixed());
            g.finish();
        };
    }
    gl!(
        "goldilocks t8",
        goldilocks_t8_fixed,
        goldilocks_t8,
        POSEIDON2_GOLDILOCKS_8_PARAMS,
        8
    );
    gl!(
        "goldilocks t12",
        goldilocks_t12_fixed,
        goldilocks_t12,
        POSEIDON2_GOLDILOCKS_12_PARAMS,
        12
    );
    gl!(
        "goldilocks t16",
        goldilocks_t16_fixed,
        goldilocks_t16,
        POSEIDON2_GOLDILOCKS_16_PARAMS,
        16
    );
    gl!(
        "goldilocks t20",
        goldilocks_t20_fixed,
        goldilocks_t20,
        POSEIDON2_GOLDILOCKS_20_PARAMS,
        20
    );
}

/// p3-poseidon2's permutation of the same instance (`to_p3` converts a fresh state outside
/// the timed region).
fn bench_p3<F: Field, Q: Copy, P: P3Permutation<[Q; T]>, const T: usize>(
    g: &mut Group<'_>,
    perm: &P,
    to_p3: fn(&F) -> Q,
) {
    let mut r = rng("p3");
    g.bench_function("p3-poseidon2", |b| {
        b.iter_batched(
            || fresh::<F, T>(&mut r).each_ref().map(to_p3),
            |s| black_box(perm.permute(s)),
            BatchSize::SmallInput,
        )
    });
}

fn gl_to_p3(x: &Goldilocks) -> p3_goldilocks::Goldilocks {
    p3_goldilocks::Goldilocks::new(x.to_u64())
}

fn bb_to_p3(x: &BabyBearArk) -> p3_baby_bear::BabyBear {
    let v = x.to_canonical_limbs().as_ref()[0];
    p3_baby_bear::BabyBear::new(u32::try_from(v).expect("31-bit"))
}

fn plonky3_convention(c: &mut Criterion) {
    macro_rules! gl {
        ($name:literal, $fixed:ident, $runtime:ident, $p3:expr, $t:literal) => {
            let mut g = c.benchmark_group($name);
            bench_ours(&mut g, plonky3::$fixed(), plonky3::$runtime());
            bench_p3::<Goldilocks, _, _, $t>(&mut g, &$p3, gl_to_p3);
            bench_batch::<_, $t, 22, 4>(&mut g, plonky3::$fixed());
            bench_batch::<_, $t, 22, 16>(&mut g, plonky3::$fixed());
            g.finish();
        };
    }
    gl!(
        "plonky3 goldilocks t8",
        goldilocks_t8_fixed,
        goldilocks_t8,
        p3_goldilocks::default_goldilocks_poseidon2_8(),
        8
    );
    gl!(
        "plonky3 goldilocks t12",
        goldilocks_t12_fixed,
        goldilocks_t12,
        p3_goldilocks::default_goldilocks_poseidon2_12(),
        12
    );
    gl!(
        "plonky3 goldilocks t16",
        goldilocks_t16_fixed,
        goldilocks_t16,
        p3_goldilocks::default_goldilocks_poseidon2_16(),
        16
    );
    let mut g = c.benchmark_group("plonky3 babybear t16");
    bench_ours(
        &mut g,
        plonky3::babybear_t16_fixed(),
        plonky3::babybear_t16(),
    );
    bench_p3::<BabyBearArk, _, _, 16>(
        &mut g,
        &p3_baby_bear::default_babybear_poseidon2_16(),
        bb_to_p3,
    );
    g.finish();
    let mut g = c.benchmark_group("plonky3 babybear t24");
    bench_ours(
        &mut g,
        plonky3::babybear_t24_fixed(),
        plonky3::babybear_t24(),
    );
    bench_p3::<BabyBearArk, _, _, 24>(
        &mut g,
        &p3_baby_bear::default_babybear_poseidon2_24(),
        bb_to_p3,
    );
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(700))
        .measurement_time(std::time::Duration::from_secs(2))
}

criterion_group! { name = benches; config = config(); targets = bn254, bls12_381, goldilocks, plonky3_convention }
criterion_main!(benches);

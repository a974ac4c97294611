//! Every engine on one relation: the batchers that can prove a [`Relation`], listed at run
//! time, each proving the same [`Statement`] — the comparison the framework exists for.
//!
//! A relation is [`Provable`] by one registration line, [`provable!`](crate::provable),
//! naming the engines its encodings reach (the shipped relations' lines are the facade's
//! `registry` module; an author writes theirs in their own crate). [`batchers_for`] asks it
//! for the batchers at a count, commitment choice and transcript ([`Choices`]); each engine's
//! batchers are the engine crate's own, generic over the encoding, the commitment and the
//! transcript, and this module only picks the transcript and the commitments the choices name:
//!
//! | engine | encoding | batchers | statements |
//! |---|---|---|---|
//! | [`circuit()`] | [`CircuitEncoding`] | batch-R1CS ragged (exactly `N` instances), independent and padded (the regions of `N`'s binary digits, [`flockwork_core::regions`]), each over each commitment scheme ([`flockwork_r1cs::relation_batchers`]) | public IO, committed IO; a chain and a Merkle tree (ragged) where the encoding declares them |
//! | [`compiled()`] | [`CircuitEncoding`], compiled into Boolean layers ([`CompiledLayers`](flockwork_circuit::layers::CompiledLayers)) | as `boolean_layers`, named `[compiled]` (with [`Choices::compiled`]) | public IO, committed IO |
//! | [`boolean_layers()`] | [`BooleanLayeredEncoding`] | the independent, padded and ragged GKR walks on the Boolean layers; for committed IO each over each commitment scheme (ring-switched) ([`flockwork_gkr::BooleanBatcher`]) | public IO, committed IO |
//! | [`layered()`] | [`LayeredEncoding`] over a [`GkrField`] | the independent, padded and ragged GKR walks over the encoding's field; for committed IO each over each commitment scheme the field has (BN254: FRI, as BaseFold) ([`flockwork_gkr::LayeredBatcher`]) | public IO, committed IO |
//!
//! A batcher whose setup cannot be built for the count or the choice is listed as
//! [`Unavailable`] with its reason ([`listing`]); [`batchers_for`] leaves those out.
//!
//! [`compare`] proves the public-IO statement with each, [`compare_statement`] any statement
//! (a chain, [`Statement::chain`]; a Merkle tree, [`Statement::merkle`]) with each batcher
//! that supports its IO, [`compare_committed`] the committed statement each batcher makes
//! ([`Batcher::commit`]); all verify every proof and return one row per batcher.
//!
//! ## Committed statements
//!
//! [`Io::Committed`](flockwork_core::relation::Io::Committed) carries a batcher's own
//! commitment to the instances' inputs and outputs. Batch-R1CS commits to its batch witness,
//! which holds every instance's input and output vector
//! ([`Flock::commit`](flockwork_r1cs::Flock::commit)), and a proof of the setup without IO
//! must carry exactly that commitment
//! ([`Flock::verify_committed`](flockwork_r1cs::Flock::verify_committed)). GKR commits to every region's inputs and
//! outputs in one polynomial, draws the output points after the commitment and proves the
//! walk's terminal claims and the output claims by one opening
//! ([`Setup::prove_io`](flockwork_gkr::Setup::prove_io); module docs of
//! [`flockwork_gkr::opening`]); on Keccak-f's Boolean layers it commits the bits of every
//! input and output state through ring-switching and proves the output claims and the
//! walk's terminal claims, each reduced to one evaluation per region, by one opening
//! ([`flockwork_gkr::BooleanGkr::prove_io`]; module docs of [`flockwork_gkr::boolean`]).
//! A statement's outputs are the relation's native evaluation ([`Statement::public`]), and a
//! statement with any other output is rejected by every batcher (tests), so a verified proof
//! checks the engine against the relation.
//!
//! ## The GKR public-IO statement
//!
//! A GKR walk proves claims on the multilinear extensions of a region's outputs. For public
//! inputs and outputs the harness hands both to the engine ([`flockwork_gkr::Statement::public`],
//! region by region), which derives the claims, prover and verifier alike: the walk's
//! transcript absorbs the relation, the batcher, the widths and every region's input and
//! output digests before it draws one point per region, and the claim's values are the
//! outputs' multilinear extensions at that point (module docs of
//! [`flockwork_gkr::statement`]). A wrong output changes the points and the values, and is
//! accepted with probability at most `w/|E|` for a region of `2^w` instances
//! (Schwartz–Zippel over `E = GF(2^256)`; counted in the batcher's soundness).

use std::time::{Duration, Instant};

use flockwork_circuit::CircuitEncoding;
use flockwork_core::layered::LayeredRelation;
use flockwork_core::relation::{
    BatchError, Batcher, BooleanLayeredEncoding, IoKind, LayeredEncoding, Relation, Statement,
    Unavailable,
};

mod compiled;
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::{Ghash128, Ghash256};
use flockwork_field_prime::Bn254Fr;
use flockwork_gkr::relation_batchers::batcher_name as gkr_batcher_name;
use flockwork_gkr::{BooleanBatcher, LayeredBatcher, Variant};
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_pcs::{BaseFold, Commitment, PcsKind, Profile};
use flockwork_r1cs::FlockConfig;
use flockwork_r1cs::relation_batchers::{
    batcher as r1cs_batcher, batcher_name as r1cs_batcher_name, shipped,
};
use flockwork_transcript::{TranscriptKind, TranscriptScheme};

/// A proof system: the engine a batcher runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum System {
    /// Batch-R1CS (Flock) over a circuit encoding.
    BatchR1cs,
    /// Layered GKR over a layered or Boolean layered encoding.
    Gkr,
}

impl System {
    /// Both systems.
    pub const ALL: [Self; 2] = [Self::BatchR1cs, Self::Gkr];

    /// `"r1cs"` or `"gkr"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::BatchR1cs => "r1cs",
            Self::Gkr => "gkr",
        }
    }
}

/// What [`batchers_for`] offers.
#[derive(Clone, Debug, PartialEq)]
pub struct Choices {
    /// The proof systems listed.
    pub systems: Vec<System>,
    /// The security target of every commitment.
    pub target_bits: u32,
    /// The Fiat–Shamir transcript of every batcher.
    pub transcript: TranscriptKind,
    /// The commitment schemes of batch-R1CS.
    pub schemes: Vec<PcsKind>,
    /// The batching strategies of both systems (independent, padded, ragged).
    pub variants: Vec<Variant>,
    /// Whether a relation registered with the `compiled` engine ([`compiled()`]) lists the
    /// Boolean GKR on its circuit compiled into Boolean layers. Off by default: the Boolean
    /// GKR's proofs send each layer's whole state, so a compiled hash's proof is tens of
    /// megabytes and minutes to verify (a SHA-256 compression: ~35 MB per region).
    pub compiled: bool,
}

impl Default for Choices {
    /// Both systems, 100 bits, SHA-256, every scheme and every strategy; no compiled
    /// layers.
    fn default() -> Self {
        Self {
            systems: System::ALL.to_vec(),
            target_bits: 100,
            transcript: TranscriptKind::default(),
            schemes: PcsKind::ALL.to_vec(),
            variants: vec![Variant::Independent, Variant::Padded, Variant::Ragged],
            compiled: false,
        }
    }
}

/// A relation that lists the batchers its encodings allow.
pub trait Provable: Relation + Sized + 'static {
    /// Every batcher its encodings allow for `count` instances with `choices`: those that
    /// can prove, and those whose setup could not be built, as [`Unavailable`] batchers with
    /// their reasons ([`Batcher::unavailable`]); empty for no instances.
    fn batchers(&self, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<Self>>>;
}

/// Every batcher that can prove `count` instances of `relation` with `choices` (the
/// [`listing`] without the unavailable ones).
#[must_use]
pub fn batchers_for<R: Provable>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>> {
    listing(relation, count, choices)
        .into_iter()
        .filter(|b| b.unavailable().is_none())
        .collect()
}

/// Every batcher `relation`'s encodings allow for `count` instances with `choices`, those
/// whose setup could not be built included ([`Unavailable`], [`Batcher::unavailable`] says
/// why): what a comparison shows, one row each.
#[must_use]
pub fn listing<R: Provable>(
    relation: &R,
    count: usize,
    choices: &Choices,
) -> Vec<Box<dyn Batcher<R>>> {
    relation.batchers(count, choices)
}

/// One batcher's result in [`compare`].
#[derive(Clone, Debug)]
pub struct Row {
    /// The batcher.
    pub name: String,
    /// Why it did not prove and verify the statement: its setup could not be built
    /// ([`Unavailable`]), its prover refused, or its proof was rejected (a bug, or a false
    /// statement). `None` for a proof that verified; the times and sizes are zero otherwise.
    pub failure: Option<String>,
    /// Prover time.
    pub prove: Duration,
    /// Verifier time.
    pub verify: Duration,
    /// Proof bytes.
    pub proof_bytes: usize,
    /// The setup's soundness.
    pub soundness_bits: f64,
}

/// Proves the public-IO statement of `inputs` (outputs evaluated natively) with every
/// batcher [`batchers_for`] lists, verifies each proof, and returns one row per batcher.
///
/// # Errors
/// The first batcher that refuses or whose proof is rejected (a bug), named.
pub fn compare<R: Provable>(
    relation: &R,
    inputs: Vec<R::Input>,
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    let statement = Statement::public(relation, inputs.clone());
    compare_statement(relation, &inputs, &statement, choices)
}

/// Proves `statement` about `inputs` (a public-IO statement, [`Statement::public`], a
/// chain, [`Statement::chain`], or a Merkle tree, [`Statement::merkle`]) with every batcher
/// the [`listing`] has for its kind of IO, verifies each proof, and returns one row per
/// batcher: a batcher that could not be set up, refuses or is rejected (a false statement,
/// or a bug) is a row with its reason ([`Row::failure`]); the others still run. A committed
/// statement belongs to the batcher that made its commitment: [`compare_committed`] makes one
/// per batcher.
///
/// # Errors
/// [`BatchError::Unsupported`] for a committed statement.
pub fn compare_statement<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    statement: &Statement<R>,
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    compare_statement_with(relation, inputs, statement, choices, Vec::new())
}

/// [`compare_statement`] with `extra` batchers beside the listed ones — batchers defined
/// outside the engines (a strategy of the user's, [`Batcher`] implemented in their crate) or
/// engine batchers over a commitment scheme of the user's
/// ([`flockwork_gkr::LayeredBatcher::committed`] takes any
/// [`ConfiguredCommitment`]); their rows follow the listed ones.
///
/// # Errors
/// As [`compare_statement`].
pub fn compare_statement_with<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    statement: &Statement<R>,
    choices: &Choices,
    extra: Vec<Box<dyn Batcher<R>>>,
) -> Result<Vec<Row>, BatchError> {
    if statement.kind() == IoKind::Committed {
        return Err(BatchError::Unsupported(
            "a committed statement is one batcher's (compare_committed makes one per batcher)"
                .into(),
        ));
    }
    Ok(listing(relation, statement.count(), choices)
        .into_iter()
        .chain(extra)
        .filter(|b| b.supports(statement.kind()))
        .map(|b| row(b.as_ref(), inputs, statement))
        .collect())
}

/// Commits to `inputs` and their outputs with every batcher the [`listing`] has for
/// committed statements ([`Batcher::commit`]), proves each one's [`Statement::committed`],
/// verifies it, and returns one row per batcher (the prover's time excludes the commitment,
/// the statement's maker's work); a batcher that could not be set up, refuses or is rejected
/// is a row with its reason ([`Row::failure`]).
///
/// # Errors
/// None today; the `Result` is [`compare_statement`]'s shape.
pub fn compare_committed<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    choices: &Choices,
) -> Result<Vec<Row>, BatchError> {
    compare_committed_with(relation, inputs, choices, Vec::new())
}

/// [`compare_committed`] with `extra` batchers beside the listed ones (as
/// [`compare_statement_with`]): each commits with its own scheme and proves its own
/// committed statement.
///
/// # Errors
/// As [`compare_committed`].
pub fn compare_committed_with<R: Provable>(
    relation: &R,
    inputs: &[R::Input],
    choices: &Choices,
    extra: Vec<Box<dyn Batcher<R>>>,
) -> Result<Vec<Row>, BatchError> {
    Ok(listing(relation, inputs.len(), choices)
        .into_iter()
        .chain(extra)
        .filter(|b| b.supports(IoKind::Committed))
        .map(|b| {
            if let Some(reason) = b.unavailable() {
                return failed_row(b.as_ref(), format!("unavailable: {reason}"));
            }
            match b.commit(inputs) {
                Ok(commitment) => row(
                    b.as_ref(),
                    inputs,
                    &Statement::committed(inputs.len(), commitment),
                ),
                Err(e) => failed_row(b.as_ref(), format!("commit: {e}")),
            }
        })
        .collect())
}

/// Proves and verifies `statement` with one batcher, timed; a batcher that is unavailable,
/// refuses or is rejected is a row with its reason ([`Row::failure`]).
fn row<R: Relation>(b: &dyn Batcher<R>, inputs: &[R::Input], statement: &Statement<R>) -> Row {
    if let Some(reason) = b.unavailable() {
        return failed_row(b, format!("unavailable: {reason}"));
    }
    match measure(b, inputs, statement, 1) {
        Ok(m) => Row {
            name: b.name(),
            failure: None,
            prove: m.prove,
            verify: m.verify,
            proof_bytes: m.proof.len(),
            soundness_bits: b.soundness_bits(),
        },
        Err(e) => failed_row(b, e.to_string()),
    }
}

/// The row of a batcher that did not prove and verify, with the reason.
fn failed_row<R: Relation>(b: &dyn Batcher<R>, failure: String) -> Row {
    Row {
        name: b.name(),
        failure: Some(failure),
        prove: Duration::ZERO,
        verify: Duration::ZERO,
        proof_bytes: 0,
        soundness_bits: b.soundness_bits(),
    }
}

/// What [`measure`] found: the best of the measured runs and the median.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The least prover time.
    pub prove: Duration,
    /// The median prover time.
    pub prove_median: Duration,
    /// The least verifier time (every run's proof is verified).
    pub verify: Duration,
    /// The proof of the fastest run.
    pub proof: Vec<u8>,
}

/// Proves `statement` about `inputs` with `batcher` `reps` times (after one unmeasured
/// warm-up when `reps > 1`), verifying every proof.
///
/// # Errors
/// The batcher's refusal or rejection, named; [`BatchError::Unsupported`] for `reps = 0`.
pub fn measure<R: Relation>(
    batcher: &dyn Batcher<R>,
    inputs: &[R::Input],
    statement: &Statement<R>,
    reps: usize,
) -> Result<Measurement, BatchError> {
    if reps == 0 {
        return Err(BatchError::Unsupported("no measured run".into()));
    }
    let named = |e: BatchError| BatchError::Prove(format!("{}: {e}", batcher.name()));
    let warm_up = usize::from(reps > 1);
    let mut runs = Vec::with_capacity(reps);
    for _ in 0..warm_up + reps {
        let clock = Instant::now();
        let proof = batcher.prove(inputs, statement).map_err(named)?;
        let prove = clock.elapsed();
        let clock = Instant::now();
        batcher.verify(statement, &proof).map_err(named)?;
        runs.push((prove, clock.elapsed(), proof));
    }
    let runs = &mut runs[warm_up..];
    let verify = runs.iter().map(|r| r.1).min().unwrap_or_default();
    runs.sort_by_key(|r| r.0);
    let prove_median = runs[runs.len() / 2].0;
    let (prove, _, proof) = runs[0].clone();
    Ok(Measurement {
        prove,
        prove_median,
        verify,
        proof,
    })
}

/// The batch-R1CS batchers of `relation` for `count` instances: for each commitment scheme
/// of `choices`, each strategy ([`flockwork_r1cs::relation_batchers::batcher`]: ragged, exactly
/// `count` instances; independent and padded, the regions of `count`'s binary digits), an
/// [`Unavailable`] one with its reason where the setup cannot be built; none for no instances
/// or without batch-R1CS in `choices`.
#[must_use]
pub fn circuit<R>(relation: &R, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<R>>>
where
    R: CircuitEncoding + Clone + 'static,
{
    if count == 0 || !choices.systems.contains(&System::BatchR1cs) {
        return Vec::new();
    }
    let mut batchers = Vec::new();
    for &scheme in &choices.schemes {
        let config = FlockConfig {
            scheme,
            target_bits: choices.target_bits,
            ..FlockConfig::default()
        };
        for &variant in &choices.variants {
            let batcher = with_transcript!(choices.transcript, T => {
                r1cs_batcher::<R, _, T>(relation, count, variant, config, shipped(config))
            });
            batchers.push(batcher.unwrap_or_else(|reason| {
                let transcript = with_transcript!(choices.transcript, T => T::NAME);
                let name = r1cs_batcher_name(variant, &scheme.to_string(), transcript);
                let kinds = vec![
                    IoKind::Public,
                    IoKind::Committed,
                    IoKind::Chain,
                    IoKind::Merkle,
                ];
                unavailable(name, kinds, reason.to_string())
            }));
        }
    }
    batchers
}

/// A field the GKR batchers of a layered encoding run over: the challenge field extending it
/// and, for committed IO, the commitment each shipped scheme names over it.
pub trait GkrField: Field {
    /// The walks' challenge field (`≥ 2^{100}` elements for the default target).
    type Challenge: ExtensionField<Self> + 'static;
    /// The commitment of committed IO.
    type Pcs: ConfiguredCommitment<Self>;

    /// The commitment `scheme` over this field for `num_vars` variables reaching
    /// `target_bits`.
    ///
    /// # Errors
    /// Why there is none (a scheme not implemented over this field, a size it cannot reach).
    fn commitment(scheme: PcsKind, num_vars: usize, target_bits: u32) -> Result<Self::Pcs, String>;
}

/// GF(2^128): GF(2^256) challenges, every shipped scheme.
impl GkrField for Ghash128 {
    type Challenge = Ghash256;
    type Pcs = Commitment;

    fn commitment(
        scheme: PcsKind,
        num_vars: usize,
        target_bits: u32,
    ) -> Result<Commitment, String> {
        Commitment::select(scheme, num_vars, target_bits).map_err(|e| e.to_string())
    }
}

/// BN254's scalar field: challenges in the field itself (254 bits), FRI as BaseFold
/// (Reed–Solomon over the radix-2 domain); Ligerito and Blaze are binary-field schemes here.
impl GkrField for Bn254Fr {
    type Challenge = Bn254Fr;
    type Pcs = BaseFold<Bn254Fr, sha2::Sha256>;

    fn commitment(scheme: PcsKind, num_vars: usize, target_bits: u32) -> Result<Self::Pcs, String> {
        match scheme {
            PcsKind::Fri => {
                BaseFold::with_security(num_vars, target_bits, 1).map_err(|e| e.to_string())
            }
            other => Err(format!(
                "{other} commits binary-field polynomials only (BN254: fri, as BaseFold)"
            )),
        }
    }
}

/// The GKR batchers of `relation`'s layers for `count` instances ([`LayeredBatcher`] over
/// the encoding's field, [`GkrField`]): one per strategy for public IO, then one per
/// commitment scheme and strategy for committed IO ([`Unavailable`] with its reason for a
/// scheme that cannot commit so few values or has no commitment over the field); none for no
/// instances or without GKR in `choices`.
#[must_use]
pub fn layered<R>(relation: &R, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<R>>>
where
    R: LayeredEncoding + Clone + Sync + 'static,
    R::Base: GkrField,
{
    if count == 0 || !choices.systems.contains(&System::Gkr) {
        return Vec::new();
    }
    with_transcript!(choices.transcript, D => {
        type Layered<R, D> = LayeredBatcher<
            R,
            <<R as LayeredRelation>::Base as GkrField>::Challenge,
            D,
            <<R as LayeredRelation>::Base as GkrField>::Pcs,
        >;
        let public = choices.variants.iter().map(|&variant| {
            Box::new(Layered::<R, D>::public(relation.clone(), count, variant))
                as Box<dyn Batcher<R>>
        });
        let committed = committed_choices(choices).map(|(scheme, variant)| {
            Layered::<R, D>::committed(relation.clone(), count, variant, |vars| {
                R::Base::commitment(scheme, vars, choices.target_bits)
            })
            .map_or_else(
                |e| {
                    let name = gkr_batcher_name("", variant, Some(&scheme.to_string()), D::NAME);
                    unavailable(name, vec![IoKind::Committed], e.to_string())
                },
                |b| Box::new(b) as Box<dyn Batcher<R>>,
            )
        });
        public.chain(committed).collect()
    })
}

/// The (commitment scheme, strategy) pairs of committed-IO GKR batchers.
fn committed_choices(choices: &Choices) -> impl Iterator<Item = (PcsKind, Variant)> + '_ {
    choices.schemes.iter().flat_map(|&scheme| {
        choices
            .variants
            .iter()
            .map(move |&variant| (scheme, variant))
    })
}

/// The Boolean GKR batcher of `relation` for `count` instances with `variant`
/// ([`BooleanBatcher`]): public IO for `scheme = None`, committed IO over `scheme`
/// (ring-switched) otherwise; `None` for no instances or a scheme that cannot commit so few
/// bits. Its [`Batcher::commit`], [`Batcher::prove`], [`Batcher::verify`] and
/// [`Batcher::soundness_bits`] are the whole interface: the proof's bytes are its length,
/// and the soundness counts the walks, the opening's reductions and the commitment.
#[must_use]
pub fn boolean_gkr_batcher<R>(
    relation: &R,
    count: usize,
    variant: Variant,
    scheme: Option<PcsKind>,
    choices: &Choices,
) -> Option<Box<dyn Batcher<R>>>
where
    R: BooleanLayeredEncoding + Clone + Sync + 'static,
{
    if count == 0 {
        return None;
    }
    let listed = boolean_gkr_listed(relation, count, variant, scheme, choices);
    listed.unavailable().is_none().then_some(listed)
}

/// [`boolean_gkr_batcher`] for `count ≥ 1`, or the [`Unavailable`] batcher with its reason.
fn boolean_gkr_listed<R>(
    relation: &R,
    count: usize,
    variant: Variant,
    scheme: Option<PcsKind>,
    choices: &Choices,
) -> Box<dyn Batcher<R>>
where
    R: BooleanLayeredEncoding + Clone + Sync + 'static,
{
    with_transcript!(choices.transcript, D => {
        type Boolean<R, D> = BooleanBatcher<R, D, Commitment>;
        match scheme {
            None => Box::new(Boolean::<R, D>::public(relation.clone(), count, variant))
                as Box<dyn Batcher<R>>,
            Some(scheme) => Boolean::<R, D>::committed(relation.clone(), count, variant, |vars| {
                Commitment::for_bits(scheme, vars, choices.target_bits, &Profile::default())
            })
            .map_or_else(
                |e| {
                    let scheme = scheme.to_string();
                    let name = gkr_batcher_name("boolean ", variant, Some(&scheme), D::NAME);
                    unavailable(name, vec![IoKind::Committed], e.to_string())
                },
                |b| Box::new(b) as Box<dyn Batcher<R>>,
            ),
        }
    })
}

/// The [`Unavailable`] batcher `name` (for IO of `kinds`) with its reason.
fn unavailable<R: Relation>(
    name: String,
    kinds: Vec<IoKind>,
    reason: String,
) -> Box<dyn Batcher<R>> {
    Box::new(Unavailable {
        name,
        kinds,
        reason,
    })
}

/// The Boolean GKR batchers of `relation`'s Boolean layers for `count` instances
/// ([`BooleanBatcher`]): one per strategy for public IO, and one per commitment scheme and
/// strategy for committed IO ([`Unavailable`] with its reason for a scheme that cannot commit
/// so few bits); none for no instances or without GKR in `choices`.
#[must_use]
pub fn boolean_layers<R>(relation: &R, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<R>>>
where
    R: BooleanLayeredEncoding + Clone + Sync + 'static,
{
    if count == 0 || !choices.systems.contains(&System::Gkr) {
        return Vec::new();
    }
    let public = choices.variants.iter().map(|&variant| (None, variant));
    let committed = committed_choices(choices).map(|(scheme, variant)| (Some(scheme), variant));
    public
        .chain(committed)
        .map(|(scheme, variant)| boolean_gkr_listed(relation, count, variant, scheme, choices))
        .collect()
}

/// The Boolean GKR batchers of `relation`'s circuit compiled into Boolean layers
/// ([`CompiledLayers`](flockwork_circuit::layers::CompiledLayers): cut at AND depth one, [`flockwork_circuit::layers`]), as
/// [`boolean_layers`] lists them for the compiled layers, each named with `[compiled]`
/// ([`Retyped`](flockwork_core::relation::Retyped)). The circuit is compiled once for the listing, when a batcher first needs
/// the layers (module `compiled`): a verifier refuses a statement of another kind or bytes
/// that are not such a proof before compiling. A circuit that does not compile makes every
/// batcher [`Unavailable`] with the reason.
#[must_use]
pub fn compiled<R>(relation: &R, count: usize, choices: &Choices) -> Vec<Box<dyn Batcher<R>>>
where
    R: CircuitEncoding + Clone + 'static,
{
    if count == 0 || !choices.compiled || !choices.systems.contains(&System::Gkr) {
        return Vec::new();
    }
    compiled::Compiled::listing(relation, count, choices)
}

/// Registers a relation with the engines its encodings reach — one line in the relation's
/// own crate: `provable!(Relation: engine, …)` implements [`Provable`] for it, its batchers
/// being those of each named engine, in order:
///
/// | engine | needs | batchers |
/// |---|---|---|
/// | `circuit` | [`CircuitEncoding`] | batch-R1CS ([`circuit()`]) |
/// | `compiled` | [`CircuitEncoding`] | the Boolean GKR on the compiled circuit ([`compiled()`]) |
/// | `boolean_layers` | [`BooleanLayeredEncoding`] | the Boolean GKR on hand-written layers ([`boolean_layers()`]) |
/// | `layered` | [`LayeredEncoding`] over a [`GkrField`] | the GKR ([`layered()`]) |
///
/// ```ignore
/// flockwork::provable!(Sha1Compress: circuit, compiled);
/// ```
#[macro_export]
macro_rules! provable {
    ($relation:ty : $($engine:ident),+ $(,)?) => {
        impl $crate::engines::Provable for $relation {
            fn batchers(
                &self,
                count: usize,
                choices: &$crate::engines::Choices,
            ) -> ::std::vec::Vec<::std::boxed::Box<dyn $crate::poly::relation::Batcher<Self>>> {
                let mut batchers = ::std::vec::Vec::new();
                $(batchers.extend($crate::engines::$engine(self, count, choices));)+
                batchers
            }
        }
    };
}

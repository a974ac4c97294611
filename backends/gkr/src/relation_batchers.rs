//! The engine's batchers of a [`Relation`]: core's object-safe [`Batcher<R>`] for every
//! relation with a layered encoding ([`LayeredBatcher`], over any base field the encoding
//! declares and any challenge field extending it) or a Boolean layered encoding
//! ([`BooleanBatcher`], GF(2^128) on the bit-sliced trace), with each batching strategy
//! ([`Variant`]) and, for committed IO, any commitment scheme — the shipped ones or one defined
//! in a user's crate — so a harness lists them beside the other engines' on one
//! [`Statement<R>`].
//!
//! ## Regions
//!
//! A batcher of `N` instances splits them into the regions of `N`'s binary digits, widest
//! first ([`binary_regions`]): region `a` holds the statement's instances
//! `first_a .. first_a + 2^{w_a}`. The independent strategy proves each region by a walk of
//! its own, the padded one walks every region at the widest width, the ragged one walks them
//! together with the implicit selector ([`crate::batchers`], module docs).
//!
//! ## Statements
//!
//! - **Public IO** ([`Io::Public`]): the inputs and outputs are mapped to the first and last
//!   states (the encoding's lane or bit maps) and handed to the walk, which derives the output
//!   claims from them (the points drawn after both are absorbed: [`crate::statement`],
//!   [`crate::boolean`]). A wrong output is accepted with probability at most `w/|E|` per
//!   region (Schwartz–Zippel), counted in [`Batcher::soundness_bits`].
//! - **Committed IO** ([`Io::Committed`]): the batcher's commitment binds every region's
//!   inputs and outputs in one polynomial of the commitment scheme `P` (for Boolean layers,
//!   their bits through ring-switching, [`RingSwitched`]); the output points are drawn after
//!   it, and one opening proves the output claims and the walks' terminal claims
//!   ([`crate::opening`], [`crate::boolean`] "Committed inputs and outputs"). The soundness
//!   is the walks' and the commitment's, by the union bound.
//!
//! Chains and Merkle trees are batch-R1CS's (the shift argument over its committed witness);
//! a GKR batcher says it does not support them ([`Batcher::supports`]).

use std::fmt::Display;

use flockwork_core::relation::{
    BatchError, Batcher, BooleanLayeredEncoding, Io, IoKind, LayeredEncoding, Statement,
};
use flockwork_core::{PolynomialCommitment, Relation};
use flockwork_field::ExtensionField;
use flockwork_field_binary::Ghash128;
use flockwork_pcs::ring_switch::RingSwitched;
use flockwork_pcs::security::ConfiguredCommitment;
use flockwork_transcript::TranscriptScheme;

use crate::{BooleanGkr, BooleanStatement, Setup, Variant};

pub use flockwork_core::regions::binary_regions;

/// The batcher's name: `GKR [boolean ]<strategy> [/ <commitment>] / <transcript>`.
pub fn batcher_name(kind: &str, variant: Variant, pcs: Option<&str>, transcript: &str) -> String {
    match pcs {
        None => format!("GKR {kind}{} / {transcript}", variant.name()),
        Some(pcs) => format!("GKR {kind}{} / {pcs} / {transcript}", variant.name()),
    }
}

/// `count` instances split as `widths` says, region by region, each mapped by `lanes`.
fn regions_of<X, T>(widths: &[usize], items: &[X], lanes: impl Fn(&X) -> Vec<T>) -> Vec<Vec<T>> {
    let mut rest = items;
    widths
        .iter()
        .map(|&w| {
            let (region, tail) = rest.split_at(1 << w);
            rest = tail;
            region.iter().flat_map(&lanes).collect()
        })
        .collect()
}

/// Fails unless a statement about `count` instances fits a setup of `setup_count`.
fn check_count(count: usize, setup_count: usize) -> Result<(), BatchError> {
    if count == setup_count {
        Ok(())
    } else {
        Err(BatchError::Unsupported(format!(
            "{count} instances; this setup proves {setup_count}"
        )))
    }
}

/// The commitment `bytes` as the scheme's commitment value.
fn parse_commitment<F, P>(pcs: &P, bytes: &[u8]) -> Result<P::Commitment, BatchError>
where
    F: flockwork_field::Field,
    P: PolynomialCommitment<F> + ?Sized,
{
    pcs.commitment_from_bytes(bytes).ok_or_else(|| {
        BatchError::Rejected(format!(
            "the statement's commitment is not a commitment of this scheme ({} bytes, {} \
             expected)",
            bytes.len(),
            pcs.commitment_len()
        ))
    })
}

/// The commitment a prover makes again from its inputs (`commit`) with its prover data,
/// refused unless it is the statement's `commitment`.
fn remade_commitment<C: AsRef<[u8]>, D, E: Display>(
    commitment: &[u8],
    commit: impl FnOnce() -> Result<(C, D), E>,
) -> Result<(C, D), BatchError> {
    let (made, data) = commit().map_err(|e| BatchError::Prove(e.to_string()))?;
    if made.as_ref() != commitment {
        return Err(BatchError::Prove(
            "the inputs are not the ones the statement's commitment binds".into(),
        ));
    }
    Ok((made, data))
}

fn prove_error(e: impl Display) -> BatchError {
    BatchError::Prove(e.to_string())
}

fn rejected(e: impl Display) -> BatchError {
    BatchError::Rejected(e.to_string())
}

/// What a relation batcher asks of an engine's setup — the layered [`Setup`] or the Boolean
/// [`BooleanGkr`] — with the commitment `P` of committed statements as the setup takes it, so
/// one [`Batcher`] implementation serves both. Counts are checked by the caller.
trait Walks<R: Relation, P> {
    /// The instances the setup proves.
    fn instances(&self) -> usize;
    /// `−log2 ε` of a proof with `variant`, public IO (`pcs = None`) or committed.
    fn soundness(&self, variant: Variant, pcs: Option<&P>) -> f64;
    /// Proves that `inputs` give `outputs` (as the statement states them), the witness being
    /// `witness`.
    fn prove_public(
        &self,
        variant: Variant,
        witness: &[R::Input],
        inputs: &[R::Input],
        outputs: &[R::Output],
    ) -> Result<Vec<u8>, BatchError>;
    /// Verifies a public-IO proof.
    fn verify_public(
        &self,
        variant: Variant,
        inputs: &[R::Input],
        outputs: &[R::Output],
        proof: &[u8],
    ) -> Result<(), BatchError>;
    /// The commitment bytes of `inputs` and their outputs.
    fn commit(&self, pcs: &P, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError>;
    /// Proves the committed statement `commitment` about `inputs`.
    fn prove_committed(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &[u8],
        inputs: &[R::Input],
    ) -> Result<Vec<u8>, BatchError>;
    /// Verifies a committed-IO proof.
    fn verify_committed(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &[u8],
        proof: &[u8],
    ) -> Result<(), BatchError>;
}

/// One GKR batching strategy over an engine's setup `S` (module docs): public-IO statements
/// without a commitment, committed statements with one (`P`, as the setup takes it).
/// [`LayeredBatcher`] and [`BooleanBatcher`] name its two instances.
pub struct RelationBatcher<S, P> {
    setup: S,
    variant: Variant,
    pcs: Option<P>,
    name: String,
}

/// A GKR batching strategy over a layered encoding ([`Setup`]): `R::Base` is the encoding's
/// field, `E` the challenge field extending it, `D` the transcript, `P` the commitment of
/// committed statements ([`LayeredBatcher::public`]: none; [`LayeredBatcher::committed`]:
/// `pcs`, a commitment to every region's inputs and outputs, [`Setup::prove_io`]).
pub type LayeredBatcher<R, E, D, P> = RelationBatcher<Setup<R, E, D>, P>;

/// GKR over GF(2^128) on a Boolean layered encoding ([`BooleanGkr`]) with one batching
/// strategy, proving public-IO statements ([`BooleanBatcher::public`]) or, with a
/// ring-switched commitment `P` to the bits of every input and output state, committed
/// statements ([`BooleanBatcher::committed`], [`BooleanGkr::prove_io`]).
pub type BooleanBatcher<R, D, P> = RelationBatcher<BooleanGkr<R, D>, RingSwitched<P>>;

impl<R, E, D, P> LayeredBatcher<R, E, D, P>
where
    R: LayeredEncoding + Clone + Sync + 'static,
    E: ExtensionField<R::Base> + 'static,
    D: TranscriptScheme,
    P: ConfiguredCommitment<R::Base>,
{
    /// The public-IO batcher of `count ≥ 1` instances with `variant` (regions of `count`'s
    /// binary digits).
    ///
    /// # Panics
    /// For `count = 0`.
    #[must_use]
    pub fn public(relation: R, count: usize, variant: Variant) -> Self {
        assert!(count > 0, "a batcher of no instances");
        Self {
            setup: Setup::new(relation, binary_regions(count)),
            variant,
            pcs: None,
            name: batcher_name("", variant, None, D::NAME),
        }
    }

    /// The committed-IO batcher of `count ≥ 1` instances with `variant`, its commitment made
    /// by `pcs` from the number of variables of the inputs' and outputs' polynomial
    /// ([`Setup::io_layout`]); `Err` with `pcs`'s reason if it has none of that size.
    ///
    /// # Errors
    /// `pcs`'s error, as a reason for the harness's row.
    ///
    /// # Panics
    /// For `count = 0`.
    pub fn committed<X: Display>(
        relation: R,
        count: usize,
        variant: Variant,
        pcs: impl FnOnce(usize) -> Result<P, X>,
    ) -> Result<Self, BatchError> {
        assert!(count > 0, "a batcher of no instances");
        let setup = Setup::<R, E, D>::new(relation, binary_regions(count));
        let pcs = pcs(setup.io_layout().num_vars())
            .map_err(|e| BatchError::Unsupported(e.to_string()))?;
        let name = batcher_name("", variant, Some(pcs.name()), D::NAME);
        Ok(Self {
            setup,
            variant,
            pcs: Some(pcs),
            name,
        })
    }
}

impl<R, E, D> Setup<R, E, D>
where
    R: LayeredEncoding + Clone + Sync + 'static,
    E: ExtensionField<R::Base> + 'static,
    D: TranscriptScheme,
{
    /// The instances' input rows, region by region (`t · 2^w` elements each).
    fn input_regions(&self, inputs: &[R::Input]) -> Vec<Vec<R::Base>> {
        let relation = self.relation();
        regions_of(self.widths(), inputs, |x| relation.input_lanes(x))
    }

    /// The walk's statement for public inputs and outputs.
    fn public_statement(
        &self,
        inputs: &[R::Input],
        outputs: &[R::Output],
    ) -> Result<crate::Statement<R::Base>, BatchError> {
        let relation = self.relation();
        let outputs = regions_of(self.widths(), outputs, |y| relation.output_lanes(y));
        crate::Statement::public(relation, &self.input_regions(inputs), &outputs)
            .map_err(|e| BatchError::Unsupported(e.to_string()))
    }
}

impl<R, E, D, P> Walks<R, P> for Setup<R, E, D>
where
    R: LayeredEncoding + Clone + Sync + 'static,
    E: ExtensionField<R::Base> + 'static,
    D: TranscriptScheme,
    P: ConfiguredCommitment<R::Base>,
{
    fn instances(&self) -> usize {
        self.widths().iter().map(|&w| 1usize << w).sum()
    }

    fn soundness(&self, variant: Variant, pcs: Option<&P>) -> f64 {
        match pcs {
            None => self.soundness_bits(variant),
            Some(pcs) => self.io_soundness_bits(variant, pcs.security_report().bits()),
        }
    }

    fn prove_public(
        &self,
        variant: Variant,
        witness: &[R::Input],
        inputs: &[R::Input],
        outputs: &[R::Output],
    ) -> Result<Vec<u8>, BatchError> {
        let st = self.public_statement(inputs, outputs)?;
        self.prove(variant, &self.input_regions(witness), &st)
            .map_err(prove_error)
    }

    fn verify_public(
        &self,
        variant: Variant,
        inputs: &[R::Input],
        outputs: &[R::Output],
        proof: &[u8],
    ) -> Result<(), BatchError> {
        let st = self.public_statement(inputs, outputs)?;
        self.verify(variant, &st, proof).map_err(rejected)
    }

    fn commit(&self, pcs: &P, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        let (commitment, _) = self
            .commit_io(pcs, &self.input_regions(inputs))
            .map_err(prove_error)?;
        Ok(commitment.as_ref().to_vec())
    }

    fn prove_committed(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &[u8],
        inputs: &[R::Input],
    ) -> Result<Vec<u8>, BatchError> {
        let regions = self.input_regions(inputs);
        let (made, data) = remade_commitment(commitment, || self.commit_io(pcs, &regions))?;
        self.prove_io(variant, pcs, &made, &data, &regions)
            .map_err(prove_error)
    }

    fn verify_committed(
        &self,
        variant: Variant,
        pcs: &P,
        commitment: &[u8],
        proof: &[u8],
    ) -> Result<(), BatchError> {
        let commitment = parse_commitment(pcs, commitment)?;
        self.verify_io(variant, pcs, &commitment, proof)
            .map_err(rejected)
    }
}

impl<R, D, P> BooleanBatcher<R, D, P>
where
    R: BooleanLayeredEncoding + Sync + 'static,
    D: TranscriptScheme,
    P: ConfiguredCommitment<Ghash128>,
{
    /// The public-IO batcher of `count ≥ 1` instances with `variant`.
    ///
    /// # Panics
    /// For `count = 0`.
    #[must_use]
    pub fn public(relation: R, count: usize, variant: Variant) -> Self {
        assert!(count > 0, "a batcher of no instances");
        Self {
            setup: BooleanGkr::new(relation, binary_regions(count)),
            variant,
            pcs: None,
            name: batcher_name("boolean ", variant, None, D::NAME),
        }
    }

    /// The committed-IO batcher of `count ≥ 1` instances with `variant`, its dense
    /// commitment made by `pcs` from the number of variables of the IO bits' polynomial
    /// ([`BooleanGkr::io_bit_vars`]) and ring-switched.
    ///
    /// # Errors
    /// `pcs`'s error, as a reason for the harness's row.
    ///
    /// # Panics
    /// For `count = 0`.
    pub fn committed<X: Display>(
        relation: R,
        count: usize,
        variant: Variant,
        pcs: impl FnOnce(usize) -> Result<P, X>,
    ) -> Result<Self, BatchError> {
        assert!(count > 0, "a batcher of no instances");
        let setup = BooleanGkr::<R, D>::new(relation, binary_regions(count));
        let pcs = pcs(setup.io_bit_vars()).map_err(|e| BatchError::Unsupported(e.to_string()))?;
        let name = batcher_name("boolean ", variant, Some(pcs.name()), D::NAME);
        Ok(Self {
            setup,
            variant,
            pcs: Some(RingSwitched::new(pcs)),
            name,
        })
    }
}

impl<R, D> BooleanGkr<R, D>
where
    R: BooleanLayeredEncoding + Sync + 'static,
    D: TranscriptScheme,
{
    /// The instances' input states, instance after instance.
    fn input_words(&self, inputs: &[R::Input]) -> Vec<u64> {
        let relation = self.relation();
        inputs.iter().flat_map(|x| relation.input_bits(x)).collect()
    }

    /// The walk's statement: every input and output state, instance after instance.
    fn public_statement(&self, inputs: &[R::Input], outputs: &[R::Output]) -> BooleanStatement {
        let relation = self.relation();
        BooleanStatement {
            inputs: self.input_words(inputs),
            outputs: outputs
                .iter()
                .flat_map(|y| relation.output_bits(y))
                .collect(),
        }
    }
}

impl<R, D, P> Walks<R, RingSwitched<P>> for BooleanGkr<R, D>
where
    R: BooleanLayeredEncoding + Sync + 'static,
    D: TranscriptScheme,
    P: ConfiguredCommitment<Ghash128>,
{
    fn instances(&self) -> usize {
        self.count()
    }

    fn soundness(&self, variant: Variant, pcs: Option<&RingSwitched<P>>) -> f64 {
        match pcs {
            None => self.soundness_bits(variant),
            Some(pcs) => self.io_soundness_bits(variant, pcs.inner().security_report().bits()),
        }
    }

    fn prove_public(
        &self,
        variant: Variant,
        witness: &[R::Input],
        inputs: &[R::Input],
        outputs: &[R::Output],
    ) -> Result<Vec<u8>, BatchError> {
        let mut st = self.public_statement(inputs, outputs);
        // The witness is the inputs given, whatever the statement says they are.
        st.inputs = self.input_words(witness);
        self.prove(variant, &st).map_err(prove_error)
    }

    fn verify_public(
        &self,
        variant: Variant,
        inputs: &[R::Input],
        outputs: &[R::Output],
        proof: &[u8],
    ) -> Result<(), BatchError> {
        let st = self.public_statement(inputs, outputs);
        self.verify(variant, &st, proof).map_err(rejected)
    }

    fn commit(&self, pcs: &RingSwitched<P>, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        let (commitment, _) = self
            .commit_io(pcs, &self.input_words(inputs))
            .map_err(prove_error)?;
        Ok(commitment.as_ref().to_vec())
    }

    fn prove_committed(
        &self,
        variant: Variant,
        pcs: &RingSwitched<P>,
        commitment: &[u8],
        inputs: &[R::Input],
    ) -> Result<Vec<u8>, BatchError> {
        let words = self.input_words(inputs);
        let (made, data) = remade_commitment(commitment, || self.commit_io(pcs, &words))?;
        self.prove_io(variant, pcs, &made, &data, &words)
            .map_err(prove_error)
    }

    fn verify_committed(
        &self,
        variant: Variant,
        pcs: &RingSwitched<P>,
        commitment: &[u8],
        proof: &[u8],
    ) -> Result<(), BatchError> {
        let commitment = parse_commitment(pcs, commitment)?;
        self.verify_io(variant, pcs, &commitment, proof)
            .map_err(rejected)
    }
}

/// A public statement's inputs and outputs.
type PublicIo<'a, R> = (&'a [<R as Relation>::Input], &'a [<R as Relation>::Output]);

impl<S, P> RelationBatcher<S, P> {
    /// The commitment of a committed statement about `count` instances (`None`: the batcher
    /// proves public IO only).
    fn committed_pcs<R: Relation>(&self, count: usize) -> Result<&P, BatchError>
    where
        S: Walks<R, P>,
    {
        let pcs = self.pcs.as_ref().ok_or_else(|| {
            BatchError::Unsupported(format!("{} proves public-IO statements", self.name))
        })?;
        check_count(count, self.setup.instances())?;
        Ok(pcs)
    }

    /// A public statement's inputs and outputs, checked against the setup's count.
    fn public_io<'a, R: Relation>(
        &self,
        statement: &'a Statement<R>,
    ) -> Result<PublicIo<'a, R>, BatchError>
    where
        S: Walks<R, P>,
    {
        let (None, Io::Public { inputs, outputs }) = (&self.pcs, &statement.io) else {
            return Err(BatchError::Unsupported(format!(
                "{} does not prove {:?} statements",
                self.name,
                statement.kind()
            )));
        };
        check_count(inputs.len(), self.setup.instances())?;
        check_count(outputs.len(), self.setup.instances())?;
        Ok((inputs, outputs))
    }
}

impl<R, S, P> Batcher<R> for RelationBatcher<S, P>
where
    R: Relation,
    S: Walks<R, P> + Send + Sync,
    P: Send + Sync,
{
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        match self.pcs {
            None => io == IoKind::Public,
            Some(_) => io == IoKind::Committed,
        }
    }

    fn soundness_bits(&self) -> f64 {
        self.setup.soundness(self.variant, self.pcs.as_ref())
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        let pcs = self.committed_pcs(inputs.len())?;
        self.setup.commit(pcs, inputs)
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        if let Io::Committed { count, commitment } = &statement.io {
            let pcs = self.committed_pcs(*count)?;
            check_count(inputs.len(), *count)?;
            return self
                .setup
                .prove_committed(self.variant, pcs, commitment, inputs);
        }
        let (stated_inputs, outputs) = self.public_io(statement)?;
        check_count(inputs.len(), self.setup.instances())?;
        self.setup
            .prove_public(self.variant, inputs, stated_inputs, outputs)
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        if let Io::Committed { count, commitment } = &statement.io {
            let pcs = self.committed_pcs(*count)?;
            return self
                .setup
                .verify_committed(self.variant, pcs, commitment, proof);
        }
        let (inputs, outputs) = self.public_io(statement)?;
        self.setup
            .verify_public(self.variant, inputs, outputs, proof)
    }
}

#[cfg(test)]
mod tests {
    use super::binary_regions;

    #[test]
    fn regions_are_the_binary_digits_widest_first() {
        assert_eq!(binary_regions(1000), vec![9, 8, 7, 6, 5, 3]);
        assert_eq!(binary_regions(1), vec![0]);
        assert_eq!(binary_regions(8), vec![3]);
        assert_eq!(binary_regions(usize::MAX).len(), usize::BITS as usize);
        assert!(binary_regions(0).is_empty());
    }
}

//! The public statement of a batch: per region its width, its input layer `S_0` (held in the
//! clear, or known by a commitment) and its outputs `S_L`, every instance's, in the clear.
//!
//! **What a statement says.** "Region `a`'s `2^{w_a}` instances, whose inputs are these (or
//! are committed as this), give under the relation these outputs — every instance of every
//! region." A [`Statement`] holds per region a [`CommittedLayer`] (the inputs mapped to
//! `S_0 = input_map(input)`, or a digest bound to a commitment) and an [`OutputLayer`] (the
//! stated outputs `S_L`), each with a digest that the walk's transcript absorbs.
//!
//! **Two ways to hold the inputs.** By default the committed layer is held in the clear
//! ([`CommittedLayer`]: the `t` columns of `S_0` of the region, with a SHA-256 digest that
//! stands in for a commitment root), and a verifier discharges the walk's terminal claims on
//! `S_0` by evaluating the columns' multilinear extensions directly
//! ([`CommittedLayer::evaluate`], `O(t · 2^w)` base products). On the layer-0 PCS path
//! ([`crate::opening`]) the layer is known by a digest bound to a polynomial commitment only
//! ([`CommittedLayer::by_commitment`], [`crate::Setup::committed_statement`]) and the
//! terminal claims are proved by its opening.
//!
//! **Output claims are derived, never stated.** A GKR walk starts from one claim per region:
//! the multilinear extension of lane `i` of the region's outputs (over its `w` variables, bit
//! `k` of the row index = variable `k`) takes the value `v_{a,i}` at a point `z_a ∈ E^w`.
//! Neither the point nor the values are part of a statement or of a proof: the walk's
//! Fiat–Shamir transcript, whose instance names the relation, the batcher and the widths,
//! absorbs every region's input digest and output digest, then squeezes the points `z_a`, and
//! both sides compute `v_a = Ŝ_{L,a}(z_a)` from the stated outputs ([`OutputLayer::evaluate`];
//! [`crate::batchers`], "Proof format"). If the stated outputs of region `a` differ from the
//! relation's outputs of its inputs, the difference of their multilinear extensions is a
//! nonzero polynomial of `w_a` variables, zero at the drawn `z_a` with probability at most
//! `w_a/|E|` (Schwartz–Zippel); otherwise the walk starts from a false claim and fails
//! ([`crate::Setup::soundness_bits`] counts both). The point is drawn after the digests are
//! fixed, so a prover cannot choose it: a claim at a point of its choice (`0…0` covers
//! instance 0 alone) is a proof for another transcript, which the verifier rejects.

use std::sync::Arc;

use flockwork_core::eq_table;
use flockwork_core::layered::LayeredRelation;
use flockwork_field::par::{self, ROW_CHUNK};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::{Ghash128, TowerWire128};
use sha2::{Digest, Sha256};

use crate::GkrError;

/// Largest region width a statement accepts (`2^30` rows per region).
pub const MAX_WIDTH: usize = 30;

/// The committed layer `S_0` of one region, column by column, and its digest (module docs:
/// a stand-in for a polynomial commitment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommittedLayer<F> {
    width: usize,
    columns: Vec<Vec<F>>,
    digest: [u8; 32],
}

impl<F: Field> CommittedLayer<F> {
    /// Commits to `S_0 = input_map(input)` of the instances `inputs` (`2^width` rows of `t`
    /// lanes, row after row).
    ///
    /// # Panics
    /// If `inputs.len() != t · 2^width` or `width > MAX_WIDTH`.
    #[must_use]
    pub fn from_inputs<R: LayeredRelation<Base = F>>(
        relation: &R,
        width: usize,
        inputs: &[F],
    ) -> Self {
        let t = relation.lanes();
        assert!(width <= MAX_WIDTH, "region too wide");
        assert_eq!(
            inputs.len(),
            t << width,
            "inputs must have t · 2^width entries"
        );
        let mut columns = empty_columns(t, width);
        let mut row = vec![F::ZERO; t];
        for input in inputs.chunks_exact(t) {
            row.copy_from_slice(input);
            relation.apply_input(&mut row);
            for (c, &v) in columns.iter_mut().zip(&row) {
                c.push(v);
            }
        }
        Self::from_columns(width, columns)
    }

    /// Commits to given columns (`t` columns of `2^width` entries).
    ///
    /// # Panics
    /// If a column does not have `2^width` entries or `width > MAX_WIDTH`.
    #[must_use]
    pub fn from_columns(width: usize, columns: Vec<Vec<F>>) -> Self {
        let digest = columns_digest(b"flockwork/gkr/committed-layer/v1", width, &columns);
        Self {
            width,
            columns,
            digest,
        }
    }

    /// A layer known by its digest only, without columns: the layer-0 PCS path
    /// ([`crate::opening`]), where `digest` is bound to a polynomial commitment and terminal
    /// claims are proved by an opening. [`crate::Setup::discharge`] refuses such a layer.
    ///
    /// # Panics
    /// If `width > MAX_WIDTH`.
    #[must_use]
    pub fn by_commitment(width: usize, digest: [u8; 32]) -> Self {
        assert!(width <= MAX_WIDTH, "region too wide");
        Self {
            width,
            columns: Vec::new(),
            digest,
        }
    }

    /// Whether the layer holds its columns (false for [`CommittedLayer::by_commitment`]).
    #[must_use]
    pub fn holds_columns(&self) -> bool {
        !self.columns.is_empty()
    }

    /// The same layer with every entry mapped by `f`, the digest recomputed over the mapped
    /// entries' canonical bytes. For a map that keeps the encoding (GHASH → tower wire
    /// format, [`Statement::to_tower`]) the digest is unchanged. A layer without columns
    /// keeps its digest.
    #[must_use]
    pub fn map_field<G: Field>(&self, f: impl Fn(F) -> G) -> CommittedLayer<G> {
        if !self.holds_columns() {
            return CommittedLayer::by_commitment(self.width, self.digest);
        }
        let columns = self
            .columns
            .iter()
            .map(|c| c.iter().map(|&v| f(v)).collect())
            .collect();
        CommittedLayer::from_columns(self.width, columns)
    }

    /// `w`: the region has `2^w` rows.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The columns (lane `i` = `columns()[i]`).
    #[must_use]
    pub fn columns(&self) -> &[Vec<F>] {
        &self.columns
    }

    /// The digest standing in for a commitment root.
    #[must_use]
    pub fn digest(&self) -> &[u8; 32] {
        &self.digest
    }

    /// The multilinear extension of every column at `point` (`w` coordinates), by direct
    /// evaluation: `eq` split into a low table (written in `F`-coordinates of `E`, so the
    /// inner sums are `F` inner products, SIMD for GF(2^128)) and a high table.
    ///
    /// Returns `None` if `point.len() != w`.
    #[must_use]
    pub fn evaluate<E: ExtensionField<F>>(&self, point: &[E]) -> Option<Vec<E>> {
        if point.len() != self.width {
            return None;
        }
        Some(evaluate_columns(&self.columns, point))
    }
}

/// The multilinear extensions of `columns` (each `2^n` entries, `n = point.len()`) at
/// `point`: `eq` split into a low table, written in `F`-coordinates of `E` so the inner sums
/// are `F` inner products (SIMD for GF(2^128)), and a high table.
///
/// # Panics
/// If a column does not have `2^n` entries.
#[must_use]
pub fn evaluate_columns<F: Field, E: ExtensionField<F>>(columns: &[Vec<F>], point: &[E]) -> Vec<E> {
    let n = point.len();
    assert!(
        columns.iter().all(|c| c.len() == 1 << n),
        "columns have 2^n entries"
    );
    let lo_vars = n.div_ceil(2);
    let eq_lo = eq_table(&point[..lo_vars]);
    let eq_hi = eq_table(&point[lo_vars..]);
    let block = eq_lo.len();
    let mut coords = vec![vec![F::ZERO; block]; E::DEGREE];
    let mut c = vec![F::ZERO; E::DEGREE];
    for (x, e) in eq_lo.iter().enumerate() {
        e.to_base_coeffs(&mut c);
        for (d, &v) in coords.iter_mut().zip(&c) {
            d[x] = v;
        }
    }
    columns
        .iter()
        .map(|col| {
            col.chunks_exact(block)
                .zip(&eq_hi)
                .map(|(seg, &h)| {
                    let inner: Vec<F> = coords.iter().map(|d| F::inner_product(d, seg)).collect();
                    h * E::from_base_coeffs(&inner)
                })
                .sum()
        })
        .collect()
}

/// The stated outputs `S_L` of one region, column by column, and their digest
/// `SHA-256("flockwork/gkr/output-layer/v1" ‖ u64le(w) ‖ u64le(t) ‖ the columns' canonical
/// bytes)`, which the walk's transcript absorbs before it draws the region's output point
/// ([module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputLayer<F> {
    width: usize,
    columns: Vec<Vec<F>>,
    digest: [u8; 32],
}

impl<F: Field> OutputLayer<F> {
    /// The outputs `rows` of `2^width` instances of `lanes` lanes, row after row.
    ///
    /// # Errors
    /// [`GkrError::Statement`] if `rows` is not `lanes · 2^width` values, `lanes` is 0 or
    /// `width > MAX_WIDTH`.
    pub fn from_rows(lanes: usize, width: usize, rows: &[F]) -> Result<Self, GkrError> {
        if lanes == 0 || width > MAX_WIDTH || rows.len() != lanes << width {
            return Err(GkrError::Statement(
                "outputs must have t · 2^w values per region",
            ));
        }
        let mut columns = empty_columns(lanes, width);
        for row in rows.chunks_exact(lanes) {
            for (c, &v) in columns.iter_mut().zip(row) {
                c.push(v);
            }
        }
        Ok(Self::from_columns(width, columns))
    }

    /// The outputs as columns (`t` columns of `2^width` entries).
    ///
    /// # Panics
    /// If a column does not have `2^width` entries or `width > MAX_WIDTH`.
    #[must_use]
    pub fn from_columns(width: usize, columns: Vec<Vec<F>>) -> Self {
        let digest = columns_digest(b"flockwork/gkr/output-layer/v1", width, &columns);
        Self {
            width,
            columns,
            digest,
        }
    }

    /// `w`: the region has `2^w` instances.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The columns (lane `i` = `columns()[i]`).
    #[must_use]
    pub fn columns(&self) -> &[Vec<F>] {
        &self.columns
    }

    /// The outputs row after row (`t` lanes per instance), as [`OutputLayer::from_rows`]
    /// takes them.
    #[must_use]
    pub fn rows(&self) -> Vec<F> {
        let rows = 1usize << self.width;
        (0..rows)
            .flat_map(|r| self.columns.iter().map(move |c| c[r]))
            .collect()
    }

    /// The digest the walk's transcript absorbs.
    #[must_use]
    pub fn digest(&self) -> &[u8; 32] {
        &self.digest
    }

    /// The same outputs with every entry mapped by `f`, the digest recomputed (unchanged for
    /// a map that keeps the encoding, as [`CommittedLayer::map_field`]).
    #[must_use]
    pub fn map_field<G: Field>(&self, f: impl Fn(F) -> G) -> OutputLayer<G> {
        let columns = self
            .columns
            .iter()
            .map(|c| c.iter().map(|&v| f(v)).collect())
            .collect();
        OutputLayer::from_columns(self.width, columns)
    }

    /// The multilinear extension of every column at `point` (`w` coordinates): the output
    /// claim's values at a point the transcript drew ([`evaluate_columns`]).
    ///
    /// Returns `None` if `point.len() != w`.
    #[must_use]
    pub fn evaluate<E: ExtensionField<F>>(&self, point: &[E]) -> Option<Vec<E>> {
        if point.len() != self.width {
            return None;
        }
        Some(evaluate_columns(&self.columns, point))
    }
}

/// `SHA-256(domain ‖ u64le(width) ‖ u64le(#columns) ‖ every column's canonical bytes)`.
///
/// # Panics
/// If a column does not have `2^width` entries or `width > MAX_WIDTH`.
fn columns_digest<F: Field>(domain: &[u8], width: usize, columns: &[Vec<F>]) -> [u8; 32] {
    assert!(width <= MAX_WIDTH, "region too wide");
    assert!(
        columns.iter().all(|c| c.len() == 1 << width),
        "every column has 2^width entries"
    );
    let mut h = Sha256::new();
    h.update(domain);
    h.update((width as u64).to_le_bytes());
    h.update((columns.len() as u64).to_le_bytes());
    let mut buf = vec![0u8; F::NUM_BYTES * 1024];
    for c in columns {
        for chunk in c.chunks(1024) {
            let bytes = &mut buf[..chunk.len() * F::NUM_BYTES];
            for (v, out) in chunk.iter().zip(bytes.chunks_exact_mut(F::NUM_BYTES)) {
                v.write_bytes(out);
            }
            h.update(&*bytes);
        }
    }
    h.finalize().into()
}

/// One region of a statement: its committed input layer and its stated outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionStatement<F> {
    /// The committed layer `S_0` (shared, not copied, between statements).
    pub committed: Arc<CommittedLayer<F>>,
    /// The stated outputs `S_L`.
    pub outputs: Arc<OutputLayer<F>>,
}

/// The public statement of a batch: regions in order ([module docs](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement<F> {
    /// The regions.
    pub regions: Vec<RegionStatement<F>>,
}

impl<F: Field> Statement<F> {
    /// The widths `w_a`.
    #[must_use]
    pub fn widths(&self) -> Vec<usize> {
        self.regions.iter().map(|r| r.committed.width()).collect()
    }

    /// The same statement with every input and output mapped by `f` (digests recomputed,
    /// [`CommittedLayer::map_field`], [`OutputLayer::map_field`]).
    #[must_use]
    pub fn map_field<G: Field>(&self, f: impl Fn(F) -> G) -> Statement<G> {
        let regions = self
            .regions
            .iter()
            .map(|r| RegionStatement {
                committed: Arc::new(r.committed.map_field(&f)),
                outputs: Arc::new(r.outputs.map_field(&f)),
            })
            .collect();
        Statement { regions }
    }

    /// The statement "the instances `inputs[a]` of region `a` (`t · 2^{w_a}` values each, row
    /// after row) give the outputs `outputs[a]` (as many values, row after row)", inputs in
    /// the clear. True or not: a false statement is one whose proofs are rejected.
    ///
    /// # Errors
    /// [`GkrError::Statement`] if a region's inputs are not `t · 2^w` values for a width
    /// `w ≤ MAX_WIDTH`, its outputs are not as many, or the counts of regions differ.
    pub fn public<R: LayeredRelation<Base = F>>(
        relation: &R,
        inputs: &[Vec<F>],
        outputs: &[Vec<F>],
    ) -> Result<Self, GkrError> {
        let t = relation.lanes();
        if inputs.len() != outputs.len() {
            return Err(GkrError::Statement("one output region per input region"));
        }
        inputs
            .iter()
            .zip(outputs)
            .map(|(rows, out)| {
                let width = region_width(t, rows.len())?;
                Ok(RegionStatement {
                    committed: Arc::new(CommittedLayer::from_inputs(relation, width, rows)),
                    outputs: Arc::new(OutputLayer::from_rows(t, width, out)?),
                })
            })
            .collect::<Result<_, _>>()
            .map(|regions| Self { regions })
    }

    /// The true statement about the instances `inputs[a]` of region `a` (`t · 2^{w_a}` values
    /// each, row after row), inputs in the clear: the outputs computed natively.
    ///
    /// # Panics
    /// If some `inputs[a]` is not `t · 2^w` values for a width `w ≤ MAX_WIDTH`.
    #[must_use]
    pub fn of_inputs<R: LayeredRelation<Base = F> + Sync>(relation: &R, inputs: &[Vec<F>]) -> Self {
        let t = relation.lanes();
        let regions = inputs
            .iter()
            .map(|rows| {
                let width = region_width(t, rows.len()).expect("t · 2^w inputs per region");
                let layer = CommittedLayer::from_inputs(relation, width, rows);
                let outputs =
                    OutputLayer::from_columns(width, output_columns(relation, layer.columns()));
                RegionStatement {
                    committed: Arc::new(layer),
                    outputs: Arc::new(outputs),
                }
            })
            .collect();
        Self { regions }
    }

    /// The statement "the instances whose input layers are known by `digests[a]` (bound to a
    /// polynomial commitment, [`crate::opening`]) give the outputs `outputs[a]`" (`t · 2^{w_a}`
    /// values each, row after row; the width is the outputs'). [`crate::Setup::committed_statement`]
    /// derives the digests from a commitment.
    ///
    /// # Errors
    /// [`GkrError::Statement`] if a region's outputs are not `t · 2^w` values for a width
    /// `w ≤ MAX_WIDTH`, or the counts of regions differ.
    pub fn committed(
        lanes: usize,
        digests: &[[u8; 32]],
        outputs: &[Vec<F>],
    ) -> Result<Self, GkrError> {
        if digests.len() != outputs.len() {
            return Err(GkrError::Statement(
                "one output region per committed region",
            ));
        }
        digests
            .iter()
            .zip(outputs)
            .map(|(&digest, out)| {
                let width = region_width(lanes, out.len())?;
                Ok(RegionStatement {
                    committed: Arc::new(CommittedLayer::by_commitment(width, digest)),
                    outputs: Arc::new(OutputLayer::from_rows(lanes, width, out)?),
                })
            })
            .collect::<Result<_, _>>()
            .map(|regions| Self { regions })
    }

    /// The stated outputs of every region, row after row (as [`Statement::public`] takes
    /// them).
    #[must_use]
    pub fn outputs(&self) -> Vec<Vec<F>> {
        self.regions.iter().map(|r| r.outputs.rows()).collect()
    }
}

/// The outputs of the relation on the instances `inputs[a]` of every region (`t · 2^{w_a}`
/// values each, row after row), in the same layout: what a true statement states.
///
/// # Panics
/// If some `inputs[a]` is not a whole number of rows.
#[must_use]
pub fn evaluate_outputs<R, F>(relation: &R, inputs: &[Vec<F>]) -> Vec<Vec<F>>
where
    R: LayeredRelation<Base = F> + Sync,
    F: Field,
{
    let t = relation.lanes();
    inputs
        .iter()
        .map(|rows| {
            assert!(rows.len().is_multiple_of(t), "whole rows");
            let mut table = rows.clone();
            par::for_each_chunk(&mut table, t * ROW_CHUNK, 0, |_, chunk| {
                relation.apply_input_rows(chunk);
                for layer in 1..=relation.num_layers() {
                    relation.apply_layer_rows(layer, chunk);
                }
            });
            table
        })
        .collect()
}

/// `t` empty columns with room for `2^width` entries each (`vec![Vec::with_capacity(..); t]`
/// would clone the capacity away and grow each column by doubling).
fn empty_columns<F>(t: usize, width: usize) -> Vec<Vec<F>> {
    (0..t).map(|_| Vec::with_capacity(1 << width)).collect()
}

/// `w` with `values = t · 2^w`, `w ≤ MAX_WIDTH`.
fn region_width(t: usize, values: usize) -> Result<usize, GkrError> {
    let rows = values.checked_div(t).unwrap_or(0);
    if t == 0 || rows * t != values || !rows.is_power_of_two() || rows > 1 << MAX_WIDTH {
        return Err(GkrError::Statement("a region needs t · 2^w values, w ≤ 30"));
    }
    Ok(rows.trailing_zeros() as usize)
}

impl Statement<Ghash128> {
    /// The statement for a verifier in the tower basis: every element mapped by the
    /// isomorphism `φ⁻¹` ([`TowerWire128::from_ghash`]). The wire bytes of the mapped
    /// elements are the GHASH bytes, so the recomputed digests equal the original ones and
    /// the transcript absorbs the same statement.
    #[must_use]
    pub fn to_tower(&self) -> Statement<TowerWire128> {
        self.map_field(TowerWire128::from_ghash)
    }
}

/// The columns of the outputs `S_L` from the columns of `S_0`, computed natively.
fn output_columns<R, F>(relation: &R, columns: &[Vec<F>]) -> Vec<Vec<F>>
where
    R: LayeredRelation<Base = F> + Sync,
    F: Field,
{
    let t = relation.lanes();
    let rows = columns.first().map_or(0, Vec::len);
    let mut table = vec![F::ZERO; t * rows];
    for (r, row) in table.chunks_exact_mut(t).enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = columns[j][r];
        }
    }
    par::for_each_chunk(&mut table, t * ROW_CHUNK, 0, |_, chunk| {
        for layer in 1..=relation.num_layers() {
            relation.apply_layer_rows(layer, chunk);
        }
    });
    (0..t)
        .map(|j| table.chunks_exact(t).map(|row| row[j]).collect())
        .collect()
}

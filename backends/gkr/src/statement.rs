//! The public statement of a batch: per region its width, its committed layer `S_0` and its
//! output claim.
//!
//! **Two ways to commit.** By default the committed layer is held in the clear
//! ([`CommittedLayer`]: the `t` columns of `S_0 = input_map(input)` of the region, with a
//! SHA-256 digest that stands in for a commitment root and is absorbed into every
//! transcript), and a verifier discharges the walk's terminal claims on `S_0` by evaluating
//! the columns' multilinear extensions directly ([`CommittedLayer::evaluate`], `O(t · 2^w)`
//! base products). On the layer-0 PCS path ([`crate::opening`]) the layer is known by a digest
//! bound to a polynomial commitment only ([`CommittedLayer::by_commitment`],
//! [`Statement::honest_committed`]) and the terminal claims are proved by its opening.
//!
//! An output claim says: the multilinear extension of lane `i` of the region's outputs
//! `S_L` (over the region's `w` variables, bit `k` of the row index = variable `k`) takes the
//! value `values[i]` at `point ∈ E^w`. [`Statement::honest`] builds true claims at points
//! derived by Fiat–Shamir from the commitments.

use std::sync::Arc;

use flockwork_core::eq_table;
use flockwork_core::layered::LayeredRelation;
use flockwork_field::par::{self, ROW_CHUNK};
use flockwork_field::{ExtensionField, Field};
use flockwork_field_binary::{Ghash128, Ghash256, TowerWire128, TowerWire256};
use flockwork_transcript::{DomainSeparator, Sha256ProverTranscript, Transcript};
use sha2::{Digest, Sha256};

use crate::walk::RegionClaim;

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
        let mut columns = vec![Vec::with_capacity(1 << width); t];
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
        assert!(width <= MAX_WIDTH, "region too wide");
        assert!(
            columns.iter().all(|c| c.len() == 1 << width),
            "every column has 2^width entries"
        );
        let mut h = Sha256::new();
        h.update(b"flockwork/gkr/committed-layer/v1");
        h.update((width as u64).to_le_bytes());
        h.update((columns.len() as u64).to_le_bytes());
        let mut buf = vec![0u8; F::NUM_BYTES * 1024];
        for c in &columns {
            for chunk in c.chunks(1024) {
                let bytes = &mut buf[..chunk.len() * F::NUM_BYTES];
                for (v, out) in chunk.iter().zip(bytes.chunks_exact_mut(F::NUM_BYTES)) {
                    v.write_bytes(out);
                }
                h.update(&*bytes);
            }
        }
        Self {
            width,
            columns,
            digest: h.finalize().into(),
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

/// One region of a statement: its committed layer and its output claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionStatement<F, E> {
    /// The committed layer `S_0` (shared, not copied, between statements).
    pub committed: Arc<CommittedLayer<F>>,
    /// The claim on the region's outputs `S_L`.
    pub claim: RegionClaim<E>,
}

/// The public statement of a batch: regions in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement<F, E> {
    /// The regions.
    pub regions: Vec<RegionStatement<F, E>>,
}

impl<F: Field, E: ExtensionField<F>> Statement<F, E> {
    /// The widths `w_a`.
    #[must_use]
    pub fn widths(&self) -> Vec<usize> {
        self.regions.iter().map(|r| r.committed.width()).collect()
    }

    /// The same statement with the committed columns mapped by `f` (digests recomputed,
    /// [`CommittedLayer::map_field`]) and the claim points and values by `g`.
    #[must_use]
    pub fn map_fields<G: Field, H: ExtensionField<G>>(
        &self,
        f: impl Fn(F) -> G,
        g: impl Fn(E) -> H,
    ) -> Statement<G, H> {
        let regions = self
            .regions
            .iter()
            .map(|r| RegionStatement {
                committed: Arc::new(r.committed.map_field(&f)),
                claim: RegionClaim {
                    point: r.claim.point.iter().map(|&v| g(v)).collect(),
                    values: r.claim.values.iter().map(|&v| g(v)).collect(),
                },
            })
            .collect();
        Statement { regions }
    }

    /// A true statement about the instances `inputs[a]` of region `a` (`t · 2^w_a` values
    /// each): commits to every region's `S_0`, derives the output points by Fiat–Shamir from
    /// `seed` and the commitments (protocol `"flockwork/gkr/output-points/v1"`), and
    /// evaluates the outputs there.
    ///
    /// # Panics
    /// If some `inputs[a]` is not `t · 2^w` values for a width `w ≤ MAX_WIDTH`.
    #[must_use]
    pub fn honest<R: LayeredRelation<Base = F> + Sync>(
        relation: &R,
        inputs: &[Vec<F>],
        seed: &[u8],
    ) -> Self {
        Self::honest_with(relation, inputs, seed, |_, _| None)
    }

    /// As [`Statement::honest`], for layers committed by a polynomial commitment: region `a`
    /// holds [`CommittedLayer::by_commitment`] with `digests[a]` (no columns), and the output
    /// points are derived from those digests ([`crate::opening`] builds them from the
    /// commitment).
    ///
    /// # Panics
    /// As [`Statement::honest`], or if `digests.len() != inputs.len()`.
    #[must_use]
    pub fn honest_committed<R: LayeredRelation<Base = F> + Sync>(
        relation: &R,
        inputs: &[Vec<F>],
        digests: &[[u8; 32]],
        seed: &[u8],
    ) -> Self {
        assert_eq!(digests.len(), inputs.len(), "one digest per region");
        Self::honest_with(relation, inputs, seed, |a, layer| {
            Some(CommittedLayer::by_commitment(layer.width(), digests[a]))
        })
    }

    /// [`Statement::honest`] with region `a`'s public layer `public(a, layer)`, or `layer`
    /// itself for `None` (the outputs are computed from `layer`, which holds the columns).
    fn honest_with<R: LayeredRelation<Base = F> + Sync>(
        relation: &R,
        inputs: &[Vec<F>],
        seed: &[u8],
        public: impl Fn(usize, &CommittedLayer<F>) -> Option<CommittedLayer<F>>,
    ) -> Self {
        let t = relation.lanes();
        let layers: Vec<(CommittedLayer<F>, Option<CommittedLayer<F>>)> = inputs
            .iter()
            .enumerate()
            .map(|(a, rows)| {
                let n = rows.len() / t;
                assert!(
                    n.is_power_of_two() && n * t == rows.len(),
                    "2^w rows per region"
                );
                let layer =
                    CommittedLayer::from_inputs(relation, n.trailing_zeros() as usize, rows);
                let shown = public(a, &layer);
                (layer, shown)
            })
            .collect();
        let mut fs = Sha256ProverTranscript::new(DomainSeparator::new(
            "flockwork/gkr/output-points/v1",
            seed,
        ));
        fs.public_bytes("relation", &relation.id());
        for (layer, shown) in &layers {
            fs.public_bytes("commitment", shown.as_ref().unwrap_or(layer).digest());
        }
        let regions = layers
            .into_iter()
            .map(|(layer, shown)| {
                let point: Vec<E> = fs.challenges("point", layer.width());
                let values = output_values(relation, layer.columns(), &point);
                RegionStatement {
                    committed: Arc::new(shown.unwrap_or(layer)),
                    claim: RegionClaim { point, values },
                }
            })
            .collect();
        Self { regions }
    }
}

impl Statement<Ghash128, Ghash256> {
    /// The statement for a verifier in the tower basis: every element mapped by the
    /// isomorphism `φ⁻¹` ([`TowerWire128::from_ghash`], [`TowerWire256::from_ghash`]). The
    /// wire bytes of the mapped elements are the GHASH bytes, so the recomputed commitment
    /// digests equal the original ones and the transcript absorbs the same statement.
    #[must_use]
    pub fn to_tower(&self) -> Statement<TowerWire128, TowerWire256> {
        self.map_fields(TowerWire128::from_ghash, TowerWire256::from_ghash)
    }
}

/// The multilinear extensions of the region's outputs `S_L` at `point`, computed natively
/// from the committed layer.
fn output_values<R, F, E>(relation: &R, columns: &[Vec<F>], point: &[E]) -> Vec<E>
where
    R: LayeredRelation<Base = F> + Sync,
    F: Field,
    E: ExtensionField<F>,
{
    let t = relation.lanes();
    let rows = columns[0].len();
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
    let columns: Vec<Vec<F>> = (0..t)
        .map(|j| table.chunks_exact(t).map(|row| row[j]).collect())
        .collect();
    drop(table);
    evaluate_columns(&columns, point)
}

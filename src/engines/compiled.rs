//! The Boolean GKR batchers of a circuit compiled into Boolean layers ([`CompiledLayers`]),
//! compiled on first use.
//!
//! Compiling a circuit costs its size in time and memory (a SHA-256 compression: hundreds of
//! MiB), whatever the count. The batchers of one listing share one compilation, made when a
//! batcher first needs the layers — to commit, prove, report its soundness or say whether
//! it is available — and never for what the batcher knows without them: its name, the kinds
//! of IO it supports, and whether a proof's own header is a Boolean GKR proof of its strategy
//! and IO ([`flockwork_gkr::boolean::check_proof_header`]). So a verifier handed a file that
//! names a compiled batcher refuses a statement of another kind, or bytes that are not such a
//! proof, before compiling anything.

use std::sync::{Arc, OnceLock};

use flockwork_circuit::CircuitEncoding;
use flockwork_circuit::layers::CompiledLayers;
use flockwork_core::relation::{BatchError, Batcher, IoKind, Retyped, Statement};
use flockwork_gkr::Variant;
use flockwork_gkr::relation_batchers::batcher_name;
use flockwork_pcs::PcsKind;

use super::{Choices, boolean_gkr_listed};

/// The compilation a listing's compiled batchers share: the layers, or why the circuit does
/// not compile.
type Shared<R> = Arc<OnceLock<Result<CompiledLayers<R>, String>>>;

/// One Boolean GKR batcher of `R`'s compiled circuit (module docs).
pub(super) struct Compiled<R: CircuitEncoding + Clone + 'static> {
    relation: R,
    layers: Shared<R>,
    count: usize,
    variant: Variant,
    scheme: Option<PcsKind>,
    choices: Choices,
    name: String,
    inner: OnceLock<Result<Box<dyn Batcher<R>>, String>>,
}

impl<R: CircuitEncoding + Clone + 'static> Compiled<R> {
    /// The batchers [`boolean_layers`](super::boolean_layers) lists for the compiled layers,
    /// one compilation shared among them, none made yet.
    pub(super) fn listing(
        relation: &R,
        count: usize,
        choices: &Choices,
    ) -> Vec<Box<dyn Batcher<R>>> {
        let layers: Shared<R> = Arc::default();
        let public = choices.variants.iter().map(|&variant| (None, variant));
        let committed = choices.schemes.iter().flat_map(|&scheme| {
            choices
                .variants
                .iter()
                .map(move |&variant| (Some(scheme), variant))
        });
        let transcript = with_transcript!(choices.transcript, D => {
            <D as flockwork_transcript::TranscriptScheme>::NAME
        });
        public
            .chain(committed)
            .map(|(scheme, variant)| {
                let scheme_name = scheme.map(|s| s.to_string());
                let name = format!(
                    "{} [compiled]",
                    batcher_name("boolean ", variant, scheme_name.as_deref(), transcript)
                );
                Box::new(Self {
                    relation: relation.clone(),
                    layers: Arc::clone(&layers),
                    count,
                    variant,
                    scheme,
                    choices: choices.clone(),
                    name,
                    inner: OnceLock::new(),
                }) as Box<dyn Batcher<R>>
            })
            .collect()
    }

    /// The engine's batcher on the compiled layers, compiling them first if no batcher of the
    /// listing has.
    fn inner(&self) -> Result<&dyn Batcher<R>, String> {
        self.inner
            .get_or_init(|| {
                let layers = self
                    .layers
                    .get_or_init(|| {
                        CompiledLayers::new(self.relation.clone()).map_err(|e| {
                            format!("the circuit does not compile into Boolean layers: {e}")
                        })
                    })
                    .as_ref()
                    .map_err(Clone::clone)?;
                let batcher = boolean_gkr_listed(
                    layers,
                    self.count,
                    self.variant,
                    self.scheme,
                    &self.choices,
                );
                Ok(Box::new(Retyped::new(batcher, "compiled")) as Box<dyn Batcher<R>>)
            })
            .as_ref()
            .map(AsRef::as_ref)
            .map_err(Clone::clone)
    }

    fn io_code(&self) -> u8 {
        match self.scheme {
            None => flockwork_gkr::boolean::IO_PUBLIC,
            Some(_) => flockwork_gkr::boolean::IO_COMMITTED,
        }
    }
}

impl<R: CircuitEncoding + Clone + 'static> Batcher<R> for Compiled<R> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn supports(&self, io: IoKind) -> bool {
        match self.scheme {
            None => io == IoKind::Public,
            Some(_) => io == IoKind::Committed,
        }
    }

    fn soundness_bits(&self) -> f64 {
        self.inner().map_or(0.0, |b| b.soundness_bits())
    }

    fn commit(&self, inputs: &[R::Input]) -> Result<Vec<u8>, BatchError> {
        self.inner()
            .map_err(BatchError::Unsupported)?
            .commit(inputs)
    }

    fn prove(&self, inputs: &[R::Input], statement: &Statement<R>) -> Result<Vec<u8>, BatchError> {
        self.inner()
            .map_err(BatchError::Unsupported)?
            .prove(inputs, statement)
    }

    fn verify(&self, statement: &Statement<R>, proof: &[u8]) -> Result<(), BatchError> {
        // What needs no layers first: a statement of another kind, or bytes that are not a
        // Boolean GKR proof of this strategy and IO, costs no compilation.
        if !self.supports(statement.kind()) {
            return Err(BatchError::Unsupported(format!(
                "{} proves {} statements only",
                self.name,
                if self.scheme.is_none() {
                    "public-IO"
                } else {
                    "committed"
                }
            )));
        }
        flockwork_gkr::boolean::check_proof_header(proof, self.variant, self.io_code())
            .map_err(|e| BatchError::Rejected(e.to_string()))?;
        self.inner()
            .map_err(BatchError::Unsupported)?
            .verify(statement, proof)
    }

    fn unavailable(&self) -> Option<String> {
        match self.inner() {
            Ok(b) => b.unavailable(),
            Err(reason) => Some(reason),
        }
    }
}

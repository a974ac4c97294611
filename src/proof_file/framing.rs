//! The framing every file shares: the strict reader and its writer twins.
//!
//! [`Reader`] reads a file from any source as its bytes are needed and bounds every
//! allocation by the bytes the file has left: each count is checked against them before
//! anything is allocated for it, a short file is an error naming the section it ends in,
//! field elements must be canonical, and the length-prefixed proof must end the file. The
//! `push_*` functions write what it reads.

use std::io::Read;

use flockwork_field::Field;

use super::error::ProofFileError;

/// The most blocks a batch-R1CS file, and the most permutations a Boolean GKR file, may
/// describe.
pub(super) const MAX_BLOCKS: usize = 1 << 24;

/// A cursor over the file's bytes, read from any source as they are needed (the file's bytes
/// are never held whole beside what is parsed from them), that names what it was reading when
/// they ran out. `left` is the number of bytes the file has after the cursor: every count is
/// checked against it before anything is allocated for it.
pub(super) struct Reader<'a> {
    source: &'a mut dyn Read,
    left: usize,
    scratch: Vec<u8>,
}

impl<'a> Reader<'a> {
    pub(super) fn new(source: &'a mut dyn Read, len: usize) -> Self {
        Self {
            source,
            left: len,
            scratch: Vec::new(),
        }
    }

    /// Reads exactly `buf.len()` bytes, which the file is known to have.
    fn fill(&mut self, buf: &mut [u8], what: &'static str) -> Result<(), ProofFileError> {
        if self.left < buf.len() {
            return Err(ProofFileError::Truncated(what));
        }
        self.source.read_exact(buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => ProofFileError::Truncated(what),
            _ => ProofFileError::Read(e),
        })?;
        self.left -= buf.len();
        Ok(())
    }

    /// The next `n` bytes (a header field's: `n` is small or checked against `left`).
    pub(super) fn take(&mut self, n: usize, what: &'static str) -> Result<&[u8], ProofFileError> {
        if self.left < n {
            return Err(ProofFileError::Truncated(what));
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.resize(n, 0);
        let filled = self.fill(&mut scratch, what);
        self.scratch = scratch;
        filled?;
        Ok(&self.scratch[..n])
    }

    /// The next `n` bytes as a vector of their own.
    pub(super) fn take_vec(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<u8>, ProofFileError> {
        if self.left < n {
            return Err(ProofFileError::Truncated(what));
        }
        let mut bytes = vec![0; n];
        self.fill(&mut bytes, what)?;
        Ok(bytes)
    }

    /// Fails unless `n` items of `size` bytes are left (before allocating for them).
    pub(super) fn ensure(
        &self,
        n: usize,
        size: usize,
        what: &'static str,
    ) -> Result<(), ProofFileError> {
        match n.checked_mul(size) {
            Some(bytes) if bytes <= self.left => Ok(()),
            _ => Err(ProofFileError::Truncated(what)),
        }
    }

    pub(super) fn u8(&mut self, what: &'static str) -> Result<u8, ProofFileError> {
        Ok(self.take(1, what)?[0])
    }

    pub(super) fn u16(&mut self, what: &'static str) -> Result<u16, ProofFileError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub(super) fn u32(&mut self, what: &'static str) -> Result<u32, ProofFileError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes(b.try_into().expect("4 bytes")))
    }

    pub(super) fn u64(&mut self, what: &'static str) -> Result<u64, ProofFileError> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }

    pub(super) fn words(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<u64>, ProofFileError> {
        self.ensure(n, 8, what)?;
        (0..n).map(|_| self.u64(what)).collect()
    }

    /// `n` canonical field elements.
    pub(super) fn elements<F: Field>(
        &mut self,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<F>, ProofFileError> {
        self.ensure(n, F::NUM_BYTES, what)?;
        // Pushed into exact room: collecting `Result`s would grow the vector by doubling.
        let mut elements = Vec::with_capacity(n);
        for _ in 0..n {
            let element = F::read_bytes(self.take(F::NUM_BYTES, what)?).ok_or_else(|| {
                ProofFileError::Header(format!("a non-canonical field element in the {what}"))
            })?;
            elements.push(element);
        }
        Ok(elements)
    }

    /// A commitment's bytes, after their `u16` length.
    pub(super) fn commitment(&mut self) -> Result<Vec<u8>, ProofFileError> {
        let len = usize::from(self.u16("commitment")?);
        self.take_vec(len, "commitment")
    }

    /// The length-prefixed proof, then the end of the file.
    pub(super) fn proof(mut self) -> Result<Vec<u8>, ProofFileError> {
        let len = self.u64("proof length")?;
        let len = usize::try_from(len)
            .ok()
            .filter(|&l| l <= self.left)
            .ok_or(ProofFileError::Truncated("proof"))?;
        let proof = self.take_vec(len, "proof")?;
        if self.left != 0 {
            return Err(ProofFileError::TrailingBytes(self.left));
        }
        Ok(proof)
    }
}

/// A commitment's bytes after their `u16` length, as [`Reader::commitment`] reads them.
pub(super) fn push_commitment(out: &mut Vec<u8>, commitment: &[u8]) {
    out.extend_from_slice(&(commitment.len() as u16).to_le_bytes());
    out.extend_from_slice(commitment);
}

/// The length-prefixed proof, as [`Reader::proof`] reads it.
pub(super) fn push_proof(out: &mut Vec<u8>, proof: &[u8]) {
    out.extend_from_slice(&(proof.len() as u64).to_le_bytes());
    out.extend_from_slice(proof);
}

pub(super) fn push_words(out: &mut Vec<u8>, words: &[u64]) {
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

pub(super) fn push_elements<F: Field>(out: &mut Vec<u8>, elements: &[F]) {
    let mut buf = vec![0u8; F::NUM_BYTES];
    for e in elements {
        e.write_bytes(&mut buf);
        out.extend_from_slice(&buf);
    }
}

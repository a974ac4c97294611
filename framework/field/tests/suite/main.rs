//! The integration tests of `flockwork-field`, one module per topic.

mod par;
mod transpose;

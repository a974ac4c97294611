//! flockwork facade.

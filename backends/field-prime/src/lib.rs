//! field-prime (in progress).

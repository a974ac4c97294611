//! core (in progress).

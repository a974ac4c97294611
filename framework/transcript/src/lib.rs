//! transcript (in progress).

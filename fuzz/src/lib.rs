//! The bodies of flockwork's fuzz targets ([`targets`]), shared with the workspace's stable
//! smoke test.
#![allow(missing_docs)]

pub mod targets;

//! The commands as library functions: each reads its inputs, runs the
//! checks and hands back a [`Report`](crate::report::Report): what to show
//! and, through [`Report::status`](crate::report::Report::status), how to
//! exit. Nothing here prints; the binary passes the report to `report`.

pub(crate) mod audit;
pub(crate) mod check;
pub(crate) mod fmt;
pub(crate) mod import;
pub(crate) mod installed;
pub(crate) mod ledger;
pub(crate) mod plan;
pub(crate) mod recognize;
pub(crate) mod saved;
pub(crate) mod verify;

//! What `ctxguard ledger` shows a person: the model the report renders.

use crate::diagnostics::Diagnostic;
use crate::hook::ledger::{Active, Ledger, Record, State};

/// What `ctxguard ledger` shows.
#[derive(Debug)]
pub enum LedgerView {
    /// The commitments.
    List {
        /// The ledger.
        ledger: Ledger,
        /// What it holds.
        state: Box<State>,
        /// Include what no longer binds.
        all: bool,
    },
    /// One commitment and the records that name it.
    Show {
        /// The ledger.
        ledger: Ledger,
        /// Its current state.
        active: Box<Active>,
        /// Every record that names it, with its line.
        history: Vec<(u64, Record)>,
    },
    /// A record appended.
    Changed {
        /// The ledger.
        ledger: Ledger,
        /// What was done, for the person.
        said: String,
    },
    /// A trace, as JSON.
    Export(String),
    /// What went wrong, as diagnostics.
    Failed(Vec<Diagnostic>),
}

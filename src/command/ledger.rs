//! `ctxguard ledger`: a session's commitment ledger for a person: list
//! and show what is recorded, pin a commitment by hand, discharge one that
//! is done or unpin one that was wrongly taken, export the active set as a
//! ctxguard trace.

use std::path::PathBuf;

use ctxguard_core::buffer::trace::{Derived, RegionKind};
use ctxguard_core::diagnostics::{usage, Diagnostic, UsageError};
use ctxguard_core::policy::load::policy_for_use;
use ctxguard_core::source::Access;
use ctxguard_runtimes::hook::ledger::{
    self, Change, Commitment, Entry, Ledger, LedgerView, Source,
};

/// What to do with the ledger.
#[derive(Clone, Debug)]
pub enum LedgerAction {
    /// The commitments, with `all` the discharged and unpinned too.
    List {
        /// Include what no longer binds.
        all: bool,
    },
    /// One commitment, word for word, with its history.
    Show {
        /// Its id, key or id prefix.
        id: String,
    },
    /// Pin a commitment by hand.
    Pin {
        /// A kind of the policy.
        kind: String,
        /// Its key: a later pin of the key replaces it.
        key: Option<String>,
        /// The commitment.
        text: String,
    },
    /// A commitment that is done: no longer re-injected.
    Discharge {
        /// Its id, key or id prefix.
        id: String,
    },
    /// A commitment withdrawn: no longer re-injected.
    Unpin {
        /// Its id, key or id prefix.
        id: String,
    },
    /// The commitments as a ctxguard trace, on standard output.
    Export {
        /// Include what no longer binds, marked `discharged`.
        all: bool,
    },
}

/// One `ctxguard ledger` call.
#[derive(Clone, Debug)]
pub struct LedgerRequest {
    /// Where the ledgers are.
    pub dir: PathBuf,
    /// The session; `None`: the ledger written last.
    pub session: Option<String>,
    /// What to do.
    pub action: LedgerAction,
    /// The policy whose kinds a pin may name; `None`: the default.
    pub policy: Option<PathBuf>,
    /// The ledger's size cap.
    pub max_ledger_bytes: u64,
    /// What may be read.
    pub access: Access,
}

/// Carries out a `ctxguard ledger` call; the second part is warnings
/// beside it (lines of the ledger skipped).
pub fn ledger_command(
    request: &LedgerRequest,
) -> Result<(LedgerView, Vec<Diagnostic>), UsageError> {
    let ledger = find(request)?;
    let io = |error: ledger::LedgerError| match error {
        ledger::LedgerError::Full(diagnostic) => {
            Ok((LedgerView::Failed(vec![*diagnostic]), Vec::new()))
        }
        other => Err(UsageError(other.to_string())),
    };
    let state = match ledger.read() {
        Ok(state) => state,
        Err(error) => return io(error),
    };
    let problems = state.problems.clone();
    let pick = |name: &str| -> Result<ledger::Active, UsageError> {
        state.find(name).cloned().map_err(|candidates| {
            let names = candidates
                .iter()
                .map(|c| c.commitment.id.as_str())
                .collect::<Vec<_>>();
            usage::no_such_commitment(name, &ledger.name(), &ledger.session, &names)
        })
    };
    let view = match &request.action {
        LedgerAction::List { all } => LedgerView::List {
            ledger,
            state: Box::new(state),
            all: *all,
        },
        LedgerAction::Show { id } => {
            let active = pick(id)?;
            let history = match ledger.records() {
                Ok(records) => records,
                Err(error) => return io(error),
            }
            .into_iter()
            .filter(|(_, record)| match &record.entry {
                Entry::Pinned(c) | Entry::Derived(c) | Entry::Confirmed(c) => {
                    c.id == active.commitment.id
                }
                Entry::Discharged(c) | Entry::Unpinned(c) => c.id == active.commitment.id,
                _ => false,
            })
            .collect();
            LedgerView::Show {
                ledger,
                active: Box::new(active),
                history,
            }
        }
        LedgerAction::Pin { kind, key, text } => {
            let (policy, _) = match policy_for_use(request.policy.as_deref(), &request.access) {
                Ok(loaded) => loaded,
                Err(diagnostics) => return Ok((LedgerView::Failed(diagnostics), problems)),
            };
            let region_kind = if kind == "unclassified" {
                RegionKind::Unclassified
            } else if policy.kind(kind).is_some() {
                RegionKind::Commitment(kind.clone())
            } else {
                let names = policy.kinds.iter().map(|k| k.name.as_str());
                return Err(usage::no_such_kind(kind, names));
            };
            if text.trim().is_empty() {
                return Err(usage::empty_pin());
            }
            let source = Source {
                hook: Some("ledger".to_owned()),
                ..Source::default()
            };
            let commitment = Commitment::new(
                &region_kind,
                key.clone(),
                text.clone(),
                Derived::Pin,
                source,
            )
            .counted(policy.tokenizer.value);
            let said = format!(
                "pinned {} ({}) in session {}",
                commitment.id, commitment.kind, ledger.session
            );
            if let Err(error) = ledger.append(vec![Entry::Pinned(commitment)]) {
                return io(error);
            }
            LedgerView::Changed { ledger, said }
        }
        LedgerAction::Discharge { id } | LedgerAction::Unpin { id } => {
            let active = pick(id)?;
            let unpin = matches!(request.action, LedgerAction::Unpin { .. });
            let change = Change {
                id: active.commitment.id.clone(),
                by: "ledger".to_owned(),
            };
            let verb = if unpin { "unpinned" } else { "discharged" };
            if !active.is_active() {
                return Err(usage::already(&active.commitment.id, active.unpinned));
            }
            let entry = if unpin {
                Entry::Unpinned(change)
            } else {
                Entry::Discharged(change)
            };
            if let Err(error) = ledger.append(vec![entry]) {
                return io(error);
            }
            LedgerView::Changed {
                said: format!(
                    "{verb} {}: it is no longer re-injected",
                    active.commitment.id
                ),
                ledger,
            }
        }
        LedgerAction::Export { all } => {
            let trace = state.to_trace(&ledger.name(), *all);
            let mut bytes = Vec::new();
            trace
                .write_json(&mut bytes)
                .map_err(usage::cannot_write_output)?;
            LedgerView::Export(String::from_utf8_lossy(&bytes).into_owned())
        }
    };
    Ok((view, problems))
}

/// The ledger the request names, or the one written last.
fn find(request: &LedgerRequest) -> Result<Ledger, UsageError> {
    let dir = &request.dir;
    match &request.session {
        Some(session) => {
            let ledger = Ledger::new(dir, session, request.max_ledger_bytes);
            let writes = matches!(request.action, LedgerAction::Pin { .. });
            if !writes && !ledger.path.exists() {
                return Err(usage::no_session_ledger(session, dir, &known(dir)));
            }
            Ok(ledger)
        }
        None => {
            let Some(latest) = ledger::sessions(dir).into_iter().next() else {
                return Err(usage::no_ledger(dir));
            };
            let session = latest
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok(Ledger::new(dir, &session, request.max_ledger_bytes))
        }
    }
}

fn known(dir: &std::path::Path) -> String {
    let names: Vec<String> = ledger::sessions(dir)
        .iter()
        .take(5)
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    match names.is_empty() {
        true => String::new(),
        false => format!(" (recent sessions: {})", names.join(", ")),
    }
}

//! `ctxguard ledger`: a session's commitment ledger, read and changed.

use std::path::{Path, PathBuf};

use clap::{Subcommand, ValueEnum};
use ctxguard::{ledger, Access, UsageError};

use super::args::LedgerArgs;
use super::{Env, Said};

/// Read and change a session's commitment ledger.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: LedgerCommand,
    /// The session; by default the one whose ledger was written last.
    #[arg(long, global = true, value_name = "ID")]
    pub session: Option<String>,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// The policy whose kinds a pin may name.
    #[arg(long, global = true, value_name = "FILE")]
    pub policy: Option<PathBuf>,
}

impl Args {
    pub fn run(self, env: &Env) -> Result<Said, UsageError> {
        let max_ledger_bytes = self.ledger.max_bytes(env)?;
        let mut json = false;
        let action = match self.action {
            LedgerCommand::List { all, format } => {
                json = format == ListFormatArg::Json;
                ledger::Action::List { all }
            }
            LedgerCommand::Show { id } => ledger::Action::Show { id },
            LedgerCommand::Pin { kind, text, key } => ledger::Action::Pin {
                kind,
                key,
                text: text.join(" "),
            },
            LedgerCommand::Discharge { id } => ledger::Action::Discharge { id },
            LedgerCommand::Unpin { id } => ledger::Action::Unpin { id },
            LedgerCommand::Export { all } => ledger::Action::Export { all },
        };
        let request = ledger::Request {
            dir: self.ledger.dir(env).unwrap_or_else(project_ledger_dir),
            session: self.session,
            action,
            policy: self.policy,
            max_ledger_bytes,
            access: Access::default(),
        };
        let (view, problems) = ledger::run(&request)?;
        Ok(Said::Ledger {
            view,
            problems,
            json,
        })
    }
}

/// `.ctxguard/ledger` in the nearest folder up from here that has one
/// (as a relative path: `../.ctxguard/ledger`), or here.
fn project_ledger_dir() -> PathBuf {
    let depth = std::env::current_dir().map_or(0, |dir| dir.ancestors().count());
    let mut up = PathBuf::new();
    for _ in 0..depth {
        let dir = ledger::default_dir(&up);
        if dir.is_dir() {
            return dir;
        }
        up.push("..");
    }
    ledger::default_dir(Path::new(""))
}

#[derive(Subcommand)]
pub enum LedgerCommand {
    /// List the active commitments with where each came from.
    List {
        /// Also the discharged and unpinned ones.
        #[arg(long)]
        all: bool,
        /// `json`: the commitments as JSON.
        #[arg(long, value_enum, default_value_t = ListFormatArg::Human)]
        format: ListFormatArg,
    },
    /// Show one commitment word for word, with its history.
    Show {
        /// Its id (or a prefix of it), or its key.
        id: String,
    },
    /// Pin a commitment by hand: `ledger pin constraint Do not drop columns.`
    Pin {
        /// A kind of the policy.
        kind: String,
        /// The commitment (the rest of the line).
        #[arg(required = true, num_args = 1.., trailing_var_arg = true)]
        text: Vec<String>,
        /// Its key: pinning the key again replaces it.
        #[arg(long)]
        key: Option<String>,
    },
    /// Mark a commitment done: it is no longer re-injected.
    Discharge {
        /// Its id (or a prefix of it), or its key.
        id: String,
    },
    /// Withdraw a commitment taken by mistake: it is no longer re-injected.
    Unpin {
        /// Its id (or a prefix of it), or its key.
        id: String,
    },
    /// Print the commitments as a ctxguard trace (JSON).
    Export {
        /// Also the discharged and unpinned ones, marked `discharged`.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormatArg {
    Human,
    Json,
}

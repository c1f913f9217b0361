//! `ctxguard lsp`: the language server for policy files.

use ctxguard::UsageError;

use super::{Env, Said};

/// Serve the Language Server Protocol on standard input and output, for an
/// editor: `check`'s findings as you type, `fmt`, hover, go to definition,
/// completion and quick fixes in `.policy` files.
#[derive(clap::Args)]
pub struct Args {
    /// Accepted for the editors that pass it: standard input and output is
    /// the only transport.
    #[arg(long)]
    pub stdio: bool,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        ctxguard::lsp::serve()
            .map(|()| Said::Served)
            .map_err(|why| UsageError(format!("the language server stopped: {why}")))
    }
}

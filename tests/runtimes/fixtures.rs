//! The session files and ledgers real clients wrote, kept as fixtures
//! (`CTXGUARD_RUNTIMES_BLESS=1`), scrubbed of the runtimes' own text.

use std::path::Path;

use libtest_mimic::Failed;

use crate::support;

/// Keeps `transcript` (scrubbed) and `ledger` as the fixture `NAME/SCENARIO`
/// when blessing; `dir` is the folder the session ran in.
pub fn keep(
    name: &str,
    scenario: &str,
    dir: &Path,
    transcript: &Path,
    ledger: &Path,
) -> Result<(), Failed> {
    if !support::blessing() {
        return Ok(());
    }
    let ran_in = dir.to_string_lossy().into_owned();
    let dir = support::fixtures().join(name);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let text = std::fs::read_to_string(transcript).map_err(|e| e.to_string())?;
    let scrubbed = crate::scrub::transcript(&text, &ran_in, support::CTXGUARD);
    if let Some(why) = crate::scrub::clean(&scrubbed) {
        return Err(format!("the scrubbed {} is not clean: {why}", transcript.display()).into());
    }
    std::fs::write(dir.join(format!("{scenario}.jsonl")), scrubbed).map_err(|e| e.to_string())?;
    if ledger.is_file() {
        let text = std::fs::read_to_string(ledger).map_err(|e| e.to_string())?;
        std::fs::write(
            dir.join(format!("{scenario}.ledger.jsonl")),
            crate::scrub::paths(&text, &ran_in, support::CTXGUARD),
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

//! Codes of importing agent-runtime sessions: a file no importer knows, a
//! record that cannot be read, a pin of an undeclared kind, a summary the
//! runtime encrypted. Each code's explanation and the constructors of its
//! diagnostics live together here.

use std::sync::Arc;

use super::echo;
use crate::diagnostics::explain::Explanation;
use crate::diagnostics::{Code, Diagnostic};
use crate::facts::Runtime;
use crate::source::{SourceFile, Span};

// `unknown-session`

pub(crate) const UNKNOWN_SESSION: Explanation = Explanation {
    code: Code::UnknownSession,
    summary: "a file is not a session of a runtime ctxguard imports",
    details: "`ctxguard import` and `ctxguard audit` read the session files of Claude Code, Codex, pi, OpenHands and SWE-agent as those runtimes write them, and recognize each by its first records. A file none of them recognizes is not guessed at: importing it with the wrong rules would invent or hide compactions.",
    example: &[("notes.jsonl", "{\"hello\": \"world\"}\n")],
    run: "import notes.jsonl --out imported",
    fix: "Name a session file (Claude Code: `~/.claude/projects/…/SESSION.jsonl`; pi: `~/.pi/agent/sessions/…`; Codex: `~/.codex/sessions/…/rollout-….jsonl`), or say which runtime wrote it with `--from`.",
};

/// `file` is not a session any importer recognizes.
pub fn unknown_session(file: &Arc<SourceFile>) -> Diagnostic {
    let name: &str = &echo(file.name());
    let diagnostic = Diagnostic::new(
        Code::UnknownSession,
        format!("`{name}` is not a session file of Claude Code, Codex, pi, OpenHands or SWE-agent"),
    )
    .file(name);
    // A Letta export keeps the summary but not what it replaced.
    let text = file.text();
    let head = &text[..crate::source::floor_char_boundary(text, 64 << 10)];
    let letta = ["system_alert", "in_context_message_ids", "compaction_stats"]
        .iter()
        .any(|marker| head.contains(marker));
    if letta {
        diagnostic.help("this looks like a Letta agent export: it keeps the buffer after a compaction (its summary) but not the messages it evicted, so there is nothing to compare the summary with")
    } else {
        diagnostic.help(
            "name the runtime with `--from claude-code|codex|pi|openhands|swe-agent` if it is one",
        )
    }
}

/// `file` was named a session of `runtime`, whose sessions ctxguard does
/// not read.
pub fn not_read(file: &Arc<SourceFile>, runtime: Runtime) -> Diagnostic {
    let name: &str = &echo(file.name());
    Diagnostic::new(
        Code::UnknownSession,
        format!(
            "`{name}` cannot be read as a {} session: ctxguard reads the sessions of Claude Code, Codex, pi, OpenHands and SWE-agent",
            runtime.name()
        ),
    )
    .file(name)
    .help(format!(
        "{} is guarded live by its hooks (`ctxguard init {}`); audit a session of a runtime ctxguard reads",
        runtime.name(),
        runtime.arg()
    ))
}

// `session-record`

pub(crate) const SESSION_RECORD: Explanation = Explanation {
    code: Code::SessionRecord,
    summary: "a record of a session file cannot be read; the rest is imported",
    details: "Runtimes append to their session files while they run, so the last line can be cut off, and a crash or a disk error can leave a broken line in the middle. The records around it are still imported, and this warning says which line was skipped: a compaction whose records were on it may be missing from the import.",
    example: &[(
        "session.jsonl",
        "{\"type\":\"session\",\"version\":3,\"id\":\"s1\",\"cwd\":\"/repo\"}\n{\"type\":\"message\",\"id\":\"a1\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"message\",\"id\":\"a2\",\"par\n",
    )],
    run: "import session.jsonl --out imported",
    fix: "Nothing, if the runtime was still writing: import again once it is done. Otherwise the line is lost; the import says what it could read.",
};

/// A record at `span` of `file` is not JSON (`reason`); `last` when it is
/// the file's last line.
pub fn unreadable_record(
    file: &Arc<SourceFile>,
    span: Span,
    reason: &str,
    last: bool,
) -> Diagnostic {
    let name: &str = &echo(file.name());
    let line = file.line_col(span.start).0;
    let (message, help) = if last {
        (
            format!("the last line of `{name}` (line {line}) is cut off; it is skipped"),
            "the runtime was probably still writing the session: import it again when it is done",
        )
    } else {
        (
            format!("line {line} of `{name}` is not a JSON record; it is skipped"),
            "a compaction recorded on this line is missing from the import",
        )
    };
    // serde_json adds " at line 1 column C": the label is the place.
    let reason = reason
        .rsplit_once(" at line ")
        .map_or(reason, |(reason, _)| reason);
    let reason =
        crate::diagnostics::friendly_serde(reason).replace("the file ends", "the line ends");
    let reason: &str = &echo(&reason);
    Diagnostic::new(Code::SessionRecord, message)
        .label(file, span, reason.to_owned())
        .help(help)
}

// `unknown-pin-kind`

pub(crate) const UNKNOWN_PIN_KIND: Explanation = Explanation {
    code: Code::UnknownPinKind,
    summary: "a pin names a kind the policy does not declare",
    details: "A line the user typed as `pin KIND [KEY]: TEXT` tags a commitment when it is written. A pin whose kind the policy does not declare cannot be a commitment of that kind; it is imported as unclassified, which is still kept by default, and this warning says so.",
    example: &[(
        "session.jsonl",
        "{\"type\":\"session\",\"version\":3,\"id\":\"s1\",\"cwd\":\"/repo\"}\n{\"type\":\"message\",\"id\":\"a1\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"pin constrant no-drop: Do not drop columns.\"}}\n{\"type\":\"compaction\",\"id\":\"c1\",\"parentId\":\"a1\",\"summary\":\"The user asked about columns.\",\"firstKeptEntryId\":\"a1\",\"tokensBefore\":900}\n",
    )],
    run: "import session.jsonl --out imported",
    fix: "Pin with a kind the policy declares (`ctxguard explain` lists the default's: constraint, decision, identifier, value, ordering), or declare the kind in the team policy.",
};

/// Line `line` of `session` pins a commitment of undeclared kind `kind`.
pub fn unknown_pin_kind(
    session: &str,
    line: u64,
    kind: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let session: &str = &echo(session);
    let kind: &str = &echo(kind);
    let diagnostic = Diagnostic::new(
        Code::UnknownPinKind,
        format!("line {line} of `{session}` pins a `{kind}`, a kind the policy does not declare; it is imported as unclassified"),
    )
    .file(session);
    match suggestion {
        Some(name) => diagnostic.help(format!("did you mean `{name}`?")),
        None => diagnostic.help("pin with a declared kind, or declare it in the team policy"),
    }
}

// `opaque-summary`

pub(crate) const OPAQUE_SUMMARY: Explanation = Explanation {
    code: Code::OpaqueSummary,
    summary: "a compaction's summary is encrypted, so it cannot be audited",
    details: "Codex's remote compaction stores the summary as `encrypted_content` that only the provider can read. ctxguard imports the compaction, but cannot tell what the summary kept: a commitment that is not carried over verbatim counts as lost, which may be more than the summary really lost.",
    example: &[(
        "rollout.jsonl",
        "{\"timestamp\":\"2026-03-25T11:31:11Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"s1\",\"cwd\":\"/repo\"}}\n{\"timestamp\":\"2026-03-25T11:31:12Z\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"fix the build\"}]}}\n{\"timestamp\":\"2026-03-25T11:40:00Z\",\"type\":\"compacted\",\"payload\":{\"message\":\"\",\"replacement_history\":[{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"fix the build\"}]},{\"type\":\"compaction\",\"encrypted_content\":\"gAAAAB\"}]}}\n",
    )],
    run: "import rollout.jsonl --out imported",
    fix: "Turn remote compaction off (`[features] remote_compaction = false` in `.codex/config.toml`) where compactions must be auditable.",
};

/// The compaction on line `line` of `session` has an encrypted summary.
pub fn opaque_summary(session: &str, line: u64) -> Diagnostic {
    let session: &str = &echo(session);
    Diagnostic::new(
        Code::OpaqueSummary,
        format!("the compaction on line {line} of `{session}` has an encrypted summary; what it kept cannot be audited"),
    )
    .file(session)
    .help("only what was carried over verbatim can be checked; commitments not carried over count as lost")
}

pub(crate) const ALL: &[&Explanation] = &[
    &UNKNOWN_SESSION,
    &SESSION_RECORD,
    &UNKNOWN_PIN_KIND,
    &OPAQUE_SUMMARY,
];

//! Codes of live guarding: a hook input that is not what the runtime
//! sends, a ledger line that cannot be read, a ledger at its size cap.
//! Each code's explanation and the constructors of its diagnostics live
//! together here.

use super::echo;
use crate::diagnostics::explain::Explanation;
use crate::diagnostics::{Code, Diagnostic};

// `hook-input`

pub(crate) const HOOK_INPUT: Explanation = Explanation {
    code: Code::HookInput,
    summary: "a hook was called with input that is not the runtime's hook payload",
    details: "Claude Code calls `ctxguard hook claude-code EVENT` with one JSON object on standard input: the session, the transcript and what the event is about. Input that is not a JSON object, names no session, or is for another event than the one the hook was installed for cannot be acted on. A guard that cannot decide refuses: PreCompact then refuses the compaction (exit 2; Claude Code 2.1.105 and later honour it), PostCompact tells the user its check did not run, and UserPromptSubmit, PostToolUse and SessionStart never block (an exit 2 at UserPromptSubmit would discard what the user typed): they say why, and the session goes on. Missing fields, `null` for a string and fields ctxguard does not know are not this warning: older and newer runtimes send them.",
    example: &[("payload.json", "compact, please\n")],
    run: "hook claude-code PreCompact --input payload.json",
    fix: "Install the hooks with `ctxguard init claude-code`, which wires each event to the hook of the same name. To replay a hook by hand, give it a payload as Claude Code writes it (`ctxguard hook claude-code PreCompact --input payload.json`).",
};

/// The hook's input cannot be used: `why`.
pub fn hook_input(event: &str, why: &str) -> Diagnostic {
    Diagnostic::new(
        Code::HookInput,
        format!("the {event} hook's input {why}"),
    )
    .help("Claude Code sends one JSON object with `session_id` on standard input; `ctxguard init claude-code` wires each event to its own hook")
}

// `ledger-record`

pub(crate) const LEDGER_RECORD: Explanation = Explanation {
    code: Code::LedgerRecord,
    summary: "a line of a commitment ledger cannot be read; the rest is",
    details: "A ledger is appended to by hooks running in parallel, each under a lock and with one write, so a line can only be torn by a crash or a full disk in the middle of a write, and only the last. A torn line is skipped: the commitments it held are not in the active set, and this warning says which line it was. The next append starts on a line of its own, so one torn line never spoils another.",
    example: &[(
        ".ctxguard/ledger/s1.jsonl",
        "{\"at\":\"2026-11-30T10:00:00.000Z\",\"event\":\"pinned\",\"id\":\"c5f1d2a9e01\",\"kind\":\"constraint\",\"key\":\"no-drop\",\"text\":\"Do not drop columns.\",\"hash\":\"sha256:0\",\"derived\":\"pin\"}\n{\"at\":\"2026-11-30T10:01:00.000Z\",\"event\":\"pinned\",\"id\":\"c0",
    )],
    run: "ledger list --session s1",
    fix: "Pin again what the torn line held, if it was a pin (`ctxguard ledger pin KIND TEXT`): the prompt it came from is in the session's transcript.",
};

/// Line `line` of ledger `name` is not a record (`reason`); `torn` when it
/// is the last line and has no line end.
pub fn ledger_record(name: &str, line: u64, torn: bool, reason: &str) -> Diagnostic {
    let name: &str = &echo(name);
    let reason: &str = &echo(reason);
    let message = if torn {
        format!("the last line of `{name}` (line {line}) is torn; it is skipped")
    } else {
        format!("line {line} of `{name}` is not a ledger record ({reason}); it is skipped")
    };
    Diagnostic::new(Code::LedgerRecord, message)
        .file(name)
        .help("a commitment recorded on it is not in the active set: pin it again with `ctxguard ledger pin` if it was")
}

// `ledger-full`

pub(crate) const LEDGER_FULL: Explanation = Explanation {
    code: Code::LedgerFull,
    summary: "a commitment ledger reached its size cap; nothing more is recorded",
    details: "A ledger only grows (it is the history of what the user committed to), so its size is capped: 16 MiB by default, some 50,000 commitments. At the cap an append is refused whole, never cut, and the hook tells the user instead of dropping the commitments silently. A session that reaches it is usually recording large pasted text as unclassified sentences.",
    example: &[(
        ".ctxguard/ledger/s1.jsonl",
        "{\"at\":\"2026-11-30T10:00:00.000Z\",\"event\":\"pinned\",\"id\":\"c5f1d2a9e01\",\"kind\":\"constraint\",\"key\":\"no-drop\",\"text\":\"Do not drop columns.\",\"hash\":\"sha256:0\",\"derived\":\"pin\"}\n",
    )],
    run: "ledger pin --session s1 --max-ledger-bytes 200 --key api value https://api.example.com/v2",
    fix: "Raise the cap for this ledger (`--max-ledger-bytes`, or `CTXGUARD_MAX_LEDGER_BYTES` for the hooks), or export the active commitments (`ctxguard ledger export`) and start the session afresh.",
};

/// Appending to ledger `name` (session `session`, `len` bytes) would pass `max` bytes.
pub fn ledger_full(name: &str, session: &str, len: u64, max: u64) -> Diagnostic {
    let name: &str = &echo(name);
    let session: &str = &echo(session);
    Diagnostic::new(
        Code::LedgerFull,
        format!("the ledger `{name}` holds {len} bytes and may hold {max}: these commitments were not recorded"),
    )
    .file(name)
    .help(format!("raise the cap (`CTXGUARD_MAX_LEDGER_BYTES`, `--max-ledger-bytes`) or export what holds (`ctxguard ledger export --session {session}`) and start afresh"))
}

pub(crate) const ALL: &[&Explanation] = &[&HOOK_INPUT, &LEDGER_RECORD, &LEDGER_FULL];

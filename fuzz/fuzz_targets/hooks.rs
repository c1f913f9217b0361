//! Any bytes as the payload of each Claude Code hook event (the first byte
//! picks the event), against a ledger of the fuzzer's own: no panic, and
//! the guard's promises hold — only PreCompact and PostCompact ever exit 2
//! (an exit 2 at UserPromptSubmit would discard what the user typed), and
//! whatever a hook prints on stdout is JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

const EVENTS: [ctxguard::hook::Event; 5] = [
    ctxguard::hook::Event::UserPromptSubmit,
    ctxguard::hook::Event::PostToolUse,
    ctxguard::hook::Event::PreCompact,
    ctxguard::hook::Event::PostCompact,
    ctxguard::hook::Event::SessionStart,
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, payload)) = data.split_first() else {
        return;
    };
    let event = EVENTS[usize::from(selector) % EVENTS.len()];
    let ledger = std::env::temp_dir().join(format!("ctxguard-fuzz-hooks-{}", std::process::id()));
    let report = ctxguard::hook::run(&ctxguard::hook::Request {
        runtime: ctxguard::hook::Guarded::ClaudeCode,
        event,
        input: payload.to_vec(),
        policy: None,
        ledger_dir: Some(ledger),
        project_dir: None,
        max_ledger_bytes: 1 << 20,
        echo: selector & 0x80 != 0,
        written_for: None,
        check_summary: selector & 0x40 != 0,
        access: ctxguard::Access::default(),
    });
    let reply = ctxguard::hook::reply(&report);
    // Only a compaction's hooks block (exit 2); the type allows no other code.
    if reply.exit == ctxguard::hook::Exit::Block {
        assert!(
            matches!(
                event,
                ctxguard::hook::Event::PreCompact | ctxguard::hook::Event::PostCompact
            ),
            "{event:?} exited 2: {}",
            reply.stderr
        );
    }
    if !reply.stdout.is_empty() {
        serde_json::from_str::<serde_json::Value>(&reply.stdout).expect("stdout is JSON");
    }
});

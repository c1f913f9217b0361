//! Any bytes as a session of each runtime (or recognized from content):
//! imported or refused with a diagnostic, each event classified and its
//! trace and plan verified, without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let runtime = ctxguard::import::READ.get(usize::from(selector) % 6).copied();
    let file = ctxguard::SourceFile::new("fuzz.jsonl", text);
    let Ok(session) = ctxguard::import::import(&file, runtime) else {
        return;
    };
    let policy = ctxguard::Policy::builtin();
    for event in &session.events {
        let (trace, plan, _) = ctxguard::import::classify(&policy, "fuzz.jsonl", event);
        let _ = ctxguard::verify(&policy, &trace, &plan, &ctxguard::Options::default());
    }
});

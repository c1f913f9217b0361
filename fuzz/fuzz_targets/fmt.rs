//! `fmt` on any policy that parses: idempotent, and what it writes parses.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let source = ctxguard::SourceFile::new("fuzz.policy", text);
    if let Ok(once) = ctxguard::format_policy(&source) {
        let again =
            ctxguard::format_policy(&ctxguard::SourceFile::new("fuzz.policy", once.clone()))
                .expect("formatted text parses");
        assert_eq!(once, again, "formatting twice changes the text");
    }
});

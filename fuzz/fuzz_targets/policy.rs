//! Any text as a policy: parsed, linted and rendered without a panic, and
//! every diagnostic's labels lie inside the text on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let diagnostics = match ctxguard::Policy::from_text("fuzz.policy", text) {
        Ok((_, warnings)) => warnings,
        Err(diagnostics) => diagnostics,
    };
    for diagnostic in &diagnostics {
        for label in &diagnostic.labels {
            let source = label.file.text();
            assert!(label.span.start <= label.span.end && label.span.end <= source.len());
            assert!(source.is_char_boundary(label.span.start));
            assert!(source.is_char_boundary(label.span.end));
        }
        let _ = ctxguard::render_diagnostic(diagnostic, &ctxguard::HumanStyle::plain());
    }
});

//! Any bytes as a trace and as a plan, in each format: read or refused with
//! a diagnostic, rendered without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let format = match selector % 3 {
        0 => ctxguard::InputFormat::Json,
        1 => ctxguard::InputFormat::Yaml,
        _ => ctxguard::InputFormat::JsonLines,
    };
    let style = ctxguard::HumanStyle::plain();
    let input = ctxguard::Input::text("fuzz", format, text);
    if let Err(diagnostic) = ctxguard::Trace::read(&input) {
        let _ = ctxguard::render_diagnostic(&diagnostic, &style);
    }
    if let Err(diagnostic) = ctxguard::Plan::read(&input) {
        let _ = ctxguard::render_diagnostic(&diagnostic, &style);
    }
});

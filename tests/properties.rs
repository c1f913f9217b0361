//! Property tests of the policy reader: no input panics it, and every span
//! it reports lies inside the source, on character boundaries.

use std::sync::Arc;

use ctxguard::Loader;
use ctxguard::SourceFile;
use proptest::prelude::*;

fn check_text(text: &str) {
    let source = SourceFile::new("prop.policy", text);
    let mut loader = Loader::new();
    loader.load_source(Arc::clone(&source), None);
    for diagnostic in loader.diagnostics() {
        for label in &diagnostic.labels {
            let file = label.file.text();
            assert!(label.span.start <= label.span.end, "{diagnostic:?}");
            assert!(label.span.end <= file.len(), "{diagnostic:?}");
            assert!(
                file.is_char_boundary(label.span.start) && file.is_char_boundary(label.span.end)
            );
        }
        let rendered = ctxguard::render_diagnostic(diagnostic, &ctxguard::HumanStyle::plain());
        assert!(rendered.contains(diagnostic.code.name()));
    }
}

/// Text built from the language's own tokens reaches deeper than random bytes.
fn policy_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("kind"),
        Just("order"),
        Just("before"),
        Just("after"),
        Just("preserve"),
        Just("policy"),
        Just("extends"),
        Just("default"),
        Just("tokenizer"),
        Just("approx"),
        Just("budget"),
        Just("window"),
        Just("commitments"),
        Just("on"),
        Just("mismatch"),
        Just("warn"),
        Just("reject"),
        Just("unclassified"),
        Just("drop"),
        Just("over-budget"),
        Just("truncate"),
        Just("{"),
        Just("}"),
        Just("doc"),
        Just("hint"),
        Just("severity"),
        Just("warning"),
        Just("\"decision:*\""),
        Just("\"x\""),
        Just("/a(b/i"),
        Just("/\\bx\\b/"),
        Just("constraint"),
        Just("decision"),
        Just("narrative"),
        Just("60%"),
        Just("0"),
        Just("128000"),
        Just("\n"),
        Just("# c\n"),
        Just("é"),
        Just("\"unterminated"),
    ];
    prop::collection::vec(token, 0..40).prop_map(|tokens| tokens.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC*") {
        check_text(&text);
    }

    #[test]
    fn policy_like_text_never_panics(text in policy_like()) {
        check_text(&text);
    }
}

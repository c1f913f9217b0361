//! Exact token counts: the same as OpenAI's tiktoken for `o200k_base` and
//! `cl100k_base` on the reference fixture (tests/fixtures/token_counts.json,
//! made by make_token_counts.py beside it), never a panic, and linear time on
//! hostile input.

use std::time::{Duration, Instant};

use ctxguard::count_tokens as count;
use ctxguard::Tokenizer;
use proptest::prelude::*;

#[path = "support/hostile.rs"]
mod support;
use support::hostile;

#[derive(serde::Deserialize)]
struct Fixture {
    produced_by: String,
    cases: Vec<Case>,
}

#[derive(serde::Deserialize)]
struct Case {
    category: String,
    text: String,
    o200k_base: u64,
    cl100k_base: u64,
}

#[test]
fn counts_match_tiktoken_exactly() {
    let fixture: Fixture = serde_json::from_str(include_str!("fixtures/token_counts.json"))
        .expect("the fixture parses");
    assert!(fixture.produced_by.contains("tiktoken"));
    assert!(fixture.cases.len() >= 200);
    let mut wrong = Vec::new();
    for case in &fixture.cases {
        for (tokenizer, expected) in [
            (Tokenizer::O200kBase, case.o200k_base),
            (Tokenizer::Cl100kBase, case.cl100k_base),
        ] {
            let counted = count(tokenizer, &case.text);
            if counted != expected {
                wrong.push(format!(
                    "{} {} {:?}: {counted}, tiktoken {expected}",
                    tokenizer.name(),
                    case.category,
                    case.text.chars().take(40).collect::<String>()
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} counts differ:\n{}",
        wrong.len(),
        fixture.cases.len() * 2,
        wrong.join("\n")
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn counting_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        let text = String::from_utf8_lossy(&bytes);
        for tokenizer in [Tokenizer::O200kBase, Tokenizer::Cl100kBase, Tokenizer::Approx] {
            let tokens = count(tokenizer, &text);
            prop_assert!(tokens <= text.len() as u64);
        }
    }

    #[test]
    fn words_joined_by_a_space_count_apart(a in "[a-z]{1,12}( [a-z]{1,12}){0,6}", b in "[a-z]{1,12}( [a-z]{1,12}){0,6}") {
        // The space starts `b`'s first word: both encodings split text into
        // words before merging, so no token spans the join.
        for tokenizer in [Tokenizer::O200kBase, Tokenizer::Cl100kBase] {
            let joined = count(tokenizer, &format!("{a} {b}"));
            prop_assert_eq!(joined, count(tokenizer, &a) + count(tokenizer, &format!(" {b}")), "{} {:?} {:?}", tokenizer.name(), a, b);
        }
    }
}

/// A guard against quadratic regressions, not a benchmark (that is
/// `cargo bench --bench tokenizers`): measured in the test profile (the
/// tokenizer optimized), 1 MB of each hostile input counts in 36-130 ms, the
/// first including loading the encoding; the bound is about 50 times that.
#[test]
fn hostile_input_counts_in_linear_time() {
    for (name, text) in hostile(1_000_000) {
        for tokenizer in [Tokenizer::O200kBase, Tokenizer::Cl100kBase] {
            let start = Instant::now();
            let tokens = count(tokenizer, &text);
            let elapsed = start.elapsed();
            assert!(tokens > 0);
            assert!(
                elapsed < Duration::from_secs(5),
                "{} on 1 MB of {name}: {elapsed:?}",
                tokenizer.name()
            );
        }
    }
}

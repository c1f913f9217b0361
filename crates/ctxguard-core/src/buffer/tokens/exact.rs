//! The exact encodings, counted without paying for bpe-openai's start-up
//! unless the text needs it.
//!
//! bpe-openai counts in time linear in the text on any input, but building
//! its `o200k_base` tables takes about 45 ms and 65 MB, which a hook run on
//! every prompt would pay for a few sentences. So a text is split here the
//! way the encoding splits it ([`Splitter`]), and each piece of at most 64
//! bytes is counted from the rank table build.rs wrote ([`Ranks`]), which
//! needs no building. The first longer piece builds bpe-openai's encoding,
//! which then counts every piece. Both give tiktoken's counts:
//! `tests/tokens.rs` checks them against reference counts from Python
//! tiktoken, and the tests below check them against each other.

use std::sync::{LazyLock, OnceLock};

use super::ranks::Ranks;
use super::split::{Aligned, Splitter};

/// One exact encoding: its rank table, its splitter, and bpe-openai's
/// encoding once something needed it.
pub(super) struct Encoding {
    ranks: LazyLock<Option<Ranks>>,
    splitter: LazyLock<Option<Splitter>>,
    full: fn() -> &'static bpe_openai::Tokenizer,
    built: OnceLock<&'static bpe_openai::Tokenizer>,
}

/// The splitters build.rs built.
static O200K_SPLITTER: &Aligned<[u8]> = &Aligned {
    _align: [],
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/split_o200k_base.dfa")),
};
static CL100K_SPLITTER: &Aligned<[u8]> = &Aligned {
    _align: [],
    bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/split_cl100k_base.dfa")),
};

pub(super) static O200K: Encoding = Encoding {
    ranks: LazyLock::new(|| {
        Ranks::new(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/ranks_o200k_base.bin"
        )))
    }),
    splitter: LazyLock::new(|| Splitter::new(O200K_SPLITTER)),
    full: bpe_openai::o200k_base,
    built: OnceLock::new(),
};

pub(super) static CL100K: Encoding = Encoding {
    ranks: LazyLock::new(|| {
        Ranks::new(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/ranks_cl100k_base.bin"
        )))
    }),
    splitter: LazyLock::new(|| Splitter::new(CL100K_SPLITTER)),
    full: bpe_openai::cl100k_base,
    built: OnceLock::new(),
};

impl Encoding {
    /// bpe-openai's encoding, built on first use.
    fn full(&self) -> &'static bpe_openai::Tokenizer {
        self.built.get_or_init(self.full)
    }

    /// The number of tokens in `text`.
    pub(super) fn count(&self, text: &str) -> u64 {
        self.count_with(text, self.built.get().copied())
    }

    /// The number of tokens in `text`: each piece counted by `full` when
    /// bpe-openai's encoding is built, else from the rank table.
    fn count_with(&self, text: &str, full: Option<&bpe_openai::Tokenizer>) -> u64 {
        let (Some(ranks), Some(splitter)) = (&*self.ranks, &*self.splitter) else {
            return self.full().count(text) as u64;
        };
        splitter
            .split(text)
            .map(|piece| match full {
                Some(full) => full.bpe.count(piece.as_bytes()) as u64,
                None => ranks
                    .count_piece(piece.as_bytes())
                    .unwrap_or_else(|| self.full().bpe.count(piece.as_bytes()) as u64),
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn encodings() -> [(&'static str, &'static Encoding); 2] {
        [("o200k_base", &O200K), ("cl100k_base", &CL100K)]
    }

    /// The splitters the binary carries are the ones the patterns build
    /// now: build.rs cannot have built them from anything else.
    #[test]
    fn the_built_in_splitters_are_the_patterns_built() {
        use super::super::patterns::{build_splitter, CL100K_BASE, O200K_BASE};
        for (pattern, carried) in [(O200K_BASE, O200K_SPLITTER), (CL100K_BASE, CL100K_SPLITTER)] {
            let built = build_splitter(pattern).expect("the patterns compile");
            let (bytes, pad) = if cfg!(target_endian = "big") {
                built.to_bytes_big_endian()
            } else {
                built.to_bytes_little_endian()
            };
            assert!(bytes[pad..] == carried.bytes, "{pattern}");
        }
    }

    #[test]
    fn every_token_is_found_at_its_rank() {
        for (name, encoding) in encodings() {
            let ranks = encoding.ranks.as_ref().expect("the table reads");
            let bpe = &encoding.full().bpe;
            for id in 0..bpe.num_tokens() as u32 {
                assert_eq!(ranks.rank(bpe.token_bytes(id)), id, "{name} token {id}");
            }
            for byte in 0..=u8::MAX {
                assert_ne!(
                    ranks.rank(&[byte]),
                    u32::MAX,
                    "{name}: byte {byte} is a token"
                );
            }
            assert!(encoding.splitter.is_some(), "{name}: the pattern compiles");
        }
    }

    /// The reference counts from Python tiktoken that `tests/tokens.rs`
    /// checks through `count_tokens`.
    #[test]
    fn pieces_count_as_tiktoken_counts() {
        let fixture: serde_json::Value = serde_json::from_str(include_str!(
            "../../../../../tests/fixtures/token_counts.json"
        ))
        .expect("the fixture parses");
        let cases = fixture["cases"].as_array().expect("a list of cases");
        assert!(cases.len() >= 200);
        for case in cases {
            let text = case["text"].as_str().expect("each case has a text");
            for (name, encoding) in encodings() {
                let expected = case[name].as_u64().expect("each case has both counts");
                let full = Some(encoding.full());
                assert_eq!(encoding.count_with(text, None), expected, "{name} {text:?}");
                assert_eq!(encoding.count_with(text, full), expected, "{name} {text:?}");
            }
        }
    }

    /// Pieces of every kind the patterns tell apart, and longer than the
    /// table counts, joined at random.
    fn text() -> impl Strategy<Value = String> {
        let parts = prop::sample::select(vec![
            "a",
            "B",
            "é",
            "ß",
            "İ",
            "ǅ",
            "中",
            "文字",
            "日本語",
            "한국어",
            "😀",
            "👩‍💻",
            "\u{301}",
            "\u{200d}",
            " ",
            "  ",
            "\t",
            "\n",
            "\r\n",
            "'s",
            "'LL",
            "1",
            "234",
            "٣",
            "½",
            "..",
            "//",
            "$",
            "_",
            "-",
            "\u{a0}",
            "\u{2028}",
            "ﬁ",
            "Ω",
            "\0",
            "the",
            " quick",
            "Fox",
            "src/legacy/parser_v2.py",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ]);
        prop::collection::vec(parts, 0..60).prop_map(|parts| parts.concat())
    }

    /// Each encoding counts `text` as bpe-openai counts it, both from the
    /// rank table and once bpe-openai's encoding is built.
    fn same_as_bpe_openai(text: &str) -> Result<(), TestCaseError> {
        for (name, encoding) in encodings() {
            let full = encoding.full();
            let whole = full.count(text) as u64;
            prop_assert_eq!(
                encoding.count_with(text, None),
                whole,
                "{} table {:?}",
                name,
                text
            );
            prop_assert_eq!(
                encoding.count_with(text, Some(full)),
                whole,
                "{} built {:?}",
                name,
                text
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn pieces_count_as_bpe_openai_counts(text in text()) {
            same_as_bpe_openai(&text)?;
        }

        /// Words of few letters, where the same pair comes up at several
        /// places and which merges first decides the count.
        #[test]
        fn repeated_pairs_count_as_bpe_openai_counts(text in "[aeo]{1,64}|[ab\\-=]{1,64}|[0x ]{1,64}") {
            same_as_bpe_openai(&text)?;
        }

        #[test]
        fn any_text_counts_as_bpe_openai_counts(text in "\\PC{0,80}") {
            same_as_bpe_openai(&text)?;
        }
    }
}

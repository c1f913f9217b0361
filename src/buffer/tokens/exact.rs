//! The exact encodings, counted without paying for bpe-openai's start-up
//! unless the text needs it.
//!
//! bpe-openai counts in time linear in the text on any input, but building
//! its `o200k_base` tables takes about 45 ms and 70 MB, which a hook run on
//! every prompt would pay for a few sentences. So a text is first split the
//! way the encoding splits it (its pre-tokenization pattern, bpe-openai's
//! own splitter), and each piece of at most 64 bytes is counted from the
//! rank table build.rs wrote ([`Ranks`]), which needs no building. A
//! longer piece builds bpe-openai's encoding, and every later text is
//! counted by it whole. Both give tiktoken's
//! counts: `tests/tokens.rs` compares them on reference counts from Python
//! tiktoken and with each other on generated text.

use std::sync::{LazyLock, OnceLock};

use bpe_openai::byte_pair_encoding::BytePairEncoding;

use super::ranks::Ranks;

/// One exact encoding: its rank table, its splitter, and bpe-openai's
/// encoding once something needed it.
pub(super) struct Encoding {
    ranks: LazyLock<Option<Ranks>>,
    splitter: LazyLock<Option<bpe_openai::Tokenizer>>,
    full: fn() -> &'static bpe_openai::Tokenizer,
    built: OnceLock<&'static bpe_openai::Tokenizer>,
}

/// `o200k_base`'s pre-tokenization, as bpe-openai 0.3 writes it: a third
/// pattern `\s+\s` whose last character is a look-ahead, then `\s+`.
const O200K_BASE: &str = concat!(
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|\\p{N}{1,3}",
    "| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
    "|\\s*[\\r\\n]+",
    "|\\s+$",
);

/// `cl100k_base`'s pre-tokenization, as bpe-openai 0.3 writes it.
const CL100K_BASE: &str = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+$";

pub(super) static O200K: Encoding = Encoding {
    ranks: LazyLock::new(|| {
        Ranks::new(include_bytes!(concat!(
            env!("OUT_DIR"),
            "/ranks_o200k_base.bin"
        )))
    }),
    splitter: LazyLock::new(|| splitter(O200K_BASE)),
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
    splitter: LazyLock::new(|| splitter(CL100K_BASE)),
    full: bpe_openai::cl100k_base,
    built: OnceLock::new(),
};

/// bpe-openai's splitter for `pattern`. It comes only with an encoding, so
/// it is given one of the 256 single bytes, which is never asked to count.
fn splitter(pattern: &str) -> Option<bpe_openai::Tokenizer> {
    let bytes = BytePairEncoding::from_dictionary((0..=u8::MAX).map(|b| vec![b]), None);
    let patterns = [(pattern, false), ("\\s+\\s", true), ("\\s+", false)];
    bpe_openai::Tokenizer::new_lookahead(bytes, &patterns, false).ok()
}

impl Encoding {
    /// bpe-openai's encoding, built on first use.
    fn full(&self) -> &'static bpe_openai::Tokenizer {
        self.built.get_or_init(self.full)
    }

    /// The number of tokens in `text`.
    pub(super) fn count(&self, text: &str) -> u64 {
        match self.built.get() {
            Some(full) => full.count(text) as u64,
            None => self.count_pieces(text),
        }
    }

    /// The number of tokens in `text`, split here, a short piece counted
    /// from the rank table, a longer one by bpe-openai.
    fn count_pieces(&self, text: &str) -> u64 {
        let (Some(ranks), Some(splitter)) = (&*self.ranks, &*self.splitter) else {
            return self.full().count(text) as u64;
        };
        splitter
            .split(text)
            .map(|piece| match ranks.count_piece(piece.as_bytes()) {
                Some(tokens) => tokens,
                None => self.full().bpe.count(piece.as_bytes()) as u64,
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
    /// checks through `count_tokens`, here on the split-and-table path
    /// alone (which `count_tokens` takes only until bpe-openai is built).
    #[test]
    fn pieces_count_as_tiktoken_counts() {
        let fixture: serde_json::Value =
            serde_json::from_str(include_str!("../../../tests/fixtures/token_counts.json"))
                .expect("the fixture parses");
        let cases = fixture["cases"].as_array().expect("a list of cases");
        assert!(cases.len() >= 200);
        for case in cases {
            let text = case["text"].as_str().expect("each case has a text");
            for (name, encoding) in encodings() {
                let expected = case[name].as_u64().expect("each case has both counts");
                assert_eq!(encoding.count_pieces(text), expected, "{name} {text:?}");
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

    /// Each encoding counts `text` as bpe-openai counts it.
    fn same_as_bpe_openai(text: &str) -> Result<(), TestCaseError> {
        for (name, encoding) in encodings() {
            let whole = encoding.full().count(text) as u64;
            prop_assert_eq!(encoding.count_pieces(text), whole, "{} {:?}", name, text);
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

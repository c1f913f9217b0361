//! Token counting for budgets. `o200k_base` and `cl100k_base` are exact:
//! the same counts as OpenAI's tiktoken (ordinary encoding), from encodings
//! built into the binary, in time linear in the text on any input
//! (GitHub's `bpe-openai`, and rank tables that need no start-up for short
//! texts: `exact`; `docs/performance.md` has the measurements). `approx` is an
//! estimate, ceil(UTF-8 bytes / 4), for models whose tokenizer is not public.

mod exact;
/// The pre-tokenization patterns build.rs builds the splitters from; the
/// tests build them again.
#[cfg(test)]
mod patterns;
mod ranks;
mod split;

/// How tokens are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tokenizer {
    /// `o200k_base` (GPT-4o, GPT-4.1, o-series), exact.
    O200kBase,
    /// `cl100k_base` (GPT-4, GPT-3.5), exact.
    Cl100kBase,
    /// ceil(UTF-8 bytes / 4): an estimate for tokenizers that are not public.
    Approx,
}

impl Tokenizer {
    /// Every tokenizer.
    pub const ALL: [Tokenizer; 3] = [
        Tokenizer::O200kBase,
        Tokenizer::Cl100kBase,
        Tokenizer::Approx,
    ];

    /// The tokenizer a policy names `name`.
    pub fn from_name(name: &str) -> Option<Tokenizer> {
        Tokenizer::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The name a policy writes after `tokenizer`.
    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "o200k_base",
            Tokenizer::Cl100kBase => "cl100k_base",
            Tokenizer::Approx => "approx",
        }
    }
}

/// The number of tokens `tokenizer` makes of `text`, in time linear in the text.
pub fn count(tokenizer: Tokenizer, text: &str) -> u64 {
    match tokenizer {
        Tokenizer::Approx => (text.len() as u64).div_ceil(4),
        Tokenizer::O200kBase => exact::O200K.count(text),
        Tokenizer::Cl100kBase => exact::CL100K.count(text),
    }
}

/// How one run counts: with which tokenizer, and whether the `tokens` a
/// region gives are trusted or recounted.
#[derive(Clone, Copy, Debug)]
pub struct Counter {
    pub tokenizer: Tokenizer,
    /// Count every region, and compare with the `tokens` it gives.
    pub recount: bool,
}

/// A region's token count, and the count it gave when that is more than 10%
/// off the real one (only known when recounting).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    pub tokens: u64,
    pub stale: Option<u64>,
}

/// A given count more than 10% off the real one.
pub fn is_stale(given: u64, real: u64) -> bool {
    given.abs_diff(real).saturating_mul(10) > real
}

/// Texts from which [`Counter::count_all`] counts on every core: below it,
/// starting the other threads costs more than they save.
const PARALLEL_BYTES: usize = 256 * 1024;

impl Counter {
    /// Whether a region that gives `given` tokens is counted.
    pub fn counts(&self, given: Option<u64>) -> bool {
        self.recount || given.is_none()
    }

    /// A region's tokens: those it gives, or `real()` when it is counted.
    pub fn count(&self, given: Option<u64>, real: impl FnOnce() -> u64) -> Counted {
        match given {
            Some(tokens) if !self.counts(given) => Counted {
                tokens,
                stale: None,
            },
            _ => {
                let tokens = real();
                let stale = given.filter(|&g| is_stale(g, tokens));
                Counted { tokens, stale }
            }
        }
    }

    /// The tokens of each of `texts`, counted on every core when there is
    /// enough text to share.
    pub fn count_all<S: AsRef<str> + Sync>(&self, texts: &[S]) -> Vec<u64> {
        let one = |text: &S| count(self.tokenizer, text.as_ref());
        let bytes = texts.iter().map(|text| text.as_ref().len()).sum::<usize>();
        if bytes < PARALLEL_BYTES || texts.len() < 2 {
            return texts.iter().map(one).collect();
        }
        use rayon::prelude::*;
        texts.par_iter().map(one).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approx_is_bytes_over_four_rounded_up() {
        assert_eq!(count(Tokenizer::Approx, ""), 0);
        assert_eq!(count(Tokenizer::Approx, "abcd"), 1);
        assert_eq!(count(Tokenizer::Approx, "abcde"), 2);
        assert_eq!(count(Tokenizer::Approx, "é"), 1);
    }

    #[test]
    fn given_counts_win_unless_recounted() {
        let trust = Counter {
            tokenizer: Tokenizer::O200kBase,
            recount: false,
        };
        let hello = || count(Tokenizer::O200kBase, "hello world");
        assert_eq!(
            trust.count(Some(99), hello),
            Counted {
                tokens: 99,
                stale: None,
            }
        );
        assert_eq!(
            trust.count(None, hello),
            Counted {
                tokens: 2,
                stale: None,
            }
        );
        let recount = Counter {
            recount: true,
            ..trust
        };
        assert_eq!(
            recount.count(Some(99), hello),
            Counted {
                tokens: 2,
                stale: Some(99),
            }
        );
        // Within 10%: not stale.
        let text = "word ".repeat(100);
        let real = count(Tokenizer::O200kBase, &text);
        assert_eq!(recount.count(Some(real + real / 10), || real).stale, None);
        let off = real + real / 10 + 2;
        assert_eq!(recount.count(Some(off), || real).stale, Some(off));
    }

    #[test]
    fn counting_all_counts_each_in_order_on_any_number_of_cores() {
        let counter = Counter {
            tokenizer: Tokenizer::O200kBase,
            recount: false,
        };
        // Under and over the bytes from which every core counts.
        for n in [3, 2 * PARALLEL_BYTES / 20] {
            let texts: Vec<String> = (0..n).map(|i| "word ".repeat(i % 7)).collect();
            let each: Vec<u64> = texts.iter().map(|t| count(counter.tokenizer, t)).collect();
            assert_eq!(counter.count_all(&texts), each, "{n} texts");
        }
    }
}

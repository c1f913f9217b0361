//! Token counting for budgets.

use crate::ast::Tokenizer;

/// Tokens in `text` under `tokenizer`. `approx` is an estimate:
/// ceil(UTF-8 bytes / 4). The exact BPE encodings are not built in yet, so
/// `o200k_base` and `cl100k_base` are counted as `approx` too, and the
/// verifier says so (`approximate-tokens`).
pub fn count(tokenizer: Tokenizer, text: &str) -> u64 {
    match tokenizer {
        Tokenizer::Approx | Tokenizer::O200kBase | Tokenizer::Cl100kBase => {
            (text.len() as u64).div_ceil(4)
        }
    }
}

/// Whether counting with `tokenizer` is an estimate standing in for an exact encoding.
pub fn is_fallback(tokenizer: Tokenizer) -> bool {
    !matches!(tokenizer, Tokenizer::Approx)
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
}

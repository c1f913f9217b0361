//! Two things the tokenizers carry from the build:
//!
//! - A rank table of each exact tokenizer (`src/buffer/tokens/ranks.rs`
//!   reads it), written from bpe-openai's own encoding so the two cannot
//!   disagree on a token.
//! - The automaton that splits a text as each exact tokenizer does
//!   (`src/buffer/tokens/split.rs` reads it), built from the patterns in
//!   `src/buffer/tokens/patterns.rs`.

use std::hash::Hasher;
use std::path::Path;

include!("src/buffer/tokens/patterns.rs");

fn main() {
    let out = std::env::var_os("OUT_DIR").map(std::path::PathBuf::from);
    let out = out.expect("cargo sets OUT_DIR for build scripts");
    rank_table(&out, "o200k_base", bpe_openai::o200k_base);
    rank_table(&out, "cl100k_base", bpe_openai::cl100k_base);
    splitter(&out, "o200k_base", O200K_BASE);
    splitter(&out, "cl100k_base", CL100K_BASE);
    println!("cargo:rerun-if-changed=src/buffer/tokens/patterns.rs");
    println!("cargo:rerun-if-changed=build.rs");
}

/// `OUT_DIR/split_NAME.dfa`: the splitter's dense DFA, serialized in the
/// target's byte order (a DFA read in another is refused, and bpe-openai
/// then splits).
fn splitter(out: &Path, name: &str, pattern: &str) {
    let dfa = build_splitter(pattern).expect("the splitter's patterns compile");
    let big = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|endian| endian == "big");
    let (bytes, pad) = if big {
        dfa.to_bytes_big_endian()
    } else {
        dfa.to_bytes_little_endian()
    };
    let path = out.join(format!("split_{name}.dfa"));
    std::fs::write(&path, &bytes[pad..]).expect("OUT_DIR is writable");
}

/// `OUT_DIR/ranks_NAME.bin`, little-endian `u32`s then bytes: the number of
/// tokens `n`, `bits`, `n + 1` offsets into the bytes (token `i` is
/// `bytes[offsets[i]..offsets[i + 1]]`, and its id is its rank), `2^bits`
/// hash slots (a token id, or `u32::MAX` for an empty slot; FNV-1a of the
/// token's bytes, then the next slot while taken), then every token's bytes.
///
/// A table depends only on bpe-openai's encoding, whose version is part of
/// this script's build: one written once is kept while `OUT_DIR` is.
fn rank_table(out: &Path, name: &str, tokenizer: fn() -> &'static bpe_openai::Tokenizer) {
    let path = out.join(format!("ranks_{name}.bin"));
    if path.exists() {
        return;
    }
    let bpe = &tokenizer().bpe;
    let n = u32::try_from(bpe.num_tokens()).expect("fewer than 2^32 tokens");
    // At most half full, so a search for an absent piece soon meets an empty slot.
    let bits = (n as usize * 2).next_power_of_two().trailing_zeros();
    let mask = (1usize << bits) - 1;
    let mut offsets = vec![0u32];
    let mut bytes = Vec::new();
    let mut slots = vec![u32::MAX; 1 << bits];
    for id in 0..n {
        let token = bpe.token_bytes(id);
        bytes.extend_from_slice(token);
        offsets.push(u32::try_from(bytes.len()).expect("token bytes under 4 GiB"));
        let mut hasher = fnv::FnvHasher::default();
        hasher.write(token);
        let mut slot = hasher.finish() as usize & mask;
        while slots[slot] != u32::MAX {
            slot = (slot + 1) & mask;
        }
        slots[slot] = id;
    }
    let mut table = Vec::with_capacity(8 + 4 * (offsets.len() + slots.len()) + bytes.len());
    for word in [n, bits].iter().chain(&offsets).chain(&slots) {
        table.extend_from_slice(&word.to_le_bytes());
    }
    table.extend_from_slice(&bytes);
    // Written whole, then renamed: an interrupted build leaves no half table.
    let partial = out.join(format!("ranks_{name}.bin.partial"));
    std::fs::write(&partial, table).expect("write the rank table");
    std::fs::rename(&partial, &path).expect("rename the rank table");
}

//! `cargo bench --bench tokenizers`: tokens/s and MB/s of ctxguard's own
//! count (`count_tokens`, once bpe-openai's encoding is built), of the
//! tokenizer it builds on (GitHub's bpe-openai), the candidate it did not choose
//! (tiktoken-rs) and OpenAI's Python tiktoken (when `python3 -c "import
//! tiktoken"` works), on the same texts: typical agent text and hostile
//! inputs at 100 KB and 1 MB. The texts are written to
//! `target/bench-data/tokens` so that Python reads exactly the same bytes.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[path = "../tests/support/hostile.rs"]
mod support;

/// The hostile inputs, named with their size.
fn hostile(n: usize) -> Vec<(String, String)> {
    support::hostile(n)
        .into_iter()
        .map(|(name, text)| (format!("{name}-{}k", n / 1000), text))
        .collect()
}

/// Every string in a real agent session (`CTXGUARD_AGENT_SESSION`), or the
/// migration example's texts when none is named.
fn agent_text(root: &Path) -> String {
    fn strings(value: &serde_json::Value, out: &mut String) {
        match value {
            serde_json::Value::String(s) => {
                out.push_str(s);
                out.push('\n');
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(map) => map.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    // A real agent session (JSON Lines) when one is named; otherwise the
    // scenario trace, repeated.
    let session = std::env::var_os("CTXGUARD_AGENT_SESSION")
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let mut out = String::new();
    match std::fs::read_to_string(&session) {
        Ok(text) => {
            for line in text.lines() {
                if let Ok(value) = serde_json::from_str(line) {
                    strings(&value, &mut out);
                }
            }
        }
        Err(_) => {
            let trace = std::fs::read_to_string(root.join("tests/scenarios/migration/trace.yaml"))
                .unwrap_or_default();
            while out.len() < 500_000 {
                out.push_str(&trace);
            }
        }
    }
    out
}

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut best = f64::INFINITY;
    let mut result = None;
    for _ in 0..runs {
        let start = Instant::now();
        result = Some(f());
        best = best.min(start.elapsed().as_secs_f64());
    }
    (result.expect("at least one run"), best)
}

/// `tiktoken-rs-*/assets` in the cargo registry: the rank files, for Python.
fn tiktoken_assets() -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    for index in std::fs::read_dir(home.join("registry/src")).ok()?.flatten() {
        for krate in std::fs::read_dir(index.path()).ok()?.flatten() {
            let name = krate.file_name().to_string_lossy().into_owned();
            if name.starts_with("tiktoken-rs-")
                && krate.path().join("assets/o200k_base.tiktoken").exists()
            {
                return Some(krate.path().join("assets"));
            }
        }
    }
    None
}

fn row(text: &str, name: &str, tokenizer: &str, tokens: usize, seconds: f64) {
    println!(
        "| {name} | {tokenizer} | {:.2} | {tokens} | {:.1} | {:.1} | {:.0} |",
        text.len() as f64 / 1e6,
        seconds * 1e3,
        tokens as f64 / seconds / 1e6,
        text.len() as f64 / seconds / 1e6
    );
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/bench-data/tokens");
    std::fs::create_dir_all(&dir).expect("bench data directory");
    let mut inputs = vec![("agent-text".to_owned(), agent_text(root))];
    inputs.extend(hostile(100_000));
    inputs.extend(hostile(1_000_000));

    println!("| input | tokenizer | MB | tokens | ms | M tokens/s | MB/s |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    let o200k = tiktoken_rs::o200k_base().expect("tiktoken-rs o200k");
    let cl100k = tiktoken_rs::cl100k_base().expect("tiktoken-rs cl100k");
    bpe_openai::o200k_base().count("warm up");
    bpe_openai::cl100k_base().count("warm up");
    // A piece longer than the rank table counts builds bpe-openai's encoding,
    // which then counts every piece, as it does for any large input.
    let long_piece = "a".repeat(100);
    ctxguard::count_tokens(ctxguard::Tokenizer::O200kBase, &long_piece);
    ctxguard::count_tokens(ctxguard::Tokenizer::Cl100kBase, &long_piece);
    for (name, text) in &inputs {
        std::fs::write(dir.join(format!("{name}.txt")), text).expect("write input");
        for tokenizer in [
            ctxguard::Tokenizer::O200kBase,
            ctxguard::Tokenizer::Cl100kBase,
        ] {
            let (tokens, s) = best_of(3, || ctxguard::count_tokens(tokenizer, text) as usize);
            row(
                text,
                name,
                &format!("ctxguard {}", tokenizer.name()),
                tokens,
                s,
            );
        }
        let (tokens, s) = best_of(3, || bpe_openai::o200k_base().count(text.as_str()));
        row(text, name, "bpe-openai o200k_base (chosen)", tokens, s);
        let (tokens, s) = best_of(3, || bpe_openai::cl100k_base().count(text.as_str()));
        row(text, name, "bpe-openai cl100k_base (chosen)", tokens, s);
        let (tokens, s) = best_of(3, || o200k.encode_ordinary(text).len());
        row(text, name, "tiktoken-rs o200k_base", tokens, s);
        let (tokens, s) = best_of(3, || cl100k.encode_ordinary(text).len());
        row(text, name, "tiktoken-rs cl100k_base", tokens, s);
    }

    let Some(assets) = tiktoken_assets() else {
        println!("\nPython tiktoken: skipped (no tiktoken-rs assets in the cargo registry)");
        return;
    };
    let script = root.join("benches/tiktoken_bench.py");
    match Command::new("python3")
        .arg(&script)
        .arg(&dir)
        .arg(&assets)
        .output()
    {
        Ok(output) if output.status.success() => {
            print!("{}", String::from_utf8_lossy(&output.stdout))
        }
        Ok(output) => println!(
            "\nPython tiktoken: skipped ({})",
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or("failed")
        ),
        Err(error) => println!("\nPython tiktoken: skipped ({error})"),
    }
}

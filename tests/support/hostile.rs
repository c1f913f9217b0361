//! Hostile inputs for tokenizers, shared by `tests/tokens.rs` and
//! `benches/tokenizers.rs`: long pieces without whitespace, where classic
//! BPE merging is quadratic.

/// `a`, emoji ZWJ sequences, base64 and minified JSON, `n` bytes each.
pub fn hostile(n: usize) -> Vec<(&'static str, String)> {
    let emoji = "👩‍💻".repeat(n / "👩‍💻".len());
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let base64: String = (0..n)
        .map(|i| alphabet[(i * 7919 + i / 3) % 64] as char)
        .collect();
    let mut json = String::from("[");
    let mut i = 0;
    while json.len() < n {
        json.push_str(&format!("{{\"id\":{i},\"name\":\"user{i}\",\"ok\":true}},"));
        i += 1;
    }
    vec![
        ("a", "a".repeat(n)),
        ("emoji", emoji),
        ("base64", base64),
        ("minified-json", json),
    ]
}

//! Deterministic traces and plans for the benchmarks: agent-like narrative
//! (user asks, assistant notes, tool output with paths and test logs)
//! with a commitment of one of the default policy's five kinds in about
//! one region of ten, `value` commitments mostly as records. Every region
//! gives `tokens` (UTF-8 bytes / 4, rounded up), so a budget check needs no
//! tokenizer. Regions are written as they are made: memory stays flat
//! whatever the size.
//!
//! It writes `trace.json`, `trace.jsonl`, `plan-good.json` (every
//! commitment kept, each run of narrative summarized: verifies as compact
//! under the default policy) and `plan-alter.json` (the same, with the
//! trace's last commitment written out with changed content: rejected
//! with `altered-commitment`, found only after reading everything).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde_json::{json, Value};

const TABLES: &[&str] = &[
    "users",
    "profiles",
    "invoices",
    "sessions",
    "audit_log",
    "tenants",
    "payments",
    "events",
];
const THINGS: &[&str] = &[
    "the retry loop",
    "the users table",
    "the CSV export",
    "the auth middleware",
    "the billing job",
    "the config loader",
    "the parser",
    "the cache layer",
];
const FUNCS: &[&str] = &[
    "normalize",
    "load_rows",
    "apply_patch",
    "migrate",
    "parse_header",
    "flush",
    "validate",
    "checksum",
];
const PATHS: &[&str] = &["src", "tests", "lib", "migrations", "api"];
const NAMES: &[&str] = &[
    "parser_v2.py",
    "schema.rs",
    "users.ts",
    "config.go",
    "ledger.sql",
];
const COMMANDS: &[&str] = &[
    "cargo test",
    "pytest -q",
    "npm test --",
    "make lint",
    "go test ./...",
];
const WORDS: &[&str] = &[
    "the", "rows", "field", "value", "before", "insert", "returns", "None", "when", "header", "is",
    "empty", "so", "we", "skip", "it", "and", "log", "a", "warning", "tenant", "cache",
];
const KINDS: &[&str] = &["constraint", "decision", "identifier", "value", "ordering"];

struct Text(fastrand::Rng);

impl Text {
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.0.usize(..from.len())]
    }

    fn path(&mut self) -> String {
        format!(
            "{}/{}/{}",
            self.pick(PATHS),
            self.pick(FUNCS),
            self.pick(NAMES)
        )
    }

    /// A narrative region's role and text, about `mean` bytes long.
    fn narrative(&mut self, mean: usize) -> (&'static str, String) {
        let target = mean / 2 + self.0.usize(..mean.max(2));
        let role = ["user", "assistant", "tool", "tool", "assistant"][self.0.usize(..5)];
        let mut text = String::new();
        while text.len() < target {
            let piece = match role {
                "user" => format!("Can you fix {} in {}?", self.pick(THINGS), self.path()),
                "assistant" => format!(
                    "{}() at {}:{} calls {}() on every field; {} {} {}.",
                    self.pick(FUNCS),
                    self.path(),
                    self.0.u32(1..900),
                    self.pick(FUNCS),
                    self.pick(WORDS),
                    self.pick(WORDS),
                    self.pick(WORDS)
                ),
                _ => format!(
                    "$ {} {}\ntest {}::{} ... ok\n",
                    self.pick(COMMANDS),
                    self.path(),
                    self.pick(TABLES),
                    self.pick(FUNCS)
                ),
            };
            text.push_str(&piece);
            text.push(' ');
        }
        (role, text.trim_end().to_owned())
    }

    /// A commitment of `kind`: its text or record.
    fn commitment(&mut self, kind: &str) -> Value {
        let table = self.pick(TABLES);
        match kind {
            "constraint" => json!(format!(
                "Do not drop columns in {table}; the migration must stay reversible."
            )),
            "decision" => json!(format!(
                "Use (tenant_id, id) as the primary key of {table}."
            )),
            "identifier" => json!(self.path()),
            "value" => {
                json!({"table": table, "rows": self.0.u32(1000..10_000_000), "confirmed_by": "user"})
            }
            _ => json!(format!(
                "Run `{}` before applying the patch.",
                self.pick(COMMANDS)
            )),
        }
    }
}

fn tokens(text: &str) -> u64 {
    (text.len() as u64).div_ceil(4)
}

/// A JSON document of regions written one at a time.
struct Document {
    out: BufWriter<File>,
    first: bool,
    lines: bool,
}

impl Document {
    fn create(path: &Path, lines: bool) -> io::Result<Document> {
        let mut out = BufWriter::new(File::create(path)?);
        if !lines {
            out.write_all(b"{\"version\": 1, \"regions\": [\n")?;
        }
        Ok(Document {
            out,
            first: true,
            lines,
        })
    }

    fn region(&mut self, region: &Value) -> io::Result<()> {
        if !self.lines && !self.first {
            self.out.write_all(b",\n")?;
        }
        self.first = false;
        serde_json::to_writer(&mut self.out, region)?;
        if self.lines {
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn finish(mut self) -> io::Result<()> {
        if !self.lines {
            self.out.write_all(b"\n]}\n")?;
        }
        self.out.flush()
    }
}

/// Writes the four files for `regions` regions into `dir`.
pub fn generate(dir: &Path, regions: usize, seed: u64) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut layout = fastrand::Rng::with_seed(seed);
    let mut text = Text(fastrand::Rng::with_seed(seed.wrapping_add(1)));
    // Where the last commitment stands, so the altered plan can change it.
    let is_commitment: Vec<bool> = (0..regions).map(|_| layout.u8(..10) == 0).collect();
    let last = is_commitment.iter().rposition(|&c| c);
    let mut json = Document::create(&dir.join("trace.json"), false)?;
    let mut lines = Document::create(&dir.join("trace.jsonl"), true)?;
    let mut good = Document::create(&dir.join("plan-good.json"), false)?;
    let mut alter = Document::create(&dir.join("plan-alter.json"), false)?;
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, plans: [&mut Document; 2]| -> io::Result<()> {
        if run.is_empty() {
            return Ok(());
        }
        let summary = format!("Worked through {} turns of narrative.", run.len());
        let region =
            json!({"kind": "summary", "covers": run, "text": summary, "tokens": tokens(&summary)});
        for plan in plans {
            plan.region(&region)?;
        }
        run.clear();
        Ok(())
    };
    for (i, &commitment) in is_commitment.iter().enumerate() {
        let id = format!("r{i}");
        let region = if commitment {
            let kind = KINDS[i % KINDS.len()];
            let content = text.commitment(kind);
            let (field, count) = match &content {
                Value::String(s) => ("text", tokens(s)),
                other => ("record", tokens(&other.to_string())),
            };
            flush(&mut run, [&mut good, &mut alter])?;
            good.region(&json!({"keep": id}))?;
            if Some(i) == last {
                let changed = match &content {
                    Value::String(s) => json!(format!("{s} (paraphrased)")),
                    Value::Object(map) => {
                        let mut map = map.clone();
                        map.insert("rows".into(), json!(0));
                        Value::Object(map)
                    }
                    other => other.clone(),
                };
                alter.region(&json!({"kind": kind, "key": format!("k{i}"), field: changed}))?;
            } else {
                alter.region(&json!({"keep": id}))?;
            }
            json!({"id": id, "kind": kind, "key": format!("k{i}"), field: content, "tokens": count, "role": "user"})
        } else {
            let (role, narrative) = text.narrative(400);
            run.push(id.clone());
            json!({"id": id, "kind": "narrative", "text": narrative, "tokens": tokens(&narrative), "role": role})
        };
        json.region(&region)?;
        lines.region(&region)?;
    }
    flush(&mut run, [&mut good, &mut alter])?;
    for document in [json, lines, good, alter] {
        document.finish()?;
    }
    Ok(())
}

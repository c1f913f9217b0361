//! Deterministic traces and plans for the benchmarks: agent-like narrative
//! (user asks, assistant notes, tool output with paths, commands, test
//! logs, diffs and errors, at lengths spread as real messages are),
//! summaries that name the paths and commands of what they cover,
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

// The vocabulary of `shared/bench/gen_trace.py`, whose narrative reads as
// agent traffic does: paths, commands, test logs, diffs, errors, hint
// words, and an arrow or a dash beyond ASCII in about a fifth of regions.
const TOP: &[&str] = &[
    "src",
    "tests",
    "lib",
    "pkg",
    "internal",
    "cmd",
    "scripts",
    "migrations",
    "api",
    "web",
];
const SUB: &[&str] = &[
    "legacy", "core", "db", "auth", "billing", "parser", "utils", "handlers", "models", "jobs",
    "cli", "export", "cache", "sync",
];
const NAME: &[&str] = &[
    "parser_v2",
    "schema",
    "users",
    "profiles",
    "session",
    "config",
    "router",
    "cache",
    "invoice",
    "worker",
    "main",
    "client",
    "retry",
    "queue",
    "export",
    "tenant",
    "ledger",
    "normalize",
    "settings",
    "fixtures",
];
const EXT: &[&str] = &[
    ".py", ".py", ".rs", ".ts", ".go", ".sql", ".yaml", ".toml", ".md", ".json",
];
const FUNCS: &[&str] = &[
    "normalize",
    "load_rows",
    "apply_patch",
    "migrate",
    "parse_header",
    "retry_with_backoff",
    "flush",
    "resolve_tenant",
    "to_dict",
    "validate",
    "open_session",
    "render",
    "compact",
    "split_users",
    "read_config",
    "checksum",
];
const TABLES: &[&str] = &[
    "users",
    "profiles",
    "invoices",
    "sessions",
    "audit_log",
    "tenants",
    "payments",
    "events",
    "api_keys",
    "jobs",
];
const VERBS: &[&str] = &[
    "refactor",
    "fix",
    "speed up",
    "add tests for",
    "document",
    "rename",
    "split",
    "clean up",
    "migrate",
    "review",
    "simplify",
    "profile",
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
    "the session store",
    "the webhook handler",
    "the CLI flags",
    "the nightly sync",
];
const ADJ: &[&str] = &[
    "flaky",
    "slow",
    "duplicated",
    "legacy",
    "unused",
    "fragile",
    "hot",
    "untested",
];
const COMMANDS: &[&str] = &[
    "pytest -q",
    "cargo test",
    "npm test --",
    "go test ./...",
    "make lint",
    "ruff check",
    "mypy --strict",
    "git diff --stat",
    "rg -n",
    "cargo clippy --",
    "alembic upgrade head",
    "psql -c '\\d users'",
];
const WORDS: &[&str] = &[
    "the", "rows", "field", "value", "before", "insert", "call", "returns", "None", "when",
    "header", "is", "empty", "so", "we", "skip", "it", "and", "log", "a", "warning", "tenant",
    "id", "cache", "miss", "retry", "three", "times", "then", "fails", "loudly", "column",
    "nullable", "default", "index", "unique",
];
const ERRORS: &[&str] = &[
    "KeyError: 'tenant_id'",
    "TypeError: 'NoneType' object is not subscriptable",
    "AssertionError: expected 40 rows, got 39",
    "FileNotFoundError: config/settings.yaml",
    "error[E0502]: cannot borrow `rows` as mutable",
    "psycopg2.errors.UniqueViolation",
    "TimeoutError: read timed out after 30s",
    "ValueError: invalid literal for int()",
];
const KINDS: &[&str] = &["constraint", "decision", "identifier", "value", "ordering"];

struct Text(fastrand::Rng);

impl Text {
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.0.usize(..from.len())]
    }

    fn path(&mut self) -> String {
        format!(
            "{}/{}/{}{}",
            self.pick(TOP),
            self.pick(SUB),
            self.pick(NAME),
            self.pick(EXT)
        )
    }

    fn line(&mut self) -> u32 {
        self.0.u32(1..=900)
    }

    fn words(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| self.pick(WORDS))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A length about `mean` bytes, log-normal (σ 0.6) as real messages
    /// are: most short, a few long.
    fn length(&mut self, mean: usize) -> usize {
        let sigma = 0.6;
        let mu = (mean as f64).ln() - sigma * sigma / 2.0;
        // Box–Muller: one standard normal from two uniforms.
        let (u, v) = (1.0 - self.0.f64(), self.0.f64());
        let normal = (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos();
        ((mu + sigma * normal).exp() as usize).clamp(24, 20 * mean)
    }

    fn user_piece(&mut self) -> String {
        match self.0.u8(..6) {
            0 => format!(
                "Can you {} {} in {}?",
                self.pick(VERBS),
                self.pick(THINGS),
                self.path()
            ),
            1 => format!(
                "Please {} {}; it has been {} since last week.",
                self.pick(VERBS),
                self.pick(THINGS),
                self.pick(ADJ)
            ),
            2 => format!(
                "Why does test_{} fail on CI but not locally? See {}:{}.",
                self.pick(FUNCS),
                self.path(),
                self.line()
            ),
            3 => format!("I pasted the error: \"{}\". Any idea?", self.pick(ERRORS)),
            4 => format!(
                "Also look at {}() - it touches {} too.",
                self.pick(FUNCS),
                self.pick(TABLES)
            ),
            _ => format!(
                "Ok, go ahead with {} and tell me what changed.",
                self.pick(THINGS)
            ),
        }
    }

    fn assistant_piece(&mut self) -> String {
        match self.0.u8(..6) {
            0 => format!(
                "Reading {} to see how {} works.",
                self.path(),
                self.pick(THINGS)
            ),
            1 => {
                let n = self.0.usize(4..=10);
                format!(
                    "{}() at {}:{} builds one dict per row and calls {}() on every field; {}.",
                    self.pick(FUNCS),
                    self.path(),
                    self.line(),
                    self.pick(FUNCS),
                    self.words(n)
                )
            }
            2 => format!(
                "I'll {} {} next, then re-run `{}`.",
                self.pick(VERBS),
                self.pick(THINGS),
                self.pick(COMMANDS)
            ),
            3 => {
                let n = self.0.usize(6..=14);
                format!(
                    "The {} part is {}: {}.",
                    self.pick(ADJ),
                    self.pick(THINGS),
                    self.words(n)
                )
            }
            4 => format!(
                "Found {} call sites of {}(); {} of them pass a {} row.",
                self.0.u32(2..=40),
                self.pick(FUNCS),
                self.0.u32(1..=5),
                self.pick(TABLES)
            ),
            _ => format!(
                "Plan: {} {} \u{2192} run `{}` \u{2192} report back.",
                self.pick(VERBS),
                self.pick(THINGS),
                self.pick(COMMANDS)
            ),
        }
    }

    fn tool_line(&mut self) -> String {
        match self.0.u8(..7) {
            0 => format!(
                "{}:{}:{}: warning: unused variable `{}`",
                self.path(),
                self.line(),
                self.0.u32(1..=80),
                self.pick(FUNCS)
            ),
            1 => format!(
                "test {}::{}_{} ... {}",
                self.pick(SUB),
                self.pick(FUNCS),
                self.pick(TABLES),
                if self.0.f64() < 0.9 { "ok" } else { "FAILED" }
            ),
            2 => format!(
                "{}:{}:    rows = {}(conn, \"{}\")",
                self.path(),
                self.line(),
                self.pick(FUNCS),
                self.pick(TABLES)
            ),
            3 => {
                let at = self.line();
                format!(
                    "@@ -{at},7 +{at},{} @@ def {}(self):\n+    {}(row)\n-    row = None",
                    self.0.u32(5..=12),
                    self.pick(FUNCS),
                    self.pick(FUNCS)
                )
            }
            4 => format!(
                "  File \"{}\", line {}, in {}\n    {}",
                self.path(),
                self.line(),
                self.pick(FUNCS),
                self.pick(ERRORS)
            ),
            5 => format!(
                "{{\"status\": \"ok\", \"table\": \"{}\", \"rows\": {}, \"ms\": {}}}",
                self.pick(TABLES),
                self.0.u32(0..=100_000),
                self.0.u32(1..=5000)
            ),
            _ => format!(
                "{} [{}%]",
                ".".repeat(self.0.usize(8..=40)),
                self.0.u32(10..=100)
            ),
        }
    }

    /// A narrative region's role and text, about `mean` bytes long: a
    /// user's asks, an assistant's notes, a tool's output (two in ten,
    /// four, four).
    fn narrative(&mut self, mean: usize) -> (&'static str, String) {
        let role = match self.0.u8(..10) {
            0..=1 => "user",
            2..=5 => "assistant",
            _ => "tool",
        };
        let target = self.length(mean);
        let mut parts: Vec<String> = Vec::new();
        let mut length = 0;
        if role == "tool" {
            let head = format!("$ {} {}", self.pick(COMMANDS), self.path());
            length = head.len();
            parts.push(head);
        }
        while length < target {
            let part = match role {
                "user" => self.user_piece(),
                "assistant" => self.assistant_piece(),
                _ => self.tool_line(),
            };
            length += part.len() + 1;
            parts.push(part);
        }
        let mut text = parts.join(if role == "tool" { "\n" } else { " " });
        if role == "tool" && self.0.f64() < 0.3 {
            let passed = self.0.u32(1..=400);
            let seconds = f64::from(self.0.u32(1..=900)) / 100.0;
            text.push_str(&format!("\n\u{2713} {passed} passed in {seconds:.2}s"));
        }
        // A long overshoot is cut at a line or word end near the target.
        if text.len() > target + 40 {
            let cut = text
                .get(..target)
                .and_then(|head| head.rfind(if role == "tool" { '\n' } else { ' ' }))
                .filter(|&cut| cut > target / 2);
            if let Some(cut) = cut {
                text.truncate(cut);
            }
        }
        (role, text)
    }

    /// What a summarizer writes of a run of `turns` narrative regions: the
    /// work, the paths read and the commands run.
    fn summary(&mut self, turns: usize) -> String {
        match self.0.u8(..3) {
            0 => format!(
                "Worked on {} ({turns} turns): read {}, ran `{}`.",
                self.pick(THINGS),
                self.path(),
                self.pick(COMMANDS)
            ),
            1 => format!(
                "Investigated a {} test around {}(); {} seen, not fixed yet.",
                self.pick(ADJ),
                self.pick(FUNCS),
                self.pick(ERRORS).split(':').next().unwrap_or_default()
            ),
            _ => format!(
                "User asked to {} {}; assistant inspected {} and {}.",
                self.pick(VERBS),
                self.pick(THINGS),
                self.path(),
                self.pick(TABLES)
            ),
        }
    }

    /// A commitment of `kind`: its text or record.
    fn commitment(&mut self, kind: &str) -> Value {
        let table = self.pick(TABLES);
        match kind {
            "constraint" => json!(match self.0.u8(..3) {
                0 =>
                    format!("The migration must remain reversible; do not drop columns in {table}."),
                1 => format!(
                    "Do not modify {}; it is vendored and synced upstream.",
                    self.path()
                ),
                _ => format!(
                    "Never {} {} without a feature flag.",
                    self.pick(VERBS),
                    self.pick(THINGS)
                ),
            }),
            "decision" => json!(match self.0.u8(..2) {
                0 =>
                    format!("Use (tenant_id, id) as the primary key of {table}; no surrogate ids."),
                _ => format!("Keep the copy in {} and delete the duplicate.", self.path()),
            }),
            "identifier" => json!(format!(
                "Edit {}; it is the module that {}() imports.",
                self.path(),
                self.pick(FUNCS)
            )),
            "value" => {
                json!({"table": table, "rows": self.0.u32(1000..10_000_000), "confirmed_by": "user"})
            }
            _ => json!(format!(
                "Run `{}` before `{}`, every time, even for one-line fixes.",
                self.pick(COMMANDS),
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
    let flush = |run: &mut Vec<String>,
                 text: &mut Text,
                 plans: [&mut Document; 2]|
     -> io::Result<()> {
        if run.is_empty() {
            return Ok(());
        }
        let summary = text.summary(run.len());
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
            flush(&mut run, &mut text, [&mut good, &mut alter])?;
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
    flush(&mut run, &mut text, [&mut good, &mut alter])?;
    for document in [json, lines, good, alter] {
        document.finish()?;
    }
    Ok(())
}

//! How well `ctxguard audit` judges real sessions against labels a person
//! made (`tests/corpus/LABELLING.md`): recall, precision, the share of
//! flags on text that is no commitment, silent passes and false inventions,
//! per source and per split, with the confusion matrix of the grades.
//!
//! `cargo test --test eval` runs it (CI does, with the rest); it fails when
//! a split misses the targets it is held to. `-- --misses` also lists, for
//! the tuning split only, each label missed and each flag that was wrong:
//! the held-out split is only ever seen as numbers.
//!
//! Words as the tables use them: a *flag* is a commitment the audit did
//! not find verbatim (paraphrased, altered, lost) or an invented
//! requirement; a flag is *right* when it falls on a labelled commitment
//! the compaction did not keep verbatim, or on a labelled invention;
//! *noise* is a flag on text no label calls a commitment; a *silent pass*
//! is a compaction with a labelled commitment before it for which the audit
//! judged none and did not say it could not audit it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;
use serde_json::Value;

const CORPUS: &str = "tests/corpus";

#[derive(Debug, Deserialize)]
struct Labels {
    session: String,
    #[serde(default)]
    compactions: Vec<LabelledCompaction>,
    #[serde(default)]
    commitments: Vec<Label>,
    #[serde(default)]
    invented: Vec<LabelledInvention>,
}

#[derive(Debug, Deserialize)]
struct LabelledCompaction {
    n: usize,
    line: u64,
}

#[derive(Debug, Deserialize)]
struct Label {
    line: u64,
    quote: String,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    outcomes: BTreeMap<usize, String>,
    #[serde(default)]
    superseded: Option<usize>,
}

#[derive(Debug, Deserialize)]
struct LabelledInvention {
    compaction: usize,
    quote: String,
}

#[derive(Debug, Deserialize)]
struct Splits {
    tune: Vec<String>,
    holdout: Vec<String>,
    #[serde(default)]
    unseen: Vec<String>,
}

/// What the audit said of one unit of one compaction.
#[derive(Clone, Debug)]
struct Judged {
    line: Option<u64>,
    text: String,
    outcome: String,
}

/// What the audit said of one compaction.
#[derive(Debug, Default)]
struct AuditedEvent {
    line: u64,
    verdict: String,
    commitments: Vec<Judged>,
    invented: Vec<String>,
}

const GRADES: [&str; 4] = ["verbatim", "paraphrased", "altered", "lost"];

#[derive(Clone, Debug, Default)]
struct Tally {
    sessions: usize,
    compactions: usize,
    /// Labelled commitments the compaction did not keep verbatim.
    missed_by_compaction: usize,
    /// Of those, how many the audit flagged.
    reported: usize,
    flags: usize,
    right: usize,
    noise: usize,
    silent: usize,
    unauditable: usize,
    false_inventions: usize,
    inventions: usize,
    inventions_found: usize,
    /// Labelled grade -> the audit's grade (or `not judged`).
    confusion: BTreeMap<(String, String), usize>,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.sessions += other.sessions;
        self.compactions += other.compactions;
        self.missed_by_compaction += other.missed_by_compaction;
        self.reported += other.reported;
        self.flags += other.flags;
        self.right += other.right;
        self.noise += other.noise;
        self.silent += other.silent;
        self.unauditable += other.unauditable;
        self.false_inventions += other.false_inventions;
        self.inventions += other.inventions;
        self.inventions_found += other.inventions_found;
        for (key, n) in &other.confusion {
            *self.confusion.entry(key.clone()).or_default() += n;
        }
    }

    fn recall(&self) -> f64 {
        ratio(self.reported, self.missed_by_compaction)
    }

    fn precision(&self) -> f64 {
        ratio(self.right, self.flags)
    }

    fn noise_share(&self) -> f64 {
        if self.flags == 0 {
            0.0
        } else {
            self.noise as f64 / self.flags as f64
        }
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// Lower case, white space folded: how a quote and a unit are compared.
fn norm(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether the audit's unit `text` is the labelled `quote` (one holds the other).
fn same_unit(text: &str, quote: &str) -> bool {
    let (a, b) = (norm(text), norm(quote));
    !a.is_empty() && !b.is_empty() && (a.contains(&b) || b.contains(&a))
}

fn severity(grade: &str) -> usize {
    GRADES.iter().position(|g| *g == grade).unwrap_or(0)
}

fn audit(binary: &Path, session: &Path) -> Vec<AuditedEvent> {
    let output = Command::new(binary)
        .args(["audit", "--format", "json"])
        .arg(session)
        .output()
        .expect("ctxguard runs");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: no JSON report ({e}): {}",
            session.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let events = report["events"].as_array().cloned().unwrap_or_default();
    events
        .iter()
        .map(|event| AuditedEvent {
            line: event["compaction_line"].as_u64().unwrap_or(0),
            verdict: event["verdict"].as_str().unwrap_or("").to_owned(),
            commitments: event["commitments"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| Judged {
                    line: c["source_line"].as_u64(),
                    text: c["text"].as_str().unwrap_or("").to_owned(),
                    outcome: c["outcome"].as_str().unwrap_or("").to_owned(),
                })
                .collect(),
            invented: event["invented"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|i| i["text"].as_str().map(str::to_owned))
                .collect(),
        })
        .collect()
}

/// The tally of one session, and what went wrong in it (for `--misses`).
fn score(labels: &Labels, events: &[AuditedEvent]) -> (Tally, Vec<String>) {
    let mut tally = Tally {
        sessions: 1,
        ..Tally::default()
    };
    let mut misses = Vec::new();
    for compaction in &labels.compactions {
        tally.compactions += 1;
        let n = compaction.n;
        let Some(event) = events.iter().find(|e| e.line == compaction.line) else {
            misses.push(format!(
                "compaction {n} (line {}): not found by the audit",
                compaction.line
            ));
            let applicable = labels
                .commitments
                .iter()
                .filter(|l| l.outcomes.contains_key(&n))
                .count();
            if applicable > 0 {
                tally.silent += 1;
            }
            continue;
        };
        // Labels in force at this compaction.
        let applicable: Vec<&Label> = labels
            .commitments
            .iter()
            .filter(|l| l.outcomes.contains_key(&n) && l.superseded.is_none_or(|s| s > n))
            .collect();
        if event.verdict == "unauditable" {
            tally.unauditable += 1;
        }
        if !applicable.is_empty() && event.commitments.is_empty() && event.verdict != "unauditable"
        {
            tally.silent += 1;
            misses.push(format!("compaction {n}: silent pass"));
        }
        let matches = |label: &Label| -> Vec<&Judged> {
            event
                .commitments
                .iter()
                .filter(|j| j.line == Some(label.line) && same_unit(&j.text, &label.quote))
                .collect()
        };
        for label in &applicable {
            let grade = label.outcomes[&n].as_str();
            let found = matches(label);
            let judged = found
                .iter()
                .map(|j| j.outcome.as_str())
                .filter(|o| GRADES.contains(o))
                .max_by_key(|o| severity(o))
                .unwrap_or("not judged");
            *tally
                .confusion
                .entry((grade.to_owned(), judged.to_owned()))
                .or_default() += 1;
            if grade != "verbatim" {
                tally.missed_by_compaction += 1;
                if found
                    .iter()
                    .any(|j| j.outcome != "verbatim" && GRADES.contains(&j.outcome.as_str()))
                {
                    tally.reported += 1;
                } else {
                    misses.push(format!(
                        "compaction {n}: missed ({grade}, audit: {judged}) line {}: {:?}",
                        label.line,
                        clip(&label.quote)
                    ));
                }
            }
        }
        for judged in &event.commitments {
            if !matches!(judged.outcome.as_str(), "paraphrased" | "altered" | "lost") {
                continue;
            }
            tally.flags += 1;
            let label = labels
                .commitments
                .iter()
                .find(|l| Some(l.line) == judged.line && same_unit(&judged.text, &l.quote));
            match label {
                None => {
                    tally.noise += 1;
                    misses.push(format!(
                        "compaction {n}: noise ({}) line {}: {:?}",
                        judged.outcome,
                        judged.line.unwrap_or(0),
                        clip(&judged.text)
                    ));
                }
                Some(label) => match label.outcomes.get(&n) {
                    Some(grade)
                        if grade != "verbatim" && label.superseded.is_none_or(|s| s > n) =>
                    {
                        tally.right += 1
                    }
                    other => misses.push(format!(
                        "compaction {n}: wrong flag ({}, labelled {}) line {}: {:?}",
                        judged.outcome,
                        other.map_or("not in force", String::as_str),
                        label.line,
                        clip(&judged.text)
                    )),
                },
            }
        }
        let labelled: Vec<&LabelledInvention> = labels
            .invented
            .iter()
            .filter(|i| i.compaction == n)
            .collect();
        tally.inventions += labelled.len();
        for invention in &labelled {
            if event
                .invented
                .iter()
                .any(|i| same_unit(i, &invention.quote))
            {
                tally.inventions_found += 1;
            } else {
                misses.push(format!(
                    "compaction {n}: invention missed: {:?}",
                    clip(&invention.quote)
                ));
            }
        }
        for invented in &event.invented {
            tally.flags += 1;
            if labelled.iter().any(|i| same_unit(invented, &i.quote)) {
                tally.right += 1;
            } else {
                tally.false_inventions += 1;
                misses.push(format!(
                    "compaction {n}: false invention: {:?}",
                    clip(invented)
                ));
            }
        }
    }
    (tally, misses)
}

fn clip(text: &str) -> String {
    let text = norm(text);
    match text.char_indices().nth(100) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

fn row(name: &str, t: &Tally) -> String {
    format!(
        "{name:<44} {:>3} {:>4} {:>6} {:>9} {:>6} {:>5} {:>7} {:>6} {:>6}",
        t.compactions,
        t.missed_by_compaction,
        format!("{:.2}", t.recall()),
        format!("{:.2}", t.precision()),
        t.flags,
        format!("{:.0}%", t.noise_share() * 100.0),
        t.silent,
        t.false_inventions,
        t.unauditable,
    )
}

fn header() -> String {
    format!(
        "{:<44} {:>3} {:>4} {:>6} {:>9} {:>6} {:>5} {:>7} {:>6} {:>6}",
        "source",
        "cmp",
        "lost",
        "recall",
        "precision",
        "flags",
        "noise",
        "silent",
        "f.inv",
        "unaud"
    )
}

fn confusion(t: &Tally) -> String {
    let columns = ["verbatim", "paraphrased", "altered", "lost", "not judged"];
    let mut out = format!("{:<14}", "labelled \\ audit");
    for c in columns {
        out.push_str(&format!(" {c:>11}"));
    }
    out.push('\n');
    for grade in GRADES {
        out.push_str(&format!("{grade:<16}"));
        for c in columns {
            let n = t
                .confusion
                .get(&(grade.to_owned(), c.to_owned()))
                .copied()
                .unwrap_or(0);
            out.push_str(&format!(" {n:>11}"));
        }
        out.push('\n');
    }
    out
}

/// The targets a split is held to.
struct Targets {
    recall: f64,
    precision: f64,
    noise: f64,
    silent: usize,
    /// False inventions per ten compactions.
    inventions_per_ten: f64,
}

const TARGETS: Targets = Targets {
    recall: 0.90,
    precision: 0.85,
    noise: 0.20,
    silent: 0,
    inventions_per_ten: 1.0,
};

fn falls_short(t: &Tally) -> Vec<String> {
    let mut short = Vec::new();
    if t.recall() < TARGETS.recall {
        short.push(format!("recall {:.2} < {}", t.recall(), TARGETS.recall));
    }
    if t.precision() < TARGETS.precision {
        short.push(format!(
            "precision {:.2} < {}",
            t.precision(),
            TARGETS.precision
        ));
    }
    if t.noise_share() > TARGETS.noise {
        short.push(format!(
            "noise {:.0}% > {:.0}%",
            t.noise_share() * 100.0,
            TARGETS.noise * 100.0
        ));
    }
    if t.silent > TARGETS.silent {
        short.push(format!("{} silent passes", t.silent));
    }
    let per_ten = t.false_inventions as f64 * 10.0 / t.compactions.max(1) as f64;
    if per_ten > TARGETS.inventions_per_ten {
        short.push(format!(
            "{per_ten:.1} false inventions per ten compactions > {}",
            TARGETS.inventions_per_ten
        ));
    }
    short
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let show_misses = args.iter().any(|a| a == "--misses");
    // `--only SPLIT`: judge one split (the others are still held to their
    // targets when the whole suite runs).
    let only = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = root.join(CORPUS);
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_ctxguard"));
    let splits: Splits = serde_yaml::from_str(
        &std::fs::read_to_string(corpus.join("splits.yaml")).expect("tests/corpus/splits.yaml"),
    )
    .expect("splits.yaml reads");
    let mut failures = Vec::new();
    for (split, folders, held_to) in [
        ("tune", &splits.tune, true),
        ("holdout", &splits.holdout, true),
        ("unseen", &splits.unseen, false),
    ] {
        if folders.is_empty() || only.as_ref().is_some_and(|o| o != split) {
            continue;
        }
        println!("\n## {split}\n\n{}", header());
        let mut total = Tally::default();
        let mut by_source: BTreeMap<String, Tally> = BTreeMap::new();
        for folder in folders {
            let dir = corpus.join(folder);
            let labels: Labels = serde_yaml::from_str(
                &std::fs::read_to_string(dir.join("labels.yaml"))
                    .unwrap_or_else(|e| panic!("{folder}/labels.yaml: {e}")),
            )
            .unwrap_or_else(|e| panic!("{folder}/labels.yaml: {e}"));
            let events = audit(&binary, &dir.join(&labels.session));
            let (tally, misses) = score(&labels, &events);
            if show_misses && split == "tune" {
                println!("{}", row(folder, &tally));
                for miss in &misses {
                    println!("    {miss}");
                }
            }
            // A source is the repository a session came from.
            let source = folder.split("__").take(2).collect::<Vec<_>>().join("/");
            by_source.entry(source).or_default().add(&tally);
            total.add(&tally);
        }
        for (source, tally) in &by_source {
            println!("{}", row(source, tally));
        }
        println!(
            "{}\n\n{} sessions, {} compactions; labelled inventions found {}/{}\n\n{}",
            row("all", &total),
            total.sessions,
            total.compactions,
            total.inventions_found,
            total.inventions,
            confusion(&total)
        );
        let _ = kinds_used(&corpus, folders);
        if held_to {
            for short in falls_short(&total) {
                failures.push(format!("{split}: {short}"));
            }
        }
    }
    if !failures.is_empty() {
        eprintln!("\nthe audit misses its targets:");
        for failure in &failures {
            eprintln!("  {failure}");
        }
        std::process::exit(1);
    }
}

/// The kinds the labels use (read so a label file with an unknown field
/// shape fails here rather than silently).
fn kinds_used(corpus: &Path, folders: &[String]) -> BTreeMap<String, usize> {
    let mut kinds = BTreeMap::new();
    for folder in folders {
        let text =
            std::fs::read_to_string(corpus.join(folder).join("labels.yaml")).unwrap_or_default();
        if let Ok(labels) = serde_yaml::from_str::<Labels>(&text) {
            for label in labels.commitments {
                *kinds.entry(label.kind.unwrap_or_default()).or_default() += 1;
            }
        }
    }
    kinds
}

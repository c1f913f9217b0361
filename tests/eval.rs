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

/// Whether the audit's unit `text` is the labelled `quote` (one holds the
/// other), a list marker the quote kept (`1. `, `- `) aside.
///
/// A quote may be a distinctive part of a long unit, and a unit a part of a
/// long quote, cut at other places: most of the shorter one's words in the
/// longer one (three words at least) is the same unit too.
fn same_unit(text: &str, quote: &str) -> bool {
    let (a, b) = (norm(text), norm(unmarked(quote)));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    if a.contains(&b) || b.contains(&a) {
        return true;
    }
    let words = |s: &str| -> std::collections::BTreeSet<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    };
    let (wa, wb) = (words(&a), words(&b));
    let shorter = wa.len().min(wb.len());
    shorter >= 3 && wa.intersection(&wb).count() * 10 >= shorter * 6
}

/// A quote without the list marker it may start with.
fn unmarked(quote: &str) -> &str {
    let trimmed = quote.trim_start();
    let rest = trimmed.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if rest.len() < trimmed.len() {
        rest.strip_prefix(['.', ')']).unwrap_or(trimmed)
    } else {
        trimmed.strip_prefix(['-', '*', '+']).unwrap_or(trimmed)
    };
    rest.trim_start()
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
        let matches = |label: &Label| -> Vec<(usize, &Judged)> {
            event
                .commitments
                .iter()
                .enumerate()
                .filter(|(_, j)| j.line == Some(label.line) && same_unit(&j.text, &label.quote))
                .collect()
        };
        // A flag catches one label: a unit the audit kept whole around
        // several requirements (a pasted brief of forty rules) catches one
        // of them, not forty. (A quote may still be a distinctive part of
        // its unit: one label, one unit.)
        let mut credited = std::collections::HashSet::new();
        for label in &applicable {
            let grade = label.outcomes[&n].as_str();
            let found = matches(label);
            let judged = found
                .iter()
                .map(|(_, j)| j.outcome.as_str())
                .filter(|o| GRADES.contains(o))
                .max_by_key(|o| severity(o))
                .unwrap_or("not judged");
            *tally
                .confusion
                .entry((grade.to_owned(), judged.to_owned()))
                .or_default() += 1;
            if grade == "unknown" {
                // Nobody can tell what an encrypted summary kept: not a
                // loss to find, but the audit must say it cannot check it.
                if !found.iter().any(|(_, j)| j.outcome == "unauditable") {
                    misses.push(format!(
                        "compaction {n}: not said to be uncheckable (audit: {judged}) line {}: {:?}",
                        label.line,
                        clip(&label.quote)
                    ));
                }
            } else if grade != "verbatim" {
                tally.missed_by_compaction += 1;
                let flags: Vec<usize> = found
                    .iter()
                    .filter(|(_, j)| {
                        j.outcome != "verbatim" && GRADES.contains(&j.outcome.as_str())
                    })
                    .map(|(i, _)| *i)
                    .collect();
                if let Some(&i) = flags.iter().find(|i| !credited.contains(*i)) {
                    credited.insert(i);
                    tally.reported += 1;
                } else {
                    let judged = if flags.is_empty() {
                        judged.to_owned()
                    } else {
                        let unit = &event.commitments[flags[0]].text;
                        format!(
                            "{judged}, in a unit that caught another label: {:?}",
                            clip(unit)
                        )
                    };
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
        "{name:<44.44} {:>3} {:>4} {:>6} {:>9} {:>6} {:>5} {:>7} {:>6} {:>6}",
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

/// What the audit is aiming for, on every split.
const TARGETS: Targets = Targets {
    recall: 0.90,
    precision: 0.85,
    noise: 0.20,
    silent: 0,
    inventions_per_ten: 1.0,
};

/// What a split is held to in CI: what the audit reached on it when these
/// floors were set, a little below, so a change that makes the judgment
/// worse fails.
fn floor(split: &str) -> Option<Targets> {
    match split {
        "tune" => Some(Targets {
            recall: 0.87,
            precision: 0.86,
            noise: 0.12,
            silent: 0,
            inventions_per_ten: 0.5,
        }),
        // Since a flag catches one label (`score`), the held-out recall
        // read 0.77, not 0.90: the difference was labels caught inside
        // units the audit kept whole around several of them. It reads
        // 0.82 since an answer written out in sentences is judged a unit
        // at a time.
        "holdout" => Some(Targets {
            recall: 0.80,
            precision: 0.73,
            noise: 0.24,
            silent: 0,
            inventions_per_ten: 2.0,
        }),
        _ => None,
    }
}

fn falls_short(t: &Tally, targets: &Targets) -> Vec<String> {
    let mut short = Vec::new();
    if t.recall() < targets.recall {
        short.push(format!("recall {:.2} < {}", t.recall(), targets.recall));
    }
    if t.precision() < targets.precision {
        short.push(format!(
            "precision {:.2} < {}",
            t.precision(),
            targets.precision
        ));
    }
    if t.noise_share() > targets.noise {
        short.push(format!(
            "noise {:.0}% > {:.0}%",
            t.noise_share() * 100.0,
            targets.noise * 100.0
        ));
    }
    if t.silent > targets.silent {
        short.push(format!("{} silent passes", t.silent));
    }
    let per_ten = t.false_inventions as f64 * 10.0 / t.compactions.max(1) as f64;
    if per_ten > targets.inventions_per_ten {
        short.push(format!(
            "{per_ten:.1} false inventions per ten compactions > {}",
            targets.inventions_per_ten
        ));
    }
    short
}

/// A second person's labels of the same session, as if they were the
/// audit: what they call a commitment, and its grade, at each compaction.
fn as_audit(labels: &Labels) -> Vec<AuditedEvent> {
    labels
        .compactions
        .iter()
        .map(|c| AuditedEvent {
            line: c.line,
            verdict: String::new(),
            commitments: labels
                .commitments
                .iter()
                .filter(|l| l.superseded.is_none_or(|s| s > c.n))
                .filter_map(|l| {
                    Some(Judged {
                        line: Some(l.line),
                        text: l.quote.clone(),
                        outcome: l.outcomes.get(&c.n)?.clone(),
                    })
                })
                .collect(),
            invented: labels
                .invented
                .iter()
                .filter(|i| i.compaction == c.n)
                .map(|i| i.quote.clone())
                .collect(),
        })
        .collect()
}

fn read_labels(path: &Path) -> Option<Labels> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// What one split came to: the audit against the first labeller, against
/// the second where there is one, and the second against the first.
#[derive(Default)]
struct SplitTallies {
    first: Tally,
    second: Tally,
    agreement: Tally,
    by_source: BTreeMap<String, Tally>,
    kinds: BTreeMap<String, (usize, usize)>,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let show_misses = args.iter().any(|a| a == "--misses");
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    // `--only SPLIT`: judge one split. `--corpus DIR`: another corpus laid
    // out the same way (a batch collected after the audit was tuned).
    let only = value("--only");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = value("--corpus").map_or_else(|| root.join(CORPUS), PathBuf::from);
    // `--binary PATH`: judge another build (an earlier one, to compare).
    let binary = value("--binary").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_ctxguard")),
        PathBuf::from,
    );
    let splits: Splits = serde_yaml::from_str(
        &std::fs::read_to_string(corpus.join("splits.yaml")).expect("splits.yaml in the corpus"),
    )
    .expect("splits.yaml reads");
    let mut failures = Vec::new();
    for (split, folders) in [
        ("tune", &splits.tune),
        ("holdout", &splits.holdout),
        ("unseen", &splits.unseen),
    ] {
        if folders.is_empty() || only.as_ref().is_some_and(|o| o != split) {
            continue;
        }
        let mut tallies = SplitTallies::default();
        for folder in folders {
            let dir = corpus.join(folder);
            let labels = read_labels(&dir.join("labels.yaml"))
                .unwrap_or_else(|| panic!("{folder}/labels.yaml is missing"));
            let events = audit(&binary, &dir.join(&labels.session));
            let (tally, misses) = score(&labels, &events);
            if show_misses && split == "tune" {
                println!("{}", row(folder, &tally));
                for miss in &misses {
                    println!("    {miss}");
                }
            }
            if let Some(second) = read_labels(&dir.join("labels.b.yaml")) {
                tallies.second.add(&score(&second, &events).0);
                tallies.agreement.add(&score(&labels, &as_audit(&second)).0);
            }
            for (kind, reported, missed) in by_kind(&labels, &events) {
                let entry = tallies.kinds.entry(kind).or_default();
                entry.0 += reported;
                entry.1 += missed;
            }
            // A source is the repository a session came from.
            let source = folder.split("__").take(2).collect::<Vec<_>>().join("/");
            tallies.by_source.entry(source).or_default().add(&tally);
            tallies.first.add(&tally);
        }
        print_split(split, &tallies);
        for short in falls_short(&tallies.first, &TARGETS) {
            println!("target missed ({split}): {short}");
        }
        if let Some(floor) = floor(split) {
            for short in falls_short(&tallies.first, &floor) {
                failures.push(format!("{split}: {short}"));
            }
        }
    }
    if !failures.is_empty() {
        eprintln!("\nthe audit fell below what it reached before:");
        for failure in &failures {
            eprintln!("  {failure}");
        }
        std::process::exit(1);
    }
}

fn print_split(split: &str, t: &SplitTallies) {
    println!("\n## {split}\n\n{}", header());
    for (source, tally) in &t.by_source {
        println!("{}", row(source, tally));
    }
    println!("{}", row("all (labeller A)", &t.first));
    if t.second.sessions > 0 {
        println!("{}", row("all (labeller B)", &t.second));
        println!("{}", row("labeller B judged by labeller A", &t.agreement));
    }
    println!(
        "\n{} sessions, {} compactions; labelled inventions found {}/{}",
        t.first.sessions, t.first.compactions, t.first.inventions_found, t.first.inventions
    );
    let kinds: Vec<String> = t
        .kinds
        .iter()
        .map(|(kind, (reported, missed))| format!("{kind} {reported}/{}", reported + missed))
        .collect();
    println!(
        "recall by kind: {}\n\n{}",
        kinds.join(", "),
        confusion(&t.first)
    );
}

/// Per labelled kind: how many commitments not kept verbatim were reported,
/// and how many were missed.
fn by_kind(labels: &Labels, events: &[AuditedEvent]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for compaction in &labels.compactions {
        let Some(event) = events.iter().find(|e| e.line == compaction.line) else {
            continue;
        };
        for label in &labels.commitments {
            let n = compaction.n;
            let Some(grade) = label.outcomes.get(&n) else {
                continue;
            };
            if grade == "verbatim" || grade == "unknown" || label.superseded.is_some_and(|s| s <= n)
            {
                continue;
            }
            let reported = event.commitments.iter().any(|j| {
                j.line == Some(label.line)
                    && same_unit(&j.text, &label.quote)
                    && matches!(j.outcome.as_str(), "paraphrased" | "altered" | "lost")
            });
            let kind = label.kind.clone().unwrap_or_default();
            out.push((kind, usize::from(reported), usize::from(!reported)));
        }
    }
    out
}

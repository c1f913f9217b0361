//! `ctxguard plan`: the reference compactor. It keeps every commitment (and
//! every unclassified region) with `keep:`, replaces each maximal run of
//! narrative between them by one summary, and, while over budget, drops the
//! oldest summaries, then the oldest discharged commitments. The result is
//! verified before it is returned: a plan that does not verify is never
//! written.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;

use serde::Serialize;

use crate::ast::Tokenizer;
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::document::InputFormat;
use crate::index::{Class, TraceIndex};
use crate::plan::{Entry, Plan, PlanRegion};
use crate::policy::Policy;
use crate::source::SourceFile;
use crate::tokens::{self, Counter};
use crate::trace::{Place, Status, Trace};
use crate::verify::{verify, Options, Verdict};

#[derive(Clone, Debug, Default)]
pub struct CompactOptions {
    /// A shell command run once per narrative run, the run's text on its
    /// standard input; its standard output is the summary.
    pub summarizer: Option<String>,
    pub budget: Option<u64>,
    /// Overrides the policy's `tokenizer`.
    pub tokenizer: Option<Tokenizer>,
    /// Count every region instead of trusting its `tokens`.
    pub recount: bool,
}

impl CompactOptions {
    /// The verification every written plan passes.
    fn verify_options(&self) -> Options {
        Options {
            budget: self.budget,
            warning_limit: None,
            tokenizer: self.tokenizer,
            recount: self.recount,
            overrides: Default::default(),
        }
    }
}

/// One region of a written plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Planned {
    Keep {
        keep: String,
    },
    Summary {
        kind: &'static str,
        covers: Vec<String>,
        text: String,
        summarizer: String,
    },
}

#[derive(Debug, Serialize)]
pub struct PlanDocument {
    pub version: u32,
    pub regions: Vec<Planned>,
}

#[derive(Debug)]
pub enum Outcome {
    /// A plan that verifies as compact, with any warnings the verifier gave.
    Plan(PlanDocument, Vec<Diagnostic>),
    /// No plan fits the budget: a person must decide.
    Escalate(Vec<Diagnostic>),
    /// The trace cannot be compacted safely as it is, or the summarizer failed.
    Failed(Vec<Diagnostic>),
}

impl PlanDocument {
    /// The plan in a trace format: JSON, YAML or JSON Lines (one region a line).
    pub fn write(&self, format: InputFormat, out: &mut dyn Write) -> std::io::Result<()> {
        let invalid = |error: String| std::io::Error::new(std::io::ErrorKind::InvalidData, error);
        match format {
            InputFormat::Json => {
                serde_json::to_writer_pretty(&mut *out, self)
                    .map_err(|e| invalid(e.to_string()))?;
                writeln!(out)
            }
            InputFormat::Yaml => {
                serde_yaml::to_writer(&mut *out, self).map_err(|e| invalid(e.to_string()))
            }
            InputFormat::JsonLines => {
                for region in &self.regions {
                    serde_json::to_writer(&mut *out, region).map_err(|e| invalid(e.to_string()))?;
                    writeln!(out)?;
                }
                Ok(())
            }
        }
    }
}

pub fn compact(policy: &Policy, trace: &Trace, options: &CompactOptions) -> Outcome {
    // Only the trace's errors matter here; its warnings come with the verification below.
    let counter = options.verify_options().counter(policy);
    let index = TraceIndex::new(policy, trace, counter, Some(0));
    if index.has_errors() {
        return Outcome::Failed(index.findings.errors().cloned().collect());
    }
    let mut entries: Vec<(Planned, u64, Option<usize>)> = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    for (t, region) in trace.regions.iter().enumerate() {
        if index.class[t] == Class::Narrative {
            run.push(t);
            continue;
        }
        if let Err(diagnostic) = flush(&mut entries, &mut run, trace, counter, options) {
            return Outcome::Failed(vec![*diagnostic]);
        }
        let discharged =
            matches!(index.class[t], Class::Commitment(_)) && region.status == Status::Discharged;
        entries.push((
            Planned::Keep {
                keep: region.id.clone(),
            },
            index.tokens[t],
            discharged.then_some(t),
        ));
    }
    if let Err(diagnostic) = flush(&mut entries, &mut run, trace, counter, options) {
        return Outcome::Failed(vec![*diagnostic]);
    }

    if let Some(window) = options.budget.or(policy.window.as_ref().map(|w| w.value)) {
        let mut total: u64 = entries.iter().map(|(_, tokens, _)| tokens).sum();
        // Oldest summaries first, then oldest discharged commitments.
        let droppable: Vec<usize> = (0..entries.len())
            .filter(|&i| matches!(entries[i].0, Planned::Summary { .. }))
            .chain((0..entries.len()).filter(|&i| entries[i].2.is_some()))
            .collect();
        let mut dropped = vec![false; entries.len()];
        for i in droppable {
            if total <= window {
                break;
            }
            dropped[i] = true;
            total -= entries[i].1;
        }
        let mut keep = dropped.iter().map(|d| !d);
        entries.retain(|_| keep.next().unwrap_or(true));
    }

    let document = PlanDocument {
        version: 1,
        regions: entries.into_iter().map(|(planned, _, _)| planned).collect(),
    };
    let plan = as_plan(&document);
    let verification = verify(policy, trace, &plan, &options.verify_options());
    match verification.verdict {
        Verdict::Compact => Outcome::Plan(document, verification.diagnostics),
        Verdict::Escalate => Outcome::Escalate(
            verification
                .diagnostics
                .into_iter()
                .filter(|d| d.code == Code::BudgetUnmeetable)
                .collect(),
        ),
        Verdict::Reject => Outcome::Failed(
            verification
                .diagnostics
                .into_iter()
                .filter(|d| d.severity == Severity::Error)
                .collect(),
        ),
    }
}

/// Replaces the pending narrative run by one summary.
fn flush(
    entries: &mut Vec<(Planned, u64, Option<usize>)>,
    run: &mut Vec<usize>,
    trace: &Trace,
    counter: Counter,
    options: &CompactOptions,
) -> Result<(), Box<Diagnostic>> {
    if run.is_empty() {
        return Ok(());
    }
    let texts: Vec<String> = run
        .iter()
        .map(|&t| trace.regions[t].content.as_text().into_owned())
        .collect();
    let (text, summarizer) = match &options.summarizer {
        Some(command) => (
            summarize(command, &texts.join("\n\n"), run, trace)?,
            command.clone(),
        ),
        None => (extract(&texts), "extractive".to_owned()),
    };
    let tokens = tokens::count(counter.tokenizer, &text);
    let covers = run.iter().map(|&t| trace.regions[t].id.clone()).collect();
    entries.push((
        Planned::Summary {
            kind: "summary",
            covers,
            text,
            summarizer,
        },
        tokens,
        None,
    ));
    run.clear();
    Ok(())
}

/// The deterministic placeholder: the first sentence of each region.
fn extract(texts: &[String]) -> String {
    texts
        .iter()
        .filter_map(|text| {
            let text = text.trim();
            let end = text
                .char_indices()
                .find(|&(i, c)| {
                    c == '\n'
                        || (matches!(c, '.' | '!' | '?')
                            && text[i + c.len_utf8()..].starts_with([' ', '\n']))
                })
                .map_or(
                    text.len(),
                    |(i, c)| if c == '\n' { i } else { i + c.len_utf8() },
                );
            let sentence: String = text[..end].chars().take(200).collect();
            let sentence = sentence.trim();
            (!sentence.is_empty()).then(|| sentence.to_owned())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn summarize(
    command: &str,
    input: &str,
    run: &[usize],
    trace: &Trace,
) -> Result<String, Box<Diagnostic>> {
    let ids: Vec<&str> = run.iter().map(|&t| trace.regions[t].id.as_str()).collect();
    let what = if ids.len() == 1 {
        format!("region {}", ids.join(""))
    } else {
        format!("regions {}", ids.join(", "))
    };
    let failed = |reason: String| {
        Box::new(
            Diagnostic::new(Code::SummarizerFailed, format!("the summarizer failed on {what}: {reason}"))
                .help("the summarizer reads the narrative on stdin and writes the summary on stdout; ctxguard never writes an empty summary"),
        )
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| failed(format!("`{command}` could not start: {error}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A summarizer that exits without reading its input is judged by its exit status.
        let _ = stdin.write_all(input.as_bytes());
    }
    let output = child
        .wait_with_output()
        .map_err(|error| failed(error.to_string()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("").trim();
        let status = output
            .status
            .code()
            .map_or("a signal".to_owned(), |code| format!("status {code}"));
        return Err(failed(if last.is_empty() {
            format!("`{command}` exited with {status}")
        } else {
            format!("`{command}` exited with {status}: {last}")
        }));
    }
    let summary = String::from_utf8(output.stdout)
        .map_err(|_| failed("its output is not UTF-8".to_owned()))?;
    let summary = summary.trim();
    if summary.is_empty() {
        return Err(failed(format!("`{command}` printed nothing")));
    }
    Ok(summary.to_owned())
}

/// The written plan as the verifier's model (no file behind it).
pub fn as_plan(document: &PlanDocument) -> Plan {
    let file = SourceFile::new("<plan>", "");
    let regions = document
        .regions
        .iter()
        .enumerate()
        .map(|(index, planned)| PlanRegion {
            entry: match planned {
                Planned::Keep { keep } => Entry::Keep {
                    id: keep.clone(),
                    span: 0..0,
                },
                Planned::Summary { covers, text, .. } => Entry::Summary {
                    covers: covers.iter().map(|id| (id.clone(), 0..0)).collect(),
                    text: text.clone(),
                    text_span: 0..0,
                },
            },
            tokens: None,
            status: None,
            place: Place {
                index,
                span: 0..0,
                listed: true,
            },
        })
        .collect();
    Plan {
        file: Arc::clone(&file),
        regions,
    }
}

//! An imported compaction as a trace and a plan. Real sessions are
//! untagged, so the kinds are decided here, and each region says how
//! (`derived`) and where it came from (`source`):
//!
//! - a line the user typed as `pin KIND [KEY]: TEXT` is a commitment of
//!   `KIND`, tagged when it was written (`derived: pin`);
//! - a choice the user made in a question the runtime asked is a `decision`
//!   (`derived: answer`);
//! - any other sentence the user typed is a commitment of the first kind
//!   whose hint it matches (`derived: hint`), or else unclassified
//!   (`derived: sentence`): what nobody classified is kept by default;
//! - the model's text, tool output, text the runtime wrote and earlier
//!   summaries are narrative.
//!
//! The plan is the summary, covering the narrative it replaced and quoting
//! every commitment whose text it holds byte for byte, then the messages
//! carried over, kept by id.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use super::{Event, Message, Origin};
use crate::buffer::plan::{Entry, Plan, PlanRegion, SummaryKind};
use crate::buffer::trace::{Content, Derived, Provenance, Region, RegionKind, Role, Trace};
use crate::diagnostics::codes::import as codes;
use crate::diagnostics::Diagnostic;
use crate::policy::Policy;
use crate::source::Spanned;

/// How a pin is written, for messages and docs.
pub const PIN_SYNTAX: &str = "pin KIND [KEY]: TEXT";

/// A line the user pinned: `pin constraint no-drop: Do not drop columns.`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pin {
    /// The commitment kind.
    pub kind: String,
    /// Its key, when the pin gives one.
    pub key: Option<String>,
    /// The commitment: the rest of the line, trimmed.
    pub text: String,
}

/// A pin may stand after indentation, list bullets or quote markers, so a
/// pin copied from a Markdown list or a quoted reply still reads.
static PIN: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(r"^[ \t]*(?:[-*>+][ \t]*)*(?i:pin)[ \t]+([A-Za-z][A-Za-z0-9_-]*)(?:[ \t]+([^\s:]+))?[ \t]*:[ \t]*(\S.*?)[ \t]*$")
        .expect("the pin pattern compiles")
});

/// The pin `line` holds, if it is one.
pub fn pin(line: &str) -> Option<Pin> {
    let captures = PIN.captures(line.trim_end_matches(['\r', '\n']))?;
    Some(Pin {
        kind: captures.get(1)?.as_str().to_owned(),
        key: captures.get(2).map(|key| key.as_str().to_owned()),
        text: captures.get(3)?.as_str().to_owned(),
    })
}

/// The kind a user's choice in a question becomes.
const ANSWER_KIND: &str = "decision";

/// An event as a trace and a plan, with what could not be classified as
/// written (a pin of a kind the policy does not declare).
pub fn event(policy: &Policy, session: &str, event: &Event) -> (Trace, Plan, Vec<Diagnostic>) {
    let mut findings = Vec::new();
    let mut regions: Vec<Region> = Vec::new();
    // The trace regions of each message, by place in `event.trace`.
    let mut of_message: Vec<Vec<usize>> = Vec::with_capacity(event.trace.len());
    let mut per_line: HashMap<u64, usize> = HashMap::new();
    for message in &event.trace {
        let start = regions.len();
        for Piece {
            kind,
            key,
            text,
            derived,
            hint,
        } in pieces(policy, message, &mut findings, session)
        {
            let n = per_line.entry(message.line).or_default();
            *n += 1;
            let id = match *n {
                1 => format!("l{}", message.line),
                n => format!("l{}.{n}", message.line),
            };
            let key = match (&kind, key) {
                (RegionKind::Commitment(_), None) => Some(id.clone()),
                (_, key) => key,
            };
            let mut region =
                Region::unplaced(regions.len(), id, kind, key, Content::Text(text.into()));
            region.role = Some(role(message.origin));
            region.derived = derived;
            region.source = Some(Box::new(Provenance {
                file: session.to_owned(),
                line: Some(message.line),
                record: message.record.clone(),
                hint,
            }));
            regions.push(region);
        }
        of_message.push((start..regions.len()).collect());
    }
    let mut plan = Vec::new();
    let mut kept = vec![false; event.trace.len()];
    for &m in &event.kept {
        if let Some(flag) = kept.get_mut(m) {
            *flag = true;
        }
    }
    if let Some(summary) = &event.summary {
        let mut covers = Vec::new();
        let mut quotes = Vec::new();
        for (m, ids) in of_message.iter().enumerate() {
            if kept[m] {
                continue;
            }
            for &r in ids {
                let region = &regions[r];
                let id = Spanned::unplaced(region.id.as_str().into());
                match region.kind {
                    RegionKind::Narrative => covers.push(id),
                    _ if !summary.opaque
                        && summary.text.contains(region.content.as_text().as_ref()) =>
                    {
                        quotes.push(id)
                    }
                    _ => {}
                }
            }
        }
        let mut region = PlanRegion::unplaced(
            plan.len(),
            Entry::Summary {
                kind: SummaryKind::Summary,
                covers,
                quotes,
                text: Spanned::unplaced(summary.text.as_str().into()),
                summarizer: None,
            },
        );
        region.source = Some(Box::new(Provenance {
            file: session.to_owned(),
            line: Some(summary.line),
            record: summary.record.clone(),
            hint: None,
        }));
        plan.push(region);
    }
    for &m in &event.kept {
        for &r in of_message.get(m).into_iter().flatten() {
            let mut region = PlanRegion::unplaced(
                plan.len(),
                Entry::Keep {
                    id: Spanned::unplaced(regions[r].id.as_str().into()),
                },
            );
            region.source = regions[r].source.clone();
            plan.push(region);
        }
    }
    (
        Trace::unplaced("trace.json", regions),
        Plan::unplaced(plan),
        findings,
    )
}

fn role(origin: Origin) -> Role {
    match origin {
        Origin::User | Origin::Answer => Role::User,
        Origin::Assistant | Origin::Summary => Role::Assistant,
        Origin::Tool => Role::Tool,
        Origin::Runtime | Origin::Command => Role::System,
        Origin::Plan => Role::User,
    }
}

/// One region a message becomes: its kind, key, text, how the kind was
/// decided, and the hint that decided it.
pub struct Piece {
    pub kind: RegionKind,
    pub key: Option<String>,
    pub text: String,
    pub derived: Option<Derived>,
    pub hint: Option<String>,
}

/// A pin whose kind the policy does not declare: the kind written, and
/// the closest declared one.
pub struct UnknownPin {
    pub kind: String,
    pub suggestion: Option<String>,
}

/// The regions a message becomes.
fn pieces(
    policy: &Policy,
    message: &Message,
    findings: &mut Vec<Diagnostic>,
    session: &str,
) -> Vec<Piece> {
    match message.origin {
        Origin::User => {
            let (pieces, unknown) = user_text(policy, &message.text);
            for pin in unknown {
                findings.push(codes::unknown_pin_kind(
                    session,
                    message.line,
                    &pin.kind,
                    pin.suggestion.as_deref(),
                ));
            }
            pieces
        }
        Origin::Answer => vec![Piece {
            kind: answer_kind(policy),
            key: None,
            text: message.text.clone(),
            derived: Some(Derived::Answer),
            hint: None,
        }],
        _ => vec![Piece {
            kind: RegionKind::Narrative,
            key: None,
            text: message.text.clone(),
            derived: None,
            hint: None,
        }],
    }
}

/// What a choice the user made becomes: a `decision`, or unclassified
/// when the policy declares no such kind.
pub(crate) fn answer_kind(policy: &Policy) -> RegionKind {
    match policy.kind(ANSWER_KIND) {
        Some(_) => RegionKind::Commitment(ANSWER_KIND.to_owned()),
        None => RegionKind::Unclassified,
    }
}

/// Text the user typed, as commitments: each pinned line, then each
/// sentence of the prose between pins, of the first kind whose hint it
/// matches or unclassified. Pins of undeclared kinds are unclassified and
/// returned apart, so the caller can say where they were.
pub(crate) fn user_text(policy: &Policy, text: &str) -> (Vec<Piece>, Vec<UnknownPin>) {
    let mut pieces = Vec::new();
    let mut unknown = Vec::new();
    let mut prose = String::new();
    let flush = |prose: &mut String, pieces: &mut Vec<Piece>| {
        for sentence in crate::verify::text::sentence_bounds(prose) {
            let sentence = sentence.trim();
            if sentence.is_empty() {
                continue;
            }
            let matched = policy
                .first_hint(sentence)
                .map(|(k, hint)| (policy.kinds[k].name.clone(), hint.pattern.clone()));
            pieces.push(match matched {
                Some((kind, hint)) => Piece {
                    kind: RegionKind::Commitment(kind),
                    key: None,
                    text: sentence.to_owned(),
                    derived: Some(Derived::Hint),
                    hint: Some(hint),
                },
                None => Piece {
                    kind: RegionKind::Unclassified,
                    key: None,
                    text: sentence.to_owned(),
                    derived: Some(Derived::Sentence),
                    hint: None,
                },
            });
        }
        prose.clear();
    };
    for line in text.split_inclusive('\n') {
        let Some(pinned) = pin(line) else {
            prose.push_str(line);
            continue;
        };
        flush(&mut prose, &mut pieces);
        let kind = if policy.kind(&pinned.kind).is_some() {
            RegionKind::Commitment(pinned.kind.clone())
        } else {
            let names = policy.kinds.iter().map(|k| k.name.as_str());
            let suggestion = crate::diagnostics::suggest::did_you_mean(&pinned.kind, names);
            unknown.push(UnknownPin {
                kind: pinned.kind.clone(),
                suggestion: suggestion.map(str::to_owned),
            });
            RegionKind::Unclassified
        };
        pieces.push(Piece {
            kind,
            key: pinned.key,
            text: pinned.text,
            derived: Some(Derived::Pin),
            hint: None,
        });
    }
    flush(&mut prose, &mut pieces);
    (pieces, unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pins_read_as_typed_and_as_copied() {
        let expect = |kind: &str, key: Option<&str>, text: &str| Pin {
            kind: kind.to_owned(),
            key: key.map(str::to_owned),
            text: text.to_owned(),
        };
        assert_eq!(
            pin("pin constraint no-drop: Do not drop columns."),
            Some(expect(
                "constraint",
                Some("no-drop"),
                "Do not drop columns."
            ))
        );
        assert_eq!(
            pin("  - PIN value: https://api.example.com/v2  \r\n"),
            Some(expect("value", None, "https://api.example.com/v2"))
        );
        assert_eq!(
            pin("> pin identifier parser: src/legacy/parser_v2.py"),
            Some(expect(
                "identifier",
                Some("parser"),
                "src/legacy/parser_v2.py"
            ))
        );
        for not_a_pin in [
            "spin constraint: x",
            "pin: x",
            "pin constraint:",
            "we pin constraint a: b",
            "pin 9x: y",
        ] {
            assert_eq!(pin(not_a_pin), None, "{not_a_pin}");
        }
    }
}

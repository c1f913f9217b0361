use super::*;
use ctxguard_core::buffer::trace::Derived;
use ctxguard_runtimes::audit::{Commitment, Invented};
use ctxguard_runtimes::import::Compaction;

fn commitment(text: &str, kind: &str, outcome: Outcome) -> Commitment {
    Commitment {
        id: "l1".to_owned(),
        source_line: Some(1),
        text: text.to_owned(),
        kind: kind.to_owned(),
        derived: Derived::Hint,
        outcome,
        evidence: None,
        history: Vec::new(),
    }
}

fn event(n: usize, at: &str, commitments: Vec<Commitment>, invented: usize) -> EventAudit {
    let verdict = if invented > 0 || commitments.iter().any(|c| c.outcome.is_loss()) {
        Verdict::Lost
    } else {
        Verdict::Kept
    };
    EventAudit {
        source_file: "s.jsonl".to_owned(),
        runtime: "claude-code".to_owned(),
        compaction: Compaction {
            event: n,
            compaction_line: 10,
            trigger: Some("auto".to_owned()),
            tokens_before: None,
            tokens_after: None,
            version: Some("2.1.42".to_owned()),
            at: Some(at.to_owned()),
        },
        verdict,
        reason: String::new(),
        pinned: 0,
        commitments,
        set_apart: Vec::new(),
        invented: (0..invented)
            .map(|_| Invented {
                text: "The user wants X.".to_owned(),
                line: 10,
                support: 0.0,
            })
            .collect(),
        notes: Vec::new(),
    }
}

/// A session whose `harm` commitments were lost, and one kept.
fn session(harm: usize) -> Vec<EventAudit> {
    let mut commitments = vec![commitment(
        "keep src/legacy/parser_v2.py",
        "identifier",
        Outcome::Verbatim,
    )];
    for n in 0..harm {
        commitments.push(commitment(
            &format!("do not drop column {n}"),
            "constraint",
            Outcome::Lost,
        ));
    }
    vec![event(1, "2026-01-05T10:00:00.000Z", commitments, 0)]
}

#[test]
fn a_session_is_counted_by_slice_kind_and_sort() {
    let mut fleet = Fleet::new(false);
    fleet.add_session("a.jsonl", &session(2));
    fleet.add_session("empty.jsonl", &[]);
    let summary = fleet.summary(false);
    assert_eq!(
        (summary.sessions, summary.compactions, summary.commitments),
        (2, 1, 3)
    );
    assert_eq!((summary.outcomes.verbatim, summary.outcomes.lost), (1, 2));
    assert_eq!(
        summary.restorable, 2,
        "two short losses fit the guard's cap"
    );
    let constraint = summary
        .kinds
        .iter()
        .find(|r| r.kind == "constraint")
        .expect("a constraint row");
    assert_eq!(constraint.slice.date, "2026-01-05");
    assert_eq!(constraint.slice.version, "2.1.42");
    assert_eq!(constraint.tally.sorts["number"].lost, 2);
    let identifier = summary
        .kinds
        .iter()
        .find(|r| r.kind == "identifier")
        .expect("an identifier row");
    assert_eq!(identifier.tally.sorts["path"].verbatim, 1);
    assert_eq!(summary.worst.len(), 1);
    assert_eq!(summary.worst[0].session, "a.jsonl");
}

#[test]
fn merging_in_any_order_gives_the_same_summary() {
    let sessions: Vec<(String, Vec<EventAudit>)> = (0..30)
        .map(|n| (format!("s{n:02}.jsonl"), session(n % 7)))
        .collect();
    let mut whole = Fleet::new(false);
    for (name, events) in &sessions {
        whole.add_session(name, events);
    }
    // In three pieces, merged last to first, one through its JSON.
    let mut pieces: Vec<Fleet> = (0..3).map(|_| Fleet::new(false)).collect();
    for (n, (name, events)) in sessions.iter().enumerate() {
        pieces[n % 3].add_session(name, events);
    }
    let json = serde_json::to_string(&pieces[1].summary(false)).expect("json");
    let back =
        Fleet::from_summary(serde_json::from_str(&json).expect("a summary")).expect("not redacted");
    let mut merged = pieces.pop().expect("a piece");
    merged.merge(back);
    merged.merge(pieces.remove(0));
    assert_eq!(merged.summary(false), whole.summary(false));
    let worst = whole.summary(false).worst;
    assert_eq!(worst.len(), WORST);
    assert!(worst.windows(2).all(|w| w[0].harm() >= w[1].harm()));
    assert_eq!(worst[0].harm(), 6);
}

#[test]
fn only_the_worst_sessions_audits_are_kept() {
    let mut fleet = Fleet::new(true);
    for n in 0..(WORST + 10) {
        fleet.add_session(&format!("s{n:02}.jsonl"), &session(1 + n % 3));
    }
    assert_eq!(fleet.audits.len(), WORST);
    let kept = fleet.worst_audits();
    assert_eq!(kept.len(), WORST);
    assert!(kept
        .iter()
        .all(|(w, events)| w.lost as usize == events[0].count(Outcome::Lost)));
}

#[test]
fn a_redacted_summary_names_no_file_and_cannot_be_merged() {
    let mut fleet = Fleet::new(false);
    fleet.add_session("/home/someone/secret-project/s.jsonl", &session(1));
    let summary = fleet.summary(true);
    let json = serde_json::to_string(&summary).expect("json");
    assert!(!json.contains("secret-project") && !json.contains("column"));
    assert_eq!(summary.worst[0].session, "session 1");
    assert!(Fleet::from_summary(summary).is_none());
}

#[test]
fn the_page_carries_the_summary_and_no_markup_from_a_file_name() {
    let mut fleet = Fleet::new(false);
    fleet.add_session("</script><script>alert(1)</script>.jsonl", &session(1));
    let summary = fleet.summary(false);
    let html = page(&summary, &["x/01.html".to_owned()]);
    assert!(!html.contains("<script>alert"));
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "the data and the script"
    );
    let data = html
        .split("<script id=\"fleet-data\" type=\"application/json\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .expect("the data");
    let back: FleetSummary = serde_json::from_str(data).expect("the summary");
    assert_eq!(back, summary);
}

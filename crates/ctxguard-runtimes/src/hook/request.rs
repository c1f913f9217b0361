//! The hook of a runtime whose hooks meet a compaction only in the next
//! request: Gemini CLI's `BeforeModel`, and OpenClaw's `before_prompt_build`
//! through ctxguard's plugin, see the messages about to be sent, the
//! compaction's summary among them, and may add to them. Neither runtime
//! runs a hook after a compaction that sees the summary, nor one that can
//! instruct or refuse it (Gemini CLI's `PreCompress` fires before every
//! turn, compressing or not, and its answer is ignored; OpenClaw's
//! `before_compaction` and `after_compaction` only observe).
//!
//! So the summary is checked against the ledger the first time a request
//! carries it, and the active commitments are given back in every request
//! that carries it: the history itself is not changed, so each request gets
//! them anew and never twice. Gemini CLI: the summary is the user message
//! the client answers with [`ACKNOWLEDGED`] (after the session's context in
//! the same message), and the commitments are added after it in the
//! request's messages. OpenClaw: the summary is the `compactionSummary`
//! message, and the commitments are context the plugin puts before the
//! prompt.

use serde_json::Value;

use super::check::checked;
use super::events::{read, Call, Failure};
use super::ledger::hash;
use super::reinject::reinject;
use super::{Guarded, Outcome, Payload};
use crate::diagnostics::Diagnostic;

/// The model's answer Gemini CLI writes after a compaction's summary.
pub(super) const ACKNOWLEDGED: &str = "Got it. Thanks for the additional context!";

/// How the session's context Gemini CLI puts before the summary, in the
/// same message, ends.
const CONTEXT_END: &str = "</session_context>";

/// A message's role.
fn role(message: &Value) -> &str {
    message.get("role").and_then(Value::as_str).unwrap_or("")
}

/// A message's text: a string, or its text blocks.
fn content(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A request's compaction summary: the index of its message, its text,
/// and the user's messages after it, kept word for word.
struct Found<'a> {
    index: usize,
    summary: &'a str,
    carried: Vec<(String, bool)>,
}

/// Where a Gemini CLI request's compaction summary is: the index of its
/// message (the first or second, answered by [`ACKNOWLEDGED`]) and the
/// summary's text, without the session's context before it.
pub(super) fn summary_in(messages: &[Value]) -> Option<(usize, &str)> {
    let index = messages.windows(2).take(2).position(|pair| {
        role(&pair[0]) == "user"
            && role(&pair[1]) == "model"
            && content(&pair[1]).trim() == ACKNOWLEDGED
    })?;
    let text = messages[index].get("content").and_then(Value::as_str)?;
    let summary = text
        .rfind(CONTEXT_END)
        .map_or(text, |end| &text[end + CONTEXT_END.len()..]);
    Some((index, summary.trim()))
}

/// The summary among the messages of `runtime`'s payload.
fn found(runtime: Guarded, payload: &Payload) -> Option<Found<'_>> {
    let user_after = |messages: &[Value]| {
        messages
            .iter()
            .filter(|m| role(m) == "user")
            .map(|m| (content(m), true))
            .collect()
    };
    if runtime == Guarded::GeminiCli {
        let messages = payload.llm_request.get("messages")?.as_array()?;
        let (index, summary) = summary_in(messages)?;
        return Some(Found {
            index,
            summary,
            carried: user_after(&messages[index + 2..]),
        });
    }
    let messages = payload.messages.as_array()?;
    let (index, summary) = messages.iter().enumerate().find_map(|(i, m)| {
        (role(m) == "compactionSummary")
            .then(|| m.get("summary")?.as_str())
            .flatten()
            .map(|summary| (i, summary))
    })?;
    Some(Found {
        index,
        summary,
        carried: user_after(&messages[index + 1..]),
    })
}

/// BeforeModel: on a request that carries a compaction's summary, the
/// summary checked (the first time it is seen) and the active commitments
/// given back with it; any other request passes as it is.
pub(super) fn before_model(
    call: &Call<'_>,
    problems: &mut Vec<Diagnostic>,
) -> Result<Outcome, Failure> {
    let Call {
        payload,
        ledger,
        policy,
        guard,
        ..
    } = *call;
    let runtime = guard.runtime;
    let Some(Found {
        index,
        summary,
        carried,
    }) = found(runtime, payload)
    else {
        return Ok(Outcome::Quiet);
    };
    let state = read(ledger, problems)?;
    if state.commitments.is_empty() {
        return Ok(Outcome::Quiet);
    }
    let policy = policy.get()?;
    let mut check = state.check.clone();
    let mut told = None;
    if check.as_ref().is_none_or(|c| c.summary != hash(summary)) {
        let (done, said) = checked(
            ledger,
            &state,
            (summary, &carried),
            None,
            u64::MAX,
            problems,
        );
        told = said;
        check = Some(done);
    }
    let active: Vec<_> = state.active().collect();
    let kinds: Vec<String> = policy.kinds.iter().map(|k| k.name.clone()).collect();
    // OpenClaw's plugin puts the context SessionStart gives before the
    // prompt, and says what the check found.
    if runtime != Guarded::GeminiCli {
        let session = &ledger.session;
        return Ok(
            match reinject(&active, &kinds, session, check.as_ref(), told.as_deref()) {
                Some(reinjection) => Outcome::Reinjected(reinjection),
                None => told.map_or(Outcome::Quiet, Outcome::Notice),
            },
        );
    }
    let Some(reinjection) = reinject(&active, &kinds, &ledger.session, check.as_ref(), None) else {
        return Ok(told.map_or(Outcome::Quiet, Outcome::Notice));
    };
    let Some(messages) = payload
        .llm_request
        .get("messages")
        .and_then(Value::as_array)
    else {
        return Ok(Outcome::Quiet);
    };
    let mut given: Vec<Value> = messages[..=index].to_vec();
    let with = format!("{}\n\n{}", content(&messages[index]), reinjection.context);
    given[index]["content"] = Value::String(with);
    Ok(Outcome::Rewritten {
        messages: given,
        reinjection,
        told,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn openclaws_summary_is_its_compaction_summary_message() {
        let payload = Payload::read(
            br#"{"session_id":"s","messages":[{"role":"compactionSummary","summary":"Decisions: keep"},{"role":"assistant","content":[{"type":"text","text":"ok"}]},{"role":"user","content":"Run the tests."}]}"#,
        )
        .unwrap();
        let found = found(Guarded::OpenClaw, &payload).unwrap();
        assert_eq!((found.index, found.summary), (0, "Decisions: keep"));
        assert_eq!(found.carried, [("Run the tests.".to_owned(), true)]);
        let before =
            Payload::read(br#"{"session_id":"s","messages":[{"role":"user","content":"a"}]}"#)
                .unwrap();
        assert!(found_none(&before));
    }

    fn found_none(payload: &Payload) -> bool {
        found(Guarded::OpenClaw, payload).is_none()
    }

    #[test]
    fn the_summary_is_the_message_the_client_acknowledges() {
        let messages = vec![
            json!({"role": "user", "content": "<session_context>\nThis is the Gemini CLI.\n</session_context><state_snapshot>kept</state_snapshot>"}),
            json!({"role": "model", "content": ACKNOWLEDGED}),
            json!({"role": "user", "content": "Now rename the module."}),
        ];
        assert_eq!(
            summary_in(&messages),
            Some((0, "<state_snapshot>kept</state_snapshot>"))
        );
        // A request before any compaction, and an acknowledgement far into
        // the conversation, carry no summary.
        assert_eq!(summary_in(&messages[2..]), None);
        let mut late = vec![json!({"role": "user", "content": "a"}); 3];
        late.extend(messages[..2].iter().cloned());
        assert_eq!(summary_in(&late), None);
    }
}

//! Gemini CLI's `BeforeModel` hook: the one place its hooks meet a
//! compaction. Gemini CLI runs no hook after a compaction and none can
//! instruct or refuse one (`PreCompress` fires before every turn, whether
//! it compresses or not, and its answer is ignored), and the summary is
//! written to the chat file only as part of a rewritten history. But every
//! request to the model passes `BeforeModel`, which sees its messages and
//! may give them back changed. After a compaction the request opens with
//! the summary (in a user message, after the session's context) and the
//! client's fixed answer to it ([`ACKNOWLEDGED`]). There the summary is
//! checked against the ledger, once, and the active commitments are added
//! to it word for word, in every request that carries it: the history
//! itself is not changed, so each request gets them anew and never twice.

use serde_json::Value;

use super::check::{judge, record_check};
use super::events::{read, Failure, PolicyOnce};
use super::ledger::{hash, Ledger};
use super::reinject::reinject;
use super::{check_told, Outcome, Payload, Then};
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

/// A message's text.
fn content(message: &Value) -> &str {
    message.get("content").and_then(Value::as_str).unwrap_or("")
}

/// Where a request's compaction summary is: the index of its message (the
/// first or second, answered by [`ACKNOWLEDGED`]) and the summary's text,
/// without the session's context before it.
pub(super) fn summary_in(messages: &[Value]) -> Option<(usize, &str)> {
    let index = messages.windows(2).take(2).position(|pair| {
        role(&pair[0]) == "user"
            && role(&pair[1]) == "model"
            && content(&pair[1]).trim() == ACKNOWLEDGED
    })?;
    let text = content(&messages[index]);
    let summary = text
        .rfind(CONTEXT_END)
        .map_or(text, |end| &text[end + CONTEXT_END.len()..]);
    Some((index, summary.trim()))
}

/// BeforeModel: on a request that carries a compaction's summary, the
/// summary checked (the first time it is seen) and the active commitments
/// added after it; any other request passes as it is.
pub(super) fn before_model(
    payload: &Payload,
    ledger: &Ledger,
    policy: &PolicyOnce<'_>,
    problems: &mut Vec<Diagnostic>,
) -> Result<Outcome, Failure> {
    let Some(messages) = payload
        .llm_request
        .get("messages")
        .and_then(Value::as_array)
    else {
        return Ok(Outcome::Quiet);
    };
    let Some((index, summary)) = summary_in(messages) else {
        return Ok(Outcome::Quiet);
    };
    let state = read(ledger, problems)?;
    if state.commitments.is_empty() {
        return Ok(Outcome::Quiet);
    }
    let policy = policy.get()?;
    // What the client kept after the summary, word for word: the prompt
    // that set the compaction off among it.
    let carried: Vec<(String, bool)> = messages[index + 2..]
        .iter()
        .filter(|m| role(m) == "user")
        .map(|m| (content(m).to_owned(), true))
        .collect();
    let mut check = state.check.clone();
    let mut told = None;
    if check.as_ref().is_none_or(|c| c.summary != hash(summary)) {
        let (judged, invented) = judge(summary, &carried, &state, u64::MAX);
        let done = record_check(ledger, None, summary, &judged, &invented, problems);
        if !done.lost.is_empty() || !done.altered.is_empty() || !invented.is_empty() {
            let said = check_told(&judged, &invented, &ledger.session, Then::GivenBack);
            told = Some(said.trim_end().to_owned());
        }
        check = Some(done);
    }
    let active: Vec<_> = state.active().collect();
    let kinds: Vec<String> = policy.kinds.iter().map(|k| k.name.clone()).collect();
    let Some(reinjection) = reinject(&active, &kinds, &ledger.session, check.as_ref(), None) else {
        return Ok(told.map_or(Outcome::Quiet, Outcome::Notice));
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

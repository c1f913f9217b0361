//! The index of a trace read as it streams: each piece's regions typed,
//! hinted and counted on the thread that read it, plain narrative kept as
//! a place in the file rather than as text.

use std::borrow::Cow;
use std::sync::Arc;

use super::*;

/// A plain narrative region's facts ([`facts`]), its text read from the
/// piece it is in, decoded only if a hint or the tokenizer reads it.
fn plain_facts(policy: &Policy, counter: Counter, plain: &Plain, piece: &Piece) -> Facts {
    let literal = piece.written(&plain.content_span);
    let (hint, count) = (plain.role != Some(Role::Tool), counter.counts(plain.tokens));
    // The text, if the hints or the tokenizer read it: decoded when it is
    // written with escapes, else as it stands between its quotes.
    let text = match (hint || count, plain.escaped) {
        (false, _) => Cow::Borrowed(""),
        (true, true) => crate::buffer::json::string(literal).unwrap_or_default(),
        (true, false) => Cow::Borrowed(
            literal
                .get(1..literal.len().saturating_sub(1))
                .unwrap_or_default(),
        ),
    };
    Facts {
        hinted: hint && policy.any_hint(&text),
        counted: count.then(|| crate::buffer::tokens::count(counter.tokenizer, &text)),
        written: written_hash(literal),
    }
}

impl<'a> TraceIndex<'a> {
    /// The index of a trace read as it streams, its text left on disk: the
    /// hints and counts of each piece on the thread that read it. `Err`:
    /// the file is to be read whole instead ([`Streaming`]).
    pub fn streamed(
        policy: &'a Policy,
        streaming: Streaming,
        counter: Counter,
        warning_limit: Option<usize>,
    ) -> Result<TraceIndex<'a>, ReadWhole> {
        // Room for a region every few hundred bytes; a table grows past it.
        let regions = streaming.len() / 256;
        let mut index = TraceIndex::start(
            policy,
            Arc::clone(streaming.source()),
            counter,
            warning_limit,
            Narrative::Written,
            regions,
        );
        streaming.regions(
            |piece, regions| {
                (regions.iter())
                    .map(|region| match region {
                        Typed::Full(region) => Facts {
                            written: written_hash(piece.written(&region.content_span)),
                            ..facts(policy, counter, region)
                        },
                        Typed::Plain(plain) => plain_facts(policy, counter, plain, piece),
                    })
                    .collect::<Vec<_>>()
            },
            |piece, regions, facts| {
                for (region, facts) in regions.iter().zip(facts) {
                    match region {
                        Typed::Full(region) => index.push(region, facts),
                        Typed::Plain(plain) => index.push_plain(plain, piece, facts),
                    }
                }
            },
        )?;
        Ok(index.finish())
    }

    /// Adds the trace's next region, a plain narrative one read from
    /// `piece`: what [`TraceIndex::push`] does with the region it stands for.
    pub(crate) fn push_plain(&mut self, plain: &Plain, piece: &Piece, facts: Facts) {
        let i = self.slots.len();
        self.class.push(Class::Narrative);
        let id = piece.written(&plain.id());
        let pointer = || region_pointer(plain.index, plain.listed);
        let counted = self
            .counter
            .count(plain.tokens, || facts.counted.unwrap_or(0));
        if let Some(given) = counted.stale {
            let span = plain.tokens_span.as_ref().unwrap_or(&plain.opening);
            self.stale_tokens(i, id, (span.clone(), pointer), given, counted.tokens);
        }
        self.tokens.push(counted.tokens);
        let detail = (plain.index != i).then(|| {
            Box::new(Detail {
                index: Some(plain.index),
                ..Detail::default()
            })
        });
        let spans = Spans {
            opening: plain.opening.clone(),
            id: plain.id_span.clone(),
            content: plain.content_span.clone(),
        };
        self.slots.push(Slot::new(
            spans,
            Status::Active,
            plain.listed,
            facts.written,
            detail,
        ));
        self.ids.push(id);
        if facts.hinted {
            let literal = piece.written(&plain.content_span);
            let text = || crate::buffer::json::string(literal).unwrap_or_default();
            let at = (plain.content_span.clone(), pointer);
            self.untagged(i, id, "narrative", text, at);
        }
    }
}

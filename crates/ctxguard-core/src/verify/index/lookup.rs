//! What the checks ask of the index: a region by id or identity, its
//! status, spans, provenance and content (read back from the file when
//! the index kept only its place), and the severity its class carries.

use super::*;

impl<'a> TraceIndex<'a> {
    /// Where one of kind `k`'s hints matches inside `within` as written in
    /// the file, or all of `within` when the written form does not match.
    pub fn hint_span(&self, file: &SourceFile, within: &Span, k: usize) -> Span {
        let written = file.slice(within.clone());
        if written.len() != within.len() {
            return within.clone();
        }
        self.policy
            .kinds
            .get(k)
            .into_iter()
            .flat_map(|kind| &kind.hints)
            .find_map(|hint| hint.regex()?.find(&written))
            .filter(|found| !found.is_empty())
            .map_or(within.clone(), |found| {
                within.start + found.start()..within.start + found.end()
            })
    }

    /// How many regions the trace has.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the trace has no region.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The first region with `id`. `near`: where it most likely is.
    pub fn region(&self, id: &str, near: usize) -> Option<usize> {
        self.ids.find(id, near)
    }

    /// The first trace region with this identity.
    pub fn identity(&self, kind: &str, key: &str) -> Option<usize> {
        let hash = self.ids.hasher.hash_one((kind, key));
        let same =
            |&(h, t): &(u64, usize)| h == hash && identity_of(&self.slots[t]) == Some((kind, key));
        self.identities.find(hash, same).map(|&(_, t)| t)
    }

    /// The first region of `i`'s identity (itself, unless it repeats one).
    pub fn canonical(&self, i: usize) -> usize {
        if !self.identity_repeats {
            return i;
        }
        (self.slots[i].detail.as_ref())
            .and_then(|detail| detail.first)
            .unwrap_or(i)
    }

    /// The kind and key of a region written as a commitment (of a declared kind or not).
    pub fn commitment_of(&self, t: usize) -> Option<(&str, &str)> {
        identity_of(&self.slots[t])
    }

    /// `kind:key` of a region written as a commitment, else its id.
    pub fn identity_or_id(&self, t: usize) -> String {
        match self.commitment_of(t) {
            Some((kind, key)) => format!("{kind}:{key}"),
            None => self.id(t).to_owned(),
        }
    }

    pub fn id(&self, t: usize) -> &str {
        self.ids.get(t)
    }

    pub fn status(&self, t: usize) -> Status {
        self.slots[t].status
    }

    /// The region's first line, for labels about the whole region.
    pub fn opening(&self, t: usize) -> Span {
        self.slots[t].spans().opening
    }

    /// Where the region's content is written.
    pub fn content_span(&self, t: usize) -> Span {
        self.slots[t].spans().content
    }

    /// The region's JSON Pointer, `/regions/3`; `None` in JSON Lines.
    pub fn pointer(&self, t: usize) -> Option<String> {
        let slot = &self.slots[t];
        let index = slot.detail.as_ref().and_then(|detail| detail.index);
        region_pointer(index.unwrap_or(t), slot.listed)
    }

    /// Where an imported region came from.
    pub fn source(&self, t: usize) -> Option<&Provenance> {
        self.slots[t].detail.as_ref()?.source.as_deref()
    }

    /// The content the index keeps: a protected region's.
    pub(super) fn stored(&self, t: usize) -> Option<&Content> {
        self.slots[t].detail.as_ref()?.content.as_ref()
    }

    /// The region's content: kept, for a protected region; read back for
    /// a narrative one, from the trace in memory or from its file on disk,
    /// where it must be as it was read (`unreadable-file` otherwise).
    pub fn content(&self, t: usize) -> Result<Cow<'_, Content>, Box<Diagnostic>> {
        if let Some(content) = self.stored(t) {
            return Ok(Cow::Borrowed(content));
        }
        match &self.narrative {
            Narrative::Regions(regions) => Ok(Cow::Borrowed(&regions[t].content)),
            Narrative::Written => {
                let slot = &self.slots[t];
                let written = self.file.slice(slot.spans().content);
                let text = (written_hash(&written) == slot.written)
                    .then(|| crate::buffer::json::string(&written).map(Cow::into_owned))
                    .flatten();
                text.map(|text| Cow::Owned(Content::Text(text.into())))
                    .ok_or_else(|| {
                        Box::new(input_codes::unreadable(
                            self.file.name(),
                            format!(
                                "`{}` changed while it was verified: region `{}` no longer reads as it did",
                                crate::diagnostics::codes::echo(self.file.name()),
                                crate::diagnostics::codes::echo(self.id(t))
                            ),
                        ))
                    })
            }
        }
    }

    /// Whether no content the index keeps holds on to the text it was read from.
    #[cfg(any(test, feature = "testing"))]
    pub fn holds_no_piece(&self) -> bool {
        (self.slots.iter())
            .filter_map(|slot| slot.detail.as_ref()?.content.as_ref())
            .all(|content| !matches!(content, Content::Text(text) if text.is_shared()))
    }

    /// A kind's severity: losing a soft commitment is a warning.
    pub fn severity(&self, class: Class) -> Severity {
        match class {
            Class::Commitment(k) => self
                .policy
                .kinds
                .get(k as usize)
                .map_or(Severity::Error, |kind| kind.severity.value),
            _ => Severity::Error,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.findings.has_errors()
    }
}

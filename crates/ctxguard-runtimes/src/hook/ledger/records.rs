//! What one line of the ledger holds: the record and its entry (a
//! commitment pinned, derived, confirmed, discharged or unpinned; a
//! compaction's snapshot; a summary's check), in the JSON they are written
//! as.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::buffer::tokens::Tokenizer;
use crate::buffer::trace::{Derived, RegionKind};

/// One line of the ledger.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// When, RFC 3339 UTC.
    pub at: String,
    /// What happened.
    #[serde(flatten)]
    pub entry: Entry,
}

impl Record {
    /// One ledger line. Read as its event's own record, not through the
    /// derived tagged reading, which copies every record's fields once
    /// more before it knows the event: a ledger of 10,000 commitments is
    /// read on every hook.
    pub(super) fn from_line(line: &[u8]) -> Result<Record, serde_json::Error> {
        /// The event of a record, and when it happened; the rest of the
        /// line is skipped.
        #[derive(Deserialize)]
        struct Head {
            at: String,
            event: Event,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "lowercase")]
        enum Event {
            Pinned,
            Derived,
            Confirmed,
            Discharged,
            Unpinned,
            Compacted,
            Verified,
        }
        let head: Head = serde_json::from_slice(line)?;
        let entry = match head.event {
            Event::Pinned => Entry::Pinned(serde_json::from_slice(line)?),
            Event::Derived => Entry::Derived(serde_json::from_slice(line)?),
            Event::Confirmed => Entry::Confirmed(serde_json::from_slice(line)?),
            Event::Discharged => Entry::Discharged(serde_json::from_slice(line)?),
            Event::Unpinned => Entry::Unpinned(serde_json::from_slice(line)?),
            Event::Compacted => Entry::Compacted(serde_json::from_slice(line)?),
            Event::Verified => Entry::Verified(serde_json::from_slice(line)?),
        };
        Ok(Record { at: head.at, entry })
    }
}

/// What a ledger record says.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Entry {
    /// The user pinned a commitment (`pin KIND [KEY]: TEXT`, or by hand).
    Pinned(Commitment),
    /// A sentence the user typed: a commitment by a hint, or unclassified.
    Derived(Commitment),
    /// A choice the user made: an answer to a question, an approved plan.
    Confirmed(Commitment),
    /// A commitment that is done: no longer re-injected.
    Discharged(Change),
    /// A commitment withdrawn: no longer re-injected.
    Unpinned(Change),
    /// A compaction is about to run (PreCompact).
    Compacted(Snapshot),
    /// A compaction's summary checked against the ledger (PostCompact).
    Verified(Check),
}

/// A commitment as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Commitment {
    /// Stable id: `c` and 10 hex digits of its identity's hash.
    pub id: String,
    /// A kind of the policy, or `unclassified`.
    pub kind: String,
    /// Its key, when the user gave one (a later pin of the same kind and
    /// key replaces it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The commitment, byte for byte as the user typed or confirmed it.
    pub text: String,
    /// `sha256:` and the hex hash of `text`.
    pub hash: String,
    /// How its kind was decided.
    pub derived: Derived,
    /// The hint that matched, for `derived: hint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Where it came from.
    #[serde(default)]
    pub source: Source,
    /// Its tokens by the tokenizer that counted them (`{"o200k_base": 25}`),
    /// counted once when it was recorded, so that a compaction's budget is
    /// checked without counting the ledger again.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tokens: BTreeMap<String, u64>,
}

/// Where a record came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// The hook event (`UserPromptSubmit`, …), or `ledger` for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
    /// The prompt's id, where the runtime gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_id: Option<String>,
    /// The transcript, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// The 1-based line of the transcript record, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The tool call a choice was made in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
}

/// A commitment discharged or unpinned.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Change {
    /// The commitment's id.
    pub id: String,
    /// Who: `ledger` (a person) or a hook event.
    pub by: String,
}

/// The ledger when a compaction was about to run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Snapshot {
    /// `manual` or `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// The transcript at that moment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// How many lines the transcript had (it can lag the current turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript_lines: Option<u64>,
    /// The runtime's version, where the transcript says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Active commitments.
    pub active: usize,
    /// Their tokens, counted with the policy's tokenizer.
    pub tokens: u64,
    /// What the policy lets commitments use, if it sets a window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u64>,
    /// Whether the hook refused the compaction.
    pub blocked: bool,
}

/// A summary checked against the active commitments.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Check {
    /// `manual` or `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// `sha256:` hash of the summary (its text is the model's: not stored).
    pub summary: String,
    /// Commitments the summary holds byte for byte.
    pub verbatim: usize,
    /// Commitments it carries in other words.
    pub paraphrased: usize,
    /// Ids of the commitments it changes.
    #[serde(default)]
    pub altered: Vec<String>,
    /// Ids of the commitments it does not carry.
    #[serde(default)]
    pub lost: Vec<String>,
    /// Hashes of the sentences it presents as the user's without support.
    #[serde(default)]
    pub invented: Vec<String>,
    /// Whether the messages the runtime kept word for word beside the
    /// summary were judged with it. Claude Code writes a reactive or
    /// partial compaction's preserved messages only after its PostCompact
    /// hook, which judges the summary alone: the next prompt judges again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub carried: bool,
}

/// `sha256:` and the hex digest of `text`.
pub fn hash(text: &str) -> String {
    format!("sha256:{}", hex(&Sha256::digest(text.as_bytes())))
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    out
}

impl Commitment {
    /// A commitment of `kind`: its id comes from `kind` and `key`, or,
    /// without a key, from its text, so the same sentence typed twice is
    /// one commitment and a new pin of a key replaces the old one.
    pub fn new(
        kind: &RegionKind,
        key: Option<String>,
        text: String,
        derived: Derived,
        source: Source,
    ) -> Commitment {
        let kind = match kind {
            RegionKind::Commitment(kind) => kind.clone(),
            _ => "unclassified".to_owned(),
        };
        let hash = hash(&text);
        let identity = match &key {
            Some(key) => format!("{kind}:{key}"),
            None => format!("{kind}#{hash}"),
        };
        let digest = hex(&Sha256::digest(identity.as_bytes()));
        Commitment {
            id: format!("c{}", &digest[..10]),
            kind,
            key,
            text,
            hash,
            derived,
            hint: None,
            source,
            tokens: BTreeMap::new(),
        }
    }

    /// The commitment with its tokens counted by `tokenizer`.
    pub fn counted(mut self, tokenizer: Tokenizer) -> Commitment {
        let tokens = crate::buffer::tokens::count(tokenizer, &self.text);
        self.tokens.insert(tokenizer.name().to_owned(), tokens);
        self
    }

    /// Its tokens by `tokenizer`, when they were counted with it.
    pub fn tokens_by(&self, tokenizer: Tokenizer) -> Option<u64> {
        self.tokens.get(tokenizer.name()).copied()
    }

    /// Pinned by the user, or a choice they made: what is shown first when
    /// not everything fits.
    pub fn priority(&self) -> u8 {
        match self.derived {
            Derived::Pin => 0,
            Derived::Answer => 1,
            Derived::Hint => 2,
            Derived::Sentence => 3,
        }
    }
}

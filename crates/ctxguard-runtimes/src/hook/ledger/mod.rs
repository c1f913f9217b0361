//! The commitment ledger of one session: `.ctxguard/ledger/SESSION.jsonl`,
//! append-only JSON Lines, one record per event. Hooks of one session run
//! in parallel, so every append takes an exclusive lock on the file and
//! writes its records with one `write`; a crash mid-write leaves at most one
//! torn last line, which the next append moves onto a line of its own and
//! every reader skips and reports. Reading replays the records into the
//! active set. Only what the user typed or confirmed is stored: commitment
//! texts, and of summaries and invented sentences only hashes.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::buffer::tokens::Tokenizer;
use crate::buffer::trace::{Content, Provenance, Region, RegionKind, Role, Status, Trace};
use crate::diagnostics::codes::hook as codes;
use crate::diagnostics::Diagnostic;

mod records;
mod view;

pub use records::{hash, Change, Check, Commitment, Entry, Record, Snapshot, Source};
pub use view::LedgerView;

/// The size a ledger may reach before appends are refused: 16 MiB, some
/// 50,000 commitments.
pub const DEFAULT_MAX_LEDGER_BYTES: u64 = 16 << 20;

/// A commitment as the ledger holds it now.
#[derive(Clone, Debug)]
pub struct Active {
    /// Its latest record.
    pub commitment: Commitment,
    /// When it was first recorded.
    pub since: String,
    /// The ledger line of its latest record.
    pub line: u64,
    /// Active, or discharged (also for unpinned).
    pub status: Status,
    /// Unpinned rather than discharged.
    pub unpinned: bool,
}

impl Active {
    /// Whether it still binds: neither discharged nor unpinned.
    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }
}

/// A ledger read: every commitment ever recorded, in the order first
/// recorded, with its current status; the last compaction and check; the
/// lines that could not be read.
#[derive(Debug, Default)]
pub struct State {
    /// Every commitment, in the order first recorded.
    pub commitments: Vec<Active>,
    /// The last `compacted` record.
    pub snapshot: Option<Snapshot>,
    /// Its line in the ledger: what was recorded after it was said after
    /// that compaction.
    pub snapshot_line: u64,
    /// The `verified` record of the last compaction, when its summary was
    /// checked.
    pub check: Option<Check>,
    /// Its line in the ledger: what was recorded after it was not judged.
    pub check_line: u64,
    /// How many records were read.
    pub records: usize,
    /// Lines skipped (`ledger-record`).
    pub problems: Vec<Diagnostic>,
    /// Every text ever recorded under each id (`id` and `hash`), whatever
    /// became of it since: what was discharged or replaced is still known.
    recorded: HashSet<(String, String)>,
    /// Where each id stands in `commitments`.
    index: HashMap<String, usize>,
    /// How many bytes and lines of the file were read, so what is appended
    /// after can be read on its own ([`Ledger::catch_up`]).
    read_to: u64,
    lines: u64,
    /// Whether the last line read had no line break: what comes next
    /// finishes it.
    torn: bool,
}

impl State {
    /// The commitments still active, in the order first recorded.
    pub fn active(&self) -> impl Iterator<Item = &Active> {
        self.commitments.iter().filter(|c| c.is_active())
    }

    /// Whether this text was ever recorded under this id, active, replaced,
    /// discharged or unpinned since.
    pub fn ever_recorded(&self, c: &Commitment) -> bool {
        self.recorded.contains(&(c.id.clone(), c.hash.clone()))
    }

    /// The commitment whose id, key or id prefix is `name`: `Err` with the
    /// candidates when it names none or several.
    pub fn find(&self, name: &str) -> Result<&Active, Vec<&Active>> {
        let exact: Vec<&Active> = self
            .commitments
            .iter()
            .filter(|c| c.commitment.id == name || c.commitment.key.as_deref() == Some(name))
            .collect();
        if let [one] = exact[..] {
            return Ok(one);
        }
        let prefixed: Vec<&Active> = self
            .commitments
            .iter()
            .filter(|c| name.len() >= 3 && c.commitment.id.starts_with(name))
            .collect();
        match (exact.is_empty(), &prefixed[..]) {
            (true, [one]) => Ok(one),
            (true, _) => Err(prefixed),
            (false, _) => Err(exact),
        }
    }

    fn apply(&mut self, record: Record, line: u64) {
        let index = &mut self.index;
        self.records += 1;
        let mut change = |id: &str, unpinned: bool| {
            if let Some(&i) = index.get(id) {
                self.commitments[i].status = Status::Discharged;
                self.commitments[i].unpinned = unpinned;
            }
        };
        match record.entry {
            Entry::Pinned(c) | Entry::Derived(c) | Entry::Confirmed(c) => {
                self.recorded.insert((c.id.clone(), c.hash.clone()));
                match index.get(&c.id) {
                    Some(&i) => {
                        let active = &mut self.commitments[i];
                        active.commitment = c;
                        active.line = line;
                        active.status = Status::Active;
                        active.unpinned = false;
                    }
                    None => {
                        index.insert(c.id.clone(), self.commitments.len());
                        self.commitments.push(Active {
                            commitment: c,
                            since: record.at,
                            line,
                            status: Status::Active,
                            unpinned: false,
                        });
                    }
                }
            }
            Entry::Discharged(c) => change(&c.id, false),
            Entry::Unpinned(c) => change(&c.id, true),
            // A check belongs to the compaction before it: a new compaction
            // has none until its own summary is checked.
            Entry::Compacted(snapshot) => {
                self.snapshot = Some(snapshot);
                self.snapshot_line = line;
                self.check = None;
            }
            Entry::Verified(check) => {
                self.check = Some(check);
                self.check_line = line;
            }
        }
    }

    /// The active commitments as a ctxguard trace whose regions give the
    /// tokens the ledger counted with `tokenizer` when it recorded them;
    /// `verify` counts only the others (recorded before it kept counts, or
    /// under another policy's tokenizer).
    pub fn to_counted_trace(&self, ledger: &str, tokenizer: Tokenizer) -> Trace {
        self.trace(ledger, false, Some(tokenizer))
    }

    /// The commitments as a ctxguard trace: the active ones, and with
    /// `all` the discharged ones too, marked so.
    pub fn to_trace(&self, ledger: &str, all: bool) -> Trace {
        self.trace(ledger, all, None)
    }

    /// The trace of [`State::to_trace`], each region with the tokens
    /// counted with `counted` when the ledger holds them.
    fn trace(&self, ledger: &str, all: bool, counted: Option<Tokenizer>) -> Trace {
        let regions = self
            .commitments
            .iter()
            .filter(|c| all || c.status == Status::Active)
            .enumerate()
            .map(|(index, active)| {
                let c = &active.commitment;
                let kind = match c.kind.as_str() {
                    "unclassified" => RegionKind::Unclassified,
                    kind => RegionKind::Commitment(kind.to_owned()),
                };
                let key = match kind {
                    RegionKind::Commitment(_) => Some(c.key.clone().unwrap_or(c.id.clone())),
                    _ => None,
                };
                let mut region = Region::unplaced(
                    index,
                    c.id.clone(),
                    kind,
                    key,
                    Content::Text(c.text.clone().into()),
                );
                region.role = Some(Role::User);
                region.status = active.status;
                region.derived = Some(c.derived);
                region.tokens = counted.and_then(|tokenizer| c.tokens_by(tokenizer));
                region.source = Some(Box::new(Provenance {
                    file: ledger.to_owned(),
                    line: Some(active.line),
                    record: None,
                    hint: c.hint.clone(),
                }));
                region
            })
            .collect();
        Trace::unplaced(ledger, regions)
    }
}

/// Why the ledger could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// A file operation failed.
    #[error("cannot {action} `{path}`: {error}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The ledger file or folder.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The append would pass the size cap.
    #[error("{}", .0.message)]
    Full(Box<Diagnostic>),
    /// The file is not one the ledger may use: a link, a FIFO, a device,
    /// larger than any ledger grows.
    #[error("{reason}")]
    Refused {
        /// The ledger file.
        path: String,
        /// Why, in words.
        reason: String,
    },
}

/// The ledger file of one session.
#[derive(Clone, Debug)]
pub struct Ledger {
    /// `DIR/SESSION.jsonl`.
    pub path: PathBuf,
    /// The session id as the file names it.
    pub session: String,
    /// Appends that would make the file larger are refused.
    pub max_bytes: u64,
}

impl Ledger {
    /// The ledger of `session` in `dir`. A session id that is not a plain
    /// name (`..`, a slash, control characters) is named by its hash, so no
    /// id can make the ledger write outside `dir`.
    pub fn new(dir: &Path, session: &str, max_bytes: u64) -> Ledger {
        let plain = !session.is_empty()
            && session.len() <= 128
            && !session.starts_with('.')
            && session
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        let session = if plain {
            session.to_owned()
        } else {
            format!("s{}", &hash(session)["sha256:".len()..][..24])
        };
        Ledger {
            path: dir.join(format!("{session}.jsonl")),
            session,
            max_bytes,
        }
    }

    /// The file name as messages show it.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn io(&self, action: &'static str) -> impl FnOnce(std::io::Error) -> LedgerError + '_ {
        move |error| LedgerError::Io {
            action,
            path: self.name(),
            error,
        }
    }

    /// Appends `entries`, stamped now, under an exclusive lock, with one
    /// write. Refused, with nothing written, when the file would pass
    /// `max_bytes`.
    pub fn append(&self, entries: Vec<Entry>) -> Result<(), LedgerError> {
        if entries.is_empty() {
            return Ok(());
        }
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(self.io("create the ledger folder"))?;
        }
        let at = now();
        let mut bytes = Vec::new();
        for entry in entries {
            let record = Record {
                at: at.clone(),
                entry,
            };
            serde_json::to_writer(&mut bytes, &record)
                .map_err(|e| std::io::Error::other(e.to_string()))
                .map_err(self.io("write"))?;
            bytes.push(b'\n');
        }
        let name = self.name();
        let (session, max_bytes) = (self.session.clone(), self.max_bytes);
        let appended = crate::source::write::append_file(&self.path, &bytes, |file, len| {
            if len.saturating_add(bytes.len() as u64) > max_bytes {
                return Err(LedgerError::Full(Box::new(codes::ledger_full(
                    &name, &session, len, max_bytes,
                ))));
            }
            // A line torn by a crash stays a line of its own.
            let mut prefix = Vec::new();
            if len > 0 {
                let mut last = [0u8];
                file.seek(SeekFrom::End(-1))
                    .and_then(|_| file.read_exact(&mut last))
                    .map_err(self.io("read"))?;
                if last[0] != b'\n' {
                    prefix.push(b'\n');
                }
            }
            Ok(prefix)
        });
        match appended {
            Ok(result) => result,
            Err(error) => Err(LedgerError::Refused {
                path: self.name(),
                reason: error.reason,
            }),
        }
    }

    /// Reads the ledger (a missing one is empty) under a shared lock, so no
    /// append is seen half written.
    pub fn read(&self) -> Result<State, LedgerError> {
        Ok(parse(&self.name(), &self.bytes()?))
    }

    /// Reads what was appended to the ledger since `state` was read (by
    /// this hook or any other), so a hook that appends need not read the
    /// whole ledger again to see it.
    pub fn catch_up(&self, state: &mut State) -> Result<(), LedgerError> {
        let bytes = self.bytes_from(state.read_to)?;
        replay(state, &self.name(), &bytes);
        Ok(())
    }

    /// The ledger's bytes (none for a missing one), read under a shared
    /// lock so no append is seen half written, from a regular file only
    /// (never through a link, never a FIFO) and never more than the cap
    /// allows it to hold.
    fn bytes(&self) -> Result<Vec<u8>, LedgerError> {
        self.bytes_from(0)
    }

    /// The ledger's bytes from `offset` on, read as [`Ledger::bytes`] reads.
    fn bytes_from(&self, offset: u64) -> Result<Vec<u8>, LedgerError> {
        // A torn line or two past the cap are still read.
        let limit = self.max_bytes.saturating_mul(2).saturating_sub(offset);
        read_locked(&self.path, offset, limit)
    }
}

/// At most `limit` bytes of the file at `path` from `offset` on (none of a
/// missing one), under a shared lock so no append is seen half written,
/// from a regular file only: never through a link, never a FIFO.
fn read_locked(path: &Path, offset: u64, limit: u64) -> Result<Vec<u8>, LedgerError> {
    let name = path.display().to_string();
    let refused = |error: std::io::Error| LedgerError::Refused {
        path: name.clone(),
        reason: format!("`{name}` cannot be read: {error}"),
    };
    let io = |action: &'static str| {
        let path = name.clone();
        move |error| LedgerError::Io {
            action,
            path,
            error,
        }
    };
    let Some((mut file, _)) = crate::source::read::open_no_follow(path).map_err(refused)? else {
        return Ok(Vec::new());
    };
    file.lock_shared().map_err(io("lock"))?;
    file.seek(SeekFrom::Start(offset)).map_err(io("read"))?;
    crate::source::read::read_at_most(&mut file, limit).map_err(refused)
}

/// What the prompt hook heard: `DIR/SESSION.heard`, beside the ledger, the
/// hash of each prompt it judged, a line each. A compaction's hook judges
/// the transcript's user messages to catch what the prompt hook did not
/// hear (typed before the hooks were installed, or while a hook failed);
/// a message whose hash is here was judged as it was typed, and its
/// commitments are in the ledger already. The file only saves that work:
/// missing, unreadable or full, every message is judged again. It is not
/// a ledger record, so a ledger stays readable by every version.
impl Ledger {
    /// `DIR/SESSION.heard`.
    pub fn heard_path(&self) -> PathBuf {
        self.path.with_extension("heard")
    }

    /// Marks `prompts` heard: appended, as the ledger appends, once the
    /// commitments they hold are in the ledger (never before, so a prompt
    /// is never marked heard and its commitments missing).
    pub fn hear(&self, prompts: &[&str]) -> Result<(), LedgerError> {
        let mut bytes = Vec::new();
        for prompt in prompts {
            bytes.extend_from_slice(hash(prompt).as_bytes());
            bytes.push(b'\n');
        }
        if bytes.is_empty() {
            return Ok(());
        }
        let path = self.heard_path();
        let max_bytes = self.max_bytes;
        let refused = |reason: String| LedgerError::Refused {
            path: path.display().to_string(),
            reason,
        };
        let appended = crate::source::write::append_file(&path, &bytes, |_, len| {
            if len.saturating_add(bytes.len() as u64) > max_bytes {
                return Err(refused(format!(
                    "`{}` holds {len} bytes, the cap",
                    path.display()
                )));
            }
            Ok(Vec::new())
        });
        appended.map_err(|error| refused(error.reason))?
    }

    /// The hashes of the prompts marked heard: none when the file is
    /// missing, is a link or cannot be read.
    pub fn heard(&self) -> HashSet<String> {
        let bytes = read_locked(&self.heard_path(), 0, self.max_bytes).unwrap_or_default();
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|line| line.starts_with("sha256:") && line.len() == 71)
            .map(str::to_owned)
            .collect()
    }
}

impl Ledger {
    /// Every record that reads, with its line.
    pub fn records(&self) -> Result<Vec<(u64, Record)>, LedgerError> {
        let bytes = self.bytes()?;
        Ok(bytes
            .split(|&b| b == b'\n')
            .enumerate()
            .filter_map(|(n, line)| Some((n as u64 + 1, serde_json::from_slice(line).ok()?)))
            .collect())
    }
}

/// Replays the records of a ledger's bytes.
pub fn parse(name: &str, bytes: &[u8]) -> State {
    let mut state = State::default();
    replay(&mut state, name, bytes);
    state
}

/// Replays the records of `bytes`, the ledger's from where `state` stopped.
fn replay(state: &mut State, name: &str, bytes: &[u8]) {
    state.read_to += bytes.len() as u64;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        // The rest of a line torn before: it was judged as it stood.
        if std::mem::replace(&mut state.torn, !line.ends_with(b"\n")) {
            continue;
        }
        state.lines += 1;
        let number = state.lines;
        let content = line.strip_suffix(b"\n").unwrap_or(line);
        if content.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match Record::from_line(content) {
            Ok(record) => state.apply(record, number),
            Err(error) => {
                let torn = !line.ends_with(b"\n");
                state
                    .problems
                    .push(codes::ledger_record(name, number, torn, &error.to_string()));
            }
        }
    }
}

/// Now, RFC 3339 UTC to the millisecond.
fn now() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}

/// The ledger files of `dir`, most recently written first.
pub fn sessions(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().extension().is_some_and(|e| e == "jsonl"))
        .filter_map(|entry| Some((entry.metadata().ok()?.modified().ok()?, entry.path())))
        .collect();
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    files.into_iter().map(|(_, path)| path).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::trace::Derived;

    fn pin(text: &str, key: Option<&str>) -> Entry {
        Entry::Pinned(Commitment::new(
            &RegionKind::Commitment("constraint".into()),
            key.map(str::to_owned),
            text.to_owned(),
            Derived::Pin,
            Source::default(),
        ))
    }

    /// Discharges the commitment `id`, as `ctxguard ledger discharge` does.
    fn discharge(ledger: &Ledger, id: String) {
        ledger
            .append(vec![Entry::Discharged(Change {
                id,
                by: "ledger".into(),
            })])
            .unwrap();
    }

    /// Appends `bytes` with no line break, as a crash mid-append leaves it.
    fn tear(ledger: &Ledger, bytes: &[u8]) {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .append(true)
            .open(&ledger.path)
            .unwrap()
            .write_all(bytes)
            .unwrap();
    }

    #[test]
    fn a_key_pinned_again_replaces_its_text_and_discharged_is_not_active() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path(), "s1", DEFAULT_MAX_LEDGER_BYTES);
        ledger
            .append(vec![pin("Use v1.", Some("api")), pin("Do not push.", None)])
            .unwrap();
        ledger.append(vec![pin("Use v2.", Some("api"))]).unwrap();
        let state = ledger.read().unwrap();
        let texts: Vec<&str> = state.active().map(|a| a.commitment.text.as_str()).collect();
        assert_eq!(texts, ["Use v2.", "Do not push."]);
        let id = state.commitments[1].commitment.id.clone();
        discharge(&ledger, id);
        assert_eq!(ledger.read().unwrap().active().count(), 1);
    }

    #[test]
    fn the_tokens_a_commitment_was_counted_with_are_read_back_for_its_tokenizer_only() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path(), "s1", DEFAULT_MAX_LEDGER_BYTES);
        let counted = |text: &str| match pin(text, None) {
            Entry::Pinned(c) => Entry::Pinned(c.counted(Tokenizer::Approx)),
            other => other,
        };
        // One counted when recorded, one from a ledger written before counts.
        ledger
            .append(vec![
                counted("Never force-push to main."),
                pin("Use v2.", None),
            ])
            .unwrap();
        let state = ledger.read().unwrap();
        let given = |tokenizer| {
            state
                .to_counted_trace("s1", tokenizer)
                .regions
                .iter()
                .map(|r| r.tokens)
                .collect::<Vec<_>>()
        };
        assert_eq!(given(Tokenizer::Approx), [Some(7), None]);
        assert_eq!(given(Tokenizer::O200kBase), [None, None]);
        // An export gives no counts: `verify` counts what it is given.
        assert!(state
            .to_trace("s1", false)
            .regions
            .iter()
            .all(|r| r.tokens.is_none()));
    }

    #[test]
    fn a_torn_last_line_is_skipped_reported_and_kept_apart_from_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path(), "s1", DEFAULT_MAX_LEDGER_BYTES);
        ledger.append(vec![pin("One.", None)]).unwrap();
        tear(
            &ledger,
            br#"{"at":"2026-01-01T00:00:00Z","event":"pinned","id":"c1"#,
        );
        let state = ledger.read().unwrap();
        assert_eq!(state.active().count(), 1);
        assert_eq!(state.problems.len(), 1);
        assert!(state.problems[0].message.contains("line 2"));
        ledger.append(vec![pin("Two.", None)]).unwrap();
        let state = ledger.read().unwrap();
        assert_eq!(
            state.active().count(),
            2,
            "the append after a torn line reads"
        );
        assert_eq!(state.problems.len(), 1);
    }

    #[test]
    fn catching_up_reads_what_a_whole_read_would() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path(), "s1", DEFAULT_MAX_LEDGER_BYTES);
        ledger
            .append(vec![pin("Use v1.", Some("api")), pin("Do not push.", None)])
            .unwrap();
        let mut state = ledger.read().unwrap();
        // A torn line, then appends by this hook and by another.
        tear(&ledger, br#"{"at":"2026-01-01T00:00:00Z","event":"pin"#);
        ledger.catch_up(&mut state).unwrap();
        ledger.append(vec![pin("Use v2.", Some("api"))]).unwrap();
        let id = state.commitments[1].commitment.id.clone();
        discharge(&ledger, id);
        ledger.catch_up(&mut state).unwrap();
        let whole = ledger.read().unwrap();
        let seen = |s: &State| -> Vec<(String, u64, bool)> {
            s.commitments
                .iter()
                .map(|a| {
                    (
                        a.commitment.text.clone(),
                        a.line,
                        a.status == Status::Active,
                    )
                })
                .collect()
        };
        assert_eq!(seen(&state), seen(&whole));
        assert_eq!(
            seen(&state),
            [
                ("Use v2.".to_owned(), 4, true),
                ("Do not push.".to_owned(), 2, false)
            ]
        );
        assert_eq!((state.records, state.problems.len()), (whole.records, 1));
        assert_eq!((state.read_to, state.lines), (whole.read_to, whole.lines));
    }

    #[test]
    fn the_cap_refuses_an_append_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path(), "s1", 300);
        ledger.append(vec![pin("One.", None)]).unwrap();
        let before = std::fs::read(&ledger.path).unwrap();
        let refused = ledger.append(vec![pin(&"x".repeat(400), None)]);
        assert!(matches!(refused, Err(LedgerError::Full(_))));
        assert_eq!(std::fs::read(&ledger.path).unwrap(), before);
    }

    #[test]
    fn heard_prompts_are_marked_beside_the_ledger() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::new(dir.path(), "s1.a", 1_000);
        assert!(ledger.heard().is_empty());
        ledger.hear(&["Never drop columns.", "ok"]).unwrap();
        ledger.hear(&[]).unwrap();
        let heard = ledger.heard();
        assert_eq!(heard.len(), 2);
        assert!(heard.contains(&hash("ok")));
        assert!(dir.path().join("s1.a.heard").is_file());
        // Full: refused, and what it held is still read.
        let full = Ledger::new(dir.path(), "s1.a", 150);
        assert!(full.hear(&["one more"]).is_err());
        assert_eq!(full.heard().len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn heard_prompts_are_never_marked_or_read_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::write(&elsewhere, format!("{}\n", hash("planted"))).unwrap();
        let linked = Ledger::new(dir.path(), "s2", 1_000);
        std::os::unix::fs::symlink(&elsewhere, dir.path().join("s2.heard")).unwrap();
        assert!(linked.heard().is_empty());
        assert!(linked.hear(&["Never drop columns."]).is_err());
        assert_eq!(
            std::fs::read_to_string(&elsewhere).unwrap(),
            format!("{}\n", hash("planted"))
        );
    }

    #[test]
    fn a_session_id_never_leaves_the_folder() {
        let dir = Path::new("/ledgers");
        for id in ["../../etc/passwd", "a/b", ".hidden", "", "x\u{1b}y"] {
            let ledger = Ledger::new(dir, id, 1);
            assert_eq!(ledger.path.parent(), Some(dir), "{id:?}");
            assert!(ledger.session.starts_with('s') && ledger.session.len() == 25);
        }
        assert_eq!(
            Ledger::new(dir, "5e55-ab_c.1", 1).path,
            dir.join("5e55-ab_c.1.jsonl")
        );
    }
}

//! Writing: the one way ctxguard puts bytes into a file it does not own
//! alone — a user's settings, a policy it formats, a report, an imported
//! plan, a ledger.
//!
//! A whole file is written to a new temporary name, created exclusively in
//! the target's folder (a link planted there is never followed), with the
//! target's mode and owner, synced, and renamed into place: a reader sees
//! the old file or the new one, never half of one. A target that is a
//! link is edited where it points, and stays a link. A file a rename would
//! change (a hard link, whose other names would keep the old text; a file
//! owned by someone else, who would lose it) is rewritten in place after
//! its backup is safe. A backup is a new file, created exclusively, synced
//! before the original is touched, and never overwritten: the next change
//! backs up to the next free name, unless the last backup already holds
//! what the file holds.
//!
//! A line is appended to a file opened without following a link, without
//! waiting on a FIFO, and only when what was opened is a regular file.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::source::read::same_file;

/// Whether the file's present text is backed up before it is replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backup {
    /// Keep the original beside it (a user's settings file).
    Keep,
    /// No backup (a report or a plan ctxguard wrote itself, a formatted
    /// policy); one is still made when the file must be rewritten in place.
    None,
}

/// What a write did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The file that holds the new text: the target of a link named.
    pub path: PathBuf,
    /// Where the text it held before is kept, if it held any and a backup
    /// was asked for (or the file was rewritten in place).
    pub backup: Option<PathBuf>,
    /// Rewritten in place (a hard link, a file owned by someone else)
    /// rather than replaced.
    pub in_place: bool,
}

/// Why nothing, or not everything, was written: the file named, and what
/// happened, in words a user can act on.
#[derive(Debug)]
pub struct WriteError {
    /// The file the message is about.
    pub path: PathBuf,
    /// What happened.
    pub reason: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for WriteError {}

fn error(path: &Path, reason: impl Into<String>) -> WriteError {
    WriteError {
        path: path.to_owned(),
        reason: reason.into(),
    }
}

fn io_error(path: &Path, action: &str, e: &std::io::Error) -> WriteError {
    error(
        path,
        format!("cannot {action} `{}`: {}", path.display(), plain(e)),
    )
}

/// An I/O error in words, without the `(os error N)` tail.
fn plain(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// The most numbered backups one file may have before a write refuses.
const MAX_BACKUPS: u32 = 100;

/// The largest file a backup is compared against byte for byte.
const COMPARE_LIMIT: u64 = 64 * 1024 * 1024;

/// Writes `bytes` as the whole of `path`, as the module says.
pub fn write_file(path: &Path, bytes: &[u8], backup: Backup) -> Result<Written, WriteError> {
    let target = resolve(path)?;
    let existing = match std::fs::symlink_metadata(&target) {
        Ok(metadata) => {
            if !metadata.file_type().is_file() {
                return Err(error(
                    &target,
                    format!(
                        "`{}` is not a regular file; ctxguard writes only regular files",
                        target.display()
                    ),
                ));
            }
            Some(metadata)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_error(&target, "inspect", &e)),
    };
    let Some(existing) = existing else {
        replace(&target, bytes, None)?;
        return Ok(Written {
            path: target,
            backup: None,
            in_place: false,
        });
    };
    let in_place = must_stay(&existing);
    let kept = if backup == Backup::Keep || in_place {
        Some(back_up(&target, &existing)?)
    } else {
        None
    };
    if in_place {
        rewrite_in_place(&target, &existing, bytes).map_err(|mut e| {
            if let Some(kept) = &kept {
                e.reason
                    .push_str(&format!("; the text it held is in `{}`", kept.display()));
            }
            e
        })?;
    } else {
        replace(&target, bytes, Some(&existing))?;
    }
    Ok(Written {
        path: target,
        backup: kept,
        in_place,
    })
}

/// Appends `bytes` to the regular file `path` (created, with mode 0600,
/// when it does not exist), under an exclusive lock held while `check`
/// looks at the file's length first and may refuse. A link, a FIFO or a
/// device at `path` is refused, unwritten.
pub fn append_file<E>(
    path: &Path,
    bytes: &[u8],
    check: impl FnOnce(&mut File, u64) -> Result<Vec<u8>, E>,
) -> Result<Result<(), E>, WriteError> {
    let mut file = open_regular_for_append(path)?;
    file.lock().map_err(|e| io_error(path, "lock", &e))?;
    let len = file
        .metadata()
        .map_err(|e| io_error(path, "inspect", &e))?
        .len();
    let prefix = match check(&mut file, len) {
        Ok(prefix) => prefix,
        Err(refused) => return Ok(Err(refused)),
    };
    let mut all = prefix;
    all.extend_from_slice(bytes);
    file.write_all(&all)
        .and_then(|()| file.sync_data())
        .map_err(|e| io_error(path, "append to", &e))?;
    Ok(Ok(()))
}

fn open_regular_for_append(path: &Path) -> Result<File, WriteError> {
    let mut options = OpenOptions::new();
    options.create(true).append(true).read(true);
    no_follow(&mut options, 0o600);
    let file = options.open(path).map_err(|e| {
        if super::read::is_link_error(&e) {
            error(
                path,
                format!(
                    "`{}` is a link; ctxguard appends only to a regular file it can name",
                    path.display()
                ),
            )
        } else {
            io_error(path, "open", &e)
        }
    })?;
    let metadata = file.metadata().map_err(|e| io_error(path, "inspect", &e))?;
    if !metadata.file_type().is_file() {
        return Err(error(
            path,
            format!(
                "`{}` is not a regular file; ctxguard appends only to regular files",
                path.display()
            ),
        ));
    }
    Ok(file)
}

/// The file a write of `path` changes: `path`, or where its links lead.
fn resolve(path: &Path) -> Result<PathBuf, WriteError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            std::fs::canonicalize(path).map_err(|e| {
                error(
                    path,
                    format!(
                        "`{}` is a link that leads nowhere ({}); ctxguard edits a link's target and will not create one",
                        path.display(),
                        plain(&e)
                    ),
                )
            })
        }
        _ => Ok(path.to_owned()),
    }
}

/// Whether a rename would change what the file is to others: another name
/// for it (a hard link) or another owner.
#[cfg(unix)]
fn must_stay(existing: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    existing.nlink() > 1 || (existing.uid() != euid() && euid() != 0)
}

#[cfg(not(unix))]
fn must_stay(_existing: &Metadata) -> bool {
    false
}

#[cfg(unix)]
fn euid() -> u32 {
    nix::unistd::geteuid().as_raw()
}

/// Writes `bytes` to a new temporary file beside `target` and renames it
/// over `target`.
fn replace(target: &Path, bytes: &[u8], existing: Option<&Metadata>) -> Result<(), WriteError> {
    let dir = folder(target);
    let name = file_name(target);
    let (mut file, temporary) =
        create_exclusive(&dir, &format!(".{name}"), ".ctxguard.tmp", existing)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| keep_identity(&file, existing))
        .and_then(|()| file.sync_all())
        .map_err(|e| io_error(target, "write", &e))
        .and_then(|()| {
            std::fs::rename(&temporary, target).map_err(|e| io_error(target, "replace", &e))
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    sync_folder(&dir);
    Ok(())
}

/// Rewrites `target` in place: the same file, opened without following a
/// link and checked to be the one inspected.
fn rewrite_in_place(target: &Path, existing: &Metadata, bytes: &[u8]) -> Result<(), WriteError> {
    let mut options = OpenOptions::new();
    options.write(true);
    no_follow(&mut options, 0o600);
    let mut file = options
        .open(target)
        .map_err(|e| io_error(target, "open", &e))?;
    let now = file
        .metadata()
        .map_err(|e| io_error(target, "inspect", &e))?;
    if !same_file(existing, &now) {
        return Err(error(
            target,
            format!(
                "`{}` changed while it was being written; nothing was written",
                target.display()
            ),
        ));
    }
    file.set_len(0)
        .and_then(|()| file.write_all(bytes))
        .and_then(|()| file.sync_all())
        .map_err(|e| io_error(target, "write", &e))
}

/// Copies `target`'s present text to a backup that did not exist before,
/// or names the newest backup when it already holds that text.
fn back_up(target: &Path, existing: &Metadata) -> Result<PathBuf, WriteError> {
    let dir = folder(target);
    let name = file_name(target);
    let mut original = Vec::new();
    let mut options = OpenOptions::new();
    options.read(true);
    no_follow(&mut options, 0o600);
    options
        .open(target)
        .and_then(|file| {
            file.take(existing.len().saturating_add(1))
                .read_to_end(&mut original)
        })
        .map_err(|e| io_error(target, "read", &e))?;
    let mut newest = None;
    for n in 1..=MAX_BACKUPS {
        let candidate = dir.join(backup_name(&name, n));
        match std::fs::symlink_metadata(&candidate) {
            Ok(_) => newest = Some(candidate),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if let Some(newest) = &newest {
                    if holds(newest, &original) {
                        return Ok(newest.clone());
                    }
                }
                return create_backup(&candidate, &original, existing);
            }
            Err(e) => return Err(io_error(&candidate, "inspect", &e)),
        }
    }
    Err(error(
        target,
        format!(
            "`{}` has {MAX_BACKUPS} backups beside it already; remove the old ones (`{}` and on) and run again",
            target.display(),
            backup_name(&name, 1)
        ),
    ))
}

/// The backups [`write_file`] made of `path`, oldest first.
pub fn backups(path: &Path) -> Vec<PathBuf> {
    let target = resolve(path).unwrap_or_else(|_| path.to_owned());
    let dir = folder(&target);
    let name = file_name(&target);
    (1..=MAX_BACKUPS)
        .map(|n| dir.join(backup_name(&name, n)))
        .take_while(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_file()))
        .collect()
}

/// `settings.json.ctxguard.bak`, then `settings.json.ctxguard.2.bak`, ….
fn backup_name(name: &str, n: u32) -> String {
    if n == 1 {
        format!("{name}.ctxguard.bak")
    } else {
        format!("{name}.ctxguard.{n}.bak")
    }
}

/// Whether the regular file `path` holds exactly `bytes`.
fn holds(path: &Path, bytes: &[u8]) -> bool {
    let mut options = OpenOptions::new();
    options.read(true);
    no_follow(&mut options, 0o600);
    let Ok(file) = options.open(path) else {
        return false;
    };
    let Ok(metadata) = file.metadata() else {
        return false;
    };
    if !metadata.file_type().is_file() || metadata.len() != bytes.len() as u64 {
        return false;
    }
    let mut held = Vec::new();
    file.take(COMPARE_LIMIT).read_to_end(&mut held).is_ok() && held == bytes
}

fn create_backup(path: &Path, bytes: &[u8], existing: &Metadata) -> Result<PathBuf, WriteError> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    no_follow(&mut options, mode_of(existing));
    let mut file = options
        .open(path)
        .map_err(|e| io_error(path, "create the backup", &e))?;
    let written = file
        .write_all(bytes)
        .and_then(|()| keep_identity(&file, Some(existing)))
        .and_then(|()| file.sync_all());
    if let Err(e) = written {
        // Never a truncated backup that a message calls the original.
        let _ = std::fs::remove_file(path);
        return Err(error(
            path,
            format!(
                "cannot back up to `{}`: {}; nothing was changed",
                path.display(),
                plain(&e)
            ),
        ));
    }
    sync_folder(&folder(path));
    Ok(path.to_owned())
}

/// A new file in `dir` named `PREFIX.PID.N.SUFFIX`, created exclusively.
fn create_exclusive(
    dir: &Path,
    prefix: &str,
    suffix: &str,
    existing: Option<&Metadata>,
) -> Result<(File, PathBuf), WriteError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mode = existing.map_or(0o666, mode_of);
    let mut last = None;
    for _ in 0..64 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{prefix}.{}.{n}{suffix}", std::process::id()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        no_follow(&mut options, mode);
        match options.open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(io_error(&path, "create", &e)),
        }
    }
    let e = last.unwrap_or_else(|| std::io::Error::other("no free name"));
    Err(io_error(dir, "create a temporary file in", &e))
}

/// The mode and owner of the file replaced, on its replacement.
#[cfg(unix)]
fn keep_identity(file: &File, existing: Option<&Metadata>) -> std::io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let Some(existing) = existing else {
        return Ok(());
    };
    file.set_permissions(std::fs::Permissions::from_mode(mode_of(existing)))?;
    let now = file.metadata()?;
    if (now.uid(), now.gid()) != (existing.uid(), existing.gid()) {
        let owner = (now.uid() != existing.uid()).then_some(existing.uid());
        let group = (now.gid() != existing.gid()).then_some(existing.gid());
        match std::os::unix::fs::fchown(file, owner, group) {
            Ok(()) => {}
            // Not permitted to give a file away: the group is kept when we
            // may, the owner was checked before (`must_stay`).
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied && owner.is_none() => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(not(unix))]
fn keep_identity(file: &File, existing: Option<&Metadata>) -> std::io::Result<()> {
    if let Some(existing) = existing {
        file.set_permissions(existing.permissions())?;
    }
    Ok(())
}

#[cfg(unix)]
fn mode_of(metadata: &Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn mode_of(_metadata: &Metadata) -> u32 {
    0o666
}

/// Opened as [`super::read::no_follow`] opens, created with `mode`.
#[cfg(unix)]
fn no_follow(options: &mut OpenOptions, mode: u32) {
    use std::os::unix::fs::OpenOptionsExt;
    super::read::no_follow(options.mode(mode));
}

#[cfg(not(unix))]
fn no_follow(options: &mut OpenOptions, _mode: u32) {
    super::read::no_follow(options);
}

/// Makes a rename in `dir` durable; a folder that cannot be synced (some
/// file systems) leaves the rename as durable as the system makes it.
fn sync_folder(dir: &Path) {
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".to_owned())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
    }

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn a_new_file_is_written_whole_and_nothing_is_left_beside_it() {
        let d = dir();
        let path = d.path().join("settings.json");
        let written = write_file(&path, b"{}\n", Backup::Keep).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(written.backup, None);
        assert_eq!(read(&path), "{}\n");
        assert_eq!(std::fs::read_dir(d.path()).map(|r| r.count()).ok(), Some(1));
    }

    #[test]
    fn backups_are_never_overwritten() {
        let d = dir();
        let path = d.path().join("settings.json");
        std::fs::write(&path, "original").unwrap_or_else(|e| panic!("{e}"));
        let first = write_file(&path, b"second", Backup::Keep).unwrap_or_else(|e| panic!("{e}"));
        let second = write_file(&path, b"third", Backup::Keep).unwrap_or_else(|e| panic!("{e}"));
        let (first, second) = (
            first.backup.unwrap_or_default(),
            second.backup.unwrap_or_default(),
        );
        assert_ne!(first, second);
        assert_eq!(read(&first), "original");
        assert_eq!(read(&second), "second");
        // The same text again is not backed up twice.
        std::fs::write(&path, "second").unwrap_or_else(|e| panic!("{e}"));
        let again = write_file(&path, b"fourth", Backup::Keep).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again.backup, Some(second));
    }

    #[test]
    fn links_planted_at_the_temporary_and_backup_names_are_not_followed() {
        let d = dir();
        let victim = d.path().join("profile");
        std::fs::write(&victim, "export PATH=/usr/bin\n").unwrap_or_else(|e| panic!("{e}"));
        let path = d.path().join("settings.json");
        std::fs::write(&path, "{}").unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(&victim, d.path().join("settings.json.ctxguard.bak"))
            .unwrap_or_else(|e| panic!("{e}"));
        for n in 0..4 {
            let _ = std::os::unix::fs::symlink(
                &victim,
                d.path().join(format!(
                    ".settings.json.{}.{n}.ctxguard.tmp",
                    std::process::id()
                )),
            );
        }
        let written =
            write_file(&path, b"{\"hooks\":{}}", Backup::Keep).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(&victim), "export PATH=/usr/bin\n");
        assert_eq!(read(&path), "{\"hooks\":{}}");
        assert_eq!(written.backup.map(|b| read(&b)).as_deref(), Some("{}"));
    }

    #[test]
    fn a_linked_target_is_edited_where_it_points_and_stays_a_link() {
        let d = dir();
        let real = d.path().join("dotfiles-settings.json");
        std::fs::write(&real, "{}").unwrap_or_else(|e| panic!("{e}"));
        let link = d.path().join("settings.json");
        std::os::unix::fs::symlink(&real, &link).unwrap_or_else(|e| panic!("{e}"));
        write_file(&link, b"{\"a\":1}", Backup::None).unwrap_or_else(|e| panic!("{e}"));
        assert!(std::fs::symlink_metadata(&link)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false));
        assert_eq!(read(&real), "{\"a\":1}");
    }

    #[test]
    fn a_hard_link_stays_one_file_and_the_mode_is_kept() {
        let d = dir();
        let path = d.path().join("settings.json");
        std::fs::write(&path, "{}").unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640))
            .unwrap_or_else(|e| panic!("{e}"));
        let other = d.path().join("other-name.json");
        std::fs::hard_link(&path, &other).unwrap_or_else(|e| panic!("{e}"));
        let written =
            write_file(&path, b"{\"a\":1}", Backup::None).unwrap_or_else(|e| panic!("{e}"));
        assert!(written.in_place);
        assert_eq!(read(&other), "{\"a\":1}");
        assert_eq!(written.backup.map(|b| read(&b)).as_deref(), Some("{}"));
        let meta = std::fs::metadata(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(meta.permissions().mode() & 0o777, 0o640);
        assert_eq!(meta.nlink(), 2);
    }

    #[test]
    fn the_mode_of_a_replaced_file_is_kept_on_it_and_its_backup() {
        let d = dir();
        let path = d.path().join("settings.json");
        std::fs::write(&path, "secret").unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .unwrap_or_else(|e| panic!("{e}"));
        let written = write_file(&path, b"new", Backup::Keep).unwrap_or_else(|e| panic!("{e}"));
        let mode = |p: &Path| {
            std::fs::metadata(p)
                .map(|m| m.permissions().mode() & 0o777)
                .ok()
        };
        assert_eq!(mode(&path), Some(0o600));
        assert_eq!(written.backup.as_deref().and_then(mode), Some(0o600));
    }

    #[test]
    fn appends_refuse_links_and_fifos() {
        let d = dir();
        let victim = d.path().join("victim");
        std::fs::write(&victim, "keep").unwrap_or_else(|e| panic!("{e}"));
        let link = d.path().join("x.jsonl");
        std::os::unix::fs::symlink(&victim, &link).unwrap_or_else(|e| panic!("{e}"));
        let appended = append_file(&link, b"{}\n", |_, _| Ok::<_, ()>(Vec::new()));
        assert!(appended.is_err());
        assert_eq!(read(&victim), "keep");
        let fifo = d.path().join("fifo.jsonl");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap_or_else(|e| panic!("{e}"));
        assert!(append_file(&fifo, b"{}\n", |_, _| Ok::<_, ()>(Vec::new())).is_err());
    }

    #[test]
    fn a_dangling_link_is_refused() {
        let d = dir();
        let link = d.path().join("settings.json");
        std::os::unix::fs::symlink(d.path().join("nowhere"), &link)
            .unwrap_or_else(|e| panic!("{e}"));
        let refused = write_file(&link, b"{}", Backup::Keep)
            .err()
            .map(|e| e.reason);
        assert!(refused.is_some_and(|r| r.contains("leads nowhere")));
    }
}

//! The file-access rule. ctxguard runs in CI on pull requests from
//! strangers, so what it reads, and so what it can print, is bounded:
//!
//! - A file the user names (`check FILE`, `--trace`, `--plan`, `--policy`)
//!   is read if it is a regular file (or `-`, standard input) of at most
//!   `max_input_bytes`. FIFOs, devices, sockets and directories are refused
//!   before they are opened.
//! - A file a policy names (`extends "PATH"`) is read only if it resolves,
//!   links followed, to a regular file inside the root: `--root`, or else
//!   the repository of the policy being checked (the nearest directory
//!   above it holding `.git`), or else the policy's own directory. Nothing
//!   under `/proc`, `/sys` or `/dev` is ever a parent. A refused file is
//!   never opened, so its content cannot reach a report.
//! - `check DIR` walks DIR without following links to directories, and a
//!   `*.policy` link whose target is outside DIR is refused, not read.

use std::path::{Path, PathBuf};

/// The largest input read by default: 1 GiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 1 << 30;

/// Limits on what ctxguard reads, for one run.
#[derive(Clone, Debug)]
pub struct Access {
    /// The largest file, or standard input, read; larger ones are refused.
    pub max_input_bytes: u64,
    /// Where `extends` may reach; `None` finds the root from each policy.
    pub root: Option<PathBuf>,
}

impl Default for Access {
    fn default() -> Self {
        Access {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            root: None,
        }
    }
}

/// Why a file a policy names is not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing is there.
    Missing,
    /// It resolves (links followed) to this path, outside the root.
    Outside {
        /// The root it must stay in.
        root: PathBuf,
        /// Where it really is.
        resolved: PathBuf,
    },
    /// It is not a regular file: a directory, FIFO, device or socket, or
    /// a file of the kernel's (`/proc`, `/sys`, `/dev`).
    Special(&'static str),
}

impl Access {
    /// The directory `extends` may not leave for a policy at `policy`.
    pub fn root_for(&self, policy: &Path) -> PathBuf {
        if let Some(root) = &self.root {
            return std::fs::canonicalize(root).unwrap_or_else(|_| root.clone());
        }
        // Absolute before anything else: an empty or relative root would
        // hold every path.
        let absolute = match std::env::current_dir() {
            Ok(here) if policy.is_relative() => here.join(policy),
            _ => policy.to_path_buf(),
        };
        let canonical = std::fs::canonicalize(&absolute).unwrap_or(absolute);
        let directory = canonical
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("/"), Path::to_path_buf);
        directory
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .map_or(directory.clone(), Path::to_path_buf)
    }

    /// The canonical path of `path`, and what it is, if a policy under
    /// `root` may read it. Reading it later must find the same file
    /// (`read_admitted`): a link swapped in between
    /// is refused, not followed.
    pub fn admit(&self, root: &Path, path: &Path) -> Result<Admitted, Refusal> {
        let resolved = std::fs::canonicalize(path).map_err(|_| Refusal::Missing)?;
        if ["/proc", "/sys", "/dev"]
            .iter()
            .any(|kernel| resolved.starts_with(kernel))
        {
            return Err(Refusal::Special("a file of the kernel's"));
        }
        if !resolved.starts_with(root) {
            return Err(Refusal::Outside {
                root: root.to_path_buf(),
                resolved,
            });
        }
        let metadata = std::fs::metadata(&resolved).map_err(|_| Refusal::Missing)?;
        match kind_of(&metadata.file_type()) {
            None => Ok(Admitted {
                path: resolved,
                metadata,
            }),
            Some(kind) => Err(Refusal::Special(kind)),
        }
    }
}

/// A file the access rule admitted: where it is, and which file it was.
#[derive(Debug)]
pub struct Admitted {
    /// The canonical path: no links left in it.
    pub path: PathBuf,
    /// The file found there when it was admitted.
    pub metadata: std::fs::Metadata,
}

/// What a file is when it is not a regular file.
pub(crate) fn kind_of(file_type: &std::fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO");
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return Some("a device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    if file_type.is_dir() {
        Some("a directory")
    } else if file_type.is_file() {
        None
    } else {
        Some("not a regular file")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_stay_inside_the_root() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = std::fs::canonicalize(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(root.join("base.policy"), "kind a\n").unwrap_or_else(|e| panic!("{e}"));
        let access = Access::default();
        assert!(access.admit(&root, &root.join("base.policy")).is_ok());
        assert!(matches!(
            access.admit(&root, &root.join("none.policy")),
            Err(Refusal::Missing)
        ));
        assert!(matches!(
            access.admit(&root, Path::new("/etc/hostname")),
            Err(Refusal::Outside { .. }) | Err(Refusal::Missing)
        ));
        assert!(matches!(
            access.admit(&root, Path::new("/proc/self/environ")),
            Err(Refusal::Special(_))
        ));
        assert!(matches!(
            access.admit(&root, &root),
            Err(Refusal::Special("a directory"))
        ));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", root.join("link.policy"))
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(matches!(
                access.admit(&root, &root.join("link.policy")),
                Err(Refusal::Outside { .. }) | Err(Refusal::Missing)
            ));
        }
    }
}

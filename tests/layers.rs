//! The layers hold inside each crate too. Between crates the compiler
//! holds them (`ctxguard-core` cannot name `ctxguard-runtimes`); inside a
//! crate, a folder may name only the folders before it in its crate's
//! order, so a cycle between folders fails here.

use std::path::{Path, PathBuf};

use regex::Regex;

/// Each crate's source folder and its folders from the bottom up, as each
/// `lib.rs` lists them.
const CRATES: &[(&str, &[&str])] = &[
    (
        "crates/ctxguard-core/src",
        &[
            "source",
            "facts",
            "diagnostics",
            "buffer",
            "policy",
            "verify",
            "compact",
        ],
    ),
    (
        "crates/ctxguard-runtimes/src",
        &["import", "audit", "hook", "runtime"],
    ),
    ("src", &["report", "command", "lsp", "cli"]),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every place under `root` where a folder names a folder above it in its
/// crate's order, and how many files were read.
fn upward_names(root: &Path, crates: &[(&str, &[&str])]) -> (usize, Vec<String>) {
    let named = Regex::new(r"\bcrate::([a-z_]+)\b").unwrap_or_else(|e| panic!("{e}"));
    let mut upward = Vec::new();
    let mut files_read = 0;
    for (src, order) in crates {
        for (at, folder) in order.iter().enumerate() {
            let mut files = Vec::new();
            rust_files(&root.join(src).join(folder), &mut files);
            assert!(!files.is_empty(), "{src}/{folder} holds no Rust file");
            for file in files {
                files_read += 1;
                let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
                for (n, line) in text.lines().enumerate() {
                    for name in named.captures_iter(line) {
                        let other = &name[1];
                        if order.iter().position(|f| f == &other) > Some(at) {
                            upward.push(format!(
                                "{}:{}: `{folder}` names `{other}`, which is above it",
                                file.strip_prefix(root).unwrap_or(&file).display(),
                                n + 1
                            ));
                        }
                    }
                }
            }
        }
    }
    (files_read, upward)
}

#[test]
fn a_folder_names_only_the_folders_below_it() {
    let (files_read, upward) = upward_names(Path::new(env!("CARGO_MANIFEST_DIR")), CRATES);
    assert!(files_read > 100, "only {files_read} files were read");
    assert!(upward.is_empty(), "{}", upward.join("\n"));
}

/// A file of a lower folder that names a higher one is found, with its
/// line; one that names a lower folder, or something not a folder, is not.
#[test]
fn an_upward_name_is_found() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap_or(dir.path()))
            .unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    };
    write(
        "src/low/mod.rs",
        "use crate::Thing;\nuse crate::high::Plan;\n",
    );
    write("src/high/mod.rs", "use crate::low::Text;\n");
    let (files_read, upward) = upward_names(dir.path(), &[("src", &["low", "high"])]);
    assert_eq!(files_read, 2);
    assert_eq!(
        upward,
        ["src/low/mod.rs:2: `low` names `high`, which is above it"]
    );
}

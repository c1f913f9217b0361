//! The TextMate grammar for `.policy` files (`editors/`), run by the engine
//! VS Code highlights with: `vscode-textmate` over Oniguruma, installed from
//! npm below the build folder the first time (Node.js and npm are needed,
//! as for `tests/runtimes`). Every keyword of the language is in it, every
//! token of every shipped policy is coloured, and each statement's parts
//! get the scopes an editor theme colours.

#[path = "support/npm_install.rs"]
mod npm_install;

use std::path::{Path, PathBuf};
use std::process::Command;

const GRAMMAR: &str = "editors/ctxguard-policy.tmLanguage.json";
const PACKAGES: [&str; 2] = ["vscode-textmate@9.3.2", "vscode-oniguruma@2.0.1"];

/// The folder the engine is installed in, installed once.
fn engine() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("textmate");
    let installed = || {
        dir.join("node_modules")
            .join("vscode-oniguruma")
            .join("package.json")
            .exists()
    };
    let specs = PACKAGES.map(str::to_owned);
    let path = std::env::var_os("PATH").unwrap_or_default();
    npm_install::install_once(&dir, &specs, &path, installed)
        .unwrap_or_else(|e| panic!("the engine is needed to run the grammar: {e}"));
    dir.join("node_modules")
}

/// Each file's lines, each a list of (text, scopes).
type Tokens = Vec<Vec<(String, Vec<String>)>>;

fn tokenize(files: &[PathBuf]) -> Vec<(PathBuf, Tokens)> {
    let output = Command::new("node")
        .env("NODE_PATH", engine())
        .arg("tests/grammar/tokenize.js")
        .arg(GRAMMAR)
        .args(files)
        .output()
        .expect("node runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    files
        .iter()
        .map(|file| {
            let lines = json[file.to_str().expect("a UTF-8 path")]
                .as_array()
                .expect("the file's lines");
            let tokens = lines
                .iter()
                .map(|line| {
                    line.as_array()
                        .expect("tokens")
                        .iter()
                        .map(|t| {
                            let scopes = t["scopes"].as_array().expect("scopes");
                            (
                                t["text"].as_str().expect("text").to_owned(),
                                scopes
                                    .iter()
                                    .map(|s| s.as_str().expect("a scope").to_owned())
                                    .collect(),
                            )
                        })
                        .collect()
                })
                .collect();
            (file.clone(), tokens)
        })
        .collect()
}

fn policies(dir: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect(dir) {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "policy") {
            out.push(path);
        }
    }
}

#[test]
fn every_keyword_of_the_language_is_in_the_grammar() {
    let pest =
        std::fs::read_to_string("crates/ctxguard-core/grammar/policy.pest").expect("grammar");
    let grammar = std::fs::read_to_string(GRAMMAR).expect("the TextMate grammar");
    let words =
        regex::Regex::new(r#"(?m)^(kw|rule|severity|tokenizer)_\w+\s*=\s*@\{\s*\(?"([\w-]+)""#)
            .expect("pattern");
    let mut found = 0;
    for word in words.captures_iter(&pest) {
        found += 1;
        assert!(
            grammar.contains(&word[2]),
            "`{}` is a word of the policy language the TextMate grammar does not colour",
            &word[2]
        );
    }
    assert!(found >= 25, "only {found} words read from policy.pest");
}

#[test]
fn every_shipped_policy_is_coloured_throughout() {
    let mut files = Vec::new();
    policies("policies/examples", &mut files);
    policies("crates/ctxguard-core/policies", &mut files);
    assert!(files.len() >= 4);
    for (file, lines) in tokenize(&files) {
        for (n, line) in lines.iter().enumerate() {
            for (text, scopes) in line {
                let at = format!("{}:{}: `{text}`", file.display(), n + 1);
                assert!(
                    !scopes.iter().any(|s| s.starts_with("invalid")),
                    "{at} is marked invalid"
                );
                if !text.trim().is_empty() {
                    assert!(!scopes.is_empty(), "{at} has no scope");
                }
            }
        }
    }
}

#[test]
fn each_statement_gets_the_scopes_a_theme_colours() {
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("team.policy");
    std::fs::write(
        &file,
        r#"policy team # the name
extends "base.policy"
kind constraint {
  doc "A rule the user \"stated\"."
  hint /\bdo not\b/i
  severity error
}
order "ordering:tests-*" before decision
preserve order
tokenizer o200k_base
budget window 128_000
budget commitments 60.5%
on mismatch reject
on unclassified keep
on over-budget escalate
"#,
    )
    .expect("written");
    let (_, lines) = tokenize(&[file]).remove(0);
    let scope_of = |line: usize, text: &str| -> String {
        let (_, scopes) = lines[line - 1]
            .iter()
            .find(|(t, _)| t == text)
            .unwrap_or_else(|| panic!("line {line} has no token `{text}`: {:?}", lines[line - 1]));
        scopes.last().cloned().unwrap_or_default()
    };
    let expected = [
        (1, "policy", "keyword.other.policy"),
        (1, "team", "entity.name.namespace"),
        (1, " the name", "comment.line.number-sign"),
        (2, "extends", "keyword.other.extends"),
        (2, "base.policy", "string.quoted.double"),
        (3, "kind", "storage.type.kind"),
        (3, "constraint", "entity.name.type.kind"),
        (3, "{", "punctuation.section.block"),
        (4, "doc", "keyword.other"),
        (4, "\\\"", "constant.character.escape"),
        (5, "hint", "keyword.other.hint"),
        (5, "\\b", "constant.character.escape"),
        (5, "i", "keyword.other.flag"),
        (6, "error", "constant.language"),
        (8, "order", "keyword.other.order"),
        (8, "before", "keyword.operator.before"),
        (8, "decision", "entity.name.type.kind"),
        (9, "preserve", "keyword.other"),
        (9, "order", "keyword.other"),
        (10, "o200k_base", "support.constant.tokenizer"),
        (11, "window", "keyword.other"),
        (11, "128_000", "constant.numeric.integer"),
        (12, "60.5", "constant.numeric.percent"),
        (13, "mismatch", "keyword.other"),
        (13, "reject", "constant.language"),
        (14, "keep", "constant.language"),
        (15, "over-budget", "keyword.other"),
        (15, "escalate", "constant.language"),
    ];
    for (line, text, scope) in expected {
        let got = scope_of(line, text);
        assert_eq!(
            got,
            format!("{scope}.ctxguard-policy"),
            "line {line}, `{text}`"
        );
    }
}

//! `ctxguard lsp` under a real editor: Neovim's built-in client
//! (`vim.lsp.start_client`, `tests/lsp/neovim.lua`), headless. Needs `nvim`
//! (Debian's `neovim`); without it the test says it skipped, and with
//! `CTXGUARD_REQUIRE_NEOVIM=1` (CI installs it) that is a failure.

use std::process::Command;

const POLICY: &str = "policy team
extends default

kind rule {
  doc \"A team rule.\"
}

# A test-first rule gates every decision.
order rule before decision
order constrant before decision
budget   window 64000
";

#[test]
fn neovim_shows_the_findings_and_applies_the_fix_and_the_layout() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(
            std::env::var("CTXGUARD_REQUIRE_NEOVIM").as_deref() != Ok("1"),
            "CTXGUARD_REQUIRE_NEOVIM=1 but there is no `nvim`: install Debian's neovim"
        );
        eprintln!("SKIPPED: no `nvim` (Debian's neovim) to drive the language server with");
        return;
    }
    let dir = tempfile::tempdir().expect("a folder");
    let policy = dir.path().join("team.policy");
    std::fs::write(&policy, POLICY).expect("written");
    let out = dir.path().join("seen.json");
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!(
            "luafile {}",
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/lsp/neovim.lua")
                .display()
        ))
        .env("CTXGUARD_BIN", env!("CARGO_BIN_EXE_ctxguard"))
        .env("CTXGUARD_POLICY", &policy)
        .env("CTXGUARD_OUT", &out)
        .env("HOME", dir.path())
        .env("XDG_CONFIG_HOME", dir.path())
        .env("XDG_DATA_HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .env("XDG_CACHE_HOME", dir.path())
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim exited {status}");
    // What the client logged of the server: no error (a server that exits
    // 2, or writes to standard error, is logged here).
    let log = std::fs::read_to_string(dir.path().join("nvim/lsp.log")).unwrap_or_default();
    assert!(!log.contains("[ERROR]"), "{log}");
    let seen: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("what nvim saw")).expect("JSON");

    assert_eq!(seen["arrived"], true, "{seen}");
    let diagnostics = seen["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), 1, "{seen}");
    let shown = &diagnostics[0];
    assert_eq!(shown["code"], "unknown-kind");
    assert_eq!(shown["source"], "ctxguard");
    assert_eq!(
        (shown["lnum"].as_u64(), shown["col"].as_u64()),
        (Some(9), Some(6))
    );
    assert_eq!(shown["severity"], 1, "an error");
    assert!(shown["message"]
        .as_str()
        .expect("a message")
        .contains("did you mean `constraint`?"));

    assert!(seen["hover"]
        .as_str()
        .unwrap_or_default()
        .contains("kind **rule**: A team rule."));
    assert_eq!(
        seen["actions"],
        serde_json::json!(["Replace with `constraint`"])
    );
    assert_eq!(seen["cleared"], true, "the fix clears the finding: {seen}");
    let text = seen["text"].as_str().expect("the buffer");
    assert!(text.contains("order constraint before decision"), "{text}");
    assert!(text.contains("\nbudget window 64000"), "{text}");
}

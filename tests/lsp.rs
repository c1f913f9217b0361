//! `ctxguard lsp` spoken to over its standard input and output, as an
//! editor does: each request and what it answers. (`tests/lsp_neovim.rs`
//! drives it from a real editor.)

use std::io::BufReader;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use lsp_server::{Message, Notification, Request, RequestId};
use serde_json::{json, Value};

/// A policy with a misspelled kind, a kind of its own, a code in an ignore
/// and a statement laid out loosely.
const POLICY: &str = "policy team
extends default

kind rule {
  doc \"A team rule.\"
}

# ctxguard-ignore redundant-order: kept for the reader
order rule before decision
order constrant before decision
budget   window 64000
";

struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next: i32,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctxguard"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("ctxguard lsp starts");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut server = Server {
            child,
            input,
            output,
            next: 0,
        };
        let capabilities = server.request("initialize", json!({"capabilities": {}}));
        let offered = &capabilities["capabilities"];
        for capability in [
            "hoverProvider",
            "definitionProvider",
            "completionProvider",
            "documentFormattingProvider",
            "codeActionProvider",
        ] {
            assert!(!offered[capability].is_null(), "{capability}: {offered}");
        }
        server.notify("initialized", json!({}));
        server
    }

    fn notify(&mut self, method: &str, params: Value) {
        Message::Notification(Notification::new(method.to_owned(), params))
            .write(&mut self.input)
            .expect("written");
    }

    /// Sends a request; its result (notifications before it are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = RequestId::from(self.next);
        Message::Request(Request::new(id.clone(), method.to_owned(), params))
            .write(&mut self.input)
            .expect("written");
        loop {
            match Message::read(&mut self.output)
                .expect("read")
                .expect("a message")
            {
                Message::Response(response) if response.id == id => {
                    assert!(response.error.is_none(), "{method}: {:?}", response.error);
                    return response.result.unwrap_or(Value::Null);
                }
                _ => {}
            }
        }
    }

    /// The next notification of `method`.
    fn expect(&mut self, method: &str) -> Value {
        loop {
            if let Message::Notification(n) = Message::read(&mut self.output)
                .expect("read")
                .expect("a message")
            {
                if n.method == method {
                    return n.params;
                }
            }
        }
    }

    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().expect("it exits");
        assert!(status.success(), "{status}");
    }
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

#[test]
fn the_server_answers_as_check_fmt_and_explain_do() {
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("team.policy");
    std::fs::write(&path, POLICY).expect("written");
    let uri = format!("file://{}", path.display());
    let mut server = Server::start();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "ctxguard-policy", "version": 1, "text": POLICY}}),
    );

    // What `check` says, on the same span, with its help.
    let published = server.expect("textDocument/publishDiagnostics");
    let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
    let unknown = diagnostics
        .iter()
        .find(|d| d["code"] == "unknown-kind")
        .unwrap_or_else(|| panic!("{published}"));
    assert_eq!(
        unknown["range"]["start"],
        json!({"line": 9, "character": 6})
    );
    assert_eq!(unknown["range"]["end"], json!({"line": 9, "character": 15}));
    assert_eq!(unknown["severity"], 1);
    assert!(
        unknown["message"]
            .as_str()
            .expect("a message")
            .contains("help: did you mean `constraint`?"),
        "{unknown}"
    );

    // Its "did you mean" as a quick fix.
    let actions = server.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": unknown["range"], "context": {"diagnostics": [unknown]}}),
    );
    let edit = &actions[0]["edit"]["changes"][&uri][0];
    assert_eq!(edit["newText"], "constraint", "{actions}");
    assert_eq!(edit["range"], unknown["range"]);

    // Hover: a code (its explanation), a kind (its doc), a keyword.
    let hover = |server: &mut Server, line, character| {
        server.request("textDocument/hover", at(&uri, line, character))["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assert!(hover(&mut server, 7, 22).starts_with("**redundant-order** (warning)"));
    assert!(hover(&mut server, 8, 7).contains("kind **rule**: A team rule."));
    assert!(hover(&mut server, 8, 20).contains("kind **decision**"));
    assert!(hover(&mut server, 10, 2).starts_with("`budget`"));

    // Definition: the kind's name in its own statement.
    let definition = server.request("textDocument/definition", at(&uri, 8, 7));
    assert_eq!(definition["uri"], uri.as_str());
    assert_eq!(
        definition["range"]["start"],
        json!({"line": 3, "character": 5})
    );

    // Completion: statements on a new line, kinds after `order`.
    let labels = |items: Value| -> Vec<String> {
        items
            .as_array()
            .expect("items")
            .iter()
            .map(|i| i["label"].as_str().expect("a label").to_owned())
            .collect()
    };
    let statements = labels(server.request("textDocument/completion", at(&uri, 2, 0)));
    assert!(statements.contains(&"kind".to_owned()), "{statements:?}");
    let kinds = labels(server.request("textDocument/completion", at(&uri, 8, 18)));
    for kind in ["rule", "constraint", "decision"] {
        assert!(kinds.contains(&kind.to_owned()), "{kinds:?}");
    }

    // Formatting: as `fmt`, once the policy parses (the misspelled kind is
    // a check finding, not a syntax error).
    let edits = server.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let formatted = edits[0]["newText"].as_str().expect("the formatted text");
    assert!(formatted.contains("\nbudget window 64000\n"), "{formatted}");
    let fmt = std::process::Command::new(env!("CARGO_BIN_EXE_ctxguard"))
        .args(["fmt", "--check"])
        .arg(&path)
        .output()
        .expect("fmt runs");
    assert!(String::from_utf8_lossy(&fmt.stdout).contains("+budget window 64000"));

    // A change is checked again; closing clears what was published.
    let fixed = POLICY.replace("constrant", "constraint");
    server.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let published = server.expect("textDocument/publishDiagnostics");
    assert!(
        !published["diagnostics"]
            .as_array()
            .expect("diagnostics")
            .iter()
            .any(|d| d["code"] == "unknown-kind"),
        "{published}"
    );
    server.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let published = server.expect("textDocument/publishDiagnostics");
    assert_eq!(published["diagnostics"], json!([]));
    server.stop();
}

/// A runtime's config opened in the editor gets `check`'s findings, and
/// `check --fix`'s safe fix as a quick fix.
#[test]
fn a_runtime_config_gets_its_findings_and_its_fixes() {
    let fixture = "tests/fixtures/configs/claude-code/hook-timeout-units/.claude/settings.json";
    let text = std::fs::read_to_string(fixture).expect("the fixture");
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("folders");
    std::fs::write(&path, &text).expect("written");
    let uri = format!("file://{}", path.display());
    let mut server = Server::start();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}),
    );
    let published = server.expect("textDocument/publishDiagnostics");
    let finding = published["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "hook-timeout-units")
        .unwrap_or_else(|| panic!("{published}"))
        .clone();
    let line = finding["range"]["start"]["line"].as_u64().expect("a line");
    assert_eq!(
        text.lines().nth(line as usize).map(str::trim),
        Some("\"timeout\": 60000")
    );
    let actions = server.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": finding["range"], "context": {"diagnostics": [finding]}}),
    );
    let fix = actions
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| {
            a["title"]
                .as_str()
                .unwrap_or_default()
                .contains("hook-timeout-units")
        })
        .unwrap_or_else(|| panic!("{actions}"));
    assert_eq!(fix["edit"]["changes"][&uri][0]["newText"], "60");
    // Formatting is the policy language's, not a config's.
    let edits = server.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert!(edits.is_null(), "{edits}");
    server.stop();
}

/// Go to definition on an `extends` statement opens the parent it loaded,
/// a comment after it or not.
#[test]
fn extends_goes_to_the_parent_it_loaded() {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::write(
        dir.path().join("base.policy"),
        "policy base\nextends default\n",
    )
    .expect("written");
    let child = "policy team\nextends \"base.policy\"  # the team's base\n";
    let path = dir.path().join("team.policy");
    std::fs::write(&path, child).expect("written");
    let uri = format!("file://{}", path.display());
    let mut server = Server::start();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "ctxguard-policy", "version": 1, "text": child}}),
    );
    server.expect("textDocument/publishDiagnostics");
    let parent = format!(
        "file://{}",
        dir.path()
            .join("base.policy")
            .canonicalize()
            .expect("the parent")
            .display()
    );
    for character in [2, 12] {
        let definition = server.request("textDocument/definition", at(&uri, 1, character));
        assert_eq!(definition["uri"], parent.as_str(), "{definition}");
    }
    // Elsewhere it is a kind's name or nothing.
    assert!(server
        .request("textDocument/definition", at(&uri, 0, 2))
        .is_null());
    server.stop();
}

//! The scripted model server: a model API on 127.0.0.1 that answers each
//! request a runtime sends from a script, reports the token usage that
//! makes the runtime compact on its own, and records every request.
//!
//! A runtime sends three kinds of request: a turn of the conversation
//! (answered by the script's next [`Turn`]), a compaction (answered by the
//! next scripted summary) and requests of its own (warm-ups, titles),
//! answered with a short text that consumes nothing. Which is which is the
//! wire's [`Wire::classify`]. The server stops when dropped, and by itself
//! after [`LIFETIME`] at the latest.

pub mod anthropic;
pub mod gemini;
pub mod responses;

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The longest a server lives, whatever its owner does.
pub const LIFETIME: Duration = Duration::from_secs(600);

/// What the model answers.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Plain text.
    Text(String),
    /// A call of the runtime's tool `name` with `input`.
    Tool { name: String, input: Value },
}

/// One scripted answer to a turn of the conversation.
#[derive(Clone, Debug)]
pub struct Turn {
    pub reply: Reply,
    /// The prompt's size the answer reports: above the runtime's watermark,
    /// the runtime compacts before its next request.
    pub input_tokens: u64,
    /// Set: the answer writes this to the plan file the request names
    /// (Claude Code 2.1.3xx in plan mode approves the plan file, not the
    /// call's text), and where the request names none, the turn is skipped.
    pub plan_file: Option<String>,
}

impl Turn {
    pub fn text(text: &str) -> Turn {
        Turn {
            reply: Reply::Text(text.to_owned()),
            input_tokens: 1_000,
            plan_file: None,
        }
    }

    pub fn plan_file(content: &str) -> Turn {
        Turn {
            plan_file: Some(content.to_owned()),
            ..Turn::text("")
        }
    }

    pub fn tool(name: &str, input: Value) -> Turn {
        Turn {
            reply: Reply::Tool {
                name: name.to_owned(),
                input,
            },
            input_tokens: 1_000,
            plan_file: None,
        }
    }

    /// The same answer, reporting a prompt of `tokens`.
    pub fn reporting(mut self, tokens: u64) -> Turn {
        self.input_tokens = tokens;
        self
    }
}

/// What the server answers, in order.
#[derive(Clone, Debug, Default)]
pub struct Script {
    pub turns: VecDeque<Turn>,
    pub summaries: VecDeque<String>,
}

impl Script {
    pub fn new() -> Script {
        Script::default()
    }

    pub fn turn(mut self, turn: Turn) -> Script {
        self.turns.push_back(turn);
        self
    }

    pub fn summary(mut self, summary: &str) -> Script {
        self.summaries.push_back(summary.to_owned());
        self
    }
}

/// What a request was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A turn of the conversation.
    Turn,
    /// A request to summarize the conversation.
    Compaction,
    /// The runtime's own (a warm-up, a title, a routing call).
    Aside,
}

/// One request received, and what it was answered with.
#[derive(Clone, Debug)]
pub struct Exchange {
    pub method: String,
    pub path: String,
    pub body: Value,
    pub kind: Kind,
    /// The scripted answer given; `None`: the script had run out, or the
    /// request was an aside.
    pub scripted: Option<String>,
}

impl Exchange {
    /// The request's body as text, to look for what the model was given.
    pub fn text(&self) -> String {
        self.body.to_string()
    }
}

/// A model API's wire format.
pub trait Wire: Send + Sync + 'static {
    /// What the request at `path` with `body` is.
    fn classify(&self, method: &str, path: &str, body: &Value) -> Kind;
    /// The response's content type and body for `reply` to the request at `path`.
    fn respond(
        &self,
        path: &str,
        body: &Value,
        reply: &Reply,
        input_tokens: u64,
        serial: u64,
    ) -> Answer;
}

/// A response.
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

struct State {
    script: Script,
    log: Vec<Exchange>,
    serial: u64,
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    http: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // A panic while the lock was held poisons nothing this server reads.
    state.lock().unwrap_or_else(|p| p.into_inner())
}

impl Server {
    /// Starts a server for `wire` on a free port of 127.0.0.1.
    pub fn start(wire: impl Wire, script: Script) -> Server {
        let http =
            Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("a port on 127.0.0.1 is free"));
        let addr = http
            .server_addr()
            .to_ip()
            .expect("the server listens on an IP address");
        assert!(
            addr.ip().is_loopback(),
            "the model server binds to loopback only"
        );
        let state = Arc::new(Mutex::new(State {
            script,
            log: Vec::new(),
            serial: 0,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (http, state, stop) = (http.clone(), state.clone(), stop.clone());
            std::thread::spawn(move || serve(&http, &state, &stop, &wire))
        };
        Server {
            addr,
            state,
            stop,
            http,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request so far.
    pub fn log(&self) -> Vec<Exchange> {
        lock(&self.state).log.clone()
    }

    /// The request of the first turn after compaction `n` (from 0): what
    /// the model was given once that compaction was done.
    pub fn turn_after_compaction(&self, n: usize) -> String {
        self.log()
            .into_iter()
            .filter(|e| e.kind == Kind::Compaction || e.kind == Kind::Turn)
            .skip_while(|e| e.kind != Kind::Compaction)
            .collect::<Vec<_>>()
            .split(|e| e.kind == Kind::Compaction)
            .nth(n + 1)
            .and_then(|turns| turns.first().map(Exchange::text))
            .unwrap_or_default()
    }

    /// The requests of `kind` so far.
    pub fn of(&self, kind: Kind) -> Vec<Exchange> {
        self.log().into_iter().filter(|e| e.kind == kind).collect()
    }

    /// Writes every request so far to `path`, one JSON line each, to be
    /// looked at when a trial fails.
    pub fn save(&self, path: &std::path::Path) {
        let lines: String = self
            .log()
            .iter()
            .map(|e| {
                let line = serde_json::json!({
                    "method": e.method, "path": e.path, "kind": format!("{:?}", e.kind),
                    "scripted": e.scripted, "body": e.body,
                });
                format!("{line}\n")
            })
            .collect();
        let _ = std::fs::write(path, lines);
    }

    /// What of the script has not been used.
    pub fn unused(&self) -> (usize, usize) {
        let state = lock(&self.state);
        (state.script.turns.len(), state.script.summaries.len())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.http.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn serve(http: &tiny_http::Server, state: &Mutex<State>, stop: &AtomicBool, wire: &dyn Wire) {
    let born = Instant::now();
    while !stop.load(Ordering::SeqCst) && born.elapsed() < LIFETIME {
        let mut request = match http.recv_timeout(Duration::from_millis(200)) {
            Ok(Some(request)) => request,
            Ok(None) => continue,
            Err(_) => break,
        };
        let method = request.method().as_str().to_owned();
        let path = request.url().to_owned();
        let mut bytes = Vec::new();
        let _ = request.as_reader().read_to_end(&mut bytes);
        // JavaScript writes a lone surrogate where Claude Code 2.1.105 cuts a
        // long hook output between the halves of an emoji.
        let text = String::from_utf8_lossy(&bytes);
        let body: Value = serde_json::from_str(&ctxguard::import::mend_lone_surrogates(&text)).unwrap_or_else(|e| {
            serde_json::json!({"unparsed": e.to_string(), "bytes": bytes.len(), "start": String::from_utf8_lossy(&bytes[..bytes.len().min(300)])})
        });
        let kind = wire.classify(&method, &path, &body);
        let (reply, tokens, scripted, serial) = {
            let mut state = lock(state);
            state.serial += 1;
            let serial = state.serial;
            let (reply, tokens, scripted) = match kind {
                Kind::Turn => match next_turn(&mut state.script, &body) {
                    Some(turn) => {
                        let label = label(&turn.reply);
                        (turn.reply, turn.input_tokens, Some(label))
                    }
                    None => (Reply::Text("Done.".to_owned()), 1_000, None),
                },
                Kind::Compaction => match state.script.summaries.pop_front() {
                    Some(summary) => (Reply::Text(summary.clone()), 1_000, Some(summary)),
                    None => (
                        Reply::Text(
                            "<analysis>unscripted</analysis>\n<summary>The conversation so far.</summary>"
                                .to_owned(),
                        ),
                        1_000,
                        None,
                    ),
                },
                Kind::Aside => (Reply::Text("ok".to_owned()), 100, None),
            };
            (reply, tokens, scripted, serial)
        };
        let answer = if method == "HEAD" || method == "GET" {
            Answer {
                status: 200,
                content_type: "application/json",
                body: b"{}".to_vec(),
            }
        } else {
            wire.respond(&path, &body, &reply, tokens, serial)
        };
        lock(state).log.push(Exchange {
            method,
            path,
            body,
            kind,
            scripted,
        });
        let header = tiny_http::Header::from_bytes("Content-Type", answer.content_type)
            .expect("a content type is a valid header");
        let response = tiny_http::Response::from_data(answer.body)
            .with_status_code(answer.status)
            .with_header(header);
        let _ = request.respond(response);
    }
}

/// The next scripted turn for a request with `body`: a plan file is
/// written where the request names one, and skipped where it does not.
fn next_turn(script: &mut Script, body: &Value) -> Option<Turn> {
    static PLAN_FILE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r#"/[^\s"'`]*/\.claude/plans/[^\s"'`\\]+\.md"#)
            .expect("the pattern compiles")
    });
    loop {
        let turn = script.turns.pop_front()?;
        let Some(content) = &turn.plan_file else {
            return Some(turn);
        };
        if let Some(path) = PLAN_FILE.find(&body.to_string()) {
            return Some(Turn {
                reply: Reply::Tool {
                    name: "Write".to_owned(),
                    input: serde_json::json!({"file_path": path.as_str(), "content": content}),
                },
                input_tokens: turn.input_tokens,
                plan_file: None,
            });
        }
    }
}

fn label(reply: &Reply) -> String {
    match reply {
        Reply::Text(text) => text.clone(),
        Reply::Tool { name, .. } => format!("tool {name}"),
    }
}

/// Server-sent events: `event: NAME` and `data: JSON` for each.
pub fn events<'a>(events: impl IntoIterator<Item = (&'a str, Value)>) -> Vec<u8> {
    let mut out = String::new();
    for (name, data) in events {
        out.push_str("event: ");
        out.push_str(name);
        out.push_str("\ndata: ");
        out.push_str(&data.to_string());
        out.push_str("\n\n");
    }
    out.into_bytes()
}

/// The text of one message's `content`.
pub fn content_text(message: &Value) -> String {
    match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

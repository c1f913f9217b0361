//! `ctxguard lsp`: a language server for policy files (and runtime configs),
//! over standard input and output. What `check` says of a policy or a
//! runtime's config, as the user types (the same
//! codes, messages, help and notes, on the same spans); `fmt` as the
//! editor's formatting; hover on a code or a kind (`explain`, the kind's
//! `doc`); go to a kind's `kind` statement or an `extends` parent;
//! completion of keywords, kinds and codes; a quick fix for every "did
//! you mean" and every fix `check --fix` makes in a config. The transport and the messages are `lsp-server` and
//! `lsp-types`; the work is the library's.

mod position;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, Formatting, GotoDefinition, HoverRequest, Request as _,
};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CompletionItem, CompletionItemKind, CompletionParams,
    CompletionResponse, DiagnosticRelatedInformation, DiagnosticSeverity, DocumentFormattingParams,
    GotoDefinitionParams, GotoDefinitionResponse, Hover, HoverContents, HoverParams,
    HoverProviderCapability, Location, MarkupContent, MarkupKind, NumberOrString, OneOf,
    PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextEdit, Url, WorkspaceEdit,
};

use ctxguard_core::diagnostics::explain::explanation;
use ctxguard_core::diagnostics::{Code, Diagnostic, Severity};
use ctxguard_core::policy::fmt::format_source;
use ctxguard_core::policy::load::{Loaded, Loader};
use ctxguard_core::policy::Policy;
use ctxguard_core::source::SourceFile;
use ctxguard_runtimes::runtime::{check_config, Edit, Kind};

use position::{offset_of, range_of};

/// The words that start a statement, and those inside a kind's block.
const STATEMENTS: [(&str, &str); 8] = [
    ("policy", "names the policy: `policy NAME`"),
    (
        "extends",
        "builds on a parent: `extends default` or `extends \"path.policy\"`",
    ),
    (
        "kind",
        "declares a commitment kind: `kind NAME { doc … hint … severity … }`",
    ),
    ("order", "an order the plan must keep: `order A before B`"),
    (
        "preserve",
        "`preserve order`: commitments keep their relative order",
    ),
    (
        "tokenizer",
        "how tokens are counted: `o200k_base`, `cl100k_base` or `approx`",
    ),
    (
        "budget",
        "`budget window TOKENS` or `budget commitments PERCENT%`",
    ),
    (
        "on",
        "what a finding does: `on mismatch|unclassified|over-budget …`",
    ),
];
const KIND_ITEMS: [(&str, &str); 3] = [
    ("doc", "what the kind is for: `doc \"…\"`"),
    (
        "hint",
        "text that looks like this kind: `hint /pattern/flags`",
    ),
    (
        "severity",
        "`severity error` (losing one rejects) or `severity warning`",
    ),
];

/// Serves the protocol on standard input and output until the client
/// asks it to exit. An error is the transport's.
pub fn serve() -> Result<(), String> {
    let (connection, threads) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(lsp_types::CompletionOptions::default()),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    let capabilities = serde_json::to_value(capabilities).map_err(|e| e.to_string())?;
    connection
        .initialize(capabilities)
        .map_err(|e| e.to_string())?;
    let mut server = Server {
        documents: HashMap::new(),
    };
    // After `shutdown` only `exit` is acted on; a second `shutdown` (a
    // client stopping and then quitting sends two) is answered again.
    let mut shut_down = false;
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                let response = if request.method == "shutdown" {
                    shut_down = true;
                    Response::new_ok(request.id, ())
                } else if shut_down {
                    Response::new_err(
                        request.id,
                        lsp_server::ErrorCode::InvalidRequest as i32,
                        "the server is shutting down".to_owned(),
                    )
                } else {
                    server.answer(request)
                };
                connection
                    .sender
                    .send(Message::Response(response))
                    .map_err(|e| e.to_string())?;
            }
            Message::Notification(notification) if notification.method == "exit" => break,
            Message::Notification(_) if shut_down => {}
            Message::Notification(notification) => {
                for published in server.notice(notification) {
                    connection
                        .sender
                        .send(Message::Notification(published))
                        .map_err(|e| e.to_string())?;
                }
            }
            Message::Response(_) => {}
        }
    }
    drop(connection);
    threads.join().map_err(|e| e.to_string())
}

/// An open document: its text, and what checking it found.
struct Document {
    source: Arc<SourceFile>,
    /// A policy as loaded; `None` for a runtime's config.
    loaded: Option<Arc<Loaded>>,
    diagnostics: Vec<Diagnostic>,
    /// A runtime config's safe fixes (`check --fix`), offered as quick fixes.
    fixes: Vec<Edit>,
}

struct Server {
    documents: HashMap<Url, Document>,
}

impl Server {
    fn notice(&mut self, notification: Notification) -> Vec<Notification> {
        let changed = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => notification
                .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                .ok()
                .map(|p| (p.text_document.uri, p.text_document.text)),
            DidChangeTextDocument::METHOD => notification
                .extract::<lsp_types::DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD)
                .ok()
                .and_then(|p| {
                    let text = p.content_changes.into_iter().last()?.text;
                    Some((p.text_document.uri, text))
                }),
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = notification
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                {
                    self.documents.remove(&p.text_document.uri);
                    return vec![publish(p.text_document.uri, Vec::new())];
                }
                None
            }
            _ => None,
        };
        let Some((uri, text)) = changed else {
            return Vec::new();
        };
        let document = checked(&uri, text);
        let diagnostics = document
            .diagnostics
            .iter()
            .map(|d| to_lsp(&uri, &document.source, d))
            .collect();
        self.documents.insert(uri.clone(), document);
        vec![publish(uri, diagnostics)]
    }

    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        let result = match method.as_str() {
            HoverRequest::METHOD => on::<HoverRequest>(request, |p| self.hover(p)),
            GotoDefinition::METHOD => on::<GotoDefinition>(request, |p| self.definition(p)),
            Completion::METHOD => on::<Completion>(request, |p| self.completion(p)),
            Formatting::METHOD => on::<Formatting>(request, |p| self.formatting(p)),
            CodeActionRequest::METHOD => on::<CodeActionRequest>(request, |p| self.code_actions(p)),
            _ => {
                return Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("ctxguard's server does not answer `{method}`"),
                )
            }
        };
        match result {
            Some(value) => Response::new_ok(id, value),
            None => Response::new_err(
                id,
                lsp_server::ErrorCode::InvalidParams as i32,
                "the request's parameters could not be read".to_owned(),
            ),
        }
    }

    /// The document at `uri` and the word at `position` in it.
    fn word_at(
        &self,
        uri: &Url,
        position: lsp_types::Position,
    ) -> Option<(&Document, String, std::ops::Range<usize>)> {
        let document = self.documents.get(uri)?;
        let text = document.source.text();
        let at = offset_of(&document.source, position);
        let is_word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_word(*c))
            .last()
            .map_or(at, |(i, _)| i);
        let end = text[at..]
            .char_indices()
            .find(|(_, c)| !is_word(*c))
            .map_or(text.len(), |(i, _)| at + i);
        (start < end).then(|| (document, text[start..end].to_owned(), start..end))
    }

    fn hover(&self, params: &HoverParams) -> Option<Hover> {
        let place = &params.text_document_position_params;
        let (document, word, span) = self.word_at(&place.text_document.uri, place.position)?;
        let text = if let Some(code) = Code::from_name(&word) {
            let explained = explanation(code);
            format!(
                "**{}** ({})\n\n{}\n\n{}\n\n*Fix:* {}",
                code.name(),
                code.default_severity().name(),
                explained.summary,
                explained.details,
                explained.fix
            )
        } else if let Some(kind) = document
            .loaded
            .as_ref()
            .and_then(|l| l.policy.as_ref())
            .and_then(|p| p.kinds.iter().find(|k| k.name == word))
        {
            format!(
                "kind **{}**: {}",
                kind.name,
                kind.doc.as_deref().unwrap_or("(no `doc`)")
            )
        } else {
            let (_, about) = STATEMENTS
                .iter()
                .chain(KIND_ITEMS.iter())
                .find(|(keyword, _)| *keyword == word)?;
            format!("`{word}` {about}")
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: Some(range_of(&document.source, span)),
        })
    }

    fn definition(&self, params: &GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
        let place = &params.text_document_position_params;
        let (document, word, _) = self.word_at(&place.text_document.uri, place.position)?;
        // On the `extends` statement: the parent it loaded, at its first line.
        let at = offset_of(&document.source, place.position);
        if let Some((statement, parent)) = document.loaded.as_ref()?.parent.as_ref() {
            if statement.start <= at && at <= statement.end {
                let file = parent.source.as_ref()?;
                let uri = Url::from_file_path(Path::new(file.name()).canonicalize().ok()?).ok()?;
                let start = lsp_types::Position::new(0, 0);
                return Some(GotoDefinitionResponse::Scalar(Location::new(
                    uri,
                    lsp_types::Range::new(start, start),
                )));
            }
        }
        // A kind: its `kind` statement, in this file or the one it is in.
        let policy = document.loaded.as_ref()?.policy.as_ref()?;
        let kind = policy.kinds.iter().find(|k| k.name == word)?;
        let origin = &kind.origin;
        let uri = if origin.file.name() == document.source.name() {
            place.text_document.uri.clone()
        } else {
            Url::from_file_path(Path::new(origin.file.name()).canonicalize().ok()?).ok()?
        };
        Some(GotoDefinitionResponse::Scalar(Location::new(
            uri,
            range_of(&origin.file, origin.span.clone()),
        )))
    }

    fn completion(&self, params: &CompletionParams) -> Option<CompletionResponse> {
        let place = &params.text_document_position;
        let document = self.documents.get(&place.text_document.uri)?;
        let text = document.source.text();
        let at = offset_of(&document.source, place.position);
        let (_, line_start) = document.source.line_at(at);
        let before = &text[line_start..at];
        let item = |label: &str, kind: CompletionItemKind, detail: &str| CompletionItem {
            label: label.to_owned(),
            kind: Some(kind),
            detail: Some(detail.to_owned()),
            ..CompletionItem::default()
        };
        let mut items = Vec::new();
        if before.contains("ctxguard-ignore") {
            for code in Code::ALL {
                items.push(item(
                    code.name(),
                    CompletionItemKind::CONSTANT,
                    explanation(*code).summary,
                ));
            }
        } else if before.trim().is_empty() {
            let inside_block =
                text[..line_start].matches('{').count() > text[..line_start].matches('}').count();
            let words: &[(&str, &str)] = if inside_block {
                &KIND_ITEMS
            } else {
                &STATEMENTS
            };
            for (keyword, about) in words {
                items.push(item(keyword, CompletionItemKind::KEYWORD, about));
            }
        } else if let Some(policy) = document.loaded.as_ref().and_then(|l| l.policy.as_ref()) {
            for kind in &policy.kinds {
                items.push(item(
                    &kind.name,
                    CompletionItemKind::CLASS,
                    kind.doc.as_deref().unwrap_or("a commitment kind"),
                ));
            }
        }
        Some(CompletionResponse::Array(items))
    }

    fn formatting(&self, params: &DocumentFormattingParams) -> Option<Vec<TextEdit>> {
        let document = self.documents.get(&params.text_document.uri)?;
        document.loaded.as_ref()?;
        let text = document.source.text();
        let formatted = format_source(&document.source).ok()?;
        if formatted == text {
            return Some(Vec::new());
        }
        Some(vec![TextEdit::new(
            range_of(&document.source, 0..text.len()),
            formatted,
        )])
    }

    /// A quick fix for each "did you mean `X`?" among the diagnostics in
    /// the range: `X` in place of the word the finding points at.
    fn code_actions(&self, params: &CodeActionParams) -> Option<Vec<CodeActionOrCommand>> {
        let uri = &params.text_document.uri;
        let document = self.documents.get(uri)?;
        let wanted = offset_of(&document.source, params.range.start)
            ..offset_of(&document.source, params.range.end);
        let mut actions = Vec::new();
        for diagnostic in &document.diagnostics {
            let Some(label) = diagnostic.primary() else {
                continue;
            };
            if label.file.name() != document.source.name()
                || label.span.end < wanted.start
                || label.span.start > wanted.end
            {
                continue;
            }
            let Some(suggestion) = diagnostic
                .help
                .as_deref()
                .and_then(|help| help.strip_prefix("did you mean `"))
                .and_then(|rest| rest.split('`').next())
            else {
                continue;
            };
            let edit = TextEdit::new(
                range_of(&document.source, label.span.clone()),
                suggestion.to_owned(),
            );
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Replace with `{suggestion}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![to_lsp(uri, &document.source, diagnostic)]),
                edit: Some(WorkspaceEdit::new(HashMap::from([(
                    uri.clone(),
                    vec![edit],
                )]))),
                is_preferred: Some(true),
                ..CodeAction::default()
            }));
        }
        // A runtime config's safe fixes, as `check --fix` makes them.
        for fix in &document.fixes {
            if fix.span.end < wanted.start || fix.span.start > wanted.end {
                continue;
            }
            let edit = TextEdit::new(
                range_of(&document.source, fix.span.clone()),
                fix.replacement.clone(),
            );
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Fix {} (as `ctxguard check --fix` does)", fix.code.name()),
                kind: Some(CodeActionKind::QUICKFIX),
                edit: Some(WorkspaceEdit::new(HashMap::from([(
                    uri.clone(),
                    vec![edit],
                )]))),
                ..CodeAction::default()
            }));
        }
        Some(actions)
    }
}

/// The path a `file:` URI names.
fn file_path(uri: &Url) -> Option<PathBuf> {
    uri.to_file_path().ok()
}

/// The document at `uri`, checked as `check` checks it: a runtime's config
/// (recognized by its place or content) against the built-in policy, with
/// its safe fixes; anything else as a policy, `extends` relative to its
/// folder; its own diagnostics, in its own terms.
fn checked(uri: &Url, text: String) -> Document {
    let path = file_path(uri).unwrap_or_else(|| PathBuf::from(uri.path()));
    let name = path.display().to_string();
    let config = (path.extension().is_none_or(|e| e != "policy"))
        .then(|| Kind::recognize(&path, &text))
        .flatten();
    let source = SourceFile::new(name.clone(), text);
    if let Some(kind) = config {
        let checked = check_config(&source, kind, &Policy::builtin());
        return Document {
            source,
            loaded: None,
            diagnostics: checked.diagnostics,
            fixes: checked.edits,
        };
    }
    let mut loader = Loader::new();
    let loaded = loader.load_source(Arc::clone(&source), path.parent().map(Path::to_path_buf));
    let diagnostics = loader
        .diagnostics()
        .filter(|d| {
            d.primary()
                .map_or(d.file_name() == Some(name.as_str()), |l| {
                    l.file.name() == name
                })
        })
        .cloned()
        .collect();
    Document {
        source,
        loaded: Some(loaded),
        diagnostics,
        fixes: Vec::new(),
    }
}

/// A finding as the editor shows it: the code, the message with its help,
/// the other labels and notes as related information.
fn to_lsp(uri: &Url, source: &Arc<SourceFile>, diagnostic: &Diagnostic) -> lsp_types::Diagnostic {
    let range = diagnostic
        .primary()
        .filter(|l| l.file.name() == source.name())
        .map_or_else(
            || range_of(source, 0..0),
            |l| range_of(source, l.span.clone()),
        );
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    for note in &diagnostic.notes {
        message.push_str(&format!("\nnote: {note}"));
    }
    let related: Vec<DiagnosticRelatedInformation> = diagnostic
        .labels
        .iter()
        .filter(|l| l.file.name() == source.name() && !l.message.is_empty())
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range_of(source, l.span.clone())),
            message: l.message.clone(),
        })
        .collect();
    lsp_types::Diagnostic {
        range,
        severity: Some(match diagnostic.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(diagnostic.code.name().to_owned())),
        source: Some("ctxguard".to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

fn publish(uri: Url, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_owned(),
        PublishDiagnosticsParams::new(uri, diagnostics, None),
    )
}

/// Reads a request's parameters as `R` and answers with `f`'s result, or
/// `None` when the parameters are not `R`'s.
fn on<R: lsp_types::request::Request>(
    request: Request,
    f: impl FnOnce(&R::Params) -> R::Result,
) -> Option<serde_json::Value> {
    let (_, params) = request.extract::<R::Params>(R::METHOD).ok()?;
    serde_json::to_value(f(&params)).ok()
}

#[cfg(test)]
mod tests {
    use super::position::{offset_of, position_of};
    use ctxguard_core::source::SourceFile;

    #[test]
    fn positions_count_utf16_code_units() {
        let source = SourceFile::new("t.policy", "policy a\n# é😀 x\n");
        let x = source.text().find('x').unwrap();
        assert_eq!(position_of(&source, x), lsp_types::Position::new(1, 6));
        assert_eq!(offset_of(&source, lsp_types::Position::new(1, 6)), x);
    }

    #[test]
    fn lines_end_where_the_protocol_ends_them() {
        // LF, CRLF and a lone CR each end a line; a column past the end of
        // a line is its end, before the break.
        let source = SourceFile::new("t.policy", "a\r\nbb\rccc\n");
        let c = source.text().find('c').unwrap();
        assert_eq!(position_of(&source, c), lsp_types::Position::new(2, 0));
        assert_eq!(offset_of(&source, lsp_types::Position::new(1, 9)), 5);
        assert_eq!(offset_of(&source, lsp_types::Position::new(0, 9)), 1);
        assert_eq!(offset_of(&source, lsp_types::Position::new(7, 0)), 10);
    }
}

//! `--format sarif`: SARIF 2.1.0, as GitHub code scanning and other tools
//! read it. Every code is a rule whose texts are `ctxguard explain`'s.

use std::io::{self, Write};

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{json, Value};

use super::json::{JsonDiagnostic, JsonLabel, JsonReport};
use ctxguard_core::diagnostics::explain;
use ctxguard_core::diagnostics::Code;

/// What stays as it is in a URI path: unreserved characters and `/`.
const PATH: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'/');

fn level(severity: &str) -> &'static str {
    match severity {
        "error" => "error",
        "warning" => "warning",
        _ => "note",
    }
}

fn rule(code: Code) -> Value {
    let explanation = explain::explanation(code);
    let full = explain::render(code);
    json!({
        "id": code.name(),
        "name": code.name(),
        "shortDescription": { "text": explanation.summary },
        "fullDescription": { "text": explanation.details },
        "help": { "text": full, "markdown": format!("```text\n{full}```") },
        "defaultConfiguration": { "level": level(code.default_severity().name()) },
    })
}

/// The base the artifact URIs are relative to: the repository the run
/// happens in (the nearest folder up from here holding `.git`), else here.
const SRCROOT: &str = "%SRCROOT%";

fn root() -> Option<std::path::PathBuf> {
    let here = std::env::current_dir().ok()?;
    Some(
        here.ancestors()
            .find(|dir| dir.join(".git").exists())
            .unwrap_or(&here)
            .to_path_buf(),
    )
}

/// `path` with `.` and `..` resolved by name (no file system access).
fn normalize(path: &std::path::Path) -> std::path::PathBuf {
    let mut out = std::path::PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Where a file is, for SARIF: relative to the repository root
/// (`uriBaseId`), so results match the files code scanning shows whatever
/// folder ctxguard ran in; an absolute `file:` URI outside it.
fn artifact(file: &str) -> Value {
    let absolute = std::env::current_dir()
        .map(|here| normalize(&here.join(file)))
        .unwrap_or_else(|_| std::path::PathBuf::from(file));
    match root().and_then(|root| absolute.strip_prefix(&root).ok().map(|p| p.to_path_buf())) {
        Some(relative) => {
            let relative = relative.to_string_lossy().replace('\\', "/");
            json!({ "uri": utf8_percent_encode(&relative, PATH).to_string(), "uriBaseId": SRCROOT })
        }
        None => {
            json!({ "uri": format!("file://{}", utf8_percent_encode(&absolute.to_string_lossy(), PATH)) })
        }
    }
}

fn location(
    file: &str,
    label: Option<&JsonLabel>,
    line: Option<usize>,
    column: Option<usize>,
) -> Value {
    let mut physical = json!({ "artifactLocation": artifact(file) });
    let region = match label {
        Some(label) => Some(json!({
            "startLine": label.line,
            "startColumn": label.column,
            "endLine": label.end_line,
            // SARIF's end column is exclusive and at least the start column.
            "endColumn": if label.end_line == label.line { label.end_column.max(label.column) } else { label.end_column },
        })),
        None => line.map(|line| json!({ "startLine": line, "startColumn": column.unwrap_or(1) })),
    };
    if let Some(region) = region {
        physical["region"] = region;
    }
    let mut location = json!({ "physicalLocation": physical });
    if let Some(label) = label.filter(|l| !l.message.is_empty()) {
        location["message"] = json!({ "text": label.message });
    }
    location
}

fn result(diagnostic: &JsonDiagnostic) -> Value {
    let code = Code::from_name(&diagnostic.code);
    let mut message = diagnostic.message.clone();
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    for note in &diagnostic.notes {
        message.push_str(&format!("\nnote: {note}"));
    }
    let mut result = json!({
        "ruleId": diagnostic.code,
        "level": level(&diagnostic.severity),
        "message": { "text": message },
    });
    if let Some(index) = code.and_then(|code| Code::ALL.iter().position(|c| *c == code)) {
        result["ruleIndex"] = json!(index);
    }
    if let Some(file) = &diagnostic.file {
        result["locations"] = json!([location(
            file,
            diagnostic.labels.first(),
            diagnostic.line,
            diagnostic.column
        )]);
    }
    let related: Vec<Value> = diagnostic
        .labels
        .iter()
        .skip(1)
        .enumerate()
        .map(|(id, label)| {
            let mut related = location(&label.file, Some(label), None, None);
            related["id"] = json!(id);
            related
        })
        .collect();
    if !related.is_empty() {
        result["relatedLocations"] = json!(related);
    }
    let mut properties = serde_json::Map::new();
    if let Some(commitment) = &diagnostic.commitment {
        properties.insert("commitment".into(), json!(commitment));
    }
    if let Some(region) = &diagnostic.region {
        properties.insert("region".into(), json!(region));
    }
    if let Some(pointer) = &diagnostic.pointer {
        properties.insert("pointer".into(), json!(pointer));
    }
    if !properties.is_empty() {
        result["properties"] = Value::Object(properties);
    }
    result
}

pub(super) fn render(report: &JsonReport, out: &mut dyn Write) -> io::Result<()> {
    let mut run = json!({
        "tool": { "driver": {
            "name": "ctxguard",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": "https://crates.io/crates/ctxguard",
            "rules": Code::ALL.iter().map(|code| rule(*code)).collect::<Vec<_>>(),
        } },
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {
            SRCROOT: {
                "uri": root().map_or_else(String::new, |root| {
                    let mut uri = format!("file://{}", utf8_percent_encode(&root.to_string_lossy(), PATH));
                    if !uri.ends_with('/') {
                        uri.push('/');
                    }
                    uri
                }),
            }
        },
        "results": report.diagnostics.iter().map(result).collect::<Vec<_>>(),
    });
    if let Some(verdict) = report.verdict {
        run["properties"] = json!({ "verdict": verdict, "stats": report.stats });
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    });
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

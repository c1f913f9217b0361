//! Summaries of a run of narrative: the `--summarizer` command, run with the
//! run's text on its standard input, or the deterministic placeholder.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::buffer::trace::Trace;
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;

/// The deterministic placeholder: the first sentence of each region.
pub(super) fn extract(texts: &[String]) -> String {
    texts
        .iter()
        .filter_map(|text| {
            let text = text.trim();
            let end = text
                .char_indices()
                .find(|&(i, c)| {
                    c == '\n'
                        || (matches!(c, '.' | '!' | '?')
                            && text[i + c.len_utf8()..].starts_with([' ', '\n']))
                })
                .map_or(
                    text.len(),
                    |(i, c)| if c == '\n' { i } else { i + c.len_utf8() },
                );
            let sentence: String = text[..end].chars().take(200).collect();
            let sentence = sentence.trim();
            (!sentence.is_empty()).then(|| sentence.to_owned())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn summarize(
    command: &str,
    input: &str,
    run: &[usize],
    trace: &Trace,
) -> Result<String, Box<Diagnostic>> {
    let ids: Vec<&str> = run.iter().map(|&t| trace.regions[t].id.as_str()).collect();
    let what = if ids.len() == 1 {
        format!("region {}", ids.join(""))
    } else {
        format!("regions {}", ids.join(", "))
    };
    let failed = |reason: String| Box::new(codes::summarizer_failed(&what, &reason));
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| failed(format!("`{command}` could not start: {error}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A summarizer that exits without reading its input is judged by its exit status.
        let _ = stdin.write_all(input.as_bytes());
    }
    let output = child
        .wait_with_output()
        .map_err(|error| failed(error.to_string()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("").trim();
        let status = output
            .status
            .code()
            .map_or("a signal".to_owned(), |code| format!("status {code}"));
        return Err(failed(if last.is_empty() {
            format!("`{command}` exited with {status}")
        } else {
            format!("`{command}` exited with {status}: {last}")
        }));
    }
    let summary = String::from_utf8(output.stdout)
        .map_err(|_| failed("its output is not UTF-8".to_owned()))?;
    let summary = summary.trim();
    if summary.is_empty() {
        return Err(failed(format!("`{command}` printed nothing")));
    }
    Ok(summary.to_owned())
}

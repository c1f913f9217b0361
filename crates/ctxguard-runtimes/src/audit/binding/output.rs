//! Where output stands in what the user typed: a log, a terminal session,
//! code, a console, another agent's text — each line as a terminal or a
//! tool prints it, and a message's spans of pasted output worked out once
//! ([`Prose`]), so a unit inside them is set apart as pasted.

use super::*;
use crate::pattern::Pattern;

/// A line as a terminal or a browser console prints it, beyond what
/// [`PASTED_LINE`] knows: box drawing and prompt glyphs (and those an
/// agent's terminal marks its steps with: `⏺`, `⎿`, `✻`, and its
/// spinner's `* Nucleating… (2m 32s · ↓ 352 tokens)`), the marks a
/// tool's status report opens its lines with (`✅ gh CLI already
/// installed`, `[!] GitHub — gh CLI not installed`, `[*] Target :
/// E:\games\app.exe`), `file.js:33`,
/// a stack frame `fn @ file.js:110`, a line Chrome's console copies with
/// the label of its button (`…:1248Understand this error`), a build
/// tool's `package:task:` prefix,
/// columns padded with spaces near the start (`Tasks:    3 successful`),
/// the headers of a diff and the markers of a diff or a conflict
/// (`--- a/`, `+++++++`, `<<<<<<<`, `\\\\\\\`), a markup tag
/// left open on its line (`<StatCard`) and the attributes under it
/// (`title="Total"`), a logger's level in brackets (`[INFO] Running
/// cleanup`), a linter's problem under its file (`  87:37  error
/// Unexpected use of file extension`), a web server's log of a request (`POST /dashboard 200 in
/// 37.7s`), a script's progress (`Step 3: Testing SSH connection to
/// 192.168.0.141...`), a command's options listed with what each does
/// (`--seq - enable sequential thinking`), what CMake reports (`-- Found
/// Git: /usr/bin/git`, `CMake Error at …`, `cmake failed with exit code
/// 1`), a shell's error (`setup.sh:
/// line 23: syntax error`), the line SQLAlchemy ends its errors with
/// (`(Background on this error at: https://sqlalche.me/e/20/e3q8)`), and
/// what Ubuntu says of a command it does not have (`Command 'rdt' not
/// found, did you mean:`, `command 'rt' from deb rt4-clients`). The
/// glyphs may stand after replacement characters where the copy lost the
/// terminal's no-break spaces (`��⎿� Loaded�CLAUDE.md`), and a line whose
/// every space is one (`Let�me�execute�the�memory�relief�plan.`) is such a
/// copy whatever it opens with.
pub(super) static TERMINAL_LINE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r#"^[\s\x{FFFD}]*([│├└╭╰┌┐┘─═║┃┏┗▶❯➜⎿⏺●✻✅✔✓]|[*✽✶✳✢·]\s+\w+…\s+\(\d|\[[!X✓✔*+]\]\s|\.\s+\w+\$\s|>\s+\S+@|[\w@./-]+:[\w-]+:\s|\S+\.[A-Za-z]{1,5}:\d+\b|\+{3,}|={3,}|<{3,}|>{3,}|diff\s--git\s|index\s[0-9a-f]{6,}\.\.[0-9a-f]{6,}|---\sa/|@@\s-\d|\\{3,}|%{3,}|<[A-Za-z][\w.-]*\s*$|[A-Za-z][\w:-]*=["{]|(\S+ ){0,3}\S+ {3,}\S)|\s@\s\S+:\d+\s*$|[\w@./-]+:\s+line\s+\d+:\s|\[(?i:info|error|err|warn|warning|debug|trace|fatal|notice|critical)\]\s|^\s*\d+:\d+\s+(error|warning)\s+\S|^\s*((Step\s+\d+:\s+)?\p{Lu}\p{Ll}+ing\b[^\n]*\.\.\.\s*$|--?[A-Za-z][\w-]*\s+-\s+\S|--\s+(The\s+\S+\s+compiler\s+identification|Found\s+\S+:|Configuring\s+(done|incomplete)|Generating\s+done|Build\s+files\s+have|Detecting\s|Check\s+for\s|Looking\s+for\s)|CMake\s+(Error|Warning)\b|Call\s+Stack\s+\(most\s+recent\s+call\s+first\):|See\s+also\s+"[^"]+\.log"|\S+\s+failed\s+with\s+exit\s+code\s+\d+\s*$|(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s*$|(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+/\S*\s+[1-5]\d\d\b|(zsh|bash|sh|fish|dash):\s|\S+:\s+(command\s+not\s+found|no\s+such\s+file\s+or\s+directory|permission\s+denied)\b|Command\s+'[^']+'\s+not\s+found\b|command\s+'[^']+'\s+from\s+(deb|snap)\s|Try:\s+sudo\s+(apt|snap)\s+install\b|\[HTTP/[\d.]+\s+\d{3}\b|Object\s*\{|Uncaught\s+\w|ELIFECYCLE\b|Found\s+\d+\s+errors?\b)|Understand\s+this\s+(error|warning)\s*$|^\s*\(Background\s+on\s+this\s+error\s+at:\s+https?://|^[^ \n]*\x{FFFD}[^ \n]*\x{FFFD}[^ \n]*\x{FFFD}[^ \n]*\n?$"#,
    )
});

/// Whether a line is output by [`PASTED_LINE`], but for a line of
/// words a list ends with a semicolon ("Apenas 1 réplica de cada
/// serviço;"), as code ends its statements.
pub(super) fn pasted_line(line: &str) -> bool {
    if !PASTED_LINE.is_match(line) {
        return false;
    }
    // What the line says before its semicolon and a closing bracket: a
    // remark in brackets ends prose too ("Rede externa network_public
    // (overlay);"), a call ends code ("console.log(total);").
    let body = line.trim_end().trim_end_matches(';').trim_end_matches(')');
    let words_ending_in_semicolon = line.trim_end().ends_with(';')
        && !PASTED_LINE.is_match(body)
        && word_count(line) >= 3
        && !line.contains(['=', '{', '}', '[', ']'])
        && !CALL.is_match(line);
    !words_ending_in_semicolon
}

/// `units` of `text`, each that goes on from the user's own words into
/// output pasted under them without a blank line ("2) the images must
/// match Firestore, it fails today,\n[Cache] listAll failed …\n[Cache]
/// Fallback path not found …") cut where the output starts: the words are
/// judged as the user's, the output is set apart as pasted. Only two
/// output lines or more, to the unit's end, make a tail.
pub(crate) fn output_tails(text: &str, units: Vec<Unit>) -> Vec<Unit> {
    let mut out = Vec::with_capacity(units.len());
    for unit in units {
        let body = unit.text(text);
        let cut = (unit.shape != Shape::Code && body.contains('\n'))
            .then(|| output_tail(body))
            .flatten();
        match cut {
            Some(at) => {
                let at = unit.range.start + at;
                let head = text[unit.range.start..at].trim_end().len();
                out.push(Unit {
                    range: unit.range.start..unit.range.start + head,
                    shape: unit.shape,
                });
                out.push(Unit {
                    range: at..unit.range.end,
                    shape: Shape::Output,
                });
            }
            None => out.push(unit),
        }
    }
    out
}

/// Where in `body` the output that runs to its end starts, when a line of
/// words comes before it and it is two lines or more.
fn output_tail(body: &str) -> Option<usize> {
    let mut starts: Vec<usize> = vec![0];
    starts.extend(body.match_indices('\n').map(|(at, _)| at + 1));
    let line = |n: usize| {
        let end = starts.get(n + 1).map_or(body.len(), |&e| e);
        &body[starts[n]..end]
    };
    let lines = starts.len();
    // What a process stamps its lines with ("[ExerciseImageCache]"), when
    // two lines or more open with it, marks them as its output too.
    let stamps: Vec<Option<&str>> = (0..lines).map(|n| stamp(line(n))).collect();
    let stamped = shared_stamps(&stamps, 2);
    let output_at = |n: usize| output_line(line(n)) || stamped[n];
    let mut first = lines;
    while first > 0 && (line(first - 1).trim().is_empty() || output_at(first - 1)) {
        first -= 1;
    }
    let output = (first..lines)
        .filter(|&n| !line(n).trim().is_empty())
        .count();
    let words_before =
        (0..first).any(|n| !output_at(n) && line(n).chars().any(char::is_alphabetic));
    (first > 0 && output >= 2 && words_before).then(|| starts[first])
}

pub(super) fn output_line(line: &str) -> bool {
    let line = spaced_item(line).unwrap_or(line);
    pasted_line(line)
        || TERMINAL_LINE.is_match(line)
        || CODE_LINE.is_match(line) && !remarked_item(line)
        || LATEX_LINE.is_match(line)
}

/// The words of a list item whose marker a word processor set off from
/// them with spaces ("•    replichi fedelmente struttura …", "o    non
/// inserirli nel Budget 2026,", "1.    File Budget 2025"): a bullet and
/// its words, not columns padded apart.
fn spaced_item(line: &str) -> Option<&str> {
    let item = line.trim_start();
    let marker = &item[..item.find(char::is_whitespace)?];
    let numbered = marker.len() <= 3
        && marker
            .strip_suffix(['.', ')'])
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
    let bullet = matches!(
        marker,
        "•" | "◦" | "▪" | "·" | "o" | "-" | "*" | "+" | "\u{f0a7}" | "\u{f0b7}"
    );
    let rest = &item[marker.len()..];
    let words = rest.trim_start();
    ((numbered || bullet)
        && rest.len() - words.len() >= 2
        && words.starts_with(char::is_alphabetic))
    .then_some(words)
}

/// A list item nested under another that ends on a remark in brackets
/// ("   - `/app/page.tsx` (hoofdpagina met chatbot UI)"): indented and
/// closing a bracket as a line of code does, but an item of a list.
fn remarked_item(line: &str) -> bool {
    let item = line.trim();
    let Some(body) = ["- ", "* ", "+ "]
        .iter()
        .find_map(|marker| item.strip_prefix(marker))
        .or_else(|| {
            let (number, rest) = item.split_once(['.', ')'])?;
            (!number.is_empty() && number.len() <= 2 && number.chars().all(|c| c.is_ascii_digit()))
                .then(|| rest.strip_prefix(' '))
                .flatten()
        })
    else {
        return false;
    };
    body.ends_with(')') && body.contains(" (") && body.split_whitespace().count() >= 2
}

/// A line of LaTeX source: it opens with a command and its argument
/// (`\subsection*{Input}`, `\exmpfile{a}{b}%`), or is a command alone
/// (`\InputFile`).
pub(super) static LATEX_LINE: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^\s*\\[A-Za-z]+\*?(\{|\[|\s*%?\s*$)"));

/// A LaTeX environment opening or closing on a line of its own:
/// `\begin{verbatim}`, `\end{problem}`.
pub(super) static LATEX_ENVIRONMENT: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^\s*\\(?<edge>begin|end)\{(?<name>[A-Za-z*]+)\}"));

/// A line of code pasted without a fence: indented and ending as code
/// does (`,`, `;`, an opening bracket, `=>`), a line that opens with a SQL
/// keyword in capitals, or closing brackets alone.
pub(super) static CODE_LINE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"^(\s{2,}\S[^\n]*([,;({\[]|\)|=>)\s*$|\s*(SELECT|FROM|WHERE|AND|OR|JOIN|LEFT\s+JOIN|INNER\s+JOIN|GROUP\s+BY|ORDER\s+BY|INSERT\s+INTO|UPDATE|DELETE\s+FROM|CREATE|RETURNS|RETURN|DECLARE|BEGIN|END|WITH|VALUES|SET|UNION|LIMIT|HAVING)(\s|;|$)|\s*[)}\]]+[;,)]*\s*$)",
    )
});

/// A shell's prompt, as a terminal shows it: `$ cargo test`,
/// `wink@box 26-02-03T21:17:52Z:~/src/app (main)`, `me@host:~/app$ ls`,
/// `[me@host app]$`, `❯ npm test`, `PS C:\app> dir`, `me@Mac ~ % ls`, each
/// behind the environments the shell names (`(venv) (base) me@host:~$`), and
/// an interactive command's question (`? How would you like to
/// authenticate GitHub CLI? [Use arrows to move, type to filter]`), and a
/// prompt the user copied after words of their own and a colon ("it
/// exists: ❯ ls ~/.espressif/tools/esp-clang/"). What stands between
/// the first prompt of a message and the output of its last is a terminal
/// session the user copied.
pub(super) static PROMPT: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"^\s*(\([\w.-]+\)\s+)*([$❯➜λ]\s+\S|[^\n❯➜]{1,60}:\s+[❯➜]\s+\S|\?\s[^\n]*\[(?i:use\s+arrows)|[\w.-]+@[\w.-]+\b[^\n]*:[~/]|\[[\w.-]+@[\w.-]+\s[^\]]*\][$#]|PS\s+[A-Za-z]:\\[^>]*>|[\w.-]+@[\w.-]+\s+\S+\s+%(\s|$))",
    )
});

/// A message the user typed, with where pasted output stands in it: worked
/// out once per message, asked of every unit in it, so a paste of 40,000
/// lines costs one pass, not one per unit.
pub(crate) struct Prose<'a> {
    pub(super) text: &'a str,
    /// Where each line starts.
    starts: Vec<usize>,
    /// Whether each line stands in the output of a paragraph of a few lines
    /// that is mostly output, from its first output line to its last (or,
    /// blank, closes such a paragraph).
    output_paragraph: Vec<bool>,
    /// From the first output line to the end of the last, when the message
    /// is many lines and mostly output.
    output_block: Option<Range<usize>>,
    /// Whether each line opens with what a process stamps its log lines
    /// with: output, whatever the lines around it are.
    stamped: Vec<bool>,
    /// From a shell's first prompt to the end of the paragraph that holds
    /// its last: a terminal session the user copied.
    terminal: Option<Range<usize>>,
    /// Lines copied from a terminal's screen (padded with spaces to its
    /// width) in which the agent speaks ("Let me check the gradients"), or
    /// a message most of whose lines are padded wide so: what the screen
    /// showed (an agent's answer, a task the user gave before), handed
    /// over, from its first padded line to its last.
    copied_answer: Option<Range<usize>>,
    /// What another assistant said in a chat the user copied, from its
    /// "ChatGPT said:" to the next "You said:" or the end.
    chat_answers: Vec<Range<usize>>,
    /// Another agent's text the user hands over, from where they say so
    /// ("I got this from Codex:", "here is the prompt I gave Codex:") to
    /// the end: its report and its brief are not asks of this agent.
    handed_over: Option<Range<usize>>,
    /// What the user hands the agent to study ([`studied`]).
    studied: Option<Range<usize>>,
    /// Text the user gives to be put in place (a bot's system prompt, a
    /// rule, a paragraph), after the line that says where ("Remplacer
    /// options.systemMessage par ce texte :", "replace the rule with:"), to
    /// the next step of the user's own ("Tester …", "CORRECTION 3 —") or
    /// the end: the line that says where asks; what it puts is material.
    put_in_place: Vec<Range<usize>>,
    /// What a here-document writes (`cat > AGENTS.md << 'EOF'` to the line
    /// `EOF`): a file's content handed to a command, not words to the agent.
    here_documents: Vec<Range<usize>>,
    /// A conversation with an agent copied from its editor panel, tool
    /// calls and all (`[Tool: Write] {…}`, a task's `IN` and `OUT`), from
    /// the start to the end of the paragraph that holds its last marker:
    /// the prompts in it are the agent's and an earlier session's, not
    /// asks of this one.
    transcript: Option<Range<usize>>,
    /// A terminal's screen captured with its escape sequences (`^[[59;1R`),
    /// from the first line that holds one to the end.
    captured: Option<Range<usize>>,
    /// Whether each line is a comment over code pasted under it ("//
    /// PASS-THROUGH 100%: …" over `const input = …`), or in a paragraph a
    /// build tool's warning opens ("(!) Some chunks are larger than 500 kB
    /// after minification. Consider:" over its advice, "- Using dynamic
    /// import() to code-split the application"): the tool's, not the
    /// user's.
    tools: Vec<bool>,
    /// A web framework's error overlay copied whole ([`overlay`]).
    overlay: Option<Range<usize>>,
    /// Output copied from a terminal that broke its long lines at its
    /// width ([`wrapped`]).
    wrapped: Option<Range<usize>>,
    /// An answer copied from a chat app that rendered its Markdown, which
    /// the copy writes back escaped (`\*\*调研任务\*\*`, `ffmpeg\-python`):
    /// from after the user's line that leads into it (ending on a colon) to
    /// the end.
    rendered_copy: Option<Range<usize>>,
    /// Sections of a prompt or a document handed over, marked up with tags
    /// on lines of their own (`<instructions>` … `</instructions>`):
    /// people do not wrap their own words in them.
    tagged: Vec<Range<usize>>,
    /// Records of fields the user pasted ([`listing`]): from the first line
    /// of a field that recurs to the last.
    listing: Option<Range<usize>>,
    /// Whether the message is a form the user filled in: most of its lines
    /// give a field its value ("Buyer：Amer Ly", "Port: 8443"), each field
    /// once. Fields that come again and again are a listing or a log
    /// ("Dependency: none", "Path not found: …"), not a form.
    pub(super) form: bool,
}

/// Where output copied from a terminal that broke its long lines at its
/// width stands: five lines or more of one length of 60 characters or
/// more, none longer (a line broken mid-word, "…/gltf_loader.cpp:22" over
/// "2:(.text+0x1cfa): undefined reference …"), making up a third of the
/// lines from the first of them to the last. Prose wrapped by an editor breaks
/// between words, at lengths that differ; so do the lines of a box that pads
/// each with spaces to its width, measured without them. It runs from the first such
/// line to the end of the line that goes on after the last.
pub(super) fn wrapped(text: &str) -> Option<Range<usize>> {
    const WIDTH: usize = 60;
    const LINES: usize = 5;
    // One pass, nothing kept but the longest width, how many lines have
    // it, the first (and where it starts) and the last: most messages
    // stop there.
    let (mut longest, mut count, mut first, mut first_start, mut last, mut lines) =
        (0, 0, 0, 0, 0, 0);
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        // A line a box padded with spaces to its width ends where its
        // words end.
        let width = line.trim_end().chars().count();
        if width > longest {
            (longest, count, first, first_start, last) = (width, 1, n, at, n);
        } else if width == longest {
            count += 1;
            last = n;
        }
        at += line.len();
        lines = n + 1;
    }
    if lines == 0 || longest < WIDTH || count < LINES {
        return None;
    }
    let last = (last + 1).min(lines - 1);
    let end = text
        .split_inclusive('\n')
        .take(last + 1)
        .map(str::len)
        .sum();
    (count * 3 >= last + 1 - first).then_some(first_start..end)
}

/// Where an answer copied with its Markdown escaped starts
/// ([`Prose::rendered_copy`]): a message with four escaped marks or more;
/// from the line after the last line before the first of them that leads
/// into it (ending on a colon), or from that mark's paragraph.
fn rendered_copy(text: &str) -> Option<Range<usize>> {
    static ESCAPED: LazyLock<Pattern> = LazyLock::new(|| pattern(r"\\[-_*+#\[\]()!.`>|]"));
    let mut marks = ESCAPED.find_iter(text);
    let first = marks.next()?.start();
    if marks.take(3).count() < 3 {
        return None;
    }
    let line = text[..first].rfind('\n').map_or(0, |at| at + 1);
    let before = &text[..line];
    let mut start = before.trim_end().rfind("\n\n").map_or(0, |at| at + 2);
    let mut at = line;
    for previous in before.lines().rev() {
        at = at.saturating_sub(previous.len() + 1);
        if previous.trim_end().ends_with([':', '：']) {
            start = at + previous.len() + 1;
            break;
        }
    }
    (start < text.len()).then_some(start..text.len())
}

/// A file's path alone on its line: `/Users/me/app/src/utils/rules.js`,
/// `src\\main.rs`.
static FILE_HEADING: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^\s*([A-Za-z]:\\|\.{0,2}/|[\w.@-]+[/\\])\S*\.[A-Za-z0-9]{1,8}\s*$"));

/// A tag opening or closing a section, alone on its line.
pub(super) static SECTION_TAG: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^\s*<(?<close>/)?(?<name>[^\s<>/!?][^\s<>/]{0,40})>\s*$"));

/// A field and its value on a line of its own: a short label, a colon, a
/// short value.
pub(super) static FIELD: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(r"^\s*[-*]?\s*(?<label>[^:：\s\[][^:：]{0,39})[:：]\s*\S[^\n]{0,80}$")
});

impl<'a> Prose<'a> {
    pub(crate) fn new(text: &'a str) -> Prose<'a> {
        let mut starts = Vec::new();
        let mut output_paragraph = Vec::new();
        let (mut filled, mut outputs) = (0usize, Vec::new());
        // The paragraph being read: its first line, its lines, its output
        // lines, its cells, and its first and last output line.
        let (mut from, mut lines, mut output, mut cells) = (0usize, 0usize, 0usize, 0usize);
        let mut output_lines: Option<Range<usize>> = None;
        let close = |flags: &mut Vec<bool>,
                     from: usize,
                     lines: usize,
                     (output, cells): (usize, usize),
                     output_lines: Option<Range<usize>>| {
            // A few lines mostly output, or two or three lines that all
            // are, or a table copied cell by cell.
            let table = lines >= 8 && cells * 2 >= lines;
            let is = (lines >= 4 && output * 2 > lines) || (lines >= 2 && output == lines) || table;
            // The output runs from its first line to its last: the words
            // typed on the lines before and after it, in the same
            // paragraph, are the user's ("2) the images must match
            // Firestore, it fails today," over the log, "3) Remove the
            // duplicate from the paywall" under it).
            let span = match output_lines {
                Some(span) if is && !table => span,
                _ => from..from + lines,
            };
            flags[span].fill(is);
            is
        };
        // Where the first prompt starts, and where the paragraph of the
        // last one ends (so far).
        let (mut first_prompt, mut terminal_end, mut in_terminal) = (None, 0, false);
        let mut labels = std::collections::HashSet::new();
        // Sections open: their name, and where each starts.
        let (mut open, mut tagged): (Vec<(&str, usize)>, Vec<Range<usize>>) =
            (Vec::new(), Vec::new());
        let (mut fields, mut again) = (0usize, false);
        // Each line that gives a field a short value: the field's name, the
        // line's number, and whether the value is a link.
        let mut short_fields: Vec<(String, usize, bool)> = Vec::new();
        // Lines padded to a terminal's width: how many, the first and the last.
        let (mut padded, mut padded_span) = (0usize, None::<Range<usize>>);
        // Of them, those padded wide (eight spaces or more), as no one
        // types a line and as Markdown's line break (two spaces) is not.
        let mut wide = 0usize;
        // What a process stamps its log lines with ("(APIServer
        // pid=75986)", "[worker-1]", "[91880 ms]"), on three lines or more:
        // each of them is its output. Stamps that differ only in their
        // digits (a time, a worker's number) are one process's.
        let line_stamps: Vec<Option<String>> = text
            .split_inclusive('\n')
            .map(|line| {
                stamp(line).map(|stamp| {
                    stamp
                        .chars()
                        .map(|c| if c.is_ascii_digit() { '0' } else { c })
                        .collect()
                })
            })
            .collect();
        let stamped_lines = shared_stamps(&line_stamps, 3);
        // Another assistant's answer in a chat copied whole: where it
        // started, and those closed.
        let (mut answer_from, mut chat_answers) = (None::<usize>, Vec::new());
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            starts.push(at);
            if let Some(said) = CHAT_SAID.captures(line) {
                if said.name("assistant").is_some() {
                    answer_from.get_or_insert(at);
                } else if let Some(from) = answer_from.take() {
                    chat_answers.push(from..at);
                }
            }
            output_paragraph.push(false);
            let i = starts.len() - 1;
            // A section of tags (`<rules>` … `</rules>`) or a LaTeX
            // environment: its name, and whether the line opens it.
            let section = SECTION_TAG
                .captures(line)
                .map(|tag| (tag.name("name"), tag.name("close").is_none()))
                .or_else(|| {
                    LATEX_ENVIRONMENT.captures(line).map(|environment| {
                        let opens = environment
                            .name("edge")
                            .is_some_and(|e| e.as_str() == "begin");
                        (environment.name("name"), opens)
                    })
                });
            if let Some((name, opens)) = section {
                let name = name.map_or("", |n| n.as_str());
                if opens {
                    open.push((name, at));
                } else if let Some(n) = open.iter().rposition(|(o, _)| *o == name) {
                    tagged.push(open[n].1..at + line.len());
                    open.truncate(n);
                }
            }
            let trimmed = line.trim_end();
            if let Some(field) = FIELD.captures(trimmed) {
                fields += 1;
                let label = field.name("label");
                let name = label.map_or("", |l| l.as_str()).trim().to_lowercase();
                // A field with a short value, for [`listing`].
                if let Some(l) = label.filter(|l| word_count(&trimmed[l.end()..]) <= 6) {
                    short_fields.push((name.clone(), i, trimmed[l.end()..].contains("://")));
                }
                again |= !labels.insert(name);
            }
            let unbroken = line.trim_end_matches(['\n', '\r']);
            if unbroken.ends_with("  ") && !line.trim().is_empty() {
                padded += 1;
                if unbroken.ends_with("        ") {
                    wide += 1;
                }
                let span = padded_span.get_or_insert(at..at);
                span.end = at + line.len();
            }
            // A prompt is a line of output too.
            let prompt = PROMPT.is_match(line);
            if prompt {
                first_prompt.get_or_insert(at);
                in_terminal = true;
            }
            if line.trim().is_empty() || rule(line) {
                in_terminal = false;
                // A blank line (or a rule drawn across: `=====`) answers
                // for the paragraph it closes.
                let is = close(
                    &mut output_paragraph,
                    from,
                    lines,
                    (output, cells),
                    output_lines.take(),
                );
                output_paragraph[i] = lines > 0 && is;
                (from, lines, output, cells) = (i + 1, 0, 0, 0);
            } else {
                if in_terminal {
                    terminal_end = at + line.len();
                }
                filled += 1;
                lines += 1;
                if cell(line) {
                    cells += 1;
                }
                if prompt || output_line(line) || stamped_lines[i] {
                    // A file's path alone on the paragraph's first line,
                    // over its problems (as a linter lists them), heads
                    // the output: it is the tool's too.
                    if lines == 2 && output == 0 && FILE_HEADING.is_match(&text[starts[i - 1]..at])
                    {
                        output += 1;
                        outputs.push(starts[i - 1]..at);
                        output_lines = Some(i - 1..i);
                    }
                    output += 1;
                    outputs.push(at..at + line.len());
                    let span = output_lines.get_or_insert(i..i + 1);
                    span.end = i + 1;
                }
            }
            at += line.len();
        }
        close(
            &mut output_paragraph,
            from,
            lines,
            (output, cells),
            output_lines.take(),
        );
        // A brief the user wrote with its sections headed ("## ÉTAPE 2 —
        // …") holds their code and queries, not output they pasted: it is
        // judged a paragraph at a time.
        let sectioned = SECTION_HEADING.find_iter(text).nth(1).is_some();
        let output_block =
            (filled >= 8 && outputs.len() * 5 >= filled * 2 && !sectioned).then(|| {
                outputs.first().map(|f| f.start).unwrap_or(0)..outputs.last().map_or(0, |l| l.end)
            });
        let listing = listing(&short_fields, &starts, text.len());
        let tools = tool_lines(text);
        Prose {
            text,
            tools,
            starts,
            output_paragraph,
            output_block,
            stamped: stamped_lines,
            chat_answers: chat_answers
                .into_iter()
                .chain(answer_from.map(|from| from..text.len()))
                .collect(),
            terminal: first_prompt.map(|first| first..session_end(text, first, terminal_end)),
            copied_answer: padded_span
                .map(|span| span.start..paragraph_end(text, span.end))
                .filter(|span| {
                    padded >= 3 && AGENT_VOICE.is_match(&text[span.clone()])
                        || wide >= 5 && wide * 2 >= filled
                })
                .map(|span| typed_before_copy(text, span)),
            tagged,
            rendered_copy: rendered_copy(text),
            form: fields >= 3 && fields * 2 >= filled && !again,
            listing,
            handed_over: handed_over(text).map(|start| start..text.len()),
            studied: studied(text),
            put_in_place: put_in_place(text),
            here_documents: here_documents(text),
            transcript: transcript(text),
            wrapped: wrapped(text),
            overlay: overlay(text),
            captured: text
                .match_indices('\n')
                .map(|(at, _)| at + 1)
                .chain(std::iter::once(0))
                .filter(|&start| {
                    let line = text[start..].split('\n').next().unwrap_or("");
                    line.contains("^[[") || line.contains("^[]") || line.contains('\u{1b}')
                })
                .min()
                .map(|start| start..text.len()),
        }
    }

    /// Whether text to be put in place starts right after `end`: the line
    /// that ends there says where it goes, and asks.
    pub(super) fn puts_after(&self, end: usize) -> bool {
        self.put_in_place.iter().any(|span| {
            self.text
                .get(end..span.start)
                .is_some_and(|between| between.trim().is_empty())
        })
    }

    /// Whether what starts at `start` stands inside output the user pasted:
    /// a message of many lines that is mostly output, from its first output
    /// line to its last, or a paragraph of a few lines that is. A sentence
    /// of the output reads like a request ("Run `pnpm approve-builds` to
    /// pick …"); it is the tool's, not the user's. The user's own words
    /// before and after the output are judged as they stand.
    pub(super) fn in_pasted_output(&self, start: usize, unit: &str) -> bool {
        if [
            &self.output_block,
            &self.terminal,
            &self.copied_answer,
            &self.handed_over,
            &self.studied,
            &self.transcript,
            &self.captured,
            &self.overlay,
            &self.wrapped,
            &self.rendered_copy,
            &self.listing,
        ]
        .into_iter()
        .flatten()
        .chain(&self.tagged)
        .chain(&self.chat_answers)
        .chain(&self.put_in_place)
        .chain(&self.here_documents)
        .any(|b| b.contains(&start))
        {
            return true;
        }
        if self.tools_line(start) {
            return true;
        }
        match self.starts.partition_point(|&s| s <= start) {
            0 => false,
            n if self.stamped[n - 1] => true,
            n if !self.output_paragraph[n - 1] => false,
            // A line of the user's own words among the output lines they
            // pasted under it: a sentence in the first person, not output.
            _ => !unit
                .lines()
                .any(|line| !output_line(line) && VOICE.is_match(line) && word_count(line) >= 8),
        }
    }

    /// Whether `at` stands in another agent's text the user hands over
    /// ("this is from another session, …:" to the end): a line of it that
    /// ends the message is the other agent's, not words the user typed
    /// after a paste.
    pub(crate) fn handed_over_at(&self, at: usize) -> bool {
        self.handed_over
            .as_ref()
            .is_some_and(|span| span.contains(&at))
    }

    /// Whether `start` stands on a line of code's or a build tool's ([`tool_lines`]).
    fn tools_line(&self, start: usize) -> bool {
        let line = self.starts.partition_point(|&s| s <= start);
        line > 0 && self.tools.get(line - 1).copied().unwrap_or(false)
    }
}

/// For each line of `text`, whether it is a comment over
/// code pasted under it ([`Prose::tools_line`]): a line that opens with
/// `//`, in a run of such lines whose next line is code or output (one pass
/// from the last line up); or a line of a paragraph a build tool's warning
/// opens (one pass down).
fn tool_lines(text: &str) -> Vec<bool> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = vec![false; lines.len()];
    // A paragraph that opens with a build tool's warning mark (Rollup's and
    // Vite's "(!) ") is the tool's to its end.
    let mut warned = false;
    for (n, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            warned = false;
        } else if line.starts_with("(!) ") {
            warned = true;
        }
        out[n] = warned;
    }
    // The line under the run of comments being read, and whether it is
    // code (asked once it is needed).
    let mut below: Option<&str> = None;
    let mut code_below: Option<bool> = None;
    for (n, &line) in lines.iter().enumerate().rev() {
        if line.trim_start().starts_with("//") {
            let code = *code_below.get_or_insert_with(|| {
                below.is_some_and(|below| !below.trim().is_empty() && output_line(below))
            });
            out[n] |= code;
        } else {
            below = Some(line);
            code_below = None;
        }
    }
    out
}

/// Where a web framework's error overlay the user copied whole stands:
/// from its counter of errors (`1/2`) over the framework's name and
/// version (`Next.js 16.1.1`) or the error's kind (`Console Error`,
/// `Unhandled Runtime Error`), to the question it closes with ("Was this
/// helpful?") or the end of the message. Its message, its code frame and
/// its stack are the framework's words, the hints it lists among them
/// ("- Invalid HTML tag nesting."); the user's words may follow on.
fn overlay(text: &str) -> Option<Range<usize>> {
    static HEAD: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?m)^[ \t]*\d{1,3}/\d{1,3}[ \t]*\n(\s*\n)*[ \t]*(Next\.js\s+v?\d+(\.\d+)+|(Unhandled\s+)?(Console|Runtime|Build|Server)\s+\w*Error)\b",
        )
    });
    const CLOSES: &str = "Was this helpful?";
    HEAD.find(text).map(|head| {
        let end = text[head.end()..]
            .find(CLOSES)
            .map_or(text.len(), |at| head.end() + at + CLOSES.len());
        head.start()..end
    })
}

/// Where records of fields the user pasted stand: a listing of endpoints
/// copied from a document ("Endpoint: /api/workouts", "Metodo: GET",
/// "Descricao: Listar workouts", again for each endpoint), rows of a table
/// a field to a line. Two fields or more each come three times or more,
/// taking turns, with short values: data handed over, from the first line
/// of such a field to the last. One field that recurs ("TODO: …" on each
/// line) is a list the user wrote; a field whose value is a sentence
/// ("Expected: the token is cleared on logout") says what they want, and
/// is judged.
fn listing(fields: &[(String, usize, bool)], starts: &[usize], len: usize) -> Option<Range<usize>> {
    let mut counts = std::collections::HashMap::<&str, usize>::new();
    for (label, _, _) in fields {
        *counts.entry(label).or_default() += 1;
    }
    let recurring = |label: &str| counts.get(label).is_some_and(|&n| n >= 3);
    if counts.values().filter(|&&n| n >= 3).count() < 2 {
        return None;
    }
    let lines: Vec<&(String, usize, bool)> = fields
        .iter()
        .filter(|(label, _, _)| recurring(label))
        .collect();
    // Records: the fields take turns ("Endpoint", "Metodo", "Endpoint", …),
    // where a list of notes and a list of owners typed one after the other
    // change once.
    let turns = lines.windows(2).filter(|w| w[0].0 != w[1].0).count();
    if turns < 4 {
        return None;
    }
    let (start, end) = (lines.first()?.1, lines.last()?.1);
    let (mut first, mut last) = (start, end);
    // The records' other fields just before and after them ("Found choice
    // buttons: 3" before the first "Button clicked: グー", "Title found: YES"
    // after the last round) are the same log's; a link given its name
    // ("Base URL: https://…" over a listing of endpoints) is a value the
    // user gives, and stays theirs.
    for &(_, line, link) in fields.iter().rev().filter(|f| f.1 < start) {
        if link || first - line > LISTING_GAP {
            break;
        }
        first = line;
    }
    for &(_, line, link) in fields.iter().filter(|f| f.1 > end) {
        if link || line - last > LISTING_GAP {
            break;
        }
        last = line;
    }
    let stop = starts.get(last + 1).copied().unwrap_or(len);
    Some(starts[first]..stop)
}

/// The most lines between a listing's fields and another field of the
/// same log, blank lines counted.
const LISTING_GAP: usize = 6;

/// `span`, copied from a terminal's screen, less the words the user typed
/// before the copy on its first line, when the message opens with them:
/// the screen indents what it shows, so the words end where two spaces or
/// more start ("幫我改成拼再一起的字串  Task: Rename GraphQL Field …").
fn typed_before_copy(text: &str, span: Range<usize>) -> Range<usize> {
    let first = &text[span.start..];
    let first = &first[..first.find('\n').unwrap_or(first.len())];
    // Typed from the line's start, the copy after them on the line.
    match first.find("  ") {
        Some(gap)
            if span.start == 0
                && !first.starts_with(char::is_whitespace)
                && first[..gap].chars().any(char::is_alphabetic)
                && !first[gap..].trim().is_empty() =>
        {
            let copy = gap + (first[gap..].len() - first[gap..].trim_start().len());
            copy..span.end.max(copy)
        }
        _ => span,
    }
}

/// Where a terminal session the user copied ends, its first prompt at
/// `first` and the paragraph of its last ending at `end`. A message (or
/// a paragraph after the user's own) that opens with a prompt is the
/// session to its end (what a command prints
/// runs on over headings, blank lines and status lines no pattern knows:
/// `Agent Reach 状态`, `=====`, `✅ gh CLI already installed`), but for the
/// user's words after it: a last paragraph of a line or two with no
/// output in it, or else the last line, when it is words and not output
/// ("Vẫn không được nhỉ"). (A longer last paragraph is the command's: what
/// it prints last reads as words, "Status: 7/16 channels usable".)
fn session_end(text: &str, first: usize, end: usize) -> usize {
    let before = text[..first].trim_end_matches([' ', '\t']);
    // The user's words on the line above the prompt ("look at the new
    // ../project_setup.sh", then "❯ source ../project_setup.sh") say what
    // the session is, as a paragraph of their own would.
    let led = before.ends_with('\n') && !before.trim_end().contains('\n');
    if !(before.trim().is_empty() || before.ends_with("\n\n") || led) {
        return end;
    }
    let body = text.trim_end();
    let last_line = body.rfind('\n').map_or(0, |at| at + 1);
    let paragraph = body.rfind("\n\n").map_or(0, |at| at + 2);
    let own = |from: usize| {
        let lines = || body[from..].lines().filter(|line| !line.trim().is_empty());
        from > first
            && lines().next().is_some()
            && lines().all(|line| {
                !output_line(line)
                    && !PROMPT.is_match(line)
                    && line.chars().any(char::is_alphabetic)
            })
    };
    if own(paragraph) && body[paragraph..].lines().count() <= 2 {
        end.max(paragraph)
    } else if own(last_line) {
        end.max(last_line)
    } else {
        text.len()
    }
}

/// A line that is one cell of a table copied from a page or a sheet,
/// a cell to a line: a figure, a date, an amount ("￥182.63", "7.81%",
/// "2026-04-16"); not the number of a question the user answers on the
/// next line ("问题1", "Question 2", "Q3:").
pub(super) fn cell(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() <= 24
        && line.split_whitespace().count() <= 2
        && line.chars().any(|c| c.is_ascii_digit())
        && !question_number(line)
}

/// A line that says where the text after it goes names a verb that puts
/// and what is put (a prompt, a message, a text, a rule), in either order,
/// and ends on the text it announces ("… par ce texte :", "… with the
/// following:", "… par :", [`PUT_BY`]).
static PUT_VERB: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(remplac\w*|ajout\w*|insér\w*|replac\w*|add|append|insert|set|put|paste|substitu\w*|reemplaz\w*)\b",
    )
});

/// What a line that says where text goes names as put: see [`PUT_VERB`].
static PUT_WHAT: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(prompt|system\s*message|systemmessage|texte|text|contenu|content|paragraphe|paragraph|description|règle|rule|instructions?|section)\b",
    )
});

/// How a line that says where text goes ends: what it is put by or with,
/// then a colon. Where it is put is named ("… to the system prompt:"):
/// "…, to:" alone says what for, over the steps it lists ("parse the HTML
/// content, to:" over "1. Extract the Activities Category").
pub(super) static PUT_BY: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(par|with|by|to|por|com|avec|as|après|after|before|avant|below|under|sous)\s[^:\n]{0,80}[:：]\s*$|\b(par|with|por|com|avec)\s*[:：]\s*$",
    )
});

/// A line that goes on with the user's own steps after text put in place:
/// a heading, a test, a check, a correction, a step, a report, turning
/// something off and on.
static OWN_STEP: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\s*(#{1,6}\s|(\d+[.)]\s*)?(tester|test|testing|vérifier|verify|check|correction|mise\s+à\s+jour|update|étape|etape|step|paso|schritt|ticket|lister|rapporter|report|désactiver|réactiver|activer|deactivate|activate|publier|publish|déployer|deploy)\b)",
    )
});

/// The spans of [`Prose::here_documents`]: from the line that opens one
/// (`<< 'EOF'`, `<<-END`, `<<AGENTEOF`) to the line that is its word alone;
/// one never closed is no here-document (`cout << endl`).
pub(super) fn here_documents(text: &str) -> Vec<Range<usize>> {
    static OPENS: LazyLock<Pattern> =
        LazyLock::new(|| pattern(r#"<<-?[ \t]*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?[ \t]*$"#));
    let mut spans = Vec::new();
    let mut open: Option<(usize, &str)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end();
        match open {
            Some((start, word)) if body.trim() == word => {
                spans.push(start..at + line.len());
                open = None;
            }
            Some(_) => {}
            // Most lines hold no `<<`: asked of those that do.
            None if body.contains("<<") => {
                open = OPENS
                    .captures(body)
                    .and_then(|found| found.get(1))
                    .map(|word| (at + line.len(), word.as_str()));
            }
            None => {}
        }
        at += line.len();
    }
    spans
}

/// The spans of [`Prose::put_in_place`].
fn put_in_place(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut open: Option<usize> = None;
    let mut previous = "";
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        // A line that says where may go on from the line before it.
        let said = PUT_BY.is_match(line) && {
            let joined = format!("{} {}", previous.trim_end(), line.trim());
            PUT_VERB.is_match(&joined) && PUT_WHAT.is_match(&joined)
        };
        if let Some(from) = open {
            if said || OWN_STEP.is_match(line) {
                spans.push(from..start);
                open = None;
            }
        }
        if said {
            open = Some(at);
        }
        previous = line;
    }
    spans.extend(open.map(|from| from..text.len()));
    spans.retain(|span| !text[span.clone()].trim().is_empty());
    spans
}

/// Where the user says that what follows is another agent's: its report
/// ("I got this from Codex:", "Latest from Codex:", "here's what Gemini
/// said:", "Cursor replied:", "the output of the other agent:", a deploy
/// host's "The Netlify deploy errored, with the following guidance
/// provided:") or the brief they gave it ("here is the prompt I gave
/// Codex:"), or another session's ("ok, this is from another session,
/// explaining what I'll do next:"). A brief written for this agent ("the
/// prompt for Claude:") binds, and is not this.
pub(super) static HANDED_OVER: LazyLock<Pattern> = LazyLock::new(|| {
    let agent = r"(the\s+)?(codex|claude|chatgpt|gpt[-\w.]*|gemini|cursor|copilot|devin|aider|windsurf|(an)?other\s+agent)\b";
    pattern(&format!(
        r"(?i)\b((i\s+)?got\s+this\s+(back\s+)?from\s+{agent}|(this\s+is|here\s+is|here's)\s+(something\s+|what\s+i\s+got\s+)?from\s+(an)?other\s+(session|chat|conversation|thread|window|instance)\b|(latest|update|response|reply|answer|result|results|report|output|message|feedback|review)\s+(back\s+)?from\s+{agent}|{agent}\s+(said|says|wrote|replied|responded|reports|reported|came\s+back\s+with)|(here\s+is|here's|this\s+is)\s+what\s+{agent}\s+(said|wrote|replied|answered|suggested|returned|produced|reported|came\s+up\s+with|gave\s+me|told\s+me)|(the\s+)?(output|report|response|answer|reply)\s+(from|of)\s+{agent}|here\s+is\s+the\s+(prompt|brief|task|message)\s+i\s+(gave|sent)(\s+to)?\s+{agent}|deploy\s+errored,\s+with\s+the\s+following\s+guidance\s+provided)"
    ))
});

/// Where another agent's text the user hands over starts: a lead of
/// [`HANDED_OVER`] followed on its line, within 80 characters, by a colon.
/// The colon is looked for by hand: a pattern that counts 80 characters
/// after so many alternatives makes a lazy DFA build new states at every
/// byte of a long message.
pub(super) fn handed_over(text: &str) -> Option<usize> {
    // In Chinese the lead names the reply and ends on its colon: "任务1的回复：",
    // "它的回答：", "他们的回复：", "回复如下：" (not "我的回复：" or "我们的回答：",
    // the user's own).
    static CHINESE_LEAD: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(^|[^我们\n]|[^我\n]们)的(回复|回答|答复)(如下)?\s*[：:]|(回复|回答|答复)如下\s*[：:]",
        )
    });
    HANDED_OVER
        .find_iter(text)
        .find_map(|lead| {
            let stop = text[lead.end()..]
                .chars()
                .take(81)
                .find(|&c| c == '\n' || c == ':');
            (stop == Some(':')).then_some(lead.start())
        })
        .or_else(|| {
            // From the start of its line: the reply may go on on it.
            let lead = CHINESE_LEAD.find(text)?;
            Some(text[..lead.start()].rfind('\n').map_or(0, |n| n + 1))
        })
}

/// What the user hands the agent to study, or gives as an example: after
/// a lead that opens the message and only asks it to read, research or
/// look into what follows ("研究一下：", "read this:", "look into the
/// following:"), after "something like" ending its line, or before a last
/// line that asks for work from it as a reference ("Dựa vào đây viết cho
/// tôi", write it for me from this; "based on the above, write …") or
/// says it is what they entered ("클로드야 이런식으로 넣으면 인식이 안되는데?",
/// if I enter it like this it is not recognized; "when I paste it like
/// this it fails"), when a document's worth is there (three lines and
/// more). The lead is the user's; what it points at is material.
pub(super) fn studied(text: &str) -> Option<Range<usize>> {
    static STUDY: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*(((please|pls)\s+)?(read|research|study|analy[sz]e|look\s+(at|into)|check\s+out|go\s+through)(\s+(this|these|it|the\s+following))?|(请|请你|帮我|你)?(研究|分析|看看|看下|看一下|阅读|读一下|读读|了解)(一下)?(这个|这篇|这些|下面的?|以下)?(内容|文章|帖子)?)\s*[:：]",
        )
    });
    static FROM_IT: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*((based\s+on\s+(this|these|that|the\s+above)|using\s+(this|these|the\s+above)\s+as\s+(a\s+)?(reference|template|guide)|dựa\s+(vào|theo)\s+(đây|đó|cái\s+này|những\s+cái\s+này|trên))\b|根据(以上|上面|这个|这些)|参考(以上|上面|这个|这些))",
        )
    });
    // An example of what the user wants, pasted after saying so ("create
    // a source of truth I can use on other computers: some like ## Core
    // Principles …"): a model to follow, not rules given one by one.
    static EXAMPLE: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)\b(some(thing)?\s+like|something\s+along\s+the\s+lines\s+of|like\s+this\s+one)\s*[:：]?[ \t]*(\r?\n|#)|(类似这样|像这样)\s*[:：]?[ \t]*(\r?\n|#)",
        )
    });
    // What the user entered somewhere, said of the text above.
    static ENTERED: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)\b((when|if)\s+i\s+(enter|type|paste|put|input|write|send|submit)|i\s+(entered|typed|pasted|put|wrote|sent|submitted))\s+(it|this|that|them|these)\s+(in\s+)?(like\s+this|this\s+way|that\s+way)\b|(이런\s*식으로|이렇게)\s*(넣|입력|쓰|적|작성|붙여)|(这样|这么)(输入|写|填|放|粘贴|贴)|(こう|このように)(入力|書|入れ)",
        )
    });
    // What the user wrote before, handed over as it stands: "This is what
    // i've previously written about the loyalty service \"…", "this is
    // my original spec …", "这是我之前写的：". On the message's first line.
    static WRITTEN: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)\b(this\s+is|these\s+are|here\s+is|here's|here\s+are|below\s+is)\s+(what\s+i(\s+have|'ve)?\s+((previously|already|once|originally|earlier)\s+)?(written|wrote|drafted)|my\s+(original|previous|old|existing|current|earlier|first)\s+(spec|specification|draft|doc|document|text|notes?|write-?up|version|description|page|proposal|design))\b|(这是|以下是|下面是)我(之前|以前|原来|原先|已经)?写的",
        )
    });
    let document = |part: &str| part.trim().len() >= 300 && part.trim().lines().count() >= 3;
    let first_line = text.split('\n').next().unwrap_or_default();
    if let Some(lead) = WRITTEN.find(first_line) {
        let rest = &text[lead.end()..];
        if document(rest) {
            return Some(lead.end()..text.len());
        }
    }
    if let Some(lead) = STUDY.find(text) {
        let rest = &text[lead.end()..];
        return document(rest).then_some(lead.end()..text.len());
    }
    if let Some(lead) = EXAMPLE.find(text) {
        // From the example's first line: a heading opening it on the
        // lead's line is the example's.
        let at = text[lead.start()..lead.end()]
            .find(['\n', '#'])
            .map_or(lead.end(), |n| lead.start() + n);
        if document(&text[at..]) {
            return Some(at..text.len());
        }
    }
    let body = text.trim_end();
    let last = body.rfind('\n').map_or(0, |at| at + 1);
    let asks = &body[last..];
    if last > 0
        && asks.split_whitespace().count() <= 12
        && (FROM_IT.is_match(asks) || ENTERED.is_match(asks))
        && document(&body[..last])
    {
        return Some(0..last);
    }
    reviewed(body)
}

/// A plan, a proposal or a design the user hands over with, at its end,
/// the ask to review it ("…请你对这个方案进行军规级别的检查…", please check
/// this plan; "what do you think of this plan?"): what is under review is
/// material, not the user's requirements. Its end is where the sentence
/// of the ask starts; the plan is long (a document's worth).
fn reviewed(body: &str) -> Option<Range<usize>> {
    static REVIEW: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)\b(review|check|critique|evaluate|audit|assess)\s+(this|the\s+above|that)\s+(plan|proposal|design|spec|approach|document)\b|what\s+do\s+you\s+think\s+(of|about)\s+(this|the\s+above)\s+(plan|proposal|design|approach)\b|(对|把)?(这个|这份|此|上述|以上)(方案|计划|文档|设计|规划)\s*(进行)?[^。！!？?]{0,24}(检查|审查|评审|审核|分析|评估|review)",
        )
    });
    // The last 400 bytes hold the ask, if there is one.
    let from = crate::source::floor_char_boundary(body, body.len().saturating_sub(400));
    let ask = REVIEW.find(&body[from..])?;
    let at = from + ask.start();
    // The sentence of the ask starts after the last stop, line break or
    // run of spaces before it.
    let before = &body[..at];
    let start = before
        .char_indices()
        .rev()
        .find(|&(n, c)| {
            matches!(c, '\n' | '。' | '！' | '？' | '.' | '!' | '?')
                || (c == ' ' && before[..n].ends_with(' '))
        })
        .map_or(0, |(n, c)| n + c.len_utf8());
    (start >= 1000).then_some(0..start)
}

/// Who speaks next in a chat copied from a chat app, on a line of its
/// own: "You said:", "ChatGPT said:", "O ChatGPT disse:".
pub(super) static CHAT_SAID: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\s*((?<user>you\s+said|você\s+disse|voce\s+disse|tú\s+dijiste|tu\s+dijiste|vous\s+avez\s+dit|du\s+hast\s+gesagt)|(?<assistant>(o\s+|el\s+)?(chatgpt|claude|gemini|copilot|grok|deepseek)\s+(said|disse|dijo|a\s+dit|hat\s+gesagt)))\s*:?\s*$",
    )
});

/// A statement closed in the polite declarative of Korean (`-ㅂ니다`,
/// `-습니다`) or Japanese (`です`, `ます`).
pub(super) static POLITE_STATEMENT: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"(니다|です|ます)[.。!！]?\s*$"));

/// A Markdown heading of a section: `#` to `######`, then a capital.
pub(super) static SECTION_HEADING: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"(?m)^#{1,6}[ \t]+\p{Lu}"));

/// A call written as code does: a name with its bracket right after it.
pub(super) static CALL: LazyLock<Pattern> = LazyLock::new(|| pattern(r"[\w.]\("));

/// The stamp `line` opens with ([`STAMP`]), trimmed.
fn stamp(line: &str) -> Option<&str> {
    STAMP.find(line).map(|found| found.as_str().trim())
}

/// For each line's stamp, whether `at_least` lines carry the same one.
fn shared_stamps<S: AsRef<str>>(stamps: &[Option<S>], at_least: usize) -> Vec<bool> {
    let mut counts = std::collections::HashMap::<&str, usize>::new();
    for stamp in stamps.iter().flatten() {
        *counts.entry(stamp.as_ref()).or_default() += 1;
    }
    stamps
        .iter()
        .map(|stamp| {
            stamp
                .as_ref()
                .is_some_and(|stamp| counts.get(stamp.as_ref()).is_some_and(|&n| n >= at_least))
        })
        .collect()
}

/// What a line of a log opens with in brackets: the process or the
/// worker that wrote it.
pub(super) static STAMP: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^\s*[(\[][^()\[\]\n]{2,40}[)\]]"));

/// A line drawn across to set sections apart (`========`, `────`,
/// `***`): decoration, neither the user's words nor output.
pub(crate) fn rule(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() >= 3
        && line
            .chars()
            .all(|c| matches!(c, '=' | '-' | '─' | '═' | '━' | '*' | '_' | '~' | '#'))
}

/// Where the paragraph that goes on at `at` (or, at a blank line, the
/// next one) ends: at its blank line, or at the end of the text.
/// The span of [`Prose::transcript`]: three marker lines or more.
fn transcript(text: &str) -> Option<Range<usize>> {
    static MARKER: LazyLock<Pattern> =
        LazyLock::new(|| pattern(r"(?m)^(\[Tool:\s*[\w.-]+\]|IN|OUT)\s*$|^\[Tool:\s*[\w.-]+\]\s"));
    // From where the last marker starts: its match may run on over the
    // line break after it, into the blank line before the user's words.
    let mut markers = MARKER.find_iter(text);
    let first = markers.next()?;
    let (count, last) = markers.fold((1, first.start()), |(n, _), m| (n + 1, m.start()));
    (count >= 3).then(|| 0..paragraph_end(text, last))
}

pub(super) fn paragraph_end(text: &str, at: usize) -> usize {
    let mut end = at;
    let mut within = false;
    for line in text[at..].split_inclusive('\n') {
        let blank = line.trim().is_empty();
        if blank && within {
            break;
        }
        within |= !blank;
        end += line.len();
    }
    end
}

/// The agent speaking of what it does next, as users do not write to it:
/// "Let me check the gradient norms", "Now I'll run the tests".
pub(super) static AGENT_VOICE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(let\s+me\s+(check|look|run|read|see|verify|investigate|fix|update|try|examine|start|add|create|find|search|explore|analy[sz]e)|(now\s+)?i'll\s+(now\s+)?(check|look|run|read|verify|investigate|fix|update|try|start|add|create|implement)|i'm\s+going\s+to)\b",
    )
});

/// The user speaking: `I`, `we`, `please`, as tools do not write.
pub(super) static VOICE: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"(?i)\b(i|i'm|i'd|i've|we|we're|let's|please|pls)\b"));

/// Output, not words: most lines (or a block that opens as output and goes
/// on as it) are log lines, JSON, stack frames; a path to an image; text
/// that is mostly marks; JSON written on one line.
pub(super) fn pasted(text: &str) -> bool {
    if IMAGE_PATH.is_match(text.trim()) {
        return true;
    }
    let marks = text
        .chars()
        .filter(|c| !c.is_alphanumeric() && !c.is_whitespace())
        .count();
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    if marks > 8 && marks * 2 > letters {
        return true;
    }
    // JSON written on one line, as an API's error or a log record is
    // ("error","error":{"type":"invalid_request_error","message":…}), with
    // no more than a few words before it: a sentence that ends on the JSON
    // it got ("… but for it I got {"status":404, …}") is the user's.
    static JSON_PAIR: LazyLock<Pattern> =
        LazyLock::new(|| pattern(r#""[^"\n]{1,60}":[ \t]?["{\[\dtfn-]"#));
    let mut pairs = JSON_PAIR.find_iter(text);
    if let (Some(first), Some(_)) = (pairs.next(), pairs.next()) {
        if word_count(&text[..first.start()]) <= 3 {
            return true;
        }
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some(first) = lines.first() else {
        return false;
    };
    let output = lines.iter().filter(|l| pasted_line(l)).count();
    output * 2 > lines.len() || (output >= 2 && PASTED_LINE.is_match(first))
}

/// Compiles this module's patterns ([`super::prepare`]).
pub(super) fn prepare() {
    crate::pattern::prepare(&[
        &TERMINAL_LINE,
        &FILE_HEADING,
        &LATEX_LINE,
        &LATEX_ENVIRONMENT,
        &CODE_LINE,
        &PROMPT,
        &SECTION_TAG,
        &FIELD,
        &PUT_VERB,
        &PUT_WHAT,
        &PUT_BY,
        &OWN_STEP,
        &HANDED_OVER,
        &CHAT_SAID,
        &POLITE_STATEMENT,
        &SECTION_HEADING,
        &CALL,
        &STAMP,
        &AGENT_VOICE,
        &VOICE,
    ]);
}

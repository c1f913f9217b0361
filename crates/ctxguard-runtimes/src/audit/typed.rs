//! What one message the user typed binds: cut into units, each judged
//! ([`super::binding`]); a document handed over, a pasted log, material
//! beyond what anyone types as rules set apart; pins taken as written.

use std::sync::LazyLock;

use super::binding::{self, NotBinding};
use super::units::{self, units};
use super::SetApart;
use crate::buffer::trace::{Derived, RegionKind};
use crate::import::{self, Origin, ANSWER_MARK};
use crate::pattern::Pattern;
use crate::policy::Policy;

/// What one unit of a user's message is.
pub(super) enum Found {
    Binds {
        text: String,
        kind: String,
        derived: Derived,
        answer: Option<(String, String)>,
    },
    Apart(SetApart),
}

/// The units of a user's message: pinned lines as pinned, a choice as a
/// decision, the rest cut into units, each binding or set apart.
/// The units of what the user said in `message`; `pasted`, where what the
/// user pasted after announcing it begins ([`super::pasted_within`]).
pub(super) fn message_units(
    policy: &Policy,
    message: &import::Message,
    answering: bool,
    pasted: Option<usize>,
) -> Vec<Found> {
    if message.origin == Origin::Answer {
        let answer = message
            .text
            .split_once(&format!(" {ANSWER_MARK}"))
            .map(|(q, a)| (q.to_owned(), a.to_owned()));
        // A question left unanswered holds no choice; one that only moves
        // an interview along ("Next area", "Done") holds nothing that lasts.
        if answer.as_ref().is_some_and(|(_, a)| a.trim().is_empty()) {
            return vec![Found::Apart(SetApart {
                source_line: Some(message.line),
                text: message.text.clone(),
                why: NotBinding::Fragment,
            })];
        }
        // "None of the above" declines every option: it chooses nothing;
        // "I'm still exploring" tells where the user stands.
        if answer
            .as_ref()
            .is_some_and(|(_, a)| moves_on(a) || declines(a) || of_oneself(a))
        {
            return vec![Found::Apart(SetApart {
                source_line: Some(message.line),
                text: message.text.clone(),
                why: NotBinding::Acknowledgement,
            })];
        }
        // "What's the query to confirm that?" typed as the answer asks
        // back: it chooses nothing.
        if answer.as_ref().is_some_and(|(_, a)| asks_back(policy, a)) {
            return vec![Found::Apart(SetApart {
                source_line: Some(message.line),
                text: message.text.clone(),
                why: NotBinding::Question,
            })];
        }
        // An answer the user wrote out in sentences of their own, not an
        // option's label ("this is basically for passive income. I want to
        // make money. and it needs to work, accounting for risks, etc."):
        // judged as what they typed, a unit at a time.
        if let Some((_, written)) = answer.as_ref().filter(|(_, a)| written_out(a)) {
            return found_in(policy, written, true, message.line);
        }
        let kind = match import::classify::answer_kind(policy) {
            RegionKind::Commitment(kind) => kind,
            _ => "unclassified".to_owned(),
        };
        return vec![Found::Binds {
            text: message.text.clone(),
            kind,
            derived: Derived::Answer,
            answer,
        }];
    }
    // What the user pasted after saying they would is set apart whole;
    // what they wrote before it is judged.
    let written = pasted.map_or(message.text.as_str(), |at| &message.text[..at]);
    let mut found = found_in(policy, written, answering, message.line);
    if let Some(at) = pasted {
        found.push(Found::Apart(SetApart {
            source_line: Some(message.line),
            text: message.text[at..].trim().to_owned(),
            why: NotBinding::Pasted,
        }));
    }
    found
}

/// What binds and what is set apart of `written`, typed on `line`.
fn found_in(policy: &Policy, written: &str, answering: bool, line: u64) -> Vec<Found> {
    let typed = typed_units(policy, written, answering);
    let mut found: Vec<Found> = typed
        .binds
        .into_iter()
        .map(|piece| Found::Binds {
            kind: match piece.kind {
                RegionKind::Commitment(kind) => kind,
                _ => "unclassified".to_owned(),
            },
            text: piece.text,
            derived: piece.derived.unwrap_or(Derived::Sentence),
            answer: None,
        })
        .collect();
    found.extend(typed.apart.into_iter().map(|(text, why)| {
        Found::Apart(SetApart {
            source_line: Some(line),
            text,
            why,
        })
    }));
    found
}

/// Whether an answer is written out in sentences of the user's own: two
/// sentences or more and twelve words or more, where an option's label is
/// a phrase ("Building a startup", "Yes, update MEMORY.md").
fn written_out(answer: &str) -> bool {
    /// The fewest words such an answer holds.
    const WORDS: usize = 12;
    answer.split_whitespace().count() >= WORDS
        && crate::verify::text::sentences(answer.trim()).len() >= 2
}

/// What the user typed, unit by unit.
pub struct Typed {
    /// The units that bind: pinned lines (`pin KIND [KEY]: TEXT`), then
    /// units of the kind whose hint they match, or unclassified.
    pub binds: Vec<import::classify::Piece>,
    /// The units set apart, and why.
    pub apart: Vec<(String, NotBinding)>,
    /// Pins of kinds the policy does not declare.
    pub unknown: Vec<import::classify::UnknownPin>,
    /// Statements set apart because the message held more than
    /// [`MATERIAL`] ([`BRIEF_MATERIAL`] for a brief): what was handed over,
    /// not said.
    pub material: usize,
}

/// The most statements one message can bind without pins: the most any
/// real session of the corpora holds in one message is 82 (a ruleset the
/// user wrote for the agent, section by section). Beyond it, the message
/// is material handed over, and a paste of 40,000 lines does not become
/// 40,000 commitments that no compaction can hold.
pub const MATERIAL: usize = 160;

/// The most statements a brief written for the agent can bind: a master
/// prompt of 13,000 characters, its agents, standards, decisions and build
/// order a rule each, holds about 190.
pub const BRIEF_MATERIAL: usize = 400;

/// Messages of the shapes users type, judged once by [`warm_up`].
const WARM_UP: &[&str] = &[
    "Please keep the importer at src/import/mod.rs and never drop its tests. Why did the build fail?",
    "- Use staging for the tests\n- 1. Don't commit yet, ok?\n\nError: exit code 1\n  at main (src/app.ts:3:9)",
    "请不要删除测试，先分析原因。\n问题1\nC\n2.你再检查一下配置就可以。",
    "テストを追加してください。このファイルは削除しないで。",
    "테스트를 추가해 주세요. 이 파일은 지우지 마.",
];

/// Compiles the patterns the judgment of typed text needs by judging a few
/// messages of the shapes users type. A hook that will judge what the user
/// typed runs it on a second thread while it reads its ledger and the
/// transcript and judges: there, each pattern is ready, or asked of the
/// light engine meanwhile ([`crate::pattern::Pattern`]), not compiled on
/// the way. Where what it will judge holds characters beyond ASCII
/// (`other_script`: a prompt in Chinese, or with a curly apostrophe), it
/// first makes what judging them needs
/// ([`crate::pattern::for_text`]).
pub fn warm_up(other_script: Option<&str>) {
    if let Some(text) = other_script {
        crate::pattern::for_text(text, super::binding::prepare);
    }
    crate::pattern::compiling(|| {
        binding::compile_costliest();
        let policy = Policy::builtin();
        for text in WARM_UP {
            let _ = typed_units(&policy, text, false);
        }
    });
}

/// What the user typed after a command whose prompt file a runtime wrote
/// out in the message (Codex's custom prompts; spec-kit's commands open
/// theirs with the user's words in a block: "## User Input", a ```` ```text ````
/// fence, then "You **MUST** consider the user input before proceeding").
fn command_input(text: &str) -> Option<&str> {
    static INPUT: LazyLock<regex::Regex> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        regex::Regex::new(
            r"(?s)\A\s*## User Input\s*\n\s*```[a-z]*\n(?<input>.*?)```\s*\n\s*You \*\*MUST\*\* consider the user input",
        )
        .expect("the command input pattern compiles")
    });
    if !text.trim_start().starts_with("## User Input") {
        return None;
    }
    INPUT
        .captures(text)
        .and_then(|found| found.name("input"))
        .map(|input| input.as_str())
}

/// `text` with the frame a terminal drew around a panel taken off (Claude
/// Code's plan box, a panel copied from the terminal: "╭───╮", "│ Plan … │",
/// "╰───╯"): each framed line's words, without the bars and the spaces the
/// panel padded them with; a line of the frame's own marks is gone. `None`
/// when fewer than three lines, or fewer than half the message's, are
/// framed, closed on both sides.
fn unframed(text: &str) -> Option<String> {
    const BARS: [char; 3] = ['│', '┃', '║'];
    fn inner(line: &str) -> Option<&str> {
        let line = line.trim();
        let line = line.strip_prefix(BARS)?.strip_suffix(BARS)?;
        Some(line.strip_prefix(' ').unwrap_or(line).trim_end())
    }
    if !text.contains(BARS) {
        return None;
    }
    // A panel the message is, not one drawn amid it (a menu sketched in a
    // brief stays the drawing it is).
    let framed = text.lines().filter_map(inner).count();
    let filled = text.lines().filter(|line| !line.trim().is_empty()).count();
    if framed < 3 || framed * 2 < filled {
        return None;
    }
    let border = |line: &str| {
        let line = line.trim();
        !line.is_empty() && line.chars().all(|c| "╭╮╰╯┌┐└┘┏┓┗┛╔╗╚╝─━═".contains(c))
    };
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if border(line) {
            continue;
        }
        out.push_str(inner(line).unwrap_or(line));
        out.push('\n');
    }
    Some(out)
}

/// The user's own prompt copied back from Claude Code's terminal, to send
/// it again: its prompt mark ("❯ "), its lines cut where the terminal was
/// full and padded to its width, each after the first indented by two
/// spaces. The prompt as typed: the mark gone, the lines joined (with a
/// space, but within a word of Chinese or Japanese, which the cut split).
/// A prompt of one line is a copy when its first word is not one a
/// command is named with: a command's name is ASCII ("❯ 帮我设计一个记事本网页"
/// is the user's, "❯ cargo test" a command run). `None` when the text is
/// not such a copy.
pub(crate) fn prompt_copy(text: &str) -> Option<String> {
    let rest = text.trim_start().strip_prefix("❯ ")?;
    let lines: Vec<&str> = rest.lines().collect();
    let (last, cut) = lines.split_last()?;
    if cut.is_empty() {
        let first = rest.trim_start().chars().next()?;
        return (first.is_alphabetic() && !first.is_ascii()).then(|| rest.trim().to_owned());
    }
    // Every line but the last padded to where the terminal cut it, and
    // each after the first indented as the prompt's continuation.
    if cut.is_empty()
        || !cut.iter().all(|line| line.ends_with(' '))
        || !lines[1..]
            .iter()
            .all(|line| line.starts_with("  ") && !line.starts_with("   "))
    {
        return None;
    }
    let mut joined = String::with_capacity(rest.len());
    for (n, line) in cut.iter().chain(std::iter::once(last)).enumerate() {
        let line = if n == 0 { line.trim_end() } else { line.trim() };
        let within_wide = joined.chars().next_back().is_some_and(binding::wide_script)
            && line.chars().next().is_some_and(binding::wide_script);
        if n > 0 && !within_wide {
            joined.push(' ');
        }
        joined.push_str(line);
    }
    Some(joined)
}

/// `text` with each line that holds nothing a reader sees (zero-width
/// spaces and joiners, a byte-order mark, with spaces) emptied; `None`
/// when it has none.
fn unseen_lines_blank(text: &str) -> Option<String> {
    const UNSEEN: [char; 5] = ['\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}'];
    let unseen = |line: &str| {
        line.contains(UNSEEN)
            && line
                .chars()
                .all(|c| c.is_whitespace() || UNSEEN.contains(&c))
    };
    if !text.contains(UNSEEN) || !text.lines().any(unseen) {
        return None;
    }
    Some(
        text.split_inclusive('\n')
            .map(|line| {
                if unseen(line) {
                    if line.ends_with('\n') {
                        "\n"
                    } else {
                        ""
                    }
                } else {
                    line
                }
            })
            .collect(),
    )
}

/// What the user typed in one message, cut into units: what binds, what is
/// set apart and why. `answering`: the agent's message before it offered
/// a choice, so a short reply is one. The audit and the live guard both
/// read what the user typed through this.
pub fn typed_units(policy: &Policy, text: &str, answering: bool) -> Typed {
    // A command's prompt file written out around what the user typed after
    // the command (spec-kit's "## User Input" block): the prompt file is
    // the command's, the block the user's.
    let text = command_input(text).unwrap_or(text);
    // A backslash that ends a line is how a terminal prompt takes a line
    // break (Claude Code's multi-line input): the user's words are the
    // lines, and a blank line between them still ends a paragraph.
    let joined;
    let text = if text.contains("\\\n") {
        joined = text.replace("\\\n", "\n");
        joined.as_str()
    } else {
        text
    };
    // The user's own prompt copied back from the terminal: as typed.
    let copied = prompt_copy(text);
    let text = copied.as_deref().unwrap_or(text);
    // A panel copied from a terminal with its frame: the words in it.
    let framed = unframed(text);
    let text = framed.as_deref().unwrap_or(text);
    // A line of nothing but characters that are not seen (a zero-width
    // space an editor or a chat app puts between paragraphs) is blank.
    let seen = unseen_lines_blank(text);
    let text = seen.as_deref().unwrap_or(text);
    let mut typed = Typed {
        binds: Vec::new(),
        apart: Vec::new(),
        unknown: Vec::new(),
        material: 0,
    };
    let mut prose = String::new();
    let context = binding::Context { answering };
    // A brief written for the agent ("You are my expert AI architect …",
    // "# Task …", a document of a kilobyte or more) states its design as
    // facts: "Every calculation is logged.", "All communication flows
    // through EM." Each is a rule. ("You are an idiot. It still fails." is
    // no brief.)
    let fenced = fenced_brief(text);
    let brief = (text.len() >= 1000 && (brief_at(text.trim_start(), 0) || task_set(text)))
        || fenced.is_some();
    let bound = if brief { BRIEF_MATERIAL } else { MATERIAL };
    // A specification handed over whole, under its own title: what binds
    // in it is what it asks or forbids, not what it describes.
    let spec = (!brief && (handed_spec(text) || described(text))).then(|| Spec {
        addressed: speaks_to_agent(text),
    });
    // Statements that bind so far, pins aside.
    let mut statements = 0;
    let mut flush = |prose: &mut String, typed: &mut Typed| {
        let message = binding::Prose::new(prose);
        let mut cut = binding::output_tails(prose, units(prose));
        // "C, the file … has the codes": the option named, then more.
        if answering {
            split_choice(prose, &mut cut);
        }
        // "Build this." under a list the user pasted: the list's remarks
        // are what they ask for.
        let adopted = cut.len() > 1
            && cut.iter().any(|unit| {
                binding::adopts(unit.text(prose))
                    && binding::binding(unit, &message, context).is_ok()
            });
        let count = cut.len();
        // "继续生成" (go on and make) over "- **规则引擎设计说明**", "- **数据结构设计**":
        // the entries of the list are what the line asks for.
        let objects = listed_objects(prose, &cut, &message, context);
        // "After creating the script, please:" over "Explain how to run
        // it": each step is asked for, though it reads as a question alone.
        let steps = asked_steps(prose, &cut, &message, context);
        // The units a line that announces a list took in with it.
        let mut taken_until = 0;
        // The units so far that bind: where one says how a thing should
        // be, the steps of a flow laid out after it bind
        // ([`binding::flow_step`]).
        let mut binding_so_far: Vec<std::ops::Range<usize>> = Vec::new();
        for (n, unit) in cut.iter().enumerate() {
            if n < taken_until {
                continue;
            }
            let text = unit.text(prose).to_owned();
            // Fields given their values a line each, one after another
            // ("AgentId：…", "Client ID：…", "RobotCode：…"): one record,
            // held and judged as one.
            if statements <= bound {
                let typed_here = |unit: &units::Unit| {
                    binding::binding(unit, &message, context) != Err(NotBinding::Pasted)
                };
                // "All models must include:" over "id (cuid/uuid)",
                // "createdAt, updatedAt": the list is one requirement with
                // the line that announces it, held and judged as one when
                // that line binds.
                let announced = || {
                    let end = enumeration(prose, &cut, n)?;
                    let words = binding::announces(&text).map_or(0, str::len);
                    let announcing = units::Unit {
                        range: unit.range.start..unit.range.start + words,
                        shape: unit.shape,
                    };
                    let binds = match binding::binding(&announcing, &message, context) {
                        Ok(()) => true,
                        Err(NotBinding::Remark) => adopted && opens_line(prose, unit.range.start),
                        Err(_) => false,
                    };
                    binds.then_some(end)
                };
                if let Some(end) = record(prose, &cut, n, typed_here).or_else(announced) {
                    // As typed, so that it is verbatim where it stands whole.
                    let whole = &prose[unit.range.start..cut[end - 1].range.end];
                    if spec.is_some_and(|spec| !spec.binds(whole)) {
                        typed.apart.push((whole.to_owned(), NotBinding::Pasted));
                        taken_until = end;
                        continue;
                    }
                    statements += 1;
                    typed.binds.push(piece(policy, whole.to_owned()));
                    taken_until = end;
                    continue;
                }
            }
            // Past the bound the message is material whatever the rest
            // is: the rest is set apart unjudged.
            if statements > bound {
                typed.material += 1;
                typed.apart.push((text, NotBinding::Pasted));
                continue;
            }
            let verdict = match binding::binding(unit, &message, context) {
                // What opens each line or paragraph of the list names what
                // is asked ("Custom Fields on Contacts — store email, …");
                // what follows it in the paragraph comments on it
                // ("ManyChat charges for this.").
                Err(NotBinding::Remark) if adopted && opens_line(prose, unit.range.start) => Ok(()),
                Err(NotBinding::Remark | NotBinding::Debris) if objects[n] => Ok(()),
                Err(NotBinding::Question) if steps[n] && binding::opens_with_instruction(&text) => {
                    Ok(())
                }
                Err(NotBinding::Remark) if brief => Ok(()),
                Err(NotBinding::Remark)
                    if binding::flow_step(&text, || {
                        binding_so_far
                            .iter()
                            .any(|at| binding::wishes(&prose[at.clone()]))
                    }) =>
                {
                    Ok(())
                }
                // A block of code in a brief written for the agent is what
                // to build ("```yaml" of the settings it is to read, the
                // models it is to define, the tree it is to lay out), one
                // requirement a block.
                Err(NotBinding::Pasted) if brief && unit.shape == units::Shape::Code => Ok(()),
                verdict => verdict,
            };
            // What a specification handed over describes ("**Output** :
            // Message de confirmation + JSON structuré en DB", a row of its
            // table of targets) is its material; what it asks or forbids
            // ("Si COUNT > 0 → STOP", "Ne jamais modifier les tables
            // existantes") binds.
            let verdict = match verdict {
                Ok(()) if spec.is_some_and(|spec| !spec.binds(&text)) => Err(NotBinding::Pasted),
                // The rest of a paragraph of a list the user adopts ("Custom
                // Fields on Contacts — store email, … per contact. Build a
                // field editor … ManyChat charges for this.") tells more of
                // the entry its first words name: the entry is held there.
                Ok(())
                    if adopted
                        && unit.shape == units::Shape::Sentence
                        && !binding::adopts(&text)
                        && named_entry_before(prose, unit.range.start) =>
                {
                    Err(NotBinding::Remark)
                }
                verdict => verdict,
            };
            if verdict.is_ok() {
                binding_so_far.push(unit.range.clone());
            }
            // Words typed on the line where a pasted log starts or ends are
            // the user's, judged as such; the output around them is not.
            let mut edges = Vec::new();
            if verdict == Err(NotBinding::Pasted) && unit.shape != units::Shape::Code {
                for edge in binding::typed_edges(&text, n == 0, n + 1 == count) {
                    let at = unit.range.start + edge.start..unit.range.start + edge.end;
                    let said = units::Unit {
                        range: at,
                        shape: units::Shape::Sentence,
                    };
                    let words = said.text(prose);
                    // In another agent's text handed over, a line that ends
                    // the message is the user's when it speaks to the agent
                    // ("please fix the issues it found"), not when it goes
                    // on describing ("Indexing is one-time, …").
                    if message.handed_over_at(said.range.start)
                        && !(binding::opens_with_instruction(words) || speaks_to_agent(words))
                    {
                        continue;
                    }
                    if binding::words_bind(&said, words, &message, answering).is_ok() {
                        edges.push(words.to_owned());
                    }
                }
            }
            for text in edges {
                statements += 1;
                typed.binds.push(piece(policy, text));
            }
            // A sentence that binds is held as the clauses that ask apart;
            // so is one judged a question whose clauses ask two things or
            // more alone ("CLAUDE.md improvements: move … to docs/…; use
            // project-level subagents; … are you able to read the chat
            // logs?"): it is not a question for closing on one.
            let parts = match verdict {
                Ok(()) | Err(NotBinding::Question) => clauses(prose, unit, &message),
                Err(_) => None,
            };
            match (verdict, parts) {
                (_, Some(parts)) => {
                    statements += 1;
                    typed.binds.extend(
                        parts
                            .into_iter()
                            .map(|part| piece(policy, prose[part].to_owned())),
                    );
                }
                (Ok(()), None) => {
                    statements += 1;
                    typed.binds.push(piece(policy, text));
                }
                (Err(why), None) => typed.apart.push((text, why)),
            }
        }
        prose.clear();
    };
    // Files the user attached, their text put in the message by the
    // runtime, are handed over as a pasted document is; one written as a
    // brief for the agent is read as the user's own words.
    let attached;
    let (text, fenced) = match attachments(text) {
        Some((own, handed_over)) => {
            for file in handed_over {
                for unit in units(&file) {
                    typed
                        .apart
                        .push((unit.text(&file).to_owned(), NotBinding::Pasted));
                }
            }
            attached = own;
            (attached.as_str(), fenced_brief(&attached))
        }
        None => (text, fenced),
    };
    // A brief for the agent typed inside a fence (```markdown … ```, as a
    // chat assistant hands one over to be copied) is the user's own words;
    // other fenced text stays code. (Found once, above, unless attached
    // files were taken out of the message since.)
    let unfenced;
    let text = match fenced {
        Some(brief) => {
            unfenced = brief;
            unfenced.as_str()
        }
        None => text,
    };
    // A document handed over (a spec, a report pasted whole, with its
    // headings) is the user's material, not the user's words: only what they
    // wrote before it is read for commitments.
    let own;
    let (text, document) = match triple_quoted(text) {
        // What the user quoted between triple quotes is handed over; what
        // they wrote around it is theirs.
        Some(quoted) => {
            own = format!("{}\n\n{}", &text[..quoted.start], &text[quoted.end..]);
            (own.as_str(), Some(&text[quoted]))
        }
        None => match document_start(text)
            .or_else(|| chat_log_start(text))
            .or_else(|| error_report_start(text))
            .or_else(|| glued_document_start(text))
        {
            Some(at) => match quoted_document(&text[..at], &text[at..]) {
                // What the user wrote after the quotation closed is theirs too.
                (document, after) if !after.trim().is_empty() => {
                    own = format!("{}\n\n{}", &text[..at], after.trim_start());
                    (own.as_str(), Some(document))
                }
                // And a short last paragraph of their own under it ("Trong
                // lúc đó thì lưu cái này vào raw giúp anh nhé").
                (document, _) => match said_after(document) {
                    Some(after) => {
                        own = format!("{}\n\n{}", &text[..at], &document[after..]);
                        (own.as_str(), Some(&document[..after]))
                    }
                    None => (&text[..at], Some(document)),
                },
            },
            // Another assistant's reply pasted in: what the user wrote before
            // and after it is theirs.
            None => match reply_span(text).or_else(|| copied_answer(text)) {
                Some(reply) => {
                    own = format!("{}\n\n{}", &text[..reply.start], &text[reply.end..]);
                    (own.as_str(), Some(&text[reply]))
                }
                None => (text, None),
            },
        },
    };
    if let Some(document) = document {
        for unit in units(document) {
            typed
                .apart
                .push((unit.text(document).to_owned(), NotBinding::Pasted));
        }
    }
    for line in text.split_inclusive('\n') {
        let Some(pin) = import::pin(line) else {
            prose.push_str(line);
            continue;
        };
        flush(&mut prose, &mut typed);
        let kind = if policy.kind(&pin.kind).is_some() {
            RegionKind::Commitment(pin.kind.clone())
        } else {
            let names = policy.kinds.iter().map(|k| k.name.as_str());
            let suggestion = crate::diagnostics::suggest::did_you_mean(&pin.kind, names);
            typed.unknown.push(import::classify::UnknownPin {
                kind: pin.kind.clone(),
                suggestion: suggestion.map(str::to_owned),
            });
            RegionKind::Unclassified
        };
        typed.binds.push(import::classify::Piece {
            kind,
            key: pin.key,
            text: pin.text,
            derived: Some(Derived::Pin),
            hint: None,
        });
    }
    flush(&mut prose, &mut typed);
    // More statements than anyone types as rules in one message: material
    // handed over (a long document, a chat pasted back), not the user's
    // commitments. Only what they pinned in it binds.
    if statements > bound {
        let (pins, material): (Vec<_>, Vec<_>) = std::mem::take(&mut typed.binds)
            .into_iter()
            .partition(|p| p.derived == Some(Derived::Pin));
        typed.binds = pins;
        typed.material += material.len();
        typed
            .apart
            .extend(material.into_iter().map(|p| (p.text, NotBinding::Pasted)));
    }
    typed
}

/// How many Chinese characters make a sentence long enough to be cut at
/// each of its commas ([`clauses`]).
const LONG_CHINESE: usize = 60;

/// The clauses of a sentence typed on one after another, each asking
/// something of its own ("start with the phase 0 fixes, build a good plan,
/// review the plan with Fable, and do the execution in parallel", "вынеси
/// это в конфиг, и добавь тесты"): a person holds each apart, and a
/// summary keeps one and drops another. A sentence is cut where a comma or
/// a semicolon (then perhaps "and"), "and then", or a plus set apart by
/// spaces ("too much words + i dont like emdashes") ends a clause, never
/// inside brackets, quotes or code, and not at Chinese commas, which set
/// the parts of one thought apart ("，" is not ","), but where the clause
/// after one opens with a word that adds a request ("并", "同时") or asks
/// anew ("请", "不要", "一次只") or names what to make or do ("优化出一版…",
/// "生成", "参考"), as English does after "and" ("… and i'd
/// like a daily report"), and at "and" before an instruction, an
/// instruction glued to a period, an aside in brackets. A clause that
/// does not bind alone ("but not the users table", "Redis") stays with the
/// one before it, or the first with the one after; one that leads on ("if
/// the tests fail") holds to the one after it. None unless two clauses or
/// more bind alone.
fn clauses(
    prose: &str,
    unit: &units::Unit,
    message: &binding::Prose,
) -> Option<Vec<std::ops::Range<usize>>> {
    static CUT: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(
            r"(?i)(,\s+|;\s+)((and\s+also|and\s+then|и\s+ещё|and|und|e|y|и|а)\s+)?|\s+\+\s+|\s+(and\s+then|und\s+dann|и\s+потом|и\s+затем|e\s+depois|y\s+luego)\s+|，(并且|并|然后|同时|另外|此外|再|请|不要|别|一定|必须|记得|注意|务必|不能|不许|帮我|一次只|总共|最多|不超过|当|如果|假如|一旦|优化|生成|输出|创建|修改|删除|添加|增加|实现|设计|编写|整理|总结|更新|检查|测试|部署|提交|参考|使用)|\s+(and|but)\s+(i'd\s+like|i\s+would\s+like|i\s+want|i\s+need|please|make\s+sure|be\s+sure)\b",
        )
        .expect("the clause pattern compiles")
    });
    if unit.shape != units::Shape::Sentence {
        return None;
    }
    // Each clause binds as a sentence of its own would, not as a short
    // reply to the choice the agent offered.
    let alone = binding::Context { answering: false };
    let text = unit.text(prose);
    // A log of what the user did is one report, not clauses to judge apart.
    if binding::logged(text) {
        return None;
    }
    let base = unit.range.start;
    // Where brackets, quotes and code hold the text, nothing is cut.
    let mut held = vec![false; text.len() + 1];
    let (mut depth, mut quoted, mut code) = (0usize, false, false);
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '（' | '「' | '“' => depth += 1,
            ')' | ']' | '}' | '）' | '」' | '”' => depth = depth.saturating_sub(1),
            '"' => quoted = !quoted,
            '`' => code = !code,
            _ => {}
        }
        held[at] = depth > 0 || quoted || code;
    }
    // The clauses: where each starts and ends, the cut between them left out.
    let mut cuts: Vec<(usize, usize)> = CUT
        .find_iter(text)
        .map(|cut| {
            // "，并把…" (", and put …"): the Chinese comma is cut, the word
            // that joins the clause stays its first. "… and i'd like …":
            // "and" is cut, the words that ask anew open the clause.
            let found = cut.as_str();
            let next = if found.starts_with('，') {
                cut.start() + '，'.len_utf8()
            } else if !found.ends_with(char::is_whitespace) {
                let and = found.to_lowercase().find("and").map_or(0, |at| at + 3);
                cut.start() + and + (found[and..].len() - found[and..].trim_start().len())
            } else {
                cut.end()
            };
            (cut.start(), next)
        })
        .collect();
    cuts.extend(run_on_cuts(text));
    cuts.extend(joined_instructions(text));
    cuts.extend(glued_instructions(text));
    cuts.extend(asides(text));
    // A long sentence of Chinese strung on its commas ("请你记住，以后所有
    // 的交流和文档都使用中文，你叫虞姬，…，具备自主学习最前沿AI和科技的能力，
    // …"): each clause is a part, held apart where it binds alone.
    if text
        .chars()
        .filter(|&c| ('\u{4e00}'..='\u{9fff}').contains(&c))
        .count()
        >= LONG_CHINESE
    {
        cuts.extend(
            text.match_indices(['，', '；'])
                .map(|(at, comma)| (at, at + comma.len())),
        );
    }
    // Of two cuts at one place, the one that leaves out more ("and then",
    // not "and" before "then").
    cuts.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    cuts.dedup_by_key(|cut| cut.0);
    let mut parts = Vec::new();
    let mut from = 0;
    for (start, next) in cuts {
        if held[start] || start < from {
            continue;
        }
        parts.push(from..start);
        from = next;
    }
    if parts.is_empty() {
        return None;
    }
    parts.push(from..text.len());
    let binds = |range: &std::ops::Range<usize>| {
        let part = &text[range.clone()];
        let long_enough = part.split_whitespace().count() >= 3
            || part.chars().filter(|c| !c.is_ascii()).count() >= 4;
        long_enough
            && binding::binding(
                &units::Unit {
                    range: base + range.start..base + range.end,
                    shape: units::Shape::Sentence,
                },
                message,
                alone,
            )
            .is_ok()
    };
    // "请你记住，…" (remember, …): words that only call for attention to
    // the clause after them open it.
    let calls_attention = |range: &std::ops::Range<usize>| {
        let part = text[range.clone()].trim();
        let words = part
            .trim_start_matches('请')
            .trim_start_matches(['你', '您'])
            .trim_end_matches(['啊', '哦', '喔']);
        part.chars().count() <= 6 && matches!(words, "记住" | "注意" | "听好" | "听着" | "记得")
    };
    // A clause that leads on, and is no instruction after its first word
    // ("then run the tests" asks) nor after the step it comes after
    // ("after finishing please check for compiling success" asks).
    let leads = |range: &std::ops::Range<usize>| {
        let part = text[range.clone()].trim();
        let rest = part
            .split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest);
        leads_on(part)
            && !binding::opens_with_instruction(rest)
            && !binding::opens_with_instruction(part)
    };
    // A clause that does not bind alone joins the one before it; one that
    // leads on ("quando esse PR for mergeado, pode fechar essa issue",
    // "if the build breaks, revert it", "após isso, faça o /commit") joins
    // the one after it, which it holds to.
    let mut kept: Vec<std::ops::Range<usize>> = Vec::new();
    let mut pending: Option<usize> = None;
    for part in parts {
        let start = pending.take().unwrap_or(part.start);
        let whole = start..part.end;
        if calls_attention(&part) || leads(&part) {
            pending = Some(start);
        } else if binds(&part) {
            kept.push(whole);
        } else if let Some(last) = kept.last_mut() {
            last.end = part.end;
        } else {
            pending = Some(start);
        }
    }
    // A condition left last has no clause after it: it stays with the one
    // before.
    if let (Some(_), Some(last)) = (pending, kept.last_mut()) {
        last.end = text.len();
    }
    (kept.len() >= 2).then(|| {
        kept.into_iter()
            .map(|range| {
                let part = &text[range.clone()];
                let lead = part.len() - part.trim_start().len();
                let tail = part.len() - part.trim_end().len();
                base + range.start + lead..base + range.end - tail
            })
            .collect()
    })
}

/// Whether a clause opens with a word that makes it a condition, a time or
/// a step for what follows it ("if …", "when …", "after that", "wenn …",
/// "quando …", "após isso", "当我想要某结果", "开始前"): alone, it leads on to
/// the clause after it.
fn leads_on(clause: &str) -> bool {
    #[rustfmt::skip]
    const OPENS: &[&str] = &[
        "if", "when", "once", "unless", "whenever", "after", "afterwards", "before", "then",
        "wenn", "falls", "sobald", "danach", "dann", "vorher", "nachher", "quando", "se", "caso",
        "após", "apos", "depois", "antes", "si", "cuando", "después", "luego", "lorsque", "quand",
        "après", "avant", "ensuite", "puis", "если", "когда", "после", "потом", "затем",
    ];
    // Chinese says it by the word that opens the clause ("当我想要某结果",
    // "如果测试失败") or, in a short one, the word that closes it ("开始前",
    // "完成后", "提交的时候").
    const OPENS_CHINESE: &[&str] = &["当", "如果", "若", "假如", "要是", "一旦", "等到"];
    const CLOSES_CHINESE: &[&str] = &["之前", "以前", "前", "之后", "以后", "后", "的时候", "时"];
    /// The most characters a clause closed so may hold.
    const SHORT: usize = 12;
    let trimmed = clause.trim().trim_end_matches(['，', ',', '；', ';']);
    let chinese = trimmed
        .chars()
        .next()
        .is_some_and(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    if chinese {
        return OPENS_CHINESE.iter().any(|word| trimmed.starts_with(word))
            || (trimmed.chars().count() <= SHORT
                && CLOSES_CHINESE.iter().any(|word| trimmed.ends_with(word)));
    }
    clause
        .split_whitespace()
        .next()
        .is_some_and(|word| OPENS.contains(&word.to_lowercase().as_str()))
}

/// Where a sentence joins two instructions with "and" and no comma
/// ("erstelle mir eine infografik mit nano und vergiss jarvis nicht", "faça
/// o /commit e crie o PR"), or an instruction and a condition for the next
/// ("crie o PR e quando esse PR for mergeado, pode fechar essa issue"):
/// before the joining word, when the word after it opens an instruction or
/// leads on ([`leads_on`]), and the word before it is no verb joined to the
/// next ("copy and paste this", "build and test it"). Each cut is where the
/// clause before it ends and where the next one starts; `clauses` keeps
/// only the ones that leave asks on both sides.
fn joined_instructions(text: &str) -> Vec<(usize, usize)> {
    static JOINS: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(r"(?i)\s+(and|und|e|y|et|и)\s+").expect("the joining pattern compiles")
    });
    JOINS
        .find_iter(text)
        .filter(|join| {
            // The word before, as typed: "/commit" names a command, not a
            // verb.
            let before = text[..join.start()].split_whitespace().next_back();
            let verb_before = before.is_some_and(|word| {
                word.chars()
                    .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
                    && binding::opens_with_instruction(word)
            });
            let after = &text[join.end()..];
            !verb_before && (binding::opens_with_instruction(after) || leads_on(after))
        })
        .map(|join| (join.start(), join.end()))
        .collect()
}

/// Where an aside in round brackets of three words or more starts and
/// ends ("for tui-renderer (which is a misnomer imo, should be
/// interactive-mode) i'm especially interested in …", "… in
/// /Users/me/history.jsonl if you need to (don't read the full file!)"):
/// what it says may bind apart from the sentence around it, which
/// `clauses` keeps whole where it does not. Only an aside after a space:
/// `call(a, b, c)` is code.
fn asides(text: &str) -> Vec<(usize, usize)> {
    binding::aside_spans(text)
        .into_iter()
        .filter(|span| {
            text[span.start + 1..span.end - 1]
                .split_whitespace()
                .count()
                >= 3
        })
        .flat_map(|span| [(span.start - 1, span.start), (span.end, span.end)])
        .collect()
}

/// Where an instruction starts right after a period typed with no space
/// ("… in den neuen Research Ordner.stelle sicher das in Zukunft …"): after
/// the period, when a word of three letters or more ends before it and a
/// word in lower case that opens an instruction, then a space, follows.
/// A name with a dot in it (`Object.keys`, `README.md`) opens none, or
/// leaves no ask on one side, which `clauses` keeps whole.
fn glued_instructions(text: &str) -> Vec<(usize, usize)> {
    text.match_indices('.')
        .filter(|&(at, _)| {
            // The three characters before the period are letters.
            let word_before = text[..at]
                .chars()
                .rev()
                .take(3)
                .filter(|c| c.is_alphabetic())
                .count()
                == 3;
            let after = &text[at + 1..];
            let word = after
                .find(|c: char| !c.is_alphabetic())
                .map(|end| &after[..end]);
            word_before
                && word.is_some_and(|word| {
                    word.chars().next().is_some_and(char::is_lowercase)
                        && after[word.len()..].starts_with([' ', '\t'])
                        && binding::opens_with_instruction(word)
                })
        })
        .map(|(at, _)| (at + 1, at + 1))
        .collect()
}

/// Where a sentence typed on without a stop or a comma, many asks in one
/// breath ("use this to upgrade our local agent lets try to use our
/// hardware … set them up in a virtual environment … name our agent
/// BooAgent …"), may be cut: before a word that opens an ask ("lets", "i
/// want", "set", "name") and is no verb's object or complement ("try to
/// use"). Each cut is where the clause before it ends and where the next
/// one starts; `clauses` keeps only the ones that leave asks on both sides.
fn run_on_cuts(text: &str) -> Vec<(usize, usize)> {
    static OPENS: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(
            r"(?i)\s((also|and|then|now|so)\s+)?((i\s+want|i\s+need|i'?d\s+like|lets|let's|we\s+need|we\s+should|you'?re\s+gonna|your\s+gonna|you\s+are\s+gonna|please|make\s+sure|dont|don't|do\s+not|never|always|save|create|set|setup|name|use|add|remove|delete|build|install|run|document|show|put|keep|write|update|test|check|proceed)\b)",
        )
        .expect("the run-on pattern compiles")
    });
    // A run-on: long, and no stop or comma in it but the one that ends it
    // (a comma typed against the next word, ",for example", stops
    // nothing: it was typed on in one breath too).
    let body = text.trim_end_matches(|c: char| c.is_whitespace() || ".!?。！？".contains(c));
    let stops = body.char_indices().any(|(at, c)| {
        "，。".contains(c)
            || (",;.!?".contains(c)
                && body[at + c.len_utf8()..]
                    .chars()
                    .next()
                    .is_none_or(char::is_whitespace))
    });
    if body.split_whitespace().count() < 25 || stops {
        return Vec::new();
    }
    // Words after which an opening word is a verb's object or complement,
    // or the clause's own verb ("to use", "i set", "will run").
    const BOUND: &[&str] = &[
        "to", "i", "we", "you", "they", "he", "she", "it", "will", "can", "could", "would",
        "should", "must", "may", "might", "and", "or", "the", "a", "an", "not", "also", "then",
        "now", "so", "is", "are", "was", "be", "gonna", "just", "me", "us",
    ];
    OPENS
        .captures_iter(text)
        .filter_map(|found| {
            let all = found.get(0)?;
            let opens = found.get(3)?;
            let before = text[..all.start()].split_whitespace().next_back()?;
            (!BOUND.contains(&before.to_lowercase().as_str()))
                .then_some((all.start(), opens.start()))
        })
        .collect()
}

/// Which units of `cut` are the objects of a short instruction alone on
/// its line whose object is left open ("继续生成", go on and make; "请完成",
/// please finish; "Please also write"), listed under it as entries a line
/// each, two or more ("- **规则引擎设计说明**", "- **数据结构设计**"): each is
/// asked for, and judged as its own. (A line that ends with a colon
/// announces its list, held whole with it: [`enumeration`].)
fn listed_objects(
    text: &str,
    cut: &[units::Unit],
    message: &binding::Prose,
    context: binding::Context,
) -> Vec<bool> {
    /// The most words the instruction has.
    const SHORT: usize = 6;
    let mut objects = vec![false; cut.len()];
    for (n, lead) in cut.iter().enumerate() {
        let words = lead.text(text).trim();
        let alone = opens_line(text, lead.range.start)
            && text[lead.range.end..]
                .split('\n')
                .next()
                .is_some_and(|rest| rest.trim().is_empty());
        if lead.shape != units::Shape::Sentence
            || !alone
            || words.ends_with([':', '：', '?', '？'])
            || binding::word_count(words) > SHORT
        {
            continue;
        }
        let entries = cut[n + 1..]
            .iter()
            .take_while(|unit| {
                unit.shape == units::Shape::Item
                    && !unit.text(text).contains('\n')
                    && binding::entry(binding::unbolded(unit.text(text)))
            })
            .count();
        // Whether the line asks is judged last: most short lines have no
        // list under them.
        if entries >= 2 && binding::binding(lead, message, context).is_ok() {
            objects[n + 1..=n + entries].fill(true);
        }
    }
    objects
}

/// Whether the line that holds `at` names an entry before it, set off by
/// a dash ("Custom Fields on Contacts — store email, … per contact." before
/// "Build a field editor."): what follows on the line tells more of it.
fn named_entry_before(text: &str, at: usize) -> bool {
    let line = &text[units::line_start(text, at)..at];
    [" — ", " – ", " - "].iter().any(|dash| {
        line.find(dash)
            .is_some_and(|n| binding::word_count(&line[..n]) <= 8)
    })
}

/// Where a reply that opens with the option it names ("C, the file in …
/// has the codes", "2，但是保留测试") names it: a letter or a number, then a
/// comma and more words ("10, 20 and 30" gives values, not a choice).
pub(super) fn leading_choice(text: &str) -> Option<std::ops::Range<usize>> {
    static CHOICE: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(r"^\s*([A-Fa-f]|\d{1,2})\s*[,，、]\s*[^\d\s]")
            .expect("the choice pattern compiles")
    });
    CHOICE.captures(text)?.get(1).map(|key| key.range())
}

/// The first unit of a reply that opens with the option it names, cut in
/// two: the option's key, judged as a choice, and the words after it.
fn split_choice(text: &str, cut: &mut Vec<units::Unit>) {
    let Some(first) = cut.first() else {
        return;
    };
    let Some(key) = leading_choice(first.text(text)) else {
        return;
    };
    let (start, end) = (first.range.start, first.range.end);
    let rest = text[start + key.end..end]
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ',' | '，' | '、'));
    let rest_start = end - rest.len();
    cut[0] = units::Unit {
        range: start + key.start..start + key.end,
        shape: units::Shape::Sentence,
    };
    cut.insert(
        1,
        units::Unit {
            range: rest_start..end,
            shape: units::Shape::Sentence,
        },
    );
}

/// Which units of `cut` are steps a line that asks announces ("After
/// creating the script, please:" over "1. Show me the script location",
/// "2. Explain how to run it"): items a line each, two or more, under a
/// line that ends with a colon and binds without it. A step put as "explain
/// how …" is part of what was asked, not a question for information.
fn asked_steps(
    text: &str,
    cut: &[units::Unit],
    message: &binding::Prose,
    context: binding::Context,
) -> Vec<bool> {
    let mut steps = vec![false; cut.len()];
    for (n, lead) in cut.iter().enumerate() {
        if lead.shape != units::Shape::Sentence {
            continue;
        }
        let Some(words) = binding::announces(lead.text(text)) else {
            continue;
        };
        let items = cut[n + 1..]
            .iter()
            .take_while(|unit| unit.shape == units::Shape::Item && !unit.text(text).contains('\n'))
            .count();
        let announcing = units::Unit {
            range: lead.range.start..lead.range.start + words.len(),
            shape: lead.shape,
        };
        if items >= 2 && binding::binding(&announcing, message, context).is_ok() {
            steps[n + 1..=n + items].fill(true);
        }
    }
    steps
}

/// Where the list that unit `n` of `cut` announces ends (the index after
/// its last entry), when unit `n` ends with a colon and two entries or
/// more ([`binding::entry`]) follow it: the items nested under it, or the
/// lines that follow it, each opening its line.
fn enumeration(text: &str, cut: &[units::Unit], n: usize) -> Option<usize> {
    let lead = &cut[n];
    binding::announces(lead.text(text))?;
    let indent = |at: usize| at - units::line_start(text, at);
    let mut end = n + 1;
    let first = cut.get(end)?;
    let items = first.shape == units::Shape::Item;
    while let Some(unit) = cut.get(end) {
        let follows = if items {
            unit.shape == units::Shape::Item
                // Under an item, only the items nested in it.
                && (lead.shape != units::Shape::Item || indent(unit.range.start) > indent(lead.range.start))
        } else {
            unit.shape == units::Shape::Sentence && opens_line(text, unit.range.start)
        };
        let entry = if items {
            binding::entry(unit.text(text))
        } else {
            binding::line_entry(unit.text(text))
        };
        if !follows || !entry {
            break;
        }
        end += 1;
    }
    (end - n > 2).then_some(end)
}

/// Where the record that starts at unit `n` of `cut` ends (the index after
/// its last field), when three lines or more in a row, nothing between
/// them, each give a field its value and were typed (`typed_here`: not an
/// error object's fields pasted; never a form's blanks).
fn record(
    text: &str,
    cut: &[units::Unit],
    n: usize,
    typed_here: impl Fn(&units::Unit) -> bool,
) -> Option<usize> {
    let is_field = |unit: &units::Unit| {
        unit.shape == units::Shape::Sentence
            && opens_line(text, unit.range.start)
            && (unit.range.end == text.len() || text[unit.range.end..].starts_with(['\n', '\r']))
            && binding::field_line(unit.text(text))
            && typed_here(unit)
    };
    // Only a line break between one field and the next.
    let adjoin = |a: &units::Unit, b: &units::Unit| {
        let gap = &text[a.range.end..b.range.start];
        gap.trim().is_empty() && !gap.contains("\n\n")
    };
    if n > 0 && is_field(&cut[n - 1]) && adjoin(&cut[n - 1], &cut[n]) {
        return None;
    }
    let mut end = n;
    while let Some(unit) = cut.get(end) {
        let adjoins = end == n || adjoin(&cut[end - 1], unit);
        if !adjoins || !is_field(unit) {
            break;
        }
        end += 1;
    }
    (end - n >= 3).then_some(end)
}

/// Whether `at` opens its line of `text`: only white space, or a list
/// marker, before it.
fn opens_line(text: &str, at: usize) -> bool {
    let start = units::line_start(text, at);
    text[start..at].chars().all(|c| {
        c.is_whitespace() || matches!(c, '-' | '*' | '+' | '.' | ')') || c.is_ascii_digit()
    })
}

/// A unit that binds, of the kind whose hint it matches, or unclassified.
fn piece(policy: &Policy, text: String) -> import::classify::Piece {
    match policy.first_hint(&text) {
        Some((k, hint)) => import::classify::Piece {
            kind: RegionKind::Commitment(policy.kinds[k].name.clone()),
            key: None,
            text,
            derived: Some(Derived::Hint),
            hint: Some(hint.pattern.clone()),
        },
        None => import::classify::Piece {
            kind: RegionKind::Unclassified,
            key: None,
            text,
            derived: Some(Derived::Sentence),
            hint: None,
        },
    }
}

/// A choice that only moves an interview along: "Next area", "Done — create
/// context", "Skip", "Continue".
fn moves_on(choice: &str) -> bool {
    let folded = super::judge::fold(choice);
    // "Skip playground", "Skip the tests": what is skipped is chosen.
    if let Some(rest) = folded.strip_prefix("skip ") {
        let rest = rest.trim().trim_end_matches('.');
        let passes = [
            "for now",
            "this",
            "this one",
            "this question",
            "it",
            "for later",
        ];
        if rest.chars().next().is_some_and(char::is_alphanumeric) && !passes.contains(&rest) {
            return false;
        }
    }
    [
        "next", "done", "continue", "skip", "move on", "proceed", "finish",
    ]
    .iter()
    .any(|word| {
        folded == *word
            || folded
                .strip_prefix(word)
                .is_some_and(|rest| rest.starts_with([' ', ',', '—', '-', '.']))
    })
}

/// An answer that tells where the user stands, not what they choose:
/// "I'm still exploring", "This is my first time".
fn of_oneself(answer: &str) -> bool {
    static OWN: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(r"(?i)^\W*((i'?m|i\s+am)\s+(still\s+|just\s+)?(exploring|learning|new\b|not\s+sure|unsure|figuring|a\s+beginner|curious|experimenting)|this\s+is\s+my\s+first\b|still\s+(exploring|learning|figuring))")
            .expect("the pattern of an answer about oneself compiles")
    });
    OWN.is_match(answer)
}

/// An answer typed in the agent's question that asks for information
/// instead of choosing ("what's the query to confirm that"): all it holds
/// is set apart as a question.
fn asks_back(policy: &Policy, answer: &str) -> bool {
    let typed = typed_units(policy, answer, false);
    typed.binds.is_empty()
        && typed
            .apart
            .iter()
            .any(|(_, why)| *why == NotBinding::Question)
}

/// A choice that takes none of the options offered ("None of the above").
fn declines(choice: &str) -> bool {
    let folded = super::judge::fold(choice);
    let folded = folded.trim_end_matches('.');
    ["none of the above", "none of these", "neither"].contains(&folded)
}

/// Where a document pasted into a message starts: in a message of 1,500
/// characters or more with two Markdown headings or more, at the first of
/// them. Lines marked `#` one after another at the same level, nothing
/// between them, are the user's list written with `#` for bullets ("#
/// every module follows one standard"), not a document's headings.
fn document_start(text: &str) -> Option<usize> {
    if text.len() < 1500 {
        return None;
    }
    // Where each line starts, of the lines that are headings, not bullets.
    let headings: Vec<usize> = section_headings(text).collect();
    let Some(&first) = headings.first() else {
        return flattened_document_start(text);
    };
    let more = headings.len() >= 2;
    let brief_first = brief_at(text, first);
    let brief_start = brief_at(text, 0);
    // An explainer (an article, a tutorial, notes an assistant wrote up)
    // heads its sections with the questions it answers ("## 1. GitHub
    // Actions là gì?", "## How does the cache work?"); a brief names what
    // it asks for. Handed over whole, wherever it starts.
    let asked = headings
        .iter()
        .filter(|&&at| {
            let line = &text[at..];
            let line = line[..line.find('\n').unwrap_or(line.len())].trim_end();
            line.ends_with(['?', '？'])
        })
        .count();
    if asked >= 2 && !brief_first && !brief_start {
        return Some(first);
    }
    // Paragraphs before the first heading written as an assistant writes
    // ("That **6M parameter** jump makes perfect sense. By moving from a
    // $1 \times 1$ pool …") open the document: it starts where they do.
    let opened = styled_back(text, first);
    if opened < first && text[..opened].trim().is_empty() && !brief_first && more {
        return Some(opened);
    }
    // A message that opens with its first heading is the user's own brief
    // ("# System prompt — …", a task written up as a document): there is
    // nothing of theirs before it for it to be handed over with. So is a
    // prompt written for the agent and handed over as one ("Here is the
    // prompt for Claude: # PROMPT FOR CLAUDE … You are a senior engineer").
    // A message that opens as a brief ("You are my expert AI architect …"
    // over its sections) is one too, and so is a task the user sets.
    (!text[..first].trim().is_empty()
        && !brief_first
        && !brief_start
        && more
        && !task_document(text, first))
    .then_some(first)
}

/// The fewest bytes of a specification handed over ([`handed_spec`]).
const SPEC: usize = 4000;

/// Whether `text` is a specification handed over whole: a document of
/// [`SPEC`] bytes or more that opens on its own title, nothing of the
/// user's before it, with three sections or more ("# K3RN.LABS —
/// ARCHITECTURE MULTI-AGENT", "# TICKET 2 — Migration schéma", a design
/// written elsewhere and pasted in). It is no brief written to the agent
/// (those open "# Prompt …", "You are …", and each statement of theirs is a
/// rule), and no explainer [`document_start`] hands over whole. A person
/// holds what such a document asks or forbids, not each line of what it
/// describes: a summary that keeps the design in a sentence and drops its
/// table of targets has lost nothing the user told the agent to hold.
fn handed_spec(text: &str) -> bool {
    let text = text.trim_start();
    text.len() >= SPEC
        && units::heading_at(text, 0).is_some_and(|(_, _, bullet)| !bullet)
        && section_headings(text).nth(2).is_some()
        && !brief_at(text, 0)
        && document_start(text).is_none()
}

/// The fewest bytes of a document that only describes ([`described`]).
const DESCRIBED: usize = 2000;

/// Whether `text` is a document that only describes a thing, as a
/// product's whitepaper copied from a PDF does ("Bancafi converts both
/// traditional (physical) debts … into tokenized assets."): [`DESCRIBED`]
/// bytes or more, outside its code no word of a person who speaks or is
/// spoken to (no "I", "we", "let's", "you", "my", "nous", "我"), and no line that
/// opens with an instruction. It is handed over as a specification is: only
/// what it states as a rule binds.
fn described(text: &str) -> bool {
    static PERSON: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(r"(?i)\b(i|i'm|im|i've|i'd|i'll|me|my|mine|we|we're|we've|we'll|us|our|let's|lets|you|your|yours|u|ur|je|j'|moi|nous|notre|nos|mon|mes|tu|toi|vous|votre|vos|yo|nosotros|nuestro|nuestra|mi|mis|eu|nós|meu|minha|ich|wir|mein|meine|unser|unsere|dein|deine)\b|我|你|您|私|僕|俺|あなた|저는|제가|나는|내가|우리")
            .expect("the pattern of a person speaking compiles")
    });
    if text.len() < DESCRIBED || brief_at(text.trim_start(), 0) {
        return false;
    }
    said_outside_code(text).all(|said| !PERSON.is_match(said) && !halts(said) && !instructs(said))
}

/// The units of `text` that are not code, as written.
fn said_outside_code(text: &str) -> impl Iterator<Item = &str> {
    units(text)
        .into_iter()
        .filter(|unit| unit.shape != units::Shape::Code)
        .map(move |unit| unit.text(text))
}

/// Whether a line of a document tells the agent to do something: it opens
/// with an instruction, capitalised as a sentence opens, and is no title
/// ("Use Cases", "Smart Contracts for Debt Management", each word
/// capitalised), nor the rest of a sentence broken where the page's line
/// ended ("allows the conversion, buying and selling of debt."), nor a
/// fragment of two words.
fn instructs(line: &str) -> bool {
    let first = line.lines().next().unwrap_or(line);
    let words: Vec<&str> = first.split_whitespace().collect();
    let title = words
        .iter()
        .filter(|word| word.chars().count() >= 4)
        .all(|word| word.chars().next().is_some_and(char::is_uppercase));
    let opens_sentence = first
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .next()
        .is_some_and(char::is_uppercase);
    binding::opens_with_instruction(line) && opens_sentence && !title && words.len() > 2
}

/// A specification handed over ([`handed_spec`]), and whether it speaks to
/// the agent.
#[derive(Clone, Copy)]
struct Spec {
    /// It speaks to the agent ("Tu as reçu le fichier …", "me le
    /// signaler"): a ticket whose steps are the agent's to take, where a
    /// design that only describes a system lays out what that system does.
    addressed: bool,
}

impl Spec {
    /// Whether a unit of the specification binds: what it states as a rule
    /// ("Toutes les FK doivent pointer vers les bonnes tables", "Review
    /// humaine obligatoire"), where it tells the agent to stop or to report
    /// ("Si version < 13.11 → STOP et me le signaler"), and in a ticket, the
    /// steps it sets ("Créer un nouveau workflow n8n", "Si conflit de nom →
    /// préfixer avec kern_ et signaler"). What it describes does not.
    fn binds(self, unit: &str) -> bool {
        // A step opens the unit, or follows the condition it holds under.
        let after_condition = unit.rsplit('→').next().unwrap_or(unit);
        binding::rule_stated(unit)
            || halts(unit)
            || (self.addressed
                && [unit, after_condition]
                    .into_iter()
                    .any(binding::opens_with_instruction))
    }
}

/// Where a document tells the agent to stop, or to tell the user: "→
/// STOP", "me le signaler", "let me know", "report back to me".
fn halts(text: &str) -> bool {
    static TOLD: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(r"(?i)\b(me\s+(le\s+|la\s+|les\s+)?(signaler|dire|pr[ée]venir|rapporter|demander)|signale[rz]?-moi|let\s+me\s+know|tell\s+me|report\s+(it\s+|this\s+|that\s+|them\s+)?(back\s+)?to\s+me|ask\s+me|avísame|avise-me|me\s+avise)\b")
            .expect("the pattern of a report asked for compiles")
    });
    text.split(|c: char| !c.is_alphanumeric())
        .any(|word| word == "STOP")
        || TOLD.is_match(text)
}

/// Whether a document speaks to the agent: in the second person, or asking
/// to be told ([`halts`]), outside its code (the system prompts a design
/// writes for the agents it lays out speak to those: "Tu es le Chef de
/// Projet de K3rn.labs").
fn speaks_to_agent(text: &str) -> bool {
    static YOU: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(r"(?i)\b(tu|vous|you|your|dein|deine|ты|вы|você|usted)\b|你|您")
            .expect("the pattern of the second person compiles")
    });
    said_outside_code(text).any(|said| YOU.is_match(said) || halts(said))
}

/// Whether the document that opens at the heading at `first` is a task the
/// user sets the agent, not material handed over: the words before it ask
/// something of the agent ("Use your senior-frontend skill for this
/// task."), and so does the document's first line that is no heading
/// ("Build a complete web platform for …", "- Implementiere ein flexibles
/// Grid-System"). A study, another assistant's answer or a brief someone
/// else wrote opens by saying what it is ("This document presents …").
fn task_document(text: &str, first: usize) -> bool {
    let asks = |part: &str| {
        let message = binding::Prose::new(part);
        units(part)
            .iter()
            .any(|unit| binding::binding(unit, &message, binding::Context::default()).is_ok())
    };
    let opening = text[first..].lines().map(str::trim).find(|line| {
        !line.is_empty()
            && units::heading_at(line, 0).is_none()
            && line.chars().any(char::is_alphanumeric)
    });
    opening.is_some_and(|line| binding::opens_with_instruction(line) && asks(&text[..first]))
}

/// Whether `text` holds a task the user sets the agent written up as a
/// document of sections under what they ask of it ([`task_document`]),
/// which [`document_start`] would otherwise take for one handed over.
fn task_set(text: &str) -> bool {
    if text.len() < 1500 {
        return false;
    }
    let mut headings = section_headings(text);
    let first = headings.next();
    let more = headings.next().is_some();
    first
        .is_some_and(|first| more && !text[..first].trim().is_empty() && task_document(text, first))
}

/// Where each line of `text` that heads a section starts (a heading, not
/// a `#` bullet).
fn section_headings(text: &str) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .filter(|&at| at < text.len())
        .filter(|&at| units::heading_at(text, at).is_some_and(|(_, _, bullet)| !bullet))
}

/// Where text the user quotes between triple quotes stands, quotes and
/// all: `По aiogram 3.25 вот что есть из информации """` over the
/// documentation they copied, to the last `"""` or the end. Three lines
/// or more, outside code fences: material handed over, as a document
/// pasted with its headings is.
fn triple_quoted(text: &str) -> Option<std::ops::Range<usize>> {
    const MARK: &str = "\"\"\"";
    let open = text.find(MARK)?;
    if text[..open].contains("```") {
        return None;
    }
    // Opened after words of the user's on its line, not where code opens
    // a docstring (`    """Load the data.`, `prompt = """`).
    let line = &text[text[..open].rfind('\n').map_or(0, |at| at + 1)..open];
    if line.split_whitespace().count() < 3 || line.contains(['=', '(', ')']) {
        return None;
    }
    let inner = open + MARK.len();
    // Closed by the last of the marks: what it quotes may hold marks of
    // its own (the docstrings of the code it shows).
    let close = text[inner..].rfind(MARK).map(|at| inner + at);
    let quoted = &text[inner..close.unwrap_or(text.len())];
    let lines = quoted
        .lines()
        .filter(|line| !line.trim().is_empty())
        .count();
    (lines >= 3).then(|| open..close.map_or(text.len(), |at| at + MARK.len()))
}

/// Where the paragraphs right before `at` that are written as an
/// assistant writes start: bold set amid a sentence's words (twice or
/// more in the paragraph) or inline math (`$4 \times 4$`), paragraph
/// after paragraph back from `at`, or from the message's start when its
/// first paragraph is so (three paragraphs at most before `at`); `at`
/// when the one before is not so. A paragraph that leads into what
/// follows with a colon is the user's.
fn styled_back(text: &str, at: usize) -> usize {
    let styled = |paragraph: &str| {
        let math = paragraph.matches('$').count() >= 2
            && paragraph.contains('\\')
            && !paragraph.contains("$ ");
        let bold_amid = paragraph
            .lines()
            .filter(|line| {
                let trimmed = line.trim();
                trimmed.contains("**") && !(trimmed.starts_with("**") && trimmed.ends_with("**"))
            })
            .map(|line| line.matches("**").count() / 2)
            .sum::<usize>()
            >= 2;
        (math || bold_amid) && !paragraph.trim_end().ends_with([':', '：'])
    };
    // Opened so, the message is the reply from its first word, but for a
    // paragraph that leads into what follows.
    let paragraphs: Vec<&str> = text[..at]
        .split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .collect();
    if paragraphs.first().is_some_and(|p| styled(p))
        && paragraphs.len() <= 3
        && !paragraphs
            .iter()
            .any(|p| p.trim_end().ends_with([':', '：']))
    {
        return 0;
    }
    let mut start = at;
    while start > 0 {
        let before = text[..start].trim_end();
        let from = before.rfind("\n\n").map_or(0, |n| n + 2);
        if before.is_empty() || !styled(&before[from..]) {
            break;
        }
        start = from;
    }
    start
}

/// Where the user's own words after a document they handed over start:
/// a last paragraph of a line, forty words at most, set apart by a blank
/// line from a document that ends in a table, a list or a block (its own
/// prose would go on as prose), and not itself a row, an item, a heading
/// or a quotation.
fn said_after(document: &str) -> Option<usize> {
    let body = document.trim_end();
    let at = body.rfind("\n\n")? + 2;
    let last = body[at..].trim();
    let before = body[..at].trim_end();
    let before = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    let structured = |line: &str| {
        let line = line.trim_start();
        line.starts_with(['|', '-', '*', '>', '`'])
            || line.split_once(['.', ')']).is_some_and(|(n, _)| {
                !n.is_empty() && n.len() <= 3 && n.chars().all(|c| c.is_ascii_digit())
            })
    };
    (!last.contains('\n')
        && last.split_whitespace().count() <= 40
        && last.chars().any(char::is_alphabetic)
        && !structured(last)
        && !last.starts_with('#')
        && structured(before))
    .then_some(at)
}

/// The files attached to a message whose text the runtime put in it
/// (OpenClaw: `<file name="prompts.md" mime="text/markdown">…</file>`):
/// the message with each file taken out, a brief written for the agent
/// ("# Prompt untuk OpenClaw Bot …", "You are …") put back as paragraphs
/// of the user's own, and the files handed over. A file whose line breaks
/// the channel flattened into spaces has them back before its headings,
/// list items and table rows. `None` when nothing is attached.
fn attachments(text: &str) -> Option<(String, Vec<String>)> {
    static FILE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        regex::Regex::new(r#"(?s)<file name="[^"\n]*"(?: mime="[^"\n]*")?>(.*?)</file>"#)
            .expect("the attached file pattern compiles")
    });
    let mut own = String::new();
    let mut handed_over = Vec::new();
    let mut briefs = Vec::new();
    let mut at = 0;
    for file in FILE.captures_iter(text) {
        let (Some(whole), Some(content)) = (file.get(0), file.get(1)) else {
            continue;
        };
        own.push_str(&text[at..whole.start()]);
        own.push_str("\n\n");
        at = whole.end();
        let content = content.as_str().trim();
        if brief_at(content, 0) {
            briefs.push(unflattened(content));
        } else {
            handed_over.push(content.to_owned());
        }
    }
    if at == 0 {
        return None;
    }
    own.push_str(&text[at..]);
    for brief in briefs {
        own.push_str("\n\n");
        own.push_str(&brief);
    }
    Some((own, handed_over))
}

/// `text` with the line breaks a channel flattened into spaces put back
/// before its Markdown: headings, list items, table rows. Text that kept
/// its line breaks is returned as it is.
fn unflattened(text: &str) -> String {
    static MARKS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        regex::Regex::new(r"\| \|| (#{1,6} )| (- )| (\d{1,2}\. )")
            .expect("the Markdown marks pattern compiles")
    });
    if text.contains('\n') {
        return text.to_owned();
    }
    let lines = MARKS.replace_all(text, |found: &regex::Captures<'_>| {
        if let Some(heading) = found.get(1) {
            format!("\n\n{}", heading.as_str())
        } else if let Some(item) = found.get(2).or_else(|| found.get(3)) {
            format!("\n{}", item.as_str())
        } else {
            "|\n|".to_owned()
        }
    });
    // A table's first row stood on the line of what came before it
    // ("## Sistem Klasifikasi | Kode | Kategori |").
    let mut out = String::with_capacity(lines.len() + 16);
    for line in lines.split_inclusive('\n') {
        let row = line.trim_end().ends_with('|') && !line.starts_with('|');
        match line.find(" | ").filter(|_| row) {
            Some(at) => {
                out.push_str(&line[..at]);
                out.push_str("\n\n");
                out.push_str(&line[at + 1..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// Where a document pasted with its line breaks flattened into spaces
/// starts ("I found this: # ClawDeck — Your Task Dashboard … ## How it
/// works 1. …", as some chat channels hand a message over): at the first of
/// two headings or more written inside a line, one of them a section's
/// (`##`), after words of the user's own. A brief written so stays.
fn flattened_document_start(text: &str) -> Option<usize> {
    static INLINE_HEADING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        regex::Regex::new(r"[ \t](#{1,3}) [^\s#]").expect("the inline heading pattern compiles")
    });
    let mut first = None;
    let mut count = 0;
    let mut section = false;
    for found in INLINE_HEADING.captures_iter(text) {
        let (Some(whole), Some(marks)) = (found.get(0), found.get(1)) else {
            continue;
        };
        first.get_or_insert(whole.start() + 1);
        count += 1;
        section |= marks.len() >= 2;
    }
    let first = first?;
    (count >= 2 && section && !text[..first].trim().is_empty() && !brief_at(text, first))
        .then_some(first)
}

/// Where a document pasted with its line breaks lost starts: a message of
/// 1,500 bytes or more on one line, whose sentences and headings run into
/// each other five times or more ("… for UK Dairy FarmsObjective: To
/// develop …", "… the data model.Example Pathways:Feed Store …"), as a
/// page copied from a word processor into a terminal comes. It starts
/// where the sentence holding the first such join does; a brief written
/// for the agent so stays the user's.
fn glued_document_start(text: &str) -> Option<usize> {
    /// The fewest joins that make a document.
    const JOINS: usize = 5;
    static JOINED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        regex::Regex::new(r"[a-z)][.:)][A-Z][a-z]+\s").expect("the join pattern compiles")
    });
    if text.len() < 1500 || text.trim().contains('\n') || brief_at(text.trim_start(), 0) {
        return None;
    }
    let mut joins = JOINED.find_iter(text);
    let first = joins.next()?;
    if joins.take(JOINS - 1).count() < JOINS - 1 {
        return None;
    }
    Some(text[..first.start()].rfind(". ").map_or(0, |at| at + 2))
}

/// Where an error report a framework's error overlay copies starts
/// (Next.js: "## Error Type" over "Console Error", then "## Error Message",
/// its text, the component stack, "## Code Frame", "Next.js version: …"):
/// the framework's words, handed over whole, though written with headings
/// and a list ("- Variable input such as `Date.now()` …"). What the user
/// wrote before it, or under it, is theirs.
fn error_report_start(text: &str) -> Option<usize> {
    const OPENS: &str = "## Error Type";
    let at = text
        .match_indices(OPENS)
        .map(|(at, _)| at)
        .find(|&at| at == 0 || text[..at].ends_with('\n'))?;
    let rest = &text[at + OPENS.len()..];
    // The error's type on the next line, and its message under the next
    // heading.
    let mut lines = rest.lines().map(str::trim).filter(|line| !line.is_empty());
    let kind = lines.next()?;
    (!kind.starts_with('#') && lines.next() == Some("## Error Message")).then_some(at)
}

/// Where a chat log pasted into a message starts: the first of two
/// turns or more marked with their time and speaker ("[15:15] You: …
/// [15:15] Sara: …"), often pasted without its line breaks. What the user
/// wrote before it is theirs; the log is handed over.
fn chat_log_start(text: &str) -> Option<usize> {
    static TURN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        regex::Regex::new(
            r"\[\d{1,2}:\d{2}(:\d{2})?\][ \t]+[^\s:\[\]]{1,30}([ \t][^\s:\[\]]{1,30})?:[ \t]",
        )
        .expect("the chat turn pattern compiles")
    });
    let mut turns = TURN.find_iter(text);
    let first = turns.next()?;
    turns.next().map(|_| first.start())
}

/// Where another chat assistant's reply pasted into a message stands: a
/// long passage that speaks to the user as an assistant does where it
/// opens ("here's a refined version of your project", "I'll help you
/// perfect it") or where it closes ("Do you want me to …?", "If desired,
/// the next step would be …"). It runs from the paragraph that first
/// speaks so (with the headings just before it), from the end of the
/// user's lead line ("arifos init and wire it to the server:"), or, when
/// only its close speaks so, from after the user's own first paragraph,
/// to the end of the message, but for a last short paragraph of the
/// user's own ("now audit what we have implemented"). A reply the user
/// adopts ("this is what I am trying to build:"), one written as a brief,
/// and one that closes by telling the user to pass its prompt on to the
/// agent are theirs to hold the agent to, and stay.
fn reply_span(text: &str) -> Option<std::ops::Range<usize>> {
    if text.len() < 1000 {
        return None;
    }
    // The reply is the bulk of the message: it speaks so where it opens
    // or where it closes, not somewhere in the middle of a log; only those
    // ends are read.
    const EDGE: usize = 1500;
    let head = crate::source::floor_char_boundary(text, EDGE);
    let tail = crate::source::ceil_char_boundary(text, text.len().saturating_sub(EDGE));
    // A close that tells the user to pass a prompt on ("copy that prompt
    // and send it to Michael") says that what stands above it is a brief
    // for the agent, which binds.
    // Or the user says after it where it came from ("i'm using chatgpt to
    // help me teach you").
    let voiced = REPLY_VOICE
        .find(&text[tail..])
        .filter(|m| !m.as_str().to_lowercase().contains("prompt"));
    let named = match voiced {
        Some(_) => None,
        None => NAMES_ASSISTANT
            .find(&text[tail..])
            .map(|m| tail + m.start()..tail + m.end()),
    };
    let closing = voiced
        .map(|m| tail + m.start()..tail + m.end())
        .or_else(|| named.clone());
    // Where the last paragraph starts (at its blank line): the reply's
    // close, or the user's last words after it.
    let last_break = text.trim_end().rfind("\n\n");
    // Where it opens: not in the last paragraph, which closes it.
    let opening = REPLY_VOICE
        .find(&text[..head])
        .map(|m| m.range())
        .filter(|m| m.start < last_break.unwrap_or(0));
    let opens = opening.is_some();
    let voice = opening.or_else(|| closing.clone())?;
    let closing = closing.is_some();
    // The user's lead: a first line whose own words end with a colon
    // before the reply goes on, on the same line or the next.
    let first_line = text.lines().next().unwrap_or_default();
    let lead = first_line
        .find([':', '：'])
        .filter(|&at| at <= 300 && at < voice.start)
        .filter(|&at| {
            let words = &first_line[..at];
            !words.trim_start().starts_with(['[', '<', '{'])
                && words.split_whitespace().count() >= 3
        })
        .map(|at| at + first_line[at..].chars().next().map_or(1, char::len_utf8));
    let start = match lead {
        Some(after) if opens || closing => after,
        _ if opens => {
            // The paragraph that first speaks so, with the headings and
            // rules set just before it.
            let mut start = text[..voice.start].rfind("\n\n").map_or(0, |at| at + 2);
            while start > 0 {
                let before = text[..start].trim_end();
                let line_start = before.rfind('\n').map_or(0, |at| at + 1);
                let line = before[line_start..].trim();
                if line.starts_with('#') || binding::rule(line) || line.is_empty() {
                    start = line_start;
                } else {
                    break;
                }
            }
            start
        }
        // Only its close speaks so: the reply follows the user's own
        // first paragraph.
        // A message with no blank line (copied from a chat app that
        // keeps only line breaks) has its first line for its paragraph.
        _ if closing => {
            let (first_break, width) = match text.find("\n\n") {
                Some(at) => (at, 2),
                None => (text.find('\n')?, 1),
            };
            if text[..first_break].split_whitespace().count() > 80 {
                return None;
            }
            first_break + width
        }
        _ => return None,
    };
    let own_before = &text[..start];
    // A document that opens as a brief, with the assistant's closing words
    // kept at its end, is what the user gives the agent to hold to.
    if ADOPTS_REPLY.is_match(own_before) || brief_at(text, start) || brief_at(text, 0) {
        return None;
    }
    // The paragraphs just before it written as the reply is (its bold
    // amid sentences, its math) are the reply's opening.
    let start = styled_back(text, start);
    // The user's last words after the reply: the paragraph where they
    // name its source, or a short last paragraph that does not speak as
    // the reply does.
    if let Some(named) = named {
        let end = text[..named.start].rfind("\n\n").unwrap_or(0);
        return (end > start && end - start >= 800).then_some(start..end);
    }
    let end = last_break
        .filter(|&at| at > voice.end)
        .filter(|&at| {
            let last = &text[at..];
            last.split_whitespace().count() <= 60
                && !REPLY_VOICE.is_match(last)
                && !last.contains("```")
        })
        .unwrap_or(text.len());
    (end - start >= 800).then_some(start..end)
}

/// Where a chat assistant's answer copied from its page stands: the page
/// leaves its marks in what is copied — a sentence's period or comma
/// alone at the start of a line, where a citation chip stood before it
/// ("… within 90 days\n. By automating …"), or the page's own buttons and
/// notes ("Show code", "Sources scanned · 11"). Two marks or more make the
/// message's text after its first line (the user's own lead) an answer
/// handed over, to its end, but for a short last paragraph of the user's
/// after the last mark.
fn copied_answer(text: &str) -> Option<std::ops::Range<usize>> {
    static MARK: LazyLock<regex::Regex> = LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        regex::Regex::new(
            r"(?m)[A-Za-z0-9)%]\n[.,] +[A-Z]|^(?:Show code|Copy code|Sources scanned(?: · \d+)?|Connector sources scanned|No (?:connector )?sources scanned)\s*$",
        )
        .expect("the copy mark pattern compiles")
    });
    if text.len() < 1500 {
        return None;
    }
    let marks: Vec<regex::Match> = MARK.find_iter(text).collect();
    let (first, last) = match marks.as_slice() {
        [first, .., last] => (first, last),
        _ => return None,
    };
    // The user's lead: the first line with words, when the marks come
    // after it.
    let opens = text.len() - text.trim_start().len();
    let start = text[opens..]
        .find('\n')
        .map(|at| opens + at)
        .filter(|&at| at < first.start())
        .map_or(0, |at| at + 1);
    let end = text
        .trim_end()
        .rfind("\n\n")
        .filter(|&at| at > last.end())
        .filter(|&at| text[at..].split_whitespace().count() <= 60)
        .unwrap_or(text.len());
    (end - start >= 800).then_some(start..end)
}

/// The user naming the chat assistant whose answer they pasted: "i'm
/// using chatgpt to help me teach you", "this is what gemini said",
/// "from perplexity".
static NAMES_ASSISTANT: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(
        r"(?i)\b(?:(?:i'm|im|i\s+am|i've\s+been|we're|we\s+are)\s+using|(?:came|copied|pasted|got\s+(?:it|this|that))\s+from|(?:this|that|here)\s+is\s+what|(?:this|that)'s\s+what|heres\s+what|here's\s+what|(?:i\s+)?asked)\s+(?:chat\s*gpt|gpt(?:-?\d\w*)?|gemini|perplexity|grok|copilot|deepseek)\b|\b(?:chat\s*gpt|gemini|perplexity|grok|deepseek)\s+(?:said|says|wrote|gave\s+me|suggested|suggests|recommends|recommended|told\s+me)\b",
    )
    .expect("the assistant-naming pattern compiles")
});

/// How an assistant speaks to the person it answers: what it offers,
/// what it hands them, what it asks them to do with it ("一言くれれば、
/// その形に合わせて具体的な設定例まで出す", give me a word and I will write
/// the settings for it; "あなたがやりたいのは多分このどれか", what you want
/// to do is one of these).
static REPLY_VOICE: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(
        r"(?i)\bhere(?:'s|\s+is)\s+(?:a|an|the|your)\s+(?:[\w-]+\s+){0,2}(?:version|guide|plan|breakdown|overview|architecture|draft|rewrite)\s+(?:of|for)\s+your\b|\b(?:i'll|i\s+will|i\s+can|i'd\s+be\s+happy\s+to)\s+help\s+you\b|\b(?:do\s+you\s+want|would\s+you\s+like)\s+me\s+to\b|\bi\s+can\s+(?:also\s+)?(?:turn|convert|expand|make|write|build|draft|generate)\s+(?:this|it|these)\s+into\b|\b(?:copy|paste)\s+(?:that|this)\s+(?:prompt|message|text)\s+(?:and|into)\b|\bif\s+desired,?\s+the\s+next\s+step\b|\bif\s+you(?:'d)?\s+(?:like|want),?\s+i\s+can\b|\blet\s+me\s+know\s+if\s+you(?:'d)?\s+(?:like|want)\s+me\s+to\b|¿quieres\s+que\b|\bexcelente\s+visión\b|\bvocê\s+quer\s+que\s+eu\b|\bvoulez-vous\s+que\s+je\b|需要我(?:帮你|为你)|我可以(?:帮你|为你)|말씀해\s*주시면|원하시면|(?:해|만들어|짜|추천해|정리해|도와)\s*드(?:리겠습니다|릴까요|립니다)|(?:いたし|し)ましょうか|ご希望(?:でしたら|があれば)|(?:教えて|言って|一言|選んで)(?:くれれば|もらえれば|いただければ)|あなたが(?:やりたい|したい)のは",
    )
    .expect("the reply voice pattern compiles")
});

/// What the user writes to make a reply they paste what they ask for:
/// "this is what I am trying to build:", "build this", "implement it".
static ADOPTS_REPLY: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(
        r"(?i)\b(?:this\s+is\s+what\s+(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+(?:trying\s+to\s+|going\s+to\s+|want\s+to\s+)?(?:build|make|create|do)|(?:build|implement|follow|apply|execute)\s+(?:this|these|it)\b)",
    )
    .expect("the adoption pattern compiles")
});

/// A document the user put in quotation marks (`build this "# Research
/// … ---" BUILD SOMETHING SIMILAR`), the quotation opened before where
/// the document starts: the document up to where the quotation closes,
/// and what follows it. A document not opened by a
/// quotation mark runs to the end.
fn quoted_document<'t>(before: &str, document: &'t str) -> (&'t str, &'t str) {
    // A quotation opened before the document and not closed there.
    let opened = before.matches('"').count() % 2 == 1
        || before.matches('“').count() > before.matches('”').count()
        || before.matches('«').count() > before.matches('»').count();
    let closed = document
        .rfind(['"', '”', '»'])
        .filter(|&at| at * 2 > document.len());
    match closed {
        Some(at) if opened => {
            let after = &document[at..];
            let close = after.chars().next().map_or(1, char::len_utf8);
            let rest = &after[close..];
            // Words of the user's after it, not a quotation inside the
            // document that happens to end late.
            if rest.split_whitespace().count() >= 3 && !rest.contains(['"', '”']) {
                (&document[..at], rest)
            } else {
                (document, "")
            }
        }
        _ => (document, ""),
    }
}

/// `text` with the fences taken from around each brief written for the
/// agent in it (a block of Markdown or plain text whose first 600 bytes
/// open as one: "OG TEAM — Master Prompt … You are my expert AI
/// architect"); `None` when it holds none. A brief with a block of its own
/// inside, fenced bare as the brief is, ends at the last of the fences
/// that follow it when they are all bare and pair up so (the author's
/// nesting, which Markdown itself does not know); its own blocks stay code.
fn fenced_brief(text: &str) -> Option<String> {
    /// Where a fence line starts and ends, and its info string.
    struct Fence<'t> {
        start: usize,
        end: usize,
        info: &'t str,
    }
    if !text.contains("```") {
        return None;
    }
    let mut fences = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(info) = line.trim().strip_prefix("```") {
            if !info.contains('`') {
                fences.push(Fence {
                    start: at,
                    end: at + line.len(),
                    info: info.trim(),
                });
            }
        }
        at += line.len();
    }
    let mut out = String::new();
    let mut from = 0;
    let mut n = 0;
    while n + 1 < fences.len() {
        let rest = &fences[n + 1..];
        let nested =
            rest.len() > 1 && rest.len() % 2 == 1 && rest.iter().all(|f| f.info.is_empty());
        let close = if nested { fences.len() - 1 } else { n + 1 };
        let open = &fences[n];
        let prose = ["", "markdown", "md", "text", "txt", "plain", "prompt"]
            .iter()
            .any(|info| open.info.eq_ignore_ascii_case(info));
        let inner = &text[open.end..fences[close].start];
        if prose && brief_at(inner.trim_start(), 0) {
            out.push_str(&text[from..open.start]);
            out.push_str(inner);
            from = fences[close].end;
        }
        n = close + 1;
    }
    if from == 0 {
        return None;
    }
    out.push_str(&text[from..]);
    Some(out)
}

/// Whether what starts at `at` in `text` is a brief written for the agent:
/// its first 600 bytes open as one ("# Prompt …", "You are a …").
fn brief_at(text: &str, at: usize) -> bool {
    let end = crate::source::floor_char_boundary(text, at + 600);
    BRIEF.is_match(&text[at..end])
}

/// How a document written as a prompt for the agent opens: a heading that
/// names a prompt or a task, a title in capitals that names the rules or
/// the settings it gives ("AGENT POLICY: JOB ACQUISITION PIPELINE",
/// "OPENCLAW JOB AGENT CONFIG"), or a role or a task given to the agent
/// ("You are a senior reviewer", "You are performing a FULL SYSTEM AUDIT
/// of this project."), or the name of the project it lays out, given as
/// a field ("Project name: sentiment-curator", "프로젝트명 : …").
static BRIEF: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(&super::units::scripts(
        r"(?im)^#+\s*(\w+\s+)?(prompt|system\s+prompt|task|brief|instructions)\b|^[ \t]*(?-i:([A-Z][A-Z0-9'&/-]*[ \t]+){0,4}(POLICY|POLICIES|CONFIG|CONFIGURATION|SPEC|SPECIFICATION|REQUIREMENTS|RULES|GUIDELINES|INSTRUCTIONS|SYSTEM PROMPT|PROMPT|BRIEF))([ \t]*[:\x{2013}\x{2014}-][ \t]*(?-i:[A-Z0-9][A-Z0-9 '&/-]*))?[ \t]*$|^\W*(you\s+are\s+(a|an|my|our)\s+\w+|you\s+are\s+(now\s+)?(performing|conducting|running|doing|acting\s+as|tasked\s+with|responsible\s+for|in\s+charge\s+of)\b|your\s+(task|job|role|mission)\s+is)\b|^[ \t]*\W*(project\s+name|프로젝트\s*명|项目名称?|項目名稱|プロジェクト名)\W*\s*[:：]\s*\S",
    ))
    .expect("the brief pattern compiles")
});

#[cfg(test)]
mod tests {
    use super::*;

    /// What binds of one message, by the built-in policy.
    fn binds(text: &str) -> Vec<String> {
        typed_units(&Policy::builtin(), text, false)
            .binds
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn the_steps_of_a_flow_laid_out_after_how_it_should_be_bind() {
        let text = "The page should look like live_signals.jsx. Then a scan button loads the data from the cache. After that the signals are analysed.";
        assert_eq!(
            binds(text),
            [
                "The page should look like live_signals.jsx.",
                "Then a scan button loads the data from the cache.",
                "After that the signals are analysed."
            ]
        );
        // A story of what happened is none; nor are steps with no wish
        // before them.
        let story = "It should list the users. Then the page crashed on start.";
        assert_eq!(binds(story), ["It should list the users."]);
        assert!(binds("The cache is warm. Then a scan button loads the data.").is_empty());
    }

    #[test]
    fn asked_to_try_it_again_in_russian_is_spent() {
        for text in ["протестируй еще раз", "запусти ещё раз", "давай дальше"]
        {
            assert!(binds(text).is_empty(), "{text}");
        }
        assert_eq!(binds("не удаляй тесты"), ["не удаляй тесты"]);
    }

    #[test]
    fn a_japanese_note_closed_by_the_noun_of_research_asks_for_it() {
        for text in [
            "最新の技術情報はcontext7を使って調査",
            "動作を検証",
            "コードを分析",
        ] {
            assert_eq!(binds(text), [text], "{text}");
        }
    }

    #[test]
    fn a_project_laid_out_under_its_name_is_a_brief() {
        let text = "I'm planning a new project.\nProject name: sentiment-curator\nPurpose: deliver curated PUBG user trends to Slack.\nMain features:\nCrawl every post of the supported communities periodically and store them in the db, refreshing them as they change.\nThe crawl targets are the post's link, title, content, attached images and comments.\nThe user can set the target services, the period, the purpose of the selection, when it is delivered and the Slack channel.\nThe delivered format is a summary, the original link and related post links.\nUser settings are possible through the web, which has a login, a settings page and a dashboard of what was delivered.";
        assert!(text.len() >= 500);
        let bound = binds(&format!("{text}\n{text}"));
        assert!(bound
            .iter()
            .any(|b| b.starts_with("The delivered format is")));
        assert!(bound
            .iter()
            .any(|b| b.starts_with("User settings are possible")));
        // A name given in passing opens no brief.
        assert!(!brief_at(
            "We shipped it. The project name: is it final?",
            0
        ));
    }

    #[test]
    fn asked_to_think_hard_about_a_thing_is_an_instruction() {
        for text in [
            "Think hard about how to refactor the code so that we can reuse it.",
            "ok, think very hard about how to split the parser.",
            "Think hard, then fix the parser.",
        ] {
            assert_eq!(binds(text), [text], "{text}");
        }
        // About nothing named, it shapes the next answer and is spent.
        assert!(binds("Think hard about the refactor.").is_empty());
        assert!(binds("please think hard for this one").is_empty());
    }

    #[test]
    fn a_file_to_see_and_a_correction_bind() {
        for text in [
            "see ~/.claude/CLAUDE.md for correct ones",
            "See docs/setup.md before you start.",
            "correction: primary isn't only for rule-level directive, I mean the same as prior mentioned bullet points",
            "Clarification: the export runs nightly, not hourly.",
        ] {
            assert_eq!(binds(text), [text], "{text}");
        }
        assert!(binds("see, the problem is the cache").is_empty());
        assert!(binds("See the docs folder.").is_empty());
    }

    #[test]
    fn a_question_asked_in_brackets_ends_no_sentence() {
        let text = "I learnt what source does (it runs in the same shell, right?) and that it stops on any error.\nAm I too reliant on you?";
        let cut: Vec<String> = typed_units(&Policy::builtin(), text, false)
            .apart
            .into_iter()
            .map(|(unit, _)| unit)
            .collect();
        assert_eq!(
            cut,
            [
                "I learnt what source does (it runs in the same shell, right?) and that it stops on any error.",
                "Am I too reliant on you?"
            ]
        );
    }

    #[test]
    fn what_a_copied_terminal_prints_under_the_users_line_is_output() {
        // A prompt under the user's one line, and one after their words
        // and a colon.
        for text in [
            "look at the new ../project_setup.sh\n\u{276f} source ../project_setup.sh\nAdded environment variable IDF_PATH = /root/esp-idf\n\n    {IDF_PATH}/tools/cmake/project.cmake\n\nCMake Error at CMakeLists.txt:5 (include):",
            "it exists: \u{276f} ls ~/.espressif/tools/esp-clang/\nesp-20.1.1_20250829\n\nthe problem is, the startup script does the same",
        ] {
            let bound = binds(text);
            assert!(
                bound.iter().all(|unit| !unit.contains("esp")),
                "{bound:?}"
            );
        }
    }

    #[test]
    fn the_last_line_of_a_handoff_is_the_handoffs_unless_it_speaks_to_the_agent() {
        let handoff = "ok, this is from another session, explaining the next task:\nGoal\nBuild a local RAG system.\nIndexing is one-time, only the model needs to run at query time";
        assert!(binds(handoff).is_empty(), "{:?}", binds(handoff));
        for ask in [
            "please fix the issues it found",
            "can you fix what it found",
        ] {
            let text = format!("here is what codex said: the tests fail in parser.rs\n{ask}");
            assert_eq!(binds(&text), [ask]);
        }
    }

    #[test]
    fn the_shape_asked_of_the_next_answer_and_a_startled_question_are_spent() {
        for text in [
            "1 line answer",
            "answer in one sentence please",
            "wait, openwebui?",
        ] {
            assert!(binds(text).is_empty(), "{text}");
        }
        for text in ["wait for the build to finish", "wait, use postgres instead"] {
            assert!(!binds(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn terms_listed_without_bullets_under_the_users_colon_are_a_list() {
        let text = "the tiers are for different strategies. it's basically:\nDocuments - manually managed reference, automatically managed files\nArchives - semi automatically managed reference, static files";
        assert_eq!(
            binds(text),
            [
                "Documents - manually managed reference, automatically managed files",
                "Archives - semi automatically managed reference, static files"
            ]
        );
        let steps = "Here is how it works:\n\nThe Anchor: LI generates a unique decision_id.\nThe Handshake: the payload sent out includes that ID.";
        assert_eq!(binds(steps).len(), 2, "{:?}", binds(steps));
        // One line is no list, and lines with no colon above are no list.
        assert!(binds("it's basically:\nDocuments - the files we keep").is_empty());
        assert!(
            binds("We met at noon.\nDocuments - the files we keep\nArchives - the old ones")
                .is_empty()
        );
    }

    #[test]
    fn italian_asks_to_look_weigh_remember_and_tell_bind() {
        for text in [
            "vedi un pò quanto spendiamo ad ora con azure",
            "valuta integrazioni con khan academy, modelli freemium",
            "ricordati che ormai siamo al 2 gennaio 2026",
            "E di ad amy di mettere in cima un executive report semplice da capire con raccomandazioni.",
            "Non mi interessa quanto costerà, dobbiamo farlo.",
            "queste considerazioni sono importanti e vanno scritte da qualche parte.",
        ] {
            assert_eq!(binds(text), [text], "{text}");
        }
        for text in ["va bene, grazie", "il colore di ad esempio"] {
            assert!(binds(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_list_of_what_is_done_reports_and_what_to_go_on_with_asks() {
        let text = "Continue Phase 1 in full parallel. We have:\n\n  - Agent symlinks fixed - /home/u/.claude/agents →\n  /home/u/.local/share/claude/agents\n  - All 31 agents integrated with the binary protocol\n\n  Continue with: Direct implementation of the cluster integrations.";
        assert_eq!(
            binds(text),
            [
                "Continue Phase 1 in full parallel.",
                "Continue with: Direct implementation of the cluster integrations."
            ]
        );
        // A list of asks under its label is the user's.
        assert_eq!(
            binds("Requirements:\n- use postgres\n- never drop columns"),
            ["use postgres", "never drop columns"]
        );
    }

    #[test]
    fn a_chinese_question_of_what_a_thing_is_and_a_stop_are_no_asks() {
        for text in [
            "你现在这个专考是考什么？",
            "你他妈的给我停下！！！！",
            "给我停下！",
        ] {
            assert!(binds(text).is_empty(), "{text}");
        }
        for text in ["你现在帮我检查一下配置", "给我停下来修复登录"] {
            assert_eq!(binds(text), [text], "{text}");
        }
    }

    #[test]
    fn comments_over_pasted_code_are_the_codes() {
        let text = "keep the node's output format\n// PASS-THROUGH 100%: keep the prompt as written.\n// Do not cut it. label/caption only name the file.\nconst input = $input.first().json;\nreturn input;";
        assert_eq!(binds(text), ["keep the node's output format"]);
        // A comment with no code under it is the user's.
        assert!(binds("// never touch the prod db\nplease fix the parser")
            .contains(&"please fix the parser".to_owned()));
    }

    #[test]
    fn a_build_tools_warning_and_its_advice_are_the_tools() {
        let text = "(!) Some chunks are larger than 500 kB after minification. Consider:\n- Using dynamic import() to code-split the application\n- Adjust chunk size limit for this warning via build.chunkSizeWarningLimit.\n\nplease fix this warning";
        assert_eq!(binds(text), ["please fix this warning"]);
    }

    #[test]
    fn clauses_listed_under_a_line_that_announces_them_are_requirements_of_their_own() {
        let text = "背景：我们是一个iOS开发项目，我希望能够出一套完整的ai-coding规范，主要包含：\n1、扫描整个项目的架构，确认依赖关系\n2、后续的代码开发与Git review遵循此规范\n3、此项目规范要求为全团队成员共同遵循";
        let bound = binds(text);
        for item in [
            "1、扫描整个项目的架构，确认依赖关系",
            "2、后续的代码开发与Git review遵循此规范",
            "3、此项目规范要求为全团队成员共同遵循",
        ] {
            assert!(bound.iter().any(|b| b == item), "{item}: {bound:?}");
        }
        // A name listed so is still an entry of the list.
        assert!(binding::entry("计划报告"));
        assert!(!binding::entry("扫描整个项目的架构，确认依赖关系"));
    }

    #[test]
    fn an_adopted_lists_entries_are_held_by_the_words_that_open_them() {
        let list = "Custom Fields on Contacts — store email, phone, budget per contact. Build a field editor. ManyChat charges for this.\n\nBroadcast Scheduler — pick a date/time to send. Requires a webhook subscription.\n\nYeah try building this";
        assert_eq!(
            binds(list),
            [
                "Custom Fields on Contacts — store email, phone, budget per contact.",
                "Broadcast Scheduler — pick a date/time to send.",
                "Yeah try building this"
            ]
        );
    }

    #[test]
    fn a_clause_that_comes_after_a_step_or_a_but_asks_apart_from_it() {
        assert_eq!(
            binds("be sure to install all relevant dependencies and components, after finishing please check for compiling success"),
            [
                "be sure to install all relevant dependencies and components",
                "after finishing please check for compiling success"
            ]
        );
        // A sentence typed on in one breath, a comma against the next word
        // stopping nothing.
        assert_eq!(
            binds("please read the project.md file check what was done and what is missing  then proceed with the development of the next phase of the project,for example it seems to be missing the user management component"),
            [
                "please read the project.md file",
                "check what was done and what is missing",
                "proceed with the development of the next phase of the project,for example it seems to be missing the user management component"
            ]
        );
        // "but be sure", "but please" ask anew, as "and please" does.
        assert_eq!(
            binds("Keep the tests but please drop the old fixtures"),
            ["Keep the tests", "but please drop the old fixtures"]
        );
        // A condition still holds the clause it leads to.
        assert_eq!(
            binds("if the build breaks, revert it"),
            ["if the build breaks, revert it"]
        );
    }

    #[test]
    fn the_entries_listed_under_a_short_instruction_are_what_it_asks_for() {
        assert_eq!(
            binds("继续生成\n- **规则引擎设计说明**\n- **数据结构设计**\n- **研发排期表**"),
            [
                "继续生成",
                "**规则引擎设计说明**",
                "**数据结构设计**",
                "**研发排期表**"
            ]
        );
        assert_eq!(
            binds("Please also write\n- **the migration guide**\n- **the release notes**"),
            [
                "Please also write",
                "**the migration guide**",
                "**the release notes**"
            ]
        );
        // A list under a remark, and a list a colon announces (held whole
        // with its line), are not so.
        assert!(binds("我们有这些文档\n- **规则引擎设计说明**\n- **数据结构设计**").is_empty());
        assert_eq!(
            binds("Please add:\n- the migration guide\n- the release notes"),
            ["Please add:\n- the migration guide\n- the release notes"]
        );
    }

    #[test]
    fn output_pasted_under_an_item_without_a_blank_line_is_cut_off_it() {
        let text = "1) No paywall, existem ofertas que não foram implementadas\n2) Além disso, o mapeamento das imagens tem que ser condizente com o FireStore, pois hoje está ocasionando erros, \n[ExerciseImageCache] listAll failed for exercises/back_neck_stretch: User does not have permission.\r\n[ExerciseImageCache] Fallback path not found: exercises/back_neck_stretch/media/0.jpg\n3) Retirar do paywall a duplicação";
        assert_eq!(
            binds(text),
            [
                "No paywall, existem ofertas que não foram implementadas",
                "Além disso, o mapeamento das imagens tem que ser condizente com o FireStore, pois hoje está ocasionando erros,",
                "Retirar do paywall a duplicação",
            ]
        );
        // One line of output is the user's to quote.
        let one = "- fix the crash we see in the cache\n[ExerciseImageCache] listAll failed for back_neck_stretch";
        assert_eq!(binds(one).len(), 1);
        assert!(binds(one)[0].ends_with("back_neck_stretch"));
    }

    #[test]
    fn text_quoted_between_triple_quotes_is_handed_over() {
        let text =
            "Make sure every button uses the new colours. Here is what the docs say \"\"\"\n\
            Telegram Bot API 9.4 added two fields:\n\
            - style: str - the colour of the button\n\
            - icon_custom_emoji_id: str - an emoji before the text\n\
            You must own Telegram Premium for the icons.\n\"\"\"\n\
            Also keep all 39 locales in every service.";
        assert_eq!(
            binds(text),
            [
                "Make sure every button uses the new colours.",
                "Also keep all 39 locales in every service."
            ]
        );
        // Code's docstrings quote nothing handed over.
        let code = "Fix the loader, it drops the labels:\n\
            class EQDataset(Dataset):\n    \"\"\"\n    Dataset for loading the files.\n\
            \x20   Each file holds a mel stack.\n    And a label.\n    \"\"\"\n";
        assert_eq!(triple_quoted(code), None);
        assert_eq!(
            triple_quoted("prompt = \"\"\"\nOne.\nTwo.\nThree.\n\"\"\""),
            None
        );
        // A short quotation is the user's own words.
        assert_eq!(
            binds("Rename it to \"\"\"legacy\"\"\" and keep the tests."),
            ["Rename it to \"\"\"legacy\"\"\"", "keep the tests."]
        );
    }

    #[test]
    fn an_explainer_headed_by_its_questions_is_handed_over_but_the_words_under_it() {
        let mut text = String::from(
            "# 📚 GitHub Actions & CI/CD\n\n> Notes from what Julius built today.\n\n\
             ## 1. What is GitHub Actions?\n\nIt runs jobs when something happens in a repository.\n\
             Never commit secrets to the workflow file, use repository secrets.\n\n\
             ## 2. When does a workflow run?\n\n",
        );
        for n in 0..20 {
            text.push_str(&format!(
                "| trigger {n} | run the job on event {n} and deploy the pages |\n"
            ));
        }
        text.push_str("\nMeanwhile save this into raw for me please");
        assert_eq!(binds(&text), ["Meanwhile save this into raw for me please"]);
        // A brief headed by what it asks for is the user's own.
        let brief = text.replace("?", "");
        assert!(binds(&brief).len() > 1);
    }

    #[test]
    fn a_task_written_up_as_a_document_under_what_the_user_asks_is_theirs() {
        let mut spec = String::from(
            "Use your senior-frontend skill for this task. Focus on accessibility.\n\n\
             # Maxiworx 2026 — Web Platform\n\n## Project Overview\n\
             Build a complete web platform for a recording studio.\n\n## Tech Stack\n",
        );
        for n in 0..30 {
            spec.push_str(&format!(
                "- **Part {n}:** PHP 8.2 module {n}, MySQL 8 tables\n"
            ));
        }
        let bound = binds(&spec);
        assert!(
            bound.iter().any(|b| b.starts_with("Build a complete")),
            "{bound:?}"
        );
        assert!(
            bound.iter().any(|b| b.contains("MySQL 8 tables")),
            "{bound:?}"
        );
        // A study the user asks to be built from opens by saying what it
        // is: handed over, only the ask is theirs.
        let study = spec.replace(
            "Build a complete web platform for a recording studio.",
            "This document presents an analysis of recording studio platforms.",
        );
        let bound = binds(&study);
        assert!(bound.iter().all(|b| !b.contains("MySQL")), "{bound:?}");
        assert!(bound
            .iter()
            .any(|b| b.starts_with("Use your senior-frontend")));
    }

    #[test]
    fn an_answer_written_as_an_assistant_writes_is_handed_over_from_its_opening() {
        let mut text = String::from(
            "That **6M parameter** jump makes perfect sense. By moving from a $1 \\times 1$ pool \
             to a **$4 \\times 4$ spatial pool**, you increased the resolution by **16 times**.\n\n\
             Instead of handing the head one value per channel, you now hand it a map.\n\n\
             ### Why 6M is the sweet spot\n\n",
        );
        for n in 0..30 {
            text.push_str(&format!(
                "* **Point {n}:** you should keep the pool at 4x4 for run {n}.\n"
            ));
        }
        text.push_str("\n### What to watch next\n\nKeep an eye on the validation loss.\n");
        assert!(binds(&text).is_empty(), "{:?}", binds(&text));
        // The user's own lead, plain, before a document stays theirs.
        let led = text.replacen(
            "That **6M parameter** jump makes perfect sense. By moving from a $1 \\times 1$ pool \
             to a **$4 \\times 4$ spatial pool**, you increased the resolution by **16 times**.",
            "Never drop the users table while you refactor this.",
            1,
        );
        let bound = binds(&led);
        assert_eq!(
            bound.first().map(String::as_str),
            Some("Never drop the users table while you refactor this.")
        );
        assert!(bound.iter().all(|b| !b.contains("Point")), "{bound:?}");
    }

    #[test]
    fn a_choice_that_moves_an_interview_on_holds_nothing_but_one_that_skips_something_does() {
        for passes in [
            "Skip",
            "Skip for now",
            "Next area",
            "Done — create context",
            "Continue",
        ] {
            assert!(moves_on(passes), "{passes}");
        }
        for chooses in ["Skip playground", "Skip the tests"] {
            assert!(!moves_on(chooses), "{chooses}");
        }
    }

    #[test]
    fn a_task_given_to_the_agent_opens_a_brief() {
        assert!(brief_at(
            "You are performing a FULL SYSTEM AUDIT of this project.\n\n# 1. DISCOVERY",
            0
        ));
        assert!(brief_at("You are a senior reviewer.", 0));
        assert!(!brief_at("You are right, it fails.\n# Logs", 0));
    }

    #[test]
    fn an_answer_that_asks_back_chooses_nothing() {
        let policy = Policy::builtin();
        for asks in [
            "what's the query to confirm that",
            "Which one is faster?",
            "how does the cache work here?",
        ] {
            assert!(asks_back(&policy, asks), "{asks}");
        }
        for chooses in [
            "Component level",
            "Yes, delete the old command",
            "API message if available, otherwise a generic fallback",
            "can you do both?",
            "A",
        ] {
            assert!(!asks_back(&policy, chooses), "{chooses}");
        }
    }

    #[test]
    fn an_answer_written_out_in_sentences_is_judged_a_unit_at_a_time() {
        let answered = |answer: &str| {
            let message = import::Message {
                origin: Origin::Answer,
                text: format!("What's your goal with this bot? {ANSWER_MARK} {answer}"),
                line: 91,
                record: None,
            };
            message_units(&Policy::builtin(), &message, true, None)
                .into_iter()
                .filter_map(|found| match found {
                    Found::Binds { text, answer, .. } => Some((text, answer.is_some())),
                    Found::Apart(_) => None,
                })
                .collect::<Vec<_>>()
        };
        let written = answered("this is basically for passive income. I want to make money. and it needs to work, accounting for risks, etc.");
        assert!(
            written.contains(&(
                "and it needs to work, accounting for risks, etc.".to_owned(),
                false
            )),
            "{written:?}"
        );
        assert!(written.len() >= 2, "{written:?}");
        // An option's label is the choice, with its question.
        assert_eq!(
            answered("Having fun / learning"),
            [(
                format!("What's your goal with this bot? {ANSWER_MARK} Having fun / learning"),
                true
            )]
        );
    }

    #[test]
    fn an_answer_that_tells_where_the_user_stands_chooses_nothing() {
        for stands in [
            "I'm still exploring",
            "This is my first time",
            "Still exploring",
        ] {
            assert!(of_oneself(stands), "{stands}");
        }
        for chooses in [
            "I'm fine with Postgres",
            "Still use the old API",
            "Exploring mode",
        ] {
            assert!(!of_oneself(chooses), "{chooses}");
        }
    }

    #[test]
    fn text_given_to_be_put_in_place_is_the_material_of_the_ask() {
        let text = "Remplacer le contenu de options.systemMessage par exactement ceci :\n\nTu es KORE, le Chief of Staff.\nTu ne dis jamais \"en tant qu'IA\".\nMaximum 1 question par message.\n\nTester avec cette séquence sur Telegram :\n1. /reset\n2. Envoyer \"Projet fitness\"";
        let bound = binds(text);
        assert_eq!(
            bound.first().map(String::as_str),
            Some("Remplacer le contenu de options.systemMessage par exactement ceci :")
        );
        assert!(bound.iter().all(|b| !b.starts_with("Tu ")), "{bound:?}");
        assert!(
            bound.iter().any(|b| b.contains("Projet fitness")),
            "{bound:?}"
        );
        // The same lines given as the user's own rules for this agent bind.
        let own = "Tu es KORE, le Chief of Staff.\nTu ne dis jamais \"en tant qu'IA\".";
        assert!(!binds(own).is_empty());
    }

    #[test]
    fn a_sentence_typed_on_without_stops_is_judged_an_ask_at_a_time() {
        let text = "use this to upgrade our local agent lets try to use our hardware we have local i want to run our model agent as a cluster set them up in a virtual environment using conda or whatever is better name our agent BooAgent";
        let bound = binds(text);
        assert!(bound.len() >= 3, "{bound:?}");
        assert!(
            bound
                .iter()
                .any(|b| b.starts_with("set them up in a virtual environment")),
            "{bound:?}"
        );
        assert!(
            bound.iter().any(|b| b == "name our agent BooAgent"),
            "{bound:?}"
        );
        // The stop that ends it leaves it a run-on.
        assert_eq!(binds(&format!("{text}?")).len(), bound.len());
        // "try to use": a verb's complement, not an ask of its own.
        assert!(
            bound.iter().all(|b| !b.starts_with("use our hardware")),
            "{bound:?}"
        );
        // With its stops and commas, a sentence is cut where they are.
        let punctuated = "Use this to upgrade our local agent, and set them up in a virtual environment using conda or whatever is better for the models we run on this machine and the laptop.";
        assert_eq!(binds(punctuated).len(), 2);
    }

    #[test]
    fn lines_a_process_stamps_with_its_elapsed_time_are_its_output() {
        let log = "Processing triggers for man-db (2.12.0-4build2) ...\n[91880 ms] \nWARNING: apt does not have a stable CLI interface.\n\n[91880 ms] Start: Run in host: usermod -aG docker root\n[91939 ms]";
        assert_eq!(binds(log), Vec::<String>::new());
    }

    #[test]
    fn options_named_by_their_numbers_answer_a_choice() {
        let answer = |text: &str| -> Vec<String> {
            typed_units(&Policy::builtin(), text, true)
                .binds
                .into_iter()
                .map(|p| p.text)
                .collect()
        };
        for choice in [
            "option 1, then option 2",
            "1 and 3",
            "let's do option 4 first",
        ] {
            assert_eq!(answer(choice), [choice], "{choice}");
        }
        // Not as a message of its own, nor a sentence that counts.
        assert!(binds("option 1, then option 2").is_empty());
        assert!(answer("we had 2 and 3 bugs left over from the last sprint").is_empty());
    }

    #[test]
    fn labelled_lines_whose_values_are_clauses_are_steps_not_one_record() {
        let stages = "第一阶段：使用当前模拟数据，验证整个SOP流程\n第二阶段：添加简单的web_search集成，搜索基本信息\n第三阶段：完善web_fetch和browser集成，获取深度数据";
        assert_eq!(binds(stages), stages.lines().collect::<Vec<_>>());
        let record =
            "AgentId：4378623307\nClient ID：dingt5gxbqpnjbssi8ix\nRobotCode：dingt5gxbqpnjbssi8ix";
        assert_eq!(binds(record), [record]);
    }

    #[test]
    fn the_steps_of_a_procedure_the_user_lays_out_bind() {
        for step in [
            "第二步，收集资料。",
            "第九步，针对这份投资分析报告生成5个相关tag。",
            "Step 3: the release notes.",
        ] {
            assert_eq!(binds(step), [step], "{step}");
        }
    }

    #[test]
    fn chinese_clauses_joined_by_a_word_that_adds_a_request_bind_apart() {
        assert_eq!(
            binds("现在我希望你在这个hook里强调一下要使用workspace/workspace-assist，并把刚刚的错误记到self-improve中"),
            [
                "现在我希望你在这个hook里强调一下要使用workspace/workspace-assist",
                "并把刚刚的错误记到self-improve中"
            ]
        );
        // Nor a clause that opens with an ask ("请", "不要", "一次只"): a
        // rule set beside a rule.
        assert_eq!(
            binds("请你通过采访来深挖我的意图，一次只问一个问题，不要一次问很多问题"),
            [
                "请你通过采访来深挖我的意图",
                "一次只问一个问题",
                "不要一次问很多问题"
            ]
        );
        // A long sentence strung on its commas is cut at each of them
        // where the clause binds alone; "请你记住" (remember) opens the
        // clause after it, and one that binds not alone stays with the one
        // before it.
        let long = "请你记住，以后所有的交流和文档都使用中文，你叫虞姬，汇报工作必须使用统一的模板，开发好的功能模块需要及时推送到我的Github仓库，仓库里的密钥一定要先删除干净再提交";
        assert_eq!(
            binds(long),
            [
                "请你记住，以后所有的交流和文档都使用中文，你叫虞姬",
                "汇报工作必须使用统一的模板",
                "开发好的功能模块需要及时推送到我的Github仓库",
                "仓库里的密钥一定要先删除干净再提交"
            ]
        );
        // A short one holds its parts together.
        assert_eq!(
            binds("汇报工作必须使用统一的模板，功能模块需要及时推送"),
            ["汇报工作必须使用统一的模板，功能模块需要及时推送"]
        );
        // "and" before words that ask anew.
        assert_eq!(
            binds("generate the finalized skill.md and i'd like a daily report emailed to me on token usage"),
            [
                "generate the finalized skill.md",
                "i'd like a daily report emailed to me on token usage"
            ]
        );
        // A comma alone cuts no Chinese sentence.
        assert_eq!(
            binds("身体状态好了以后，也不太想特别肌肥大，之前练过不喜欢"),
            ["身体状态好了以后，也不太想特别肌肥大，之前练过不喜欢"]
        );
    }

    #[test]
    fn chinese_requests_wishes_likes_and_complaints_bind() {
        for text in [
            "推荐一个蛋白粉品牌，性价比高，口碑好",
            "那你现在在memory.md中写下“hello world !”",
            "你看看还有什么合适的skill，也安上",
            "时间长了我想看到长时间的总结，和我的变化",
            "因为我喜欢练肩，我觉得肩练好了好看",
            "你都没提醒我哑铃卧推还没做",
            "你咋不告诉我单位",
            "我刚刚用这个命令备份了文件，现在把这个任务交给你，每天晚上00:00进行备份",
        ] {
            assert_eq!(binds(text), [text], "{text}");
        }
    }

    #[test]
    fn german_instructions_bind() {
        for text in [
            "arbeite genau",
            "teile die aufgabe in kleine schritte, damit man ohne freeze weiterkommt",
        ] {
            assert_eq!(binds(text), [text], "{text}");
        }
    }

    #[test]
    fn a_log_of_sets_and_weights_reports_and_asks_nothing() {
        for log in [
            "高位下拉29kg×12，36kg×12，43kg×12，43kg×10",
            "36×12×3，43×12",
            "哑铃飞鸟递减组7kg，5kg，3kg各12次一组，做了三组，最后一组5kg，3kg各12次",
            "bench 60kg x 8, 65kg x 6, 70kg x 4",
            "绳索面拉两边一共18kg12次四组",
            "杠铃深蹲，空杆，单边5kg，单边15kg两组，一共四组",
        ] {
            assert_eq!(binds(log), Vec::<String>::new(), "{log}");
        }
        // Quantities asked for bind.
        for asked in [
            "给我安排三组，每组12次，重量20kg",
            "Please set the timeouts to 30 min, 45 min and 60 min.",
        ] {
            assert_eq!(binds(asked), [asked], "{asked}");
        }
    }

    #[test]
    fn clauses_typed_on_one_after_another_each_bind_apart() {
        assert_eq!(
            binds("start with the phase 0 website fixes, build a good plan, review the plan with Fable, and do the execution with Sonnet 5 in parallel where you can."),
            [
                "start with the phase 0 website fixes",
                "build a good plan",
                "review the plan with Fable",
                "do the execution with Sonnet 5 in parallel where you can."
            ]
        );
        assert_eq!(
            binds("Keep the parser at src/legacy/parser_v2.py (do not rename it, ever), and then run the tests."),
            [
                "Keep the parser at src/legacy/parser_v2.py",
                "(do not rename it, ever)",
                "run the tests."
            ]
        );
        // A clause that asks nothing alone stays with its neighbour.
        for whole in [
            "Use Postgres, Redis and Kafka for the queue.",
            "If the tests fail, fix them before the commit.",
            "Never drop the users table, not even in staging.",
            "Set the limit to 1,000 requests a minute.",
        ] {
            assert_eq!(binds(whole), [whole], "{whole}");
        }
    }

    #[test]
    fn instructions_joined_by_and_bind_apart_and_a_condition_holds_to_the_next() {
        assert_eq!(
            binds("erstelle mir stattdessen eine infografik mit nano und vergiss jarvis nicht"),
            [
                "erstelle mir stattdessen eine infografik mit nano",
                "vergiss jarvis nicht"
            ]
        );
        // A period typed with no space before the next instruction.
        assert_eq!(
            binds("Verschiebe die Datei in den neuen Research Ordner.stelle sicher das in Zukunft alle Research Paper in einen Unterordner gehen."),
            [
                "Verschiebe die Datei in den neuen Research Ordner.",
                "stelle sicher das in Zukunft alle Research Paper in einen Unterordner gehen."
            ]
        );
        assert_eq!(
            binds("use Object.assign to merge the two configs"),
            ["use Object.assign to merge the two configs"]
        );
        // An aside in brackets that asks something of its own.
        assert_eq!(
            binds("you can look up the history in /Users/me/history.jsonl if you need to (don't read the full file!)"),
            [
                "you can look up the history in /Users/me/history.jsonl if you need to",
                "(don't read the full file!)"
            ]
        );
        assert_eq!(
            binds("Use Postgres (the one on the shared host) for the queue."),
            ["Use Postgres (the one on the shared host) for the queue."]
        );
        // A Chinese clause of when holds to the ask after it.
        let bound = binds("2、你是一个ai学习的资深专家与资深指导老师，希望你采用费曼学习法对我进行指导，当我想要某结果，开始前，请你通过采访来深挖我的意图。要求是先整体后细节，一次只问一个问题。");
        assert!(
            bound.contains(&"当我想要某结果，开始前，请你通过采访来深挖我的意图。".to_owned()),
            "{bound:?}"
        );
        // A Chinese clause that opens with what to make asks anew.
        let bound = binds("作为一个顶级的心理学家，结合/home/me/docs/os/idea.md对os部分的设计，优化出一版/home/me/docs/os/design_mvp.md");
        assert!(
            bound.contains(&"优化出一版/home/me/docs/os/design_mvp.md".to_owned()),
            "{bound:?}"
        );
        // "/commit" names a command: no verb joined to the next.
        assert_eq!(
            binds("após isso, faça o /commit e crie o PR"),
            ["após isso, faça o /commit", "crie o PR"]
        );
        assert_eq!(
            binds("run the migration on staging, and if it fails, restore the backup"),
            [
                "run the migration on staging",
                "if it fails, restore the backup"
            ]
        );
        // Verbs joined to one object, and a clause that asks nothing
        // alone, stay whole.
        for whole in [
            "you can copy and paste this content into a new google doc.",
            "build and test the parser before the release.",
            "keep the tests and the docs in sync.",
        ] {
            assert_eq!(binds(whole), [whole], "{whole}");
        }
    }

    #[test]
    fn a_defect_typed_without_apostrophes_is_still_reported() {
        for report in [
            "i dont see the change in the front end",
            "the page doesnt load after the deploy",
            "i cant open the settings page",
        ] {
            assert_eq!(binds(report), [report], "{report}");
        }
    }

    #[test]
    fn a_list_of_names_a_line_announces_is_one_requirement_with_it() {
        let found = binds("DO NOT invent new models. Use these canonical concepts:\n\n- Dealer/Org (tenant)\n- Vehicle (including type: STOCK/COURTESY)\n- FormField (fields)\n\nAll models must include:\n- id (cuid/uuid)\n- dealerId\n- createdAt, updatedAt\n");
        assert_eq!(
            found,
            [
                "DO NOT invent new models.",
                "Use these canonical concepts:\n\n- Dealer/Org (tenant)\n- Vehicle (including type: STOCK/COURTESY)\n- FormField (fields)",
                "All models must include:\n- id (cuid/uuid)\n- dealerId\n- createdAt, updatedAt",
            ]
        );
        // Items that are sentences, rules or files of their own stay apart.
        for list in [
            "Auto completion must:\n- mark the task completed when the form is submitted.\n- attach a timeline event.\n",
            "Edit these files:\n- src/app/page.tsx\n- src/lib/db.ts\n",
            "Map the screens:\n- ChatScreen → Dashboard tabs\n- Terminal → Dashboard tabs\n",
            // Steps, each an instruction of its own.
            "After creating the script, please:\n1. Show me the script location\n2. Explain how to run it\n3. Explain what files were created\n",
        ] {
            let found = binds(list);
            assert!(
                found.iter().all(|b| !b.contains('\n')),
                "{list:?} was taken as one: {found:?}"
            );
        }
    }

    #[test]
    fn a_reply_that_opens_with_the_option_it_names_is_the_choice_then_its_words() {
        let reply = "C,/Users/x/Desktop/ifind/副本数据指标.xlsx这个文件夹里提供了大部分同花顺对应wind的代码";
        let found = typed_units(&Policy::builtin(), reply, true);
        assert_eq!(found.binds[0].text, "C");
        // Not after a question, nor a list item, nor values.
        assert_eq!(leading_choice("10, 20 and 30"), None);
        assert!(binds(reply).iter().all(|b| b != "C"));
        assert!(typed_units(
            &Policy::builtin(),
            "1. Fix the login\n2. Keep the tests",
            true
        )
        .binds
        .iter()
        .all(|b| b.text != "1"));
        // Alone, a letter after a question names an option.
        assert_eq!(
            typed_units(&Policy::builtin(), "A", true).binds[0].text,
            "A"
        );
    }

    #[test]
    fn steps_a_line_asks_for_are_asked_for_though_one_reads_as_a_question() {
        assert_eq!(
            binds("After creating the script, please:\n1. Show me the script location\n2. Explain how to run it\n3. Explain what files were created\n"),
            [
                "Show me the script location",
                "Explain how to run it",
                "Explain what files were created"
            ]
        );
        // Alone, or under a line that does not ask, it asks to be told.
        assert!(binds("Explain how to run it").is_empty());
        assert!(
            binds("The output I got:\n1. Explain how to run it\n2. Explain what it does\n")
                .is_empty()
        );
    }

    #[test]
    fn an_item_that_announces_a_list_takes_the_items_nested_in_it_and_no_others() {
        // Each model's fields are one requirement with the model's name;
        // the next model and its fields are another.
        let found = binds("Create minimal models:\n\n- DealerMembership must include:\n  - id\n  - dealerId (FK)\n  - createdAt\n- DealerInvite must include:\n  - id\n  - email (lowercased)\n  - acceptedAt nullable\n");
        assert_eq!(
            found,
            [
                "DealerMembership must include:\n  - id\n  - dealerId (FK)\n  - createdAt",
                "DealerInvite must include:\n  - id\n  - email (lowercased)\n  - acceptedAt nullable",
            ]
        );
    }

    #[test]
    fn the_conditions_a_rule_lists_a_line_each_are_one_requirement_with_it() {
        let found = binds("Main must NOT execute most decomposed work itself unless:\n\n the task is too small to justify delegation\n\n the task is highly sensitive and atomic\n\n the task is final synthesis/validation\n\nThis must be explicit in runtime logic.\n");
        assert_eq!(
            found,
            [
                "Main must NOT execute most decomposed work itself unless:\n\n the task is too small to justify delegation\n\n the task is highly sensitive and atomic\n\n the task is final synthesis/validation",
                "This must be explicit in runtime logic.",
            ]
        );
    }

    #[test]
    fn a_heading_written_in_capitals_is_no_requirement_and_a_shouted_ask_is() {
        let found = binds("NON-NEGOTIABLE REQUIREMENTS\nMust work with real uploaded videos.\n\nPROJECT CONTEXT (READ THIS CAREFULLY)\nThis repo is RallyCoach.\n\nDO NOT DELETE THE DATABASE\nKeep the old endpoint.\n");
        assert!(
            !found
                .iter()
                .any(|b| b.contains("REQUIREMENTS") || b.contains("CONTEXT")),
            "{found:?}"
        );
        assert!(
            found.iter().any(|b| b == "DO NOT DELETE THE DATABASE"),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|b| b == "Must work with real uploaded videos."),
            "{found:?}"
        );
    }

    #[test]
    fn another_assistants_reply_pasted_in_is_handed_over_and_the_users_words_bind() {
        let steps: String = (1..=12)
            .map(|n| {
                format!("#### Step {n}\nInstall the service with `sudo apt install -y pkg{n}` and start it.\n\n")
            })
            .collect();
        // A reply that opens the message, under its heading, and the
        // user's own last words after it.
        let message = format!(
            "### Rephrased Project Overview\n\nAfter researching the docs, here's a refined version of your project. It runs on your VPS.\n\n{steps}now rephrase this as a guide and AUDIT WHAT WE HAVE IMPLEMENTED, then tell me what is left"
        );
        assert_eq!(
            binds(&message),
            ["now rephrase this as a guide and AUDIT WHAT WE HAVE IMPLEMENTED, then tell me what is left"]
        );
        // The user's lead line, the reply glued to its colon, and the reply
        // closing as an assistant does.
        let message = format!(
            "wire the whole pipeline to the mcp server and keep the tests:Core principle\n\n{steps}I can turn this into a real Python module next, with Pydantic models."
        );
        assert_eq!(
            binds(&message),
            [
                "wire the whole pipeline to the mcp server",
                "keep the tests:"
            ]
        );
        // Only the reply's close speaks so: it follows the user's own
        // first paragraph.
        let message = format!(
            "These integrations are fake, so we should delete them.\n\nXMAD Control System\n\n{steps}If you want, I can also draft the dashboard next."
        );
        assert_eq!(
            binds(&message),
            ["These integrations are fake, so we should delete them."]
        );
        // Copied from a chat app that kept no blank line, closing as an
        // assistant closes in Korean ("tell me which, and I will lay out
        // its milestones for you"): it follows the user's first line.
        let lines: String = (1..=12)
            .map(|n| {
                format!(
                    " * 목표 {n}: 노드가 리더를 선출하고 데이터가 유실되지 않는 분산 DB 완성.\n"
                )
            })
            .collect();
        let message = format!(
            "저장 필수 gogs.\nKim님, 프로젝트 3가지를 엄선하여 추천합니다.\n{lines}가장 먼저 필요한 분야를 말씀해 주시면, 마일스톤을 바로 짜드리겠습니다. 🚀"
        );
        assert_eq!(binds(&message), ["저장 필수 gogs."]);
        // Or in Japanese ("tell me in a word which of A to D you want, and
        // I will write out the settings for it").
        let lines: String = (1..=12)
            .map(|n| format!("{n}) LINEで受けたメッセージをVOICEVOXで読み上げて返す\n"))
            .collect();
        let message = format!(
            "VOICEVOXはローカルで動かすこと\n\n{lines}\n必要なら次にそのまま進めるよ。やりたいのが A/B/C/Dのどれか を一言くれれば、その形に合わせて具体的な設定例まで出す。"
        );
        assert_eq!(binds(&message), ["VOICEVOXはローカルで動かすこと"]);
        // No words of its own mark it, but the user says after it where it
        // came from: what they wrote there is theirs.
        let message = format!(
            "The 3 Agents You Actually Need\n\n{steps}That is where the leverage is.\n\nThat is the pipeline. i'm using chatgpt to help me teach you. build the first agent now"
        );
        assert_eq!(binds(&message), ["build the first agent now"]);
        // An answer copied from its page, its citations gone ("… 90 days\n.
        // By …") and its buttons kept: the user's lead line binds, the
        // answer does not.
        let cited: String = (1..=12)
            .map(|n| format!("Teams must automate step {n} to double pipeline velocity within 90 days\n. Reps should log every call\n, as the data shows.\n\n"))
            .collect();
        let message = format!(
            "\n\ngenerate the final prompt pack and add this to my profile Executive Summary\n{cited}Show code\nSources scanned · 11\n"
        );
        assert_eq!(
            binds(&message),
            [
                "generate the final prompt pack",
                "add this to my profile Executive Summary"
            ]
        );
        // A reply that closes by telling the user to send its prompt on is
        // a brief for the agent.
        let brief = format!(
            "Michael, build me a dashboard.\n\nREQUIREMENTS:\n{steps}Lucy, copy that prompt and send it to Michael in your dashboard!"
        );
        assert!(binds(&brief).len() > 5, "{:?}", binds(&brief));
        // A policy the user had an assistant write for the agent, titled so
        // and closing as the assistant closes, is theirs to hold it to;
        // the same reply under a title that names no rules is handed over.
        let rules: String = (1..=24)
            .map(|n| format!("Agents must log step {n} with its artifact path.\n\n"))
            .collect();
        let policy = format!(
            "AGENT POLICY: LEAD PIPELINE\nPRIMARY OBJECTIVE\n\n{rules}If you want, I can also show you the one missing agent."
        );
        assert!(
            binds(&policy).contains(&"Agents must log step 3 with its artifact path.".to_owned()),
            "{:?}",
            binds(&policy)
        );
        let advice = format!(
            "The #1 Mistake That Makes Agents Sit Idle\n\n{rules}If you want, I can also show you the one missing agent."
        );
        assert!(binds(&advice).is_empty(), "{:?}", binds(&advice));
        // A reply the user adopts as what to build is theirs.
        let adopted = format!(
            "Ok this is what I am trying to build: Great vision! Here's the architecture for your platform:\n\n{steps}"
        );
        assert!(binds(&adopted).len() > 5, "{:?}", binds(&adopted));
        // An assistant's words deep inside a long paste are not where a
        // reply opens or closes: the message is judged as it stands.
        let log: String = (0..60)
            .map(|n| format!("14:{:02}\tAli\tI am at the bank {n}\n", n % 60))
            .collect();
        let chat = format!("Please keep this log safe and never delete it.\n\n{log}17:12\tAli\tWould you like me to buy anything?\n{log}");
        assert!(
            binds(&chat).contains(&"Please keep this log safe and never delete it.".to_owned()),
            "{:?}",
            binds(&chat)
        );
    }

    #[test]
    fn a_panel_copied_from_a_terminal_is_read_without_its_frame() {
        let lines = [
            "Plan - Statusline Roadmap",
            "",
            "1. Git Stash",
            "",
            "- Show the number of stashes after the branch name",
            "- Hide it when there are none",
            "",
            "2. Docker Containers",
            "",
            "- Show how many containers run, after the version",
        ];
        let framed: String = std::iter::once("╭──────────╮\n".to_owned())
            .chain(lines.iter().map(|line| format!("     │ {line:<60} │\n")))
            .chain(std::iter::once("     ╰──────────╯\n".to_owned()))
            .collect();
        let found = binds(&framed);
        assert!(
            found.contains(&"Show the number of stashes after the branch name".to_owned()),
            "{found:?}"
        );
        assert!(found.iter().all(|b| !b.contains('│')), "{found:?}");
        // A menu drawn amid a brief stays the drawing it is.
        assert_eq!(
            unframed(&format!(
                "Build this menu:\n{framed}\n{}",
                "Keep it fast.\n".repeat(12)
            )),
            None
        );
    }

    #[test]
    fn what_the_user_hands_the_agent_to_study_is_material_and_the_ask_binds() {
        let post = "1. OpenBB\n金融数据平台，面向分析师、量化研究员和 AI Agent\n2. ai-hedge-fund\n一个 AI 投资团队 Demo，用多 Agent 模拟投资决策\n3. backtrader\n经典 Python 回测框架，量化开发者绕不开的项目\n金融 AI 的机会，不只是让 AI 分析股票。\n这也是为什么 OpenBB、TradingAgents 这类项目值得重点研究。\n";
        assert_eq!(
            binds(&format!(
                "研究一下：金融 AI 开源项目，正在进入爆发期。\n{post}"
            )),
            ["研究一下：金融 AI 开源项目，正在进入爆发期。"]
        );
        // Without the lead, the list is what the user asks for.
        assert!(binds(&format!("必须包含以下项目：\n{post}")).len() > 1);
    }

    #[test]
    fn the_abilities_the_user_gives_the_agent_are_its_role_and_a_tools_a_description() {
        assert_eq!(
            binds("你具备处理一切事务的能力"),
            ["你具备处理一切事务的能力"]
        );
        assert_eq!(
            binds("还需具备每天主动学习GitHub上最新项目的能力。"),
            ["还需具备每天主动学习GitHub上最新项目的能力。"]
        );
        assert!(binds("这个库具备很强的扩展能力").is_empty());
    }

    #[test]
    fn the_users_prompt_copied_back_from_the_terminal_is_read_as_typed() {
        let copy = "❯ 请你检查当前分支的所有改动，具体可以看      \n  ./ai/intent/dynamic-price.md文档； 新功能测试需要包括滑  \n  点设置组件的交互是否正常   ";
        assert_eq!(
            prompt_copy(copy).as_deref(),
            Some("请你检查当前分支的所有改动，具体可以看 ./ai/intent/dynamic-price.md文档； 新功能测试需要包括滑点设置组件的交互是否正常")
        );
        assert!(!binds(copy).is_empty());
        // A prompt mark before a command the user ran is no copy of theirs.
        assert_eq!(
            prompt_copy("❯ cargo test\nrunning 3 tests\ntest a ... ok"),
            None
        );
        // A prompt of one line, in words no command is named with.
        let one = "❯ 帮我在设计一个记事本网页,他在内网不用联网可以使用，主要帮我记录不同产品每天的交易日志";
        assert_eq!(prompt_copy(one).as_deref(), Some(&one["❯ ".len()..]));
        assert!(!binds(one).is_empty());
        assert_eq!(prompt_copy("❯ npm test"), None);
    }

    #[test]
    fn a_line_of_zero_width_spaces_parts_paragraphs_as_a_blank_line_does() {
        let text = "- 把30分钟一次的监控改成5分钟一次\n\u{200b}\n- 所有买卖均加0.5%固定滑点\n \u{200b} \n- 同一股票当日仅允许开仓1次";
        assert_eq!(
            binds(text),
            [
                "把30分钟一次的监控改成5分钟一次",
                "所有买卖均加0.5%固定滑点",
                "同一股票当日仅允许开仓1次"
            ]
        );
    }

    #[test]
    fn a_chat_log_pasted_after_the_users_words_is_handed_over() {
        let found = binds("Make the chat look more like Telegram. [15:14] System: Welcome to Simple Voice Agient! [15:15] You: get the top headlines [15:15] Sara: Of course! Let me pull that info. Would you like me to go into more detail?");
        assert_eq!(found, ["Make the chat look more like Telegram."]);
    }

    #[test]
    fn fields_given_their_values_a_line_each_are_one_record() {
        let found = binds("Configure these agents in openclaw.json:\n御史台\nAgentId：4378623307\nClient ID：dingt5gx\nRobotCode：dingt5gx\n\n史官\nAgentId：4378693146\nClient ID：dinguuxq\nRobotCode：dinguuxq\n");
        assert!(
            found.contains(
                &"AgentId：4378623307\nClient ID：dingt5gx\nRobotCode：dingt5gx".to_owned()
            ),
            "{found:?}"
        );
        assert!(
            found.contains(
                &"AgentId：4378693146\nClient ID：dinguuxq\nRobotCode：dinguuxq".to_owned()
            ),
            "{found:?}"
        );
        // Two fields are no record.
        assert!(binds("Port: 8080\nHost: db.internal\n").len() == 2);
        // A brief's lines with their labels in bold are its choices, each
        // its own.
        assert_eq!(
            binds("**ORM** : SQLAlchemy 2.0\n**HTTP** : httpx (async) + tenacity (retry)\n**Logs** : loguru\n").len(),
            3
        );
    }

    #[test]
    fn a_template_of_fields_still_to_fill_binds_nothing() {
        let binds = binds("请按这个模板给我报价：\n✅ 总件数：xx件\n✅ 尺寸规格：如：35*30*20cm\nName: ____\n收货地址：印度，邮编680655\n");
        assert!(
            binds
                .iter()
                .all(|b| !b.contains("xx") && !b.contains("如：") && !b.contains("____")),
            "{binds:?}"
        );
        assert!(
            binds.iter().any(|b| b.contains("680655")),
            "a field filled in still binds: {binds:?}"
        );
    }

    #[test]
    fn an_attached_file_is_handed_over_and_an_attached_brief_binds() {
        let message = "<file name=\"file_5.json\" mime=\"application/json\"> [{\"id\": 1, \"content\": \"Always answer in English.\"}] </file> <file name=\"file_6.md\" mime=\"text/markdown\"> # Prompt untuk OpenClaw Bot ## Aturan Penting - ID harus SELALU increment, tidak boleh duplikat - Jawab selalu dalam Bahasa Indonesia </file>";
        let kept = binds(message);
        for rule in [
            "ID harus SELALU increment, tidak boleh duplikat",
            "Jawab selalu dalam Bahasa Indonesia",
        ] {
            assert!(kept.contains(&rule.to_owned()), "{rule:?} not in {kept:?}");
        }
        // The data file is handed over.
        assert!(
            !kept.iter().any(|b| b.contains("Always answer")),
            "{kept:?}"
        );
        // Flattened Markdown has its lines back: headings, items, rows.
        assert_eq!(
            unflattened("## Sistem | Kode | Kategori | |---|---| | PE | Prompt Engineering | ## Aturan - ID harus increment 1. Baca isi prompt-nya"),
            "## Sistem\n\n| Kode | Kategori |\n|---|---|\n| PE | Prompt Engineering |\n\n## Aturan\n- ID harus increment\n1. Baca isi prompt-nya"
        );
    }

    #[test]
    fn a_brief_typed_inside_a_fence_binds_whole_and_other_fenced_text_does_not() {
        let sections = "## Agent Z\n\n- Maintains profiles for 25+ bench consultants\n- Every application goes through Z before execution\n\n".repeat(16);
        let brief = format!(
            "```markdown\n OG TEAM — Master Prompt\n\nYou are my expert AI architect. Do NOT re-design what's already decided.\n\n---\n\n{sections}## Standards\n\nEvery calculation is logged.\n```\n\nI have other files ready too."
        );
        assert!(brief.len() >= 1500);
        let kept = binds(&brief);
        for rule in [
            "Do NOT re-design what's already decided.",
            "Every application goes through Z before execution",
            // A brief states its design as facts: each is a rule.
            "Every calculation is logged.",
        ] {
            assert!(kept.contains(&rule.to_owned()), "{rule:?} not in {kept:?}");
        }
        // A short message that calls the agent something is no brief.
        assert!(!binds("You are a genius. The weather is nice today.")
            .iter()
            .any(|b| b.contains("weather")),);
        // A fenced document that is no brief stays code.
        let readme = format!("look at this:\n\n```markdown\n# ClawDeck\n\n{sections}```");
        assert!(
            !binds(&readme)
                .iter()
                .any(|b| b.contains("before execution")),
            "{readme}"
        );
        assert_eq!(fenced_brief(&readme), None);
        // A brief with a diagram fenced bare inside it ends at the last
        // fence; the diagram stays code.
        let nested = "```markdown\nYou are my expert AI architect.\n```\nZ --> Jay\n```\nAll communication flows through EM.\n```\nthanks";
        assert_eq!(
            fenced_brief(nested).as_deref(),
            Some("You are my expert AI architect.\n```\nZ --> Jay\n```\nAll communication flows through EM.\nthanks")
        );
        // A block of code after a brief is its own.
        let after =
            "```markdown\nYou are my expert AI architect.\n```\nthen run:\n```bash\nmake\n```";
        assert_eq!(
            fenced_brief(after).as_deref(),
            Some("You are my expert AI architect.\nthen run:\n```bash\nmake\n```")
        );
    }

    #[test]
    fn a_document_pasted_with_its_lines_flattened_is_handed_over() {
        let sections = "## Your workflow 1. Call `GET /tasks?assigned=true` to get tasks assigned to you 2. Pick the first task (oldest assignment) 3. Move it to \"in_progress\" and start working ".repeat(8);
        let message = format!(
            "can we spin up a agent? Keep it on my laptop. I found this: # ClawDeck — Your Task Dashboard ClawDeck is where your human manages your work queue. {sections}## Tips - When stuck, mark blocked — your human will unblock you"
        );
        assert!(message.len() >= 1500);
        let kept = binds(&message);
        assert!(
            kept.contains(&"Keep it on my laptop.".to_owned()),
            "{kept:?}"
        );
        assert!(
            !kept.iter().any(|b| b.contains("Pick the first task")),
            "{kept:?}"
        );
        // A brief written so binds.
        let brief = format!("Read this first. # Task You are the MAIN agent. Your task is to harden the importer. {sections}");
        let brief = binds(&brief);
        assert!(
            brief.iter().any(|b| b.contains("Pick the first task")),
            "{brief:?}"
        );
    }

    #[test]
    fn a_document_starts_at_its_first_heading_not_at_a_list_marked_with_hashes() {
        let filler = "上述是常规流程的操作，但是经常会遇到下面的异常边界情况。".repeat(20);
        let message = format!(
            "{filler}\n请根据我的需求设计一套日志排查的skill。要求：\n# 通用的排查机制能力可复用所有的功能模块\n# 可解决上述提到的异常边界情况\n\n## 阶段一：标准分析流程\n\n1. 在项目中搜索相关的日志打印代码\n\n## 阶段二：异常边界情况处理\n\n2. 扩展时间窗口\n"
        );
        assert!(message.len() >= 1500);
        let binds = binds(&message);
        assert!(
            binds.contains(&"通用的排查机制能力可复用所有的功能模块".to_owned()),
            "{binds:?}"
        );
        assert!(
            binds.contains(&"可解决上述提到的异常边界情况".to_owned()),
            "{binds:?}"
        );
        // What follows the first heading is the document handed over.
        assert!(
            !binds.iter().any(|b| b.contains("日志打印代码")),
            "{binds:?}"
        );
    }

    #[test]
    fn a_message_that_is_a_brief_written_as_a_document_binds() {
        let phases: String = (1..=40)
            .map(|n| {
                // Nested under the item's text, however wide its number.
                let indent = " ".repeat(format!("{n}. ").len());
                format!("{n}. **Collector {n}**\n{indent}- search by name\n{indent}- keep the raw page\n")
            })
            .collect();
        let brief = format!(
            "# System prompt — StratWatch\n\nYour task is to build StratWatch on a Raspberry Pi.\n\n## Phases\n\n{phases}\n## Rules\n\n- Docstrings in Google style\n"
        );
        assert!(brief.len() >= 1500);
        let binds = binds(&brief);
        assert!(
            binds.iter().any(|b| b.starts_with("Your task is")),
            "{binds:?}"
        );
        assert!(
            binds.iter().any(|b| b.starts_with("**Collector 40**")),
            "{binds:?}"
        );
        assert!(
            binds.contains(&"Docstrings in Google style".to_owned()),
            "{binds:?}"
        );
    }

    #[test]
    fn a_prompt_for_the_agent_handed_over_after_the_users_words_binds() {
        let rules: String = (1..=40)
            .map(|n| format!("- Rule {n}: no print(), use the Rich console\n"))
            .collect();
        let message = format!(
            "¡Perfecto! Ya tienes auth funcionando. Aquí el prompt para Claude:\n\n# PROMPT FOR CLAUDE\n\n## Context\nYou are a senior software engineer building CLI tools.\n\n## Requirements\n\n{rules}"
        );
        assert!(message.len() >= 1500);
        let binds = binds(&message);
        assert!(binds.iter().any(|b| b.starts_with("Rule 40")), "{binds:?}");
        // A report handed over after the user's words stays material.
        let report = message
            .replace("# PROMPT FOR CLAUDE", "# Incident report")
            .replace(
                "You are a senior software engineer building CLI tools.",
                "The service went down at noon.",
            );
        assert!(
            !self::binds(&report)
                .iter()
                .any(|b| b.starts_with("Rule 40")),
            "{:?}",
            self::binds(&report)
        );
    }

    #[test]
    fn what_the_user_writes_after_a_document_they_quoted_is_theirs() {
        let sections: String = (1..=30)
            .map(|n| {
                format!(
                    "## Section {n}\nThe orderbook keeps every bid encrypted until settlement.\n\n"
                )
            })
            .collect();
        let message = format!(
            "use the sdk you have studied and build this stuff \"# Comprehensive research: private OTC\n\n{sections}---\" BUILD SOMETHING SIMILAR TO THIS THAT WORKS\nNO COMMENTS ON MY CODE"
        );
        let binds = binds(&message);
        assert!(
            binds.contains(&"NO COMMENTS ON MY CODE".to_owned()),
            "{binds:?}"
        );
        assert!(!binds.iter().any(|b| b.contains("orderbook")), "{binds:?}");
    }

    #[test]
    fn build_this_under_a_list_makes_the_list_binding() {
        let message = "Visual flow builder with drag-and-drop — sequences are linear only\nLive chat inbox (real-time DM inbox inside the app)\nOpt-in widgets and ref links for bio\n\nBuild this.";
        let listed = binds(message);
        assert!(
            listed.iter().any(|b| b.starts_with("Live chat inbox")),
            "{listed:?}"
        );
        assert!(listed.contains(&"Build this.".to_owned()), "{listed:?}");
        // Alone, it approves what the agent proposed: spent once done.
        assert!(binds("Build this.").is_empty());
        // What opens each paragraph of the list is asked for; the remarks
        // after it in the paragraph only comment.
        let tiers = "Custom Fields on Contacts — store email, phone and city per contact. ManyChat charges for this.\n\nBroadcast Scheduler — pick a date and time to send. Massive for content creators.\n\nYeah try building this";
        let listed = binds(tiers);
        assert!(
            listed
                .iter()
                .any(|b| b.starts_with("Custom Fields on Contacts")),
            "{listed:?}"
        );
        assert!(
            listed.iter().any(|b| b.starts_with("Broadcast Scheduler")),
            "{listed:?}"
        );
        assert!(
            !listed.iter().any(|b| b.starts_with("ManyChat charges")),
            "{listed:?}"
        );
        // After the user's own report, it asks for the fix.
        let reported = binds("Bro, when I'm logging in with Google or creating a new account, an error is coming. Fix it now.");
        assert!(reported.contains(&"Fix it now.".to_owned()), "{reported:?}");
    }

    #[test]
    fn words_typed_where_a_pasted_log_starts_or_ends_are_the_users() {
        // Typed after the last line of the log, on the same line.
        let after = "mira el usuario entro al chat pero no estaba logueado:\nINFO:     Application startup complete.\nINFO:     130.211.236.75:19674 - \"GET /auth/me HTTP/1.1\" 403 Forbidden\nINFO:     130.211.236.75:16671 - \"POST /v1/chat/completions HTTP/1.1\" 403 Forbidden tienes que verificar eso, debes pedirle que se loguee";
        let binds = binds(after);
        assert!(
            binds.iter().any(|b| b.contains("tienes que verificar eso")),
            "{binds:?}"
        );
        assert!(!binds.iter().any(|b| b.contains("INFO")), "{binds:?}");
        // A clause of Chinese typed after a log the channel flattened to
        // one line.
        let flattened = "$ git push -u origin main error: src refspec main does not match any error: failed to push some refs to 'https://github.com/acme/app.git 帮我看一下，我想推送远程仓库怎么总是不成功";
        assert_eq!(
            self::binds(flattened),
            ["帮我看一下，我想推送远程仓库怎么总是不成功"]
        );
        // Typed before the first thing of the log, on the same line.
        let before = "when I open the settings page the list does not show the columns: chat$ fmind\nTraceback (most recent call last):\n  File \"tui.py\", line 370, in _run\nAttributeError: 'ModelSelectScreen' object has no attribute 'call_from_thread'";
        let binds = self::binds(before);
        assert!(
            binds
                .iter()
                .any(|b| b.starts_with("when I open the settings page")),
            "{binds:?}"
        );
        // A line of words amid the output is the output's own: a help
        // screen's "Show this message and exit." asks nothing of the agent.
        let help = "mira:\nUsage: fmind [OPTIONS] COMMAND [ARGS]...\n│ --install-completion          Install completion for the current shell.\n│ --help                        Show this message and exit.\n│ login       Log in to a FactoryMind server.\n\nwhy does register fail?";
        assert!(self::binds(help).is_empty(), "{:?}", self::binds(help));
    }

    #[test]
    fn lines_a_process_stamped_are_its_output() {
        let message = "mira lo que dice el cliente:\n(APIServer pid=75986)  File\n(APIServer pid=75986)     raise OSError(\n(APIServer pid=75986) OSError: casperhansen/llama-3.1-8b-instruct-awq is not a\nlocal folder\n(APIServer pid=75986) If this is a private repository, make sure to pass a\ntoken having permission\nremote: Resolving deltas: 100% (15/15), completed with 13 local objects.\nTo https://github.com/Quiago/tripolar-chat.git\n\nlos errores deben salir en la terminal del server";
        let binds = binds(message);
        assert_eq!(binds, ["los errores deben salir en la terminal del server"]);
    }

    /// A design of `sections` sections under its own title, each
    /// describing an agent, with the rules `rules` among them.
    fn design(sections: usize, rules: &str) -> String {
        let mut text = String::from(
            "# ACME — ARCHITECTURE MULTI-AGENT\n## Système de qualification d'idées\n\n**Version** : 1.0 | **Stack** : n8n + PostgreSQL\n\n",
        );
        for n in 1..=sections {
            text.push_str(&format!(
                "## {n}. AGENT {n}\n\n**Rôle** : Accueille l'idée, confirme la compréhension, pose le cadre.\n**Input** : Message brut du porteur (texte, fichier, document)\n**Output** : Message de confirmation + JSON structuré en DB\n**Done** : Reformulation validée à 90% sur 20 tests de cas variés\n\n| Métrique | Cible | Mesure |\n|---|---|---|\n| Taux output JSON valide | > 95% | Logs DB |\n\n",
            ));
        }
        text.push_str(rules);
        text
    }

    #[test]
    fn a_specification_handed_over_binds_what_it_asks_or_forbids_not_what_it_describes() {
        let rules = "## RÈGLES\n\n- Ne jamais avoir deux webhooks Telegram actifs simultanément\n- Si version < 13.11 → STOP et me le signaler avant de continuer.\n- Review humaine obligatoire avant envoi labo.\n";
        let text = design(10, rules);
        assert!(text.len() >= SPEC, "{}", text.len());
        let bound = binds(&text);
        assert_eq!(
            bound,
            [
                "Ne jamais avoir deux webhooks Telegram actifs simultanément",
                "Si version < 13.11 → STOP et me le signaler avant de continuer.",
                "Review humaine obligatoire avant envoi labo.",
            ]
        );
        // A ticket that speaks to the agent sets its steps too.
        let ticket = design(10, "## À FAIRE\n\nTu as reçu le schéma.\n\n- Créer un nouveau workflow n8n : `XO__CoreEngine__v1`\n");
        assert!(binds(&ticket)
            .iter()
            .any(|b| b == "Créer un nouveau workflow n8n : `XO__CoreEngine__v1`"));
        // Short, it is the user's own brief, each line of it theirs.
        let short = design(2, rules);
        assert!(short.len() < SPEC);
        assert!(binds(&short).len() > 3, "{:?}", binds(&short));
        // A brief written to the agent stays one.
        let brief = format!(
            "# Prompt for the agent\n\n{}",
            &text[text.find("## 1.").unwrap_or(0)..]
        );
        assert!(binds(&brief).len() > 3);
    }

    #[test]
    fn a_document_that_only_describes_binds_only_its_rules() {
        let section = "Debt Tokenization\n• Physical and Digital Debt: the market converts both traditional\ndebts like loans or mortgages and digital debts into tokenized\nassets, which are tradable on the exchange.\n• Debt as a Tradeable Asset: once tokenized, these debts can be freely\nbought or sold on the marketplace.\n\n";
        let text = format!(
            "The Debt Collection mechanism is a key feature of the Block Market that\nallows the conversion, buying and selling of debt.\n\n{}Use Cases\n\n• Every repayment must be recorded on chain.\n",
            section.repeat(8)
        );
        assert!(text.len() >= DESCRIBED, "{}", text.len());
        assert_eq!(binds(&text), ["Every repayment must be recorded on chain."]);
        // Said by the user, it is theirs.
        let said = format!("I want to build this:\n\n{text}");
        assert!(binds(&said).len() > 1, "{:?}", binds(&said));
    }

    #[test]
    fn a_block_of_code_in_a_brief_is_what_to_build() {
        let settings =
            "scan:\n  interval_minutes: 30\n  sources: [rss, pappers]\nalerts:\n  channel: telegram";
        let block = format!("```yaml\n{settings}\n```");
        let brief = format!(
            "# PROMPT SYSTÈME — StratWatch Developer Agent\n\nTu es un agent développeur. Ta mission est de construire StratWatch, une plateforme de veille sur Raspberry Pi.\n\n## Configuration\n\nLe fichier settings.yaml :\n\n{block}\n\n## Règles\n\n{}",
            "- Chaque collecteur écrit ses erreurs dans les logs.\n".repeat(20)
        );
        assert!(brief.len() >= 1000);
        assert!(
            binds(&brief).iter().any(|b| b == settings),
            "{:?}",
            binds(&brief)
        );
        // Code pasted in a message that is no brief stays the user's material.
        let pasted = format!("Why does this fail to load?\n\n{block}");
        assert!(!binds(&pasted).iter().any(|b| b == settings));
    }

    #[test]
    fn then_in_portuguese_opens_a_clause_of_its_own() {
        assert_eq!(
            binds("Use modo planejamento com ultrathink, depois revise o plano contra erros lógicos e encontre pontos de melhoria, depois aguarde confirmacao para continuar."),
            [
                "Use modo planejamento com ultrathink",
                "depois revise o plano contra erros lógicos e encontre pontos de melhoria",
                "depois aguarde confirmacao para continuar.",
            ]
        );
    }

    #[test]
    fn an_error_report_a_framework_copies_is_handed_over() {
        let text = "## Error Type\nConsole Error\n\n## Error Message\nA tree hydrated but some attributes of the server rendered HTML didn't match the client properties. This can happen if a SSR-ed Client Component used:\n\n- A server/client branch `if (typeof window !== 'undefined')`.\n- Variable input such as `Date.now()` or `Math.random()` which changes each time it's called.\n- Invalid HTML tag nesting.\n\nhttps://react.dev/link/hydration-mismatch\n\n    at RootLayout (src/app/layout.tsx:26:5)\n\n## Code Frame\n  24 | }>) {\n> 26 |     <html lang=\"en\">\n\nNext.js version: 16.1.6 (Turbopack)";
        assert!(binds(text).is_empty(), "{:?}", binds(text));
        let asked = format!("Fix this hydration error, keep the French locale:\n{text}");
        assert_eq!(
            binds(&asked),
            ["Fix this hydration error, keep the French locale:"]
        );
    }

    #[test]
    fn a_document_pasted_with_its_line_breaks_lost_is_handed_over() {
        let text = "Project Plan: High-Resolution Nutrient Budgeting Service for UK Dairy FarmsObjective: To develop and pilot a market-leading nutrient budgeting service that provides farmers with precise, actionable insights.1.0 Phase 1: System Mapping (Months 1-2)This phase focuses on defining the framework and mapping the nutrient pathways within a dairy farm system.Action 1.1: Define Key Operational Units:Task: Move beyond a simple farm gate balance by identifying the distinct operational units.KOUs to Map:Individual Fields: Differentiated by use (grazing platform, silage ground, maize).Livestock Groups: Milking herd, dry cows, youngstock.Feed Stores: Silage clamps, concentrate stores.Manure Management: Slurry lagoons, farmyard manure heaps.Outputs: Milk, livestock sales, crop sales.Loss Pathways: Watercourses, drainage, atmospheric loss points.Action 1.2: Map Nutrient Pathways:Task: Create a detailed flow diagram illustrating the movement of key nutrients between the identified units, which will be the blueprint for the data model and its first release to the pilot farms.2.0 Phase 2: Data Protocols (Months 3-6)This phase defines the methods, frequency and precision of the data each unit needs.Action 2.1: Establish Data Protocols:Task: Define how often feed, milk and manure are measured, and by whom, on each of the pilot farms.Action 2.2: Develop Data Ingestion Tools:Task: Create mechanisms to capture this data efficiently, from milk records to feed invoices.Smart Spreadsheets: Structured templates for easy data upload.Action 3.1: Recruit Pilot Farms:Task: Select five to seven progressive dairy farms with a reputation for good record keeping.";
        assert!(text.len() >= 1500, "{}", text.len());
        assert!(binds(text).is_empty(), "{:?}", binds(text));
        // Typed on one line by the user, with a few joins, it is theirs.
        let typed = "Please fix the parser.Then run the tests and make sure the build passes; keep src/legacy/parser_v2.py as it is.";
        assert!(!binds(typed).is_empty());
    }

    #[test]
    fn words_typed_after_the_last_line_of_a_sqlalchemy_error_are_the_users() {
        let text = "Traceback (most recent call last):\n  File \"/home/q/venv/lib/python3.12/site-packages/sqlalchemy/engine/default.py\", line 952, in do_execute\n    cursor.execute(statement, parameters)\nsqlalchemy.exc.OperationalError: (sqlite3.OperationalError) attempt to write a readonly database\n[SQL: INSERT INTO user (id, username) VALUES (?, ?)]\n[parameters: ('68c4b7a4', 'carlos')]\n(Background on this error at: https://sqlalche.me/e/20/e3q8) actua como un senior engineer en backend para resolver este probema con buenas practicas";
        assert_eq!(
            binds(text),
            ["actua como un senior engineer en backend para resolver este probema con buenas practicas"]
        );
    }
}

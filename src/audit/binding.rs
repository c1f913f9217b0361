//! Whether a unit the user typed binds the agent. A request, a rule, a
//! choice, a value binds; a question asking for information, an
//! acknowledgement or reaction spent as it is read, a heading, a pasted log
//! does not. Those are set apart — counted and listed on request, never
//! reported as lost and never given back to the model as a commitment that
//! still holds. A directive is never set apart: when in doubt, it binds.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::units::{Shape, Unit};
use crate::verify::text::Words;

/// Why a unit does not bind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NotBinding {
    /// It asks for information.
    Question,
    /// An acknowledgement, reaction, greeting or control word, spent as it
    /// is read ("ok", "thanks", "continue", "go ahead").
    Acknowledgement,
    /// Markdown with nothing to hold: a heading, a table header, raw HTML.
    Debris,
    /// Data the user handed over: a log, an error, a quoted text.
    Pasted,
    /// Too few words to hold anything once out of its place.
    Fragment,
    /// A remark that asks nothing of the agent: an observation, a
    /// reaction, a thought aloud ("export looks good now").
    Remark,
    /// A command to the runtime with nothing after it (`/compact`, `/config`).
    Command,
}

impl NotBinding {
    /// `question`, `acknowledgement`, `debris`, `pasted`, `fragment`,
    /// `remark`, `command`.
    pub fn name(self) -> &'static str {
        match self {
            NotBinding::Question => "question",
            NotBinding::Acknowledgement => "acknowledgement",
            NotBinding::Debris => "debris",
            NotBinding::Pasted => "pasted",
            NotBinding::Fragment => "fragment",
            NotBinding::Remark => "remark",
            NotBinding::Command => "command",
        }
    }
}

/// Words that, all alone, make an acknowledgement, a reaction or a control
/// word: nothing of them outlives the turn they are read in.
const SPENT: &[&str] = &[
    "ok",
    "okay",
    "k",
    "kk",
    "yes",
    "yeah",
    "yep",
    "yup",
    "ya",
    "yea",
    "sure",
    "no",
    "nope",
    "nah",
    "thanks",
    "thank",
    "you",
    "thx",
    "ty",
    "great",
    "perfect",
    "nice",
    "cool",
    "good",
    "awesome",
    "excellent",
    "amazing",
    "wonderful",
    "lovely",
    "fantastic",
    "brilliant",
    "lgtm",
    "continue",
    "proceed",
    "go",
    "ahead",
    "on",
    "do",
    "it",
    "that",
    "this",
    "please",
    "pls",
    "plz",
    "keep",
    "going",
    "sounds",
    "looks",
    "fine",
    "right",
    "correct",
    "exactly",
    "done",
    "alright",
    "agreed",
    "approve",
    "approved",
    "let's",
    "lets",
    "wow",
    "hmm",
    "hi",
    "hello",
    "hey",
    "lol",
    "haha",
    "oops",
    "pause",
    "here",
    "stop",
    "wait",
    "try",
    "again",
    "retry",
    "now",
    "then",
    "and",
    "so",
    "all",
    "good",
    "work",
    "job",
    "well",
    "very",
    "much",
    "a",
    "the",
    "ahh",
    "ah",
    "oh",
    "yes,",
    "y",
    "n",
    "ja",
    "nein",
    "danke",
    "gut",
    "super",
    "weiter",
    "mach",
    "genau",
    "bitte",
    "passt",
    "jetzt",
    "und",
    "das",
    "es",
    "is",
    "great!",
    "cheers",
    "indeed",
    "ofc",
    "course",
    "of",
    "absolutely",
    "definitely",
    "go!",
    "yolo",
    "ack",
    "noted",
    "understood",
    "got",
    "gotcha",
    "resume",
    "start",
    "implementing",
    "begin",
    "ready",
    "fire",
    "away",
];

/// Verbs that open an instruction: a unit that starts with one (after
/// "ok", "now", "also", "please" and the like) asks the agent to act.
const IMPERATIVES: &[&str] = &[
    "add",
    "adjust",
    "allow",
    "analyze",
    "analyse",
    "apply",
    "ask",
    "avoid",
    "build",
    "bump",
    "call",
    "change",
    "check",
    "choose",
    "clean",
    "clear",
    "close",
    "comment",
    "commit",
    "compare",
    "compile",
    "configure",
    "consider",
    "continue",
    "convert",
    "copy",
    "create",
    "debug",
    "decrease",
    "define",
    "delete",
    "deploy",
    "describe",
    "design",
    "disable",
    "display",
    "do",
    "document",
    "download",
    "draft",
    "drop",
    "edit",
    "enable",
    "ensure",
    "exclude",
    "execute",
    "expand",
    "explain",
    "export",
    "extend",
    "extract",
    "fetch",
    "figure",
    "fill",
    "find",
    "finish",
    "fix",
    "focus",
    "follow",
    "format",
    "generate",
    "give",
    "go",
    "group",
    "handle",
    "hide",
    "highlight",
    "ignore",
    "implement",
    "import",
    "improve",
    "include",
    "increase",
    "inline",
    "insert",
    "install",
    "integrate",
    "investigate",
    "keep",
    "kill",
    "launch",
    "leave",
    "limit",
    "link",
    "lint",
    "list",
    "load",
    "log",
    "look",
    "lower",
    "make",
    "mark",
    "merge",
    "migrate",
    "mock",
    "modify",
    "move",
    "name",
    "note",
    "open",
    "optimize",
    "output",
    "pass",
    "paste",
    "pick",
    "pin",
    "plan",
    "point",
    "pose",
    "post",
    "prefer",
    "prepare",
    "print",
    "prioritize",
    "proceed",
    "prototype",
    "publish",
    "pull",
    "push",
    "put",
    "raise",
    "read",
    "rebase",
    "rebuild",
    "record",
    "reduce",
    "refactor",
    "refer",
    "reference",
    "release",
    "reload",
    "remember",
    "remove",
    "rename",
    "render",
    "reorder",
    "replace",
    "reply",
    "report",
    "rerun",
    "re-run",
    "research",
    "reset",
    "resolve",
    "restart",
    "restore",
    "restructure",
    "resume",
    "retry",
    "return",
    "reuse",
    "revert",
    "review",
    "rewrite",
    "run",
    "save",
    "scan",
    "search",
    "select",
    "send",
    "separate",
    "set",
    "setup",
    "show",
    "simplify",
    "skip",
    "sort",
    "spawn",
    "specify",
    "split",
    "squash",
    "start",
    "stash",
    "stick",
    "stop",
    "store",
    "strip",
    "submit",
    "summarize",
    "swap",
    "switch",
    "sync",
    "tag",
    "take",
    "tell",
    "test",
    "throw",
    "toggle",
    "track",
    "trim",
    "try",
    "turn",
    "tweak",
    "undo",
    "unify",
    "update",
    "upgrade",
    "upload",
    "use",
    "validate",
    "verify",
    "wait",
    "wrap",
    "write",
    // German instructions, for sessions typed in it.
    "erstelle",
    "mach",
    "mache",
    "nutze",
    "verwende",
    "prüfe",
    "schau",
    "nimm",
    "füge",
    "lösche",
    "entferne",
    "baue",
    "schreibe",
    "teste",
    "starte",
    "zeige",
    "gib",
    "installiere",
    "benenne",
    "nenne",
    "speichere",
    "ändere",
    "passe",
    "behalte",
    "denk",
    "denke",
    "lies",
    "lege",
    "halte",
    "führe",
    "stelle",
    "such",
    "suche",
    "recherchiere",
    "implementiere",
    "committe",
    "pushe",
    "verschiebe",
    "merke",
    "analysiere",
    "transferiere",
    "fasse",
    "aktualisiere",
    "überprüfe",
    "kopiere",
    "öffne",
    "schließe",
    "sende",
    "schick",
    "schicke",
    "erkläre",
    "beschreibe",
    "ergänze",
    "integriere",
    "korrigiere",
    "behebe",
    "richte",
    "konfiguriere",
    "lade",
    "hole",
];

/// Words that ask something of the agent even in a sentence put as a
/// question ("should we drop it?", "can you add …?").
static STRONG: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)\b(please|pls|plz|must|should|shall|need\s+to|needs\s+to|needs\s+an?|have\s+to|has\s+to|want\s+you|i'd\s+like|i\s+would\s+like|let's|make\s+sure|can\s+you|could\s+you|would\s+you|will\s+you|can\s+we|could\s+we|we\s+need|wichtig|important|bitte|sollte|solltest|sollen|soll|muss|müssen|kannst\s+du|könntest\s+du)\b",
    )
    .expect("the strong directive pattern compiles")
});

/// Words of a unit that make it ask something of the agent wherever they
/// stand: modals of obligation, preferences, prohibitions.
static DIRECTIVE: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)\b(please|pls|plz|must|mustn't|should|shouldn't|shall|need\s+to|needs\s+to|needs\s+an?|have\s+to|has\s+to|got\s+to|gotta|want\s+(you|to|it|the|this|that|a|an)|wanna|i'd\s+like|i\s+would\s+like|i'd\s+prefer|i\s+prefer|prefer\s|i\s+like|let's|lets|make\s+sure|ensure|can\s+you|could\s+you|would\s+you|will\s+you|can\s+we|could\s+we|we\s+need|we\s+should|instead|rather\s+than|never|always|don't|do\s+not|no\s+more|avoid|go\s+with|option\s+\d|would\s+be\s+(nice|great|good|better|cool|ideal)|nice\s+to\s+have|i'd\s+love|i\s+wonder\s+if|important|crucial|bitte|möchte|möchten|sollte|solltest|sollst|soll|sollen|muss|müssen|musst|brauche|brauchen|wollen|wichtig|stelle\s+sicher|lass\s+uns|nicht\s+mehr|niemals|immer|kannst\s+du|könntest\s+du|würdest\s+du|wäre\s+mir)\b",
    )
    .expect("the directive pattern compiles")
});

/// What a unit may open with before its instruction: interjections and
/// linking words ("ok, now also run it").
static LEAD: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)^(\W*(ok|okay|alright|all\s+right|ah|oh|so|and|also|now|then|next|first|btw|actually|well|hmm|great|good|nice|perfect|cool|thanks|thank\s+you|yes|yeah|yep|no|nope|sure|right|just|finally|again|pls|please|ja|nein|gut|super|danke|und|dann|jetzt|also|bitte|\d+[.)])\b[\s,.!:-]*)+",
    )
    .expect("the lead pattern compiles")
});

/// Whether the unit asks the agent to act or to hold to something: it opens
/// with an instruction, or says it must, should, never, always …
pub(crate) fn directive(text: &str) -> bool {
    if DIRECTIVE.is_match(text) || PROHIBITION.is_match(text) {
        return true;
    }
    let rest = LEAD.find(text).map_or(text, |lead| &text[lead.end()..]);
    if REQUEST_FORM.is_match(rest) {
        return true;
    }
    let first = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .find(|w| !w.is_empty())
        .unwrap_or_default()
        .to_lowercase();
    IMPERATIVES.contains(&first.as_str())
        || (first.chars().count() >= 5
            && IMPERATIVES
                .iter()
                .any(|verb| verb.len() >= 5 && strsim::damerau_levenshtein(verb, &first) == 1))
}

/// A short ban: "no deprecation alias!", "no console logs".
static PROHIBITION: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)^\W*no\s+[\w-]+(\s+[\w-]+){0,2}\s*[!.]*\s*$")
        .expect("the prohibition pattern compiles")
});

/// How a request is put as a question: it binds.
static REQUEST_FORM: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)^\W*(can|could|would|will|won't|wouldn't|shall)\s+(you|u|we|ya)\b|^\W*(why\s+(don't|dont|not)|how\s+about|what\s+about|please|pls|mind\s|do\s+you\s+mind|is\s+it\s+possible\s+to|would\s+it\s+be\s+possible|let's|lets|make\s+sure|ensure|can\s+(there|it|this|that)\s+be)\b",
    )
    .expect("the request pattern compiles")
});

/// How a question for information opens, with or without its `?`.
static QUESTION_FORM: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(
        r"(?i)^\W*((what|why|how|where|when|which|who|whose)('s|\s+(is|are|was|were|do|does|did|can|could|would|should|will|has|have|had|the|we|you|i|it|its|this|that|about|much|many|long|come|exactly|else))\b|(is|are|was|were|do|does|did|has|have|had)\s+(it|we|you|they|there|this|that|the|i|he|she)\b)",
    )
    .expect("the question pattern compiles")
});

/// Whether `unit` of `message` binds; `Err` says why not. `answering` is
/// whether the agent's message before it asked the user something, so a
/// short reply is a choice, not a fragment.
pub(crate) fn binding(unit: &Unit, message: &str, answering: bool) -> Result<(), NotBinding> {
    let text = unit.text(message);
    match unit.shape {
        Shape::Heading | Shape::Html => return Err(NotBinding::Debris),
        Shape::Quote => return Err(NotBinding::Pasted),
        Shape::Code => {
            let lines = text.lines().count();
            return if lines > 3 || super::units::PASTED_LINE.is_match(text) {
                Err(NotBinding::Pasted)
            } else {
                Ok(())
            };
        }
        Shape::Sentence | Shape::Item | Shape::Row => {}
    }
    if pasted(text) {
        return Err(NotBinding::Pasted);
    }
    if COMMAND.is_match(text.trim()) {
        return Err(NotBinding::Command);
    }
    if spent(text) {
        return Err(NotBinding::Acknowledgement);
    }
    if lead_in(text) {
        return Err(NotBinding::Debris);
    }
    // Put as a question, only a request or a strong modal makes it bind
    // ("should we drop it?"); "don't we load them already?" asks.
    let asks = question(text);
    if asks && !STRONG.is_match(text) {
        return Err(NotBinding::Question);
    }
    if asks || directive(text) {
        return Ok(());
    }
    let words = Words::of(text);
    // A name or a value handed over ("https://github.com/acme/api").
    if !words.identifiers.is_empty() {
        let bare = words
            .identifiers
            .iter()
            .fold(text.to_owned(), |rest, id| rest.replace(id.as_str(), " "));
        if Words::of(&bare).content.len() <= 1 {
            return Ok(());
        }
    }
    // A short reply to what the agent asked is a choice.
    if answering && text.split_whitespace().count() <= 4 {
        return Ok(());
    }
    if words.content.len() < 2 {
        return Err(NotBinding::Fragment);
    }
    // The items of a list the user wrote are its requirements.
    if unit.shape == Shape::Item {
        return Ok(());
    }
    Err(NotBinding::Remark)
}

/// A slash command alone: the runtime's, not a commitment.
static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(r"^/[A-Za-z][A-Za-z0-9:_-]*$").expect("the command pattern compiles")
});

/// A short line that only announces what follows ("do this each run:").
fn lead_in(text: &str) -> bool {
    text.trim_end().ends_with(':') && text.split_whitespace().count() <= 8
}

/// Every word is one of [`SPENT`].
fn spent(text: &str) -> bool {
    let mut any = false;
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
        if word.is_empty() {
            continue;
        }
        any = true;
        if !SPENT.contains(&word.to_lowercase().as_str()) {
            return false;
        }
    }
    any
}

/// A question for information: it ends in `?` or opens like one, and it
/// is not a request put as a question ("can you …?").
pub(crate) fn question(text: &str) -> bool {
    let end = text.trim_end_matches(|c: char| c.is_whitespace() || "\"')]*_`!".contains(c));
    let rest = LEAD.find(text).map_or(text, |lead| &text[lead.end()..]);
    let asks = end.ends_with('?') || QUESTION_FORM.is_match(rest);
    asks && !REQUEST_FORM.is_match(rest)
}

/// A path to an image handed over (a screenshot dropped into the prompt).
static IMAGE_PATH: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)^\S*[/\\][^\n]+\.(png|jpe?g|gif|webp|heic|bmp)$")
        .expect("the image pattern compiles")
});

/// Most of the text's lines are output, not words: log lines, JSON, a
/// path to an image, text that is mostly marks.
fn pasted(text: &str) -> bool {
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
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return false;
    }
    let output = lines
        .iter()
        .filter(|l| super::units::PASTED_LINE.is_match(l))
        .count();
    output * 2 > lines.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::units::units;

    fn why(text: &str) -> Vec<Result<(), NotBinding>> {
        units(text)
            .iter()
            .map(|u| binding(u, text, false))
            .collect()
    }

    #[test]
    fn what_binds_and_what_does_not() {
        assert_eq!(why("ok"), [Err(NotBinding::Acknowledgement)]);
        assert_eq!(why("yes, go ahead"), [Err(NotBinding::Acknowledgement)]);
        assert_eq!(why("where are we?"), [Err(NotBinding::Question)]);
        assert_eq!(
            why("what is the current local branch and which branch have we been working on"),
            [Err(NotBinding::Question)]
        );
        assert_eq!(why("can you make the footer blue?"), [Ok(())]);
        assert_eq!(why("Do not drop columns."), [Ok(())]);
        assert_eq!(why("## Requirements"), [Err(NotBinding::Debris)]);
        assert_eq!(
            why("```\nTraceback (most recent call last):\n  File \"a.py\", line 1\nValueError: x\n```"),
            [Err(NotBinding::Pasted)]
        );
        assert_eq!(why("Rustup"), [Err(NotBinding::Fragment)]);
        assert_eq!(
            why("beautiful, export looks good now."),
            [Err(NotBinding::Remark)]
        );
        assert_eq!(
            why("alright, made some more minor changes."),
            [Err(NotBinding::Remark)]
        );
        assert_eq!(why("ok, do a release"), [Ok(())]);
        assert_eq!(
            why("ah good, can we also add syntax highlighting?"),
            [Ok(())]
        );
        assert_eq!(why("i think README.md also needs an update?"), [Ok(())]);
        assert_eq!(
            why("why does the ai package need that global state?"),
            [Err(NotBinding::Question)]
        );
        assert_eq!(
            why("don't we just pass in the api key?"),
            [Err(NotBinding::Question)]
        );
        assert_eq!(why("should we drop the old flag?"), [Ok(())]);
        assert_eq!(
            why("ok, this looks amazing, start implementing"),
            [Err(NotBinding::Acknowledgement)]
        );
        assert_eq!(why("do this each run:"), [Err(NotBinding::Debris)]);
        assert_eq!(why("/compact"), [Err(NotBinding::Command)]);
        assert_eq!(why("/gsd:execute-plan .planning/01-02-PLAN.md"), [Ok(())]);
        assert_eq!(
            why("/var/folders/x/T/Screenshot 2025.png"),
            [Err(NotBinding::Pasted)]
        );
        let units = units("Rustup");
        assert_eq!(binding(&units[0], "Rustup", true), Ok(()));
        assert_eq!(why("https://github.com/acme/api"), [Ok(())]);
    }
}

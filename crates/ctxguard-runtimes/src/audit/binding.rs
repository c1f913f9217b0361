//! Whether a unit the user typed binds the agent. What binds is addressed
//! to the agent as something to do or to hold to: an instruction (a clause
//! that opens with a verb: "delete all other branches"), an obligation or a
//! ban ("the footer should be blue", "never push to main", "no console
//! logs"), a wish ("I want e2e tests only", "it would be nice to …"), a
//! request put as a question ("can you add …?"), a choice the user made, a
//! value or a name handed over (the fields of a form filled in among
//! them), a defect reported ("the list is not showing the columns": the
//! fix is what it asks). What does not: a question asking for information,
//! an acknowledgement or reaction spent as it is read, a remark that asks
//! nothing, a heading, pasted output (a log, a terminal session, a prompt
//! marked up with tags), a bare slash command. Those are set apart —
//! counted and listed, never reported as lost, never given back to the
//! model as a commitment that still holds. Words are read in English,
//! German, Dutch, Czech, Polish, Portuguese, Spanish, French, Indonesian,
//! Russian, Hebrew, Chinese, Japanese and Korean.

use std::ops::Range;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::units::{question_number, scripts, Shape, Unit, PASTED_LINE};
use crate::pattern::Pattern;
use crate::verify::text::Words;

mod directive;
mod output;
mod patterns;
mod simplified;

/// Compiles the patterns that take longest to compile, dearest first (a
/// third of the judgment's compiling is these seven), with the regex
/// crate. The hooks run it on a second thread while the first reads and
/// judges: the first asks the light engine of a pattern the second has not
/// compiled yet ([`crate::pattern::Pattern`]), and meets the rest compiled.
pub(crate) fn compile_costliest() {
    LazyLock::force(&PASTED_LINE);
    crate::pattern::compile(&[
        &patterns::ASKS_OF,
        &output::PUT_BY,
        &patterns::DEFECT,
        &output::HANDED_OVER,
        &patterns::CJK_ASKS,
        &patterns::ASKS_TO_BE_TOLD,
    ]);
}
mod words;

pub(crate) use directive::rule_stated;
use directive::*;
use output::*;
pub(crate) use output::{output_tails, rule, Prose};
use patterns::*;
use simplified::simplified;
use words::*;

/// Why a unit does not bind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NotBinding {
    /// It asks for information.
    Question,
    /// An acknowledgement, reaction, greeting or control word, spent as it
    /// is read ("ok", "thanks", "continue", "go ahead").
    Acknowledgement,
    /// Markdown with nothing to hold: a heading, a table header, a line
    /// that only announces what follows.
    Debris,
    /// Data the user handed over: a log, an error, code, a quoted text.
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

/// The most bytes a unit can hold and still be one statement the user
/// made: the longest that binds in every real session of the corpora is
/// 1,628. Longer is text handed over (a log without line breaks, a
/// minified file), and is never read word by word as a commitment.
const LONGEST_STATEMENT: usize = 4096;

/// What is known of the message a unit stands in.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Context {
    /// The agent's message before it offered the user a choice, so a short
    /// reply is a choice, not a fragment.
    pub answering: bool,
}

/// Whether `unit` of `message` binds; `Err` says why not.
pub(crate) fn binding(unit: &Unit, message: &Prose, context: Context) -> Result<(), NotBinding> {
    let answering = context.answering;
    let text = unit.text(message.text);
    if text.len() > LONGEST_STATEMENT {
        return Err(NotBinding::Pasted);
    }
    match unit.shape {
        Shape::Heading | Shape::Html => return Err(NotBinding::Debris),
        Shape::Quote | Shape::Output => return Err(NotBinding::Pasted),
        // Code inside output the user pasted (a line the terminal indented
        // as Markdown indents code) is the output's.
        Shape::Code => {
            return if text.lines().count() > 3
                || PASTED_LINE.is_match(text)
                || template(text)
                || message.in_pasted_output(unit.range.start, text)
            {
                Err(NotBinding::Pasted)
            } else {
                Ok(())
            };
        }
        Shape::Sentence | Shape::Item | Shape::Row => {}
    }
    if pasted(text) || code(text) || message.in_pasted_output(unit.range.start, text) {
        return Err(NotBinding::Pasted);
    }
    if blank_field(text) || logged(text) || template(text) {
        return Err(NotBinding::Pasted);
    }
    // "[Image #2]": where the user pasted a picture, the runtime's mark;
    // "EOF": where a here-document the user pasted ends.
    if IMAGE_MARKS.is_match(text) || matches!(text.trim(), "EOF" | "EOL") {
        return Err(NotBinding::Debris);
    }
    words_bind(unit, &simplified(text), message, answering)
}

/// Whether a remark of the user's is a step of a flow they lay out after
/// saying how a thing should be ("so soll die Oberfläche aussehen. Dann
/// drücke einen Scan-Button und die Daten werden … geladen. Danach werden
/// Signale analysiert."): `wished`, a unit before it in the message binds
/// by a word of obligation or wish (asked last: most remarks are no step).
/// A story of what the user did is none.
pub(crate) fn flow_step(text: &str, wished: impl FnOnce() -> bool) -> bool {
    FLOW_STEP.is_match(text) && !TELLS_OWN.is_match(text) && !question(text) && wished()
}

/// Whether a unit that binds says how a thing should be, so that the steps
/// after it lay out the flow ([`flow_step`]).
pub(crate) fn wishes(text: &str) -> bool {
    rule_stated(text) || SHOULD_BE.is_match(text)
}

/// A field of a form still to be filled in, handed over as a template:
/// its value is a placeholder or an example ("总件数：xx件", "尺寸规格：如：
/// 35*30*20cm", "Name: ____", "Date: <today>"). It says what to ask for,
/// not what the user wants.
fn blank_field(text: &str) -> bool {
    static PLACEHOLDER: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)(^|[^a-z])x{2,4}([^a-z]|$)|_{3,}|^\s*(如|例如|比如)\s*[（(：:]|^\s*(e\.g\.|eg[.:]|for example)|^\s*<[^<>]{1,30}>\s*$|^\s*\[[^\[\]]{1,30}\]\s*$",
        )
    });
    FIELD
        .captures(text.trim_end())
        .and_then(|field| {
            let label = field.name("label")?;
            let value = text.get(label.end()..)?;
            let value = value.trim_start().strip_prefix([':', '：'])?;
            Some(PLACEHOLDER.is_match(value))
        })
        .unwrap_or(false)
}

/// A prompt to be filled in, handed over as a template: a slot in square
/// brackets stands where words go ("I learned that [something]. Can you
/// help me capture this?", "Can you help me create an agent for [task]?",
/// "a quick reference for [technology/API]"). It says what could be
/// asked, later, not what the user asks. A name in brackets that is part
/// of a path or a word (`app/[locale]/page.tsx`, `dependabot[bot]`), a
/// checkbox, a TOML table (`` `[tools]` ``) or a tag in capitals ("[WIP]")
/// is no slot.
fn template(text: &str) -> bool {
    static SLOT: LazyLock<Pattern> =
        LazyLock::new(|| pattern(r#"(^|[\s("'“])\[[a-z][A-Za-z /_-]{1,28}\]([\s.,;:!?)"'”]|$)"#));
    SLOT.is_match(text)
}

/// A log the user keeps of what they did, measured: three quantities or
/// more and nothing asked ("高位下拉29kg×12，36kg×12，43kg×10", "bench 60kg x 8,
/// 65kg x 6, 70kg x 4", "绳索面拉两边一共18kg12次四组", its sets counted in
/// Chinese numerals). It reports; what to make of it is the agent's.
pub(crate) fn logged(text: &str) -> bool {
    static QUANTITY: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)(\d+(\.\d+)?|[一二两三四五六七八九十]+)\s*((kg|lbs?|km|kcal|cal|reps?|sets?)([^a-z]|$)|公里|公斤|斤|次|组|分钟|卡)|[×*]\s*\d+|\d\s*x\s*\d+",
        )
    });
    QUANTITY.find_iter(text).take(3).count() >= 3
        && !ASKS_OF.is_match(text)
        && !CJK_ASKS.is_match(text)
}

/// A browser console's banner at the start of a line
/// ([`crate::audit::units::CONSOLE_BANNER`]).
static CONSOLE_BANNER: LazyLock<Pattern> =
    LazyLock::new(|| pattern(&format!(r"(?i)^\s*{}", crate::audit::units::CONSOLE_BANNER)));

/// The user's own words typed on the same line as output they pasted: a
/// sentence before the first thing that is not a word ("me salio este
/// error: chat$ fmind …"), if `head`, and one after the last ("… 403
/// Forbidden tienes que verificar eso, …"), if `tail`, as ranges of
/// `text`. Each holds at least [`TYPED_EDGE`] words (or a clause of
/// Chinese or Japanese) and no code. Only
/// where a message starts or ends: a line of words amid output is the
/// output's own ("Install completion for the current shell.").
pub(crate) fn typed_edges(text: &str, head: bool, tail: bool) -> Vec<Range<usize>> {
    // Letters, with the punctuation prose puts around them.
    fn prose(token: &str) -> bool {
        let core = token
            .trim_start_matches(['¿', '¡', '(', '"', '\''])
            .trim_end_matches([',', '.', ';', ':', '!', '?', ')', '"', '\'']);
        !core.is_empty()
            && core
                .chars()
                .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
            && core.chars().next().is_some_and(char::is_alphabetic)
    }
    // A clause of Chinese or Japanese, which puts no spaces between its
    // words ("帮我看一下，我想推送远程仓库怎么总是不成功"): four of its
    // characters or more weigh as a sentence of words.
    fn cjk(token: &str) -> bool {
        token.chars().filter(|&c| wide_script(c)).count() >= 4
            && token.chars().all(|c| {
                wide_script(c) || matches!(c, '，' | '。' | '！' | '？' | '、' | '；' | '：')
            })
    }
    let weight = |token: &str| {
        if cjk(token) {
            TYPED_EDGE
        } else {
            usize::from(prose(token))
        }
    };
    let mut edges = Vec::new();
    let start_of = |line: &str| line.as_ptr() as usize - text.as_ptr() as usize;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    // Whole words with where they start in the line.
    fn tokens(line: &str) -> Vec<(usize, &str)> {
        line.split_whitespace()
            .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
            .collect()
    }
    if let Some(first) = lines.first().filter(|_| head) {
        let words = tokens(first);
        let run = words.iter().take_while(|(_, w)| weight(w) > 0).count();
        let weighed: usize = words[..run].iter().map(|(_, w)| weight(w)).sum();
        // Words that are output themselves (a banner the tool printed:
        // "Download the React DevTools for a better development
        // experience: https://…") were not typed before it.
        if weighed >= TYPED_EDGE && run < words.len() {
            let (at, last) = words[run - 1];
            let base = start_of(first);
            let edge = base..base + at + last.len();
            if !CONSOLE_BANNER.is_match(&text[edge.clone()]) {
                edges.push(edge);
            }
        }
    }
    if let Some(last) = lines.last().filter(|_| tail) {
        let words = tokens(last);
        let run = words
            .iter()
            .rev()
            .take_while(|(_, w)| weight(w) > 0)
            .count();
        let weighed: usize = words[words.len() - run..]
            .iter()
            .map(|(_, w)| weight(w))
            .sum();
        if weighed >= TYPED_EDGE {
            let base = start_of(last);
            let (at, _) = words[words.len() - run];
            let range = base + at..base + last.trim_end().len();
            if edges
                .last()
                .is_none_or(|e: &Range<usize>| e.end <= range.start)
            {
                edges.push(range);
            }
        }
    }
    edges
}

/// The fewest words a sentence typed beside pasted output holds to be
/// read as the user's.
const TYPED_EDGE: usize = 5;

/// Whether `unit`'s words bind, `text` being the user's own words (not
/// pasted): the judgment of [`binding`] after the shapes of pasted text.
pub(crate) fn words_bind(
    unit: &Unit,
    text: &str,
    message: &Prose,
    answering: bool,
) -> Result<(), NotBinding> {
    if COMMAND.is_match(text.trim()) || COMPACT_NOW.is_match(text) {
        return Err(NotBinding::Command);
    }
    // "问题1\nC": the user's answer to the agent's first question.
    let mut lines = text.trim().lines();
    if lines.next().is_some_and(question_number) && lines.next().is_some() {
        return Ok(());
    }
    // "A" after the agent lettered its options names one (alone, "a" is
    // no word that binds).
    let key = text.trim().trim_end_matches(['.', ')', '）']);
    if answering && key.len() == 1 && matches!(key.as_bytes()[0].to_ascii_lowercase(), b'a'..=b'f')
    {
        return Ok(());
    }
    // "Fix it now" alone approves what the agent proposed; after the
    // user's own report or list in the same message it asks for that.
    let approves = (approval(text) || bare_verb(text)) && !refers_within(message.text, text);
    if spent(text)
        || CJK_COURTESY.is_match(text)
        || GO_ON.is_match(text)
        || approves
        || THINK.is_match(text)
        || SPENT_FORM.is_match(text)
        || image_handed_over(text)
    {
        return Err(NotBinding::Acknowledgement);
    }
    if OWN_ACTION.is_match(text) && word_count(text) <= 8 && !question(text) {
        return Err(NotBinding::Remark);
    }
    // "I want you to do something for me": the ask is what comes next.
    if ASKS_NOTHING_YET.is_match(text) {
        return Err(NotBinding::Debris);
    }
    // "Here is what I found:" leads into what follows; "Do not commit yet,
    // see:" and "请重新分析：" ask something themselves. One that ends its
    // message leads into nothing ("let's commit plan files as docs:") and
    // is judged as the sentence it is, as is one that says where the text
    // after it goes ("Remplacer options.systemMessage par ce texte :").
    let follows = message
        .text
        .get(unit.range.end..)
        .is_some_and(|rest| !rest.trim().is_empty())
        && !message.puts_after(unit.range.end);
    // An instruction that names what to make over the list of its parts
    // ("Produce a requirements inventory with these sections:") asks for
    // it; "Fix these:" leads into what it points at.
    let asks_for_it = word_count(text) >= 5
        && after_lead(text)
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
            .find(|w| !w.is_empty())
            .is_some_and(|w| imperative(&w.to_lowercase()));
    // "we need to basically focus on" over a numbered list: a sentence
    // left open for the list to end leads into it as a colon does, where
    // the items say enough alone ("1. linear project update."); over items
    // of a word or two ("Please add tests for" over "- the parser") it is
    // the requirement, and they its fragments.
    let open_over_list = follows
        && left_open(text)
        && message
            .text
            .get(unit.range.end..)
            .and_then(|rest| LIST_NEXT.find(rest).map(|item| &rest[item.end()..]))
            .is_some_and(|item| word_count(item.lines().next().unwrap_or_default()) >= 3);
    if follows
        && (lead_in(text) || open_over_list)
        && !BAN.is_match(after_lead(text))
        && !CJK_ASKS.is_match(text)
        && !asks_for_it
    {
        return Err(NotBinding::Debris);
    }
    if unit.shape == Shape::Sentence && capital_heading(message.text, unit, text) {
        return Err(NotBinding::Debris);
    }
    if bold_heading(text, follows) {
        return Err(NotBinding::Debris);
    }
    // Set in bold whole, it says what its words say.
    if let Some(inner) = in_bold(text) {
        return words_bind(unit, inner, message, answering);
    }
    // "can you explain why it fails and fix it" asks for the fix as well.
    if (ASKS_TO_BE_TOLD.is_match(after_lead(text)) && !acts_after(text))
        || (ASKS_ABILITY.is_match(text) && word_count(text) <= 24 && !acts_after(text))
    {
        return Err(NotBinding::Question);
    }
    // A link handed over with a few words about it ("https://…/design?node-id=12-485
    // 이런 느낌?", like this?): the link is a value the session refers to
    // from then on, whatever the words ask.
    if question(text) && handed_link(text) {
        return Ok(());
    }
    // Put as a question, only a request, a modal or a suggestion makes it
    // bind; "don't we load them already?" asks.
    if question(text) {
        // "What you have done is not good": a defect reported in a
        // sentence that opens like a question and does not ask.
        if !question_mark(text) && DEFECT.is_match(text) {
            return Ok(());
        }
        // "Implement it and we have the minimum set, correct?" binds as
        // what it asks to be confirmed.
        if let Some(tag) = TAG.find(text) {
            let statement = &text[..tag.start()];
            if !question(statement) && directive(statement) {
                return Ok(());
            }
        }
        // "Why are you writing typescript?": a reproach, the broken rule.
        if REPROACH.is_match(text) && !ASKS_REASON.is_match(text) {
            return Ok(());
        }
        // "What would you recommend?": the agent's opinion asked for.
        if ASKS_OPINION.is_match(text) || ASKED_LAST.is_match(text) {
            return Err(NotBinding::Question);
        }
        let rest = after_lead(text);
        // "Which file says how the app should look?": a question for
        // information, whatever modal it holds (a long sentence that only
        // ends in a question is more than one).
        if question_mark(text)
            && word_count(text) <= 25
            && ASKS_WHICH.is_match(rest)
            && !REQUEST_FORM.is_match(rest)
        {
            return Err(NotBinding::Question);
        }
        // "Should I add it to my path?" asks for advice.
        let advice = ASKS_ADVICE.is_match(rest);
        let mut opening = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase);
        let first = opening.next().unwrap_or_default();
        // "创建一个 skill 有办法拉取 PR 的 comment 吗？": a Chinese question
        // that opens on what to do asks for it ([`NOT_ASKED`] does not).
        let opens_on_ask = || {
            CJK_ASKS
                .find(rest)
                .is_some_and(|ask| rest[..ask.start()].trim().is_empty())
                && !NOT_ASKED.is_match(rest)
        };
        // "do we duplicate the contracts?": a verb before its subject asks.
        let subject_follows = opening.next().is_some_and(|second| {
            ["we", "you", "i", "they", "he", "she"].contains(&second.as_str())
        });
        // "Write it to a file, no?" is an instruction with a tag question.
        return if !advice
            && (ASKS_OF.is_match(text)
                || KOREAN_REQUEST.is_match(text)
                || JAPANESE_REQUEST.is_match(text)
                || CHINESE_REQUEST.is_match(text)
                || SUGGESTION.is_match(rest)
                || SUGGESTION.is_match(text)
                || SUBJECTLESS_ASK.is_match(rest)
                || opens_on_ask()
                || REQUEST_FORM.is_match(rest)
                || (imperative(&first) && !subject_follows))
        {
            Ok(())
        } else {
            Err(NotBinding::Question)
        };
    }
    if directive(text) || SUBJECTLESS_ASK.is_match(text) {
        return Ok(());
    }
    let words = Words::of(text);
    // A name or a value handed over ("https://github.com/acme/api"), not a
    // sentence about one ("agent-session.ts also calls getApiKey").
    if !words.identifiers.is_empty() && (bare_words(text, &words) == 0 || word_count(text) <= 3) {
        return Ok(());
    }
    // A link handed over with a few words about it ("it offers cricket
    // matches here: https://…", "涉及前端部分参考，http://…/new"): a value the
    // session refers to from then on.
    if handed_link(text) {
        return Ok(());
    }
    // A value stated: "The API lives at https://…", "the port is 8443",
    // "数据的路径：C:\\Users\\me\\Desktop".
    if value_stated(text, &words) || labelled_value(text) {
        return Ok(());
    }
    // What the user says of their own setup: "我的推广计划是15-25天",
    // "开发环境为vscode" (the environment they build in is VS Code),
    // "我的是婴幼儿服饰产品" (mine are baby clothes).
    if OWN_SETUP.is_match(text) && !question(text) {
        return Ok(());
    }
    // A field of a form the user filled in.
    if message.form && FIELD.is_match(text.trim_end()) && word_count(text) <= 16 {
        return Ok(());
    }
    // A short reply to a choice the agent offered; not one that tells of
    // the user themselves ("ive fixed those", "ich hoffe das geht"): a
    // choice the user makes in their own words is a wish, read above.
    if answering
        && word_count(text) <= 4
        && !OF_ONESELF.is_match(text)
        && !HAPPENED.is_match(text)
        && !CJK_NO_CHOICE.is_match(text)
    {
        return Ok(());
    }
    // Options the agent offered, named by their numbers ("option 1, then
    // option 2", "1 and 3"): a choice however many words name it.
    if answering && word_count(text) <= 10 && OPTIONS_NAMED.is_match(text) {
        return Ok(());
    }
    // Options the agent lettered, two named together in a reply of a few
    // words ("B和C", "A和C懂一点，B和D比较模糊", "A and C, not B"): what the
    // user picks or says of them.
    if answering && word_count(text) <= 20 && LETTERS_NAMED.is_match(text) {
        return Ok(());
    }
    // A defect reported in a few words ("it's too slow", "still broken")
    // asks for its fix as a longer report does; one only named ("we have
    // a problem", "found a bug") leads into what follows.
    let named_only = words
        .content
        .iter()
        .all(|w| matches!(w.as_str(), "bug" | "problem" | "issu" | "error"));
    if DEFECT.is_match(text) && !named_only {
        return Ok(());
    }
    // What the user states of their setup, their team's ways, what
    // someone they answer to wants, what they prefer, ideally: "I'm on
    // Windows", "our team uses conventional commits", "the client wants it
    // by Friday", "I hate semicolons", "ideally the page loads under 1s",
    // what they have to work with: "i have a vercel pro account", what a
    // part of it will be: "The frontend will be React".
    // Asked first without its groups: most units state none of these.
    if STATED.is_match(text)
        && STATED.captures(text).is_some_and(|found| {
            // "i'm using chatgpt to help me teach you" tells what the user
            // does it for, not what they work on.
            let for_something = found
                .name("setup")
                .is_some_and(|setup| text[setup.end()..].trim_start().starts_with("to "));
            !for_something
                && ["setup", "ways", "liked"]
                    .iter()
                    .filter_map(|name| found.name(name))
                    .all(|what| !POINTS_BACK.contains(&what.as_str().to_lowercase().as_str()))
        })
    {
        return Ok(());
    }
    if words.content.len() < 2 {
        return Err(NotBinding::Fragment);
    }
    // The items of a list the user wrote are its requirements, numbered
    // as Markdown does or as Chinese does ("1、", "3.1、"); but an item
    // that states in the polite declarative of Korean or Japanese
    // ("…충돌을 원천 차단합니다.", "…を保存します。") describes, as a lesson
    // or a report does, and asks nothing.
    // Clauses set side by side with full-width semicolons are a list too.
    let side_by_side = text.trim_end().ends_with('；')
        || message
            .text
            .get(..unit.range.start)
            .is_some_and(|before| before.trim_end().ends_with('；'));
    if ((unit.shape == Shape::Item && !reports_done(message.text, unit.range.start))
        || side_by_side
        || CJK_ITEM.is_match(text)
        || unmarked_item(message.text, unit.range.start))
        && !POLITE_STATEMENT.is_match(text)
    {
        return Ok(());
    }
    // A defect reported is a fix asked for.
    if DEFECT.is_match(text) {
        return Ok(());
    }
    // A view the user gives in a design talk: "i think a sqlite is the
    // source of truth", "i think 30 messages per user is enough".
    if let Some(view) = VIEW.captures(text) {
        let said = view.name("said").map_or("", |m| m.as_str());
        if word_count(said) >= 4 && !question(said) {
            return Ok(());
        }
    }
    // The agent corrected: "no it's definitely a collection of chats",
    // "actually the table is called users_v2". What the user sets right
    // holds from then on.
    if CORRECTS.is_match(text) && word_count(text) >= 5 {
        return Ok(());
    }
    // A choice the user makes their own by agreeing with it, said of what
    // it is ("I agree with the retained status reasoning", "Null status on
    // initial load is the right call"); "ok, makes sense" alone is spent.
    if ENDORSES.is_match(text) && word_count(text) >= 6 {
        return Ok(());
    }
    if run_on_instruction(text) {
        return Ok(());
    }
    // A measure the user gives of what they have or did: "体重88.8，身高
    // 182", "36kg×12", "the budget is $40k".
    if MEASURE.is_match(text) {
        return Ok(());
    }
    Err(NotBinding::Remark)
}

/// An instruction inside a sentence typed on without punctuation: "ok
/// GUI has no chat box make it more sleek", "over right the old one then
/// start using the new you". A verb stands before its object, or after
/// "then", with no subject, modal or "to" before it ("the tests make it
/// slow", "we could make it faster" and "I tried to make it work" say
/// what is). An aside in round brackets is read past: "we can write the
/// session file (activities, narrative) and update the plan" runs on as
/// it does without it.
fn run_on_instruction(text: &str) -> bool {
    const NOT_BEFORE: &[&str] = &[
        "i", "you", "we", "they", "he", "she", "it", "me", "us", "him", "her", "them", "to",
        "will", "would", "can", "could", "should", "must", "may", "might", "shall", "did", "do",
        "does", "don't", "dont", "didn't", "didnt", "doesn't", "not", "never", "who", "that",
        "which", "the", "a", "an", "this", "my", "our", "your", "their", "its", "i'll", "ill",
        "i'd", "we'll", "you'll", "lets", "let's", "also", "just",
    ];
    let text = without_asides(text);
    if text.contains(['.', ',', ';', ':', '!', '?']) || word_count(&text) < 8 {
        return false;
    }
    let words: Vec<String> = text.split_whitespace().map(|w| w.to_lowercase()).collect();
    (1..words.len().saturating_sub(1)).any(|at| {
        let (before, verb, next) = (&words[at - 1], &words[at], &words[at + 1]);
        if !IMPERATIVES.contains(&verb.as_str()) {
            return false;
        }
        if before == "then" {
            return !AUXILIARIES.contains(&next.as_str());
        }
        OBJECTS.contains(&next.as_str())
            && !NOT_BEFORE.contains(&before.as_str())
            && !before.ends_with('s')
            && !before.ends_with("ed")
    })
}

/// `text` without its asides in round brackets ([`aside_spans`]), each
/// with the space before it.
fn without_asides(text: &str) -> std::borrow::Cow<'_, str> {
    let spans = aside_spans(text);
    if spans.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for span in spans {
        // The space before the bracket goes with it.
        out.push_str(&text[from..span.start - 1]);
        from = span.end;
    }
    out.push_str(&text[from..]);
    std::borrow::Cow::Owned(out)
}

/// Where each aside in round brackets stands, its brackets and any within
/// them included: a bracket opened after a space, at no depth, to the one
/// that closes it ("the session file (activities, narrative)"). `call(a,
/// b)` is code, and a bracket that never closes opens none.
pub(crate) fn aside_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut spans = Vec::new();
    let (mut depth, mut open) = (0usize, None);
    for (at, c) in text.char_indices() {
        match c {
            '(' => {
                if depth == 0 && text[..at].ends_with(' ') {
                    open = Some(at);
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    if let Some(start) = open.take() {
                        spans.push(start..at + 1);
                    }
                }
            }
            _ => {}
        }
    }
    spans
}

/// Words that point back at what was said or shown, not at a thing the
/// user names: what a statement of [`STATED`] holds is no such word ("I
/// love it", "I'm on it").
const POINTS_BACK: &[&str] = &[
    "it", "this", "that", "them", "these", "those", "how", "what", "you", "your", "the", "a", "an",
    "my", "our", "here", "there", "way",
];

/// Statements of what holds for the user ([`words_bind`]): their setup,
/// their team's ways, what someone they answer to wants, what they prefer,
/// what would be ideal. The thing stated (`setup`, `ways`, `liked`) must
/// be named, not pointed back at.
static STATED: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(i'm|im|i\s+am|we're|we\s+are)\s+(on|using|running|targeting|deploying\s+(to|on)|building\s+(for|on|with)|stuck\s+(on|with))\s+(?P<setup>[\w.+#-]+)|^\W*(we|our\s+(team|company|project|repo|codebase|org|app))\s+(always\s+|usually\s+|only\s+|still\s+|currently\s+)?(use|uses|deploy|deploys|follow|follows|host|hosts|run|runs|store|stores|build|builds|ship|ships|target|targets|support|supports|write|writes)\s+(with\s+|on\s+|to\s+)?(?P<ways>[\w.+#-]+)|\b(client|customer|boss|manager|pm|product\s+owner|stakeholders?|legal|design\s+team)\s+(wants?|needs?|asked\s+for|requires?|expects?|insists)\b|^\W*i\s+(really\s+|just\s+|much\s+|strongly\s+)?(hate|dislike|love|like|prefer|can't\s+stand|cannot\s+stand)\s+(?P<liked>[\w.+#-]+)|^\W*(ideally|preferably|bonus\s+points?\s+if|nice\s+to\s+have)\b|^\W*((and|also|btw|fyi|but)[\s,]+)*(i|we)(\s+(have|already\s+have|got|own)|'ve\s+got)\s+((a|an|the|my|our)\s+)?([\w.+#-]+\s+){0,3}(account|plan|subscription|license|licence|server|vps|instance|cluster|gpu|domain|workspace|tenant|repository|repo)s?\b|^\W*((and|also|so|but)[\s,]+)*(the|our)\s+([\w.-]+\s+){0,2}(will\s+be|stays|remains|is\s+going\s+to\s+be)\s+(?-i:[A-Z])",
    )
});

/// A number with its unit, or an amount of money.
static MEASURE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\d(\.\d+)?\s*(kg|lbs?|cm|mm|km|kcal|cal|%|次|组|分钟|小时|公里|公斤|斤|元|块|万|岁|gb|mb|tb|ms|px|rem|ghz|mhz|gbps|mbps|°)(\W|\d|$)|[$€£¥￥]\s*\d",
    )
});

/// Options named by their numbers, as a reply to a choice: "option 1, then
/// option 2", "opción 2", "1 and 3", "2 then 4".
static OPTIONS_NAMED: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((go\s+with|let's\s+do|do|take|start\s+with|first)\s+)?(option|choice|opci[oó]n|op[cç][aã]o|variante?|#)\s*\d+\b|^\W*\d{1,2}\s*((,|and|&|then|und|dann|y|e|et|puis|luego|depois|和|然后)\s*\d{1,2}\s*)+\W*$",
    )
});

/// Two of the agent's lettered options named together: capitals A to F
/// joined by "and", "&", a comma, "和", "与", "跟", "、" or "及".
static LETTERS_NAMED: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(r"(^|[^A-Za-z])[A-F]\s*(,|and|&|和|与|跟|、|及|/)\s*[A-F]([^A-Za-z]|$)")
});

/// A sentence whose subject is the user: "I've fixed those", "ich hoffe
/// das geht", "je pense que oui", after a yes or a no too ("yes I am!",
/// the answer to "Ready to commit?").
static OF_ONESELF: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((yes|yeah|yep|yup|no|nope|ja|nein|oui|non|sí|si|sim|não)[\s,!.]+)?(i|i'm|im|i've|ive|i'll|ill|i'd|ich|je|j'ai|eu|yo|io)\b",
    )
});

/// A short reply that tells what happened ("oom killed", "it crashed
/// again"): news of a run, not an option chosen.
static HAPPENED: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(\S+\s+){0,2}(killed|crashed|failed|died|hung|froze|timed\s+out|stuck|broke|broken|hangs|crashes|fails)(\s+again)?\W*$",
    )
});

/// A short Chinese reply that chooses nothing: a question ("在哪里复制",
/// where do I copy it), a go-ahead ("可以啦"), news that it still fails
/// ("还是不行"), a remark on what this is ("这是2个东西", these are two
/// things; "这才是重点") or on what the user does ("我看看", let me look;
/// "我贴给你看"), "forgot" ("忘了").
static CJK_NO_CHOICE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"哪|吗|嗎|呢|怎么|怎麼|什么|什麼|？|^\W*(这|那|這)(是|才是|就是|也是)|^\W*我(先)?(看看|看一下|贴|貼|觉得|覺得|想想|没|沒|也不)|^\W*忘了|^\W*(可以|好|行|对|對|是的|嗯|ok)[啦了呀吧啊哦的]*[。！!~～]*\s*$|(不行|没用|沒用|失败|失敗|报错|報錯|不好使|没反应|沒反應)[了啊呀的]*[。！!~～]*\s*$",
    )
});

/// A view the user states, and what it says: see [`words_bind`].
static VIEW: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((also|and|but|so|ok|okay|well|yes|yeah)[\s,]+)*(i\s+(really\s+|still\s+|also\s+)?(think|believe|feel)|imo|in\s+my\s+opinion)\s+(that\s+)?(?P<said>.+)$",
    )
});

/// A correction of what the agent took for so: see [`words_bind`].
static CORRECTS: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(no|nope|nah|actually|not\s+quite|wrong)\b[,.!:;]?\s+(it|it's|its|that|that's|thats|this|the|they|we|we're|you|there|i|i'm|im)\b",
    )
});

/// Agreeing with a choice: see [`words_bind`].
static ENDORSES: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(i\s+(totally\s+|fully\s+|completely\s+|also\s+)?agree\s+(with|on|that)|(totally|fully|completely)\s+agree|(is|'s|sounds\s+like|seems\s+like)\s+the\s+right\s+(call|choice|approach|way|move|decision|trade-?off)|makes\s+(more\s+|total\s+|perfect\s+|a\s+lot\s+of\s+)?sense|(i'm|i\s+am)\s+(fine|ok|okay|good|happy)\s+with)\b",
    )
});

/// Whether a question of what the agent can do, or a request to be told,
/// goes on to ask it to act ("can you read the logs and fix the failing
/// test?", "explain why it fails and fix it").
fn acts_after(text: &str) -> bool {
    let words: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    // Telling is what was asked already ("explain what it does and tell me
    // why"); a verb with nothing after it is one of a pair ("help me think
    // through how to design and implement").
    words.windows(3).any(|pair| {
        matches!(pair[0].as_str(), "and" | "then")
            && imperative(&pair[1])
            && !matches!(
                pair[1].as_str(),
                "tell"
                    | "show"
                    | "explain"
                    | "describe"
                    | "summarize"
                    | "summarise"
                    | "list"
                    | "give"
                    | "let"
                    | "say"
                    | "walk"
                    | "help"
            )
    })
}

/// A question for information: it ends in `?` or opens like one. A
/// sentence that opens with the time it is about and no question mark
/// ("When the build fails, do not retry", "when you are done, commit")
/// says what to do then: "when" asks only with its verb before its
/// subject ("when is the deploy").
pub(crate) fn question(text: &str) -> bool {
    static CONDITION: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*(when|whenever|once)\s+(the|a|an|we|you|i|it|its|this|that|these|those|my|our|your|their|they|he|she|someone|somebody|anyone|users?)\b",
        )
    });
    let rest = after_lead(text);
    question_mark(text)
        || (QUESTION_FORM.is_match(rest) && !CONDITION.is_match(rest))
        || ASKED_LAST.is_match(text)
}

/// Whether `text` hands over a link (to a named host: not a template's
/// `https://<your-domain>/…`), with at most a few words of its own beside
/// it.
fn handed_link(text: &str) -> bool {
    /// The most words beside the link.
    const BESIDE: usize = 8;
    let mut links = LINK.find_iter(text).peekable();
    if links.peek().is_none() {
        return false;
    }
    // The words between the links, counted stretch by stretch.
    let mut beside = 0;
    let mut at = 0;
    for link in links {
        beside += word_count(&text[at..link.start()]);
        at = link.end();
    }
    beside + word_count(&text[at..]) <= BESIDE
}

/// A link to a named host, as far as the characters a URL holds go (a
/// link typed into Chinese text runs on into the words after it).
static LINK: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(r"https?://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+[A-Za-z0-9._~:/?#@!$&*+,;=%()\[\]-]*")
});

/// Whether the text ends as a question does: a question mark, or a
/// particle that asks.
fn question_mark(text: &str) -> bool {
    let end = text.trim_end_matches(|c: char| c.is_whitespace() || "\"')]*_`!.".contains(c));
    end.ends_with(['?', '？'])
        || end.ends_with("吗。")
        || end.ends_with('吗')
        || end.ends_with('呢')
        || ["怎么办", "怎么样", "怎么弄"]
            .iter()
            .any(|asks| end.ends_with(asks))
}

/// The user's own thing and what it is or holds, in Chinese: "我的…是…",
/// after a linking word or another clause too ("…，因为我的推广计划是15-25天",
/// because my campaign runs 15 to 25 days), "用户名是 …" (the user name is …),
/// "我们的…为…", "我的计划中现在没有关键词的选项" (my plan has no keyword
/// option); and who holds which role in the user's team ("Ronaldo is our
/// CTO", "kaio é o diretor do kxsales", "Marta es nuestra jefa", "e o cto é
/// ronald").
static OWN_SETUP: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(^\s*|[，,；;]\s*)(\d+[.、)]\s*|第[一二三四五六七八九十]\s*)?(因为|由于|所以|但是|不过|而且|其实|另外|还有|并且|因此)?\s*(我(们)?的[^，。？?！!,]{0,20}|(开发|运行|部署|测试|生产)环境|[^，。？?！!,]{0,12}(我|我们)(这边|这里))(是|为|没有|只有|有|在|用)[^，。？?！!,]|^\s*(用户名|账号|帐号|邮箱|域名|端口|仓库|分支)(是|为)\s*\S|(?i)\b(is|are)\s+(our|my)\s+(new\s+)?(ceo|cto|cfo|coo|cmo|cso|cpo|director|manager|head\s+of\s+\w+|lead|owner|founder|co-?founder|boss|product\s+owner|designer|accountant|lawyer)\b|\b(é|são)\s+((o|a|os|as)\s+)?(nosso|nossa|nossos|nossas|meu|minha|novo|nova\s+)?\s*(ceo|cto|cfo|coo|cmo|cso|cpo|diretor|diretora|diretores|gerente|líder|lider|dono|dona|fundador|fundadora|sócio|sócia|socio|socia|chefe|responsável|responsavel)\b|\bes\s+(el|la|nuestro|nuestra|mi)\s+(nuevo\s+|nueva\s+)?(ceo|cto|cfo|director|directora|jefe|jefa|gerente|dueño|dueña|fundador|fundadora|socio|socia|responsable)\b|(?i)\b(our|my)\s+(new\s+)?(ceo|cto|cfo|coo|cmo|cso|cpo)\s+is\s+\w+|\b(o|a)\s+(nosso\s+|nossa\s+)?(ceo|cto|cfo|coo|cmo|cso|cpo)\s+é\s+\w+",
    )
});

/// A name given its value after a colon, the value a path, a URL or a
/// number and nothing else: "数据的路径：C:\\Users\\me", "Port: 8443".
fn labelled_value(text: &str) -> bool {
    let Some((label, value)) = text.split_once([':', '：']) else {
        return false;
    };
    let value = value.trim();
    label.chars().count() <= 20
        && !label.trim().is_empty()
        && !value.is_empty()
        && !value.contains(char::is_whitespace)
        && (value.contains(['/', '\\']) || value.chars().any(|c| c.is_ascii_digit()))
}

/// A short statement that gives a thing its value: a URL, a path, a file,
/// a version or a number, after "is", "lives at", "=" ("the full plan is
/// in ARCHITECTURE_V2.md").
fn value_stated(text: &str, words: &Words) -> bool {
    static STATES: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)\b(is|are|lives?\s+(at|in|under)|located\s+(at|in)|sits?\s+(at|in)|points?\s+to|runs?\s+on|works?\s+in|set\s+to|(defined|declared|implemented|called|configured|stored|kept)\s+(in|at|from|by)|looks?\s+like\s+this|ist|sind|liegt|liegen|arbeitet\s+in|läuft\s+(auf|in|unter)|befindet\s+sich|est\s+dans|se\s+trouve|está\s+(en|em|no|na)|fica\s+(em|no|na))\b|\s=\s",
        )
    });
    word_count(text) <= 10
        && STATES.is_match(text)
        && words.identifiers.iter().any(|id| {
            id.contains("://")
                || id.contains(['/', '\\'])
                || id.chars().any(|c| c.is_ascii_digit())
                || FILE_NAME.is_match(id)
        })
}

/// A file named with its extension: `project_architecture.md`.
static FILE_NAME: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"^[\w.-]+\.(md|txt|json|ya?ml|toml|csv|pdf|docx?|xlsx?|html?|sql|py|ts|tsx|js|jsx|rs|go|java|rb|sh)$",
    )
});

/// How many content words the text has besides its identifiers.
fn bare_words(text: &str, words: &Words) -> usize {
    Words::of(&words.without_identifiers(text)).content.len()
}

/// A line of code written inline: an operator, and names rather than words.
fn code(text: &str) -> bool {
    OPERATOR.is_match(text.trim()) && bare_words(text, &Words::of(text)) <= 2
}

/// A short instruction whose only object points back at what the agent
/// proposed ("fix it up", "do that", "ship it", "yes draft that policy",
/// "go ahead and run this", "proceed with both"): an approval, spent as
/// the agent acts on it.
fn approval(text: &str) -> bool {
    #[rustfmt::skip]
    const BACK: &[&str] = &[
        "it", "that", "this", "them", "those", "these", "so", "up", "now", "then", "please", "pls",
        "too", "as", "well", "again", "for", "ahead", "on", "with", "both", "me",
    ];
    const POINTING: &[&str] = &["that", "this", "those", "these"];
    // "no, make these todos" turns down what the agent proposed and says
    // what to do instead: no go-ahead.
    let first = text
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .map(str::to_lowercase);
    if matches!(
        first.as_deref(),
        Some("no" | "nope" | "nah" | "não" | "nein" | "non")
    ) {
        return false;
    }
    let rest = after_lead(text.trim());
    let mut words: Vec<String> = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    // "do that for me, will you?": the tag asks nothing more.
    for tag in [
        ["will", "you"],
        ["would", "you"],
        ["can", "you"],
        ["could", "you"],
    ] {
        let n = words.len();
        if n > 2 && words[n - 2] == tag[0] && words[n - 1] == tag[1] {
            words.truncate(words.len() - 2);
        }
    }
    // "go ahead and run this" is "run this".
    if words.len() >= 4 && words[..3] == ["go", "ahead", "and"] {
        words.drain(..3);
    }
    // "draft that policy": what it points at, named.
    if (3..=4).contains(&words.len()) && POINTING.contains(&words[words.len() - 2].as_str()) {
        words.pop();
    }
    // "try building this" is "build this".
    if words.len() >= 3 && words[0] == "try" {
        if let Some(verb) = words[1].strip_suffix("ing").and_then(|stem| {
            [stem.to_owned(), format!("{stem}e")]
                .into_iter()
                .find(|verb| IMPERATIVES.contains(&verb.as_str()))
        }) {
            words.splice(0..2, [verb]);
        }
    }
    words.len() >= 2
        && words.len() <= 4
        && IMPERATIVES.contains(&words[0].as_str())
        && words[1..].iter().all(|w| BACK.contains(&w.as_str()))
}

/// A verb alone ("implement", "Fix!"): the go-ahead for what the agent
/// proposed.
fn bare_verb(text: &str) -> bool {
    let word = text.trim().trim_end_matches(['.', '!']).to_lowercase();
    IMPERATIVES.contains(&word.as_str())
}

/// Whether a short instruction that points back ("build this", "fix it
/// now") points at what the user wrote in the same message: the message
/// holds more than a few words besides it.
fn refers_within(message: &str, unit: &str) -> bool {
    word_count(message) > word_count(unit) + 3
}

/// A short instruction that points back at what the user wrote with it
/// ("Build this.", "Implement these"): what it points at is theirs to
/// hold the agent to, whatever shape it has.
pub(crate) fn adopts(text: &str) -> bool {
    approval(text)
}

/// A short line that only announces what follows ("do this each run:").
fn lead_in(text: &str) -> bool {
    text.trim_end().ends_with([':', '：']) && word_count(text) <= 8
}

/// Whether a sentence of eight words or fewer is left open on a word that
/// wants what comes next: "we need to basically focus on", "the steps
/// are", "changes including".
fn left_open(text: &str) -> bool {
    const OPEN: &[&str] = &[
        "on",
        "to",
        "with",
        "for",
        "about",
        "like",
        "including",
        "include",
        "following",
        "into",
        "of",
        "are",
        "is",
        "be",
        "as",
        "these",
        "below",
    ];
    word_count(text) <= 8
        && text
            .trim_end()
            .rsplit(char::is_whitespace)
            .next()
            .is_some_and(|last| OPEN.contains(&last.to_lowercase().as_str()))
}

/// What opens with the first item of a list, on the next line that holds
/// anything: "1. linear project update.", "- the parser".
static LIST_NEXT: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^[ \t]*\n\s*([-*•+]|\d{1,2}[.)])\s"));

/// How many words the text has: what stands between spaces, and in
/// Chinese and Japanese, which write none, one for every two of their
/// characters.
pub(crate) fn word_count(text: &str) -> usize {
    text.split_whitespace()
        .map(|token| {
            let wide = token.chars().filter(|&c| wide_script(c)).count();
            if wide == 0 {
                1
            } else {
                (wide / 2).max(1) + usize::from(wide < token.chars().count())
            }
        })
        .sum()
}

/// A character of a script written without spaces between words.
pub(crate) fn wide_script(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' // kana
        | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' // CJK ideographs
    )
}

/// Whether `line` opens with the verb of an instruction, after any list
/// mark or lead word: "Build a complete web platform for …", "-
/// Implementiere ein flexibles Grid-System"; not a label ("**Point 1:**").
pub(crate) fn opens_with_instruction(line: &str) -> bool {
    let rest = after_lead(line.trim_start_matches(|c: char| !c.is_alphanumeric()));
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .unwrap_or(rest.len());
    let label = rest[end..]
        .trim_start_matches(|c: char| matches!(c, '*' | '_' | ' ') || c.is_ascii_digit())
        .starts_with([':', '：']);
    end > 0 && !label && imperative(&rest[..end].to_lowercase())
}

/// Every word is one of [`SPENT`], or one of its long words mistyped by a
/// letter ("continuye", "proceeed").
fn spent(text: &str) -> bool {
    const LONG: usize = 7;
    let mut any = false;
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
        if word.is_empty() {
            continue;
        }
        any = true;
        let word = word.to_lowercase();
        let mistyped = || {
            word.chars().count() >= LONG
                && SPENT
                    .iter()
                    .any(|s| s.chars().count() >= LONG && directive::one_letter_off(s, &word))
        };
        if !SPENT.contains(&word.as_str()) && !mistyped() && !repeated(&word) && !drawn_out(&word) {
            return false;
        }
    }
    any
}

/// Whether `word` is a word of [`SPENT`] with a letter drawn out
/// ("hiiii", "okkk", "yesss", "thanksss"): a run of three or more of one
/// letter, read once, makes the word.
fn drawn_out(word: &str) -> bool {
    let mut once = String::with_capacity(word.len());
    let mut drawn = false;
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        let mut run = 1;
        while chars.next_if_eq(&c).is_some() {
            run += 1;
        }
        drawn |= run >= 3;
        once.push(c);
    }
    drawn && SPENT.contains(&once.as_str())
}

/// Whether `word` is a word of [`SPENT`] typed over and over: "굿굿",
/// "아하아하", "ㅇㅇㅇ", "okok", "hahaha".
fn repeated(word: &str) -> bool {
    /// The longest word read so: a reaction is a few letters typed over.
    const LONGEST: usize = 24;
    let chars: Vec<char> = word.chars().take(LONGEST + 1).collect();
    if chars.len() > LONGEST {
        return false;
    }
    (1..=chars.len() / 2)
        .filter(|&len| chars.len().is_multiple_of(len))
        .any(|len| {
            let (first, rest) = chars.split_at(len);
            rest.chunks(len).all(|chunk| chunk == first) && {
                let once: String = first.iter().collect();
                SPENT.contains(&once.as_str()) || SPENT.contains(&once.repeat(2).as_str())
            }
        })
}

/// Compiles the patterns a unit is judged by, each with what it makes once it
/// is asked of text of another script ([`crate::pattern::prepare`]): a caller about to
/// judge many sessions on several threads has one thread compile them while
/// the others start, where each would otherwise be compiled by the first
/// thread to need it while the rest wait. Every pattern of the module is
/// here (`tests::every_pattern_is_prepared`).
pub fn prepare() {
    crate::pattern::prepare(&[
        &LIST_NEXT,
        &CONSOLE_BANNER,
        &STATED,
        &MEASURE,
        &OPTIONS_NAMED,
        &LETTERS_NAMED,
        &OF_ONESELF,
        &HAPPENED,
        &CJK_NO_CHOICE,
        &VIEW,
        &CORRECTS,
        &ENDORSES,
        &LINK,
        &OWN_SETUP,
        &FILE_NAME,
        &TERM_LINE,
    ]);
    patterns::prepare();
    output::prepare();
    directive::prepare();
}

/// Whether the list item at `start` of `text` is one of a list the user
/// opens by saying what is done ("We have:", "Done so far:", "Completed:"
/// over "- Agent symlinks fixed", "- Changes committed to GitHub"): a
/// report of the state, handed over, not a list of asks.
fn reports_done(text: &str, start: usize) -> bool {
    static DONE: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)(\b(we|i)\s+(have|'ve)(\s+(now|already|so\s+far))?|\b(done|completed|finished|fixed|achieved|accomplished)(\s+so\s+far)?|\bso\s+far|\bwhat('s|\s+is|\s+was)\s+(done|finished|completed)|\balready\s+(done|in\s+place))\s*:\s*$",
        )
    });
    // The line the list hangs from: the first above it that ends in a
    // colon, or that is neither an item nor indented as an item's own
    // second line is (a terminal breaks "- Agent symlinks fixed - /home/…"
    // over two).
    text[..start]
        .lines()
        .rev()
        .filter(|line| !line.trim().is_empty())
        .take(40)
        .find(|line| {
            let item = line.trim_start();
            line.trim_end().ends_with(':')
                || !(line.starts_with(char::is_whitespace)
                    || item.starts_with(['-', '*', '•'])
                    || item.starts_with(|c: char| c.is_ascii_digit()))
        })
        .is_some_and(|line| DONE.is_match(line.trim_end()))
}

/// A line that names a term and says what it is, as a list's entry does
/// without its bullet: "Documents - manually managed reference", "Archives:
/// static files".
static TERM_LINE: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^\s*\w[\w .'/&()]{0,40}?(\s+[-–—]\s+|:\s+)\w"));

/// Whether the line at `start` of `text` is an entry of a list the user
/// typed without bullets: two or more lines in a row that each name a term
/// and say what it is ([`TERM_LINE`]), under a line of the user's that
/// announces them with a colon ("it's basically:"). Such entries are
/// requirements as a bulleted list's are.
fn unmarked_item(text: &str, start: usize) -> bool {
    /// The most entries such a list holds: past it the lines are a table
    /// or a listing handed over, and no line walks up more than this.
    const MOST: usize = 40;
    if !(start == 0 || text[..start].ends_with('\n')) {
        return false;
    }
    let term = |line: &str| TERM_LINE.is_match(line) && !line.trim_end().ends_with(':');
    let mut down = text[start..].lines();
    if !down.next().is_some_and(term) {
        return false;
    }
    let (mut up, mut above, mut gap) = (text[..start].lines().rev(), 0, false);
    let announced = loop {
        match up.next() {
            Some(line) if term(line) && !gap && above < MOST => above += 1,
            // Blank lines may stand under the announcing line.
            Some(line) if line.trim().is_empty() => gap = true,
            Some(line) => break line.trim_end().ends_with(':') && !TERM_LINE.is_match(line),
            None => break false,
        }
    };
    // One entry is no list: another stands above it or under it.
    announced && (above > 0 || down.next().is_some_and(term))
}

#[cfg(test)]
mod tests;

/// An entry of a list a line announced ("All models must include:" over
/// "id (cuid/uuid)", "createdAt, updatedAt"): a name, a field, an option —
/// a few words, or a few names set side by side, with no sentence or rule
/// of their own. Such a list is one requirement with the line over it,
/// as a person reads it.
pub(crate) fn entry(text: &str) -> bool {
    entry_of(text, 5)
}

/// Whether `text` is an entry of a list written as lines of their own
/// without Markdown's markers ("Main must not do it itself unless:" over
/// " the task is too small to justify delegation", " the task is final
/// synthesis"): as [`entry`], a clause of up to twelve words too.
pub(crate) fn line_entry(text: &str) -> bool {
    entry_of(text, 12)
}

fn entry_of(text: &str, most_words: usize) -> bool {
    static RULE: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)\b(must|mustn't|should|shouldn't|shall|never|always|only|not|don't|dont|need|needs|required|cannot|can't)\b|必须|不要|不能|禁止|只|务必|一定",
        )
    });
    // What parentheses hold is a note on the name, not a sentence of its own.
    let bare = outside_parentheses(text);
    let bare = bare.trim();
    // A field with its value ("收货地址：印度", "Name: ____") is a value
    // given, or one still to give, not a name in a list.
    // An instruction of three words or more ("Show me the script
    // location", "Explain how to run it") asks on its own: a list of them
    // is steps, each judged as its own.
    let instruction = || {
        let item = bare.trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '.' | ')' | '-' | '*' | '+' | ' ')
        });
        word_count(item) >= 3 && opens_with_instruction(item)
    };
    // A clause written in a script without spaces runs longer than a
    // name: twelve characters of it ("扫描整个项目的架构，确认依赖关系")
    // say what to do, where a name is a few ("计划报告").
    const WIDE_CLAUSE: usize = 12;
    !bare.is_empty()
        && !super::units::stands_alone(text)
        && bare.chars().filter(|&c| wide_script(c)).count() < WIDE_CLAUSE
        && !bare.contains([':', '：'])
        && !bare.ends_with(['.', '!', '?', ';', '。', '！', '？', '；'])
        && !RULE.is_match(bare)
        && bare
            .split([',', '，', '、', '/', '+'])
            .all(|names| word_count(names) <= most_words)
        && !instruction()
}

/// The line `text` without the colon that ends it, when one does: the words
/// that announce a list.
pub(crate) fn announces(text: &str) -> Option<&str> {
    let trimmed = text.trim_end();
    let words = trimmed.strip_suffix([':', '：'])?;
    (!words.trim().is_empty()).then_some(words)
}

/// A line set in bold alone, as a heading is written where Markdown's `#`
/// is not ("**Projectomschrijving:**", "**Database**", "**Tech Stack
/// (verplicht):**"): a heading, unless it asks something of its own
/// ("**Never push to main.**"); one that ends with a colon over what
/// follows leads into it whatever it says, but for a ban.
fn bold_heading(text: &str, follows: bool) -> bool {
    let Some(inner) = in_bold(text) else {
        return false;
    };
    if word_count(inner) > 10 {
        return false;
    }
    let leads = follows && text.trim_end().ends_with([':', '：']);
    let bare = inner.trim_end_matches([':', '：']);
    !directive(&bare.to_lowercase()) || (leads && !BAN.is_match(bare))
}

/// The words of a unit set in bold whole, without the marks ("**研发排期表**"
/// is "研发排期表"); any other unit as it is.
pub(crate) fn unbolded(text: &str) -> &str {
    in_bold(text).map_or(text, |inner| inner.trim())
}

/// What a unit set in bold whole says ("**Never push to main.**"), its
/// stop inside the bold or after it. (A sentence that ends inside the
/// bold is cut there, before the closing mark: "**Never push to main.")
fn in_bold(text: &str) -> Option<&str> {
    let trimmed = text.trim();
    ["**", "__"].iter().find_map(|mark| {
        let opened = trimmed.strip_prefix(mark)?;
        let inner = opened
            .trim_end_matches(['.', '!', ':', '：'])
            .strip_suffix(mark)
            .unwrap_or(opened);
        (!inner.contains(mark) && !inner.trim().is_empty()).then_some(inner)
    })
}

/// A line written as a heading in capitals, with no Markdown to mark it,
/// over what follows it: "NON-NEGOTIABLE REQUIREMENTS", "PROJECT CONTEXT
/// (READ THIS CAREFULLY)", "PHASE 1 — PLANNER (repo read + plan)". A
/// shouted instruction ("DO NOT DELETE THE DATABASE") asks something, and
/// is no heading.
fn capital_heading(message: &str, unit: &Unit, text: &str) -> bool {
    let (start, end) = (unit.range.start, unit.range.end);
    let opens = message
        .get(super::units::line_start(message, start)..start)
        .is_some_and(|before| before.trim().is_empty());
    let rest = message.get(end..).unwrap_or_default();
    let closes = rest.trim_start_matches([' ', '\t']).starts_with('\n') && !rest.trim().is_empty();
    if !opens || !closes {
        return false;
    }
    // What parentheses hold may be in any case.
    let bare = outside_parentheses(text);
    let letters = bare.chars().filter(|c| c.is_alphabetic());
    letters.clone().count() >= 4
        && letters.clone().all(char::is_uppercase)
        && word_count(&bare) <= 8
        && !bare.trim_end().ends_with(['.', '!', '?'])
        && !directive(&bare.to_lowercase())
}

/// A line that gives a field its value ("AgentId：4378623307", "Port: 8080"),
/// not one still to fill in ("Name: ____"), nor a line of a document
/// whose label is set in bold ("**ORM** : SQLAlchemy 2.0"): a brief's
/// choices, each its own.
pub(crate) fn field_line(text: &str) -> bool {
    FIELD.is_match(text.trim_end())
        && !blank_field(text)
        && !clause_valued(text)
        && !text.trim_start().starts_with("**")
}

/// Whether what follows a line's label is a clause, not a value: words
/// set apart by commas, or more than six of them ("第一阶段：使用当前模拟
/// 数据，验证整个SOP流程", "Phase 2: add a simple web search, then the
/// browser"). Lines of such are steps or rules, each its own; lines of
/// values ("Client ID：ding…", "Port: 8443") are one record.
fn clause_valued(text: &str) -> bool {
    let value = text
        .split_once([':', '：'])
        .map_or("", |(_, value)| value.trim());
    value.contains(['，', '。', '；']) || value.contains(", ") || word_count(value) > 6
}

/// `text` without what its parentheses, plain or full-width, hold.
fn outside_parentheses(text: &str) -> String {
    let mut bare = String::with_capacity(text.len());
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '（' => depth += 1,
            ')' | '）' => depth = depth.saturating_sub(1),
            _ if depth == 0 => bare.push(c),
            _ => {}
        }
    }
    bare
}

//! Whether a unit asks the agent to act or to hold to something: words of
//! obligation or wish, or a clause that opens with an instruction or a ban.

use super::*;
use crate::pattern::Pattern;

/// The text after what it opens with ("ok, now …"), after the marks a
/// line is set out with ("❌ Don't touch the database", "→ use pnpm"), and
/// after a file mentioned with `@` before it (not a person: "@yakschuss
/// reply…").
pub(super) fn after_lead(text: &str) -> &str {
    let text = text.trim_start_matches(|c: char| c.is_whitespace() || mark(c));
    // "@src/api/routes.ts look at this file and …": the file the runtime
    // attaches, named before the instruction.
    let text = crate::audit::units::after_mention(text).unwrap_or(text);
    let Some(lead) = LEAD.find(text) else {
        return text;
    };
    let rest = &text[lead.end()..];
    // "Think hard about how to refactor the code": "think hard" leads an
    // instruction ("think hard, then fix it"), or is the instruction, when
    // what it is to think about follows.
    let about = ["about ", "through ", "over "].iter().any(|word| {
        rest.get(..word.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(word))
    });
    if !about {
        return rest;
    }
    // Lowered as ASCII, so its offsets are the text's.
    let led = text[..lead.end()].to_ascii_lowercase();
    let led = led.trim_end_matches(|c: char| !c.is_alphanumeric());
    match led.rfind("think") {
        Some(at) if led.ends_with("hard") || led.ends_with("harder") => &text[at..],
        _ => rest,
    }
}

/// A symbol that sets out a line and says nothing itself: an arrow, a
/// bullet, a check mark or a cross, an emoji (and the selector that makes
/// one of a symbol).
fn mark(c: char) -> bool {
    matches!(c,
        '•' | '·' | '▪' | '◦'
        | '\u{2190}'..='\u{21FF}'
        | '\u{2300}'..='\u{23FF}'
        | '\u{25A0}'..='\u{27BF}'
        | '\u{2900}'..='\u{297F}'
        | '\u{2B00}'..='\u{2BFF}'
        | '\u{FE0E}' | '\u{FE0F}'
        | '\u{1F000}'..='\u{1FAFF}')
}

/// Whether the unit states a rule in words of obligation, wish or ban,
/// whatever its verbs: "must", "doivent", "不要", "Ne jamais modifier les
/// tables", "Constraint: no new dependencies", "**Principe** : PAS de LLM
/// pour décider".
/// Of what a specification handed over says, this is what binds
/// ([`directive`] reads more: a verb that opens a clause asks in a chat
/// message, and describes in a design: "Accueille l'idée").
pub(crate) fn rule_stated(text: &str) -> bool {
    rule_words(text) || clauses(text).any(|clause| opens_with_ban(after_lead(clause.trim_start())))
}

/// Whether a clause, after its lead words, opens with a ban or a rule for
/// always ("never …", "only …"), not with what the user does not grasp
/// ("don't understand the second state").
fn opens_with_ban(rest: &str) -> bool {
    BAN.is_match(rest) && !OWN_STATE.is_match(rest)
}

/// Words of obligation, wish or ban anywhere in the unit ([`rule_stated`]
/// without the clause that opens with a ban, which [`directive`] reads
/// with the rest of each clause).
fn rule_words(text: &str) -> bool {
    ASKS_OF.is_match(text)
        || (PROHIBITION.is_match(text) && !trouble_gone(text))
        || FRENCH_BAN.is_match(text)
        || GOAL_LABEL.is_match(text)
        || CJK_ASKS.is_match(text)
        || KOREAN_REQUEST.is_match(text)
        || JAPANESE_NOTE.is_match(text)
        || HEBREW_ASKS.is_match(text)
        || ROMANCE_WISH.is_match(text)
        || german_you_do(text)
        || korean_rule(text)
        || (VIETNAMESE_ASKS.is_match(text) && !VIETNAMESE_OWN.is_match(text))
        || THAI_ASKS.is_match(text)
}

/// Whether the unit asks the agent to act or to hold to something: words of
/// obligation or wish anywhere, or a clause that opens with an instruction
/// or a ban ("… main.ts, just call it main-new").
pub(crate) fn directive(text: &str) -> bool {
    // "Yes please" answers: what follows it is judged on its own ("ja
    // bitte ich bin super gespannt" tells how the user feels, "yes please,
    // use the staging bucket" asks).
    static YES_PLEASE: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*(yes|yeah|yep|ok|okay|sure|ja|jo|sí|si|sim|oui|da|tak|ano)[\s,]+(please|pls|plz|bitte|por\s+favor|s'il\s+te\s+pla[iî]t|s'il\s+vous\s+pla[iî]t|per\s+favore|prosím|proszę|пожалуйста)\b[\s,.!:-]*",
        )
    });
    if let Some(yes) = YES_PLEASE.find(text) {
        let rest = &text[yes.end()..];
        if !rest.trim().is_empty() {
            return directive(rest);
        }
    }
    // "We're going with option B", "I'll take the second": a choice.
    static CHOSEN: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*((we('re|\s+are|'ll|\s+will)|i('m|\s+am|'ll|\s+will|'d|\s+would)|let's)\s+)?(go(ing)?\s+with|take|pick|choose)\s+(option|choice|variant|approach|plan|the\s+(first|second|third|last|former|latter)|#?\d|[a-f]\b)",
        )
    });
    // "see ~/.claude/CLAUDE.md for the correct ones": the file to read;
    // "correction: primary isn't only for rules": what the user meant,
    // put right; "E dì ad Amy di mettere in cima un executive report": what
    // to tell another agent (Italian "dì", tell, typed as "di"); "Continue
    // with: Direct implementation of …": what to go on with, after a colon.
    static PLAIN_ASKS: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*((please\s+)?see\s+[`'\x22]?[\w~.@-]*(/[\w.-]+|\.[A-Za-z]{1,5}\b)|(correction|clarification)\s*:\s*\w|(e\s+)?(dì|di'?)\s+(a|ad|al|alla|allo|ai|agli)\s+\w+\s+(di|che)\s+\w|(continue|start|begin|proceed|go\s+on|focus)\s+(with|on|by)\s*:\s*\w)",
        )
    });
    if CHOSEN.is_match(text) || rule_words(text) || STEP.is_match(text) || PLAIN_ASKS.is_match(text)
    {
        return true;
    }
    // Words of obligation mistyped by one letter ("neexs to", "alwyas").
    if text.split(|c: char| !c.is_alphanumeric()).any(|w| {
        let w = w.to_lowercase();
        w.chars().count() >= 5
            && ["always", "never", "needs", "should", "please"]
                .iter()
                .any(|m| *m != w && one_letter_off(m, &w))
    }) {
        return true;
    }
    if fronted_instruction(after_lead(text.trim_start())) || object_first(text) {
        return true;
    }
    // One pass over the words for what binds wherever it stands: "… but
    // always keep our conversation in English" (a rule however the
    // sentence opens), and "gli altri problemi spostali nel file …" (an
    // Italian verb with its pronoun written on).
    let mut words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase);
    while let Some(word) = words.next() {
        if word.len() > 4 && ITALIAN.contains(&word.as_str()) && clitic(&word) {
            return true;
        }
        // "always", "never", in the languages the verbs are listed in
        // ("Всегда используй pnpm", "siempre usa pnpm").
        if matches!(
            word.as_str(),
            "always"
                | "never"
                | "всегда"
                | "никогда"
                | "siempre"
                | "nunca"
                | "altijd"
                | "nooit"
                | "vždy"
                | "nikdy"
                | "zawsze"
                | "nigdy"
                | "sempre"
        ) && words.next().is_some_and(|verb| listed(&verb))
        {
            return true;
        }
    }
    // "the plan looks good but change step 3": an instruction after "but",
    // its verb as the list holds it ("it works but returns null" reports).
    if text.split(" but ").skip(1).any(|after| {
        after
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .find(|w| !w.is_empty())
            .is_some_and(|verb| IMPERATIVES.contains(&verb.to_lowercase().as_str()))
    }) {
        return true;
    }
    // "Rafael, convene the full Council.", "🛡️ Michael: conduct an audit":
    // the clause after the name the user calls opens like a message.
    let addressed = text.split([',', ':']).next().is_some_and(vocative);
    clauses(text).enumerate().any(|(n, clause)| {
        // "…, lets continue with our plan": a control word, spent.
        if GO_ON.is_match(clause) {
            return false;
        }
        let rest = after_lead(clause.trim_start());
        // "pode me chamar de Pi" (you can call me Pi) asks as it permits.
        if REQUEST_FORM.is_match(rest) {
            return true;
        }
        // "you can use git to pull it", "feel free to drop it": what is
        // permitted, asked of again only where there was a permission.
        let rest = match PERMITS.find(rest) {
            Some(permit) => {
                let permitted = &rest[permit.end()..];
                if REQUEST_FORM.is_match(permitted) {
                    return true;
                }
                permitted
            }
            None => rest,
        };
        if opens_with_ban(rest) {
            return true;
        }
        if no_more(clause) {
            return true;
        }
        // A verb no list holds, opening the message's first clause
        // before its object ("Iterate on the interview until …").
        if (n == 0 || (n == 1 && addressed)) && verb_of_no_list(rest) {
            return true;
        }
        let mut words = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
            .filter(|w| !w.is_empty());
        let first = words.next().unwrap_or_default().to_lowercase();
        // "→ l'activer": French writes the pronoun onto the verb.
        let first = match first.strip_prefix("l'") {
            Some(verb) if verb.len() > 3 => verb.to_owned(),
            _ => first,
        };
        // After the first clause the verb must not be followed by
        // another verb, so a noun that is also a verb ("…, export looks
        // good") is not one.
        // A word alone on its line is an instruction only as the
        // lists write it: "handled" or "false" amid a pasted page is
        // no typo of "handle" or "fasse".
        let alone = rest.split_whitespace().nth(1).is_none();
        (if alone {
            listed(&first)
        } else {
            imperative(&first)
        }) && (n == 0
            || words.next().is_none_or(|w| {
                let w = w.to_lowercase();
                OBJECTS.contains(&w.as_str()) || !AUXILIARIES.contains(&w.as_str())
            }))
    })
}

/// The clauses of `text`, where a comma, a semicolon, a colon, an opening
/// parenthesis or an ellipsis ends one ("you broke the pages...go back and
/// check"), where an arrow or a dash set apart by spaces leads from a
/// condition to what to do then ("Si COUNT > 0 → STOP, me rapporter le
/// contenu", "If there's no plan but the feedback is there - start from
/// creating the plan"), and before "then" ("if it's missing then create
/// it") or "so" ("the plan is in plan.md so check it carefully").
fn clauses(text: &str) -> impl Iterator<Item = &str> {
    text.split([',', ';', '(', ':', '→', '…'])
        .flat_map(|part| part.split("..."))
        .flat_map(|part| part.split(" - "))
        .flat_map(|part| part.split(" – "))
        .flat_map(|part| part.split(" — "))
        .flat_map(|part| part.split(" then "))
        .flat_map(|part| part.split(" so "))
}

/// Whether an Italian verb has the pronoun written onto it ("spostali",
/// "fammi", "salvalo"): only the imperative (of the forms users write)
/// takes it so; a bare "controlla" is also "it checks". `word` is in
/// lower case.
fn clitic(word: &str) -> bool {
    let bare = ["lo", "li", "mi"]
        .iter()
        .find_map(|pronoun| word.strip_suffix(pronoun));
    // "fammi", "dammi", "dimmi", "fallo": the verb's last letter doubled.
    bare.is_some_and(|verb| {
        ITALIAN.contains(&verb) || matches!(verb, "fam" | "dam" | "dim" | "fal")
    })
}

/// Whether `clause` only calls someone by name: one or two words, each
/// capitalized, after any emoji ("Rafael", "🛡️ Michael", "Council").
fn vocative(clause: &str) -> bool {
    let words: Vec<&str> = clause
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .split_whitespace()
        .collect();
    (1..=2).contains(&words.len())
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().all(char::is_alphabetic)
                && !OPENS_NO_INSTRUCTION.contains(&w.to_lowercase().as_str())
        })
}

/// Words that open a sentence that states, asks or reacts: determiners,
/// pronouns, prepositions, conjunctions, adverbs, adjectives and nouns a
/// remark opens with. A word not among them, nor shaped like a noun, an
/// adjective or an inflected verb, that stands before an object, is taken
/// for a verb of an instruction.
#[rustfmt::skip]
pub(super) const OPENS_NO_INSTRUCTION: &[&str] = &[
    "a", "an", "the", "this", "that", "these", "those", "some", "any", "every", "each", "all",
    "both", "either", "neither", "more", "most", "less", "least", "much", "many", "few", "other",
    "another", "such", "same", "very", "quite", "rather", "really", "almost", "already", "even",
    "still", "just", "only", "here", "there", "then", "now", "today", "tomorrow", "yesterday",
    "later", "before", "after", "since", "while", "when", "where", "what", "which", "who", "whom",
    "whose", "why", "how", "once", "again", "too", "not", "yes", "no", "ok", "okay", "hi", "hello",
    "hey", "thanks", "thank", "please", "great", "good", "nice", "cool", "awesome", "perfect",
    "fine", "sure", "right", "wrong", "true", "false", "new", "old", "first", "second", "third",
    "last", "next", "previous", "current", "without", "within", "about", "above", "across",
    "against", "along", "among", "around", "at", "behind", "below", "beneath", "beside", "between",
    "beyond", "by", "despite", "down", "during", "for", "from", "in", "inside", "into", "like",
    "near", "of", "off", "on", "onto", "out", "outside", "over", "past", "per", "through",
    "throughout", "to", "toward", "towards", "under", "until", "up", "upon", "with", "via", "my",
    "your", "his", "her", "its", "our", "their", "i", "you", "he", "she", "it", "we", "they", "me",
    "him", "us", "them", "anyway", "however", "though", "although", "otherwise", "therefore",
    "thus", "hence", "overall", "whatever", "everything", "anything", "nothing", "something",
    "someone", "everyone", "nobody", "somebody", "sorry", "welcome", "except", "regarding",
    "apart", "because", "maybe", "perhaps", "instead", "glad", "happy", "and", "but", "or", "nor",
    "so", "yet", "if", "unless", "whether", "than", "as", "also", "well", "ah", "oh", "wow", "hmm",
    "lol", "btw", "fyi", "tbh", "imo", "re", "weird", "strange", "odd", "funny", "interesting",
    "amazing", "beautiful", "excellent", "lovely", "better", "worse", "best", "worst", "faster",
    "slower", "larger", "smaller", "bigger", "easier", "harder", "simpler", "cleaner", "shorter",
    "longer", "higher", "closer", "further", "together", "never", "ever", "always", "problem",
    "issue", "error", "question", "context", "idea", "reason", "result", "info", "information",
    "background", "example", "detail", "details", "thing", "stuff", "part", "point", "rest",
    "case", "story", "goal", "status", "progress", "feedback", "summary", "response", "answer",
    "bug", "plus", "minus", "half", "one", "two", "three", "nope", "yeah", "yep", "cause", "cuz",
    "definitely", "certainly", "basically", "probably", "honestly", "actually", "clearly",
    "obviously", "apparently", "hopefully", "ideally", "personally", "currently", "usually",
    "i've", "ive", "i'm", "im", "i'll", "i'd", "we've", "weve", "we're", "it's", "that's",
    "thats", "there's", "theres", "here's", "heres",
];

/// Words a verb stands before in an instruction besides its
/// [`OBJECTS`]: a preposition or a possessive ("iterate on", "interview
/// about", "update their").
#[rustfmt::skip]
pub(super) const AFTER_VERB: &[&str] = &[
    "their", "his", "her", "its", "about", "for", "from", "into", "through", "at", "by", "away",
    "around",
];

/// An instruction after what it is about: "in X:\\addons\\company edit
/// the view list …", "for photos and receipt add a checkbox …". A
/// preposition opens it, and a verb before its object follows within five
/// words.
pub(super) fn fronted_instruction(rest: &str) -> bool {
    const FRONTS: &[&str] = &["in", "for", "on", "inside", "within", "at", "from", "under"];
    let words: Vec<String> = rest
        .split_whitespace()
        .take(8)
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let Some(front) = words.first() else {
        return false;
    };
    // What the preposition is about is named bare ("X:\\addons",
    // "photos and receipt"): after an article or a determiner the words
    // are a sentence's own ("in the last run the build took an hour").
    const DETERMINERS: &[&str] = &[
        "the", "a", "an", "this", "that", "these", "those", "my", "our", "your", "its", "their",
        "his", "her", "some", "any", "each", "every", "last", "first", "next", "to",
    ];
    FRONTS.contains(&front.as_str())
        && (2..words.len().saturating_sub(1).min(7)).any(|at| {
            words[1..at]
                .iter()
                .all(|w| !DETERMINERS.contains(&w.as_str()))
                && imperative(&words[at])
                && OBJECTS.contains(&words[at + 1].as_str())
        })
}

/// An instruction after its object, which a pronoun takes up: "the
/// issues you identified, store them into the memory", "all the
/// screenshots put them in docs/". No subject or modal stands before the
/// verb ("we store them in the cache" says what is done).
pub(super) fn object_first(text: &str) -> bool {
    static TAKEN_UP: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(r"(?i)\b(\w+)\s+(\w+)\s+(them|it|these|those)\s+(in|into|to|on|under|inside|as)\b")
    });
    const SUBJECTS: &[&str] = &[
        "i", "you", "we", "they", "he", "she", "it", "to", "will", "would", "can", "could",
        "should", "did", "do", "does", "don't", "didn't", "who", "that", "which", "and", "or",
        "then", "also", "just",
    ];
    TAKEN_UP.captures_iter(text).any(|c| {
        let before = c.get(1).map_or("", |m| m.as_str()).to_lowercase();
        let verb = c.get(2).map_or("", |m| m.as_str()).to_lowercase();
        IMPERATIVES.contains(&verb.as_str()) && !SUBJECTS.contains(&before.as_str())
    })
}

/// Whether `rest` opens with a verb of no list before its object: a word
/// that [`OPENS_NO_INSTRUCTION`] does not hold, not shaped like a noun, an
/// adjective or an inflected verb (`-ing`, `-ed`, `-ly`, `-s`, `-ful`,
/// `-ous`, `-ive`, `-able`, `-ible`, `-al`, `-ic`, `-ish`, `-less`,
/// `-ness`, `-ment`, `-tion`, `-sion`, `-ity`), followed by a word of
/// [`OBJECTS`] or [`AFTER_VERB`].
pub(super) fn verb_of_no_list(rest: &str) -> bool {
    const NOT_A_VERB: &[&str] = &[
        "ing", "ed", "ly", "ful", "ous", "ive", "able", "ible", "al", "ic", "ish", "less", "ness",
        "ment", "tion", "sion", "ity",
    ];
    let mut words = rest.split_whitespace();
    let (Some(first), Some(second)) = (words.next(), words.next()) else {
        return false;
    };
    if !first.chars().all(|c| c.is_ascii_alphabetic())
        || first.len() < 4
        || first.chars().skip(1).any(|c| c.is_ascii_uppercase())
    {
        return false;
    }
    let verb = first.to_ascii_lowercase();
    let object = second
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    !OPENS_NO_INSTRUCTION.contains(&verb.as_str())
        && !NOT_A_VERB.iter().any(|end| verb.ends_with(end))
        && (!verb.ends_with('s') || verb.ends_with("ss"))
        && second.chars().all(|c| c.is_alphanumeric() || c == '\'')
        && (OBJECTS.contains(&object.as_str()) || AFTER_VERB.contains(&object.as_str()))
}

/// Whether `text` tells in German what "you" do ([`GERMAN_YOU_DO`]), with
/// a verb of doing: "bist", "hast", "wirst", "weißt" say what is.
fn german_you_do(text: &str) -> bool {
    const BEING: &[&str] = &[
        "bist", "hast", "wirst", "warst", "hattest", "weißt", "siehst", "kannst", "fast", "erst",
        "selbst", "sonst", "meist", "längst", "zuerst", "musst", "sollst",
    ];
    GERMAN_YOU_DO.captures(text).is_some_and(|found| {
        found
            .name("verb")
            .is_some_and(|verb| !BEING.contains(&verb.as_str().to_lowercase().as_str()))
    })
}

/// Whether a word is a verb that opens an instruction (or one mistyped by
/// a letter).
pub(super) fn imperative(word: &str) -> bool {
    listed(word) || mistyped(word)
}

/// Whether a word is a verb that opens an instruction, as the lists hold
/// it, with its accents or without, or with its pronoun.
fn listed(word: &str) -> bool {
    /// The verbs of every list, looked up at once: each word of every
    /// clause is asked, and the lists hold some eight hundred verbs.
    static VERBS: LazyLock<foldhash::HashSet<&'static str>> = LazyLock::new(|| {
        [IMPERATIVES, SPANISH, DUTCH, CZECH, POLISH, ITALIAN]
            .into_iter()
            .flatten()
            .copied()
            .collect()
    });
    if VERBS.contains(word) {
        return true;
    }
    // "pásalo", "asegúrate": a Spanish verb and the pronoun written onto it.
    if word.len() > 4 {
        let bare = unaccented(word);
        if SPANISH_PRONOUNS.iter().any(|pronoun| {
            bare.strip_suffix(pronoun)
                .is_some_and(|verb| verb.len() >= 3 && SPANISH_UNACCENTED.contains(verb))
        }) {
            return true;
        }
    }
    // "montre-moi", "fais-le": a verb and the pronoun it takes.
    if let Some((verb, pronoun)) = word.split_once('-') {
        const PRONOUNS: &[&str] = &[
            "moi", "toi", "le", "la", "les", "lui", "nous", "vous", "en", "y", "leur", "me", "te",
        ];
        if PRONOUNS.contains(&pronoun) && imperative(verb) {
            return true;
        }
    }
    // Indonesian asks with a verb in -kan: "implementasikan",
    // "kerjakan", "tampilkan".
    if word.is_ascii() && word.len() >= 7 && word.ends_with("kan") {
        return true;
    }
    // Typed without its accents.
    if word.is_ascii() {
        UNACCENTED.contains(word)
    } else {
        UNACCENTED.contains(&unaccented(word))
    }
}

/// Whether a word is a verb of five letters or more mistyped by a letter
/// ("implment", "udpate").
fn mistyped(word: &str) -> bool {
    if word.chars().count() < 5 {
        return false;
    }
    // The verbs one letter from `word` share a deletion with it (or are
    // it less one letter, or it less one letter is them): look those up
    // rather than measure the distance to every verb.
    let deletions = word.char_indices().map(|(at, c)| {
        let mut less = String::with_capacity(word.len());
        less.push_str(&word[..at]);
        less.push_str(&word[at + c.len_utf8()..]);
        less
    });
    std::iter::once(word.to_owned())
        .chain(deletions)
        .filter_map(|key| TYPOS.get(&key))
        .flatten()
        .any(|verb| one_letter_off(verb, word))
}

/// Each verb of [`IMPERATIVES`] and [`SPANISH`] of five letters or more,
/// under itself and under each of its one-letter deletions.
pub(super) static TYPOS: LazyLock<std::collections::HashMap<String, Vec<&'static str>>> =
    LazyLock::new(|| {
        let mut typos: std::collections::HashMap<String, Vec<&'static str>> =
            std::collections::HashMap::new();
        for verb in IMPERATIVES
            .iter()
            .chain(SPANISH)
            .filter(|verb| verb.len() >= 5)
        {
            typos.entry((*verb).to_owned()).or_default().push(verb);
            for (at, c) in verb.char_indices() {
                let less = format!("{}{}", &verb[..at], &verb[at + c.len_utf8()..]);
                typos.entry(less).or_default().push(verb);
            }
        }
        typos
    });

/// One letter added, dropped, changed or two swapped: a typo of `word`.
/// Lengths apart by more than one cannot be, and are not compared.
///
/// What the two share at either end is set aside, and what is left must be
/// one letter in one or both, or two letters swapped: the Damerau-Levenshtein
/// distance of 1 (a test holds it to `strsim`'s), without the table of every
/// letter that measure builds for each pair of words.
pub(super) fn one_letter_off(word: &str, typed: &str) -> bool {
    if word.len().abs_diff(typed.len()) > 4 {
        return false;
    }
    let shared = |a: &mut dyn Iterator<Item = char>, b: &mut dyn Iterator<Item = char>| {
        a.zip(b)
            .take_while(|(x, y)| x == y)
            .map(|(x, _)| x.len_utf8())
            .sum::<usize>()
    };
    let before = shared(&mut word.chars(), &mut typed.chars());
    let (word, typed) = (&word[before..], &typed[before..]);
    let after = shared(&mut word.chars().rev(), &mut typed.chars().rev());
    let (word, typed) = (&word[..word.len() - after], &typed[..typed.len() - after]);
    let mut left = word.chars();
    let mut right = typed.chars();
    match (
        [left.next(), left.next(), left.next()],
        [right.next(), right.next(), right.next()],
    ) {
        ([Some(_), None, _], [None, ..])
        | ([None, ..], [Some(_), None, _])
        | ([Some(_), None, _], [Some(_), None, _]) => true,
        ([Some(a), Some(b), None], [Some(c), Some(d), None]) => a == d && b == c,
        _ => false,
    }
}

/// Words that follow a noun, not a verb used as an instruction.
pub(super) const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "could", "should",
    "does", "did", "looks", "seems", "works", "feels", "sounds", "needs", "goes", "shows", "runs",
    "fails", "breaks", "appears", "gets", "makes", "takes", "says", "means", "lives", "sits",
    "stays", "keeps", "uses", "calls", "returns", "starts", "stops", "loads", "renders",
];

/// What may come before an instruction a user permits: "you can …", "feel
/// free to …".
pub(super) static PERMITS: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^(you\s+(can|could|may)\s+(just\s+|also\s+)?|feel\s+free\s+to\s+|pode\s+|podes\s+|du\s+kannst\s+)",
    )
});

/// A clause that only tells the agent to go on with what it was doing
/// ("lets continue with our plan", "please proceed", "keep going", "let's
/// continue where we left off", "続けて", "응 계속해", "tiếp tục đi", "да,
/// продолжай", "vas-y"): a control word, spent as it is read.
pub(super) static GO_ON: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|so|now|then|yes|and|great|good)[\s,!.]+)*((let's|lets|let\s+us|please|pls)\s+)?(continue|proceed|carry\s+on|keep\s+(going|fixing|working|trying|at\s+it)|go\s+on|resume|(have|take)\s+a\s+look)(\s+(with|on))?(\s+(the|our|this|your|my))?(\s+(plan|work|task|tasks|implementation|step|steps))?(\s+(from\s+)?where\s+(we|you|i)\s+(left\s+off|stopped|were))?(\s+(please|then|now))?\s*[.!]*\s*$|^\W*((はい|うん|ok|では|じゃあ)[、,\s]*)?(続けて|つづけて|進めて|すすめて|続行して)(ください|下さい|くれ)?[。！!～~]*\s*$|^\W*((응|네|예|ㅇㅇ|ok|오케이)[\s,]*)?(계속|진행)\s*(해|해줘|해주세요|해요|하자|진행해|진행해줘|진행해주세요)?[.!~]*\s*$|^\W*((ok|oke|vâng|ừ|dạ|được)[\s,]*)?(tiếp\s+tục|làm\s+tiếp)(\s+(đi|nhé|nha))?[.!]*\s*$|^\W*((да|ок|окей|хорошо|ладно)[\s,]*)?(продолжай(те)?|давай\s+дальше|дальше)[.!]*\s*$|^\W*((ok|oui|d'accord|parfait)[\s,]*)?(vas-y|allez-y|continue[sz]?)[.!]*\s*$",
    )
});

/// "no more emojis in the commit messages": a ban from now on, which the
/// lead "no" would otherwise take for an answer.
fn no_more(clause: &str) -> bool {
    static NO_MORE: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*((ok|okay|and|also|but|so|please|pls|from\s+now\s+on)[\s,]+)*no\s+more\s+[\w-]+",
        )
    });
    NO_MORE
        .find(clause)
        .is_some_and(|found| !trouble_gone(found.as_str()))
}

/// "no more errors", "no warnings now": what the user sees, no ban.
fn trouble_gone(text: &str) -> bool {
    static TROUBLE_GONE: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*no\s+(more\s+|longer\s+any\s+)?(errors?|bugs?|crash(es)?|warnings?|issues?|problems?|failures?|exceptions?|complaints?|lag|flicker(ing)?|red)\b",
        )
    });
    TROUBLE_GONE.is_match(text)
}

/// A sentence in Korean's plain declarative of an action ("…표시한다.",
/// "…사용하지 않는다.", "…비활성화 된다."): the register a specification is
/// written in, each sentence a rule. (Korean asks in chat with "…해줘" and
/// "…해주세요"; a state, "…있다", "…이다", is no action.)
fn korean_rule(text: &str) -> bool {
    let body = text.trim_end().trim_end_matches(['.', '!', '。', ' ']);
    let mut last = body.chars().rev();
    last.next() == Some('다')
        && last.next().is_some_and(|c| {
            // A syllable closed by ㄴ: its final consonant is the fourth.
            ('\u{AC00}'..='\u{D7A3}').contains(&c) && (u32::from(c) - 0xAC00) % 28 == 4
        })
}

/// Compiles this module's patterns ([`super::prepare`]).
pub(super) fn prepare() {
    crate::pattern::prepare(&[&PERMITS, &GO_ON]);
}

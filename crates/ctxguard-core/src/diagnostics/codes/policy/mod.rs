//! Codes of the policy linter (`ctxguard check`). Each code's explanation
//! and the constructors of its diagnostics (message and help) live together
//! here (those of `extends` in `extends.rs`); the checks that report them
//! are in `src/policy/`.

use super::echo;
use crate::diagnostics::explain::Explanation;
use crate::diagnostics::{Code, Diagnostic};

mod extends;

pub(crate) use extends::*;

// `syntax`

pub(crate) const SYNTAX: Explanation = Explanation {
    code: Code::Syntax,
    summary: "the policy is not written in the policy language",
    details: "ctxguard stops at the first place the policy cannot be read and says what it expected there. A policy that does not parse declares nothing, so no plan can be checked against it.",
    example: &[("team.policy", "kind constraint\norder constraint after decision\nkind decision\n")],
    run: "check team.policy",
    fix: "Write the statement as the message and help say; here `order decision before constraint`.",
};

// Most syntax errors are computed from the grammar: what was expected at the
// place it went wrong, in the words of each rule's description, and a likely
// fix from the line (`src/policy/parse.rs`, `rule_in_words` and `syntax_help`);
// `syntax_error` builds them all.

/// A syntax error: `message`, with the parser's labels and help.
pub(crate) fn syntax_error(message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::Syntax, message)
}

/// A quoted selector that is not `"kind:key"`.
pub(crate) fn not_an_identity(identity: &str) -> Diagnostic {
    let identity: &str = &echo(identity);
    let help = if identity.contains(':') {
        "write both halves of the identity, for example `\"decision:schema\"` or `\"decision:*\"`"
            .to_owned()
    } else {
        format!("to name every `{identity}` commitment, drop the quotes: `{identity}`; to name one, write `\"{identity}:KEY\"`")
    };
    syntax_error(format!("`\"{identity}\"` is not a commitment identity")).help(help)
}

/// A string not closed on its line.
pub(crate) fn unterminated_string() -> Diagnostic {
    syntax_error("this string is not closed before the end of the line")
        .help("close it with `\"` on the same line; write a line break inside a string as `\\n`")
}

// `duplicate-kind`

pub(crate) const DUPLICATE_KIND: Explanation = Explanation {
    code: Code::DuplicateKind,
    summary: "a commitment kind is declared twice in one file",
    details: "Two declarations of one kind leave it unclear which `doc`, `hint` and `severity` hold. (A child policy may re-declare a parent's kind to refine it; that is not a duplicate.)",
    example: &[("team.policy", "kind constraint { doc \"A rule.\" }\nkind constraint { severity warning }\n")],
    run: "check team.policy",
    fix: "Merge the declarations into one `kind NAME { ... }` block.",
};

/// Kind `name` is declared twice in one file.
pub(crate) fn duplicate_kind(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    Diagnostic::new(
        Code::DuplicateKind,
        format!("kind `{name}` is declared twice"),
    )
    .help(format!(
        "merge the two into one `kind {name} {{ ... }}` block"
    ))
}

// `reserved-kind`

pub(crate) const RESERVED_KIND: Explanation = Explanation {
    code: Code::ReservedKind,
    summary: "a policy declares `narrative`, `unclassified` or `summary` as a commitment kind",
    details: "These names have fixed meanings in traces and plans: narrative may be summarized, unclassified counts as a commitment, and summary replaces narrative. Declaring one as a commitment kind would make it mean two things.",
    example: &[("team.policy", "kind narrative { doc \"Everything the user said.\" }\n")],
    run: "check team.policy",
    fix: "Give the commitment kind another name, such as `user-statement`.",
};

/// A built-in region kind declared as a commitment kind.
pub(crate) fn reserved_kind(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    Diagnostic::new(
        Code::ReservedKind,
        format!("`{name}` is a built-in region kind and cannot be declared"),
    )
    .help("`narrative`, `unclassified` and `summary` have fixed meanings; give this commitment kind another name")
}

// `unknown-kind`

pub(crate) const UNKNOWN_KIND: Explanation = Explanation {
    code: Code::UnknownKind,
    summary: "a kind the policy does not declare is used",
    details: "In a policy, an `order` statement over an undeclared kind can never match a commitment, so it silently protects nothing. In a trace, a region of an undeclared kind is not a silent narrative: it is treated as unclassified (kept) and reported. In a plan, a commitment written out with an undeclared kind is reported. Usually the name is misspelled; the help suggests the closest declared kind.",
    example: &[("team.policy", "kind constraint\nkind decision\norder constraint before decisions\n")],
    run: "check team.policy",
    fix: "Correct the name (the help suggests the closest declared kind) or declare the kind with `kind NAME`.",
};

/// An `order` statement names an undeclared `kind`; `declared` are the
/// kinds the policy has, `suggestion` the closest of them.
pub(crate) fn unknown_kind_in_order(
    kind: &str,
    declared: &[&str],
    reserved: bool,
    suggestion: Option<&str>,
) -> Diagnostic {
    let kind: &str = &echo(kind);
    let suggestion = suggestion.map(echo);
    let suggestion = suggestion.as_deref();
    let help = if reserved {
        format!("`{kind}` regions are not commitments and have no order to keep; order commitment kinds only")
    } else if let Some(suggestion) = suggestion {
        format!("did you mean `{suggestion}`?")
    } else if declared.is_empty() {
        format!("declare it first: `kind {kind}`")
    } else {
        let names: Vec<String> = declared.iter().map(|n| format!("`{n}`")).collect();
        format!(
            "declare it with `kind {kind}`, or use one of: {}",
            names.join(", ")
        )
    };
    Diagnostic::new(
        Code::UnknownKind,
        format!("`order` names kind `{kind}`, which this policy does not declare"),
    )
    .help(help)
}

/// Trace region `region` has a `kind` the policy does not declare.
pub(crate) fn unknown_kind_in_trace(
    region: &str,
    kind: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let region: &str = &echo(region);
    let kind: &str = &echo(kind);
    let suggestion = suggestion.map(echo);
    let suggestion = suggestion.as_deref();
    let help = match suggestion {
        Some(suggestion) => format!("did you mean `{suggestion}`? Until the kind is declared, the region is treated as unclassified: it must be kept"),
        None => format!("declare `kind {kind}` in the policy, or tag the region with a declared kind; until then it is treated as unclassified and must be kept"),
    };
    Diagnostic::new(
        Code::UnknownKind,
        format!("region `{region}` has kind `{kind}`, which the policy does not declare"),
    )
    .help(help)
    .region(region)
}

/// The plan writes out a commitment of a kind the policy does not declare.
pub(crate) fn unknown_kind_in_plan(kind: &str, suggestion: Option<&str>) -> Diagnostic {
    let kind: &str = &echo(kind);
    let suggestion = suggestion.map(echo);
    let suggestion = suggestion.as_deref();
    let help = match suggestion {
        Some(suggestion) => format!("did you mean `{suggestion}`?"),
        None => "write commitments with a kind the policy declares, or keep the trace region with `keep: ID`".to_owned(),
    };
    Diagnostic::new(
        Code::UnknownKind,
        format!("the plan writes a `{kind}` commitment, a kind the policy does not declare"),
    )
    .help(help)
}

// `order-cycle`

pub(crate) const ORDER_CYCLE: Explanation = Explanation {
    code: Code::OrderCycle,
    summary: "`order` statements require a commitment to come before itself",
    details: "`order A before B` means every commitment matching A stands before every one matching B. When the statements form a cycle, no buffer holding those commitments satisfies them all, so every plan would be rejected. The cycle is reported once, from its earliest statement, with a label on each statement in it. A policy with more than 2,048 `order` statements (with its parents) is refused here too: every pair is compared to find cycles.",
    example: &[("team.policy", "kind constraint\nkind decision\norder constraint before decision\norder decision before constraint\n")],
    run: "check team.policy",
    fix: "Remove or reverse one of the statements in the cycle.",
};

/// `order` statements form a cycle through `path` (selectors, quoted); a
/// cycle of one statement names `selector` coming before itself.
pub(crate) fn order_cycle(path: &[String], itself: Option<&str>) -> Diagnostic {
    let itself = itself.map(echo);
    let itself = itself.as_deref();
    let message = match itself {
        Some(selector) => format!("`{selector}` must come before itself"),
        None => format!("`order` statements form a cycle: {}", path.join(" -> ")),
    };
    Diagnostic::new(Code::OrderCycle, message)
        .help("no buffer can satisfy a cycle; remove or reverse one of these `order` statements")
}

/// More than `limit` `order` statements: too many to check for cycles.
pub(crate) fn too_many_orders(limit: usize) -> Diagnostic {
    Diagnostic::new(
        Code::OrderCycle,
        format!("this policy has more than {limit} `order` statements, too many to check for cycles"),
    )
    .help("write one statement per pair of kinds (`order constraint before decision`) instead of one per identity")
}

// `redundant-order`

pub(crate) const REDUNDANT_ORDER: Explanation = Explanation {
    code: Code::RedundantOrder,
    summary: "an `order` statement is implied by others",
    details: "If `a` comes before `b` and `b` before `c`, then `a` comes before `c` wherever a `b` is present; a statement that repeats what others imply is noise that hides the real invariants. (A kind-wide statement also implies the same order for identities of that kind.)",
    example: &[("team.policy", "kind constraint\nkind decision\nkind value\norder constraint before decision\norder decision before value\norder constraint before value\nbudget window 128000\n")],
    run: "check team.policy",
    fix: "Remove the redundant statement.",
};

/// `rule` (as written) is implied by other `order` statements.
pub(crate) fn redundant_order(rule: &str) -> Diagnostic {
    let rule: &str = &echo(rule);
    Diagnostic::new(
        Code::RedundantOrder,
        format!("`{rule}` is already implied by other `order` statements"),
    )
    .help("remove this statement; the order it asks for already holds")
}

/// The search for redundant statements stopped after `steps` steps, with
/// `unchecked` statements left.
pub(crate) fn redundant_order_stopped(steps: u64, unchecked: usize) -> Diagnostic {
    Diagnostic::new(
        Code::RedundantOrder,
        format!("stopped looking for redundant `order` statements after {steps} steps; this statement and the {} after it were not checked", unchecked - 1),
    )
    .help("so many overlapping `order` statements are hard to read; group them with wider patterns")
}

// `invalid-pattern`

pub(crate) const INVALID_PATTERN: Explanation = Explanation {
    code: Code::InvalidPattern,
    summary: "a `hint` pattern is not a valid regular expression",
    details: "Hints are Rust `regex` patterns: they run in linear time on any trace, which is why look-around and backreferences are not supported. The label points at the character where the pattern goes wrong, or at an unknown flag.",
    example: &[("team.policy", "kind constraint {\n  hint /\\b(must|never\\b/i\n}\n")],
    run: "check team.policy",
    fix: "Correct the pattern; escape literal special characters with `\\`. Flags are `i`, `m`, `s`, `x` and `U`.",
};

/// An `order` selector's `*` pattern of `length` characters, past the limit.
pub(crate) fn glob_too_long(length: usize) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidPattern,
        format!("this `*` pattern is {length} characters long; at most 256 are read"),
    )
    .help("name the commitments with a shorter pattern, or by their kind")
}

/// A hint past the policy's limit of `limit` hints.
pub(crate) fn too_many_hints(limit: usize) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidPattern,
        format!("this policy has more than {limit} hints; the rest are not compiled"),
    )
    .help("hints are quick classifiers: keep a few per kind, and fold alternatives into one pattern with `|`")
}

/// A hint of kind `kind` does not compile; `help` is the regex error's advice.
pub(crate) fn invalid_pattern(kind: &str, help: String) -> Diagnostic {
    let kind: &str = &echo(kind);
    Diagnostic::new(
        Code::InvalidPattern,
        format!("hint for kind `{kind}` is not a valid pattern"),
    )
    .help(help)
}

// `budget-range`

pub(crate) const BUDGET_RANGE: Explanation = Explanation {
    code: Code::BudgetRange,
    summary: "a budget is out of range",
    details: "`budget window N` needs at least 1 token and must fit in 64 bits; `budget commitments P%` needs a share above 0% and at most 100%. A budget outside these ranges cannot be met or means nothing.",
    example: &[("team.policy", "budget window 128000\nbudget commitments 140%\n")],
    run: "check team.policy",
    fix: "Use a window of 1 token or more and a share in (0%, 100%].",
};

const WINDOW_HELP: &str =
    "set the number of tokens the compacted buffer may hold, like `budget window 128000`";

/// `budget window 0`.
pub(crate) fn zero_window() -> Diagnostic {
    Diagnostic::new(Code::BudgetRange, "the window budget is `0` tokens").help(WINDOW_HELP)
}

/// A window beyond 64 bits.
pub(crate) fn huge_window() -> Diagnostic {
    Diagnostic::new(
        Code::BudgetRange,
        "the window budget does not fit in 64 bits",
    )
    .help(WINDOW_HELP)
}

/// A commitment share outside (0%, 100%], as written.
pub(crate) fn share_out_of_range(written: &str) -> Diagnostic {
    let written: &str = &echo(written);
    Diagnostic::new(
        Code::BudgetRange,
        format!("the commitment share `{written}` is out of range"),
    )
    .help("give the share of the window commitments may use, like `budget commitments 60%`")
}

/// A share `written` (`value`%) below 1%: almost surely a fraction meant
/// as a percentage. A warning: it is a valid share.
pub(crate) fn share_tiny(written: &str, value: f64) -> Diagnostic {
    let written: &str = &echo(written);
    let meant = (value * 100.0 * 1000.0).round() / 1000.0;
    Diagnostic::new(
        Code::BudgetRange,
        format!("the commitment share `{written}` gives commitments less than 1% of the window"),
    )
    .severity(crate::diagnostics::Severity::Warning)
    .help(format!(
        "a share is a percentage of the window: did you mean `{meant}%`?"
    ))
}

// `weakened-invariant`

pub(crate) const WEAKENED_INVARIANT: Explanation = Explanation {
    code: Code::WeakenedInvariant,
    summary: "an `on` rule lets a commitment be lost",
    details: "`on mismatch warn` lets a plan that alters a commitment through; `on unclassified drop` drops content nobody classified, which may be a commitment; `on over-budget truncate` cuts commitments to fit. Each is silent loss, the failure ctxguard exists to prevent, so they parse but are errors.",
    example: &[("team.policy", "on mismatch warn\n")],
    run: "check team.policy",
    fix: "Use `on mismatch reject`, `on unclassified keep` and `on over-budget escalate`.",
};

/// `on SUBJECT ACTION` with a weak action; `safe` is the action to write.
pub(crate) fn weakened_invariant(subject: &str, action: &str, safe: &str) -> Diagnostic {
    let subject: &str = &echo(subject);
    let action: &str = &echo(action);
    let safe: &str = &echo(safe);
    Diagnostic::new(
        Code::WeakenedInvariant,
        format!("`on {subject} {action}` weakens a compaction invariant"),
    )
    .help(format!("write `on {subject} {safe}`"))
}

// `duplicate-setting`

pub(crate) const DUPLICATE_SETTING: Explanation = Explanation {
    code: Code::DuplicateSetting,
    summary: "a setting is given twice in one policy",
    details: "Two `budget window` lines (or two `tokenizer`, `on`, `doc` or `severity` settings) would silently let the second override the first; a reader of the policy may see only one of them.",
    example: &[("team.policy", "budget window 128000\nbudget window 64000\n")],
    run: "check team.policy",
    fix: "Keep one statement per setting.",
};

/// A setting (`what`, as written) is given twice in one file.
pub(crate) fn setting_twice(what: &str) -> Diagnostic {
    let what: &str = &echo(what);
    Diagnostic::new(
        Code::DuplicateSetting,
        format!("`{what}` is set twice in this policy"),
    )
    .help(format!(
        "keep one `{what}` statement; a second one would silently override the first"
    ))
}

/// Kind `name`'s block sets `what` twice.
pub(crate) fn kind_setting_twice(name: &str, what: &str) -> Diagnostic {
    let name: &str = &echo(name);
    let what: &str = &echo(what);
    Diagnostic::new(
        Code::DuplicateSetting,
        format!("kind `{name}` sets `{what}` twice"),
    )
    .help(format!("keep one `{what}` in the block"))
}

// `unused-ignore`

pub(crate) const UNUSED_IGNORE: Explanation = Explanation {
    code: Code::UnusedIgnore,
    summary: "a `ctxguard-ignore` comment silences nothing",
    details: "`# ctxguard-ignore CODE: reason` on the line before a statement silences CODE on that statement. One that silences nothing was written for a finding that is gone, or names the wrong code or statement; left in place, it would silence a real finding later.",
    example: &[("team.policy", "kind constraint\nkind decision\n# ctxguard-ignore redundant-order: kept as documentation\norder constraint before decision\nbudget window 128000\n")],
    run: "check team.policy",
    fix: "Remove the comment, or move it to the statement it is meant for.",
};

/// An ignore of `code` that silenced nothing.
pub(crate) fn ignore_unused(code: Code) -> Diagnostic {
    Diagnostic::new(
        Code::UnusedIgnore,
        format!("this ignore silences no `{code}`"),
    )
    .help("remove it: the finding it was written for is gone")
}

/// An ignore of `code` with no statement after it.
pub(crate) fn ignore_at_end(code: Code) -> Diagnostic {
    Diagnostic::new(
        Code::UnusedIgnore,
        format!("this ignore of `{code}` has no statement after it"),
    )
    .help("an ignore applies to the statement on the lines after it; remove this one")
}

// `empty-policy`

// `no-budget`

pub(crate) const NO_BUDGET: Explanation = Explanation {
    code: Code::NoBudget,
    summary: "a policy sets no window, so compaction is unbounded",
    details: "Without `budget window` (in the file or in what it extends), no plan is ever over budget and `verify` never escalates: a plan of any size passes, and `budget commitments` has nothing to be a share of. Commitments are still checked, but the compaction is not bounded.",
    example: &[("team.policy", "policy team\n\nkind constraint {\n  hint /must/\n}\n")],
    run: "check team.policy",
    fix: "Set `budget window N` (the tokens a compacted buffer may hold), or build on the default with `extends default`.",
};

/// The policy sets no window.
pub fn no_budget() -> Diagnostic {
    Diagnostic::new(
        Code::NoBudget,
        "this policy sets no `budget window`: no plan is ever over budget and nothing escalates",
    )
    .help("set `budget window N` (tokens the compacted buffer may hold), or `extends default`")
}

pub(crate) const EMPTY_POLICY: Explanation = Explanation {
    code: Code::EmptyPolicy,
    summary: "a policy file declares nothing",
    details: "A file that is blank or holds only comments passes the parser, but as a policy it declares no commitment kind, no order and no budget: every tagged region would be unclassified and kept, and no compaction could be bounded. Usually the file is a stub, or the wrong file.",
    example: &[("team.policy", "# Our compaction policy, to be written.\n")],
    run: "check team.policy",
    fix: "Declare the commitment kinds and budgets, or build on the default with `extends default`.",
};

/// File `name` holds no statement.
pub(crate) fn empty_policy(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    Diagnostic::new(Code::EmptyPolicy, format!("`{name}` declares nothing"))
        .file(name)
        .help("declare the commitment kinds and budgets, or write `extends default` to build on the built-in policy")
}

// `bad-ignore`

pub(crate) const BAD_IGNORE: Explanation = Explanation {
    code: Code::BadIgnore,
    summary: "a `ctxguard-ignore` comment names no known code, gives no reason, or names an error",
    details: "Every silenced finding must be accounted for: an ignore names a code from `ctxguard explain` and says why, as `# ctxguard-ignore CODE: reason`. Without a reason nobody can tell later whether the ignore still holds. Only warnings can be ignored: an error makes the policy unusable, and `check` passes a policy exactly when `verify` accepts it.",
    example: &[("team.policy", "kind constraint\nkind decision\nkind value\norder constraint before decision\norder decision before value\n# ctxguard-ignore redundant-order\norder constraint before value\n")],
    run: "check team.policy",
    fix: "Write `# ctxguard-ignore CODE: reason` for a warning; fix what an error reports.",
};

/// An ignore naming `name`, which is no code (`suggestion`: the closest).
pub(crate) fn ignore_unknown_code(name: &str, suggestion: Option<&str>) -> Diagnostic {
    let name: &str = &echo(name);
    let suggestion = suggestion.map(echo);
    let suggestion = suggestion.as_deref();
    let message = if name.is_empty() {
        "this ignore names no code".to_owned()
    } else {
        format!("`{name}` is not a ctxguard code")
    };
    let help = match suggestion {
        Some(suggestion) => format!("did you mean `{suggestion}`?"),
        None => {
            "write `# ctxguard-ignore CODE: reason`; `ctxguard explain` lists the codes".to_owned()
        }
    };
    Diagnostic::new(Code::BadIgnore, message).help(help)
}

/// An ignore of an error code, which no comment may silence.
pub(crate) fn ignore_of_error(code: Code) -> Diagnostic {
    Diagnostic::new(
        Code::BadIgnore,
        format!("`{code}` is an error and cannot be ignored"),
    )
    .help(format!(
        "only warnings can be ignored: {}",
        code.why_mandatory()
    ))
}

/// An ignore of `code` without a reason.
pub(crate) fn ignore_without_reason(code: Code) -> Diagnostic {
    Diagnostic::new(
        Code::BadIgnore,
        format!("this ignore of `{code}` gives no reason"),
    )
    .help("say why after a colon: `# ctxguard-ignore CODE: reason`")
}

/// Every explanation of this family, in code order.
pub(crate) const ALL: &[&Explanation] = &[
    &SYNTAX,
    &DUPLICATE_KIND,
    &RESERVED_KIND,
    &UNKNOWN_KIND,
    &ORDER_CYCLE,
    &REDUNDANT_ORDER,
    &INVALID_PATTERN,
    &BUDGET_RANGE,
    &WEAKENED_INVARIANT,
    &DUPLICATE_POLICY_NAME,
    &WEAKENS_PARENT,
    &MISSING_PARENT,
    &EXTENDS_CYCLE,
    &FORBIDDEN_PARENT,
    &DUPLICATE_SETTING,
    &UNUSED_IGNORE,
    &EMPTY_POLICY,
    &NO_BUDGET,
    &BAD_IGNORE,
];

//! `ctxguard explain CODE`: what each code means, why it matters for
//! compaction, an example that triggers it and the fix. A test runs every
//! example and checks that it really reports its code.

use crate::code::Code;

pub struct Explanation {
    pub code: Code,
    /// One line: what is wrong.
    pub summary: &'static str,
    /// What the check looks at and why it matters for compaction.
    pub details: &'static str,
    /// Files (name, text) that trigger the code; the first is the one checked.
    pub example: &'static [(&'static str, &'static str)],
    pub fix: &'static str,
}

pub fn explanation(code: Code) -> &'static Explanation {
    EXPLANATIONS
        .iter()
        .find(|explanation| explanation.code == code)
        .unwrap_or(&EXPLANATIONS[0])
}

/// The full text printed by `ctxguard explain CODE`.
pub fn render(code: Code) -> String {
    let explanation = explanation(code);
    let mut text = format!(
        "ctxguard::{} ({})\n\n{}\n\n{}\n\nExample:\n",
        code,
        code.default_severity().name(),
        explanation.summary,
        explanation.details
    );
    for (name, contents) in explanation.example {
        text.push_str(&format!("\n    # {name}\n"));
        if contents.is_empty() {
            text.push_str("    # (this file does not exist)\n");
        }
        for line in contents.lines() {
            text.push_str(&format!("    {line}\n").replace("    \n", "\n"));
        }
    }
    text.push_str(&format!("\nFix:\n\n{}\n", explanation.fix));
    text
}

/// `ctxguard explain` without a code: every code with its summary.
pub fn list() -> String {
    let width = Code::ALL.iter().map(|c| c.name().len()).max().unwrap_or(0);
    let mut text = String::new();
    for code in Code::ALL {
        text.push_str(&format!(
            "{:width$}  {:7}  {}\n",
            code.name(),
            code.default_severity().name(),
            explanation(*code).summary
        ));
    }
    text
}

static EXPLANATIONS: &[Explanation] = &[
    Explanation {
        code: Code::UnreadableFile,
        summary: "an input file cannot be read as UTF-8 text",
        details: "The file does not exist, cannot be opened, or is not UTF-8 (UTF-16, or stray bytes). ctxguard never guesses at an input it cannot read: a policy it could not read protects nothing, so the command exits 2.",
        example: &[("team.policy", "")],
        fix: "Check the path. Save the file as UTF-8 (a UTF-8 byte-order mark is fine).",
    },
    Explanation {
        code: Code::Syntax,
        summary: "the policy is not written in the policy language",
        details: "ctxguard stops at the first place the policy cannot be read and says what it expected there. A policy that does not parse declares nothing, so no plan can be checked against it.",
        example: &[("team.policy", "kind constraint\norder constraint after decision\nkind decision\n")],
        fix: "Write the statement as the message and help say; here `order decision before constraint`.",
    },
    Explanation {
        code: Code::DuplicateKind,
        summary: "a commitment kind is declared twice in one file",
        details: "Two declarations of one kind leave it unclear which `doc`, `hint` and `severity` hold. (A child policy may re-declare a parent's kind to refine it; that is not a duplicate.)",
        example: &[("team.policy", "kind constraint { doc \"A rule.\" }\nkind constraint { severity warning }\n")],
        fix: "Merge the declarations into one `kind NAME { ... }` block.",
    },
    Explanation {
        code: Code::ReservedKind,
        summary: "a policy declares `narrative`, `unclassified` or `summary` as a commitment kind",
        details: "These names have fixed meanings in traces and plans: narrative may be summarized, unclassified counts as a commitment, and summary replaces narrative. Declaring one as a commitment kind would make it mean two things.",
        example: &[("team.policy", "kind narrative { doc \"Everything the user said.\" }\n")],
        fix: "Give the commitment kind another name, such as `user-statement`.",
    },
    Explanation {
        code: Code::UnknownKind,
        summary: "an `order` statement names a kind the policy does not declare",
        details: "An ordering invariant over an undeclared kind can never match a commitment, so it silently protects nothing; usually the kind name is misspelled.",
        example: &[("team.policy", "kind constraint\nkind decision\norder constraint before decisions\n")],
        fix: "Correct the name (the help suggests the closest declared kind) or declare the kind with `kind NAME`.",
    },
    Explanation {
        code: Code::OrderCycle,
        summary: "`order` statements require a commitment to come before itself",
        details: "`order A before B` means every commitment matching A stands before every one matching B. When the statements form a cycle, no buffer holding those commitments satisfies them all, so every plan would be rejected. The cycle is reported once, from its earliest statement, with a label on each statement in it.",
        example: &[("team.policy", "kind constraint\nkind decision\norder constraint before decision\norder decision before constraint\n")],
        fix: "Remove or reverse one of the statements in the cycle.",
    },
    Explanation {
        code: Code::RedundantOrder,
        summary: "an `order` statement is implied by others",
        details: "If `a` comes before `b` and `b` before `c`, then `a` comes before `c` wherever a `b` is present; a statement that repeats what others imply is noise that hides the real invariants. (A kind-wide statement also implies the same order for identities of that kind.)",
        example: &[("team.policy", "kind constraint\nkind decision\nkind value\norder constraint before decision\norder decision before value\norder constraint before value\n")],
        fix: "Remove the redundant statement.",
    },
    Explanation {
        code: Code::InvalidPattern,
        summary: "a `hint` pattern is not a valid regular expression",
        details: "Hints are Rust `regex` patterns: they run in linear time on any trace, which is why look-around and backreferences are not supported. The label points at the character where the pattern goes wrong, or at an unknown flag.",
        example: &[("team.policy", "kind constraint {\n  hint /\\b(must|never\\b/i\n}\n")],
        fix: "Correct the pattern; escape literal special characters with `\\`. Flags are `i`, `m`, `s`, `x` and `U`.",
    },
    Explanation {
        code: Code::BudgetRange,
        summary: "a budget is out of range",
        details: "`budget window N` needs at least 1 token and must fit in 64 bits; `budget commitments P%` needs a share above 0% and at most 100%. A budget outside these ranges cannot be met or means nothing.",
        example: &[("team.policy", "budget window 128000\nbudget commitments 140%\n")],
        fix: "Use a window of 1 token or more and a share in (0%, 100%].",
    },
    Explanation {
        code: Code::WeakenedInvariant,
        summary: "an `on` rule lets a commitment be lost",
        details: "`on mismatch warn` lets a plan that alters a commitment through; `on unclassified drop` drops content nobody classified, which may be a commitment; `on over-budget truncate` cuts commitments to fit. Each is silent loss, the failure ctxguard exists to prevent, so they parse but are errors.",
        example: &[("team.policy", "on mismatch warn\n")],
        fix: "Use `on mismatch reject`, `on unclassified keep` and `on over-budget escalate`.",
    },
    Explanation {
        code: Code::DuplicatePolicyName,
        summary: "a policy is named twice",
        details: "A file names its policy once; and two files checked together should not share a name, or reports about one are read as being about the other.",
        example: &[("team.policy", "policy team\npolicy team-v2\n")],
        fix: "Keep one `policy NAME` statement per file, with a name no other policy uses.",
    },
    Explanation {
        code: Code::WeakensParent,
        summary: "a policy that extends another loosens it",
        details: "A team policy that `extends` an organisation's policy may add kinds, orders and tighter budgets, but not weaken what its parent guarantees: a larger window or commitment share, a weaker `on` rule, or a kind lowered to `severity warning`. Settings are inherited, so a child cannot drop `preserve order` either. The labels show the child's statement and the parent's.",
        example: &[("team.policy", "extends default\nbudget window 200000\n")],
        fix: "Remove the statement to inherit the parent's setting, or tighten it instead.",
    },
    Explanation {
        code: Code::MissingParent,
        summary: "`extends` names a policy file that does not exist",
        details: "Paths in `extends` are relative to the file that says them. Without its parent a policy lacks the kinds and invariants it was written to build on.",
        example: &[("team.policy", "extends \"base.policy\"\nkind constraint\n")],
        fix: "Correct the path, or write `extends default` to build on ctxguard's built-in policy.",
    },
    Explanation {
        code: Code::ExtendsCycle,
        summary: "policies extend each other in a cycle",
        details: "A policy cannot be built on itself; a cycle of `extends` has no first policy to start from.",
        example: &[("a.policy", "extends \"b.policy\"\n"), ("b.policy", "extends \"a.policy\"\n")],
        fix: "Remove one of the `extends` statements in the cycle.",
    },
    Explanation {
        code: Code::DuplicateSetting,
        summary: "a setting is given twice in one policy",
        details: "Two `budget window` lines (or two `tokenizer`, `on`, `doc` or `severity` settings) would silently let the second override the first; a reader of the policy may see only one of them.",
        example: &[("team.policy", "budget window 128000\nbudget window 64000\n")],
        fix: "Keep one statement per setting.",
    },
];

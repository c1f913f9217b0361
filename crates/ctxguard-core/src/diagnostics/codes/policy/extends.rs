//! Codes of a policy and the policies it extends: a name given twice, a
//! child that weakens its parent, a parent missing, a cycle of `extends`, a
//! parent outside the repository.

use super::*;

// `duplicate-policy-name`

pub(crate) const DUPLICATE_POLICY_NAME: Explanation = Explanation {
    code: Code::DuplicatePolicyName,
    summary: "a policy is named twice",
    details: "A file names its policy once; and two files checked together should not share a name, or reports about one are read as being about the other.",
    example: &[("team.policy", "policy team\npolicy team-v2\n")],
    run: "check team.policy",
    fix: "Keep one `policy NAME` statement per file, with a name no other policy uses.",
};

/// A file names its policy twice, the second time `name`.
pub(crate) fn policy_named_twice(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    Diagnostic::new(
        Code::DuplicatePolicyName,
        format!("this file names its policy twice, the second time `{name}`"),
    )
    .help("a policy file holds one policy: keep one `policy` statement")
}

/// Policy name `name` is also used by the file `other`, checked together.
pub(crate) fn shared_policy_name(name: &str, other: &str) -> Diagnostic {
    let name: &str = &echo(name);
    let other: &str = &echo(other);
    Diagnostic::new(
        Code::DuplicatePolicyName,
        format!("policy name `{name}` is also used by `{other}`"),
    )
    .help("give each policy its own name, so reports about one are not read as about the other")
}

// `weakens-parent`

pub(crate) const WEAKENS_PARENT: Explanation = Explanation {
    code: Code::WeakensParent,
    summary: "a policy that extends another loosens it",
    details: "A team policy that `extends` an organisation's policy may add kinds, orders and tighter budgets, but not weaken what its parent guarantees: a larger window or commitment share, a weaker `on` rule, or a kind lowered to `severity warning`. Settings are inherited, so a child cannot drop `preserve order` either. The labels show the child's statement and the parent's.",
    example: &[("team.policy", "extends default\nbudget window 200000\n")],
    run: "check team.policy",
    fix: "Remove the statement to inherit the parent's setting, or tighten it instead.",
};

fn weakens(what: String, help: String) -> Diagnostic {
    Diagnostic::new(
        Code::WeakensParent,
        format!("this policy weakens its parent: {what}"),
    )
    .help(help)
}

/// The child's window `value` is larger than the parent's.
pub(crate) fn window_grows(parent: u64, value: u64) -> Diagnostic {
    weakens(
        format!("the window grows from `{parent}` to `{value}` tokens"),
        format!(
            "a child policy may only tighten its parent: use a window of at most {parent} tokens"
        ),
    )
}

/// The child's commitment share `value` is larger than the parent's.
pub(crate) fn share_grows(parent: f64, value: f64) -> Diagnostic {
    weakens(
        format!("the commitment share grows from `{parent}%` to `{value}%`"),
        format!("a child policy may only tighten its parent: use a share of at most {parent}%"),
    )
}

/// The child weakens the parent's `on SUBJECT SAFE` to `on SUBJECT WEAK`.
pub(crate) fn rule_weakened(subject: &str, safe: &str, weak: &str) -> Diagnostic {
    let subject: &str = &echo(subject);
    let safe: &str = &echo(safe);
    let weak: &str = &echo(weak);
    weakens(
        format!("`on {subject}` is weakened from `{safe}` to `{weak}`"),
        format!("remove this statement to inherit `on {subject} {safe}`"),
    )
}

/// The child lowers the parent's kind `name` to `severity warning`.
pub(crate) fn kind_lowered(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    Diagnostic::new(
        Code::WeakensParent,
        format!("kind `{name}` is lowered from `severity error` to `severity warning`"),
    )
    .help(format!("losing a `{name}` commitment rejects plans under the parent policy; remove `severity warning` or stop extending the parent"))
}

// `missing-parent`

pub(crate) const MISSING_PARENT: Explanation = Explanation {
    code: Code::MissingParent,
    summary: "`extends` names a policy file that does not exist",
    details: "Paths in `extends` are relative to the file that says them. Without its parent a policy lacks the kinds and invariants it was written to build on.",
    example: &[("team.policy", "extends \"base.policy\"\nkind constraint\n")],
    run: "check team.policy",
    fix: "Correct the path, or write `extends default` to build on ctxguard's built-in policy.",
};

/// `extends "relative"` names no file (`looked_for` is where).
pub(crate) fn missing_parent(relative: &str, looked_for: &str) -> (Diagnostic, String) {
    let relative: &str = &echo(relative);
    let looked_for: &str = &echo(looked_for);
    let diagnostic = Diagnostic::new(
        Code::MissingParent,
        format!("parent policy `{relative}` does not exist"),
    )
    .help("`extends` paths are relative to the file that says them; `extends default` names the built-in policy");
    (diagnostic, format!("looked for `{looked_for}`"))
}

// `extends-cycle`

pub(crate) const EXTENDS_CYCLE: Explanation = Explanation {
    code: Code::ExtendsCycle,
    summary: "policies extend each other in a cycle",
    details: "A policy cannot be built on itself; a cycle of `extends` has no first policy to start from.",
    example: &[("a.policy", "extends \"b.policy\"\n"), ("b.policy", "extends \"a.policy\"\n")],
    run: "check a.policy",
    fix: "Remove one of the `extends` statements in the cycle.",
};

/// Policies extend each other through `chain` (names, quoted, first repeated last).
pub(crate) fn extends_cycle(chain: &[String]) -> (Diagnostic, String) {
    let diagnostic = Diagnostic::new(
        Code::ExtendsCycle,
        format!(
            "policies extend each other in a cycle: {}",
            chain.join(" -> ")
        ),
    )
    .help("a policy cannot build on itself; remove one of these `extends` statements");
    (diagnostic, "closes the cycle".to_owned())
}

// `forbidden-parent`

pub(crate) const FORBIDDEN_PARENT: Explanation = Explanation {
    code: Code::ForbiddenParent,
    summary: "`extends` names a file outside the repository, or one that is not a regular file",
    details: "A policy in a pull request is untrusted input, and `extends` makes ctxguard read another file. It reads a parent only if the path resolves, links followed, to a regular file inside the root: the repository of the policy being checked (the nearest directory above it holding `.git`), its own directory when there is none, or `--root`. Absolute paths, `../` out of the repository, links out of it, FIFOs, devices and files under `/proc`, `/sys` and `/dev` are refused before they are opened, so nothing of theirs can reach a report.",
    example: &[("team.policy", "extends \"/etc/passwd\"\nkind constraint\n")],
    run: "check team.policy",
    fix: "Keep parent policies in the repository and name them by a relative path, or `extends default`; pass `--root DIR` if the policies share a root that is not a git repository.",
};

/// `extends "relative"` is refused, for `why`.
pub(crate) fn forbidden_parent(relative: &str, why: &str) -> (Diagnostic, String) {
    let relative: &str = &echo(relative);
    let why: &str = &echo(why);
    let diagnostic = Diagnostic::new(
        Code::ForbiddenParent,
        format!("parent policy `{relative}` is not read: {why}"),
    )
    .help("keep parent policies inside the repository and name them by a relative path; `--root DIR` sets another root");
    (diagnostic, "not read".to_owned())
}

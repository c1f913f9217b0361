//! `ctxguard explain CODE`: what each code means, why it matters for
//! compaction, an example that triggers it and the fix. A test runs every
//! example and checks that it really reports its code.

use crate::diagnostics::Code;

/// What `ctxguard explain CODE` says about a code.
pub struct Explanation {
    /// The code explained.
    pub code: Code,
    /// One line: what is wrong.
    pub summary: &'static str,
    /// What the check looks at and why it matters for compaction.
    pub details: &'static str,
    /// Files (name, text) that trigger the code.
    pub example: &'static [(&'static str, &'static str)],
    /// The command line, run in a directory holding the example files.
    pub run: &'static str,
    /// How to fix it.
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
        "ctxguard::{} ({})\n\n{}\n\n{}\n\nExample: `ctxguard {}` with\n",
        code,
        code.default_severity().name(),
        explanation.summary,
        textwrap::fill(explanation.details, 80),
        explanation.run
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
    text.push_str(&format!(
        "\nFix:\n\n{}\n",
        textwrap::fill(explanation.fix, 80)
    ));
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
        run: "check team.policy",
        fix: "Check the path. Save the file as UTF-8 (a UTF-8 byte-order mark is fine).",
    },
    Explanation {
        code: Code::Syntax,
        summary: "the policy is not written in the policy language",
        details: "ctxguard stops at the first place the policy cannot be read and says what it expected there. A policy that does not parse declares nothing, so no plan can be checked against it.",
        example: &[("team.policy", "kind constraint\norder constraint after decision\nkind decision\n")],
        run: "check team.policy",
        fix: "Write the statement as the message and help say; here `order decision before constraint`.",
    },
    Explanation {
        code: Code::DuplicateKind,
        summary: "a commitment kind is declared twice in one file",
        details: "Two declarations of one kind leave it unclear which `doc`, `hint` and `severity` hold. (A child policy may re-declare a parent's kind to refine it; that is not a duplicate.)",
        example: &[("team.policy", "kind constraint { doc \"A rule.\" }\nkind constraint { severity warning }\n")],
        run: "check team.policy",
        fix: "Merge the declarations into one `kind NAME { ... }` block.",
    },
    Explanation {
        code: Code::ReservedKind,
        summary: "a policy declares `narrative`, `unclassified` or `summary` as a commitment kind",
        details: "These names have fixed meanings in traces and plans: narrative may be summarized, unclassified counts as a commitment, and summary replaces narrative. Declaring one as a commitment kind would make it mean two things.",
        example: &[("team.policy", "kind narrative { doc \"Everything the user said.\" }\n")],
        run: "check team.policy",
        fix: "Give the commitment kind another name, such as `user-statement`.",
    },
    Explanation {
        code: Code::UnknownKind,
        summary: "a kind the policy does not declare is used",
        details: "In a policy, an `order` statement over an undeclared kind can never match a commitment, so it silently protects nothing. In a trace, a region of an undeclared kind is not a silent narrative: it is treated as unclassified (kept) and reported. In a plan, a commitment written out with an undeclared kind is reported. Usually the name is misspelled; the help suggests the closest declared kind.",
        example: &[("team.policy", "kind constraint\nkind decision\norder constraint before decisions\n")],
        run: "check team.policy",
        fix: "Correct the name (the help suggests the closest declared kind) or declare the kind with `kind NAME`.",
    },
    Explanation {
        code: Code::OrderCycle,
        summary: "`order` statements require a commitment to come before itself",
        details: "`order A before B` means every commitment matching A stands before every one matching B. When the statements form a cycle, no buffer holding those commitments satisfies them all, so every plan would be rejected. The cycle is reported once, from its earliest statement, with a label on each statement in it.",
        example: &[("team.policy", "kind constraint\nkind decision\norder constraint before decision\norder decision before constraint\n")],
        run: "check team.policy",
        fix: "Remove or reverse one of the statements in the cycle.",
    },
    Explanation {
        code: Code::RedundantOrder,
        summary: "an `order` statement is implied by others",
        details: "If `a` comes before `b` and `b` before `c`, then `a` comes before `c` wherever a `b` is present; a statement that repeats what others imply is noise that hides the real invariants. (A kind-wide statement also implies the same order for identities of that kind.)",
        example: &[("team.policy", "kind constraint\nkind decision\nkind value\norder constraint before decision\norder decision before value\norder constraint before value\n")],
        run: "check team.policy",
        fix: "Remove the redundant statement.",
    },
    Explanation {
        code: Code::InvalidPattern,
        summary: "a `hint` pattern is not a valid regular expression",
        details: "Hints are Rust `regex` patterns: they run in linear time on any trace, which is why look-around and backreferences are not supported. The label points at the character where the pattern goes wrong, or at an unknown flag.",
        example: &[("team.policy", "kind constraint {\n  hint /\\b(must|never\\b/i\n}\n")],
        run: "check team.policy",
        fix: "Correct the pattern; escape literal special characters with `\\`. Flags are `i`, `m`, `s`, `x` and `U`.",
    },
    Explanation {
        code: Code::BudgetRange,
        summary: "a budget is out of range",
        details: "`budget window N` needs at least 1 token and must fit in 64 bits; `budget commitments P%` needs a share above 0% and at most 100%. A budget outside these ranges cannot be met or means nothing.",
        example: &[("team.policy", "budget window 128000\nbudget commitments 140%\n")],
        run: "check team.policy",
        fix: "Use a window of 1 token or more and a share in (0%, 100%].",
    },
    Explanation {
        code: Code::WeakenedInvariant,
        summary: "an `on` rule lets a commitment be lost",
        details: "`on mismatch warn` lets a plan that alters a commitment through; `on unclassified drop` drops content nobody classified, which may be a commitment; `on over-budget truncate` cuts commitments to fit. Each is silent loss, the failure ctxguard exists to prevent, so they parse but are errors.",
        example: &[("team.policy", "on mismatch warn\n")],
        run: "check team.policy",
        fix: "Use `on mismatch reject`, `on unclassified keep` and `on over-budget escalate`.",
    },
    Explanation {
        code: Code::DuplicatePolicyName,
        summary: "a policy is named twice",
        details: "A file names its policy once; and two files checked together should not share a name, or reports about one are read as being about the other.",
        example: &[("team.policy", "policy team\npolicy team-v2\n")],
        run: "check team.policy",
        fix: "Keep one `policy NAME` statement per file, with a name no other policy uses.",
    },
    Explanation {
        code: Code::WeakensParent,
        summary: "a policy that extends another loosens it",
        details: "A team policy that `extends` an organisation's policy may add kinds, orders and tighter budgets, but not weaken what its parent guarantees: a larger window or commitment share, a weaker `on` rule, or a kind lowered to `severity warning`. Settings are inherited, so a child cannot drop `preserve order` either. The labels show the child's statement and the parent's.",
        example: &[("team.policy", "extends default\nbudget window 200000\n")],
        run: "check team.policy",
        fix: "Remove the statement to inherit the parent's setting, or tighten it instead.",
    },
    Explanation {
        code: Code::MissingParent,
        summary: "`extends` names a policy file that does not exist",
        details: "Paths in `extends` are relative to the file that says them. Without its parent a policy lacks the kinds and invariants it was written to build on.",
        example: &[("team.policy", "extends \"base.policy\"\nkind constraint\n")],
        run: "check team.policy",
        fix: "Correct the path, or write `extends default` to build on ctxguard's built-in policy.",
    },
    Explanation {
        code: Code::ExtendsCycle,
        summary: "policies extend each other in a cycle",
        details: "A policy cannot be built on itself; a cycle of `extends` has no first policy to start from.",
        example: &[("a.policy", "extends \"b.policy\"\n"), ("b.policy", "extends \"a.policy\"\n")],
        run: "check a.policy",
        fix: "Remove one of the `extends` statements in the cycle.",
    },
    Explanation {
        code: Code::DuplicateSetting,
        summary: "a setting is given twice in one policy",
        details: "Two `budget window` lines (or two `tokenizer`, `on`, `doc` or `severity` settings) would silently let the second override the first; a reader of the policy may see only one of them.",
        example: &[("team.policy", "budget window 128000\nbudget window 64000\n")],
        run: "check team.policy",
        fix: "Keep one statement per setting.",
    },
    Explanation {
        code: Code::UnusedIgnore,
        summary: "a `ctxguard-ignore` comment silences nothing",
        details: "`# ctxguard-ignore CODE: reason` on the line before a statement silences CODE on that statement. One that silences nothing was written for a finding that is gone, or names the wrong code or statement; left in place, it would silence a real finding later.",
        example: &[("team.policy", "kind constraint\nkind decision\n# ctxguard-ignore redundant-order: kept as documentation\norder constraint before decision\n")],
        run: "check team.policy",
        fix: "Remove the comment, or move it to the statement it is meant for.",
    },
    Explanation {
        code: Code::BadIgnore,
        summary: "a `ctxguard-ignore` comment names no known code or gives no reason",
        details: "Every silenced finding must be accounted for: an ignore names a code from `ctxguard explain` and says why, as `# ctxguard-ignore CODE: reason`. Without a reason nobody can tell later whether the ignore still holds.",
        example: &[("team.policy", "kind constraint\nkind decision\nkind value\norder constraint before decision\norder decision before value\n# ctxguard-ignore redundant-order\norder constraint before value\n")],
        run: "check team.policy",
        fix: "Write `# ctxguard-ignore CODE: reason`.",
    },
    Explanation {
        code: Code::InvalidInput,
        summary: "a trace or plan file is not in the trace or plan format",
        details: "The file is not valid JSON, YAML or JSON Lines, or it is missing what the format requires (`version: 1`, `regions`, a region's `id`, exactly one of `text` and `record`, a commitment's `key`). The diagnostic points at the place and says what was expected. Nothing is verified: exit 2.",
        example: &[("trace.yaml", "regions:\n  - id: r1\n    text: \"hello\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Write the file as `docs/formats.md` describes; `ctxguard explain` has an example for each finding.",
    },
    Explanation {
        code: Code::MissingCommitment,
        summary: "a commitment in the trace is not in the plan",
        details: "Every active commitment must survive compaction byte for byte. A plan that neither keeps it (`keep: ID`) nor writes it out unchanged loses it, and the agent will act as if it had never been said. Discharged commitments (already carried out) may be dropped.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Add `keep: ID` for the commitment, where it stands in trace order.",
    },
    Explanation {
        code: Code::AlteredCommitment,
        summary: "the plan writes a commitment out with different content",
        details: "A commitment written out in the plan must equal the trace's byte for byte (a `record` structurally, key order ignored). A paraphrase is a different rule: `do not drop columns` is not `avoid dropping columns`. The diagnostic shows a word diff, and names differences that cannot be seen: whitespace, CRLF against LF, Unicode normalization, zero-width or non-breaking characters.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n  - kind: constraint\n    key: reversible\n    text: \"Keep the migration reversible.\"\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Replace the rewritten copy with `keep: ID`.",
    },
    Explanation {
        code: Code::AlteredNarrative,
        summary: "a plan marks a narrative region kept but changes its text",
        details: "`kind: narrative` with `from: ID` claims to keep a trace region verbatim. If its text differs, the plan says one thing and does another; a shortened narrative is a summary and must say so.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: narrative\n    from: r1\n    text: \"Looked at users.\"\n  - keep: r2\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Write it as a `summary` that covers the region, or keep it with `keep: ID`.",
    },
    Explanation {
        code: Code::SummaryCoversCommitment,
        summary: "a summary covers a commitment or an unclassified region",
        details: "A summary may replace narrative only. Covering a commitment folds it into prose, where a summarizer paraphrases it: the compaction failure ctxguard exists to catch. Unclassified content counts as a commitment. The covered commitment is usually also missing.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1, r2]\n    text: \"Inspected the users table for a reversible migration.\"\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Take the commitment out of `covers` and keep it with `keep: ID`.",
    },
    Explanation {
        code: Code::SummarySpansCommitment,
        summary: "a summary covers narrative on both sides of a commitment",
        details: "A summary that replaces narrative before and after a commitment moves that narrative across it: what was said after the rule now reads as if said before it. Each run of narrative between commitments gets its own summary.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    kind: narrative\n    text: \"Drafted the profiles table.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1, r3]\n    text: \"Inspected users; drafted profiles.\"\n  - keep: r2\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Split the summary: one for the narrative before the commitment, one for the narrative after it.",
    },
    Explanation {
        code: Code::InventedCommitment,
        summary: "the plan holds a commitment the trace does not",
        details: "A compaction may only keep what the trace commits to. A commitment that appears during compaction (a summarizer that turned a suggestion into a rule) is one the agent would obey although nobody asked for it.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - kind: decision\n    key: orm\n    text: \"Use SQLAlchemy for the migration.\"\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Remove the commitment from the plan.",
    },
    Explanation {
        code: Code::UnclassifiedDropped,
        summary: "an unclassified region is not kept",
        details: "Content nobody classified may hold a commitment, so under `on unclassified keep` it is kept verbatim like one. A plan that drops it may drop a rule nobody tagged.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    text: \"maybe keep the old flag around?\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Add `keep: ID` for the region, or classify it in the trace (`kind: narrative` if it is one).",
    },
    Explanation {
        code: Code::OrderViolated,
        summary: "commitments stand in the wrong order in the plan",
        details: "Under `preserve order` commitments keep their trace order; `order A before B` requires every commitment matching A to stand before every one matching B. `run the tests before applying the patch` placed after the patch decision reads as the opposite instruction. The diagnostic names both commitments, their plan positions and the policy statement.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: ordering\n    key: tests-first\n    text: \"Run the test suite before applying the patch.\"\n  - id: r2\n    kind: decision\n    key: primary-key\n    text: \"Use (tenant_id, id) as the primary key.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - keep: r1\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Move the commitment as the help says, back into trace order.",
    },
    Explanation {
        code: Code::OverBudget,
        summary: "the plan holds more tokens than the window",
        details: "The compacted buffer must fit the policy's `budget window` (or `--budget`). The commitments fit, so the plan can: summarize or drop more narrative. Token counts come from each region's `tokens`, or the policy's tokenizer.",
        example: &[("team.policy", "extends default\nbudget window 30\nbudget commitments 60%\ntokenizer approx\n"), ("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    kind: narrative\n    text: \"A long account of every column in the users table, with its type, its default and its history.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n  - keep: r2\n  - kind: narrative\n    from: r3\n")],
        run: "verify --trace trace.yaml --plan plan.yaml --policy team.policy",
        fix: "Summarize or drop narrative until the plan fits.",
    },
    Explanation {
        code: Code::UnknownRegion,
        summary: "the plan names a region the trace does not have",
        details: "`keep`, `covers` and `from` name trace regions by id. An id the trace does not have means the plan was made for another trace, or an id was mistyped, and what the plan meant to keep is not kept.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n  - keep: r12\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Correct the id.",
    },
    Explanation {
        code: Code::ConflictingCommitment,
        summary: "one commitment identity has two different contents in the trace",
        details: "A commitment's identity is `kind:key`. Two regions with one identity and different content leave no way to tell which one holds, so no plan can be verified as keeping it: a person must decide.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    kind: constraint\n    key: reversible\n    text: \"The migration may drop the legacy columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - keep: r3\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Give one of them another key, or mark the stale one `status: discharged`.",
    },
    Explanation {
        code: Code::DuplicateRegion,
        summary: "a region id is used twice in the trace, or a trace region twice in the plan",
        details: "Regions are named by id; two trace regions with one id make `keep: ID` ambiguous, and a plan that keeps or covers one region twice duplicates it in the buffer.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - keep: r2\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Give every trace region its own id; use each trace region once in a plan.",
    },
    Explanation {
        code: Code::StatusChanged,
        summary: "the plan changes whether a commitment is active or discharged",
        details: "A discharged commitment is an instruction already carried out. A plan that revives it as active gets a finished step run twice; a plan that marks an active one discharged gets it skipped. Only the runtime changes a status.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: ordering\n    key: migrate\n    status: discharged\n    text: \"Run the migration on staging.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: ordering\n    key: migrate\n    text: \"Run the migration on staging.\"\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Keep the trace's status (`status: discharged`), or drop the discharged commitment.",
    },
    Explanation {
        code: Code::BudgetUnmeetable,
        summary: "the commitments alone do not fit the budget",
        details: "When the commitments (and unclassified regions) need more than the window, or more than `budget commitments` of it, no plan can fit without truncating one. ctxguard escalates (exit 3): a person must decide. Escalate wins over reject; errors are still listed.",
        example: &[("team.policy", "extends default\nbudget window 10\ntokenizer approx\n"), ("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n")],
        run: "verify --trace trace.yaml --plan plan.yaml --policy team.policy",
        fix: "Raise the budget, discharge commitments already carried out, or split the task.",
    },
    Explanation {
        code: Code::RetrofittedTag,
        summary: "a commitment was tagged after it was written",
        details: "`tagged_at` later than `at` means the region was classified after the fact. A compaction that ran in between saw it as narrative and may already have summarized it, so the tag may guard a paraphrase. A warning: it never changes the verdict.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: constraint\n    key: reversible\n    at: 2\n    tagged_at: 9\n    text: \"Do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Tag commitments when they are written.",
    },
    Explanation {
        code: Code::UntaggedCandidate,
        summary: "a narrative or unclassified region matches a kind's hint",
        details: "The policy's `hint` patterns describe what commitments look like. A narrative region that matches one may be a commitment the runtime failed to tag at write time; as narrative it may be summarized away. A warning: hints never decide a verdict.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"You must never drop columns in this migration.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "If it is a commitment, tag it when it is written (`kind` and `key`).",
    },
    Explanation {
        code: Code::CommitmentInSummary,
        summary: "a summary matches a kind's hint",
        details: "A summary that reads like a commitment may be a paraphrase of one, or an invention by the summarizer; either way the agent may follow it. Check it against the trace. A warning: hints never decide a verdict.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"The user said we must never touch the users table.\"\n  - keep: r2\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Make the summary describe only narrative; keep commitments with `keep: ID`.",
    },
    Explanation {
        code: Code::IdentifierDrift,
        summary: "a summary names a variant of a pinned identifier",
        details: "A path or id fixed earlier (`src/legacy/parser_v2.py`) that reappears in a summary as `parser.py`, `legacy/parser_v2.py`, `parser_v3.py` or a near-miss spelling is how an agent ends up editing the wrong file. Pinned identifiers are commitments whose text is a single token.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: identifier\n    key: parser\n    text: \"src/legacy/parser_v2.py\"\n  - id: r2\n    kind: narrative\n    text: \"Read the parser; it normalizes every field.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n  - kind: summary\n    covers: [r2]\n    text: \"parser.py normalizes every field.\"\n")],
        run: "verify --trace trace.yaml --plan plan.yaml",
        fix: "Write the identifier exactly as pinned, or leave it out of the summary.",
    },
    Explanation {
        code: Code::TokenCountMismatch,
        summary: "a region's `tokens` is more than 10% off its real count",
        details: "With `--recount`, every region is counted with the policy's tokenizer instead of trusting its `tokens`, and a given count more than 10% away from the real one is reported. A runtime with stale counts makes its compaction decisions (when to compact, what fits) on wrong numbers.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    tokens: 2\n    text: \"Looked at the users table; it has 14 columns, three of them unused since the last migration.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n  - keep: r2\n")],
        run: "verify --trace trace.yaml --plan plan.yaml --recount",
        fix: "Have the runtime count with the same tokenizer as the policy, or leave `tokens` out and let ctxguard count.",
    },
    Explanation {
        code: Code::SummarizerFailed,
        summary: "the summarizer given to `plan` failed or printed nothing",
        details: "`ctxguard plan --summarizer CMD` runs CMD once per run of narrative. A command that exits with an error or prints nothing is an error: ctxguard never writes an empty summary, since an empty summary silently drops what it covers.",
        example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n")],
        run: "plan --trace trace.yaml --summarizer false",
        fix: "Fix the summarizer command; it reads narrative on stdin and writes the summary to stdout.",
    },
];

impl Code {
    /// What the code means, why it matters, an example and the fix.
    pub fn explanation(self) -> &'static Explanation {
        explanation(self)
    }
}

use super::*;
use crate::audit::units::summary_units;

fn after(summary: &str) -> After {
    After::new(summary, &summary_units(summary), [])
}

#[test]
fn a_match_is_a_unit_with_its_polarity() {
    let a = after("The user must never use the staging database for the tests.\nKnow-how now.");
    let (outcome, evidence) = a.judge("use the staging database for the tests", None);
    assert_eq!(outcome, Outcome::Altered);
    assert!(evidence.is_some_and(|e| e.changes[0].contains("never")));
    // "No" is not kept by "now".
    assert_eq!(a.judge_choice("Drop the table?", "No").0, Outcome::Lost);
    assert_eq!(a.judge("Know-how now.", None).0, Outcome::Verbatim);
}

#[test]
fn a_stray_mark_the_user_typed_is_no_part_of_the_quote() {
    let a = after("- \"please analyze the situation with 10 mesh agents, only analyze.\"\n- wait, stop, this is crazy");
    assert_eq!(
        a.judge(
            "\" please analyze the situation with 10 mesh agents, only analyze.",
            None
        )
        .0,
        Outcome::Verbatim
    );
    assert_eq!(
        a.judge("``wait, stop, this is crazy", None).0,
        Outcome::Verbatim
    );
    assert_eq!(unquoted("run `make` first"), "run `make` first");
    assert_eq!(unquoted("\"Keep it\" as it is"), "\"Keep it\" as it is");
    assert_eq!(unquoted("`cargo test`"), "`cargo test`");
}

#[test]
fn a_quote_without_what_led_into_pasted_text_is_verbatim() {
    let a = after("- \"preciso que ajuste apenas @instalador.sh para quando terminar a instalaçao já estar no ar o frontend\"\n- \"right now my telegram is not able to see those agent\"\n- \"Merke dir das.\"");
    for typed in [
        "preciso que ajuste apenas @instalador.sh para quando terminar a instalaçao já estar no ar o frontend: \\",
        "right now my telegram is not able to see those agent :",
        "Merke dir das. -",
    ] {
        assert_eq!(a.judge(typed, None).0, Outcome::Verbatim, "{typed}");
    }
    // A final period is the sentence's own; a few words keep their colon.
    assert_eq!(
        after("Keep the tests").judge("Keep the tests.", None).0,
        Outcome::Paraphrased
    );
    assert_eq!(unled("Fix these:"), "Fix these:");
}

#[test]
fn a_quote_without_the_files_its_message_opened_by_mentioning_is_verbatim() {
    let a = after("4. \"Proszę przyglądnij wszystkie customowe komendy, które stworzyłem.\"");
    assert_eq!(
        a.judge(
            "@/Users/me/.claude/commands/ Proszę przyglądnij wszystkie customowe komendy, które stworzyłem.",
            None
        )
        .0,
        Outcome::Verbatim
    );
    // Mentions and little else are the text itself.
    assert_eq!(unmentioned("@src/app.rs fix it"), "@src/app.rs fix it");
    assert_eq!(
        unmentioned("@team please review this"),
        "@team please review this"
    );
}

#[test]
fn a_faithful_quote_is_not_lost() {
    let a = after("User said: \"Run the tests before\n  applying the patch\" and left.");
    assert_eq!(
        a.judge("Run the tests before applying the patch.", None).0,
        Outcome::Paraphrased
    );
    let a = after("- \"Ich möchte, dass du die Dateien im Ordner aufräumst und ...\"");
    assert_eq!(
        a.judge(
            "Ich möchte, dass du die Dateien im Ordner aufräumst und danach alles committest.",
            None
        )
        .0,
        Outcome::Paraphrased
    );
}

#[test]
fn judging_in_other_words() {
    let judged = |commitment: &str, summary: &str| after(summary).judge(commitment, None).0;
    assert_eq!(
        judged(
            "Keep the old code for reference.",
            "For reference, the old code is kept."
        ),
        Outcome::Paraphrased
    );
    assert_eq!(
        judged("Do not drop the users table.", "Drop the users table."),
        Outcome::Altered
    );
    assert_eq!(
        judged("Deploy on Fridays only.", "The build passes."),
        Outcome::Lost
    );
    assert_eq!(
        judged(
            "use lenovo-legion-linux cli to increase my fan speed",
            "1. \"use lenovo-legion cli to increase my fan speed\""
        ),
        Outcome::Altered
    );
    assert_eq!(
        judged("where we at?", "Continue from where we left it off."),
        Outcome::Lost
    );
    assert_eq!(
        judged(
            "config.ts, fuzzy.ts -> utils",
            "├── config.ts\n├── fuzzy.ts\n└── shell.ts"
        ),
        Outcome::Paraphrased
    );
}

#[test]
fn a_heading_that_shares_a_number_alters_nothing() {
    let a = after("**Phase 3: SEE SOMETHING SAY SOMETHING Feature**\n- Created ops_tasks.py");
    assert_eq!(a.judge("lets do phase 3 and 6", None).0, Outcome::Lost);
    let a = after("Current work: let the build phase run, then commit it.");
    assert_eq!(a.judge("lets do phase 3 and 6", None).0, Outcome::Lost);
    let a = after("7. All user messages:\n   - \"do A, a reminder to the user\"");
    assert_eq!(
        a.judge("do A , a reminder to the user", None).0,
        Outcome::Paraphrased
    );
}

#[test]
fn a_path_names_the_same_file_with_more_of_its_path() {
    assert!(same_identifier(
        "packages/a/b.ts",
        "/home/me/packages/a/b.ts"
    ));
    assert!(!same_identifier("a/b.ts", "/home/me/xa/b.ts"));
    // The user's path is not carried by its name alone; their name alone
    // is carried by the path.
    assert!(
        !same_identifier("/home/me/b.ts", "b.ts"),
        "a bare name is no path"
    );
    assert!(same_identifier("b.ts", "/home/me/b.ts"));
}

#[test]
fn a_choice_is_carried_by_the_option_chosen() {
    let a = after("The user chose uuid primary keys. Include an estimate: yes.");
    assert_eq!(
        a.judge_choice("Which primary key type?", "uuid primary keys")
            .0,
        Outcome::Verbatim
    );
    assert_eq!(
        a.judge_choice("Include an estimate?", "Yes").0,
        Outcome::Paraphrased
    );
    assert_eq!(a.judge_choice("Drop the table?", "Yes").0, Outcome::Lost);
    let a = after("user chose: cosmic panel applet");
    assert_eq!(
        a.judge_choice("Which type?", "COSMIC Panel Applet (Recommended)")
            .0,
        Outcome::Paraphrased
    );
    // Several options picked: each stands as written.
    let a = after(r#"Selected "skill文本优化" and "知识沉淀审查" as next steps."#);
    assert_eq!(
        a.judge_choice("接下来您希望我做什么？", "skill文本优化, 知识沉淀审查")
            .0,
        Outcome::Verbatim
    );
    let a = after(r#"Selected "skill文本优化" as the next step."#);
    assert_ne!(
        a.judge_choice("接下来您希望我做什么？", "skill文本优化, 知识沉淀审查")
            .0,
        Outcome::Verbatim
    );
}

/// Folding drops quotes in one pass, and lowers ASCII without Unicode's
/// tables: the same text as dropping them after, letter for letter.
#[test]
fn folding_drops_quotes_as_it_goes() {
    fn dropped_after(text: &str) -> String {
        let mut out = String::new();
        let mut space = false;
        for c in text.chars() {
            let c = match c {
                '‘' | '’' | '`' | '“' | '”' | '„' | '"' => '\'',
                '*' => continue,
                c if c.is_whitespace() => {
                    space = true;
                    continue;
                }
                c => c,
            };
            if space && !out.is_empty() && !matches!(c, ',' | '.' | ';' | ':' | '!' | '?' | ')') {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        }
        out.replace('\'', "")
    }
    for text in [
        "",
        "\" a",
        "a ' b",
        "a \" , b",
        "  “Keep” the *OLD* name , please ) ",
        "Don’t DROP `users`!",
        "İstanbul ΣΑΣ Straße ǅ",
        "' '",
        "x\u{A0}y\u{2003}z",
    ] {
        assert_eq!(fold(text), dropped_after(text), "{text:?}");
    }
}

#[test]
fn a_passage_that_shares_too_few_words_alters_nothing() {
    // "render" and "look" shared with a report of another bug: its "not"
    // changes nothing of the user's; the request is lost.
    let a = after("Current Work: User showed problematic lane rendering output. The issue was that the end mark appeared with a bar above it. This indicated start/end were swapped relative to the display order, so it did not look right. Just applied fix in `computeSessionLanes()`.");
    assert_eq!(
        a.judge("can you render first how that would look?", None).0,
        Outcome::Lost
    );
    // A short commitment all of whose words stand there, its ban dropped,
    // is altered.
    let b = after("Next: drop the legacy columns from the orders table.");
    assert_eq!(
        b.judge("never drop the legacy columns", None).0,
        Outcome::Altered
    );
}

#[test]
fn an_item_quoted_without_the_number_chinese_lists_open_it_with_is_quoted_verbatim() {
    let a = after("6 specific requirements: (1) 扫描整个项目的架构，确认依赖关系 (scan the architecture), (2) 后续的代码开发与Git review遵循此规范.");
    assert_eq!(
        a.judge("1、扫描整个项目的架构，确认依赖关系", None).0,
        Outcome::Verbatim
    );
    assert_eq!(
        a.judge("（2）后续的代码开发与Git review遵循此规范", None).0,
        Outcome::Verbatim
    );
    // A short item keeps its number.
    assert_eq!(unnumbered("1、是"), "1、是");
    assert_eq!(unnumbered("3.1、扫描整个项目"), "扫描整个项目");
}
#[test]
fn a_value_put_in_the_place_of_the_users_is_altered_and_a_file_named_by_its_path_is_kept() {
    let judged = |typed: &str, summary: &str| {
        let a = after(summary);
        let (outcome, evidence) = a.judge(typed, None);
        (outcome, evidence.map(|e| e.changes).unwrap_or_default())
    };
    assert_eq!(
        judged("deploy to staging", "Deploy to production next."),
        (
            Outcome::Altered,
            vec!["`staging` became `production`".to_owned()]
        )
    );
    assert_eq!(
        judged("the deadline is Friday", "Deadline: Monday."),
        (
            Outcome::Altered,
            vec!["`friday` became `monday`".to_owned()]
        )
    );
    assert_eq!(
        judged("use tabs, not spaces", "Use spaces, not tabs."),
        (
            Outcome::Altered,
            vec!["`tabs` and `spaces` traded places".to_owned()]
        )
    );
    // Another value of the kind elsewhere in the passage is no change.
    assert_eq!(
        judged(
            "build production CLI tools with care",
            "Build CLI tools with care; the development server runs on 3000."
        )
        .0,
        Outcome::Paraphrased
    );
    assert_eq!(
        judged(
            "rename parser_v2.py to parser.py",
            "Renamed src/legacy/parser_v2.py to parser.py."
        )
        .0,
        Outcome::Paraphrased
    );
    // A file's name is not a part of another name.
    assert!(!same_identifier("v2.py", "parser_v2.py"));
    assert!(same_identifier("parser_v2.py", "src/legacy/parser_v2.py"));
    assert!(!same_identifier("v1", "api/v1"));
}

#[test]
fn a_word_of_an_earlier_clause_turns_nothing_around() {
    // Quoted whole, the message's own "no" (Portuguese: in the) and
    // "instead" stand in clauses of their own.
    let a = after("- \"sem alteracoes no momento, mas adicione sempre escrever testes para features implementadas\"\n- \"use the Standard input text instead, and remove the icon path input since it is defined by the skill name\"");
    for typed in [
        "mas adicione sempre escrever testes para features implementadas",
        "remove the icon path input since it is defined by the skill name",
    ] {
        assert_eq!(a.judge(typed, None).0, Outcome::Verbatim, "{typed}");
    }
    // In its own clause a "never" still turns it around.
    let b = after("The user said, never use the staging database for the tests.");
    assert_eq!(
        b.judge("use the staging database for the tests", None).0,
        Outcome::Altered
    );
}

#[test]
fn a_negation_or_scope_word_alters_only_beside_the_commitments_words() {
    let judged = |commitment: &str, summary: &str| after(summary).judge(commitment, None);
    // The passage's "not" and "all" are said of other things.
    let (outcome, evidence) = judged(
        "Use Pydantic for API response validation",
        "Pydantic models handle API response validation across the client. Mid-chat errors are raised by the worker, which does not retry the stream or reconnect the session.",
    );
    assert_eq!(outcome, Outcome::Paraphrased, "{evidence:?}");
    let (outcome, evidence) = judged(
        "Invitation flow, Sharing UI and interactions, Revocation and key rotation",
        "Contains all implementation decisions organized by area (Invitation flow, Sharing UI, Revocation, key rotation, Permissions).",
    );
    assert_eq!(outcome, Outcome::Paraphrased, "{evidence:?}");
    // Beside the commitment's words, they turn it around or widen it.
    let (outcome, evidence) = judged(
        "Use Pydantic for API response validation",
        "The client does not use Pydantic for API response validation anymore.",
    );
    assert_eq!(outcome, Outcome::Altered, "{evidence:?}");
    assert!(evidence.is_some_and(|e| e.changes[0].starts_with("`not` stands before it")));
    let (outcome, evidence) = judged(
        "Use Pydantic for API response validation",
        "The client does not validate API responses with Pydantic.",
    );
    assert_eq!(outcome, Outcome::Altered, "{evidence:?}");
    assert!(evidence.is_some_and(|e| e.changes == ["a negation was added"]));
    let (outcome, evidence) = judged(
        "Log the errors of the payment service",
        "Logs all errors of the payment service to the console.",
    );
    assert_eq!(outcome, Outcome::Altered, "{evidence:?}");
    assert!(evidence.is_some_and(|e| e.changes == ["the scope word `all` was added"]));
}

#[test]
fn a_name_carried_in_its_own_words_is_not_missing() {
    let judged = |commitment: &str, summary: &str| after(summary).judge(commitment, None);
    let (outcome, evidence) = judged(
        "Never store rawToken in the DB",
        "Secure token handling: never store raw tokens in the DB, keep their hash.",
    );
    assert_eq!(outcome, Outcome::Paraphrased, "{evidence:?}");
    // A command, an option, a path or a name with digits is its own:
    // its words said of other things do not carry it.
    let (outcome, evidence) = judged(
        "Add the /models command to list the available models",
        "Added a command to list the available models through the API client.",
    );
    assert_eq!(outcome, Outcome::Altered, "{evidence:?}");
    assert!(evidence.is_some_and(|e| e.changes == ["`/models` is missing"]));
    let (outcome, evidence) = judged(
        "Replace the code of the nodes P01-A and P01-C",
        "Replaced the code of the nodes P01-A and P01-B.",
    );
    assert_eq!(outcome, Outcome::Altered, "{evidence:?}");
}

#[test]
fn the_word_that_asks_for_thinking_is_no_part_of_the_quote() {
    let a = after("- \"il faut aussi ajouter tous les logo en orbites dans le hero\"\n- \"Descubra o que sobreescreveu o frontend\"");
    assert_eq!(
        a.judge(
            "il faut aussi ajouter tous les logo en orbites dans le hero ultrathink",
            None
        )
        .0,
        Outcome::Verbatim
    );
    assert_eq!(
        a.judge("ultrathink: descubra o que sobreescreveu o frontend", None)
            .0,
        Outcome::Paraphrased
    );
    assert_eq!(unthought("ultrathink"), "ultrathink");
    assert_eq!(unthought("ultrathink about it"), "ultrathink about it");
}

#[test]
fn an_order_turned_around_a_scope_word_dropped_and_any_under_a_negation() {
    let judged = |commitment: &str, summary: &str| after(summary).judge(commitment, None);
    let (outcome, evidence) = judged(
        "Deploy to staging first, then production",
        "Deploy to production first, then staging.",
    );
    assert_eq!(outcome, Outcome::Altered, "{evidence:?}");
    assert!(evidence.is_some_and(
        |e| e.changes == ["the order is turned around: `then staging`, not `then production`"]
    ));
    // The same order put another way is the same order.
    assert_eq!(
        judged(
            "Run the tests before deploying",
            "Before deploying, the tests are run."
        )
        .0,
        Outcome::Paraphrased
    );
    // A summary that keeps all but the scope word changed the rule, and
    // says so: it did not lose it.
    let (outcome, evidence) = judged("always respond in German", "Respond in German.");
    assert_eq!(outcome, Outcome::Altered, "{evidence:?}");
    assert!(evidence.is_some_and(|e| e.changes == ["the scope word `always` is gone"]));
    // "Don't use any" is "no": no scope is gone.
    assert_eq!(
        judged(
            "Don't use any external libraries",
            "No external libraries are allowed."
        )
        .0,
        Outcome::Paraphrased
    );
}

#[test]
fn the_runs_a_text_holds_never_turn_away_what_stands_in_it() {
    let text = "Primary Request: keep the importer at src/import/mod_7.rs — never drop its tests. 用中文回答。";
    let grams = Grams::of(text);
    // Every piece of the text may stand in it, at any byte it can start on.
    for (start, _) in text.char_indices() {
        for end in (start + 1..=text.len()).filter(|&e| text.is_char_boundary(e)) {
            assert!(grams.may_hold(&text[start..end]), "{:?}", &text[start..end]);
        }
    }
    // A needle with runs the text never holds is turned away.
    for absent in [
        "use the staging database",
        "src/import/mod_8.rs",
        "用英文回答",
    ] {
        assert!(!grams.may_hold(absent), "{absent}");
    }
}

#[test]
fn a_sentence_of_a_script_without_spaces_stands_after_the_words_before_it() {
    let a = after("6. All user messages:\n   - \"myappに移動してこれからじゃんけんアプリを作りたい。手伝って。\"");
    assert_eq!(
        a.judge("これからじゃんけんアプリを作りたい。", None).0,
        Outcome::Verbatim
    );
    // Unless the character before it turns it around, or it goes on.
    let a = after("- 不删除测试文件，先分析原因");
    assert_ne!(a.judge("删除测试文件", None).0, Outcome::Verbatim);
    for said in [
        "- 不要删除测试文件",
        "- 请勿删除测试文件",
        "- 禁止删除测试文件",
    ] {
        assert_ne!(
            after(said).judge("删除测试文件", None).0,
            Outcome::Verbatim,
            "{said}"
        );
    }
    let a = after("- テストを削除しないで");
    assert_ne!(a.judge("テストを削除", None).0, Outcome::Verbatim);
}

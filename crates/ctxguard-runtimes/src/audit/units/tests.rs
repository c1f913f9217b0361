use super::*;

fn shaped(text: &str) -> Vec<(&str, Shape)> {
    units(text)
        .into_iter()
        .map(|u| (u.text(text), u.shape))
        .collect()
}

#[test]
fn a_pasted_plan_is_cut_where_a_person_would_cut_it() {
    let plan = "## Plan\n\nKeep the old code. Run `cargo test -p a..b` first.\n\n- Move tools to core/tools\n- Keep `x != y` as it is\n  - a nested note that stands as a requirement of its own\n\n| file | owner |\n|---|---|\n| src/a.rs | me |\n\n```sh\nmake check != ok\n```\n\n> quoted words\n\n---\n";
    assert_eq!(
        shaped(plan),
        [
            ("## Plan", Shape::Heading),
            ("Keep the old code.", Shape::Sentence),
            ("Run `cargo test -p a..b` first.", Shape::Sentence),
            ("Move tools to core/tools", Shape::Item),
            ("Keep `x != y` as it is", Shape::Item),
            (
                "a nested note that stands as a requirement of its own",
                Shape::Item
            ),
            ("| file | owner |", Shape::Heading),
            ("| src/a.rs | me |", Shape::Row),
            ("make check != ok", Shape::Code),
            ("quoted words", Shape::Quote),
        ]
    );
}

#[test]
fn a_fence_that_says_markdown_holds_prose_not_code() {
    assert_eq!(
        shaped("```markdown\nDo NOT re-design what is decided.\n\n- Keep Supabase for the database\n```\n\n```md\n## Plan\n```\n\n```sh\nmake check\n```\n"),
        [
            ("Do NOT re-design what is decided.", Shape::Sentence),
            ("Keep Supabase for the database", Shape::Item),
            ("## Plan", Shape::Heading),
            ("make check", Shape::Code),
        ]
    );
}

#[test]
fn an_item_and_the_few_words_nested_under_it_are_one_requirement() {
    assert_eq!(
        shaped("1. **Dashboard Streamlit**\n   - Vue d'ensemble\n   - Alertes récentes\n2. **Docker**\n   - Dockerfile optimisé ARM\n   - a step that is a whole requirement of its own words\n"),
        [
            (
                "**Dashboard Streamlit**\n   - Vue d'ensemble\n   - Alertes récentes",
                Shape::Item
            ),
            ("**Docker**", Shape::Item),
            ("Dockerfile optimisé ARM", Shape::Item),
            ("a step that is a whole requirement of its own words", Shape::Item),
        ]
    );
}

#[test]
fn a_plain_label_and_the_few_words_under_it_are_one_requirement() {
    assert_eq!(
        shaped("- Role tiers:\n  - OWNER/ADMIN: settings, templates, billing\n  - STAFF: vehicles, cases\n"),
        [(
            "Role tiers:\n  - OWNER/ADMIN: settings, templates, billing\n  - STAFF: vehicles, cases",
            Shape::Item
        )]
    );
}

#[test]
fn an_item_that_announces_with_its_colon_holds_the_clauses_that_make_it_up() {
    let rule = "- Auto completion must:\n  - mark completedAt, completedByUserId\n  - attach a timeline event on vehicle/case (whichever is relevant)\n";
    assert_eq!(shaped(rule), [(&rule[2..rule.len() - 1], Shape::Item)]);
    let strategy = "- Vehicle matching strategy:\n  1) exact VRM match on same dealer\n  2) if multiple, choose most recently sold or most recent created (configurable later)\n";
    assert_eq!(shaped(strategy).len(), 1);
    // Without the colon, a clause that long is a step of its own.
    let steps = "- After spawning\n  - attach a timeline event on vehicle/case (whichever is relevant)\n  - mark it\n";
    assert_eq!(shaped(steps).len(), 3);
}

#[test]
fn a_value_fixed_under_an_item_is_a_requirement_of_its_own() {
    assert_eq!(
        shaped("- Send the DM:\n  - channel: discord\n  - target: user:191633014441115648\n"),
        [
            ("Send the DM:", Shape::Item),
            ("channel: discord", Shape::Item),
            ("target: user:191633014441115648", Shape::Item),
        ]
    );
    // A thing mapped to another, a file named: each its own too.
    assert_eq!(
        shaped("- Mapping:\n  - PDI Form => Pre-Delivery Inspection task\n  - custom theme: read docs/theme.md\n").len(),
        3
    );
    assert!(fixes_value("`backend` → `api.example.com`"));
    assert!(fixes_value("tokenHash = sha256(rawToken)"));
    assert!(!fixes_value("OWNER/ADMIN: settings, templates, billing"));
    assert!(!fixes_value("`/models` → List available models"));
}

#[test]
fn a_label_that_opens_a_list_with_its_colon_heads_requirements_of_their_own() {
    // In the order they are written: the label, then what it heads.
    assert_eq!(
        shaped(
            "5. **Veiligheid & best practices**:\n   - Rate limiting\n   - Geen API keys in code\n"
        ),
        [
            ("**Veiligheid & best practices**:", Shape::Item),
            ("Rate limiting", Shape::Item),
            ("Geen API keys in code", Shape::Item),
        ]
    );
}

#[test]
fn a_line_after_an_item_that_opens_with_a_capital_is_a_sentence_of_its_own() {
    assert_eq!(
        shaped("mettre à jour :\n- Remplacer kern_projets → projets\n- Remplacer kern_sessions → sessions\nVérifier chaque node Postgres.\n"),
        [
            ("mettre à jour :", Shape::Sentence),
            ("Remplacer kern_projets → projets", Shape::Item),
            ("Remplacer kern_sessions → sessions", Shape::Item),
            ("Vérifier chaque node Postgres.", Shape::Sentence),
        ]
    );
    // An item's own line that goes on in lower case is still the item.
    assert_eq!(
        shaped("- keep the schema as it is and\n  only add the new column\n"),
        [(
            "keep the schema as it is and\n  only add the new column",
            Shape::Item
        )]
    );
}

#[test]
fn lines_marked_hash_one_after_another_are_a_list_not_headings() {
    assert_eq!(
        shaped("要求：\n# 通用的排查机制\n# 每一个功能模块都必须遵循一个skill标准\n\n## Plan\n\nkeep it"),
        [
            ("要求：", Shape::Sentence),
            ("通用的排查机制", Shape::Item),
            ("每一个功能模块都必须遵循一个skill标准", Shape::Item),
            ("## Plan", Shape::Heading),
            ("keep it", Shape::Sentence),
        ]
    );
    // A heading over its section, and headings of two levels in a row.
    assert_eq!(
        shaped("# Title\n## Goal\nkeep it"),
        [
            ("# Title", Shape::Heading),
            ("## Goal", Shape::Heading),
            ("keep it", Shape::Sentence),
        ]
    );
}

#[test]
fn text_an_editor_filled_to_a_width_is_cut_at_its_sentences_not_its_lines() {
    let ticket = "The v0-orch workflow has 3 critical bugs that prevent the pipeline\nfrom completing. The workflow stops at SEP_RETRIEVE every time.\n\nProblem: When sep_messages is empty (new thread), SEP_RETRIEVE returns\n0 rows. N8N stops the pipeline because there are no items to process.\n\nNote: $json.output refers to the ORCHESTRATEUR++ output.\nVerify that the expression resolves correctly by checking what node\nprecedes SEP_APPEND in the execution chain.\n";
    assert_eq!(
        shaped(ticket),
        [
            (
                "The v0-orch workflow has 3 critical bugs that prevent the pipeline\nfrom completing.",
                Shape::Sentence
            ),
            ("The workflow stops at SEP_RETRIEVE every time.", Shape::Sentence),
            (
                "Problem: When sep_messages is empty (new thread), SEP_RETRIEVE returns\n0 rows.",
                Shape::Sentence
            ),
            (
                "N8N stops the pipeline because there are no items to process.",
                Shape::Sentence
            ),
            (
                "Note: $json.output refers to the ORCHESTRATEUR++ output.",
                Shape::Sentence
            ),
            (
                "Verify that the expression resolves correctly by checking what node\nprecedes SEP_APPEND in the execution chain.",
                Shape::Sentence
            ),
        ]
    );
    // Lines a person typed one by one are as long as each thing said: two
    // of a width, or lines of many lengths, fill nothing.
    // Lines a code block parts are no pair: three cuts only across it.
    let parted = "make the header sticky when scrolling down the landing page on every\n```\nx\n```\nbrowser we support, and the footer blue on every page of the website\n```\ny\n```\nnow that the design team agreed on it in the review meeting yesterday\n```\nz\n```\nthen ship";
    assert!(sentences::fill_width(parted).is_none());
    let typed = "make the header sticky when scrolling down the landing page\nalso the footer should be blue on every page of the site now\n";
    assert_eq!(shaped(typed).len(), 2);
    let typed = "make the header sticky when scrolling down the page please\nthe footer should be blue on mobile, like the one in the mockup\nand the sidebar collapses on small screens\nthen the login form moves to the right column of the page please\nnow";
    assert_eq!(shaped(typed).len(), 5);
}

#[test]
fn text_copied_from_a_wrapping_box_is_cut_at_its_sentences_not_its_lines() {
    assert_eq!(
        shaped("Can we use Lombok instead? I'm more comfortable \nwith @Data, @Builder. Add it."),
        [
            ("Can we use Lombok instead?", Shape::Sentence),
            (
                "I'm more comfortable \nwith @Data, @Builder.",
                Shape::Sentence
            ),
            ("Add it.", Shape::Sentence),
        ]
    );
    assert_eq!(
        shaped("The bootstrap: totally agree, showing NEW on all before\n  any follow-up is odd. Go on"),
        [
            (
                "The bootstrap: totally agree, showing NEW on all before\n  any follow-up is odd.",
                Shape::Sentence
            ),
            ("Go on", Shape::Sentence),
        ]
    );
    // Lines typed one by one stay apart: no space kept before the
    // break, or a capital, or a line that ends a sentence.
    assert_eq!(
        shaped("fix the footer\nmake it blue \nThen run it. \nnow\n<StatCard title and words in it too\n    title=\"Total\""),
        [
            ("fix the footer", Shape::Sentence),
            ("make it blue", Shape::Sentence),
            ("Then run it.", Shape::Sentence),
            ("now", Shape::Sentence),
            ("<StatCard title and words in it too", Shape::Sentence),
            ("title=\"Total\"", Shape::Sentence),
        ]
    );
}

#[test]
fn prose_is_cut_at_line_breaks_but_never_inside_code_or_links() {
    assert_eq!(
        shaped("fix the footer\nmake it blue. then run it"),
        [
            ("fix the footer", Shape::Sentence),
            ("make it blue.", Shape::Sentence),
            ("then run it", Shape::Sentence),
        ]
    );
    // A period typed with no space after it still ends a sentence before
    // a capital; a name with a dot in it is one word.
    assert_eq!(
        shaped("Come up with proposals we can take.Do some redesigns. Keep System.Text and README.md as they are."),
        [
            ("Come up with proposals we can take.", Shape::Sentence),
            ("Do some redesigns.", Shape::Sentence),
            ("Keep System.Text and README.md as they are.", Shape::Sentence),
        ]
    );
    assert_eq!(
        shaped("Use `a. B` and [the docs. Here](https://x.example/a.b) now."),
        [(
            "Use `a. B` and [the docs. Here](https://x.example/a.b) now.",
            Shape::Sentence
        )]
    );
    // Output pasted after a colon on the same line is a unit of its own.
    let log = "12:30:47.526 Navigated to https://example.com/master-controller?tab=typography 12:30:48.101 Uncaught TypeError: Cannot read properties of undefined (reading 'map')";
    let line = format!("its just on port 443, these are the console errors: \"{log}\"");
    assert_eq!(
        shaped(&line),
        [
            (
                "its just on port 443, these are the console errors:",
                Shape::Sentence
            ),
            (&format!("\"{log}\"")[..], Shape::Sentence),
        ]
    );
    assert_eq!(
        shaped("Rules: keep it short"),
        [("Rules: keep it short", Shape::Sentence)]
    );
    // A bare URL's `?` ends no sentence.
    assert_eq!(
        shaped("log in here https://mail.example.com/mail/u/1/?ogbl#inbox browser is open. Go."),
        [
            (
                "log in here https://mail.example.com/mail/u/1/?ogbl#inbox browser is open.",
                Shape::Sentence
            ),
            ("Go.", Shape::Sentence),
        ]
    );
    assert_eq!(
        shaped("1.可以\n2.发货时间为：1-7天。"),
        [
            ("1.可以", Shape::Sentence),
            ("2.发货时间为：1-7天。", Shape::Sentence)
        ]
    );
    assert_eq!(shaped("   \n***\n"), []);
    assert_eq!(
        shaped("<summary>\n## Goal\n- keep it\n</summary>"),
        [("## Goal", Shape::Heading), ("keep it", Shape::Item)]
    );
    assert_eq!(
        shaped("it fails:\nerror: no\n  at a (x.js:1:2)\nfix it"),
        [
            ("it fails:", Shape::Sentence),
            ("error: no\n  at a (x.js:1:2)", Shape::Sentence),
            ("fix it", Shape::Sentence)
        ]
    );
    assert_eq!(
        shaped("1. first\n2. [ ] second"),
        [("first", Shape::Item), ("second", Shape::Item)]
    );
    assert_eq!(
        shaped("```json\n{\"a\": 1}\n\nshould list the keys here"),
        [
            ("{\"a\": 1}", Shape::Code),
            ("should list the keys here", Shape::Sentence)
        ]
    );
}

#[test]
fn code_pasted_without_a_fence_is_one_block() {
    let text = "Use a typed model.\n\nclass MindState(BaseModel):\n    objective: str\n    facts: List[str] = []\n\nfrom typing import Literal, List\n\nPIPELINE = [\n    \"sense\",\n]\n\nKeep it: small.";
    assert_eq!(
        shaped(text),
        [
            ("Use a typed model.", Shape::Sentence),
            (
                "class MindState(BaseModel):\n    objective: str\n    facts: List[str] = []",
                Shape::Code
            ),
            ("from typing import Literal, List", Shape::Code),
            ("PIPELINE = [\n    \"sense\",\n]", Shape::Code),
            ("Keep it: small.", Shape::Sentence),
        ]
    );
    // Imports that open a list of names, and a decorator over what it
    // decorates.
    let text = "Use the new buttons.\n\nfrom aiogram.types import (\n    CallbackQuery,\n    InlineKeyboardButton,\n)\n\n@router.message(CommandStart())\nasync def cmd_start(message: Message) -> None:\n    await message.answer(\"hi\")";
    assert_eq!(
        shaped(text),
        [
            ("Use the new buttons.", Shape::Sentence),
            (
                "from aiogram.types import (\n    CallbackQuery,\n    InlineKeyboardButton,\n)",
                Shape::Code
            ),
            (
                "@router.message(CommandStart())\nasync def cmd_start(message: Message) -> None:\n    await message.answer(\"hi\")",
                Shape::Code
            ),
        ]
    );
}

#[test]
fn a_question_copied_with_its_answer_typed_after_it_is_two_units() {
    assert_eq!(
        shaped("1. 范围确认：只修改 templates/ 下的两个文件，还是也包括其他文件？ 所有，改之前先给我确认\n2. Which port should the server use? 8080\n3. See https://x.example/a?b=1 for it"),
        [
            ("范围确认：只修改 templates/ 下的两个文件，还是也包括其他文件？", Shape::Item),
            ("所有，改之前先给我确认", Shape::Item),
            ("Which port should the server use?", Shape::Item),
            ("8080", Shape::Item),
            ("See https://x.example/a?b=1 for it", Shape::Item),
        ]
    );
}

#[test]
fn a_fence_never_closed_ends_where_the_prose_comes_back() {
    // A chat copied without its Markdown keeps the first block's opening
    // fence: the code is the code, what follows it the user's words.
    let copied = "**Implementation:**\n```python\n# client/commands/chat.py\nimport typer\n\n# Handle Ctrl+C gracefully\n2. Add Interactive TUI Mode (Priority 2)\nCreate client/tui.py using Textual library:\n\nUse textual (not curses) for the TUI\n";
    assert_eq!(
        shaped(copied),
        [
            ("**Implementation:**", Shape::Sentence),
            (
                "# client/commands/chat.py\nimport typer\n\n# Handle Ctrl+C gracefully",
                Shape::Code
            ),
            ("Add Interactive TUI Mode (Priority 2)", Shape::Item),
            (
                "Create client/tui.py using Textual library:",
                Shape::Sentence
            ),
            ("Use textual (not curses) for the TUI", Shape::Sentence),
        ]
    );
    // Code to the end, and prose after a last blank line, as before.
    assert_eq!(
        shaped("```sh\nmake check\ncargo test\n"),
        [("make check\ncargo test", Shape::Code)]
    );
}

#[test]
fn an_item_quoted_with_its_number_is_not_cut_at_the_numbers_period() {
    assert_eq!(
        shaped("why do we need '2. Builds libnn.a for the configured CPU'? if it's unnecessary, review all phases."),
        [
            ("why do we need '2. Builds libnn.a for the configured CPU'?", Shape::Sentence),
            ("if it's unnecessary, review all phases.", Shape::Sentence),
        ]
    );
}

#[test]
fn clauses_set_side_by_side_with_full_width_semicolons_are_units_of_their_own() {
    let text = "首页的滚动有的时候会翻不到最下面，看不到完整的页脚；不需要judges那页，需要去掉；faq那页页脚下面有深色空白";
    assert_eq!(
        shaped(text),
        [
            (
                "首页的滚动有的时候会翻不到最下面，看不到完整的页脚；",
                Shape::Sentence
            ),
            ("不需要judges那页，需要去掉；", Shape::Sentence),
            ("faq那页页脚下面有深色空白", Shape::Sentence),
        ]
    );
    // Inline code keeps its semicolons.
    assert_eq!(
        shaped("用 `a；b` 作为分隔"),
        [("用 `a；b` 作为分隔", Shape::Sentence)]
    );
}

#[test]
fn a_period_typed_between_spaces_ends_a_sentence() {
    let text = "Do you have the full details of Layerinfinite and how it works . 1 line answer";
    assert_eq!(
        shaped(text),
        [
            (
                "Do you have the full details of Layerinfinite and how it works .",
                Shape::Sentence
            ),
            ("1 line answer", Shape::Sentence),
        ]
    );
}

#[test]
fn an_item_is_cut_where_full_width_semicolons_set_clauses_side_by_side() {
    assert_eq!(
        shaped("- 交互设计：对话 + 功能区（Bento）；非语言交互放在功能区；语言风格可以选标准/温暖/毒舌\n- 用 `a；b` 作为分隔\n"),
        [
            ("交互设计：对话 + 功能区（Bento）；", Shape::Item),
            ("非语言交互放在功能区；", Shape::Item),
            ("语言风格可以选标准/温暖/毒舌", Shape::Item),
            ("用 `a；b` 作为分隔", Shape::Item),
        ]
    );
}

#[test]
fn prose_underlined_with_a_rule_is_prose_not_a_heading() {
    assert_eq!(
        shaped("NOTE: Use server actions. Validate with Zod.\n=========\n\nSetup\n-----\n"),
        [
            ("NOTE: Use server actions.", Shape::Sentence),
            ("Validate with Zod.", Shape::Sentence),
            ("Setup\n-----", Shape::Heading),
        ]
    );
}

#[test]
fn items_numbered_along_one_line_are_cut_before_each_number() {
    let text = "从五个角度去搜集。1.技术（自研能力）（查看论文）2.增长（ARR）3.成本（算力储备）。Version 2. Then ship it.";
    assert_eq!(
        shaped(text),
        [
            ("从五个角度去搜集。", Shape::Sentence),
            ("1.技术（自研能力）（查看论文）", Shape::Sentence),
            ("2.增长（ARR）", Shape::Sentence),
            ("3.成本（算力储备）。", Shape::Sentence),
            ("Version 2.", Shape::Sentence),
            ("Then ship it.", Shape::Sentence),
        ]
    );
    // A time's period before a closing particle ends nothing.
    assert_eq!(
        shaped("把每天训练计划的定时任务改到7.吧，我周末可能早上练"),
        [(
            "把每天训练计划的定时任务改到7.吧，我周末可能早上练",
            Shape::Sentence
        )]
    );
}

#[test]
fn script_letters_match_both_cases_inside_and_outside_classes() {
    let re = |source: &str| regex::Regex::new(&scripts(source)).unwrap();
    // Outside a class, written case-sensitive: the letters hold both cases.
    assert_eq!(scripts(r"\w"), format!("(?-i:[{LETTER}])"));
    for text in ["Éb", "éB", "Жb", "жB"] {
        assert!(re(r"(?i)^\wb$").is_match(text), "{text}");
    }
    assert!(!re(r"(?i)^\W").is_match("Ärger"));
    // Inside a class (and after `[^` or a literal `]`), nested as before.
    assert!(re(r"^[\w.-]+$").is_match("Ärger.v2-x"));
    assert!(re(r"^[^\w]+$").is_match(" ,;"));
    assert!(re(r"^[]\w]+$").is_match("]a]"));
}

#[test]
fn a_space_between_chinese_or_japanese_words_ends_a_sentence_and_korean_only_after_an_order() {
    // A chat client that flattened the message's lines left spaces where
    // they broke.
    let text = "ありがとう 心の支えになってね🙏";
    assert_eq!(
        shaped(text),
        [
            ("ありがとう", Shape::Sentence),
            ("心の支えになってね🙏", Shape::Sentence)
        ]
    );
    assert_eq!(
        shaped("这事情先放放 你先研究一下 firebase 的文档"),
        [
            ("这事情先放放", Shape::Sentence),
            ("你先研究一下 firebase 的文档", Shape::Sentence)
        ]
    );
    // A request closed in the て-form ends its sentence before a word of
    // any script; a Latin word after another ending does not.
    assert_eq!(
        shaped("D 実装して MILSPEC規格かつソフトウエア工学のベストプラクティスで"),
        [
            ("D 実装して", Shape::Sentence),
            (
                "MILSPEC規格かつソフトウエア工学のベストプラクティスで",
                Shape::Sentence
            )
        ]
    );
    assert_eq!(
        shaped("設定は LINE plugin の中"),
        [("設定は LINE plugin の中", Shape::Sentence)]
    );
    // A request put as a question runs from its opening to its question
    // mark.
    let asked = "你可以把昨晚我们聊到 关于读博的事情整理成文档 存到我的云文档里吗";
    assert_eq!(shaped(asked), [(asked, Shape::Sentence)]);
    // A particle after the space carries the sentence on.
    assert_eq!(
        shaped("1段階的応答 で行こう！"),
        [("1段階的応答 で行こう！", Shape::Sentence)]
    );
    assert_eq!(
        shaped("파일 구조 확인해봐"),
        [("파일 구조 확인해봐", Shape::Sentence)]
    );
    // A Korean order closes its sentence: what follows the space is the
    // next one.
    assert_eq!(
        shaped("방금 추가한 부분만 없애줘 아까 라텍스 반영까지는 냅두고"),
        [
            ("방금 추가한 부분만 없애줘", Shape::Sentence),
            ("아까 라텍스 반영까지는 냅두고", Shape::Sentence)
        ]
    );
}

#[test]
fn an_item_on_one_line_is_cut_at_its_sentences_but_not_inside_code() {
    assert_eq!(
        shaped("- Keep the API as it is. Never touch the schema.\n- Run `make a. b` first.\n- A title\n  and the words under it. Then more.\n"),
        [
            ("Keep the API as it is.", Shape::Item),
            ("Never touch the schema.", Shape::Item),
            ("Run `make a. b` first.", Shape::Item),
            ("A title\n  and the words under it. Then more.", Shape::Item),
        ]
    );
}

#[test]
fn a_sections_number_at_any_depth_opens_its_sentence() {
    assert_eq!(
        shaped("1.3.2. 히스토리 패널: 각 라운드의 결과를 기록하여 표시한다. 라운드는 카드형태로 추가된다."),
        [
            ("1.3.2. 히스토리 패널: 각 라운드의 결과를 기록하여 표시한다.", Shape::Sentence),
            ("라운드는 카드형태로 추가된다.", Shape::Sentence),
        ]
    );
}

#[test]
fn an_item_whose_lines_go_on_with_its_sections_numbers_is_cut_at_each() {
    assert_eq!(
        shaped("3. UI/UX 요구사항\n3.1. 반응형 디자인: 반응형으로 설계한다.\n3.2. 시각적 피드백을 제공한다.\n"),
        [
            ("UI/UX 요구사항", Shape::Item),
            ("3.1. 반응형 디자인: 반응형으로 설계한다.", Shape::Item),
            ("3.2. 시각적 피드백을 제공한다.", Shape::Item),
        ]
    );
}

#[test]
fn an_item_whose_lines_go_on_with_lettered_parts_is_cut_at_each() {
    assert_eq!(
        shaped("3) For eligible PRs, check BOTH:\n   a) Unresolved inline threads.\n   b) Review comments \u{2014} fetch all reviews. Compare the commit_id against HEAD.\n   (c) the bodies\n   ii) and their ids\n"),
        [
            ("For eligible PRs, check BOTH:", Shape::Item),
            ("a) Unresolved inline threads.", Shape::Item),
            ("b) Review comments \u{2014} fetch all reviews.", Shape::Item),
            ("Compare the commit_id against HEAD.", Shape::Item),
            ("(c) the bodies", Shape::Item),
            ("ii) and their ids", Shape::Item),
        ]
    );
    // A line that goes on in lower case is the item's sentence wrapped.
    assert_eq!(
        shaped("- Keep the schema as it is\n  e.g. never drop a column\n"),
        [(
            "Keep the schema as it is\n  e.g. never drop a column",
            Shape::Item
        )]
    );
}

#[test]
fn a_tree_typed_with_arrows_is_one_unit() {
    let tree = "Ich habe es angepasst:\n\nLife OS\nPrivat\n  -> Finanzen\n  -> Hobbys\n Ausbildung\n  -> Wiki\n    --> Tagesberichte";
    assert_eq!(
        shaped(tree),
        [
            ("Ich habe es angepasst:", Shape::Sentence),
            (&tree[24..], Shape::Item),
        ]
    );
    // Output that maps one record to another draws no tree.
    let output = "Searching for: Alexa\n  → Alexandra Anger | a69fc521 | aanger@example.com\n  → Alexander Brian | d3b2a4a2 | ab@example.com\n  → Alexa Morales | 08ea8035 | am@example.com";
    assert!(shaped(output).len() > 1);
}

#[test]
fn a_list_quoted_with_its_marks_is_quoted() {
    let answer = ">1. LifeHackingScripts → [Split into 3 repos]\n>  - Reason: the name is vague\n\nPlease make it explicit which 3 repos\n\n>3. Test LaTeX compilation\n\nNo need for that.";
    assert_eq!(
        shaped(answer),
        [
            ("LifeHackingScripts → [Split into 3 repos]", Shape::Quote),
            ("Reason: the name is vague", Shape::Quote),
            ("Please make it explicit which 3 repos", Shape::Sentence),
            ("Test LaTeX compilation", Shape::Quote),
            ("No need for that.", Shape::Sentence),
        ]
    );
}

#[test]
fn a_rule_typed_between_topics_on_one_line_ends_what_stands_before_it() {
    let chat = "pode me chamar de pi. --- 3. a meta é faturar R$100k/mes. ---- voce consegue adicionar o mcp?";
    let texts: Vec<&str> = shaped(chat).into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        texts,
        [
            "pode me chamar de pi.",
            "3. a meta é faturar R$100k/mes.",
            "voce consegue adicionar o mcp?"
        ]
    );
    // A border of a table drawn in text is no rule between topics.
    let table = "| name | -------- | value |";
    assert_eq!(shaped(table).len(), 1);
}

#[test]
fn bullets_a_word_processor_laid_out_are_items() {
    let brief = "Regole fondamentali\n•    Non devi inventare numeri.\n•    Chiedimi ogni assunzione.\no    non inserirli nel Budget 2026,\n\u{f0a7}    Costi del personale\n";
    assert_eq!(
        shaped(brief),
        [
            ("Regole fondamentali", Shape::Sentence),
            ("Non devi inventare numeri.", Shape::Item),
            ("Chiedimi ogni assunzione.", Shape::Item),
            ("non inserirli nel Budget 2026,", Shape::Item),
            ("Costi del personale", Shape::Item),
        ]
    );
    // Ranges stand in the text as written.
    for unit in units(brief) {
        assert!(brief[unit.range.clone()].chars().all(|c| c != '-'));
    }
    // A status line's bullet, and the Portuguese article, are not such.
    assert_eq!(bulleted("• sandbox status\n"), None);
    assert_eq!(bulleted("o que falta fazer\n"), None);
    assert_eq!(
        bulleted("•    replichi\n").as_deref(),
        Some("  -    replichi\n")
    );
}

#[test]
fn what_a_user_numbers_with_a_word_along_one_line_is_cut_at_each_number() {
    let chat = "before you start dont create spm contract instruction 1, instruction 2 make sure we using 0.8.25 instruction 3 make sure we have helpers instruction 4, this project should be upgradable";
    let texts: Vec<&str> = shaped(chat).into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        texts,
        [
            "before you start dont create spm contract",
            "make sure we using 0.8.25",
            "make sure we have helpers",
            "this project should be upgradable",
        ]
    );
    // Only the counting word marks: a step named beside them stays in
    // its sentence.
    let beside = "instruction 1 add the tests instruction 2 follow step 3 of the guide";
    let texts: Vec<&str> = shaped(beside).into_iter().map(|(t, _)| t).collect();
    assert_eq!(texts, ["add the tests", "follow step 3 of the guide"]);
    // A step named once, or steps not counted one after another, stay in
    // their sentence.
    for whole in [
        "follow step 2 of the guide and then run it",
        "skip step 2 and step 5, they break the build",
    ] {
        assert_eq!(shaped(whole).len(), 1, "{whole}");
    }
}

#[test]
fn an_abbreviation_ends_no_sentence_even_before_a_capital() {
    let text = "Stell mir Fragen, damit du mich besser kennenlernst und z. B. mehr über meinen Charakter erfährst. Nutze dafür eine Bibliothek (z.B. Sortable.js) für die Boxen. Weil ich Geld verdienen muss, bzw. Zeit sparen will. Use a library, e.g. React for this. And for the design I prefer direction A. Then build it.";
    let sentences: Vec<&str> = shaped(text).into_iter().map(|(s, _)| s).collect();
    assert_eq!(
        sentences,
        [
            "Stell mir Fragen, damit du mich besser kennenlernst und z. B. mehr über meinen Charakter erfährst.",
            "Nutze dafür eine Bibliothek (z.B. Sortable.js) für die Boxen.",
            "Weil ich Geld verdienen muss, bzw. Zeit sparen will.",
            "Use a library, e.g. React for this.",
            "And for the design I prefer direction A.",
            "Then build it.",
        ]
    );
}

#[test]
fn items_numbered_along_one_line_are_units_of_their_own() {
    for typed in [
        "Please do these: 1) rename the helper 2) add a test 3) update the docs",
        "Please do these: (1) rename the helper (2) add a test (3) update the docs",
        "Please do these: 1. rename the helper 2. add a test 3. update the docs",
    ] {
        assert_eq!(
            shaped(typed)
                .into_iter()
                .map(|(text, _)| text)
                .collect::<Vec<_>>(),
            [
                "Please do these:",
                "rename the helper",
                "add a test",
                "update the docs"
            ],
            "{typed}"
        );
    }
    // A list item's own number is its marker: the numbers after it count
    // from the next.
    assert_eq!(
        shaped("1) rename the helper 2) add a test 3) update the docs"),
        [
            ("rename the helper", Shape::Item),
            ("add a test", Shape::Item),
            ("update the docs", Shape::Item)
        ]
    );
    // Numbers that end sentences number nothing.
    assert_eq!(
        shaped("I did it with option 1.  But I like option 2.  Anyway, here it is.").len(),
        3
    );
}

#[test]
fn a_list_pasted_into_one_line_is_cut_at_its_items() {
    // A dashed list after a colon, typed along one line.
    assert_eq!(
        shaped("I need a DLL project with these goals: - Target: DNLauncher.exe - Use MinHook for API hooking - Also build a Launcher.exe"),
        [
            ("I need a DLL project with these goals:", Shape::Sentence),
            ("- Target: DNLauncher.exe", Shape::Item),
            ("- Use MinHook for API hooking", Shape::Item),
            ("- Also build a Launcher.exe", Shape::Item),
        ]
    );
    // Items numbered after a space, each after a name or a bracket.
    assert_eq!(
        shaped("Files needed: 1. dllmain.cpp (the hook DLL) 2. Launcher.cpp (the injector) 3. CMakeLists.txt"),
        [
            ("Files needed:", Shape::Sentence),
            ("1. dllmain.cpp (the hook DLL)", Shape::Item),
            ("2. Launcher.cpp (the injector)", Shape::Item),
            ("3. CMakeLists.txt", Shape::Item),
        ]
    );
    // Numbered from 0, the numbers after it go on from it.
    assert_eq!(
        shaped("Files needed: 0. Main.cpp (the entry) 1. Launcher.cpp (the injector) 2. README.md")
            .into_iter()
            .map(|(text, _)| text)
            .collect::<Vec<_>>(),
        [
            "Files needed:",
            "0. Main.cpp (the entry)",
            "1. Launcher.cpp (the injector)",
            "2. README.md"
        ]
    );
    // A dash or two in a sentence is no list, nor a dash that opens a line
    // Markdown reads on as the paragraph's.
    assert_eq!(shaped("I tried it - it failed - so: - no idea").len(), 1);
    assert_eq!(
        shaped("This operation is allowed for:\n    - Recruitment/Officer: Manage all"),
        [
            ("This operation is allowed for:", Shape::Sentence),
            ("- Recruitment/Officer: Manage all", Shape::Sentence),
        ]
    );
}

#[test]
fn items_numbered_with_no_space_after_their_number_are_items_of_their_own() {
    // Markdown reads "2)For now …" on as the item before it; each is an
    // item, without its number.
    assert_eq!(
        shaped("1) It is a demo for my team \n2)For now a static repository is fine \n3)No, only a demonstration"),
        [
            ("It is a demo for my team", Shape::Item),
            ("For now a static repository is fine", Shape::Item),
            ("No, only a demonstration", Shape::Item),
        ]
    );
    assert_eq!(
        shaped(
            "1. It is a demo repository\n2.As we said, show every chart\n3.We need new services"
        ),
        [
            ("It is a demo repository", Shape::Item),
            ("As we said, show every chart", Shape::Item),
            ("We need new services", Shape::Item),
        ]
    );
    // A version or a decimal goes on as the item's words.
    let versioned = shaped("1. Use the new API\n2.0 is the version we ship");
    assert!(
        versioned.iter().any(|(text, _)| text.starts_with("2.0")),
        "{versioned:?}"
    );
}

#[test]
fn a_programs_debug_prints_are_output() {
    for line in [
        "=== ROUND 1 ===",
        "init() called",
        "resetRound() called for round 2",
        "Modal found: YES",
    ] {
        assert!(PASTED_LINE.is_match(line), "{line}");
    }
    // A user's own word for yes is no print.
    assert!(!PASTED_LINE.is_match("Deploy to staging: yes"));
}

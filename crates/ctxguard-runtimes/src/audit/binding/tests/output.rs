//! Pasted output, a prompt handed over, and the words typed around them.

use super::*;

/// Asserts that every unit of `message` is set apart as material handed
/// over but the last, the user's ask, which binds.
fn material_then_ask(message: &str) {
    let judged = why(message);
    assert_eq!(judged.last(), Some(&Ok(())), "{judged:?}");
    assert!(
        judged[..judged.len() - 1]
            .iter()
            .all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
}

#[test]
fn sections_marked_up_with_tags_are_a_prompt_handed_over() {
    let message = "Merge the prompt below into the skill, and keep its name.\n\
        <instructions>\n\
        Always ask one question at a time.\n\
        Never skip a check.\n\
        </instructions>\n\
        Do not touch the README.";
    let judged = why(message);
    assert_eq!(
        judged,
        [
            Ok(()),
            Err(NotBinding::Pasted),
            Err(NotBinding::Pasted),
            Ok(())
        ],
        "{judged:?}"
    );
}

#[test]
fn a_terminal_session_copied_in_is_output_and_the_words_around_it_are_the_users() {
    let message = "So I tested cargo and it fails:\n\
        wink@box 26-02-20T21:00:06Z:~/src/pop-ws (main)\n\
        $ cargo test -p mylib\n\
        \x20   Finished `test` profile in 0.00s\n\
        \n\
        running 0 tests\n\
        \n\
        test result: ok. 0 passed; 0 failed\n\
        \n\
        wink@box 26-02-20T21:00:37Z:~/src/pop-ws (main)\n\
        $ jj resolve --list\n\
        Cargo.toml    2-sided conflict\n\
        \n\
        Keep the fixtures in tests/fixtures and never commit target/.";
    let prose = Prose::new(message);
    let judged: Vec<(&str, Result<(), NotBinding>)> = units(message)
        .iter()
        .map(|u| (u.text(message), binding(u, &prose, Context::default())))
        .collect();
    for (text, why) in &judged {
        let users = text.starts_with("So I tested") || text.starts_with("Keep the");
        assert_eq!(
            why.is_err_and(|w| w == NotBinding::Pasted),
            !users,
            "{text:?}: {why:?}"
        );
    }
    assert!(judged
        .iter()
        .any(|(text, why)| text.starts_with("Keep the") && why.is_ok()));
    // A message that opens with a prompt is the session to its end, over
    // headings and status lines, but for the user's words after it.
    let julius = "julius@vps:~/.openclaw/devices$ agent-reach doctor\n\
        Agent Reach status\n\
        ========================================\n\
        \n\
        Ready to use:\n\
        \x20✅ GitHub repositories and code - fully usable\n\
        \x20✅ RSS/Atom feeds - readable\n\
        \n\
        Status: 7/16 channels usable\n\
        Tell your Agent to install the rest for you\n\
        Skill installed for Agent: /home/julius/.agents/skills/agent-reach\n\
        Why is everything in Chinese, please answer in English";
    let prose = Prose::new(julius);
    for unit in units(julius) {
        let text = unit.text(julius);
        let why = binding(&unit, &prose, Context::default());
        assert_eq!(
            why.is_ok(),
            text.starts_with("Why is everything"),
            "{text:?}: {why:?}"
        );
        if text.starts_with("Tell your Agent") {
            assert_eq!(why, Err(NotBinding::Pasted));
        }
    }
    let then_asks = "me@box:~/app$ npm test\n> app@1.0.0 test\nFAIL src/a.test.ts\n\n\
        The tests fail on the config. Fix the config and never skip the tests.";
    let prose = Prose::new(then_asks);
    assert!(units(then_asks)
        .iter()
        .any(|u| u.text(then_asks).starts_with("Fix the config")
            && binding(u, &prose, Context::default()).is_ok()));
    // A session after a paragraph of the user's own runs on as well.
    let after_words = "Still not working, Kara\n\n\
        julius@vps:~/kb$ openclaw cron list\n\n\
        Gateway target: ws://127.0.0.1:18789\n\
        Tell the gateway to pair first\n\
        Bind: loopback";
    let prose = Prose::new(after_words);
    for unit in units(after_words) {
        let text = unit.text(after_words);
        if text.starts_with("Tell the gateway") {
            assert_eq!(
                binding(&unit, &prose, Context::default()),
                Err(NotBinding::Pasted)
            );
        }
    }
    // An interactive command's question is where its session starts.
    assert!(PROMPT.is_match(
        "? How would you like to authenticate GitHub CLI? [Use arrows to move, type to filter]"
    ));
    assert_eq!(why("EOF"), [Err(NotBinding::Debris)]);
    // The marks a tool's status report opens its lines with.
    for line in [
        " ✅ gh CLI already installed",
        " [!] GitHub — gh CLI not installed",
        "[X] Reddit — rdt-cli needed",
    ] {
        assert!(TERMINAL_LINE.is_match(line), "{line}");
    }
    assert!(!TERMINAL_LINE.is_match("[x]Keep the tests green"));
    // A prompt alone at the start of a line is one whatever the shell.
    for prompt in [
        "me@host:~/app$ ls",
        "[me@host app]$ make",
        "❯ npm test",
        "PS C:\\app> dir",
    ] {
        assert!(PROMPT.is_match(prompt), "{prompt}");
    }
    assert!(!PROMPT.is_match("mail bob@example.com the report"));
    // Ubuntu's answer to a command it does not have, after the session's
    // paragraph ended.
    let message = "me@box:~$ rdt login\nrdt: command not found\n\nCommand 'rdt' not found, did you mean:\n command 'rt' from deb rt4-clients (4.4.4)\n command 'rmt' from deb tar (1.35)\nTry: sudo apt install <deb name>";
    for (text, why) in super::judged_units(message) {
        assert_eq!(why, Err(NotBinding::Pasted), "{text:?}");
    }
}

#[test]
fn a_deploy_hosts_guidance_copied_in_is_handed_over() {
    let message = "The Netlify deploy errored, with the following guidance provided:\n\n\
        **Diagnosis:**\nThe build failure is due to TypeScript errors in the project.\n\n\
        **Solution:**\n1. Fix the TypeScript errors in the project.\n\
        2. Once the TypeScript errors are fixed, the build should run successfully.\n";
    let judged = why(message);
    assert!(
        judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
}

#[test]
fn an_agents_answer_copied_from_a_terminal_is_handed_over() {
    // Padded to the terminal's width, and the agent speaking.
    let copied = "  Critical observations:                 \n  1. Type accuracy stuck at ~17.5% — below   \n  the target, worse than random.           \n  2. Gain MAE stuck at ~8.78 dB — no change  \n\n  The model is not learning. Let me check\n  gradient norms to diagnose why.\n\nfix it so the model learns";
    let judged = judged_units(copied);
    assert!(judged.len() > 3, "{judged:?}");
    for (text, why) in judged {
        let users = text == "fix it so the model learns";
        assert_eq!(why.is_ok(), users, "{text:?}: {why:?}");
    }
    // The user's own list typed in a terminal, padded as well: theirs.
    let typed = "  Concerns with this run:          \n  - val_loss is 2.7x train_loss     \n  - keep the batch size at 64       \n";
    assert!(judged_units(typed)
        .iter()
        .any(|(text, why)| text.contains("batch size") && why.is_ok()));
}

#[test]
fn rules_drawn_between_sections_are_decoration_not_output() {
    let ruleset = "You are Claude Code on DealerFlow.\n\n==========\nOUTPUT FORMAT\n==========\nNever output large code dumps unless I ask.\n\n==========\nPRINCIPLES\n==========\nDB-first: update the Prisma schema before UI changes.\nEvery list must have search.\n";
    let rules: Vec<_> = judged_units(ruleset)
        .into_iter()
        .filter(|(text, _)| {
            text.starts_with("Never") || text.starts_with("DB-first") || text.starts_with("Every")
        })
        .collect();
    assert_eq!(rules.len(), 3, "{rules:?}");
    for (text, why) in rules {
        assert_eq!(why, Ok(()), "{text:?}");
    }
}

#[test]
fn latex_source_handed_over_is_pasted() {
    let message = "\\section*{본문 내용 작성}\n\n\\subsection*{입력 설명}\n입력 제한 설명\n\n\\subsection*{예제 입력}\n\\begin{verbatim}\n테스트케이스 예제 입력\n\\end{verbatim}\n\n\\begin{problem}{달리기}\n정규는 반드시 총 거리를 정확히 달려야 한다.\n\\InputFile\n첫째 줄에 정수가 주어진다.\n\\end{problem}";
    for (text, why) in judged_units(message) {
        assert_eq!(why, Err(NotBinding::Pasted), "{text:?}");
    }
}

#[test]
fn two_lines_that_are_both_output_are_output() {
    let text = "Here it is:\n\n<StatCard\n    title=\"Total Core Processes\"\n\nRename the variable to totalCoreProcesses.";
    let verdicts = why(text);
    assert_eq!(verdicts.last(), Some(&Ok(())), "{verdicts:?}");
    assert_eq!(
        verdicts
            .iter()
            .filter(|v| **v == Err(NotBinding::Pasted))
            .count(),
        2,
        "{verdicts:?}"
    );
}

#[test]
fn code_pasted_without_a_fence_is_output() {
    let text = "Here is the function I wrote for the POC, do the same in get_budget_data:\n\nCREATE OR REPLACE FUNCTION sync_first(p_id uuid)\n  RETURNS json\n  AS $$\nBEGIN\n  SELECT\n    short_budget_version_id\n  FROM\n    entities_budgets\n  WHERE\n    id = p_id;\nEND;\n";
    let verdicts = why(text);
    assert_eq!(verdicts.first(), Some(&Ok(())), "{verdicts:?}");
    assert!(
        verdicts[1..].iter().all(|v| v.is_err()),
        "the code is not the user's words: {verdicts:?}"
    );
}

#[test]
fn padded_columns_diff_markers_and_open_tags_are_output_lines() {
    for line in [
        "Cached:    0 cached, 4 total",
        "+++++++ ozvrpkrx 1bb61bb7 \"chore: open 0.42.0\"",
        "<<<<<<< Conflict 1 of 1",
        "\\\\\\\\\\\\\\ to: slvprlpw 6c1302fb",
        "<StatCard",
        "  title=\"Total Core Processes\"",
        "  onClick={() => go()}",
        // A command's options, each with what it does.
        "--seq - 启用Sequential深度思维",
        "-c7 - 启用Context7文档查找",
        // What CMake reports.
        "-- The C compiler identification is Clang 14.0.0",
        "-- Found Git: /usr/bin/git (found version \"2.34.1\")",
        "Call Stack (most recent call first):",
        "cmake failed with exit code 1",
        // A script's progress.
        "Step 3: Testing SSH connection to 192.168.0.141...",
        "Checking for rule ID conflicts...",
        // A web server's log of the requests it served.
        "POST /dashboard 200 in 37.7s (compile: 36ms, proxy.ts: 19ms, render: 37.6s)",
        " GET /api/auth/get-session 200 in 17ms",
        // An agent's spinner, its time and its tokens.
        "* Nucleating… (2m 32s · ↓ 352 tokens)",
        "✶ Pondering… (14s · ↑ 1.2k tokens)",
    ] {
        assert!(output_line(line), "{line}");
    }
    for line in [
        // A bullet a word processor set apart from its words.
        "•    replichi fedelmente struttura, righe, colonne",
        "1.    File Budget 2025 (modello/tabella ufficiale)",
        "o    non fare scenari o note sui dazi,",
        "Keep the cache for 4 days.  Then drop it.",
        "POST the form to /api/signup and return 201",
        "Testing is what I want next, then the release.",
        "- keep the flags - they are fine",
        "Use <b> for bold, never <strong>.",
        "Set retries=3 in the config.",
        "Don't touch the ==== separators.",
    ] {
        assert!(!output_line(line), "{line}");
    }
    // The user's own sentence heading the rows they pasted under it
    // is theirs; the rows are not.
    let message = "in\n\
        views/tree.xml I want the name column 450px wide and grouped by stage, stages in   #  \"0. Review\",\n\
        \x20       #         \"1. Scope\",\n\
        \x20       #         \"2. Final\",\n\
        \x20       #         \"3. Done\",\n";
    let prose = Prose::new(message);
    let judged: Vec<_> = units(message)
        .iter()
        .filter(|u| binding(u, &prose, Context::default()).is_ok())
        .map(|u| u.text(message))
        .collect();
    assert_eq!(judged.len(), 1, "{judged:?}");
    assert!(judged[0].contains("I want the name column"), "{judged:?}");
    // A build's summary pasted whole, nothing of the user's around it.
    let message = " Tasks:    3 successful, 4 total\n\
        Cached:    0 cached, 4 total\n\
        \x20 Time:    17.343s\n\
        Failed:    roo-cline#bundle\n";
    for (text, why) in super::judged_units(message) {
        assert_eq!(why, Err(NotBinding::Pasted), "{text:?}");
    }
}

#[test]
fn a_log_of_levels_and_shell_errors_is_output() {
    let message = "[INFO] Calling install_all function with chroot target: /\n\
        /opt/modules/core_system.sh: line 1514: ZFSLCD_INITIALIZED: unbound variable\n\
        [INFO] Running secure cleanup (exit code: 1)\n";
    assert!(
        why(message).iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{:?}",
        why(message)
    );
    // A deploy host's log, each line numbered.
    let deploy = "Line 23: Installing npm packages using npm version 10.9.3\n\
        Line 24: npm warn deprecated inflight@1.0.6: This module is not supported. Do not use it.\n\
        Line 30: Failed during stage 'building site': Build script returned non-zero exit code: 2\n";
    assert!(
        why(deploy).iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{:?}",
        why(deploy)
    );
    // A browser's console, each line after the file and line it came
    // from, and a browser's error page.
    let console = "Download the React DevTools for a better development experience: https://reactjs.org/link/react-devtools\n\
        AICreditCalculator.tsx:68 Calculating credits with AI mode: true\n\
        ai-enhanced-calculator.ts:161 Enhancing with AI analysis...\n";
    assert!(
        why(console).iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{:?}",
        why(console)
    );
    let page = "このサイトにアクセスできません\nlocalhost で接続が拒否されました。\nERR_CONNECTION_REFUSED";
    assert_eq!(
        why(page).last(),
        Some(&Err(NotBinding::Pasted)),
        "{:?}",
        why(page)
    );
    // A macOS terminal, its prompt zsh's.
    let zsh = "Last login: Wed Oct  8 18:07:42 on ttys001\n/Users/Sam/.zshrc:.:6: no such file or directory: /Users/Sam/.local/bin/env\nSam@Mac ~ % node -e\nnode: -e requires an argument\nzsh: command not found: console.log(require('crypto').randomBytes(32).toString('hex'))\nSam@Mac ~ % \n";
    assert!(
        why(zsh).iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{:?}",
        why(zsh)
    );
    // A browser's console and a compiler's summary, copied whole.
    let console = "It still crashes\n\n13:04:03.834\nGET\nhttps://example.com/icon.svg\n[HTTP/2 404  115ms]\n\n13:04:03.838 [Store] Hydrated from localStorage:\nObject { h1: {…}, h2: {…} }\nd51cabac4cba624b.js:43:6275\nUncaught TypeError: can't access property \"min\", e is undefined\n\nFound 14 errors in the same file, starting at: src/pages/LoginPage.tsx:16\n ELIFECYCLE  Command failed with exit code 2.\n(base) PS C:\\code\\app> npm run build\n";
    let judged = why(console);
    assert!(
        judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
    // Chrome's console copied: each entry closes on the label of the button
    // beside it.
    let chrome = "It still fails.\n\nreact-redux.js?v=b5027:1043 Selector unknown returned a different result when called with the same parameters.Understand this warning\nProtectedRoute.jsx:67 Uncaught TypeError: Cannot read properties of undefined (reading 'includes')Understand this error\ndefaultOnUncaughtError @ react-dom_client.js?v=b5027:6229Understand this warning\n";
    let judged = why(chrome);
    assert!(
        judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
    // A guide handed over as a reference, the ask after it: the guide is
    // material, the ask binds.
    let guide = "Cấu trúc tài liệu dự án trên Confluence\n1. Project Overview\nNội dung nên có: Project Name, Mục tiêu hệ thống, Stakeholders\n2. Business & Product Documentation\nVision & Scope, Business Requirements, User Stories, Use Case List\n3. System Architecture\nArchitecture Overview, System Context Diagram, High Level Architecture\n4. Technical Documentation\nAPI Design, Database Design, ERD, Coding Convention\nDựa vào đây viết cho tôi";
    material_then_ask(guide);
    // Text the user says is what they entered: material, the words
    // about it theirs.
    let problem = "정규는 달리기 선수다.\n\n정규는 항상 처음 속도 0에서 출발하며, 달릴 때는 가속도 2의 등가속도 운동을 한다.\n심판은 규칙에 따라 정확히 결승선 위에서 멈추지 않으면 완주로 인정하지 않는다.\n즉, 정규는 반드시 총 거리 $D$를 정확히 달려야 한다.\n\n클로드야 이런식으로 넣으면 인식이 안되는데? 추가를 개인적으로 다 해야하는거야";
    let judged = why(problem);
    assert!(
        judged[..judged.len() - 2]
            .iter()
            .all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
    let pasted = "Title: Weekly report for the leadership meeting\nOwner: the data team, every Monday at nine in the morning\nSections: revenue, churn and the top ten accounts by spend, with a chart for each\nFooter: generated automatically, do not edit by hand, ask the data team for changes\nRecipients: the leadership list and every account manager\nWhen I paste it like this the preview is blank, fix it.";
    material_then_ask(pasted);
    // An error tracker's page copied from a browser: its frames folded
    // ("Show 4 more frames") and their callers.
    let tracker = "It breaks on the reminders page.\n\nShow 4 more frames\nCalled from: action_view/base.rb in public_send\nShow 45 more frames\nCalled from: sentry/hub.rb in configure_scope\n";
    let judged = why(tracker);
    assert!(
        judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
    // A sentence that names a level is still the user's.
    assert_eq!(
        why("Send the [INFO] lines to stderr, not stdout."),
        [Ok(())]
    );
}

#[test]
fn lines_copied_from_a_terminal_screen_padded_wide_are_handed_over() {
    let pad = " ".repeat(40);
    let message = format!(
        "幫我改成拼再一起的字串  Task: Rename the field deviceGroupID to siteID{pad}\n\
        \x20 Objective{pad}\n\
        \x20 Refactor the query response field from deviceGroupID to siteID.{pad}\n\
        \x20 Update the fragments in the .graphql files.{pad}\n\
        \x20 Ensure no references to deviceGroupID remain.{pad}\n\
        \x20 List all modified files.{pad}\n"
    );
    let prose = Prose::new(&message);
    for unit in units(&message) {
        let text = unit.text(&message);
        let why = binding(&unit, &prose, Context::default());
        assert_eq!(why.is_ok(), text.starts_with("幫我"), "{text:?}: {why:?}");
    }
    // Markdown's line break (two spaces) is no screen's padding.
    let typed = "Fix the login page.  \nKeep the tests green.  \nNever push to main.  \n\
        Use the staging database.  \nRun the linter first.  \n";
    let prose = Prose::new(typed);
    assert!(units(typed)
        .iter()
        .all(|u| binding(u, &prose, Context::default()).is_ok()));
}

#[test]
fn a_nested_item_ending_on_a_remark_in_brackets_is_no_line_of_code() {
    for item in [
        "   - `/app/page.tsx` (hoofdpagina met chatbot UI)",
        "   - SQL init script (`init.sql`)",
        "    1. the login page (for admins only)",
    ] {
        assert!(!output_line(item), "{item}");
    }
    for code in [
        "    foo(bar, baz)",
        "    let total = sum(values)",
        "  - run(main)",
    ] {
        assert!(output_line(code), "{code}");
    }
    let message = "Deliver all code files, each with a comment on top:\n\
        \x20  - `/app/page.tsx` (the main page with the chat UI)\n\
        \x20  - `/app/api/chat/route.ts` (the core API that checks the DB)\n\
        \x20  - `/lib/db.ts` (connection + queries)\n";
    let prose = Prose::new(message);
    assert!(units(message)
        .iter()
        .all(|u| binding(u, &prose, Context::default()) != Err(NotBinding::Pasted)));
}

#[test]
fn a_terminal_screen_captured_with_its_escapes_is_output() {
    let message =
        "Commiting requires a blocking input. Please default to yes. Committing changes...\n\
        ^[[?1;2c^[]11;rgb:0000/0000/0000^[\\^[[56;1R\n\
        \x20 Last prompt: Analyze the title extraction failures below.\n\
        Link this commit to session context?\n";
    let judged: Vec<&str> = judged_units(message)
        .into_iter()
        .filter(|(_, why)| why.is_ok())
        .map(|(text, _)| text)
        .collect();
    assert!(
        judged.iter().any(|u| u.contains("Please default to yes")),
        "{judged:?}"
    );
    assert!(
        !judged.iter().any(|u| u.contains("Analyze the title")),
        "{judged:?}"
    );
}

#[test]
fn a_conversation_copied_from_an_agents_panel_is_handed_over() {
    // The user's words after the paragraph of the last marker, whichever
    // marker that is, are theirs.
    for message in [
        "Create a complete backend. Include:\n1. package.json with all dependencies\nTask:Build frontend app\nIN\nCreate a complete frontend.\nOUT\nDone.\n[Tool: Write] {\"file_path\":\"a.ts\"}\n[Tool: Bash] npm install\n\nNow deploy it to staging.",
        "Task:Build frontend app\nIN\nCreate a complete frontend.\n[Tool: Write] {\"file_path\":\"a.ts\"}\nOUT\n\nNow deploy it to staging.",
    ] {
        for (text, why) in super::judged_units(message) {
            if text.starts_with("Now deploy") {
                assert_eq!(why, Ok(()), "{text:?}");
            } else {
                assert_eq!(why, Err(NotBinding::Pasted), "{text:?}");
            }
        }
    }
}

#[test]
fn a_terminal_copied_with_its_spaces_lost_is_output_and_the_words_before_it_the_users() {
    // The agent's words on its screen, every space of them turned into a
    // replacement character: no glyph opens them, and they are output.
    let message = "Check the issues here and let me know only\n\
        \n\
        Let\u{FFFD}me\u{FFFD}kill\u{FFFD}the\u{FFFD}unnecessary\u{FFFD}dev\n\
        \u{FFFD}\u{FFFD}servers\u{FFFD}now\u{FFFD}and\u{FFFD}verify\u{FFFD}memory.";
    let judged = judged_units(message);
    for (text, why) in &judged {
        assert_eq!(
            why.is_ok(),
            text.starts_with("Check the issues"),
            "{text:?}: {why:?}"
        );
    }
    assert!(judged
        .iter()
        .any(|(text, why)| text.starts_with("Check the issues") && why.is_ok()));
}

#[test]
fn an_answer_copied_from_a_chat_that_rendered_its_markdown_is_handed_over() {
    // The user's lead ends on a colon; the agent's answer follows with its
    // Markdown written back escaped.
    let message = "今天接着干后续，注意项目内部文件结构要存放的清晰：\n\
        收到。开始干活。\n\
        \n\
        先做调研，同时并行启动。\n\
        \n\
        \\*\\*调研任务我先启动：\\*\\*同时检查 VM 环境。\n\
        \n\
        \\- 需要选轻量模型，或用 api 方案\n\
        检查 \\+ 提交";
    let judged = judged_units(message);
    for (text, why) in &judged {
        assert_eq!(
            why.is_ok(),
            text.starts_with("今天接着干后续"),
            "{text:?}: {why:?}"
        );
    }
    // Two escapes are a user's own.
    assert!(judged_units("Use \\*bold\\* here and keep `a\\_b` as is.")
        .iter()
        .all(|(_, why)| why.is_ok()));
}

#[test]
fn output_a_terminal_broke_at_its_width_is_handed_over() {
    // A linker's errors copied from an 80-column terminal, each long line
    // broken mid-word, and a test run's line the terminal indented.
    let row = |n: usize| {
        let line = format!("/usr/bin/ld: /home/me/src/gltf_loader.cpp:22{n}:(.text+0x1c{n:02}): undefined reference to `tinygltf::Load({n})'");
        let (head, tail) = line.split_at(80);
        format!("{head}\n{tail}\n")
    };
    let log: String = (0..6).map(row).collect();
    let message = format!(
        "{log}\n      Start 20: GltfLoaderTest.VertexPositionsAreCorrect\n{}",
        row(7)
    );
    for (text, why) in super::judged_units(&message) {
        assert_eq!(why, Err(NotBinding::Pasted), "{text:?}");
    }
    assert!(wrapped(&message).is_some());
    // Prose an editor wrapped breaks between words, at lengths that differ.
    let prose = "Keep the cache for four days and then drop it, unless the\n\
        nightly job has not run yet; in that case keep it one more day\n\
        and tell me in the morning which of the jobs failed, so that I\n\
        can look at the logs before the standup and decide what to do\n\
        with the retries that are still queued for the staging cluster\n\
        and whether the alert thresholds need to move up a bit again.\n";
    assert_eq!(wrapped(prose), None);
    // Lines a terminal's box padded with spaces to its width, copied with
    // the user's answers typed after the agent's items: the words end
    // where they end, at lengths that differ.
    let items = [
        "  4. 将 DEFAULT_PUSH_HOUR 移到配置 - 支持全局和 Skill 级别覆盖      - yes",
        "  5. 实现 cooldown_days 逻辑 - 创建 notification_history 表记录触发时间  - yes",
        "  6. 将硬编码文案移到 reminders.yaml            - yes",
        "  7. ContentGenerator 重构为配置驱动:         - yes",
        "  8. 事件检测器插件化:                           - yes",
        "  9. 所有内容生成都走 rules/ 或 templates",
    ];
    let boxed: String = items
        .iter()
        .flat_map(|item| [item.to_string(), String::new()])
        .map(|line| format!("{line:<100}\n"))
        .collect();
    assert_eq!(wrapped(&boxed), None);
}

#[test]
fn ruby_stack_frames_and_lines_marked_done_or_failed_are_output() {
    for line in [
        "from /usr/local/bundle/gems/knapsack_pro-8.4.0/lib/knapsack_pro/runners/queue/rspec_runner.rb:80:in 'KnapsackPro::Runners::Queue::RSpecRunner#run'",
        "./spec/rails_helper.rb:227:in 'block (2 levels) in <main>'",
        "✅ 3개 업체 샘플 요청 완료",
        "❌ Wrong: use two of them.",
    ] {
        assert_eq!(why(line), [Err(NotBinding::Pasted)], "{line}");
    }
    // A rule that names where it holds binds.
    assert_eq!(why("Keep the retry in app.rb:80 as it is."), [Ok(())]);
}

#[test]
fn a_compilers_numbered_errors_in_any_language_and_a_tools_progress_are_output() {
    for line in [
        "오류 E0153(행 256,열 15): 변수가 잘못 설정 되었습니다.",
        "경고 W0313(행 637, 열24): 펑션 입력 파라미터 할당 연산 처리 중에 변수 타입이 일치 하지 않습니다.",
        "error E0425: cannot find value `x` in this scope",
        "네트워크 파라미터 검사 중...",
        "Compiling serde v1.0.219 ...",
    ] {
        assert_eq!(why(line), [Err(NotBinding::Pasted)], "{line}");
    }
    // An instruction that names an error code binds.
    assert_eq!(why("Fix error E0425 in the parser first."), [Ok(())]);
}

#[test]
fn a_log_pasted_amid_a_numbered_list_takes_none_of_the_items_around_it() {
    // One paragraph, mostly output: the items typed before and after the
    // log are the user's, the log is not.
    let log: String = ["back_neck_stretch", "abdominal_stabilization", "bus_drivers", "chest_supported_rear_delt_raise"]
        .iter()
        .flat_map(|exercise| {
            [
                format!("[ExerciseImageCache] listAll failed for exercises/{exercise}: User does not have permission\n"),
                format!("[ExerciseImageCache] Fallback path not found: exercises/{exercise}/media/0.jpg\n"),
            ]
        })
        .collect();
    let text = format!(
        "Agora preciso fazer algumas correções antes do lançamento,\n\
         1) No paywall, remover as ofertas de features que não foram implementadas\n\
         2) O mapeamento das imagens tem que ser condizente com o FireStore, hoje dá erro:\n\
         {log}\
         3) Retirar do paywall a duplicação Treinos IA ilimitados\n"
    );
    let units = units(&text);
    let prose = Prose::new(&text);
    let said = |unit: &Unit| binding(unit, &prose, Context::default());
    for unit in &units {
        let words = unit.text(&text);
        let expected = if words.starts_with("[ExerciseImageCache]") {
            Err(NotBinding::Pasted)
        } else {
            Ok(())
        };
        assert_eq!(said(unit), expected, "{words}");
    }
}

#[test]
fn records_of_fields_pasted_are_a_listing_and_a_list_the_user_wrote_is_not() {
    // A listing of endpoints copied from a document, a field to a line and
    // each field again for every endpoint: data handed over. The user's
    // words before and after it are judged.
    let endpoints: String = [
        ("/api/workouts", "GET", "Listar workouts"),
        ("/api/workouts", "POST", "Criar workout"),
        ("/api/workouts/[id]", "PATCH", "Atualizar workout"),
    ]
    .iter()
    .map(|(path, method, what)| {
        format!("  Endpoint: {path}\n  Metodo: {method}\n  Descricao: {what}\n  ────────\n")
    })
    .collect();
    let text = format!(
        "São esses os endpoints:\n\n  Base URL: https://cms.example.app\n\n{endpoints}\n\
         Com isso termine a implementação da integração com o personal."
    );
    let prose = Prose::new(&text);
    for unit in &units(&text) {
        let words = unit.text(&text);
        let pasted = ["Endpoint", "Metodo", "Descricao"]
            .iter()
            .any(|field| words.trim_start().starts_with(field));
        let judged = binding(unit, &prose, Context::default());
        assert_eq!(
            judged == Err(NotBinding::Pasted),
            pasted,
            "{words}: {judged:?}"
        );
    }
    // One field again and again is a list the user wrote; fields whose
    // values are sentences are the user's report, judged as typed.
    let todo = "TODO: remove the legacy parser\nTODO: keep the old endpoint\nTODO: add e2e tests\nOwner: me\nOwner: me\nOwner: me";
    assert!(
        why(todo).iter().take(3).all(|w| w.is_ok()),
        "{:?}",
        why(todo)
    );
    let bugs = "Bug: login fails after the password reset on mobile\nExpected: the app redirects to the home screen after login\n\
                Bug: logout leaves the session token in the local storage\nExpected: the token is cleared on logout from every device\n\
                Bug: the settings page shows the wrong currency for users in Brazil\nExpected: the currency follows the user's locale setting";
    assert!(
        why(bugs).iter().all(|w| *w != Err(NotBinding::Pasted)),
        "{:?}",
        why(bugs)
    );
}

#[test]
fn another_agents_reply_announced_in_chinese_is_handed_over() {
    let message = "输入任务1的回复：老板，数据对比分析已完成，我已经为您更新了记录表。\n\n为了彻底解决遗漏问题，我将再次进入后台，直接搜索这 34 个 ID 的历史表现。";
    for (text, why) in judged_units(message) {
        assert_eq!(why, Err(NotBinding::Pasted), "{text}");
    }
    // The user's own reply, announced so, is theirs.
    for own in [
        "我的回复：不要删除旧的表格，保留所有历史记录",
        "我们的回答：不要删除旧的表格，保留所有历史记录",
    ] {
        assert!(why(own).iter().all(|w| w.is_ok()), "{:?}", why(own));
    }
}

#[test]
fn an_example_pasted_after_something_like_is_a_model_not_rules_given_one_by_one() {
    // Lines of different lengths: lines of one length are a terminal's
    // (`wrapped`).
    let rules: String = [
        "Think first - always read the relevant files before making changes.",
        "Keep it simple - make every change as small as possible.",
        "Check in before major changes - present your plan first.",
        "Never speculate - if you have not read a file, make no claims about it.",
        "Run the tests, typecheck and lint after every change.",
        "Explain changes at a high level.",
    ]
    .iter()
    .enumerate()
    .map(|(n, rule)| format!("{}. **{rule}**\n", n + 1))
    .collect();
    let message = format!(
        "create a source of truth that i can use in other computers: some like ## Core Principles\n\n{rules}"
    );
    let judged = judged_units(&message);
    assert_eq!(
        judged.first().map(|(_, why)| *why),
        Some(Ok(())),
        "{judged:?}"
    );
    for (text, why) in judged.iter().skip(1) {
        assert_ne!(*why, Ok(()), "{text}");
    }
    // Rules the user gives after a lead of their own are theirs.
    let given = format!("follow these rules from now on:\n\n{rules}");
    let judged = judged_units(&given);
    assert!(
        judged.iter().skip(1).all(|(_, why)| why.is_ok()),
        "{judged:?}"
    );
}

#[test]
fn a_prompt_behind_the_environments_a_shell_names_is_a_prompt() {
    for prompt in [
        "(tripolar-chat) (base) quiala@quiala-ideapad-3-15itl6:~/datos/tripolar/tripolar-chat$",
        "(venv) me@box:~/app$ pytest",
        "(base) $ conda list",
        "(.venv) PS C:\\app> dir",
    ] {
        assert!(PROMPT.is_match(prompt), "{prompt}");
    }
    for words in [
        "(optional) keep the old branch",
        "(see above) $5 is the price",
    ] {
        assert!(!PROMPT.is_match(words), "{words}");
    }
}

#[test]
fn what_git_fetches_and_a_diff_numbered_by_line_are_output() {
    for line in [
        "From github.com:utilitywarehouse/telecom-mobile",
        "From https://github.com/acme/api",
        "       221 +  case .view(.viewDisappeared):",
        "  37 -      return nil",
    ] {
        assert_eq!(why(line), [Err(NotBinding::Pasted)], "{line}");
    }
    for own in [
        "from now on keep the old parser",
        "Take the fonts from github.com/acme/fonts instead.",
        "Add 3 + 2 retries.",
    ] {
        assert_eq!(why(own), [Ok(())], "{own}");
    }
}

#[test]
fn a_sentence_that_opens_with_a_word_code_also_uses_is_no_code() {
    for own in [
        "Export all users to CSV.",
        "Return the results as JSON.",
        "Import the data from the old table.",
        "Public submissions are editable only by dealer users, never by the public submitter.",
        "Let the tests run first.",
        "Type the password twice.",
        "Private notes stay hidden from members.",
        "Class names follow BEM.",
        "Package the app as a wheel.",
        "Interface with the billing API only through the client.",
        "Struct fields must be private.",
        "Enum values are upper case.",
        "export the report as a pdf",
    ] {
        assert_ne!(why(own), [Err(NotBinding::Pasted)], "{own}");
    }
    for code in [
        "import os",
        "import pandas as pd",
        "import React from 'react'",
        "import { useState } from \"react\";",
        "export default function App() {",
        "export PATH=/usr/local/bin",
        "const total = items.length;",
        "let x = 1",
        "function load(path) {",
        "def load(path):",
        "class Loader(Base):",
        "return;",
        "return cache.get(key)",
        "public static void main(String[] args) {",
        "private final String name;",
        "package com.acme.api;",
        "#include <stdio.h>",
        "fn main() {",
        "impl Display for Error {",
        "struct Point {",
        "enum Color {",
        "interface Props {",
        "type Id = string;",
        "type Server struct {",
    ] {
        assert_eq!(why(code), [Err(NotBinding::Pasted)], "{code}");
    }
}

#[test]
fn what_a_here_document_writes_is_a_files_content() {
    let log =
        "[e2b] write AGENTS.md cmd: cat > \"$HOME/.openclaw/workspace/AGENTS.md\" << 'AGENTEOF'\n\
        You are a Content Writer Agent. Your role is to help with:\n\
        - Blog post writing and editing\n\
        - Product descriptions and landing page copy\n\
        \n\
        Adapt your tone and style to the target audience. Always consider SEO best practices.\n\
        AGENTEOF\n\
        Keep the workspace folder when you register the agent.";
    let prose = Prose::new(log);
    for unit in units(log) {
        let text = unit.text(log);
        let why = binding(&unit, &prose, Context::default());
        if text.starts_with("Keep the workspace") {
            assert_eq!(why, Ok(()), "{text:?}");
        } else {
            assert!(why.is_err(), "{text:?}");
        }
        if text.starts_with("Adapt") || text.starts_with("Blog") || text.starts_with("Always") {
            assert_eq!(why, Err(NotBinding::Pasted), "{text:?}");
        }
    }
    // One never closed is no here-document.
    assert!(here_documents("std::cout << endl\nKeep the log short.").is_empty());
}

#[test]
fn rows_of_values_and_what_a_shell_or_an_installer_says_are_output() {
    for output in [
        "name,age,city\nJohn,30,NYC\nMary,25,LA",
        "zsh: command not found: pnpm",
        "Successfully installed requests-2.31.0",
        "Compiled successfully in 2.3s",
        "CMake failed with exit code 1",
        "make: *** [Makefile:101: all] Error 2",
        "make[1]: Entering directory '/src/app'",
        "collect2: error: ld returned 1 exit status",
        "[*] Target : E:\\games\\app.exe\n[*] DLL : E:\\games\\hook.dll\n[+] Injected",
        "Show 43 ignore-listed frame(s)\nGenerator.next\n<anonymous>\nMiniPlayer.useEffect\nsrc/components/features/MiniPlayer.tsx (78:16)",
        "src/app/layout.tsx (51:5) @ RootLayout",
    ] {
        let judged = why(output);
        assert!(
            judged.iter().all(|w| *w == Err(NotBinding::Pasted)),
            "{output}: {judged:?}"
        );
    }
    // Options named by their numbers, a list of links, a Chinese list of
    // languages: no row of values.
    assert_eq!(why("1,3,5"), [Ok(())]);
    assert_ne!(
        why("文档链接：https://a.example.com/x,https://a.example.com/y,https://a.example.com/z"),
        [Err(NotBinding::Pasted)]
    );
    assert_ne!(
        why("我们是一个ios开发项目，里面包含的编程语言有objective-c,swift,c++与混编"),
        [Err(NotBinding::Pasted)]
    );
    // What the user says of an error is theirs.
    assert_eq!(why("the build fails with a linker error: fix it"), [Ok(())]);
}

#[test]
fn a_plan_handed_over_to_be_reviewed_is_material_and_the_ask_binds() {
    let plan: String = (1..=20)
        .map(|n| format!("Step {n}: the executor splits the order into slices and logs each fill to the audit chain. "))
        .collect();
    let message =
        format!("{plan}\n\nPlease review this plan carefully and give me a report on every gap.");
    material_then_ask(&message);
    // Glued to the plan's last line, in Chinese.
    let message =
        format!("{plan}尊敬的总工程师！请你对这个方案进行全面的检查和分析，然后给我一个报告。");
    let judged = why(&message);
    assert_eq!(judged.last(), Some(&Ok(())), "{judged:?}");
    assert!(
        judged[..judged.len() - 2].iter().all(|w| w.is_err()),
        "{judged:?}"
    );
    // A short plan asked about is the user's own.
    assert!(
        why("Use Redis for the cache and Postgres for the rest. Review this plan.")
            .iter()
            .all(Result::is_ok)
    );
}

#[test]
fn a_frameworks_error_overlay_copied_whole_is_output() {
    // Its hints are the framework's words, whatever they look like; the
    // user's words after its closing question are theirs.
    material_then_ask(
        "1/1\n\nNext.js 16.1.1\nTurbopack\nConsole Error\n\n\
         A tree hydrated but some attributes of the server rendered HTML didn't match the client properties.\n\
         - Invalid HTML tag nesting.\n- Date formatting in a user's locale which doesn't match the server.\n\n\
         See more info here: https://nextjs.org/docs/messages/react-hydration-error\n\n\
         src/app/layout.tsx (51:5) @ RootLayout\nCall Stack\n18\n\nShow 16 ignore-listed frame(s)\nRootLayout\n\
         Was this helpful? Please fix this error.",
    );
    // A counter over words of the user's own is no overlay.
    assert_eq!(why("1/2\nfix the header first")[1], Ok(()));
}

#[test]
fn what_the_user_wrote_before_handed_over_as_it_stands_is_material() {
    let page = "The Loyalty Service manages customer loyalty accounts, programme enrollment, points earning and redemption.\n\n\
        It enables customers to earn rewards on purchases and redeem benefits.\n\n\
        Loyalty Accounts (customer membership, programme enrollments, tier status)\n\n\
        Points Balances (current balances, pending points, expiry tracking)\n\n\
        Increase visit frequency through points earning and tier benefits\n\"";
    for lead in [
        "This is what i've previously written about the loyalty service \"This is a \n",
        "Lets review the Engagement service the same way, this is my original spec This is a \n",
    ] {
        let message = format!("{lead}{page}");
        let judged = why(&message);
        assert!(
            judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
            "{lead}: {judged:?}"
        );
    }
    // The same page under a lead that gives it as the user's own rules binds.
    let judged = why(&format!("Here are the rules:\n{page}"));
    assert!(judged.iter().any(Result::is_ok), "{judged:?}");
}

#[test]
fn a_linters_report_pasted_under_an_ask_is_output_its_files_included() {
    let message = "修正 lint 錯誤\n\n\
        /Users/me/app/src/pages/detail/DeviceAccessTable.vue\n\
        \x20 87:37  error  Unexpected use of file extension \"js\" for \"@/utils/rules.js\"  import/extensions\n\
        \n\
        /Users/me/app/src/utils/tableSortRules.js\n\
        \x20  9:1   error  Prefer default export on a file with single export  import/prefer-default-export\n\
        \x20 13:34  error  Expected { after 'if' condition                     curly\n";
    let judged = why(message);
    assert_eq!(judged.first(), Some(&Ok(())), "{judged:?}");
    assert!(
        judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
}

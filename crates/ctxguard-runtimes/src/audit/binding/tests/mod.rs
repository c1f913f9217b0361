use super::*;
use crate::audit::units::units;

mod output;

pub(super) fn why(text: &str) -> Vec<Result<(), NotBinding>> {
    units(text)
        .iter()
        .map(|u| binding(u, &Prose::new(text), Context::default()))
        .collect()
}

#[test]
fn rules_in_the_forms_people_type_them_bind() {
    for rule in [
        // A ban from now on, which the lead "no" does not take.
        "no more emojis in the commit messages",
        "ok, no more new files",
        // A rule under its label.
        "Constraint: no new dependencies.",
        "Rule: tabs, not spaces",
        "Requirements: Python 3.11 and no pandas",
        // An obligation put on a thing.
        "this has to work offline",
        "the API has to return JSON",
        // Told, and asked to act as well.
        "can you explain why it fails and fix it",
        // Indonesian: always, must.
        "selalu gunakan pnpm",
        "wajib pakai TypeScript",
        // What the instruction works from, before it.
        "From this create a skill that uses this process to create another process",
        "based on that, draft the email",
        // Korean asks whether the agent can, and tells what will do.
        "전자료줄테니깐 분석해보고 업로드 대신해줄수있나?",
        "미니멀쿠션 판매가상승_250518_확정 이시트보면되고",
        // The user's setup.
        "i have a vercel pro account",
        "we've got a Hetzner VPS",
        "I have a public GitHub repository for it",
        // An instruction after "but"; the approach the user settles on;
        // what a part of the work will be.
        "The plan looks good but change step 3 to use Postgres instead of SQLite.",
        "I was thinking about it and I think the best approach is to keep everything in one file.",
        "The frontend will be React.",
        "The database stays MySQL.",
        // A defect told in a few words asks for its fix.
        "same error as before.",
        "You broke the build.",
        "I got this error in the console",
        "It's still slow.",
        "You forgot the docs again.",
        // After the file the runtime attaches with "@".
        "@src/api/routes.ts look at this file and add rate limiting to every POST route",
        // French: "stp" (please), "peux tu" without its hyphen, a ban put
        // up with "tu vois ?", a defect told.
        "peux tu le déployer sur vercel stp, tu as le cli pour ça.",
        "idem pour le select services peux tu régler ça.",
        "ne mets pas dark, met la même couleur verte que le fond de la page tu vois ?",
        "j'ai cette erreur.",
    ] {
        assert_eq!(why(rule), [Ok(())], "{rule}");
    }
    for not in [
        // What the user sees is no ban; "has to do with" tells of a cause.
        "no more errors now",
        "it has to do with the cache",
        // Telling asked twice, and a pair of verbs in what to think about.
        "explain what it does and tell me why",
        "help me think through the best way to design and implement.",
        "it works but returns null",
        // A person named with "@" is no file: what follows is theirs.
        "@yakschuss reply...",
        "The frontend will be slow.",
    ] {
        assert_ne!(why(not), [Ok(())], "{not}");
    }
    // A runtime's own setting, typed or queued, is spent as it runs; a
    // command asked for is information.
    assert_eq!(why("/model sonnet"), [Err(NotBinding::Command)]);
    assert_eq!(why("/effort high"), [Err(NotBinding::Command)]);
    assert_eq!(
        why("give me the command to run /notebooklm to do research"),
        [Err(NotBinding::Question)]
    );
    // Wanting to understand asks to be told; an instruction after it, or
    // about what the agent does, binds.
    for asked in [
        "vorrei capire cosa è, come funziona, come si integra a claude.",
        "I want to understand how the cache works",
        "quero entender como funciona",
        "but i need to know more for the critical path initial sync vs secondary initial sync.",
        "il faut me donner plus de details, je ne comprends pas",
        "give me more details on the retry policy",
    ] {
        assert_eq!(why(asked), [Err(NotBinding::Question)], "{asked}");
    }
    assert_eq!(
        why("i want to know if the tests pass and then fix them"),
        [Ok(())]
    );
    assert_eq!(
        why("I want to understand the codebase before you change anything"),
        [Ok(())]
    );
    // Questions put without their question mark: "will the model …", and
    // "is their" for "is there".
    for asked in [
        "will the model can blind predict the eq parameters",
        "is their any v2 implementation file in the memory",
    ] {
        assert_eq!(why(asked), [Err(NotBinding::Question)], "{asked}");
    }
    // Going on, in the words people use for it.
    for spent in [
        "Let's continue where we left off",
        "continue from where you stopped",
        "続けて",
        "続けてください",
        "开始实施",
        "继续执行吧",
    ] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
}

#[test]
fn what_binds_and_what_does_not() {
    assert_eq!(why("ok"), [Err(NotBinding::Acknowledgement)]);
    // An ask with its subject left out binds; a guess does not.
    assert_eq!(
        why("currently skip if found data same day, can be updated instead?"),
        [Ok(())]
    );
    assert_eq!(
        why("src/views/tabs.xml, can try to sort in this order NOTES TEAM CONTRACT"),
        [Ok(())]
    );
    assert_eq!(
        why("could be caused by the cache in front of it"),
        [Err(NotBinding::Remark)]
    );
    // A Chinese question that opens on what to do asks for it, and one that
    // asks whether it was done asks.
    assert_eq!(
        why("創建一個 skill 有辦法可以拉取 pr 別人回的 comment 來分析要修改什麼？"),
        [Ok(())]
    );
    assert_eq!(why("claude.md 不用指定遵守嗎？"), [Ok(())]);
    assert_eq!(why("检查了吗？"), [Err(NotBinding::Question)]);
    assert_eq!(why("yes, go ahead"), [Err(NotBinding::Acknowledgement)]);
    assert_eq!(why("ok get started"), [Err(NotBinding::Acknowledgement)]);
    assert_eq!(why("where are we?"), [Err(NotBinding::Question)]);
    // "When" opening the time a rule is about asks nothing.
    assert_eq!(why("When the build fails, do not retry."), [Ok(())]);
    assert_eq!(why("when you are done, commit and push"), [Ok(())]);
    assert_eq!(why("when is the deploy"), [Err(NotBinding::Question)]);
    // The time from which a rule holds, before it; a choice named.
    assert_eq!(why("From now on respond in Spanish."), [Ok(())]);
    assert_eq!(why("going forward redirect to /home"), [Ok(())]);
    assert_eq!(why("We're going with option B."), [Ok(())]);
    assert_eq!(why("I'll take the second"), [Ok(())]);
    // Control words and the user's own next step ask nothing.
    for spent in [
        "no worries",
        "hold on",
        "never mind",
        "nvm, thanks",
        "one sec",
        "Ok looking good.",
    ] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    assert_eq!(why("Let me check on my side."), [Err(NotBinding::Remark)]);
    assert_eq!(why("let me know when it is deployed"), [Ok(())]);
    assert_eq!(why("never drop the users table"), [Ok(())]);
    assert_eq!(
        why("When did it start failing"),
        [Err(NotBinding::Question)]
    );
    assert_eq!(
        why("what is the current local branch and which branch have we been working on"),
        [Err(NotBinding::Question)]
    );
    assert_eq!(why("can you make the footer blue?"), [Ok(())]);
    assert_eq!(why("oke cukup"), [Err(NotBinding::Acknowledgement)]);
    // A greeting or a yes with a letter drawn out is spent too; a word
    // that only doubles a letter is itself.
    for drawn in ["hiiii", "okkk", "yesss"] {
        assert_eq!(why(drawn), [Err(NotBinding::Acknowledgement)], "{drawn}");
    }
    for ack in [
        "Có luôn em",
        "có nha",
        "Tốt em",
        "Ga aan de slag!",
        "yeah this all makes sense to me!",
    ] {
        assert_eq!(why(ack), [Err(NotBinding::Acknowledgement)], "{ack}");
    }
    assert_eq!(why("send the report to me"), [Ok(())]);
    // Turning down what the agent proposed, and saying what to do
    // instead, is no go-ahead.
    assert_eq!(why("make these todos"), [Err(NotBinding::Acknowledgement)]);
    assert_eq!(why("no, make these todos"), [Ok(())]);
    for question in [
        "how would you handle this?",
        "like what needs to be wired up first?",
        "em thêm tag gì cho nó vậy",
        "chạy local vs chạy github action khác gì nhau",
        "mỗi khung giờ một loại tin khác nhau thì phải làm sao",
        "coba ketik kesini ada pilihan apa saja",
    ] {
        assert_eq!(why(question), [Err(NotBinding::Question)], "{question}");
    }
    assert_eq!(why("could you fix the footer?"), [Ok(())]);
    assert_eq!(why("đừng làm gì thêm nhé"), [Ok(())]);
    assert_eq!(
        why("Anh đang quan tâm đến Crypto, chính trị thế giới, Công nghệ và AI"),
        [Ok(())]
    );
    // A greeting, or a message sent to see that the agent answers.
    for hello in ["Oi", "teste", "testing", "你好"] {
        assert_eq!(why(hello), [Err(NotBinding::Acknowledgement)], "{hello}");
    }
    assert_eq!(why("teste isso no staging"), [Ok(())]);
    // An API's error, JSON on one line, is output the user asks about; a
    // sentence that ends on the JSON it got is the user's.
    assert_eq!(
        why(
            r#"and then for whatsapp, I dont think it has a ui but also for it I got {"status":404,"error":"Not Found"}"#
        ),
        [Ok(())]
    );
    assert!(!why(r#"what does API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"Output blocked by content filtering policy"},"request_id":"req_011CXpFBdo22tMe12Ga59uUC"}"#).contains(&Ok(())));
    // A word alone is an instruction only as the lists write it: lines of
    // a pasted error page are no typos of "handle" or "fasse".
    assert_eq!(
        why("mechanism\nrails\nhandled\nfalse"),
        [
            Err(NotBinding::Fragment),
            Err(NotBinding::Fragment),
            Err(NotBinding::Fragment),
            Err(NotBinding::Fragment)
        ]
    );
    assert_eq!(why("udpate the changelog"), [Ok(())]);
    assert_eq!(why("응"), [Err(NotBinding::Acknowledgement)]);
    assert_eq!(
        why("i want you to do something for me"),
        [Err(NotBinding::Debris)]
    );
    assert_eq!(
        why("can you help me with something?"),
        [Err(NotBinding::Debris)]
    );
    assert_eq!(why("can you help me fix the login?"), [Ok(())]);
    // "you" mistyped.
    assert_eq!(why("can yo help me edit the prompt for this?"), [Ok(())]);
    assert_eq!(why("好的"), [Err(NotBinding::Acknowledgement)]);
    // French requests, bans and to-dos in the infinitive.
    assert_eq!(
        why("tu peux faire en sorte de ne plus afficher ce message"),
        [Ok(())]
    );
    assert_eq!(
        why("Deux corrections SQL uniquement, ne rien toucher d'autre."),
        [Ok(())]
    );
    assert_eq!(
        why("Réécrire la requête UPDATE pour éliminer la référence au CTE."),
        [Ok(())]
    );
    // Chinese instructions to switch, to carry out, to back up.
    assert_eq!(why("切换到小米大模型"), [Ok(())]);
    assert_eq!(
        why("进行一次自我冥想反思，然后进行备份，也备份一份到github"),
        [Ok(())]
    );
    assert_eq!(why("备份完成了"), [Err(NotBinding::Remark)]);
    assert_eq!(why("oke kerjakan 1 dan 2"), [Ok(())]);
    // A lesson's list states; the user's list asks.
    assert_eq!(
        why("- 프로젝트별로 독립된 실행 환경을 구축하여, 버전 충돌을 원천 차단합니다."),
        [Err(NotBinding::Remark)]
    );
    assert_eq!(why("- 테스트는 반드시 통과해야 합니다."), [Ok(())]);
    assert_eq!(why("并且比例只能调整统一比例。"), [Ok(())]);
    assert_eq!(why("导出Excel——没有这个导出的选项"), [Ok(())]);
    // Portuguese: a to-do in the infinitive, a limit, a defect; a
    // list item ending in a semicolon is prose, not code.
    assert_eq!(why("criar um plano de execução"), [Ok(())]);
    assert_eq!(why("- Apenas 1 réplica de cada serviço;"), [Ok(())]);
    assert_eq!(why("- Rede externa network_public (overlay);"), [Ok(())]);
    assert_eq!(
        why("- console.log(total);\n- await save(order);"),
        [Err(NotBinding::Pasted), Err(NotBinding::Pasted)]
    );
    assert_eq!(why("Sem volumes (services stateless)."), [Ok(())]);
    assert_eq!(why("parou de funcoonar tudo novamente"), [Ok(())]);
    // Inside another word it is no defect: "cerrado" (closed) holds
    // "errado", "disparou" (fired) holds "parou".
    assert_eq!(
        why("el archivo quedó cerrado y el evento se disparou ontem."),
        [Err(NotBinding::Remark)]
    );
    assert_eq!(
        why("- let mut total = 0;\n- total += 1;"),
        [Err(NotBinding::Pasted), Err(NotBinding::Pasted)]
    );
    // Vietnamese typed without its marks: "hay" opens a request, "di"
    // closes one.
    assert_eq!(
        why("toi co tai lieu trong docs, hay xem va chinh sua neu can."),
        [Ok(())]
    );
    assert_eq!(why("cho phien ban cli truoc di"), [Ok(())]);
    // Vietnamese asks by the verb it opens with, by "for me", by "I want",
    // and says "no need"; "list for me" and "explain" ask to be told.
    for ask in [
        "tóm tắt giúp anh bài này nhé",
        "thêm vào raw với tag #tech và #underthehood nha",
        "chạy lại cron f1",
        "dịch giúp anh",
        "anh muốn cài trên linux á",
        "bài này chưa hay lắm, không cần lưu đâu nha",
        "vậy đọc cho anh bài viết này đi",
        "dựa vào đây viết cho tôi",
        "cần dọn dẹp lại file cũ ở bước trước",
        "đúng rồi bạn cần nghiên cứu format của họ thật kĩ",
        "sử dụng mcp connect sang ở link dtlx.atlassian.net",
        "các kr nên có kr con bên trong",
        "đúng rồi chi tiết vào nhé",
        "thực hiện làm sau đó chạy dự án lên cho tôi review",
    ] {
        assert_eq!(why(ask), [Ok(())], "{ask}");
    }
    // The agent named; a way preferred in Chinese ("best if it can"); the
    // value of a name given; "want u" as typed.
    for ask in [
        "your name is ovo",
        "最好是能接入ide，像codex和 cloude 那样",
        "用户名是 962996947@qq.com 仓库名是 yaxin",
        "shanghai of china.i usually want u help me coding and more",
    ] {
        assert_eq!(why(ask), [Ok(())], "{ask}");
    }
    // Thai asks by the verb its clause opens with, by "must" and "no need
    // to", and by "for me, please" closing it; it asks a question by the
    // particle or question word it closes on, or by "why" opening it.
    for ask in [
        "เขียนโค้ด module 1: the brain ตามแผนเดิม",
        "สร้างระบบ ERP สำหรับธุรกิจก่อสร้าง",
        "ไม่ต้องเอามุมมองหลักๆมาตอบ",
        "ลองวิเคราะห์ requirement นี้ให้หน่อย",
    ] {
        assert_eq!(why(ask), [Ok(())], "{ask}");
    }
    for asked in [
        "ตอนนี้มี sub-agent อะไรบ้าง",
        "เอา sub-agent ไปใช้ในกลุ่มไม่ได้หรอ",
        "ทำไมไม่ตอบ",
    ] {
        assert_eq!(why(asked), [Err(NotBinding::Question)], "{asked}");
    }
    for said in ["ขอบคุณครับ", "ทำงานได้แล้ว"] {
        assert_ne!(why(said), [Ok(())], "{said}");
    }
    // A command to a chat's bot is spent when it runs.
    assert_ne!(why("/start@biggiessmall_bot"), [Ok(())]);
    // What the user will do themselves, asks how, or asks whether to.
    for own in [
        "được rồi, để anh kiểm tra lại nhé",
        "từ từ để anh coi sao đã nha",
        "làm sao để biết openclaw không có trong path",
        "em nghĩ anh có nên tạo một file md trong workspace không",
    ] {
        assert_ne!(why(own), [Ok(())], "{own}");
    }
    // Spanish instructions, with the pronoun written onto the verb or
    // not, forbidden with "no" and the subjunctive, wanted with "quiero
    // que"; "pasa" alone is "it happens".
    for ask in [
        "reintenta antes de pasar al validador",
        "correcto actualiza tu memoria o lo que sea para que se mantenga asi",
        "recuerda documentar la conversacion en skill_log",
        "aisla todos los tokens y api keys que consigas en el archivo de configuracion openclaw.json",
        "aplica compliance validator y el resto de pasos con un sub agente distinto a ti",
        "mantente pendiente del resultado",
        "vigila al sub agente que esta trabajando e informe tan pronto termine",
        "pásalo a un sub agent para que lo aplique como fix",
        "asegúrate de que siga las reglas que definimos",
        "no hagas más refactors fuera de ese objetivo.",
        "quiero que tu como main, evalues eso que me acabas de decir",
        "necesitas detenerlo y hacer roll back de aquello hecho",
    ] {
        assert_eq!(why(ask), [Ok(())], "{ask}");
    }
    for remark in [
        "pasa que el validador no termina",
        "el validador aplica las reglas",
    ] {
        assert_ne!(why(remark), [Ok(())], "{remark}");
    }
    for told in [
        "check your program and tell me which models are added as default, secondary etc",
        "what would you suggest",
        "what would you recommend to make a appealing profitable product",
        "i need some help on what makes the most sense",
        "list cho anh các cron mà em đang có",
        "giải thích cách hacker tấn công đi",
        "今日の予定教えて",
        "現状を調べて私に説明してください",
        "セキュリティ上の事なので知りたいです",
    ] {
        assert_eq!(why(told), [Err(NotBinding::Question)], "{told}");
    }
    // Defects reported in English: each asks for its fix.
    for defect in [
        "There's a bug that I introduced in chat, here it is: ActionView::Template::Error",
        "Currently, there is a bug where the transpiler cannot find a function from another file.",
        "failed to compile on vercel see error log",
        "you didn't push the latest commit",
    ] {
        assert_eq!(why(defect), [Ok(())], "{defect}");
    }
    // A chat with another assistant copied whole: its answers are not
    // the user's words; what the user said to it is.
    assert_eq!(
        why("Você disse:\nfaz uma analise do dashboard\nO ChatGPT disse:\nVerifique se o serviço está ativo.\n\nAjuste o certificado para evitar falha de TLS."),
        [
            Err(NotBinding::Debris),
            Ok(()),
            Err(NotBinding::Pasted),
            Err(NotBinding::Pasted),
            Err(NotBinding::Pasted)
        ]
    );
    // An agent's terminal copied: its steps and their output.
    assert!(why("● Search(pattern: \"export interface Service\", path: \"frontend/src/lib/api.ts\")\n  ⎿  Found 0 lines\n● Update the service list\n  ⎿  Updated frontend/src/lib/api.ts").iter().all(Result::is_err));
    assert_eq!(
        why("Now the total issues you identied from the beginning to now store them into the memory"),
        [Ok(())]
    );
    assert_eq!(
        why("Yesterday we store them in the cache on every request."),
        [Err(NotBinding::Remark)]
    );
    assert_eq!(
        why("The full architecture of Layerinfinite is in project_architecture.md"),
        [Ok(())]
    );
    assert_eq!(
        why("When I click on Get Started from the video marketing platform, I can't go on to the webinar."),
        [Ok(())]
    );
    assert_eq!(why("把该对话所有内容保存在obsidian"), [Ok(())]);
    // What the user says of their own setup: the agent must hold it.
    assert_eq!(why("我的推广计划是15-25天左右的推广时间"), [Ok(())]);
    assert_eq!(why("开发环境为vscode启用claude code。"), [Ok(())]);
    assert_eq!(why("我的是婴幼儿服饰产品"), [Ok(())]);
    assert_eq!(why("我的计划中现在没有关键词的选项"), [Ok(())]);
    assert_eq!(why("询盘导出的方法没有找到这个选项"), [Ok(())]);
    assert_eq!(
        why("该数据不做参考，我只是让你知道是否导出类似这样的数据"),
        [Ok(())]
    );
    assert_eq!(why("韩国只有这些国家可以选。"), [Ok(())]);
    assert_eq!(
        why("数据的路径：C:\\Users\\Administrator\\Desktop"),
        [Ok(())]
    );
    assert_eq!(
        why("tambahkan tampilan dashboard dari cost control"),
        [Ok(())]
    );
    assert_eq!(why("warna nya tetep di ijo putih saja"), [Ok(())]);
    assert_eq!(
        why("导出数据没有格式选项，直接就是.xls和.xlsx的文件，怎么办"),
        [Err(NotBinding::Question)]
    );
    // A table copied from a page a cell to a line is data handed over.
    let table = format!(
        "日期\n花费\n点击量\n{}\n类似于这种数据导出吗？",
        "2026-04-16\n￥182.63\n7.81%\n64\n".repeat(4)
    );
    assert!(why(&table).iter().all(Result::is_err), "{:?}", why(&table));
    // A role the agent is to take, in Spanish as in English.
    assert_eq!(
        why("actua como un senior engineer en backend para resolver este problema"),
        [Ok(())]
    );
    // A defect reported in Spanish.
    assert_eq!(
        why("el usuario hace una query y no se le devuelve nada"),
        [Ok(())]
    );
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
    assert_eq!(
        why("do this each run:\n\n- lint the workspace"),
        [Err(NotBinding::Debris), Ok(())]
    );
    // Nothing follows: the lead-in leads into nothing and asks itself.
    assert_eq!(
        why("use subagents to handle all actions. let's commit plan files as docs:"),
        [Ok(()), Ok(())]
    );
    assert_eq!(why("yeah, fix it up"), [Err(NotBinding::Acknowledgement)]);
    // What it points back at, named; "go ahead and" before it; both of
    // the options offered.
    for approves in [
        "yes draft that policy",
        "go ahead and run this",
        "yes proceed with both",
        "implement",
        "Rerun!",
    ] {
        assert_eq!(
            why(approves),
            [Err(NotBinding::Acknowledgement)],
            "{approves}"
        );
    }
    assert_eq!(why("draft the refund policy"), [Ok(())]);
    assert_eq!(why("commit all"), [Ok(())]);
    // An instruction that names what to make over the list of its parts
    // asks for it; a short one leads into what it points at.
    assert_eq!(
        why("Produce a requirements inventory with these sections:\n1. Requirements by keyword\n2. Risks, ordered by cost"),
        [Ok(()), Ok(()), Ok(())]
    );
    assert_eq!(
        why("Fix these:\n1. The login page crashes\n2. The footer is too dark")[0],
        Err(NotBinding::Debris)
    );
    assert_eq!(why("keep fixing"), [Err(NotBinding::Acknowledgement)]);
    assert_eq!(
        why("yes lets have a look"),
        [Err(NotBinding::Acknowledgement)]
    );
    assert_eq!(why("take a look at the login bug"), [Ok(())]);
    assert_eq!(why("fix the footer"), [Ok(())]);
    assert_eq!(
        why("fix the footer. [Image #2]"),
        [Ok(()), Err(NotBinding::Debris)]
    );
    assert_eq!(
        why("TypeError: Cannot read properties of undefined\n    at render (app.js:10:5)\n    at main (app.js:2:1)"),
        [Err(NotBinding::Pasted)]
    );
    // A model's answer copied out of a JSON value, its line breaks escaped;
    // a Windows path is no escape.
    assert_eq!(
        why(
            r#"Summary: User submitted "1-2-3" with no additional context.\n\nAnswer: Could you please provide more context?"#
        ),
        [Err(NotBinding::Pasted)]
    );
    assert_eq!(why(r"save the notes in C:\new\notes please"), [Ok(())]);
    // A Go struct's field, its tag and all.
    assert_eq!(
        why("    Variants           []*MobileHandsetVariant    `json:\"variants\"`"),
        [Err(NotBinding::Pasted)]
    );
    // A container build's log, a step a line.
    assert_eq!(
        why("#8 1.500 fatal: could not read password for 'https://github.com': terminal prompts disabled\n#8 ERROR: process \"/bin/sh -c go install\" did not complete successfully: exit code: 1"),
        [Err(NotBinding::Pasted)]
    );
    assert_eq!(why("/compact"), [Err(NotBinding::Command)]);
    assert_eq!(why("先compact以下"), [Err(NotBinding::Command)]);
    assert_eq!(why("please compact now"), [Err(NotBinding::Command)]);
    assert_eq!(why("/gsd:execute-plan .planning/01-02-PLAN.md"), [Ok(())]);
    assert_eq!(
        why("/var/folders/x/T/Screenshot 2025.png"),
        [Err(NotBinding::Pasted)]
    );
    let units = units("Rustup");
    let answering = Context { answering: true };
    assert_eq!(binding(&units[0], &Prose::new("Rustup"), answering), Ok(()));
    // A short reply after a choice that tells of the user is no choice.
    for remark in ["ive fixed those", "ich hoffe das geht."] {
        let said = crate::audit::units::units(remark);
        assert_eq!(
            binding(&said[0], &Prose::new(remark), answering),
            Err(NotBinding::Remark),
            "{remark}"
        );
    }
    assert_eq!(why("https://github.com/acme/api"), [Ok(())]);
}

#[test]
fn going_on_with_the_plan_is_spent_and_what_comes_with_it_binds() {
    assert_eq!(
        why("lets continue with our plan"),
        [Err(NotBinding::Acknowledgement)]
    );
    assert_eq!(
        why("ok, please proceed with the implementation"),
        [Err(NotBinding::Acknowledgement)]
    );
    assert_eq!(why("keep going"), [Err(NotBinding::Acknowledgement)]);
    assert_eq!(
        why("continue with the implementation, but keep the tests green"),
        [Ok(())]
    );
    assert_eq!(
        why("continue with the plan and do not touch the migrations"),
        [Ok(())]
    );
}

#[test]
fn a_statement_put_up_for_confirmation_binds_as_the_statement() {
    assert_eq!(
        why("implement ClippyCmd and FmtCmd and we'll have our minimum set, correct?"),
        [Ok(())]
    );
    assert_eq!(
        why("I suggest we move the fix to the next conflict, thoughts?"),
        [Ok(())]
    );
    assert_eq!(
        why("Then the name is quite informative, thoughts?"),
        [Err(NotBinding::Question)]
    );
    assert_eq!(
        why("is the mcp server down, right?"),
        [Err(NotBinding::Question)]
    );
}

#[test]
fn corrections_proposals_and_needs_bind() {
    for text in [
        "i meant extracting it into a local package, not publishing it.",
        "We don't need minimal prompts.",
        "No need for an edits section in the chores file.",
        "I think the rule is mid-substeps we just commit and at the close-out we squash.",
        "provide the output with and without --all-tests to README",
        "i actually want to move those files to their final location.",
        "Also I thought we were going to rebase main onto the refactor branch.",
        "Another thought, we probably need a `--path` parameter.",
        "For now just create a new revision (commit?)",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_eq!(
        why("We'll handle the active session in a different view later."),
        [Err(NotBinding::Remark)]
    );
}

#[test]
fn chinese_japanese_and_korean_asks_bind_and_their_questions_ask() {
    for text in [
        "直接生成pdf",
        "先不用生成Excel文件供我确认。",
        "日期写了两个，只需要一个。",
        "テストを実行してください",
        "커밋하기 전에 테스트를 해주세요",
        "接下来的信息使用中文",
        "我希望可以与你一起针对于实际用户问题一起进行分析，然后优化测试用例",
        "pr 올리고 pr 을 서브에이전트 심층리뷰시켜",
        // The modal 要 after what it is said of, a verb to open with, a
        // search to make: "questions must show in full", "use pnpm",
        // "search online", "send a screenshot over".
        "题目要显示完整",
        "每一题都要看过",
        "用pnpm",
        "参照《上分专项》的布局和排版优化",
        "上网找",
        "发截图过来。",
        // "compare it with …, list the differences in a table, give your
        // suggestions", "put it in the panel".
        "对比/home/a/docs/mvp.md，表格方式列出对比，给出你的优化建议",
        "非语言交互放在功能区",
        // "look into it", "put it aside for now", "shelve it"; Japanese
        // asks by "お願い", "よろしく", "let's", "no need to", a polite
        // て-form, and a て-form closed by an emoji.
        "github上面有没有相应的，针对openclaw的开源方案，研究一下",
        "这事情先放放",
        "如果停了的，就搁置掉",
        "スケジュールやタスク管理もお願いしたいです",
        "じゃそのAI技術トレンドの最新情報をよろしく",
        "1段階的応答 で行こう！",
        "進捗通知は、無しにしましょう",
        "コード変更の実行はしなくていいよ",
        ".obsidianをみて下さい",
        "心の支えになってね🙏",
        // Korean "let's": "이건 다 빼고 처음부터 다시 해보자" (leave all this
        // out and let's try again from the start).
        "이건 다 빼고 처음부터 다시 ㄱㄱ 해보자",
        // Requests put as questions: "could you first look for a fitness
        // skill?", "can't we use Firebase's?", "just swap them, no?".
        "可不可以先去找一下有什么健身skill？",
        "你可以总结出一个优化p4p的skill吗",
        "不能用 firebase 的服務嗎？",
        "换一下不就行了？",
        "你现在分析一下这个Guardrails 有没有冲突点？",
        "要不你做个slash command出来？",
        // Instructions and defects: "put it on the desktop", "regenerate
        // the Word file", "no illustration can be seen".
        "放到桌面",
        "重新生成word文档",
        "看不到插图",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_eq!(why("这个可以吗？"), [Err(NotBinding::Question)]);
    // A name alone before a remark calls no one to act.
    assert_eq!(
        why("Rafael, this dashboard looks great today"),
        [Err(NotBinding::Remark)]
    );
    // "主要"/"重要"/"只要"/"要是" are no modal; "用户" is no verb.
    assert_eq!(why("这个主要是布局的问题"), [Err(NotBinding::Remark)]);
    assert_eq!(why("用户很多"), [Err(NotBinding::Remark)]);
    assert_eq!(
        why("需要我把页面点击到沟通，TM的客户聊天列表吗"),
        [Err(NotBinding::Question)]
    );
    assert_eq!(
        why("我需要在新对话验证你的抓取信息有哪些？"),
        [Err(NotBinding::Question)]
    );
    assert_eq!(why("我把每页切换到了100个客户"), [Err(NotBinding::Remark)]);
    for text in [
        "3.2、扮演领域专家或犀利辩手，对已讲内容及知识本身进行批判质疑",
        "2、该skill不只分析iOS的日志，还分析安卓、鸿蒙和小程序的用户日志。",
        "分析故障问题，确认根因",
        "要求是先整体后细节，一次只问一个问题。",
        "先通过A执行，后续可以通过C带领我进行知识巩固",
        "同时还要新增C++的模块问题的分析，以及混编的场景",
        "上述分析有误，请重新分析：",
        "你首先要看在系统目录下的vibe-skill",
        "结合/home/aiscend/work/vibelife/docs/components/skillmanagement再优化设计",
        "我已经把文件删了，你重新建文件写入",
    ] {
        let verdicts = why(text);
        assert!(
            !verdicts.is_empty() && verdicts.iter().all(Result::is_ok),
            "{text}: {verdicts:?}"
        );
    }
}

#[test]
fn the_fields_of_a_form_the_user_filled_in_are_values_handed_over() {
    let form = "调用报价skill：\nBuyer 公司名称：amer ly\nAttn 联系人：Hussein\nFinal Destination最终目的地：伊拉克\nShipment（Express / Sea / Air）：快递";
    let judged = why(form);
    assert_eq!(judged[1..], [Ok(()), Ok(()), Ok(()), Ok(())], "{judged:?}");
    // A field that comes again and again is a listing, not a form.
    let listing = "Target repo: lineage\nDependency: none (first in chain)\nTarget repo: neo\nDependency: depends on lineage inbox";
    assert!(why(listing).iter().all(Result::is_err));
}

#[test]
fn a_defect_reported_is_a_fix_asked_for() {
    for text in [
        "feature flag is throwing lint error in member tabs component",
        "on this screen it doenst need the role drop down menu as this will be set in the settings",
        "the list view is not showing the group by or the columns selected",
        "The landmarks are way too high and to the left.",
        "currently using to much space",
        "teh obsidian vaults are under one drive not git, use symlinks",
        "all the styling for the website is inccorrect.",
        "The tool is not correctly mapping it",
        "what you have done is not good because it just hard exits on any error",
        "fuck me stop making changes without checking with me first",
        "one more bug Next.js",
        "i found 2 bugs, provided by Next.js",
        "after clicking the save button, nothing happens",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_eq!(
        why("beautiful, export looks good now."),
        [Err(NotBinding::Remark)]
    );
    assert_ne!(why("Nothing happened overnight on the server."), [Ok(())]);
    // What "you" are or have, in German, asks nothing.
    assert_ne!(why("Dann hast du ein Problem mit dem Server."), [Ok(())]);
    assert_ne!(why("Dort bist du am Ziel."), [Ok(())]);
}

#[test]
fn goals_wants_and_verbs_of_no_list_bind() {
    // What the user is after, and what we cannot do.
    for want in [
        "but i am really looking for money",
        "we cant do the arb bot remember",
    ] {
        assert_eq!(why(want), [Ok(())], "{want}");
    }
    for text in [
        "I don't want to show text.",
        "We want these adapters so we can provide all the information to a small model.",
        "Here we want to guide code generation by providing context through the same hypernetworks.",
        "The idea is to ultimately have hypernetworks that I can use to encode procedural memory.",
        "But our real goal is to adopt the best strategy.",
        "I'm trying to make a loading state when backfill isn't done yet.",
        "Then interview about our goals and objectives.",
        "Iterate on the interview until you are >95% certain to understand our objectives.",
        "A but do the sanity checks you recommend.",
        "Only keep CloudFront for the map itself?",
        "They are still too close.",
        "In `yinshi` when I type `/resume` nothing happens, but I would expect to be able to resume it.",
        "A option works for me",
        "We are using yarn",
        "Do not commit yet, see:",
        "This component can just read that from application service.",
        "It's defined in /Users/me/api/app/controllers/budgets_controller.rb:158.",
        "URL for that looks like this: http://localhost:3000/accounts",
        "in X:\\addons\\company_information edit the view list to add the notes as columns",
        "for photos and receipt add a checbox that ask if exist photos",
        "Ultimately, we will do a forward pass like in Doc-to-LoRa.",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    // Nouns, adjectives and inflected verbs before a preposition open
    // remarks, not instructions.
    for text in [
        "Training on the small set went fine.",
        "Weird behavior in the modal.",
        "Sorry about the noise earlier.",
        "Problem with the login page.",
        "Docs for the parser look fine.",
        "In the last run the build took an hour.",
    ] {
        assert_ne!(why(text), [Ok(())], "{text}");
    }
}

/// What the user typed in `message`, judged by the built-in policy as a
/// whole message is.
fn typed(message: &str) -> crate::audit::Typed {
    crate::audit::typed_units(&crate::policy::Policy::builtin(), message, false)
}

/// The texts of what binds in `typed`.
fn bound(typed: &crate::audit::Typed) -> Vec<&str> {
    typed
        .binds
        .iter()
        .map(|piece| piece.text.as_str())
        .collect()
}

/// Each unit of `message` and why it does or does not bind.
pub(super) fn judged_units(message: &str) -> Vec<(&str, Result<(), NotBinding>)> {
    let prose = Prose::new(message);
    units(message)
        .iter()
        .map(|u| (u.text(message), binding(u, &prose, Context::default())))
        .collect()
}

#[test]
fn roles_missions_defects_and_instructions_in_other_languages_bind() {
    for text in [
        "Dort schiebst du den Ordner Translation-App rein und erstellst zusätzlich den Ordner \"Booking-App\".",
        "Pflege das entsprechend ein.",
        "Ta mission est de construire **StratWatch**, une plateforme de veille.",
        "isme patient ka data proper jagah fetch kro",
        "ye image dekho isme again error aaya hai samjo and fix kro",
        "pdf me ye url k jagah pr ye url add kro",
        "you dont have to wait for all agents to finish to continue operations.",
        "delegate todos.",
        "Глобальная обработка API ошибок отсутствует.",
        "Bouw een complete, functionele website voor een autoverhuurplatform.",
        "ale pozor je nutne to prave prelozit cele do anglictiny!",
        "zkus git push teda",
        "Proszę, podaj mi przykłady, jak najlepiej używać tych komend.",
        "Dodaj testy do modułu płatności",
        "Přidej odkaz na GitHub do patičky.",
        "Voeg een knop toe aan de header",
        "De chatbot moet een system prompt krijgen die dynamisch wordt aangevuld.",
        "Замещение модалок для ошибок в других частях приложения не реализовано.",
        "Your task is to migrate the billing tables.",
        "Act as a senior machine learning engineer and provide a strategy.",
        "À chaque étape, montre-moi le code créé et attends ma validation.",
        "decider d'un nouveau nom pour la carte inventaire et la page produit.",
        "Lance les tests pour valider",
        "Commence par créer la structure complète du projet",
        "Detail actionable strategies for data quality assessment",
        "double check your screenshots.",
        "map out the grand simplification to praxis",
        "Dann probieren wir ottie aus!",
        "Jetzt können wir den BrandBuilder-Skill bauen.",
        "Hoje ela não está aparecendo, só mostra histórico, desafios e stats",
        "Das Speichern funktioniert immer noch nicht",
        "le bouton ne marche pas sur mobile",
        "for example, you always build docker compose with the version at the top, that has been obsolete for years but you keep putting it in.",
        "can youi rework our README to match my new favorite self design design system?",
        "Can't you import in another way?",
        "cant markdown use html to make it look good?",
        "Is there a way to optimize this code?",
        "kann ottie mir die zusammenfassung geben?",
        "혹시 파일 구조 확인해보고 texoid 얘 관련해서 뭔가 있는지 확인해볼래?",
        "Ne pas passer à l'étape 2 avant que l'étape 1 soit validée.",
        "Puis activer XO__CoreEngine__v1 et confirmer qu'il est ACTIF.",
        "Ensuite lancer les 5 tests Telegram du TICKET 2 :",
        "Rapporter le résultat de chaque test et le SELECT final.",
        "Objective: fixing the master controller, its getting a 443 error",
        // Words that open or end on a letter outside ASCII: the patterns'
        // word boundaries are Unicode's.
        "đừng xóa bảng users",
        "no toques jamás",
        "Goal: the build takes a minute at most",
        // An agent called by name, then told what to do; a prompt opened
        // with the word that asks for more thinking.
        "Rafael, convene the full Council.",
        "🛡️ Michael: Conduct a 'Flash Audit' on the proposed stack.",
        "ultrathink faça uma nova análise do log pois os erros continuam",
        "ultrathink descubra o que sobreescreveu o frontend",
        "你继续做Day2的项目吧",
        "启动集成工作流系统",
        "使用clawhub安装技能：multi-search-engine-simple",
        "读取/home/asus/downloads/详细实施计划.md,准备继续执行.",
        "We don't want any of the OpenAPI extensions (x-*) added at this point.",
        "Your job now is to help me BUILD and IMPLEMENT this system.",
        "清点整个系统的skill，然后注册到我们的共同记忆",
        "小红书我自己手动发布，不走api",
        "注意这类课程的专业名词的翻译。",
        // Portuguese and Spanish requests put as questions.
        "Tem algo que pode ser feito na Etapa 1 e 2 para ganhar mais velocidade de instalação ?",
        "consegue me ajudar com o relatório?",
        "¿puedes revisar el script de instalación?",
        // Russian: a need, an obligation, an instruction after "now".
        "нужно поправить стили, что бы нормально отображался для всех размеров",
        "девелопер должен быть саб агент",
        "теперь сделай и протестируй разработчика",
        "протестируй что получилось",
        "не трогай миграции",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    // A Korean order closes its sentence; the reason after it asks nothing.
    assert_eq!(
        why("클로드야 지금 구조 확인해봐 다시 수정했거든?"),
        [Ok(()), Err(NotBinding::Question)]
    );
}

#[test]
fn an_instruction_typed_on_without_punctuation_binds() {
    for text in [
        "ok GUI has no chat box make it more sleek and look more like telegram",
        "ok and over right the old one then start useing the new you",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    for text in [
        "the new tests make it slow on every run for me",
        "yesterday I tried to make it work with the old driver",
        "the build went fine then stopped after the linker step",
    ] {
        assert_ne!(why(text), [Ok(())], "{text}");
    }
}

#[test]
fn a_measure_the_user_gives_is_a_value() {
    for text in [
        "体重88.8，身高182，体脂30.4%",
        "the whole thing came to $1,200 last month",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    // A log of sets and weights reports what was done: handed over.
    assert_eq!(why("哑铃推肩26lb×12，35lb×10×2"), [Err(NotBinding::Pasted)]);
    assert_eq!(
        why("the second run was a lot calmer than the first"),
        [Err(NotBinding::Remark)]
    );
}

#[test]
fn russian_reports_and_remarks_ask_nothing() {
    for text in ["вчера было много работы", "я уже запустил тесты"]
    {
        assert_ne!(why(text), [Ok(())], "{text}");
    }
}

#[test]
fn a_request_to_be_told_asks() {
    for text in [
        "Explain to me what the out of scope items are, what they entail and what purpose they serve",
        "Can you summarize concisely where the PR is currently and what we discovered we should change?",
        "Tell me what happens currently before these changes.",
        "Help me think through best way to design and implement.",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Question)], "{text}");
    }
    // Told to write it down, or to show it in the product: a request.
    for text in [
        "Explain the retry policy in the README.",
        "Show the error message under the field.",
        "Show the error when the field is empty.",
        "Explain the error when it fails.",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
}

#[test]
fn a_question_for_information_asks_whatever_modal_it_holds() {
    for asks in [
        "em qual arquivo do projeto diz como deve ser visualmente o app?",
        "which file says how the app should look?",
        "where must the config live?",
        "so why did we need to add the extra contract months?",
        "Why is the cache shared between the two workers?",
    ] {
        assert_eq!(why(asks), [Err(NotBinding::Question)], "{asks}");
    }
    for binds in [
        "should we drop the column?",
        "what about using postgres instead, we must keep the schema?",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
}

#[test]
fn asked_to_think_or_for_an_opinion_binds_nothing() {
    for text in [
        "Let's think carefully about the change.",
        "think some more.",
        "ultrathink",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Acknowledgement)], "{text}");
    }
    assert_eq!(
        why("I'm not sure. How do I think through this decision? What would you recommend?"),
        [
            Err(NotBinding::Fragment),
            Err(NotBinding::Question),
            Err(NotBinding::Question)
        ]
    );
    assert_eq!(
        why("I almost think option C makes the most sense? Any opinions or recommendations?"),
        [Err(NotBinding::Question), Err(NotBinding::Question)]
    );
    // An instruction put up for an opinion binds as the instruction.
    assert_eq!(why("Drop the cache layer, what do you think?"), [Ok(())]);
    assert_eq!(why("Think about using Redis for the queue."), [Ok(())]);
    for text in [
        "look at screenshot with red arrow.",
        "read the image '/Users/me/Desktop/CleanShot 2025-06-25 at 21.01.43@2x.png'",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Acknowledgement)], "{text}");
    }
    assert_eq!(why("Look at the screenshot and fix the overlap."), [Ok(())]);
}

#[test]
fn courtesies_are_spent_and_reports_and_suggestions_bind() {
    for text in [
        "If you have any question please ask",
        "if you have any questions, just let me know.",
        "Okay MergeService looks good.",
        "the new header looks great to me!",
        "Wenn du dazu Fragen hast, stell sie bitte.",
        "Se tiver alguma dúvida, pode perguntar.",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Acknowledgement)], "{text}");
    }
    for text in [
        "the app is not accesible from my browser",
        "改用 「窗口結束時被後續 PR 動過的比例」 當輔助訊號",
        "可能的處理:在 Lift 下加一個子訊號",
        "建议在可联调后端环境再跑一次端到端验收。",
        "并确认后端真的消费了 X-Idempotency-Key",
        "If you have any questions, ask them before you drop the table.",
        "I agree with the retained status reasoning, makes sense for a reviewer context.",
        "Null status on initial load is the right call.",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_ne!(why("ok, makes sense"), [Ok(())]);
    assert_eq!(why("--max-iterations 15"), [Err(NotBinding::Command)]);
    assert_eq!(
        why("--completion-promise \"COMPLETE\" \\"),
        [Err(NotBinding::Command)]
    );
    assert_eq!(why("Use --max-iterations 15 from now on."), [Ok(())]);
}

#[test]
fn a_brief_with_sections_holds_its_queries_and_its_steps_bind() {
    let brief = "# TICKET 3 — Projets\n\n## ÉTAPE 1 — Corriger le bug\n\nSELECT COUNT(*) FROM projets;\nSELECT COUNT(*) FROM sessions;\nSELECT COUNT(*) FROM messages;\nUPDATE sessions SET projet_id = NULL;\n\n## ÉTAPE 2 — Brancher les pôles\n\nAjouter dans le Switch ROUTER une sortie [5] vers POLE_DISPATCHER.\n\nconst routing = $('CERVEAU_XO').first().json.routing;\nconst poles = routing.poles || [];\nreturn poles.map(p => ({ json: p }));\n";
    let units = units(brief);
    let step = units
        .iter()
        .position(|u| u.text(brief).starts_with("Ajouter dans le Switch"))
        .expect("the step");
    assert_eq!(
        binding(&units[step], &Prose::new(brief), Context::default()),
        Ok(())
    );
}

#[test]
fn traditional_chinese_is_read_as_simplified() {
    assert_eq!(
        why("我想請你再幫我加上這個skills到plan 用在整體體驗的優化"),
        [Ok(())]
    );
    assert_eq!(simplified("請幫我"), "请帮我");
    assert!(matches!(
        simplified("keep it"),
        std::borrow::Cow::Borrowed(_)
    ));
}

#[test]
fn korean_notes_closed_by_the_actions_noun_ask_for_it() {
    assert_eq!(why("v0.16.0의 남은 2개 항목 완료 후 릴리스"), [Ok(())]);
    assert_eq!(why("이부분도 제거(이제 무료플랜 생기니)"), [Ok(())]);
    assert_eq!(why("변경사항 전부 푸시"), [Ok(())]);
    // A rule marked required.
    assert_eq!(why("gogs 저장필수"), [Ok(())]);
    assert_eq!(why("저장 필수 너는 기록이 증명이다 gogs."), [Ok(())]);
    // Report, proceed; "that is the goal".
    assert_eq!(why("3개 증명 못하는 부분 보고"), [Ok(())]);
    assert_eq!(why("암호 함수 성능 최적화 진행"), [Ok(())]);
    assert_eq!(
        why("프리랭으로 만들고 프리랭으로 실행 이게 목표임"),
        [Ok(())]
    );
}

#[test]
fn a_korean_specification_written_in_the_plain_declarative_binds_and_a_state_does_not() {
    assert_eq!(
        why("jest나 mocha와 같은 테스트 프레임워크도 사용하지 않는다."),
        [Ok(())]
    );
    assert_eq!(
        why("카운트 다운이 진행될 때는 패널 중앙에 큰 글씨로 남은 시간을 표시한다."),
        [Ok(())]
    );
    assert_ne!(
        why("브라우저에서 파일을 열어보니 이런 오류가 있다."),
        [Ok(())]
    );
}

#[test]
fn another_agents_report_or_brief_handed_over_asks_nothing_of_this_agent() {
    let message =
        "Should I create this on a separate tree or the main? Here is the prompt I gave Codex:\n\
        1. Extract static data arrays into src/data/ modules\n\
        2. Do not change any visual output.\n";
    let judged = why(message);
    assert_eq!(judged[0], Err(NotBinding::Question));
    assert!(
        judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
    let report = "I got this from Codex: Completed the UI foundation and stopped there.\n\
        - Installed @tanstack/react-query\n- `npm run build` passes.\n";
    assert!(why(report).iter().all(|w| w.is_err()), "{:?}", why(report));
    for report in [
        "Latest from Codex: Implemented **Codex Brief 2** only, and stopped before Brief 3.\n\
        - FRED client with all 8 series mappings, parallel fetch.\n- Graceful degradation added.\n",
        "Got this from Codex got this from Codex:Implemented exactly in the Supabase function folder.\n\
        - Auth guard: checks the secret and returns `401` on mismatch.\n",
        "Gemini said: Use a queue for the retries.\n- Keep the worker stateless.\n",
        "ok, this is from another session, explaining what I'll do next:\n\n- Build a local RAG system for textbooks\n- Vector DB: LanceDB, embedded\n",
    ] {
        assert!(why(report).iter().all(|w| w.is_err()), "{:?}", why(report));
    }
    // A brief written for this agent is not another agent's.
    assert_eq!(
        why("Here is the prompt for you: never push to main."),
        [Ok(())]
    );
    assert_eq!(
        why("Here is what Claude should do: never push to main."),
        [Ok(())]
    );
}

#[test]
fn a_casual_japanese_request_ends_on_its_verbs_te_form() {
    assert_eq!(why("このバッジを追加して"), [Ok(())]);
    // Wishes and asks put politely: "I want to …", "I'd like you to …".
    for text in [
        "このデータのレベルについてはティア分けしたいです。",
        "ティア1がマスターデータという形に分けてほしいです。",
        "一旦こちらの要件でまとめてもらっていいですか？",
        "uiに関するところはたまなさんのアドバイスが欲しいですかね。",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_ne!(
        why("スケートのスポット情報を表示するアプリです。"),
        [Ok(())]
    );
    assert_eq!(why("コントリビューションガイド書いて"), [Ok(())]);
}

#[test]
fn a_reproach_holds_the_rule_it_says_was_broken() {
    assert_eq!(why("Why are you writing typscript?"), [Ok(())]);
    assert_eq!(
        why("我之前说了在workspace下有workspace-assistant和workspace-thegreatimage，平时默认用assistant，为什么你又把heartbeat记到了workspace文件夹下？"),
        [Ok(())]
    );
    assert_eq!(why("why did it fail?"), [Err(NotBinding::Question)]);
    assert_eq!(
        why("why are these two tests slow?"),
        [Err(NotBinding::Question)]
    );
    // Asked why the agent holds a view: a reason asked for.
    for asks in [
        "why are you recommending A over B?",
        "why do you think the cache is stale?",
    ] {
        assert_eq!(why(asks), [Err(NotBinding::Question)], "{asks}");
    }
}

#[test]
fn where_a_thing_is_kept_binds_in_the_users_language() {
    for stated in [
        "Claude Code arbeitet in D:\\Eigene Dateien\\Webseiten\\CMS\\PHP",
        "Der Vault liegt in D:\\Obsidian\\Claude",
        "Le dépôt se trouve dans /srv/git/app.git",
        "The vault works in C:\\Users\\me\\OneDrive",
    ] {
        assert_eq!(why(stated), [Ok(())], "{stated}");
    }
}

#[test]
fn a_closing_courtesy_is_spent() {
    for spent in [
        "Let me know if you need any clarification!",
        "let me know if you have questions",
        "Hope this helps.",
        "Thanks in advance!",
    ] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    assert_eq!(
        why("Let me know if you need the staging credentials before you deploy."),
        [Ok(())]
    );
}

#[test]
fn a_chinese_yes_is_spent() {
    for yes in ["需要", "是的", "没问题"] {
        assert_eq!(why(yes), [Err(NotBinding::Acknowledgement)], "{yes}");
    }
    assert_eq!(why("需要保留旧的表格"), [Ok(())]);
}

#[test]
fn a_proposal_in_the_users_language_binds() {
    for asks in [
        "Pense em como simplificar, proponho usar apenas os seguintes para ser mais rapido sem perder qualidade",
        "sugiro manter o cache por dois dias",
        "propongo usar Postgres para todo",
        "je propose de garder l'ancienne API",
    ] {
        assert_eq!(why(asks), [Ok(())], "{asks}");
    }
}

#[test]
fn french_instructions_open_with_their_verb() {
    for asks in [
        "Produis l'Idea Object Model (IOM) officiel pour ce projet.",
        "Formalise en IOM complet avec données réelles sourcées.",
        "Rédige un résumé de la session.",
        "Traduis le README en anglais.",
    ] {
        assert_eq!(why(asks), [Ok(())], "{asks}");
    }
}

#[test]
fn what_the_user_only_uses_may_skip_or_does_not_care_about_binds() {
    for binds in [
        "I only use verilator to improve the pipeline performance.",
        "we never use tabs in this repo",
        "libnn is programmed in assembly code, we can skip the compilation pass.",
        "we don't care the value",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    assert_ne!(why("I only used it once."), [Ok(())]);
}

#[test]
fn what_the_user_does_not_grasp_typed_without_its_i_is_no_ban() {
    for own in [
        "don't understand the \"2. live-in state\".",
        "dont know why it fails",
    ] {
        assert_ne!(why(own), [Ok(())], "{own}");
    }
    for ban in [
        "don't get rid of the cache",
        "don't think about speed yet",
        "don't touch the migrations",
    ] {
        assert_eq!(why(ban), [Ok(())], "{ban}");
    }
}

#[test]
fn chinese_items_numbered_with_a_dot_and_asks_without_a_verb_of_the_list_bind() {
    for text in [
        "2.linkedin的话，暂时只登记url让人工去进行就可以。",
        "3.你再拓展下思路有什么办法可以拿到KP的联系方式",
        "3.先优化好目前项目结构",
        "寻找到多个kp和kp联系方式很重要",
        "只有公司的也差点，像上面说的，尽可能可以链接到多个KP和对接人。",
        "了解完之后删除NEW_SESSION_INDEX.md，已经没有用了。",
        "读完项目内重要的文件，开始制定新计划，开始新一轮的测试。",
        "指纹浏览器目前我这边有Mullvad Browser。",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
}

#[test]
fn answers_to_numbered_questions_are_the_users_choices_not_a_table() {
    let text = "问题1\nC\n问题2\nA，然后md操作只留下曾经执行过\n问题3\nE";
    let units = units(text);
    let said: Vec<&str> = units.iter().map(|u| u.text(text)).collect();
    assert_eq!(
        said,
        [
            "问题1\nC",
            "问题2\nA，然后md操作只留下曾经执行过",
            "问题3\nE"
        ]
    );
    assert_eq!(why(text), [Ok(()), Ok(()), Ok(())]);
}

#[test]
fn a_python_dict_printed_in_a_traceback_is_output() {
    let text = "View error context:\n{'file': '/mnt/extra-addons/checklist/views/contract_info.xml',\n 'line': 5,\n 'name': 'project.project.contract.info.form',\n 'view.model': 'project.project',\n 'xmlid': 'edit_project_inherit_contract_info'}";
    for result in why(text).into_iter().skip(1) {
        assert_eq!(result, Err(NotBinding::Pasted), "{text}");
    }
}

#[test]
fn clauses_set_side_by_side_bind_as_the_items_of_a_list() {
    // "The FAQ page has dark space under its footer", after a request in
    // the same row of clauses: a defect listed to be fixed.
    assert_eq!(
        why("不需要judges那页，需要去掉；faq那页页脚下面有深色空白"),
        [Ok(()), Ok(())]
    );
    assert_eq!(why("faq那页页脚下面有深色空白"), [Err(NotBinding::Remark)]);
}

#[test]
fn questions_that_hold_a_verb_or_a_modal_still_ask() {
    for text in [
        // "Why not just do crunches?": no reproach without a "you".
        "反向卷腹有什么好处，为什么不直接卷？",
        // "… introduce it to me": information asked for.
        "全身功能性包括什么，给我介绍一下",
        // "Should I buy 42mm or 46mm?": advice asked for.
        "apple watch series 11我买42mm好还是46mm好？",
        "do we duplicate grpc contracts or what?",
        "anything else we need to cover?",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Question)], "{text}");
    }
    // "I feel it is going to cramp": no modal.
    assert_eq!(
        why("我拿了个12kg的壶铃，但是我不敢使劲掂，感觉要抽筋。"),
        [Err(NotBinding::Remark)]
    );
    assert_eq!(why("为什么你不用中文回答？"), [Ok(())]);
    assert_eq!(why("do it again without the cache?"), [Ok(())]);
    // A question that proposes, put in the negative: what to do instead.
    for text in [
        "collapseChangelog = false, can't we get that from the settings manager in session?",
        "shouldn't we keep the old endpoint until the app ships?",
        "why don't you read the file in one go?",
        "shouldn’t we keep the old endpoint?",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_eq!(
        why("don't we load them already?"),
        [Err(NotBinding::Question)]
    );
}

#[test]
fn what_the_user_lost_or_keeps_getting_and_the_point_they_make_bind() {
    for text in [
        "i lost the base css styleing in antora",
        "getting \"unresolved include directive in modules/pages/flybuys.adoc\"",
        "all i ask is that you defend any code you write.",
        "my point is just to be intentional.",
        "im talking about secondary_tab and parameterized_name",
        "you have to show the cycle sum of baseline and ai-tune for each model",
        "you've got to keep the old endpoint alive",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_eq!(
        why("i lost my train of thought, what were we doing?"),
        [Err(NotBinding::Question)]
    );
}

#[test]
fn a_correction_of_what_the_agent_took_for_so_binds() {
    assert_eq!(
        why("no it's definitely a collection of chats - they see coach chat, member support, etc."),
        [Ok(())]
    );
    assert_eq!(why("actually the table is called users_v2 now"), [Ok(())]);
    assert_eq!(why("no that's fine"), [Err(NotBinding::Remark)]);
}

#[test]
fn a_view_stated_in_a_design_talk_and_a_plan_proposed_bind() {
    for text in [
        "i think a sqlite is the source of truth.",
        "i think 30 message per user is enough.",
        "we can start with our server first then implement gossip to allow people to join.",
        "we can setup roadmap.",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    // Too little to hold, or asked.
    assert_eq!(why("i think so."), [Err(NotBinding::Fragment)]);
    assert_eq!(
        why("i think we are done, what is next?"),
        [Err(NotBinding::Question)]
    );
}

#[test]
fn asking_to_be_told_about_something_asks() {
    for text in [
        "tell me about how you save and structure information about me",
        "talk to me about how your workspace is organized",
        "ok, summarise my situation with givery",
        "help me come up with some options.",
        "can you repeat the last message?",
        "kannst du die aktuelle message wiederholen?!",
        "yes walk me through that",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Question)], "{text}");
    }
    // What is to be made of it binds.
    assert_eq!(why("summarize the changes into docs/summary.md"), [Ok(())]);
    assert_eq!(
        why("repeat the migration for the staging database"),
        [Ok(())]
    );
    // Asked to think harder, the agent is asked nothing to keep.
    assert_eq!(
        why("can you ultrathink about this?"),
        [Err(NotBinding::Acknowledgement)]
    );
}

#[test]
fn casual_indonesian_requests_bind_and_its_questions_ask() {
    for text in [
        "oia bantu saya hitung pengeluran rutin saya tiap bulan",
        "dan tulis kembali dsini",
        "ya tulis kan kembali yg di gambar kesini",
        "oke deh km buatkan aja script ocr nya",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    for text in [
        "kamu sekarang pakai model apa",
        "Siapa kamu",
        "gimana caranya",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Question)], "{text}");
    }
}

#[test]
fn an_agents_terminal_copied_with_its_spaces_lost_is_output() {
    // The no-break spaces of the terminal became replacement characters.
    let pasted = "Here this issues :\n\u{23fa}\u{fffd}Read\u{fffd}2\u{fffd}files\u{fffd}(ctrl+o\u{fffd}to\u{fffd}expand)\n\u{fffd}\u{fffd}\u{23bf}\u{fffd} Loaded\u{fffd}CLAUDE.md\n\u{23fa}\u{fffd}Bash(bun\u{fffd}outdated)\n\u{fffd}\u{fffd}\u{23bf}\u{fffd} bun\u{fffd}outdated\u{fffd}v1.3.10\n\u{fffd}\u{fffd}\u{23bf}\u{fffd} (timeout\u{fffd}30s)";
    let judged = why(pasted);
    assert!(
        judged[1..].iter().all(|w| *w == Err(NotBinding::Pasted)),
        "{judged:?}"
    );
}

#[test]
fn a_need_put_to_the_agent_and_a_change_put_as_what_can_be_bind() {
    for text in [
        "you need follow discussion doc standard to move them with proper reference",
        "you may need add type, dm or group",
        "also the four star can be a little bigger.",
        "the contact table can be simplified",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    assert_eq!(
        why("do you need anything else?"),
        [Err(NotBinding::Question)]
    );
}

#[test]
fn chinese_asks_to_make_a_report_run_first_and_be_told_bind() {
    for text in [
        "那这个东西做一份完整报告",
        "那就先跑gate，一步一步的跑",
        "筛完了入门考试再跟我说",
        "除了不赚钱的和wf筛掉的都全部上",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
}

#[test]
fn a_line_set_in_bold_alone_is_a_heading_unless_it_asks_something() {
    assert_eq!(
        why("**Projectomschrijving:**\nBouw een website.\n\n**Database**\n\nGebruik SQL Server."),
        [
            Err(NotBinding::Debris),
            Ok(()),
            Err(NotBinding::Debris),
            Ok(())
        ]
    );
    assert_eq!(
        why("**Never push to main.**\n\n**Keep the tests green**"),
        [Ok(()), Ok(())]
    );
    // One that ends with a colon over what follows leads into it.
    assert_eq!(
        why("**What you must deliver:**\n\nShip the full source code."),
        [Err(NotBinding::Debris), Ok(())]
    );
}

#[test]
fn a_condition_leads_by_an_arrow_to_what_to_do() {
    assert_eq!(
        why("Si COUNT = 0 sur les trois → exécuter le workflow."),
        [Ok(())]
    );
    assert_eq!(
        why("Si COUNT > 0 → STOP, me rapporter le contenu."),
        [Ok(())]
    );
}

#[test]
fn chinese_asks_after_also_or_a_link_and_permissions_bind() {
    for ask in [
        "agents下的三省六部agents目录也删除",
        ".openclaw/agents目录下的配置文档也整理一份放到这里",
        "我想像之前新建一个单独的“大象”workspace那样，再新建一个“dx3906”的workspace",
        "https://github.com/wanikua/danghuangshang把这个项目使用git clone保存到 projects目录",
        "可以提交敏感信息，我是私有仓库",
        "选择a",
        "方案B",
        "都要",
        "去除背景音乐",
        "人声别没了啊",
        "ollama里的llama3删除",
        "你要删，你就把你记忆里面重复的东西给清掉，好吧？",
        "速度把那个看板弄上去",
    ] {
        assert!(why(ask).iter().all(Result::is_ok), "{ask}");
    }
    assert_eq!(why("可以提交吗？"), [Err(NotBinding::Question)]);
    assert_ne!(why("我把文件删了"), [Ok(())]);
    // "安全检查" (a security check) is a noun: its 全 asks nothing.
    assert_ne!(why("安全检查已经完成了"), [Ok(())]);
}

#[test]
fn rules_names_and_what_the_user_expects_bind_however_the_sentence_opens() {
    for binds in [
        "the research might be in japanese but always keep our conversation in english.",
        "my name is najaf ali, not ali najaf",
        "but people call me ali",
        "also, meta note, if you say you'll be more careful next time, i'm expecting you to actually do it",
        "全部检查所有配置",
        "将上述流程继续执行完毕",
    ] {
        assert_eq!(why(binds).first(), Some(&Ok(())), "{binds}");
    }
    for remark in ["it always works on my machine", "we never used docker here"] {
        assert_ne!(why(remark), [Ok(())], "{remark}");
    }
}

#[test]
fn a_question_of_what_the_agent_can_do_asks_and_praise_is_spent() {
    for asks in [
        "can you see that?",
        "now, can you shop on amazon for me?",
        "if we got access to the interactive brokers web api, would you be able to buy and sell through it?",
    ] {
        assert_eq!(why(asks), [Err(NotBinding::Question)], "{asks}");
    }
    assert_eq!(why("can you make the footer blue?"), [Ok(())]);
    assert_eq!(
        why("can you read the logs and fix the failing test?"),
        [Ok(())]
    );
    for spent in [
        "bazinga, good work.",
        "ok good stuff.",
        "that's fine for now",
        "你再验证一下",
        "那，现在你测试一下。",
        "开始吧",
    ] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    assert_eq!(why("great work, now add the tests"), [Ok(())]);
    assert_eq!(why("先测试hook效果吧"), [Ok(())]);
}

#[test]
fn italian_instructions_bind_after_their_leads_and_with_their_pronouns() {
    for binds in [
        "e rinomina il file come TestToBeDoneASAP.md",
        "ok ma aggiungi all npm tutte le varie opzioni",
        "gli altri problemi spostali nel file ManualTests-Sprint-2026-01",
        "ricontrolla uno ad uno tutte le cose e fammi un report brutale",
        "per favore non toccare il README",
    ] {
        assert_eq!(why(binds).first(), Some(&Ok(())), "{binds}");
    }
    assert_ne!(why("il layout era bello ieri"), [Ok(())]);
    // A bare "controlla" is also "it checks".
    assert_ne!(why("il sistema controlla i file ogni ora"), [Ok(())]);
}

#[test]
fn what_to_do_after_a_condition_an_ellipsis_or_then_binds() {
    for binds in [
        "if it's missing then create it",
        "otherwise decide and proceed.",
        "you broke all of the /learn/ pages...go back and check the template",
        "Si callback_query n'est pas coché → l'activer.",
        "i wanna go ahead and create this.",
        "it's ok if the largest movies spill over the grid a bit.",
        "it's fine to skip the docs for now",
        "verander de database naar peterdb",
        "README 에도 적어주고",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    // Without its "if" or "to", "it's ok" is spent; "then" after a report
    // of what happened asks nothing.
    assert_eq!(why("it's ok"), [Err(NotBinding::Acknowledgement)]);
    assert_ne!(why("i tried it then it broke"), [Ok(())]);
    assert_ne!(why("the build failed... the logs say why"), [Ok(())]);
}

#[test]
fn an_instruction_run_on_after_so_or_one_more_thing_binds() {
    for binds in [
        "The full architecture of Layerinfinite is in project_architecture.md so check and analyse it carefully .",
        "And one thing also store all the details of Layerinfinite into the memory",
        "one more thing, keep the old endpoints",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    assert_ne!(why("the build went so well"), [Ok(())]);
    assert_ne!(why("I think so"), [Ok(())]);
}

#[test]
fn a_curly_apostrophe_reads_as_a_straight_one() {
    for binds in [
        "don’t do anything else.",
        "don’t create dashboard or anything else",
        "let’s keep the old schema",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
        assert_eq!(why(binds), why(&binds.replace('’', "'")), "{binds}");
    }
}

#[test]
fn a_manner_asked_for_a_little_more_and_where_to_write_ask_in_chinese() {
    for binds in [
        "你说话简短一点",
        "里面的可以在具体一点，",
        "设计文档输出到/home/aiscend/work/docs/components",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    // A little of something had is no manner asked for.
    assert_ne!(why("只有偶尔聚会喝一点"), [Ok(())]);
}

#[test]
fn courtesies_of_chinese_japanese_and_korean_are_spent() {
    for spent in [
        "これからよろしくお願いします",
        "また明日",
        "おやすみなさい",
        "初めましてdeepseek-v3さん",
        "そういう事です",
        "ドキドキ！",
        "好了不管了",
        "算了",
        "감사합니다",
        "まず、ドキュメント確認作業を中断してください",
        "先暂停",
        "클로드 중지",
        "아니아니 너 작동 중지 해봐",
    ] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    // A task handed over with the courtesy asks for it.
    for binds in [
        "この件、よろしくお願いします",
        "今日の予定の確認お願いします",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
}

#[test]
fn a_rule_recalled_a_need_named_and_an_activity_banned_before_more_bind() {
    for binds in [
        "you have a rule to give me an update upon starting every new session.",
        "also coolify needs the email admin@buildrightpros.com",
        "these are needing to be setup with the internal domain example.com.",
        "no hallucinating and minimal waste of my tokens again.",
        "no guessing, ask me first",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    assert_ne!(why("nothing in the logs again, it failed."), [Ok(())]);
}

#[test]
fn german_needs_wants_goals_and_verbs_bind() {
    for binds in [
        "Ich benötige eine präzise Umsetzung für den Visual Editor.",
        "Das Ziel ist ein dynamisches Grid-System im Frontend.",
        "Setze das System modular nach folgenden Anforderungen um:",
        "kommuniziere das besser verständlich für claude code",
        "ich will keine Tabellen im Bericht",
        // "Should" and "would have to" in every person.
        "dafür sollten die Agenten und die Befragungsmethoden optimiert werden.",
        "Die Tests müssten vor dem Deploy laufen.",
        // "I would like to": a wish, as "möchte" is.
        "Danach würde ich gerne einen bestehenden Skill zeigen.",
        "wir hätten gern eine Übersicht aller Endpunkte",
    ] {
        assert_eq!(why(binds).first(), Some(&Ok(())), "{binds}");
    }
}

#[test]
fn a_short_chinese_remark_after_a_choice_chooses_nothing() {
    let answering = Context { answering: true };
    let after_choice = |text: &str| {
        let said = units(text);
        binding(&said[0], &Prose::new(text), answering)
    };
    for remark in [
        "忘了。",
        "这是第一点。",
        "这才是重点",
        "我看看",
        "我贴给你看",
    ] {
        assert_ne!(after_choice(remark), Ok(()), "{remark}");
    }
    for choice in ["方案B", "都要", "用MySQL", "第二个"] {
        assert_eq!(after_choice(choice), Ok(()), "{choice}");
    }
    // Lettered options named together, in a reply that says what the
    // user knows of them too.
    for choice in [
        "B和C",
        "A和C懂一点，B和D比较模糊",
        "目前个人理解是如果不懂A，很难去往B和C的目标去完善，D略微次要",
    ] {
        assert_eq!(after_choice(choice), Ok(()), "{choice}");
    }
    assert_ne!(after_choice("我看看A"), Ok(()));
}

#[test]
fn who_holds_a_role_in_the_users_team_and_a_portuguese_permission_that_asks_bind() {
    for binds in [
        "Ronaldo is our CTO.",
        "kaio é o diretor do kxsales.",
        "manoel é o nosso ceo",
        "Marta es nuestra jefa",
        "e o cto é ronald.",
        "our CTO is Ronald",
        "pode me chamar de Pi.",
        "pode limpar porque ele falou que nem foi no banco",
        "se sim pode fazer no max mais 5.",
    ] {
        assert_eq!(why(binds).first(), Some(&Ok(())), "{binds}");
    }
    for remark in [
        "it is my fault",
        "pode ser",
        "entendi agora onde tinha feito.",
    ] {
        assert_ne!(why(remark), [Ok(())], "{remark}");
    }
}

#[test]
fn cantonese_asks_and_italian_control_words() {
    for binds in [
        "你試吓發一個有趣嘅post引吓其他人留言",
        "開通埋brave search api key吖：",
        "我想指定sub agent用nvidia api",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    for spent in ["riprova quindi", "prova ora", "grazie, perfetto"] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    assert_eq!(why("prova a usare il file di config"), [Ok(())]);
}

#[test]
fn portuguese_reactions_and_retries_are_spent() {
    for spent in [
        "show.",
        "boa.",
        "veja agora",
        "consegue testar novamente",
        "ok tente agora para ver",
    ] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    for binds in [
        "veja o log do deploy agora",
        "tente usar o banco de staging",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
}

#[test]
fn korean_go_on_mistyped_is_spent() {
    for spent in ["게속", "계속"] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
}

#[test]
fn a_long_control_word_mistyped_by_a_letter_is_spent() {
    for spent in ["continuye", "procede", "contniue"] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    // Short words are too near other words to be read so.
    assert_ne!(why("done"), why("dune"));
    assert_eq!(why("continue the migration"), [Ok(())]);
}

#[test]
fn japanese_instructions_written_as_notes_bind() {
    for binds in [
        "作業用のworktreeを作成すること",
        "工数は換算しなくてもok",
        "step2まで実施",
        "１０００のくらい以下を切り上げ",
        "日本以外の場合はすべて英語表記",
        "作業完了まで自律的にやれ",
        "テストを書け",
        "先にテストを書け",
        "全部確認しろ",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    // What explains, a noun alone and an apology ask nothing.
    for remark in ["つまり、バグだということ", "修正", "遅くなってごめんなさい"]
    {
        assert_ne!(why(remark), [Ok(())], "{remark}");
    }
}

#[test]
fn a_message_sent_to_the_wrong_session_and_a_turn_asked_again_are_spent() {
    for spent in [
        "wait, wrong session sry",
        "oops, that was the wrong chat",
        "wait, the output is truncated, say that again",
        "repeat that again",
    ] {
        assert_eq!(why(spent), [Err(NotBinding::Acknowledgement)], "{spent}");
    }
    assert_eq!(why("use the wrong session handler as a fallback"), [Ok(())]);
}

#[test]
fn korean_reactions_typed_over_and_over_are_spent_even_after_a_choice() {
    let answering = Context { answering: true };
    for spent in [
        "아하.",
        "굿굿.",
        "아하아하 .",
        "ㅇㅇㅇ",
        "그리고.",
        "ㅋㅋㅋㅋ",
        "okok",
        "hahaha",
    ] {
        let said = units(spent);
        assert_eq!(
            binding(&said[0], &Prose::new(spent), answering),
            Err(NotBinding::Acknowledgement),
            "{spent}"
        );
    }
    // A word repeated is not spent because part of it is.
    assert_eq!(why("아이콘"), [Err(NotBinding::Fragment)]);
}

#[test]
fn a_korean_verb_given_to_the_agent_to_do_for_the_user_binds() {
    for asks in [
        "컨셉이 동그라미 여러개 있고 그 안에 글씨 있는 구조니까 너가 봐서 함 여러개 만들어줘봐",
        "여튼 여러가지 선택지를 줘봐",
        "결과를 알려주세요",
        "이 부분은 다시 정리해 줘.",
    ] {
        assert_eq!(why(asks), [Ok(())], "{asks}");
    }
    // Thanks for having been told asks nothing.
    assert_ne!(why("알려줘서 고마워"), [Ok(())]);
}

#[test]
fn an_item_numbered_with_a_circled_digit_binds() {
    for item in [
        "①プロの愛用者インタビュー（寿司屋の大将、料理人、酒蔵など）",
        "② 과거 인터뷰 영상 활용",
    ] {
        assert_eq!(why(item), [Ok(())], "{item}");
    }
}

#[test]
fn a_link_handed_over_with_a_few_words_binds_as_a_value_even_put_as_a_question() {
    for link in [
        "https://www.figma.com/design/abc/side-project?node-id=12-485 이런 느낌?",
        "https://github.com/acme/tools is this the one?",
        // Stated, not asked.
        "it offers cricket matches here: https://polymarket.com/sports/cricket/games",
        "涉及前端部分参考，http://106.37.170.238:8231/new， /home/me/docs/frontend/frontend_final_v1.md",
    ] {
        assert_eq!(why(link), [Ok(())], "{link}");
    }
    // A statement that mentions a link among many words of its own is
    // judged by those words.
    assert_eq!(
        why("I read the whole thread at https://example.com/forum/123 last night and it did not say much about the cache at all."),
        [Err(NotBinding::Remark)]
    );
    // A template's link, and a long question that mentions one, ask.
    assert_eq!(
        why("https://<your-domain>/invite/accept?"),
        [Err(NotBinding::Question)]
    );
    assert_eq!(
        why("why does the page at https://example.com/docs load so slowly when I open it from the dashboard on my phone?"),
        [Err(NotBinding::Question)]
    );
}

#[test]
fn a_korean_wish_and_a_request_put_as_will_you_or_wont_you_bind() {
    for asks in [
        "각 에이전트가 진행하는 내용은 내가 봤으면 좋겠음",
        "LLM 이 직접 핸들링 해서 문제 해결 하는걸 보고 싶음.",
        "이거 정리가 안되니 파일 앞에 숫자 넣어주면 안돼",
        "폴더안의 명령어집(메뉴얼) 다시 한번 읽고 할래 ?",
    ] {
        assert_eq!(why(asks), [Ok(())], "{asks}");
    }
}

#[test]
fn hebrew_needs_bans_and_requests_bind() {
    for asks in [
        "תחת רעיונות צריך לקטלג לקטגוריה פעילות או מתנה",
        "אל תמחק את הטבלה הזאת",
        "תוסיף קישור לאתר של הספק",
    ] {
        assert_eq!(why(asks), [Ok(())], "{asks}");
    }
    // A remark asks nothing.
    assert_ne!(why("הטבלה נראית טוב עכשיו"), [Ok(())]);
}

#[test]
fn what_was_not_done_is_a_defect_reported() {
    for defect in [
        "O Readme não foi atualizado",
        "the changelog was not updated",
        "no se han guardado los cambios",
    ] {
        assert_eq!(why(defect), [Ok(())], "{defect}");
    }
    // What was done, said as it happened, reports nothing wrong.
    assert_ne!(
        why("the request timed out before a response was generated."),
        [Ok(())]
    );
}

#[test]
fn a_wish_put_as_it_would_be_good_binds_in_portuguese_spanish_french_and_italian() {
    for wish in [
        "sobre os agentes e skill, seria importante termos um revisor de segurança de código",
        "sería bueno tener pruebas para cada endpoint",
        "ce serait mieux de garder les anciens fichiers",
        "Ed è importante che quando si installa myconvergio si possa scegliere quali agenti installare.",
        "es importante que los nombres sigan iguales",
        "ho fatto delle modifiche importanti ai miei agenti, vedi se ha senso aggiornare anche quelli",
        "sarebbe meglio tenere i vecchi file",
    ] {
        assert_eq!(why(wish), [Ok(())], "{wish}");
    }
    // What is said to matter, or seen: no wish.
    for said in [
        "È importante per me questo progetto.",
        "Come vedi, se lo lanci funziona.",
    ] {
        assert_ne!(why(said), [Ok(())], "{said}");
    }
}

#[test]
fn should_binds_in_every_person_of_portuguese_spanish_and_french() {
    for should in [
        "a tela de login deveria usar o mesmo tema do app",
        "precisamos manter os nomes iguais ao storage",
        "los endpoints deberían devolver errores en JSON",
        "vous devez garder les anciens fichiers",
        "le bouton devrait rester en bas de la page",
    ] {
        assert_eq!(why(should), [Ok(())], "{should}");
    }
}

/// Every pattern a module of the judgment declares is among those its
/// `prepare` compiles: a pattern added and not listed would be compiled
/// by the first thread to need it while the others wait.
#[test]
fn every_pattern_is_prepared() {
    let declared =
        regex::Regex::new(r"(?m)^(?:pub(?:\([a-z]+\))? )?static ([A-Z_0-9]+): LazyLock<Pattern>")
            .unwrap();
    for (file, source) in [
        ("binding.rs", include_str!("../../binding.rs")),
        ("patterns.rs", include_str!("../patterns.rs")),
        ("output.rs", include_str!("../output.rs")),
        ("directive.rs", include_str!("../directive.rs")),
    ] {
        let prepare = source
            .split_once("fn prepare() {")
            .map(|(_, body)| body.split_once("\n}").map_or(body, |(body, _)| body))
            .unwrap_or_else(|| panic!("{file} has no prepare()"));
        let names: Vec<&str> = declared
            .captures_iter(source)
            .map(|c| c.get(1).unwrap().as_str())
            .collect();
        assert!(!names.is_empty(), "{file} declares no pattern");
        for name in names {
            let listed = prepare
                .match_indices(&format!("&{name}"))
                .any(|(at, found)| {
                    !prepare[at + found.len()..]
                        .starts_with(|c: char| c == '_' || c.is_alphanumeric())
                });
            assert!(listed, "{file}: `{name}` is not compiled by its prepare()");
        }
    }
}

#[test]
fn an_objection_put_as_a_question_binds_and_a_reason_asked_for_does_not() {
    for objection in [
        "why would we track the file slash commands in the interactive mode?",
        "why would you duplicate the session store?",
        "why do you keep reading 100 lines at a time?",
    ] {
        assert_eq!(why(objection), [Ok(())], "{objection}");
    }
    for asked in [
        "why would the build fail on CI?",
        "why do you think the test fails?",
    ] {
        assert_eq!(why(asked), [Err(NotBinding::Question)], "{asked}");
    }
}

#[test]
fn yes_please_answers_and_what_follows_it_is_judged_on_its_own() {
    assert_eq!(
        why("ja bitte ich bin super gespannt."),
        [Err(NotBinding::Remark)]
    );
    assert_eq!(
        why("yes please, I'm curious how it turns out"),
        [Err(NotBinding::Remark)]
    );
    assert_eq!(why("yes please, use the staging bucket"), [Ok(())]);
    assert_eq!(why("ja bitte, lösche die alten Dateien"), [Ok(())]);
    assert_eq!(why("ich bin gespannt, bitte teste es"), [Ok(())]);
    assert_eq!(why("yes please"), [Err(NotBinding::Acknowledgement)]);
}

#[test]
fn the_agent_called_by_its_name_opens_an_instruction() {
    for called in [
        "claude fix the tests",
        "jarvis fasse nochmal die ergebnisse zusammen",
        "hey codex, drop the legacy parser",
    ] {
        assert_eq!(why(called), [Ok(())], "{called}");
    }
    assert_eq!(why("claude code was slow today"), [Err(NotBinding::Remark)]);
}

#[test]
fn the_users_own_setup_binds_after_a_linking_word_or_a_clause() {
    for own in [
        "因为我的推广计划是15-25天左右的推广时间",
        "这样会影响你判断吗，因为我的推广计划是15-25天左右的推广时间。",
        "其实我们的服务器在新加坡",
    ] {
        assert_eq!(why(own), [Ok(())], "{own}");
    }
    assert_eq!(why("这样会影响你判断吗？"), [Err(NotBinding::Question)]);
}

#[test]
fn a_prompt_with_slots_to_fill_in_is_a_template() {
    let prompts = "Use these prompts later:\n\n```\nI learned that [something]. Can you help me capture this in my learning/best-practices/?\n```\n\nCan you help me create a specialized agent for [task] in my agents/ folder?\n\nCan you create a quick reference for [technology/API] in my reference/ folder?";
    let judged = judged_units(prompts);
    for (text, why) in &judged {
        if text.contains('[') {
            assert_eq!(*why, Err(NotBinding::Pasted), "{text}");
        }
    }
    // Brackets in a path, a word or inline code are no slot.
    for binds in [
        "add a route at app/[locale]/page.tsx that redirects to the login",
        "ignore the PRs of dependabot[bot]",
        "put the tools under `[tools]` in mise.toml",
        "[WIP] fix the login redirect before the release",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
}

#[test]
fn what_the_user_meant_and_a_step_the_agent_takes_itself_bind_in_chinese() {
    for binds in [
        "我是說一樣設定在全局中",
        "我的意思是保留旧的接口",
        "自己检查哪里做的不好",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    // Not where it opens no clause: "I checked it myself", "worth
    // studying closely".
    for said in [
        "我自己也不太清楚",
        "我自己检查过了",
        "这类项目值得重点研究。",
    ] {
        assert_ne!(why(said), [Ok(())], "{said}");
    }
}

#[test]
fn a_yes_that_tells_of_the_user_chooses_nothing() {
    let answering = Context { answering: true };
    let after_question = |text: &str| {
        let said = units(text);
        binding(&said[0], &Prose::new(text), answering)
    };
    // "Ready to commit?" — "yes I am!": the agent commits; nothing lasts.
    for spent in ["yes I am!", "yeah i'm ready", "no I haven't"] {
        assert_ne!(after_question(spent), Ok(()), "{spent}");
    }
    for choice in ["yes the second one", "no, option 2"] {
        assert_eq!(after_question(choice), Ok(()), "{choice}");
    }
}
#[test]
fn a_ban_or_a_rule_binds_in_the_languages_the_audit_reads_and_thanks_do_not() {
    for binds in [
        "Não altere o schema do banco.",
        "Ne touche pas au dossier migrations.",
        "N'utilise jamais npm.",
        "스키마는 절대 바꾸지 마",
        "Всегда используй pnpm.",
        "Siempre usa pnpm.",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    // What a sentence says does not happen is no ban: "…, ne reçoivent
    // pas les données" tells of the nodes.
    assert_eq!(
        why("Les nodes P01-A et P01-C ne reçoivent pas les données."),
        [Err(NotBinding::Remark)]
    );
    assert_eq!(why("고마워, 완벽해"), [Err(NotBinding::Acknowledgement)]);
}
#[test]
fn rules_the_user_set_out_with_marks_are_theirs_and_a_tools_status_lines_are_output() {
    assert_eq!(
        why("Rules for this repo:\n✅ Keep the API stable\n❌ Don't touch the database\n• Use pnpm\n→ never commit .env"),
        [
            Err(NotBinding::Debris),
            Ok(()),
            Ok(()),
            Ok(()),
            Ok(())
        ]
    );
    assert_eq!(
        why("It still fails:\n✓ tests pass\n✓ should render the header (5 ms)\n✗ lint failed\n✓ no errors found\n✓ test/app.spec.ts (5 tests) 12ms"),
        [Err(NotBinding::Debris), Err(NotBinding::Pasted)]
    );
}
#[test]
fn what_the_user_states_of_their_setup_ways_and_wishes_binds() {
    for binds in [
        "I'm on Windows",
        "Our team uses conventional commits",
        "We deploy with GitHub Actions",
        "The client wants it by Friday",
        "I hate semicolons",
        "ideally the page loads under 1s",
        "it's too slow",
        "the header overlaps the logo on mobile",
    ] {
        assert_eq!(why(binds), [Ok(())], "{binds}");
    }
    // Pointed back at, a tool used for something, or a defect only
    // named: nothing stated.
    for not in [
        "I'm on it",
        "I love it",
        "we have a problem",
        "i'm using chatgpt to help me teach you.",
    ] {
        assert_ne!(why(not), [Ok(())], "{not}");
    }
}

#[test]
fn the_words_besides_names_are_counted_with_each_name_taken_whole() {
    // "4" taken out first would leave "LE", "C" and "MCSB" as words.
    let text = "MCSB1002001 << LE101C2000001 4 LE10101002001 4";
    assert_eq!(bare_words(text, &Words::of(text)), 0);
}

#[test]
fn requests_questions_thanks_and_go_aheads_in_many_languages() {
    // A request put as a question and a ban bind; a question for
    // information, thanks and a go-ahead do not.
    for (binds, text) in [
        (true, "¿puedes arreglar el botón?"),
        (true, "könntest du den Test fixen?"),
        (true, "puoi sistemare il bottone?"),
        (true, "ボタンを直してもらえますか？"),
        (true, "버튼 고쳐줄 수 있어?"),
        (true, "你能把按钮修一下吗？"),
        (true, "bạn có thể sửa nút không?"),
        (true, "bisa tolong perbaiki tombolnya?"),
        (true, "можешь исправить кнопку?"),
        (true, "você pode corrigir o botão?"),
        (true, "tu peux corriger le bouton ?"),
        (true, "butonu düzeltebilir misin?"),
        (true, "czy możesz naprawić przycisk?"),
        (true, "kun je de knop fixen?"),
        (false, "¿qué hace esta función?"),
        (false, "was macht diese Funktion?"),
        (false, "cosa fa questa funzione?"),
        (false, "この関数は何をしますか？"),
        (false, "이 함수는 뭐해?"),
        (false, "这个函数是做什么的？"),
        (false, "hàm này làm gì?"),
        (false, "fungsi ini untuk apa?"),
        (false, "что делает эта функция?"),
        (false, "o que essa função faz?"),
        (false, "que fait cette fonction ?"),
        (false, "bu fonksiyon ne yapıyor?"),
        (true, "No uses jQuery."),
        (true, "Benutze kein jQuery."),
        (true, "Non usare jQuery."),
        (true, "jQueryは使わないで"),
        (true, "jQuery 쓰지 마"),
        (true, "不要用jQuery"),
        (true, "Не используй jQuery."),
        (true, "jQuery kullanma."),
        (true, "Nie używaj jQuery."),
        (true, "Gebruik geen jQuery."),
        (true, "Đừng dùng jQuery."),
        (true, "Jangan pakai jQuery."),
        (false, "gracias!"),
        (false, "danke schön"),
        (false, "grazie mille"),
        (false, "ありがとうございます"),
        (false, "고마워"),
        (false, "多谢"),
        (false, "cảm ơn nhé"),
        (false, "makasih"),
        (false, "спасибо"),
        (false, "obrigado!"),
        (false, "merci beaucoup"),
        (false, "teşekkürler"),
        (false, "dzięki"),
        (false, "bedankt"),
        (false, "vale, sigue"),
        (false, "ok, weiter"),
        (false, "ok, continua"),
        (false, "はい、お願いします"),
        (false, "응 계속해"),
        (false, "好，继续"),
        (false, "ok tiếp tục đi"),
        (false, "oke lanjut"),
        (false, "да, продолжай"),
        (false, "ok, pode continuar"),
        (false, "ok, vas-y"),
        (false, "tamam devam et"),
    ] {
        let judged = why(text);
        assert_eq!(
            judged.iter().any(Result::is_ok),
            binds,
            "{text}: {judged:?}"
        );
    }
}

/// Whether there is something the user is to do asks for advice, as
/// "should I …?" does; whether there is something "we" should do proposes
/// it.
#[test]
fn whether_there_is_something_the_user_should_do_asks_for_advice() {
    for asked in [
        "Is there anything I should change?",
        "Do we currently have a good understanding of the branching behavior, and if not is there an experiment I should run?",
        "are there any settings I need to change?",
    ] {
        assert_eq!(why(asked), [Err(NotBinding::Question)], "{asked}");
    }
    for proposed in [
        "is there a test we should add?",
        "Should we drop the table?",
    ] {
        assert_eq!(why(proposed), [Ok(())], "{proposed}");
    }
}

/// An aside in round brackets does not stop a sentence typed on from
/// being read as the run-on it is.
#[test]
fn an_aside_in_brackets_is_read_past_in_a_run_on_sentence() {
    for run_on in [
        "we can write the session file and update the plan",
        "we can write the session file (activities, narrative) and update the plan",
    ] {
        assert_eq!(why(run_on), [Ok(())], "{run_on}");
    }
    assert_eq!(
        why("we can write the session file (activities, narrative)"),
        [Err(NotBinding::Remark)]
    );
}

/// A sentence left open over a list whose items say enough alone leads
/// into it, as one that ends in a colon does; over items of a word or two
/// it is the requirement.
#[test]
fn a_sentence_left_open_over_a_list_leads_into_it() {
    let judged = |text: &str| -> Vec<(String, Result<(), NotBinding>)> {
        let typed = typed(text);
        typed
            .binds
            .iter()
            .map(|piece| (piece.text.clone(), Ok(())))
            .chain(
                typed
                    .apart
                    .iter()
                    .map(|(text, why)| (text.clone(), Err(*why))),
            )
            .collect()
    };
    let led = judged("we need to basically focus on \n\n1. linear project update.\n2. adding these new features.");
    assert!(
        led.contains(&(
            "we need to basically focus on".to_owned(),
            Err(NotBinding::Debris)
        )),
        "{led:?}"
    );
    assert!(
        led.contains(&("linear project update.".to_owned(), Ok(()))),
        "{led:?}"
    );
    let asked = judged("Please add tests for\n- the parser\n- the lexer");
    assert!(
        asked.contains(&("Please add tests for".to_owned(), Ok(()))),
        "{asked:?}"
    );
}

/// A sentence that asks two things or more in its clauses is not a
/// question for closing on one.
#[test]
fn a_sentence_of_instructions_that_closes_on_a_question_asks_them() {
    let typed = typed(
        "improvements: move the count to docs/AUDIT.md; use project-level subagents for it; are you able to read the logs?",
    );
    assert_eq!(
        bound(&typed),
        [
            "improvements: move the count to docs/AUDIT.md",
            "use project-level subagents for it; are you able to read the logs?"
        ]
    );
    assert!(typed.apart.is_empty(), "{:?}", typed.apart);
}

/// "nothing happens" reports a defect; a dash set apart by spaces leads
/// from a condition to what to do, as an arrow does; a plus set apart by
/// spaces joins two asks, each judged alone.
#[test]
fn a_defect_a_dash_after_a_condition_and_a_plus_between_asks() {
    assert_eq!(
        why("during the game when you press no..nothing happens either."),
        [Ok(())]
    );
    assert_eq!(
        why("If there's no plan but the feedback is already there - start from creating the plan."),
        [Ok(())]
    );
    assert_eq!(
        why("This is great - thanks"),
        [Err(NotBinding::Acknowledgement)]
    );
    assert_eq!(
        bound(&typed("too much words + i dont like emdashes")),
        ["too much words", "i dont like emdashes"]
    );
}

#[test]
fn then_words_of_other_languages_lead_a_clause_and_labels_state_rules() {
    // "depois revise o plano": then revise the plan.
    for text in [
        "depois revise o plano contra erros lógicos",
        "después revisa el plan",
        "danach schreib die Tests",
        "**Principe** : PAS de LLM pour décider qui travaille.",
        "**Décision validée : Option B — nettoyer et renommer**",
        "Review humaine obligatoire avant envoi labo (human-in-the-loop).",
        "Tests are mandatory before any merge.",
        "わかりやすい変化はほしいけど",
        "ボタンを押したら相手のじゃんけんが表示されないよ",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
}

#[test]
fn steps_listed_after_what_for_are_asked_and_text_put_in_place_is_not() {
    let steps = "we need to add a new button, this import button should open a new select file and parse the HTML content, to:\n\n  1. Extract the Activities Category\n  2. Extract the Activities and create the RACI entry\n";
    let typed_steps = typed(steps);
    let held = bound(&typed_steps);
    assert!(
        held.contains(&"Extract the Activities Category"),
        "{held:?}"
    );
    let put =
        "Add this to the system prompt:\n\nYou are a helpful assistant. Always answer in French.\n";
    assert!(!bound(&typed(put)).contains(&"Always answer in French."));
}

#[test]
fn looking_at_a_thing_and_reading_with_care_are_asked_in_chinese() {
    for text in ["查看docs文件夹的文件", "你认真的阅读"] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    // Where one can look something up is no ask.
    assert_ne!(why("日志可以查看到"), [Ok(())]);
}

#[test]
fn a_logs_fields_around_its_records_are_the_logs_and_a_named_link_is_the_users() {
    let rounds = "Button clicked: A\n\nPlayer chose: A\n\nRound result: win\n\n".repeat(3);
    let log =
        format!("Found choice buttons: 3\n\n{rounds}Title found: YES\n\nDetails found: YES\n");
    let typed_log = typed(&log);
    assert_eq!(bound(&typed_log), Vec::<&str>::new());
    let endpoints = "Endpoint: /api/workouts\nMetodo: GET\nDescricao: Listar workouts\n".repeat(3);
    let listing = format!("Base URL: https://web-cms.example.app\n\n{endpoints}");
    let typed_listing = typed(&listing);
    assert!(bound(&typed_listing).contains(&"Base URL: https://web-cms.example.app"));
}

#[test]
fn an_instruction_offered_with_a_maybe_binds() {
    for text in [
        "Maybe instead 'cd' use 'pushd' and 'popd'.",
        "perhaps use pnpm here",
        // A suggestion put as a question still binds.
        "Maybe by doing lines on the left side?",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
    // A guess is no instruction.
    assert_ne!(why("maybe the cache is stale"), [Ok(())]);
}

#[test]
fn the_big_goal_stated_binds() {
    for text in [
        "The big goal is to automate co-registration between czstack and hcr data.",
        "Our long-term goal is a single importer.",
    ] {
        assert_eq!(why(text), [Ok(())], "{text}");
    }
}

#[test]
fn asking_whether_to_do_a_thing_asks_an_opinion_and_a_quoted_screenshot_is_handed_over() {
    for text in [
        "do you think we should also add pottasium mass balance?",
        "ok, do you think we need some sort of a back end for this pilot?",
    ] {
        assert_eq!(why(text), [Err(NotBinding::Question)], "{text}");
    }
    // Asked without the opinion, it still proposes.
    assert_eq!(why("should we also add potassium mass balance?"), [Ok(())]);
    assert_eq!(
        why("\"C:\\Users\\me\\Documents\\vault\\Screenshot 2026-03-30 193721.jpg\""),
        [Err(NotBinding::Pasted)]
    );
    assert_eq!(why("继续制作"), [Err(NotBinding::Acknowledgement)]);
}

#[test]
fn one_letter_off_is_a_damerau_levenshtein_distance_of_one() {
    // Every pair of words of up to four letters of three, one beyond ASCII.
    let letters = ['a', 'b', 'é'];
    let mut words = vec![String::new()];
    for length in 1..=4u32 {
        for n in 0..3usize.pow(length) {
            let mut rest = n;
            let word: String = (0..length)
                .map(|_| {
                    let c = letters[rest % 3];
                    rest /= 3;
                    c
                })
                .collect();
            words.push(word);
        }
    }
    for word in &words {
        for typed in &words {
            assert_eq!(
                directive::one_letter_off(word, typed),
                strsim::damerau_levenshtein(word, typed) == 1,
                "{word:?} against {typed:?}"
            );
        }
    }
    assert!(directive::one_letter_off("implement", "implemnet"));
    assert!(directive::one_letter_off("refactor", "refacor"));
    assert!(!directive::one_letter_off("refactor", "refactor"));
}

#[test]
fn a_go_ahead_for_me_with_its_tag_question_is_spent() {
    for text in ["yeah, just do that for me, will you?", "do it for me"] {
        assert!(approval(text), "{text}");
    }
    assert!(!approval("fix the login for me, will you?"));
}

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
//! German, Portuguese, Spanish, French, Indonesian, Chinese, Japanese and
//! Korean.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use super::units::{scripts, Shape, Unit, PASTED_LINE};
use crate::verify::text::Words;

mod output;
mod simplified;
mod words;

pub(crate) use output::Prose;
use output::*;
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

/// Compiles a constant pattern.
fn pattern(source: &str) -> Regex {
    // The patterns of this module are constants: they compile.
    #[allow(clippy::expect_used)]
    Regex::new(&scripts(source)).expect("a constant pattern compiles")
}

/// Words that ask something of the agent wherever they stand: modals of
/// obligation, wishes, "please". These make even a sentence put as a
/// question bind ("should we drop it?").
static ASKS_OF: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(please|pls|plz|must|mustn't|should|shouldn't|shall|ought\s+to|needs?\s+to|(has|have)\s+to\s+be|needs\s+an?|want\s+you|i\s+(would\s+|'d\s+)?(only\s+|really\s+|just\s+|also\s+|actually\s+|still\s+|definitely\s+|do\s+)?(want|like|prefer|need)\b|i\s+(suggest|propose|vote|recommend)\b|i\s+(don't|dont|do\s+not|won't|wont)\s+(really\s+|even\s+)?(want|need|like)\b|we\s+(\w+\s+)?want\b|\bwe\s+(are\s+|'re\s+)?(using|use)\s+\w+|(i'm|i\s+am|we're|we\s+are)\s+(trying|aiming|planning)\s+to\b|\b(the|our|my)\s+((real|main|overall|end|ultimate|whole|primary|actual|only)\s+)?(goal|idea|aim|objective|intent|intention|purpose)\s+((of\s+\w+|here)\s+)?(is|was)\b|part\s+of\s+the\s+goal|\b(your|ta|ton|votre|deine?|tu|su|sua)\s+((main|real|only|first)\s+)?(task|mission|job|role|goal|objective|tâche|rôle|objectif|aufgabe|ziel|tarea|tarefa|missão|misión|objetivo)\s+(is|est|ist|es|é)\b|^\W*(act\s+as|act[uú]a\s+como|at[uú]e\s+como|aja\s+como|agis\s+(comme|en\s+tant\s+que)|agissez\s+(comme|en\s+tant\s+que)|agiere\s+als|handle\s+als)\b|\b(can|could)\s+just\s+\w+|i\s+(would\s+|'d\s+)?(expect|expected)\b|works\s+for\s+me|(i'm|i\s+am)\s+leaning|i\s+meant\b|no\s+need\b|(we|you)\s+(don't|dont|do\s+not)\s+need\b|we\s+(\w+ly\s+|also\s+|still\s+)need\b|we\s+could\s+(\w+ly\s+|also\s+|just\s+)?(use|define|add|make|move|drop|remove|keep|put|have|get\s+rid)\b|i\s+thought\s+(we|the\s+plan|you|it\s+was|\w+\s+might)\b|the\s+rule\s+is\b|we('ll|\s+will)\s+(keep|stick|go\s+with|do|use|build|train|run|make|add|implement|deploy|ship|write|need)\b|i'd\s+(like|prefer|love)|would\s+(also\s+|really\s+)?be\s+(nice|great|good|better|cool|ideal)|nice\s+to\s+have|i\s+wonder\s+if|interested\s+in|let's|lets|make\s+sure|ensure|important|crucial|can\s+you|could\s+you|would\s+you|will\s+you|can\s+we|could\s+we|we\s+need|bitte|möchte|möchten|sollte|solltest|sollst|soll|sollen|muss|müssen|musst|brauche|brauchen|wichtig|stelle\s+sicher|lass\s+uns|können\s+wir|^\W*((dann|jetzt|nun|also|ok)\s+)*\w+en\s+wir\b|kannst\s+du|könntest\s+du|würdest\s+du|wäre\s+mir|preciso|precisa|tem\s+que|têm\s+que|deve|devem|por\s+favor|lembrando|não\s+(pode|deve|quero)|sempre|nunca|necesito|tiene\s+que|tienes\s+que|debe|deben|debes|debemos|hay\s+que|siempre|jamás|il\s+faut|doit|doivent|toujours|jamais|s'il\s+te\s+plaît|s'il\s+vous\s+plaît|tolong|harus|jangan|mohon|perlu|lebih\s+suka|tetap|tetep|saya\s+(mau|ingin)|aku\s+(mau|ingin)|(você|voce|vc)\s+(vai|deve|precisa|tem\s+que)|vamos|solicito|hãy|không\s+được|khong\s+duoc|đừng|phải)\b|(^|[,.;:]\s*)hay\s+\w+|\s(đi|di)\s*[.!]*$",
    )
});

/// Words that ask something of the agent in Chinese, Japanese or Korean,
/// which write no spaces between words: "请", "需要", "不要", "直接",
/// "してください", "해주세요", and the casual Japanese request that ends on
/// its verb's て-form ("このバッジを追加して", "ガイド書いて").
static CJK_ASKS: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(^|[，。；：、,;:\s])(把|改用|采用|强制|换成|保存|记住|记录|分析|确认|检查|修改|修复|添加|增加|新增|删除|去掉|实现|生成|创建|编写|整理|总结|梳理|优化|重构|运行|执行|部署|提交|更新|替换|移除|扮演|带我|帮助我|先|结合|实施|彻底|输出到|你(先|首先|重新|再|要|来|去|生成|帮|把|直接))|加(一个|上)|建议(你|把|在|将|先|再|用|使用|改|加|拆|保留|删除|统一|增加)|(并|并且)(确认|检查|修复|补充|更新|删除)|还要|要求|希望|不超过|请|需要|必须|一定要|应该|不要|不用|不需要|别再|务必|记得|确保|保证|只需|只要|直接|帮我|给我|调用|改成|改为|不能|禁止|我要|先不|要[左右居集对用改加去删换]|我希望|希望你|我想你|我想要|只能|我不想|不想要|我不希望|不做参考|告诉你|你可以自己|只有[^，。？?]{1,20}(可以|能)|使用中文|用中文|保持|保留|按照|してください|して下さい|たい(です|と|な|ん|ので|けど|ね|。|$)|たくて|たくない|たくは|てほしい|て欲しい|てもらいたい|てもらえ(ます|る)|てもらって(いい|も)|ていただ(き|け)たい|しようと思|が欲しい|がほしい|がいいです|でいいかな|方がいい|ほうがいい|しないで|必ず|べき|ないでください|[ぁ-んァ-ヶー一-龯](て|で)(ね|よ|ほしい|欲しい)?[。！!～~]*\s*$|해\s*주세요|하지\s*마|반드시|해야|(해|해줘|줘|줘요|시켜|하자|해라|하세요|해봐|닫아|올려|만들어|고쳐|지워|바꿔|추가해|확인해|정리해)[.!~]*\s*$",
    )
});

/// A request put in Japanese as a question: "まとめてもらっていいですか？"
/// (could you sum it up?), "見ていただけますか" (would you look at it?).
static JAPANESE_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"てもらって(いい|も)|てもらえ(ます|る|ない)|ていただけ(ます|ない|る)|てくれ(る|ない|ます)",
    )
});

/// A request put in Korean as a question or an order wherever it stands
/// in the sentence: "확인해볼래?" (will you check?), "확인해봐" (check); or
/// written as notes are, a clause closed by the action's noun: "완료 후
/// 릴리스" (release once done), "이부분도 제거" (remove this part too).
static KOREAN_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(해|해\s*줄|해\s*볼|해\s*줘|해\s*주|줄|볼)래\s*\??\s*$|해봐|해줘|해주라|줘라|(제거|추가|삭제|수정|변경|적용|구현|배포|릴리스|릴리즈|정리|생성|개선|반영|롤백|연동|분리|통합|이동|교체|대응|작성|설치|업데이트|리팩토링|테스트)\s*(\([^()]*\))?\s*[.!]*\s*$",
    )
});

/// A defect the user reports: what they see is wrong, and the fix is what
/// they ask ("the list view is not showing the columns", "the landmarks
/// are way too high", "still not working").
static DEFECT: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\b((is|are|was|were)\s+not\s+\w+ing|(is|are|was|were)\s+(still\s+)?not\s+\w+(ible|able)|(isn't|isnt|aren't|arent|wasn't|wasnt)\s+(still\s+)?\w+(ible|able)|not\s+working|(doesn't|doesnt|does\s+not|don't|dont|didn't|didnt|isn't|isnt|aren't|arent|wasn't|wasnt|won't|can't|cant|cannot)\s+(work|show|load|render|display|appear|match|respond|compile|build|run|fit|align)\w*|(don't|dont|do\s+not|can't|cant|cannot)\s+see\s+(the|any|my|your)\s+(changes?|updates?|difference|fix|effect)|still\s+(not|broken|wrong|failing|shows?|showing|there)|broken|(way\s+)?too\s+(much|many|small|big|large|high|low|long|short|wide|narrow|dark|light|slow|fast)|(is|are|was|were|'re|'s|still|look|looks|seem|seems|get|gets|feel|feels)\s+(still\s+|way\s+|much\s+|a\s+bit\s+|a\s+little\s+)?too\s+\w+|to\s+much|(is|are)\s+wrong|in+c+or+ect(ly)?|not\s+correctly|(is|was|are|were)\s+not\s+good|isn't\s+good|not\s+good\s+enough|(is|are)\s+all\s+wrong|go(es)?\s+off\s+the|you\s+(always|keep)\s+\w+|não\s+(está|esta|estão|estao|tá|ta)\s+\w+ndo|não\s+(funciona|carrega|aparece|mostra|salva|consigo|consegui)|está\s+dando\s+(erro|error|missing)|no\s+(está|están)\s+\w+ndo|no\s+(se\s+)?(le\s+|me\s+|les\s+)?(funciona|carga|aparece|muestra|guarda|devuelve|responde)|funktioniert\s+(nicht|noch\s+nicht|immer\s+noch\s+nicht)|geht\s+(nicht|immer\s+noch\s+nicht)|(fonctionne|marche|s'affiche|charge)\s+pas|ne\s+(fonctionne|marche|s'affiche|charge|s'ouvre)\s+(pas|plus))\b|\bi\s+(can't|cant|cannot|can\s+not|am\s+unable\s+to|'m\s+unable\s+to|am\s+not\s+able\s+to|'m\s+not\s+able\s+to)\s+\w+|\b(an?\s+)?error\s+(is\s+)?(coming|showing|appearing|popping|occurs|occurring|happens|happening)|\bgetting\s+(an?\s+)?error|\b(is|are)\s+throwing\s+(an?\s+)?(\w+\s+){0,2}(errors?|exceptions?)|\b(it|this|that|the\s+\w+)\s+(doesn't|doesnt|doenst|dosent|does\s+not)\s+need\b|\bthere\s+(is|are|'s)\s+(still\s+)?(a\s+|an\s+|some\s+)?(bug|problem|issue|error)s?\b|\bfail(s|ed|ing)?\s+(to\s+\w+|saying|with)\b|\b(still\s+)?(has|have|with)\s+(some\s+)?errors?\b|\byou\s+(didn't|did\s+not|haven't|have\s+not|forgot\s+to|never)\s+\w+|\b(parou(\s+de\s+funcionar)?|(está|esta|estão|estao)\s+(dando|com)\s+erro|dando\s+erro|não\s+é\s+possível|nao\s+e\s+possivel|not\s+found|errad[oa]s?|em\s+branco)\b|没有找到|没找到|找不到|没有(这个|该)|不显示|显示不出|打不开|不能用|用不了|报错|出错|不起作用|没反应",
    )
});

/// A ban or a rule for always, at the start of a clause: "don't …",
/// "never …", "always …", "no console logs".
static BAN: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^(don't|dont|do\s+not|never|always|avoid|no\s+more|only|instead|nicht\s+mehr|niemals|nie|immer|kein|keine|nur|sem|sin|sans|ohne|apenas|somente|solo|seulement)\b",
    )
});

/// A short ban standing alone: "no deprecation alias!".
static PROHIBITION: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)^\W*no\s+[\w-]+(\s+[\w-]+){0,2}\s*[!.]*\s*$"));

/// A goal the user states under its label ("Objective: fixing the master
/// controller", "Goal: cut the build to a minute", "目标：…").
static GOAL_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(objective|goal|task|aim|mission|objectif|tâche|ziel|aufgabe|objetivo|tarea|tarefa|目标|任务|目的)\s*[:：]\s*\S",
    )
});

/// A French ban, written as a to-do is, with an infinitive ("Ne pas
/// casser le flux existant", "Surtout pas de migration").
static FRENCH_BAN: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"(?i)^\W*(ne\s+(pas|jamais|plus)\s+\w+|surtout\s+(pas|ne)|interdit\s+de)\b")
});

/// What a clause may open with before its instruction: interjections and
/// linking words ("ok, now also run it").
static LEAD: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^(\W*(ok|okay|alright|all\s+right|ah|oh|so|and|but|also|now|for\s+now|then|next|first|btw|fuck(\s+me)?|ffs|wtf|omg|ugh|dude|bro|man|jeez|actually|well|hmm|great|good|nice|perfect|cool|thanks|thank\s+you|yes|yeah|yep|no|nope|sure|right|just|finally|again|pls|please|only|double|triple|ja|nein|gut|super|danke|und|dann|jetzt|also|bitte|oke|sip|lalu|terus|sekarang|vale|bueno|ahora|agora|então|entao|bon|alors|puis|ensuite|enfin|et|\d+[.)]|[a-h]\s+but)\b[\s,.!:-]*)+",
    )
});

/// How a request is put as a question: it binds.
static REQUEST_FORM: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((can|could|would|will|won't|wouldn't|shall)\s+(you\w?|u|we|ya)\b|(why\s+(don't|dont|not)|how\s+about|what\s+about|mind\s|do\s+you\s+mind|is\s+it\s+possible\s+to|would\s+it\s+be\s+possible|can\s+(there|it|this|that)\s+be|is\s+there\s+(a|any)\s+way\s+to|can't|cant|cannot|couldn't|couldnt|(kann|könnte|kannst|könntest)\s+\w+\s+(mir|uns)|(kann|könnte)\s+(mir|uns))\b)",
    )
});

/// A statement put up for confirmation: "…, thoughts?", "…, correct?",
/// "…, any reason not to?". What binds is the statement before it.
static TAG: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)[,;:]\s*(thoughts|correct|right|no|agreed?|ok|okay|yes|make\s+sense|makes\s+sense|sounds?\s+good|any\s*reason\s+not\s+to|wdyt|what\s+do\s+you\s+think|objections?)\s*\?+\W*$",
    )
});

/// A question asking the agent for advice about what the user should do.
static ASKS_ADVICE: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)^\W*(should|shall|do|can|must)\s+i\b"));

/// A suggestion put as a question ("maybe by doing lines on the left side?").
static SUGGESTION: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)^\W*(maybe|perhaps|how\s+about|wouldn't\s+it\s+be)\b"));

/// How a question for information opens, with or without its `?`.
static QUESTION_FORM: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((what|why|how|where|when|which|who|whose)('s|\s+(is|are|was|were|do|does|did|can|could|would|should|will|has|have|had|the|we|you|i|it|its|this|that|about|much|many|long|come|exactly|else))\b|(is|are|was|were|do|does|did|has|have|had)\s+(it|we|you|they|there|this|that|the|i|he|she)\b|(was|wie|warum|wo|wann|welche[rsn]?|gibt\s+es)\b)",
    )
});

/// How a question for information opens: a question word, in English,
/// German, Portuguese or Spanish ("which", "where", "em qual", "onde").
static ASKS_WHICH: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(what|which|where|when|who|whose|how\s+(many|much|long|often|does|do|did|is|are|was|were)|why\s+(did|do|does)\s+we|why\s+(is|are|was|were)|welche[rsn]?|wo|wann|wer|em\s+qu(e|al)|qual|quais|onde|quando|quem|cuál|cuáles|dónde|cuándo|quién|qué)\b",
    )
});

/// A request to be told something, put as an instruction: "explain to me
/// what the out of scope items are", "tell me what happens currently",
/// "can you summarize where the PR is". It asks for information, as a
/// question does; nothing of it binds once answered.
static ASKS_TO_BE_TOLD: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(((can|could|would|will)\s+(you|u)\s+)?(please\s+)?((explain|describe|summarize|summarise)\s+((to\s+)?(me|us)\s+)?|(tell|show|remind)\s+(me|us)\s+)(\w+ly\s+)?(what|why|how|where|when|which|who|whether|if)\b|help\s+(me|us)\s+(think|understand|decide|figure\s+out)\b)",
    )
});

/// An item numbered as Chinese numbers one, with words of its own:
/// "1、…", "3.1、…", "（2）…".
static CJK_ITEM: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"^\s*(\d+(\.\d+)*、\s*\p{Han}|[（(]\d+[)）]\s*\p{Han}{2})"));

/// Asked to think, about nothing named: "let's think carefully about the
/// change", "think some more". It shapes the next answer and is spent with it.
static THINK: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|now|so|please|let's|lets)[\s,]+)*(ultra)?think(\s+(carefully|hard|harder|deeply|more|again|some\s+more|step\s+by\s+step|it\s+through|about\s+(it|this|that|the\s+\w+)))*\s*[.!]*\s*$",
    )
});

/// Courtesies spent as they are read, beyond the words of [`SPENT`]: an
/// invitation to ask ("If you have any question please ask"), and a
/// reaction to what the agent showed that names it ("Okay MergeService
/// looks good.").
static SPENT_FORM: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|so|and|also|yes|great|thanks)[\s,!.]+)*(if\s+(you\s+have|there\s+(is|are))\s+(any|more|other)\s+questions?|any\s+questions?)[\s,]*((please|just|then|feel\s+free\s+to|don't\s+hesitate\s+to)\s+)?(ask|let\s+me\s+know|tell\s+me)(\s+(me|them|first|before))?\s*[.!]*\s*$|^\W*((ok|okay|und|also|ja|e|y|et)[\s,!.]+)*((wenn|falls)\s+(du|ihr|sie)\s+([^\s,.!?]+\s+){0,2}fragen\s+(hast|habt|haben)|(se|caso)\s+(tiver|tenha|houver|tiverem)\s+([^\s,.!?]+\s+){0,2}(d[uú]vidas?|perguntas?)|si\s+(tienes|tiene|tienen|hay)\s+([^\s,.!?]+\s+){0,2}(dudas?|preguntas?)|si\s+(tu\s+as|vous\s+avez)\s+([^\s,.!?]+\s+){0,2}questions?)[\s,]*[^.!?\n]{0,25}[.!]*\s*$|^\W*((ok|okay|yes|yeah|alright|great|nice|cool)[\s,!.]+)*([^\s,!?]+\s+){1,3}(looks?|seems?|sounds?)\s+(really\s+|very\s+|pretty\s+|so\s+)?(good|great|fine|perfect|nice|awesome|excellent|solid|right|correct)(\s+(to\s+me|now|so\s+far))?\s*[.!]*\s*$|^\W*((ok|okay|yes|good|great)[\s,!.]+)*(proceed|continue|go|move)\s+(on\s+)?(to\s+|with\s+)?(the\s+)?next(\s+(phase|step|task|one|part|stage|item))?\s*[.!]*\s*$",
    )
});

/// An ask that names nothing yet: "I want you to do something for me",
/// "can you help me with something?".
static ASKS_NOTHING_YET: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|hey|so|now)[\s,!.]+)*(i\s+(want|need|would\s+like)\s+you\s+to|can\s+you|could\s+you|would\s+you|please)\s+(do\s+(something|a\s+thing|one\s+thing|me\s+a\s+favou?r)|help\s+me(\s+with\s+something)?)(\s+for\s+me)?\s*[.!?]*\s*$",
    )
});

/// An image handed over and nothing asked of it: "look at screenshot with
/// red arrow", "read the image '/Users/me/Desktop/shot.png'". Spent once
/// the agent has looked.
fn image_handed_over(text: &str) -> bool {
    static LOOK: LazyLock<Regex> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*((ok|okay|now|so|please|pls)[\s,]+)*(read|look\s+at|see|check|view|open)\s+(the\s+|this\s+|my\s+|attached\s+)?(image|screenshot|screen\s*shot|picture|attachment)s?\b",
        )
    });
    LOOK.is_match(text) && !text.contains(" and ") && !text.contains(',') && word_count(text) <= 10
}

/// The agent asked for its advice or opinion: "what would you recommend?",
/// "any opinions or recommendations?". A question, whatever modal it holds.
static ASKS_OPINION: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\b((what|which)\s+(would|do|should|will)\s+you\s+(recommend|suggest|propose|advise|prefer|think)|what\s+do\s+you\s+think|any\s+(opinions?|recommendations?|suggestions?|thoughts|ideas)(\s+or\s+\w+)?)\s*\?",
    )
});

/// A slash command alone, or a line of a command's options alone
/// (`--max-iterations 15`, `--completion-promise "COMPLETE" \`): the
/// command's invocation, spent when it runs.
static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r#"^/[A-Za-z][A-Za-z0-9:_-]*$|^(--[A-Za-z][A-Za-z0-9_-]*(=\S+|\s+("[^"\n]*"|'[^'\n]*'|[^\s-]\S*))?\s*)+\\?$"#,
    )
});

/// An operator of code written inline (`firstKeptEntryIndex = 6`).
static OPERATOR: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"\s(=|<-|==|!=|=>|&&|\|\|)\s|[{};]\s*$|^\w+(\.\w+)+:|^\[[A-Z_]+\]$"));

/// A path to an image handed over (a screenshot dropped into the prompt).
static IMAGE_PATH: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)^\S*[/\\][^\n]+\.(png|jpe?g|gif|webp|heic|bmp)$"));

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
        Shape::Quote => return Err(NotBinding::Pasted),
        Shape::Code => {
            return if text.lines().count() > 3 || PASTED_LINE.is_match(text) {
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
    if blank_field(text) {
        return Err(NotBinding::Pasted);
    }
    words_bind(unit, &simplified(text), message, answering)
}

/// A field of a form still to be filled in, handed over as a template:
/// its value is a placeholder or an example ("总件数：xx件", "尺寸规格：如：
/// 35*30*20cm", "Name: ____", "Date: <today>"). It says what to ask for,
/// not what the user wants.
fn blank_field(text: &str) -> bool {
    static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
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

/// The user's own words typed on the same line as output they pasted: a
/// sentence before the first thing that is not a word ("me salio este
/// error: chat$ fmind …"), if `head`, and one after the last ("… 403
/// Forbidden tienes que verificar eso, …"), if `tail`, as ranges of
/// `text`. Each holds at least [`TYPED_EDGE`] words and no code. Only
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
        let run = words.iter().take_while(|(_, w)| prose(w)).count();
        if run >= TYPED_EDGE && run < words.len() {
            let (at, last) = words[run - 1];
            let base = start_of(first);
            edges.push(base..base + at + last.len());
        }
    }
    if let Some(last) = lines.last().filter(|_| tail) {
        let words = tokens(last);
        let run = words.iter().rev().take_while(|(_, w)| prose(w)).count();
        if run >= TYPED_EDGE {
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
    if COMMAND.is_match(text.trim()) {
        return Err(NotBinding::Command);
    }
    // "Fix it now" alone approves what the agent proposed; after the
    // user's own report or list in the same message it asks for that.
    let approves = approval(text) && !refers_within(message.text, text);
    if spent(text)
        || approves
        || THINK.is_match(text)
        || SPENT_FORM.is_match(text)
        || image_handed_over(text)
    {
        return Err(NotBinding::Acknowledgement);
    }
    // "I want you to do something for me": the ask is what comes next.
    if ASKS_NOTHING_YET.is_match(text) {
        return Err(NotBinding::Debris);
    }
    // "Here is what I found:" leads into what follows; "Do not commit yet,
    // see:" and "请重新分析：" ask something themselves.
    if lead_in(text) && !BAN.is_match(after_lead(text)) && !CJK_ASKS.is_match(text) {
        return Err(NotBinding::Debris);
    }
    if ASKS_TO_BE_TOLD.is_match(after_lead(text)) {
        return Err(NotBinding::Question);
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
        // "What would you recommend?": the agent's opinion asked for.
        if ASKS_OPINION.is_match(text) {
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
        let first = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
            .find(|w| !w.is_empty())
            .unwrap_or_default()
            .to_lowercase();
        // "Write it to a file, no?" is an instruction with a tag question.
        return if !advice
            && (ASKS_OF.is_match(text)
                || KOREAN_REQUEST.is_match(text)
                || JAPANESE_REQUEST.is_match(text)
                || SUGGESTION.is_match(rest)
                || REQUEST_FORM.is_match(rest)
                || imperative(&first))
        {
            Ok(())
        } else {
            Err(NotBinding::Question)
        };
    }
    if directive(text) {
        return Ok(());
    }
    let words = Words::of(text);
    // A name or a value handed over ("https://github.com/acme/api"), not a
    // sentence about one ("agent-session.ts also calls getApiKey").
    if !words.identifiers.is_empty() && (bare_words(text, &words) == 0 || word_count(text) <= 3) {
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
    // A short reply to a choice the agent offered.
    if answering && word_count(text) <= 4 {
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
    if (unit.shape == Shape::Item || CJK_ITEM.is_match(text)) && !POLITE_STATEMENT.is_match(text) {
        return Ok(());
    }
    // A defect reported is a fix asked for.
    if DEFECT.is_match(text) {
        return Ok(());
    }
    // A choice the user makes their own by agreeing with it, said of what
    // it is ("I agree with the retained status reasoning", "Null status on
    // initial load is the right call"); "ok, makes sense" alone is spent.
    if ENDORSES.is_match(text) && word_count(text) >= 6 {
        return Ok(());
    }
    Err(NotBinding::Remark)
}

/// Agreeing with a choice: see [`words_bind`].
static ENDORSES: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(i\s+(totally\s+|fully\s+|completely\s+|also\s+)?agree\s+(with|on|that)|(totally|fully|completely)\s+agree|(is|'s|sounds\s+like|seems\s+like)\s+the\s+right\s+(call|choice|approach|way|move|decision|trade-?off)|makes\s+(more\s+|total\s+|perfect\s+|a\s+lot\s+of\s+)?sense|(i'm|i\s+am)\s+(fine|ok|okay|good|happy)\s+with)\b",
    )
});

/// The text after what it opens with ("ok, now …").
fn after_lead(text: &str) -> &str {
    LEAD.find(text).map_or(text, |lead| &text[lead.end()..])
}

/// Whether the unit asks the agent to act or to hold to something: words of
/// obligation or wish anywhere, or a clause that opens with an instruction
/// or a ban ("… main.ts, just call it main-new").
pub(crate) fn directive(text: &str) -> bool {
    if ASKS_OF.is_match(text)
        || PROHIBITION.is_match(text)
        || FRENCH_BAN.is_match(text)
        || GOAL_LABEL.is_match(text)
        || CJK_ASKS.is_match(text)
        || KOREAN_REQUEST.is_match(text)
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
    text.split([',', ';', '(', ':'])
        .enumerate()
        .any(|(n, clause)| {
            let rest = after_lead(clause.trim_start());
            // "you can use git to pull it", "feel free to drop it".
            let rest = PERMITS.find(rest).map_or(rest, |m| &rest[m.end()..]);
            if REQUEST_FORM.is_match(rest) || BAN.is_match(rest) {
                return true;
            }
            // A verb no list holds, opening the message's first clause
            // before its object ("Iterate on the interview until …").
            if n == 0 && verb_of_no_list(rest) {
                return true;
            }
            let mut words = rest
                .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
                .filter(|w| !w.is_empty());
            let first = words.next().unwrap_or_default().to_lowercase();
            // After the first clause the verb must not be followed by
            // another verb, so a noun that is also a verb ("…, export looks
            // good") is not one.
            imperative(&first)
                && (n == 0
                    || words.next().is_none_or(|w| {
                        let w = w.to_lowercase();
                        OBJECTS.contains(&w.as_str()) || !AUXILIARIES.contains(&w.as_str())
                    }))
        })
}

/// Words that open a sentence that states, asks or reacts: determiners,
/// pronouns, prepositions, conjunctions, adverbs, adjectives and nouns a
/// remark opens with. A word not among them, nor shaped like a noun, an
/// adjective or an inflected verb, that stands before an object, is taken
/// for a verb of an instruction.
#[rustfmt::skip]
const OPENS_NO_INSTRUCTION: &[&str] = &[
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
];

/// Words a verb stands before in an instruction besides its
/// [`OBJECTS`]: a preposition or a possessive ("iterate on", "interview
/// about", "update their").
#[rustfmt::skip]
const AFTER_VERB: &[&str] = &[
    "their", "his", "her", "its", "about", "for", "from", "into", "through", "at", "by", "away",
    "around",
];

/// An instruction after what it is about: "in X:\\addons\\company edit
/// the view list …", "for photos and receipt add a checkbox …". A
/// preposition opens it, and a verb before its object follows within five
/// words.
fn fronted_instruction(rest: &str) -> bool {
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
fn object_first(text: &str) -> bool {
    static TAKEN_UP: LazyLock<Regex> = LazyLock::new(|| {
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
fn verb_of_no_list(rest: &str) -> bool {
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

/// Whether a word is a verb that opens an instruction (or one mistyped by
/// a letter).
fn imperative(word: &str) -> bool {
    if IMPERATIVES.contains(&word) {
        return true;
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
    let typed_without_accents = if word.is_ascii() {
        UNACCENTED.contains(word)
    } else {
        UNACCENTED.contains(&unaccented(word))
    };
    if typed_without_accents {
        return true;
    }
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

/// Each verb of [`IMPERATIVES`] of five letters or more, under itself and
/// under each of its one-letter deletions.
static TYPOS: LazyLock<std::collections::HashMap<String, Vec<&'static str>>> =
    LazyLock::new(|| {
        let mut typos: std::collections::HashMap<String, Vec<&'static str>> =
            std::collections::HashMap::new();
        for verb in IMPERATIVES.iter().filter(|verb| verb.len() >= 5) {
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
fn one_letter_off(word: &str, typed: &str) -> bool {
    word.len().abs_diff(typed.len()) <= 4
        && word.chars().count().abs_diff(typed.chars().count()) <= 1
        && strsim::damerau_levenshtein(word, typed) == 1
}

/// Words that follow a noun, not a verb used as an instruction.
const AUXILIARIES: &[&str] = &[
    "is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "could", "should",
    "does", "did", "looks", "seems", "works", "feels", "sounds", "needs", "goes", "shows", "runs",
    "fails", "breaks", "appears", "gets", "makes", "takes", "says", "means", "lives", "sits",
    "stays", "keeps", "uses", "calls", "returns", "starts", "stops", "loads", "renders",
];

/// What may come before an instruction a user permits: "you can …", "feel
/// free to …".
static PERMITS: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^(you\s+(can|could|may)\s+(just\s+|also\s+)?|feel\s+free\s+to\s+|pode\s+|podes\s+|du\s+kannst\s+)",
    )
});

/// A question for information: it ends in `?` or opens like one.
pub(crate) fn question(text: &str) -> bool {
    question_mark(text) || QUESTION_FORM.is_match(after_lead(text))
}

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
/// "我们的…为…", "我的计划中现在没有关键词的选项" (my plan has no keyword
/// option).
static OWN_SETUP: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"^\s*(\d+[.、)]\s*|第[一二三四五六七八九十]\s*)?(我(们)?的[^，。？?！!,]{0,20}|(开发|运行|部署|测试|生产)环境)(是|为|没有|只有|有|在|用)[^，。？?！!,]",
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
    static STATES: LazyLock<Regex> = LazyLock::new(|| {
        pattern(
            r"(?i)\b(is|are|lives?\s+(at|in|under)|located\s+(at|in)|sits?\s+(at|in)|points?\s+to|runs?\s+on|set\s+to|(defined|declared|implemented|called|configured|stored|kept)\s+(in|at|from|by)|looks?\s+like\s+this)\b|\s=\s",
        )
    });
    word_count(text) <= 10
        && STATES.is_match(text)
        && words.identifiers.iter().any(|id| {
            id.contains("://")
                || id.contains('/')
                || id.chars().any(|c| c.is_ascii_digit())
                || FILE_NAME.is_match(id)
        })
}

/// A file named with its extension: `project_architecture.md`.
static FILE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"^[\w.-]+\.(md|txt|json|ya?ml|toml|csv|pdf|docx?|xlsx?|html?|sql|py|ts|tsx|js|jsx|rs|go|java|rb|sh)$",
    )
});

/// How many content words the text has besides its identifiers.
fn bare_words(text: &str, words: &Words) -> usize {
    let bare = words
        .identifiers
        .iter()
        .fold(text.to_owned(), |rest, id| rest.replace(id.as_str(), " "));
    Words::of(&bare).content.len()
}

/// A line of code written inline: an operator, and names rather than words.
fn code(text: &str) -> bool {
    OPERATOR.is_match(text.trim()) && bare_words(text, &Words::of(text)) <= 2
}

/// A short instruction whose only object points back at what the agent
/// proposed ("fix it up", "do that", "ship it"): an approval, spent as the
/// agent acts on it.
fn approval(text: &str) -> bool {
    const BACK: &[&str] = &[
        "it", "that", "this", "them", "those", "these", "so", "up", "now", "then", "please", "pls",
        "too", "as", "well", "again", "for", "ahead", "on",
    ];
    let rest = after_lead(text.trim());
    let mut words: Vec<String> = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
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

/// How many words the text has: what stands between spaces, and in
/// Chinese and Japanese, which write none, one for every two of their
/// characters.
fn word_count(text: &str) -> usize {
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
fn wide_script(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' // kana
        | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' // CJK ideographs
    )
}

/// Every word is one of [`SPENT`].
fn spent(text: &str) -> bool {
    let mut any = false;
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '\'')) {
        if word.is_empty() {
            continue;
        }
        any = true;
        if !SPENT.contains(&word.to_lowercase().as_str()) {
            return false;
        }
    }
    any
}

#[cfg(test)]
mod tests;

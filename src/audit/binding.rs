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

use super::units::{Shape, Unit, PASTED_LINE};
use crate::verify::text::Words;

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

/// Words that, all alone, make an acknowledgement, a reaction or a control
/// word: nothing of them outlives the turn they are read in.
#[rustfmt::skip]
const SPENT: &[&str] = &[
    "ok", "okay", "k", "kk", "yes", "yeah", "yep", "yup", "ya", "yea", "sure", "no", "nope", "nah",
    "thanks", "thank", "you", "thx", "ty", "great", "perfect", "nice", "cool", "good", "awesome",
    "excellent", "amazing", "wonderful", "lovely", "fantastic", "brilliant", "lgtm", "continue",
    "proceed", "go", "ahead", "on", "do", "it", "that", "this", "please", "pls", "plz", "keep",
    "going", "sounds", "looks", "fine", "right", "correct", "exactly", "done", "alright", "agreed",
    "approve", "approved", "let's", "lets", "wow", "hmm", "hi", "hello", "hey", "lol", "haha",
    "oops", "pause", "here", "stop", "wait", "try", "again", "retry", "now", "then", "and", "so",
    "all", "work", "job", "well", "very", "much", "a", "the", "ahh", "ah", "oh", "y", "n", "ja",
    "nein", "danke", "gut", "super", "weiter", "mach", "genau", "bitte", "passt", "jetzt", "und",
    "das", "es", "is", "cheers", "indeed", "ofc", "course", "of", "absolutely", "definitely",
    "yolo", "ack", "noted", "understood", "got", "gotcha", "resume", "start", "implementing",
    "begin", "ready", "fire", "away", "oke", "cukup", "lanjut", "lanjutkan", "sip", "mantap",
    "terima", "kasih", "makasih", "siap", "iya", "betul", "bagus", "vale", "sí", "si", "gracias",
    "dale", "listo", "perfecto", "bien", "sigue", "continua", "continúa", "merci", "oui",
    "parfait", "d'accord", "obrigado", "obrigada", "sim", "beleza", "ótimo", "certo",
    // Korean, Japanese and Chinese: yes, okay, go on.
    "응", "네", "넵", "예", "ㅇㅇ", "좋아", "좋아요", "고", "계속", "はい", "うん", "了解", "好",
    "好的", "嗯", "行", "可以", "继续",
];

/// Verbs that open an instruction: a clause that starts with one (after
/// "ok", "now", "also", "please" and the like) asks the agent to act.
#[rustfmt::skip]
const IMPERATIVES: &[&str] = &[
    "add", "adjust", "allow", "analyze", "analyse", "apply", "ask", "avoid", "build", "bump",
    "call", "change", "check", "choose", "clean", "clear", "close", "comment", "commit", "compare",
    "compile", "configure", "consider", "continue", "convert", "copy", "create", "debug",
    "decrease", "define", "delete", "deploy", "describe", "design", "disable", "display", "do",
    "document", "download", "draft", "drop", "edit", "enable", "ensure", "exclude", "execute",
    "expand", "explain", "export", "extend", "extract", "fetch", "figure", "fill", "find",
    "finish", "fix", "focus", "follow", "format", "generate", "give", "go", "group", "handle",
    "hide", "highlight", "ignore", "implement", "import", "improve", "include", "increase",
    "inline", "insert", "install", "integrate", "investigate", "keep", "kill", "launch", "leave",
    "limit", "link", "lint", "list", "load", "log", "look", "lower", "make", "mark", "merge",
    "migrate", "mock", "modify", "move", "name", "note", "open", "optimize", "output", "pass",
    "paste", "pick", "pin", "plan", "point", "pose", "post", "prefer", "prepare", "print",
    "prioritize", "proceed", "propose", "prototype", "publish", "pull", "push", "put", "raise",
    "read", "rebase", "rebuild", "record", "reduce", "refactor", "refer", "reference", "release",
    "reload", "remember", "remove", "rename", "render", "reorder", "replace", "reply", "report",
    "rerun", "re-run", "research", "reset", "resolve", "restart", "restore", "restructure",
    "resume", "retry", "return", "reuse", "revert", "review", "rewrite", "run", "save", "scan",
    "search", "select", "send", "separate", "set", "setup", "show", "simplify", "skip", "sort",
    "spawn", "specify", "split", "squash", "start", "stash", "stick", "stop", "store", "strip",
    "submit", "summarize", "swap", "switch", "sync", "tag", "take", "tell", "test", "throw",
    "toggle", "track", "trim", "try", "turn", "tweak", "undo", "unify", "update", "upgrade",
    "upload", "use", "validate", "verify", "wait", "wrap", "write", "match", "align", "mirror",
    "place", "position", "center", "resize", "style", "wire", "hook", "connect", "expose", "emit",
    "parse", "serialize", "cache", "batch", "throttle", "debounce", "stream", "paginate",
    "filter", "dedupe", "translate", "benchmark", "profile", "measure", "trace", "notify",
    "schedule", "queue", "be", "stay", "let", "get", "have", "think", "work", "bring", "break",
    "cut", "shorten", "lengthen", "rephrase", "reword", "retitle", "title", "label", "number",
    "assign", "attach", "detach", "embed", "unwrap", "escape", "quote", "cap", "bound", "exit",
    "enter", "fork", "clone", "sign", "approve", "reject", "accept", "deny", "grant", "revoke",
    "rotate", "archive", "mute", "pin", "unpin", "lock", "unlock", "freeze", "stage", "unstage",
    "pad", "indent", "dedent", "collapse", "fold", "unfold", "hardcode", "default", "fall",
    "provide", "retire", "answer", "introduce", "explore", "audit", "ship", "polish", "clarify",
    "rework", "consolidate", "deduplicate", "elaborate", "cleanup", "downgrade", "enforce",
    "preserve", "prevent", "regenerate", "recreate", "reinstall", "relaunch", "reopen", "rerender",
    "retest", "reverse", "rollback", "roll", "shrink", "grow", "widen", "narrow", "tighten",
    "loosen", "harden", "flatten", "amend", "cherry-pick", "checkout", "uninstall", "purge",
    "prune", "annotate", "summarise", "outline", "sketch", "draw", "plot", "chart", "visualize",
    "demonstrate", "walk", "guide", "teach", "help", "assist", "grab", "equalize", "act", "detail",
    "deliver", "activate", "diagnose", "determine", "identify", "evaluate", "assess", "estimate",
    "calculate", "compute", "rank", "recommend", "suggest", "confirm", "decide", "discuss",
    "organize", "organise", "arrange", "query", "inspect", "examine", "study", "remind", "warn",
    "monitor", "watch", "retrieve", "collect", "gather", "combine", "aggregate", "present",
    "finalize", "complete", "populate", "seed", "initialize", "init", "bootstrap", "scaffold",
    "mount", "unmount", "ssh", "curl", "grep", "redo", "reimplement", "reconsider", "rethink",
    "revisit", "redesign", "recheck", "double-check", "map",

    // German instructions, for sessions typed in it.
    "erstelle", "lass", "mach", "mache", "nutze", "verwende", "prüfe", "schau", "nimm", "füge", "lösche",
    "entferne", "baue", "schreibe", "teste", "starte", "zeige", "gib", "installiere", "benenne",
    "nenne", "speichere", "ändere", "passe", "behalte", "denk", "denke", "lies", "lege", "halte",
    "führe", "stelle", "such", "suche", "recherchiere", "implementiere", "committe", "pushe",
    "verschiebe", "merke", "analysiere", "transferiere", "fasse", "aktualisiere", "überprüfe",
    "kopiere", "öffne", "schließe", "sende", "schick", "schicke", "erkläre", "beschreibe",
    "ergänze", "integriere", "korrigiere", "behebe", "richte", "konfiguriere", "lade", "hole",
    // Portuguese, Spanish and French instructions.
    "faça", "faca", "crie", "adicione", "remova", "use", "mude", "altere", "corrija", "ajuste",
    "implemente", "atualize", "coloque", "deixe", "mantenha", "verifique", "teste", "rode",
    "execute", "mova", "renomeie", "delete", "apague", "feche", "abra", "envie", "suba", "mostre",
    "gere", "escreva", "leia", "siga", "troque", "substitua", "inclua", "garanta", "revise",
    "haz", "crea", "añade", "agrega", "elimina", "quita", "usa", "cambia", "corrige", "actualiza",
    "pon", "deja", "mantén", "verifica", "prueba", "ejecuta", "mueve", "renombra", "borra",
    "cierra", "abre", "envía", "muestra", "genera", "escribe", "lee", "sigue", "reemplaza",
    "fais", "crée", "ajoute", "supprime", "utilise", "change", "corrige", "mets", "laisse",
    "garde", "vérifie", "teste", "exécute", "déplace", "renomme", "ferme", "ouvre", "envoie",
    "montre", "génère", "écris", "lis", "suis", "remplace", "lance", "relance", "commence",
    "attends", "regarde", "implémente", "décide", "homogénéise", "essaie", "essaye", "refais",
    "reprends", "prends", "enlève", "retire", "nettoie", "documente", "explique",
    "installe", "optimise", "simplifie", "déploie", "intègre", "affiche", "réalise", "realize",
    "realiza", "adiciona", "cria", "coloca", "deixa", "tira", "roda", "testa", "ajusta",
    "atualiza", "muda", "troca", "arruma", "conserta", "atente", "cuide", "faz", "salva", "guarda",
    "cria", "termina", "segue", "publica", "sobe", "tenta", "analisa", "lista", "documenta",
    // Portuguese infinitives, as a to-do is written in it ("listar o que
    // falta", "criar um plano de execução").
    "listar", "evoluir", "criar", "fazer", "tentar", "subir", "implementar", "adicionar",
    "remover", "corrigir", "ajustar", "atualizar", "testar", "rodar", "executar", "mapear",
    "analisar", "verificar", "manter", "usar", "utilizar", "gerar", "publicar", "salvar",
    "documentar", "configurar", "migrar", "refatorar", "deletar", "apagar", "mover", "renomear",
    "separar", "padronizar", "entregar", "validar", "revisar", "organizar", "integrar",
    // French infinitives, as a to-do is written in it ("ajouter un bouton").
    "faire", "ajouter", "créer", "supprimer", "corriger", "décider", "mettre", "vérifier",
    "tester", "implémenter", "lancer", "utiliser", "modifier", "changer", "déplacer",
    "renommer", "afficher", "remplir", "préremplir", "intégrer", "garder", "enlever", "retirer",
    "exécuter", "confirmer", "rapporter", "activer", "désactiver", "brancher", "envoyer",
    "relancer", "valider", "nettoyer", "documenter", "déployer", "installer", "configurer",
    "appliquer", "écrire", "remplacer", "conserver", "éviter", "respecter", "signaler",
    // Indonesian instructions: the verb's root, and the form with -kan or
    // -i that asks it of someone.
    "buat", "buatkan", "tambah", "tambahkan", "tampilkan", "ubah", "ganti", "hapus", "perbaiki",
    "cek", "periksa", "coba", "lihat", "baca", "simpan", "kirim", "jalankan", "gunakan", "pakai",
    "pastikan", "masukkan", "hilangkan", "pindahkan", "rapikan", "sesuaikan", "padukan", "kasih",
    "berikan", "jelaskan", "tulis", "tuliskan", "bikin", "bikinkan", "redesain", "desain",
];

/// [`IMPERATIVES`] without their accents, as they are often typed
/// ("decider", "homogeneise").
static UNACCENTED: LazyLock<std::collections::HashSet<String>> =
    LazyLock::new(|| IMPERATIVES.iter().map(|verb| unaccented(verb)).collect());

/// A word without its accents: "décider" is "decider".
fn unaccented(word: &str) -> String {
    use unicode_normalization::{char::is_combining_mark, UnicodeNormalization};
    word.nfd().filter(|c| !is_combining_mark(*c)).collect()
}

/// Words that follow a verb used as an instruction ("call it", "add a").
#[rustfmt::skip]
const OBJECTS: &[&str] = &[
    "it", "them", "this", "that", "these", "those", "the", "a", "an", "all", "some", "me", "us",
    "my", "our", "your", "up", "out", "off", "on", "in", "to", "with", "back", "down", "over",
    "any", "each", "every", "both", "more", "less", "everything", "anything",
];

/// Compiles a constant pattern.
fn pattern(source: &str) -> Regex {
    // The patterns of this module are constants: they compile.
    #[allow(clippy::expect_used)]
    Regex::new(source).expect("a constant pattern compiles")
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

/// Traditional Chinese characters and the simplified ones the word lists
/// are written in, for the characters they use: "請幫我加上" is read as
/// "请帮我加上". Each pair is one character for one, three bytes for three.
const TRADITIONAL: &[(char, char)] = &[
    ('請', '请'),
    ('幫', '帮'),
    ('記', '记'),
    ('錄', '录'),
    ('確', '确'),
    ('認', '认'),
    ('檢', '检'),
    ('復', '复'),
    ('刪', '删'),
    ('實', '实'),
    ('現', '现'),
    ('創', '创'),
    ('編', '编'),
    ('寫', '写'),
    ('總', '总'),
    ('結', '结'),
    ('優', '优'),
    ('構', '构'),
    ('運', '运'),
    ('執', '执'),
    ('換', '换'),
    ('務', '务'),
    ('須', '须'),
    ('應', '应'),
    ('該', '该'),
    ('讓', '让'),
    ('給', '给'),
    ('調', '调'),
    ('為', '为'),
    ('說', '说'),
    ('這', '这'),
    ('個', '个'),
    ('們', '们'),
    ('來', '来'),
    ('對', '对'),
    ('時', '时'),
    ('開', '开'),
    ('關', '关'),
    ('發', '发'),
    ('與', '与'),
    ('於', '于'),
    ('體', '体'),
    ('驗', '验'),
    ('專', '专'),
    ('業', '业'),
    ('單', '单'),
    ('頁', '页'),
    ('設', '设'),
    ('計', '计'),
    ('別', '别'),
    ('證', '证'),
    ('製', '制'),
    ('試', '试'),
    ('測', '测'),
    ('錯', '错'),
    ('誤', '误'),
    ('沒', '没'),
    ('麼', '么'),
    ('嗎', '吗'),
    ('還', '还'),
    ('種', '种'),
    ('環', '环'),
    ('檔', '档'),
    ('資', '资'),
    ('庫', '库'),
    ('據', '据'),
    ('議', '议'),
    ('決', '决'),
    ('選', '选'),
    ('擇', '择'),
    ('項', '项'),
    ('標', '标'),
    ('準', '准'),
    ('處', '处'),
    ('歡', '欢'),
    ('謝', '谢'),
    ('將', '将'),
    ('統', '统'),
    ('輸', '输'),
    ('號', '号'),
    ('遠', '远'),
    ('過', '过'),
    ('問', '问'),
    ('題', '题'),
    ('煩', '烦'),
    ('幾', '几'),
    ('從', '从'),
    ('後', '后'),
    ('邊', '边'),
    ('樣', '样'),
    ('點', '点'),
    ('書', '书'),
    ('畫', '画'),
    ('隊', '队'),
    ('詞', '词'),
    ('語', '语'),
    ('譯', '译'),
    ('階', '阶'),
    ('內', '内'),
    ('參', '参'),
    ('簡', '简'),
    ('顯', '显'),
    ('歷', '历'),
    ('紀', '纪'),
    ('儲', '储'),
    ('啟', '启'),
    ('動', '动'),
    ('態', '态'),
    ('條', '条'),
    ('規', '规'),
    ('則', '则'),
    ('線', '线'),
    ('網', '网'),
    ('頭', '头'),
    ('無', '无'),
    ('會', '会'),
    ('強', '强'),
    ('採', '采'),
];

/// `text` with its traditional Chinese characters read as simplified
/// ([`TRADITIONAL`]); the text itself when it has none.
fn simplified(text: &str) -> std::borrow::Cow<'_, str> {
    // Every unit judged passes here: an ASCII character, as most are,
    // is none of the table's.
    let map = |c: char| {
        if c.is_ascii() {
            return c;
        }
        TRADITIONAL
            .iter()
            .find(|(traditional, _)| *traditional == c)
            .map_or(c, |(_, simple)| *simple)
    };
    if !text.chars().any(|c| map(c) != c) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().map(map).collect())
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

/// A line as a terminal or a browser console prints it, beyond what
/// [`PASTED_LINE`] knows: box drawing and prompt glyphs (and those an
/// agent's terminal marks its steps with: `⏺`, `⎿`, `✻`), `file.js:33`,
/// a stack frame `fn @ file.js:110`, a build tool's `package:task:` prefix,
/// columns padded with spaces near the start (`Tasks:    3 successful`),
/// the headers of a diff and the markers of a diff or a conflict
/// (`--- a/`, `+++++++`, `<<<<<<<`, `\\\\\\\`), a markup tag
/// left open on its line (`<StatCard`) and the attributes under it
/// (`title="Total"`), a logger's level in brackets (`[INFO] Running
/// cleanup`), a shell's error (`setup.sh: line 23: syntax error`).
static TERMINAL_LINE: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r#"^\s*([│├└╭╰┌┐┘─═║┃┏┗▶❯➜⎿⏺●✻]|\.\s+\w+\$\s|>\s+\S+@|[\w@./-]+:[\w-]+:\s|\S+\.[A-Za-z]{1,5}:\d+\b|\+{3,}|={3,}|<{3,}|>{3,}|diff\s--git\s|index\s[0-9a-f]{6,}\.\.[0-9a-f]{6,}|---\sa/|@@\s-\d|\\{3,}|%{3,}|<[A-Za-z][\w.-]*\s*$|[A-Za-z][\w:-]*=["{]|(\S+ ){0,3}\S+ {3,}\S)|\s@\s\S+:\d+\s*$|[\w@./-]+:\s+line\s+\d+:\s|\[(?i:info|error|err|warn|warning|debug|trace|fatal|notice|critical)\]\s|^\s*((GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s*$|(zsh|bash|sh|fish|dash):\s|\S+:\s+(command\s+not\s+found|no\s+such\s+file\s+or\s+directory|permission\s+denied)\b|\[HTTP/[\d.]+\s+\d{3}\b|Object\s*\{|Uncaught\s+\w|ELIFECYCLE\b|Found\s+\d+\s+errors?\b)"#,
    )
});

/// Whether a line is output by [`PASTED_LINE`], but for a line of
/// words a list ends with a semicolon ("Apenas 1 réplica de cada
/// serviço;"), as code ends its statements.
fn pasted_line(line: &str) -> bool {
    if !PASTED_LINE.is_match(line) {
        return false;
    }
    // What the line says before its semicolon and a closing bracket: a
    // remark in brackets ends prose too ("Rede externa network_public
    // (overlay);"), a call ends code ("console.log(total);").
    let body = line.trim_end().trim_end_matches(';').trim_end_matches(')');
    let words_ending_in_semicolon = line.trim_end().ends_with(';')
        && !PASTED_LINE.is_match(body)
        && word_count(line) >= 3
        && !line.contains(['=', '{', '}', '[', ']'])
        && !CALL.is_match(line);
    !words_ending_in_semicolon
}

fn output_line(line: &str) -> bool {
    pasted_line(line)
        || TERMINAL_LINE.is_match(line)
        || CODE_LINE.is_match(line)
        || LATEX_LINE.is_match(line)
}

/// A line of LaTeX source: it opens with a command and its argument
/// (`\subsection*{Input}`, `\exmpfile{a}{b}%`), or is a command alone
/// (`\InputFile`).
static LATEX_LINE: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"^\s*\\[A-Za-z]+\*?(\{|\[|\s*%?\s*$)"));

/// A LaTeX environment opening or closing on a line of its own:
/// `\begin{verbatim}`, `\end{problem}`.
static LATEX_ENVIRONMENT: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"^\s*\\(?<edge>begin|end)\{(?<name>[A-Za-z*]+)\}"));

/// A line of code pasted without a fence: indented and ending as code
/// does (`,`, `;`, an opening bracket, `=>`), a line that opens with a SQL
/// keyword in capitals, or closing brackets alone.
static CODE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"^(\s{2,}\S[^\n]*([,;({\[]|\)|=>)\s*$|\s*(SELECT|FROM|WHERE|AND|OR|JOIN|LEFT\s+JOIN|INNER\s+JOIN|GROUP\s+BY|ORDER\s+BY|INSERT\s+INTO|UPDATE|DELETE\s+FROM|CREATE|RETURNS|RETURN|DECLARE|BEGIN|END|WITH|VALUES|SET|UNION|LIMIT|HAVING)(\s|;|$)|\s*[)}\]]+[;,)]*\s*$)",
    )
});

/// A shell's prompt, as a terminal shows it: `$ cargo test`,
/// `wink@box 26-02-03T21:17:52Z:~/src/app (main)`, `me@host:~/app$ ls`,
/// `[me@host app]$`, `❯ npm test`, `PS C:\app> dir`, `me@Mac ~ % ls`. What stands between
/// the first prompt of a message and the output of its last is a terminal
/// session the user copied.
static PROMPT: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"^(\s*[$❯➜λ]\s+\S|[\w.-]+@[\w.-]+\b[^\n]*:[~/]|\[[\w.-]+@[\w.-]+\s[^\]]*\][$#]|(\([\w.-]+\)\s+)?PS\s+[A-Za-z]:\\[^>]*>|[\w.-]+@[\w.-]+\s+\S+\s+%(\s|$))",
    )
});

/// A message the user typed, with where pasted output stands in it: worked
/// out once per message, asked of every unit in it, so a paste of 40,000
/// lines costs one pass, not one per unit.
pub(crate) struct Prose<'a> {
    text: &'a str,
    /// Where each line starts.
    starts: Vec<usize>,
    /// Whether each line stands in (or, blank, closes) a paragraph of a few
    /// lines that is mostly output.
    output_paragraph: Vec<bool>,
    /// From the first output line to the end of the last, when the message
    /// is many lines and mostly output.
    output_block: Option<Range<usize>>,
    /// Whether each line opens with what a process stamps its log lines
    /// with: output, whatever the lines around it are.
    stamped: Vec<bool>,
    /// From a shell's first prompt to the end of the paragraph that holds
    /// its last: a terminal session the user copied.
    terminal: Option<Range<usize>>,
    /// Lines copied from a terminal's screen (padded with spaces to its
    /// width) in which the agent speaks ("Let me check the gradients"):
    /// an agent's answer the user handed over, from its first padded line
    /// to its last.
    copied_answer: Option<Range<usize>>,
    /// What another assistant said in a chat the user copied, from its
    /// "ChatGPT said:" to the next "You said:" or the end.
    chat_answers: Vec<Range<usize>>,
    /// Another agent's text the user hands over, from where they say so
    /// ("I got this from Codex:", "here is the prompt I gave Codex:") to
    /// the end: its report and its brief are not asks of this agent.
    handed_over: Option<Range<usize>>,
    /// A terminal's screen captured with its escape sequences (`^[[59;1R`),
    /// from the first line that holds one to the end.
    captured: Option<Range<usize>>,
    /// Sections of a prompt or a document handed over, marked up with tags
    /// on lines of their own (`<instructions>` … `</instructions>`):
    /// people do not wrap their own words in them.
    tagged: Vec<Range<usize>>,
    /// Whether the message is a form the user filled in: most of its lines
    /// give a field its value ("Buyer：Amer Ly", "Port: 8443"), each field
    /// once. Fields that come again and again are a listing or a log
    /// ("Dependency: none", "Path not found: …"), not a form.
    form: bool,
}

/// A tag opening or closing a section, alone on its line.
static SECTION_TAG: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"^\s*<(?<close>/)?(?<name>[^\s<>/!?][^\s<>/]{0,40})>\s*$"));

/// A field and its value on a line of its own: a short label, a colon, a
/// short value.
static FIELD: LazyLock<Regex> = LazyLock::new(|| {
    pattern(r"^\s*[-*]?\s*(?<label>[^:：\s\[][^:：]{0,39})[:：]\s*\S[^\n]{0,80}$")
});

impl<'a> Prose<'a> {
    pub(crate) fn new(text: &'a str) -> Prose<'a> {
        let mut starts = Vec::new();
        let mut output_paragraph = Vec::new();
        let (mut filled, mut outputs) = (0usize, Vec::new());
        // The paragraph being read: its first line, its lines, its output
        // lines, its cells.
        let (mut from, mut lines, mut output, mut cells) = (0usize, 0usize, 0usize, 0usize);
        let close =
            |flags: &mut Vec<bool>, from: usize, lines: usize, output: usize, cells: usize| {
                // A few lines mostly output, or two or three lines that all
                // are, or a table copied cell by cell.
                let is = (lines >= 4 && output * 2 > lines)
                    || (lines >= 2 && output == lines)
                    || (lines >= 8 && cells * 2 >= lines);
                flags[from..from + lines].fill(is);
                is
            };
        // Where the first prompt starts, and where the paragraph of the
        // last one ends (so far).
        let (mut first_prompt, mut terminal_end, mut in_terminal) = (None, 0, false);
        let mut labels = std::collections::HashSet::new();
        // Sections open: their name, and where each starts.
        let (mut open, mut tagged): (Vec<(&str, usize)>, Vec<Range<usize>>) =
            (Vec::new(), Vec::new());
        let (mut fields, mut again) = (0usize, false);
        // Lines padded to a terminal's width: how many, the first and the last.
        let (mut padded, mut padded_span) = (0usize, None::<Range<usize>>);
        // What a process stamps its log lines with ("(APIServer
        // pid=75986)", "[worker-1]"), on three lines or more: each of them
        // is its output.
        let line_stamps: Vec<Option<&str>> = text
            .split_inclusive('\n')
            .map(|line| STAMP.find(line).map(|stamp| stamp.as_str().trim()))
            .collect();
        let mut stamps = std::collections::HashMap::<&str, usize>::new();
        for stamp in line_stamps.iter().flatten() {
            *stamps.entry(stamp).or_default() += 1;
        }
        let stamped_lines: Vec<bool> = line_stamps
            .iter()
            .map(|stamp| stamp.is_some_and(|stamp| stamps.get(stamp).is_some_and(|&n| n >= 3)))
            .collect();
        // Another assistant's answer in a chat copied whole: where it
        // started, and those closed.
        let (mut answer_from, mut chat_answers) = (None::<usize>, Vec::new());
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            starts.push(at);
            if let Some(said) = CHAT_SAID.captures(line) {
                if said.name("assistant").is_some() {
                    answer_from.get_or_insert(at);
                } else if let Some(from) = answer_from.take() {
                    chat_answers.push(from..at);
                }
            }
            output_paragraph.push(false);
            let i = starts.len() - 1;
            // A section of tags (`<rules>` … `</rules>`) or a LaTeX
            // environment: its name, and whether the line opens it.
            let section = SECTION_TAG
                .captures(line)
                .map(|tag| (tag.name("name"), tag.name("close").is_none()))
                .or_else(|| {
                    LATEX_ENVIRONMENT.captures(line).map(|environment| {
                        let opens = environment
                            .name("edge")
                            .is_some_and(|e| e.as_str() == "begin");
                        (environment.name("name"), opens)
                    })
                });
            if let Some((name, opens)) = section {
                let name = name.map_or("", |n| n.as_str());
                if opens {
                    open.push((name, at));
                } else if let Some(n) = open.iter().rposition(|(o, _)| *o == name) {
                    tagged.push(open[n].1..at + line.len());
                    open.truncate(n);
                }
            }
            if let Some(field) = FIELD.captures(line.trim_end()) {
                fields += 1;
                let label = field.name("label").map_or("", |l| l.as_str());
                again |= !labels.insert(label.trim().to_lowercase());
            }
            if line.trim_end_matches(['\n', '\r']).ends_with("  ") && !line.trim().is_empty() {
                padded += 1;
                let span = padded_span.get_or_insert(at..at);
                span.end = at + line.len();
            }
            // A prompt is a line of output too.
            let prompt = PROMPT.is_match(line);
            if prompt {
                first_prompt.get_or_insert(at);
                in_terminal = true;
            }
            if line.trim().is_empty() || rule(line) {
                in_terminal = false;
                // A blank line (or a rule drawn across: `=====`) answers
                // for the paragraph it closes.
                let is = close(&mut output_paragraph, from, lines, output, cells);
                output_paragraph[i] = lines > 0 && is;
                (from, lines, output, cells) = (i + 1, 0, 0, 0);
            } else {
                if in_terminal {
                    terminal_end = at + line.len();
                }
                filled += 1;
                lines += 1;
                if cell(line) {
                    cells += 1;
                }
                if prompt || output_line(line) || stamped_lines[i] {
                    output += 1;
                    outputs.push(at..at + line.len());
                }
            }
            at += line.len();
        }
        close(&mut output_paragraph, from, lines, output, cells);
        // A brief the user wrote with its sections headed ("## ÉTAPE 2 —
        // …") holds their code and queries, not output they pasted: it is
        // judged a paragraph at a time.
        let sectioned = SECTION_HEADING.find_iter(text).nth(1).is_some();
        let output_block =
            (filled >= 8 && outputs.len() * 5 >= filled * 2 && !sectioned).then(|| {
                outputs.first().map(|f| f.start).unwrap_or(0)..outputs.last().map_or(0, |l| l.end)
            });
        Prose {
            text,
            starts,
            output_paragraph,
            output_block,
            stamped: stamped_lines,
            chat_answers: chat_answers
                .into_iter()
                .chain(answer_from.map(|from| from..text.len()))
                .collect(),
            terminal: first_prompt.map(|first| first..terminal_end),
            copied_answer: padded_span
                .map(|span| span.start..paragraph_end(text, span.end))
                .filter(|span| padded >= 3 && AGENT_VOICE.is_match(&text[span.clone()])),
            tagged,
            form: fields >= 3 && fields * 2 >= filled && !again,
            handed_over: handed_over(text).map(|start| start..text.len()),
            captured: text
                .match_indices('\n')
                .map(|(at, _)| at + 1)
                .chain(std::iter::once(0))
                .filter(|&start| {
                    let line = text[start..].split('\n').next().unwrap_or("");
                    line.contains("^[[") || line.contains("^[]") || line.contains('\u{1b}')
                })
                .min()
                .map(|start| start..text.len()),
        }
    }

    /// Whether what starts at `start` stands inside output the user pasted:
    /// a message of many lines that is mostly output, from its first output
    /// line to its last, or a paragraph of a few lines that is. A sentence
    /// of the output reads like a request ("Run `pnpm approve-builds` to
    /// pick …"); it is the tool's, not the user's. The user's own words
    /// before and after the output are judged as they stand.
    fn in_pasted_output(&self, start: usize, unit: &str) -> bool {
        if [
            &self.output_block,
            &self.terminal,
            &self.copied_answer,
            &self.handed_over,
            &self.captured,
        ]
        .into_iter()
        .flatten()
        .chain(&self.tagged)
        .chain(&self.chat_answers)
        .any(|b| b.contains(&start))
        {
            return true;
        }
        match self.starts.partition_point(|&s| s <= start) {
            0 => false,
            n if self.stamped[n - 1] => true,
            n if !self.output_paragraph[n - 1] => false,
            // A line of the user's own words among the output lines they
            // pasted under it: a sentence in the first person, not output.
            _ => !unit
                .lines()
                .any(|line| !output_line(line) && VOICE.is_match(line) && word_count(line) >= 8),
        }
    }
}

/// A line that is one cell of a table copied from a page or a sheet,
/// a cell to a line: a figure, a date, an amount ("￥182.63", "7.81%",
/// "2026-04-16").
fn cell(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() <= 24
        && line.split_whitespace().count() <= 2
        && line.chars().any(|c| c.is_ascii_digit())
}

/// Where the user says that what follows is another agent's: its report
/// ("I got this from Codex:", "here's what Gemini said:", "the output of
/// the other agent:") or the brief they gave it ("here is the prompt I gave
/// Codex:"). A brief written for this agent ("the prompt for Claude:")
/// binds, and is not this.
static HANDED_OVER: LazyLock<Regex> = LazyLock::new(|| {
    let agent = r"(the\s+)?(codex|claude|chatgpt|gpt[-\w.]*|gemini|cursor|copilot|devin|aider|windsurf|(an)?other\s+agent)\b";
    pattern(&format!(
        r"(?i)\b(i\s+got\s+this\s+(back\s+)?from\s+{agent}|(here\s+is|here's|this\s+is)\s+what\s+{agent}\s+(said|wrote|replied|answered|suggested|returned|produced|reported|came\s+up\s+with|gave\s+me|told\s+me)|(the\s+)?(output|report|response|answer|reply)\s+(from|of)\s+{agent}|here\s+is\s+the\s+(prompt|brief|task|message)\s+i\s+(gave|sent)(\s+to)?\s+{agent})"
    ))
});

/// Where another agent's text the user hands over starts: a lead of
/// [`HANDED_OVER`] followed on its line, within 80 characters, by a colon.
/// The colon is looked for by hand: a pattern that counts 80 characters
/// after so many alternatives makes a lazy DFA build new states at every
/// byte of a long message.
fn handed_over(text: &str) -> Option<usize> {
    HANDED_OVER.find_iter(text).find_map(|lead| {
        let stop = text[lead.end()..]
            .chars()
            .take(81)
            .find(|&c| c == '\n' || c == ':');
        (stop == Some(':')).then_some(lead.start())
    })
}

/// Who speaks next in a chat copied from a chat app, on a line of its
/// own: "You said:", "ChatGPT said:", "O ChatGPT disse:".
static CHAT_SAID: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)^\s*((?<user>you\s+said|você\s+disse|voce\s+disse|tú\s+dijiste|tu\s+dijiste|vous\s+avez\s+dit|du\s+hast\s+gesagt)|(?<assistant>(o\s+|el\s+)?(chatgpt|claude|gemini|copilot|grok|deepseek)\s+(said|disse|dijo|a\s+dit|hat\s+gesagt)))\s*:?\s*$",
    )
});

/// A statement closed in the polite declarative of Korean (`-ㅂ니다`,
/// `-습니다`) or Japanese (`です`, `ます`).
static POLITE_STATEMENT: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(니다|です|ます)[.。!！]?\s*$"));

/// A Markdown heading of a section: `#` to `######`, then a capital.
static SECTION_HEADING: LazyLock<Regex> = LazyLock::new(|| pattern(r"(?m)^#{1,6}[ \t]+\p{Lu}"));

/// A call written as code does: a name with its bracket right after it.
static CALL: LazyLock<Regex> = LazyLock::new(|| pattern(r"[\w.]\("));

/// What a line of a log opens with in brackets: the process or the
/// worker that wrote it.
static STAMP: LazyLock<Regex> = LazyLock::new(|| pattern(r"^\s*[(\[][^()\[\]\n]{2,40}[)\]]"));

/// A line drawn across to set sections apart (`========`, `────`,
/// `***`): decoration, neither the user's words nor output.
fn rule(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() >= 3
        && line
            .chars()
            .all(|c| matches!(c, '=' | '-' | '─' | '═' | '━' | '*' | '_' | '~' | '#'))
}

/// Where the paragraph that goes on at `at` (or, at a blank line, the
/// next one) ends: at its blank line, or at the end of the text.
fn paragraph_end(text: &str, at: usize) -> usize {
    let mut end = at;
    let mut within = false;
    for line in text[at..].split_inclusive('\n') {
        let blank = line.trim().is_empty();
        if blank && within {
            break;
        }
        within |= !blank;
        end += line.len();
    }
    end
}

/// The agent speaking of what it does next, as users do not write to it:
/// "Let me check the gradient norms", "Now I'll run the tests".
static AGENT_VOICE: LazyLock<Regex> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(let\s+me\s+(check|look|run|read|see|verify|investigate|fix|update|try|examine|start|add|create|find|search|explore|analy[sz]e)|(now\s+)?i'll\s+(now\s+)?(check|look|run|read|verify|investigate|fix|update|try|start|add|create|implement)|i'm\s+going\s+to)\b",
    )
});

/// The user speaking: `I`, `we`, `please`, as tools do not write.
static VOICE: LazyLock<Regex> =
    LazyLock::new(|| pattern(r"(?i)\b(i|i'm|i'd|i've|we|we're|let's|please|pls)\b"));

/// Output, not words: most lines (or a block that opens as output and goes
/// on as it) are log lines, JSON, stack frames; a path to an image; text
/// that is mostly marks.
fn pasted(text: &str) -> bool {
    if IMAGE_PATH.is_match(text.trim()) {
        return true;
    }
    let marks = text
        .chars()
        .filter(|c| !c.is_alphanumeric() && !c.is_whitespace())
        .count();
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    if marks > 8 && marks * 2 > letters {
        return true;
    }
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some(first) = lines.first() else {
        return false;
    };
    let output = lines.iter().filter(|l| pasted_line(l)).count();
    output * 2 > lines.len() || (output >= 2 && PASTED_LINE.is_match(first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::units::units;

    fn why(text: &str) -> Vec<Result<(), NotBinding>> {
        units(text)
            .iter()
            .map(|u| binding(u, &Prose::new(text), Context::default()))
            .collect()
    }

    #[test]
    fn what_binds_and_what_does_not() {
        assert_eq!(why("ok"), [Err(NotBinding::Acknowledgement)]);
        assert_eq!(why("yes, go ahead"), [Err(NotBinding::Acknowledgement)]);
        assert_eq!(why("where are we?"), [Err(NotBinding::Question)]);
        assert_eq!(
            why("what is the current local branch and which branch have we been working on"),
            [Err(NotBinding::Question)]
        );
        assert_eq!(why("can you make the footer blue?"), [Ok(())]);
        assert_eq!(why("oke cukup"), [Err(NotBinding::Acknowledgement)]);
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
        assert_eq!(why("好的"), [Err(NotBinding::Acknowledgement)]);
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
        // Defects reported in English: each asks for its fix.
        for defect in [
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
        assert_eq!(why("do this each run:"), [Err(NotBinding::Debris)]);
        assert_eq!(why("yeah, fix it up"), [Err(NotBinding::Acknowledgement)]);
        assert_eq!(why("fix the footer"), [Ok(())]);
        assert_eq!(
            why("TypeError: Cannot read properties of undefined\n    at render (app.js:10:5)\n    at main (app.js:2:1)"),
            [Err(NotBinding::Pasted)]
        );
        assert_eq!(why("/compact"), [Err(NotBinding::Command)]);
        assert_eq!(why("/gsd:execute-plan .planning/01-02-PLAN.md"), [Ok(())]);
        assert_eq!(
            why("/var/folders/x/T/Screenshot 2025.png"),
            [Err(NotBinding::Pasted)]
        );
        let units = units("Rustup");
        let answering = Context { answering: true };
        assert_eq!(binding(&units[0], &Prose::new("Rustup"), answering), Ok(()));
        assert_eq!(why("https://github.com/acme/api"), [Ok(())]);
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
        ] {
            assert_eq!(why(text), [Ok(())], "{text}");
        }
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
        ] {
            assert_eq!(why(text), [Ok(())], "{text}");
        }
        assert_eq!(
            why("beautiful, export looks good now."),
            [Err(NotBinding::Remark)]
        );
    }

    #[test]
    fn goals_wants_and_verbs_of_no_list_bind() {
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
    }

    /// Each unit of `message` and why it does or does not bind.
    fn judged_units(message: &str) -> Vec<(&str, Result<(), NotBinding>)> {
        let prose = Prose::new(message);
        units(message)
            .iter()
            .map(|u| (u.text(message), binding(u, &prose, Context::default())))
            .collect()
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
                text.starts_with("Never")
                    || text.starts_with("DB-first")
                    || text.starts_with("Every")
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
    fn roles_missions_defects_and_instructions_in_other_languages_bind() {
        for text in [
            "Ta mission est de construire **StratWatch**, une plateforme de veille.",
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
            "클로드야 지금 구조 확인해봐 다시 수정했거든?",
            "Ne pas passer à l'étape 2 avant que l'étape 1 soit validée.",
            "Puis activer XO__CoreEngine__v1 et confirmer qu'il est ACTIF.",
            "Ensuite lancer les 5 tests Telegram du TICKET 2 :",
            "Rapporter le résultat de chaque test et le SELECT final.",
            "Objective: fixing the master controller, its getting a 443 error",
            "Goal: the build takes a minute at most",
        ] {
            assert_eq!(why(text), [Ok(())], "{text}");
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
        ] {
            assert!(output_line(line), "{line}");
        }
        for line in [
            "Keep the cache for 4 days.  Then drop it.",
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
        let prose = Prose::new(message);
        for unit in units(message) {
            assert_eq!(
                binding(&unit, &prose, Context::default()),
                Err(NotBinding::Pasted),
                "{:?}",
                unit.text(message)
            );
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
        // A sentence that names a level is still the user's.
        assert_eq!(
            why("Send the [INFO] lines to stderr, not stdout."),
            [Ok(())]
        );
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
    }

    #[test]
    fn another_agents_report_or_brief_handed_over_asks_nothing_of_this_agent() {
        let message = "Should I create this on a separate tree or the main? Here is the prompt I gave Codex:\n\
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
}

//! The words the judgment reads by: acknowledgements that are spent as they
//! are read, verbs that open an instruction (in every language the audit
//! reads), and the words that follow such a verb.

use std::sync::LazyLock;

/// Words that, all alone, make an acknowledgement, a reaction or a control
/// word: nothing of them outlives the turn they are read in.
#[rustfmt::skip]
pub(super) const SPENT: &[&str] = &[
    "ok", "okay", "k", "kk", "yes", "yeah", "yep", "yup", "ya", "yea", "sure", "no", "nope", "nah",
    "thanks", "thank", "you", "thx", "ty", "great", "perfect", "nice", "cool", "good", "awesome",
    "excellent", "amazing", "wonderful", "lovely", "fantastic", "brilliant", "lgtm", "continue",
    "proceed", "go", "ahead", "on", "do", "it", "that", "this", "please", "pls", "plz", "keep",
    "going", "sounds", "looks", "looking", "fine", "right", "correct", "exactly", "done",
    "alright", "agreed", "approve", "approved", "let's", "lets", "wow", "hmm", "hi", "hello", "hey", "lol", "haha",
    "oops", "pause", "here", "stop", "wait", "try", "again", "retry", "now", "then", "and", "so",
    "all", "work", "job", "well", "very", "much", "a", "the", "ahh", "ah", "oh", "y", "n", "ja",
    "nein", "danke", "gut", "super", "weiter", "mach", "genau", "bitte", "passt", "jetzt", "und",
    "das", "es", "is", "cheers", "indeed", "ofc", "course", "of", "absolutely", "definitely",
    "yolo", "ack", "noted", "understood", "got", "gotcha", "resume", "start", "implementing",
    "begin", "ready", "fire", "away", "get", "started", "oke", "cukup", "lanjut", "lanjutkan", "sip", "mantap",
    "terima", "kasih", "makasih", "siap", "iya", "betul", "bagus", "vale", "sí", "si", "gracias",
    "dale", "listo", "perfecto", "bien", "sigue", "continua", "continúa", "merci", "oui",
    "parfait", "d'accord", "obrigado", "obrigada", "sim", "beleza", "ótimo", "certo",
    // Portuguese: nice, cool, thanks; try it now and see, look again.
    "boa", "show", "valeu", "blz", "perfeito", "top", "bora", "isso", "tente", "tenta", "agora",
    "para", "ver", "veja", "novamente", "consegue", "testar", "segue", "pode",
    // Greetings, and a message sent to see that the agent answers.
    "oi", "olá", "ola", "hola", "bonjour", "salut", "hallo", "teste", "testing", "ping",
    // "makes sense to me".
    "makes", "sense", "to", "me",
    // Dutch "ga aan de slag" (get to work); Vietnamese "có luôn em" (yes,
    // go on), "tốt em", "cảm ơn", "vâng ạ", "được rồi".
    "ga", "aan", "de", "slag", "có", "luôn", "nha", "nhé", "em", "anh", "ạ", "vâng", "ừ", "được",
    "rồi", "tốt", "cảm", "ơn",
    // Italian: try again now, go on, thanks.
    "riprova", "prova", "ora", "quindi", "adesso", "vai", "avanti", "grazie", "perfetto",
    "bene", "dai",
    // Korean, Japanese and Chinese: yes, okay, go on (and "게속", as "계속"
    // is often mistyped); hello.
    "응", "네", "넵", "예", "ㅇㅇ", "좋아", "좋아요", "고", "계속", "게속", "はい", "うん", "了解", "好",
    "好的", "嗯", "行", "可以", "继续", "你好", "안녕", "안녕하세요", "こんにちは",
    // Chinese yes to "do you need me to …?": needed, want, yes, right.
    "需要", "要", "是的", "对", "对的", "没问题", "好吧",
    // Korean reactions typed in chat: aha, oh, wow, good, OK (ㅇㅋ), go
    // (ㄱㄱ), laughter (ㅋ, ㅎ), hmm; and, so, but, this, alone.
    "아하", "아", "오", "와", "굿", "ㅇㅋ", "ㄱㄱ", "ㅋ", "ㅎ", "오케이", "그래", "맞아", "흠", "음",
    "넹", "웅", "그리고", "그래서", "근데", "이거",
    // Korean thanks and praise: thank you, perfect, nice, well done.
    "고마워", "고마워요", "고맙습니다", "감사", "감사합니다", "감사해요", "완벽해", "완벽해요",
    "좋네", "좋네요", "잘했어", "잘했어요", "수고했어", "수고했어요",
    // Russian: yes, no, OK, thanks, good, go on; try, test or run it
    // again ("протестируй еще раз", "запусти ещё раз").
    "да", "нет", "ок", "окей", "спасибо", "хорошо", "отлично", "супер", "понял", "поняла",
    "ясно", "давай", "дальше", "продолжай", "продолжи", "попробуй", "попробуйте", "протестируй",
    "запусти", "перезапусти", "еще", "ещё", "раз", "снова",
];

/// Verbs that open an instruction: a clause that starts with one (after
/// "ok", "now", "also", "please" and the like) asks the agent to act.
#[rustfmt::skip]
pub(super) const IMPERATIVES: &[&str] = &[
    "add", "adjust", "allow", "analyze", "analyse", "apply", "ask", "avoid", "build", "bump",
    "call", "change", "check", "choose", "clean", "clear", "close", "comment", "commit", "compare",
    "compile", "configure", "consider", "continue", "convert", "copy", "create", "debug",
    "decrease", "delegate", "define", "delete", "deploy", "describe", "design", "disable", "display", "do",
    "document", "download", "draft", "drop", "edit", "enable", "ensure", "exclude", "execute",
    "expand", "explain", "export", "extend", "extract", "fetch", "figure", "fill", "find",
    "finish", "fix", "focus", "follow", "format", "generate", "give", "go", "group", "handle",
    "hide", "highlight", "ignore", "implement", "import", "improve", "include", "increase",
    "inline", "insert", "install", "integrate", "investigate", "keep", "kill", "launch", "leave",
    "limit", "link", "lint", "list", "load", "log", "look", "lower", "make", "mark", "merge",
    "migrate", "mock", "modify", "move", "name", "note", "open", "optimize", "output", "pass",
    "paste", "pick", "pin", "plan", "point", "pose", "post", "prefer", "prepare", "print", "produce",
    "prioritize", "proceed", "propose", "prototype", "publish", "pull", "push", "put", "raise",
    "read", "rebase", "rebuild", "record", "reduce", "refactor", "refer", "reference", "release",
    "reload", "remember", "remove", "rename", "render", "reorder", "replace", "reply", "report",
    "respond", "redirect",
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
    "arbeite", "teile", "achte", "sorge", "bleibe", "vermeide", "beachte", "plane", "dokumentiere",
    "erweitere", "optimiere", "vereinfache", "ersetze", "wiederhole", "überarbeite", "zerlege",
    "bearbeite", "antworte", "erzeuge", "generiere", "sammle", "trenne", "priorisiere", "setze",
    "entwickle", "gestalte", "verbessere", "liefere", "bereite", "kommuniziere", "formuliere",
    "pflege", "schiebe", "trage", "übernimm", "räume", "verlinke", "verknüpfe", "ordne",
    "sortiere", "packe", "vergiss",
    // Portuguese, Spanish and French instructions.
    "faça", "faca", "crie", "adicione", "remova", "use", "mude", "altere", "corrija", "ajuste",
    "implemente", "atualize", "coloque", "deixe", "mantenha", "verifique", "teste", "rode",
    "execute", "mova", "renomeie", "delete", "apague", "feche", "abra", "envie", "suba", "mostre",
    "gere", "escreva", "leia", "siga", "troque", "substitua", "inclua", "garanta", "revise",
    "aguarde", "espere", "pesquise", "busque", "melhore",
    "fais", "crée", "ajoute", "supprime", "utilise", "change", "mets", "laisse",
    "garde", "vérifie", "teste", "exécute", "déplace", "renomme", "ferme", "ouvre", "envoie",
    "montre", "génère", "écris", "lis", "suis", "remplace", "lance", "relance", "commence",
    "attends", "regarde", "implémente", "décide", "homogénéise", "essaie", "essaye", "refais",
    "reprends", "prends", "enlève", "retire", "nettoie", "documente", "explique",
    "installe", "optimise", "simplifie", "déploie", "intègre", "affiche", "réalise", "realize",
    "produis", "construis", "traduis", "réduis", "rédige", "formalise", "identifie", "résume",
    "prépare", "calcule", "remets", "rends", "transforme", "convertis", "rajoute", "insère",
    "efface", "évite", "enregistre", "publie", "exporte", "importe", "connecte", "désactive",
    "modifie", "relis", "reformule", "détaille",
    "adiciona", "cria", "coloca", "deixa", "tira", "roda", "testa", "ajusta",
    "atualiza", "muda", "troca", "arruma", "conserta", "atente", "cuide", "faz", "salva", "guarda",
    "cria", "termina", "segue", "publica", "sobe", "tenta", "analisa", "lista", "documenta",
    "descubra", "veja", "analise", "investigue", "refaça", "refaca", "confira", "otimize",
    "resolva", "limpe", "instale", "reinicie", "pense", "considere", "piensa", "considera",
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
    "réécrire", "éliminer", "tronquer", "trouver", "identifier", "ouvrir", "lister", "relire",
    "récupérer", "insérer", "copier", "réactiver", "forcer", "limiter", "générer", "migrer",
    "transformer", "sauvegarder", "publier", "reprendre", "vider", "purger", "filtrer",
    "archiver", "rediriger", "renvoyer", "stocker",
    // Indonesian instructions: the verb's root, and the form with -kan or
    // -i that asks it of someone.
    "buat", "buatkan", "tambah", "tambahkan", "tampilkan", "ubah", "ganti", "hapus", "perbaiki",
    "cek", "periksa", "coba", "lihat", "baca", "simpan", "kirim", "jalankan", "gunakan", "pakai",
    "pastikan", "masukkan", "hilangkan", "pindahkan", "rapikan", "sesuaikan", "padukan", "kasih",
    "berikan", "jelaskan", "tulis", "tuliskan", "bikin", "bikinkan", "redesain", "desain",
    "bantu", "hitung", "ambil", "cari", "catat", "ingat", "atur", "isi", "susun", "rangkum",
    "bikinin", "tulisin", "cariin", "benerin", "kerjain",
    // Russian instructions, familiar and polite.
    "сделай", "сделайте", "добавь", "добавьте", "удали", "удалите", "убери", "уберите",
    "проверь", "проверьте", "исправь", "исправьте", "поправь", "поправьте", "протестируй",
    "протестируйте", "запусти", "запустите", "напиши", "напишите", "покажи", "покажите",
    "создай", "создайте", "используй", "используйте", "обнови", "обновите", "измени",
    "измените", "замени", "замените", "перепиши", "перепишите", "установи", "установите",
    "найди", "найдите", "реализуй", "реализуйте", "продолжай", "продолжи", "открой", "верни",
    "оставь", "посмотри", "посмотрите", "объясни", "переделай", "подключи", "настрой",
    "настройте", "займись", "сохрани", "сохраните", "перенеси", "вынеси", "переименуй",
    "закоммить", "запушь", "собери", "почини", "опиши", "составь", "подготовь", "изучи",
    "проанализируй", "поменяй", "сравни", "учти", "учитывай", "помоги", "отправь", "скачай",
    "выведи", "делай", "пиши", "разберись", "прочитай", "прочти", "запомни", "уточни",
];

/// Spanish instructions, familiar and formal: the forms a pronoun is
/// written onto ("pásalo", "asegúrate", "mantente"; see
/// [`SPANISH_PRONOUNS`]). Left out are those one letter from a common word
/// that asks nothing ("inicia" of "inicio", "activa" of "active", "limita"
/// of "límite", "trabaja" of "trabajo"), and "explica", which asks to be
/// told.
#[rustfmt::skip]
pub(super) const SPANISH: &[&str] = &[
    "haz", "crea", "añade", "agrega", "elimina", "quita", "usa", "cambia", "corrige", "actualiza",
    "pon", "deja", "mantén", "verifica", "prueba", "ejecuta", "mueve", "renombra", "borra",
    "cierra", "abre", "envía", "muestra", "genera", "escribe", "lee", "sigue", "reemplaza",
    "realiza", "asigna", "aplica", "vigila", "convierte", "reintenta", "evalúa", "revisa",
    "analiza", "implementa", "integra", "configura", "documenta", "prepara", "continúa",
    "investiga", "busca", "ajusta", "guarda", "instala", "despliega", "limpia", "arregla",
    "repara", "detén", "lanza", "arranca", "comprueba", "confirma", "traduce", "compila", "sube",
    "descarga", "pega", "desactiva", "habilita", "deshabilita", "establece", "incluye", "saca",
    "sustituye", "separa", "organiza", "filtra", "optimiza", "simplifica", "refactoriza",
    "completa", "finaliza", "avisa", "anota", "manda", "chequea", "checa", "testea", "compara",
    "asegura", "utiliza", "evita", "respeta", "enfoca", "centra", "concentra", "vuelve",
    "regresa", "deshaz", "rehaz", "revierte", "restaura", "recupera", "enseña", "aísla",
    "recuerda", "procede",
    // The formal forms.
    "haga", "agregue", "elimine", "cambie", "actualice", "ponga", "pruebe", "ejecute", "analice",
    "evite", "utilice", "escriba", "muestre", "asegure", "incluya", "añada", "reemplace",
    "genere", "deje",
];

/// Dutch verbs as an instruction opens with them, the verb's stem ("bouw
/// een website", "maak een init-script", "voeg tests toe"). Left out are
/// those that are common words of English or French at the head of a
/// sentence ("leg", "doe", "ga"; "pas", French for "not") and those English
/// lists already ("test", "start", "open").
#[rustfmt::skip]
pub(super) const DUTCH: &[&str] = &[
    "bouw", "maak", "voeg", "gebruik", "zorg", "schrijf", "verwijder", "zet", "controleer",
    "implementeer", "genereer", "lees", "geef", "toon", "houd", "kijk", "draai", "installeer",
    "vervang", "herschrijf", "splits", "sla", "stuur", "haal", "pak", "hernoem", "verplaats",
    "vul", "sluit", "bewaar", "probeer", "zoek", "analyseer", "documenteer", "optimaliseer",
    "configureer", "koppel", "ontwikkel", "ontwerp", "creëer", "herstel", "verbeter", "integreer",
    "vertaal", "laat", "werk", "verander", "wijzig",
];

/// Czech verbs as an instruction opens with them, in the imperative, with
/// their accents and as they are often typed without ("udělej" and
/// "udelej", "přidej" and "pridej").
#[rustfmt::skip]
pub(super) const CZECH: &[&str] = &[
    "udělej", "udelej", "přidej", "pridej", "oprav", "odstraň", "odstran", "použij", "pouzij",
    "vytvoř", "vytvor", "změň", "zmen", "nech", "zkontroluj", "napiš", "napis", "smaž", "smaz",
    "zobraz", "nastav", "spusť", "spust", "ulož", "uloz", "uprav", "zachovej", "přesuň", "presun",
    "doplň", "dopln", "vyřeš", "vyres", "zkus", "přelož", "preloz", "projdi", "podívej", "podivej",
    "pošli", "posli", "commitni", "pushni", "nahraj", "připrav", "priprav",
];

/// Polish verbs as an instruction opens with them, in the imperative, with
/// their accents and as they are often typed without.
#[rustfmt::skip]
pub(super) const POLISH: &[&str] = &[
    "dodaj", "zrób", "zrob", "usuń", "usun", "napraw", "użyj", "uzyj", "stwórz", "stworz",
    "zmień", "zmien", "sprawdź", "sprawdz", "napisz", "uruchom", "zapisz", "przenieś", "przenies",
    "popraw", "podaj", "pokaż", "pokaz", "przygotuj", "zaktualizuj", "opisz", "wyjaśnij",
];

/// Italian verbs that open an instruction, in the imperative the user
/// writes to the agent ("ricontrolla uno ad uno tutte le cose", "rinomina
/// il file"), and with the pronoun Italian writes onto it ("fammi un
/// report", "salvalo in plans/todo", "spostali in done").
#[rustfmt::skip]
pub(super) const ITALIAN: &[&str] = &[
    "fai", "fammi", "fallo", "falli", "crea", "aggiungi", "aggiungilo", "togli", "toglilo",
    "rimuovi", "rimuovilo", "elimina", "eliminalo", "cancella", "cancellalo", "usa", "usalo",
    "cambia", "correggi", "correggilo", "aggiorna", "aggiornalo", "metti", "mettilo", "lascia",
    "lascialo", "tieni", "verifica", "controlla", "ricontrolla", "prova", "esegui", "lancia",
    "sposta", "spostalo", "spostali", "rinomina", "rinominalo", "scrivi", "scrivilo", "leggi",
    "mostra", "mostrami", "dimmi", "dammi", "genera", "salva", "salvalo", "salvali", "installa",
    "configura", "sistema", "sistemalo", "implementa", "integra", "analizza", "cerca", "trova",
    "apri", "chiudi", "continua", "procedi", "ripristina", "riprova", "rifai", "ricrea",
    "documenta", "prepara", "pulisci", "semplifica", "ottimizza", "traduci", "inserisci",
    "sostituisci", "separa", "unisci", "pubblica", "committa", "pusha", "deploya", "testa",
    "valuta", "considera", "vedi", "guarda", "ricorda", "ricordati", "ricordatelo", "investiga",
    "approfondisci", "confronta", "stima", "calcola", "pianifica", "organizza", "spiega",
];

/// The pronouns Spanish writes onto an instruction's verb, longest first:
/// "pásalo" (pass it), "muéstrame" (show me), "asegúrate" (make sure).
pub(super) const SPANISH_PRONOUNS: &[&str] = &[
    "selos", "selas", "melo", "mela", "telo", "tela", "selo", "sela", "los", "las", "les", "nos",
    "lo", "la", "le", "me", "te", "se",
];

/// [`IMPERATIVES`] and [`SPANISH`] without their accents, as they are
/// often typed ("decider", "homogeneise", "evalua").
pub(super) static UNACCENTED: LazyLock<std::collections::HashSet<String>> = LazyLock::new(|| {
    IMPERATIVES
        .iter()
        .chain(SPANISH)
        .map(|verb| unaccented(verb))
        .collect()
});

/// [`SPANISH`] without its accents, with "pasa", which is an instruction
/// only with its pronoun ("pásalo"; "pasa que …" is "it happens that").
pub(super) static SPANISH_UNACCENTED: LazyLock<std::collections::HashSet<String>> =
    LazyLock::new(|| {
        SPANISH
            .iter()
            .chain(&["pasa"])
            .map(|verb| unaccented(verb))
            .collect()
    });

/// A word without its accents: "décider" is "decider".
pub(super) fn unaccented(word: &str) -> String {
    use unicode_normalization::{char::is_combining_mark, UnicodeNormalization};
    word.nfd().filter(|c| !is_combining_mark(*c)).collect()
}

/// Words that follow a verb used as an instruction ("call it", "add a").
#[rustfmt::skip]
pub(super) const OBJECTS: &[&str] = &[
    "it", "them", "this", "that", "these", "those", "the", "a", "an", "all", "some", "me", "us",
    "my", "our", "your", "up", "out", "off", "on", "in", "to", "with", "back", "down", "over",
    "any", "each", "every", "both", "more", "less", "everything", "anything",
];

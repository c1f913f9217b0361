//! The patterns a unit is read with: what asks something of the agent, what
//! asks only for information, what is spent as it is read, and what is
//! pasted rather than typed.

use super::*;

/// Compiles a constant pattern.
pub(super) fn pattern(source: &str) -> Pattern {
    // The patterns of this module are constants: they compile.
    #[allow(clippy::expect_used)]
    Pattern::new(&scripts(source)).expect("a constant pattern compiles")
}

/// Words that ask something of the agent wherever they stand: modals of
/// obligation, what makes a rule of a thing ("mandatory", "obligatoire"),
/// wishes, "please" (and French "stp", "svp"), Turkish "can
/// you" ("düzeltebilir misin"). These make even a sentence put as a
/// question bind ("should we drop it?"); the name the user gives the agent
/// ("your name is Ovo") binds as well. Spanish forbids with "no" and the
/// subjunctive ("no hagas más refactors"), and wants with "quiero que".
/// Vietnamese asks by the verb it opens with ("tóm tắt bài này nhé",
/// summarize this article; "bạn cần nghiên cứu…", you need to study…),
/// by "cần" (need) opening it, by "giúp anh" (for me) or "anh muốn" (I
/// want), "anh đang quan tâm đến" (I am interested in), and says "không
/// cần" (no need); what else asks in Vietnamese is [`VIETNAMESE_ASKS`].
/// Hindi typed in Latin letters asks with the verb's imperative after the
/// thing ("ye url add kro", "dekho", "hatao") and wants with "chahiye".
pub(super) static ASKS_OF: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(please|pls|plz|stp|svp|must|mustn't|should|mandatory|obligatoires?|obligatori[oa]s?|obrigat[óo]ri[oa]s?|obbligatori[oa]|verplicht|verpflichtend|(tu\s+peux|peux[\s-]tu|tu\s+pourrais|pourrais[\s-]tu|vous\s+pouvez|pouvez[\s-]vous|pourriez-vous|merci\s+de|je\s+veux|je\s+voudrais|j'aimerais)\s+\w+|shouldn't|shall|ought\s+to|needs?\s+to|(has|have)\s+to\s+be|\b(it|this|that|these|those|everything|(the|our|my|your|all|every|each)\s+[\w-]+(\s+[\w-]+)?)\s+(has|have)\s+to\s+([a-ce-z]\w*|d([a-np-z]\w*|o\w+))|(you|u)(\s+(have|got)|'ve\s+got)\s+to\b|needs\s+an?|want\s+(you|u)\b|i\s+(would\s+|'d\s+)?(only\s+|really\s+|just\s+|also\s+|actually\s+|still\s+|definitely\s+|do\s+)?(want|wanna|like|prefer|need)\b|(it'?s|it\s+is)\s+(totally\s+|perfectly\s+|also\s+)?(ok|okay|fine|alright|acceptable)\s+(if|to)\b|i\s+(suggest|propose|vote|recommend)\b|\b(proponho|sugiro|recomendo|propongo|sugiero|je\s+(propose|suggère|suggere|recommande)|ich\s+schlage\s+vor)\b|(i|we)\s+(don't|dont|do\s+not|won't|wont)\s+(really\s+|even\s+)?(want|need|like|care)\b|we\s+(\w+\s+)?want\b|\bwe\s+(are\s+|'re\s+)?(using|use)\s+\w+|(i'm|i\s+am|we're|we\s+are)\s+(trying|aiming|planning)\s+to\b|(i'm|im|i\s+am|we're|we\s+are)\s+(really\s+|just\s+|mainly\s+|mostly\s+|actually\s+)?looking\s+for\b|we\s+(can't|cant|cannot|can\s+not)\s+(do|use|touch|afford|go\s+with|rely\s+on)\b|\b(the|our|my)\s+((real|main|overall|end|ultimate|whole|primary|actual|only|big|bigger|biggest|final|long[\s-]term|short[\s-]term)\s+)?(goal|idea|aim|objective|intent|intention|purpose)\s+((of\s+\w+|here)\s+)?(is|was)\b|part\s+of\s+the\s+goal|\b(your|ur)\s+name\s+(is|will\s+be|shall\s+be)\b|\b(your|ta|ton|votre|deine?|tu|su|sua)\s+((main|real|only|first)\s+)?(task|mission|job|role|goal|objective|tâche|rôle|objectif|aufgabe|ziel|tarea|tarefa|missão|misión|objetivo)\s+(now\s+|here\s+)?(is|est|ist|es|é)\b|^\W*(act\s+as|act[uú]a\s+como|at[uú]e\s+como|aja\s+como|agis\s+(comme|en\s+tant\s+que)|agissez\s+(comme|en\s+tant\s+que)|agiere\s+als|handle\s+als)\b|\b(can|could)\s+just\s+\w+|i\s+(would\s+|'d\s+)?(expect|expected)\b|(i'm|im|i\s+am)\s+expecting\s+you\b|(^|\b(and|but|also|so)\s+)(people|everyone|you\s+can)\s+call\s+me\b|^\W*((and|but|also|so|btw|fyi)[\s,]+)*(my|our)\s+(full\s+|real\s+|legal\s+|work\s+|personal\s+)?(name|email|e-mail|email\s+address|username|user\s+name|handle|phone\s+number|time\s*zone)\s+is\b|works\s+for\s+me|(i|we)\s+(only|always|never|mostly|mainly)\s+(use|run|deploy|target|support|build|test|work\s+(in|on|with))\b|(i'm|i\s+am)\s+leaning|i\s+meant\b|all\s+i\s+ask\b|(my|the)\s+(whole\s+)?point\s+is\b|(i'm|im|i\s+am)\s+(talking|speaking)\s+about\b|no\s+need\b|(we|you)\s+(don't|dont|do\s+not)\s+need\b|(you|u)\s+(don't|dont|do\s+not)\s+have\s+to\b|we\s+(\w+ly\s+|also\s+|still\s+)need\b|we\s+(could|can)\s+(\w+ly\s+|also\s+|just\s+|first\s+)?(use|define|add|make|move|drop|remove|keep|put|have|get\s+rid|start|set\s*up|implement|build|limit|go\s+with|try|skip|ignore)\b|i\s+thought\s+(we|the\s+plan|you|it\s+was|\w+\s+might)\b|\b(the\s+)?(best|right|better|simplest|cleanest|safest|preferred)\s+(approach|way|option|solution|fix|path|move)\s+(here\s+)?(is|would\s+be|will\s+be)\s+(to\s+)?\w+|the\s+rule\s+is\b|(you\s+have|there'?s|there\s+is|we\s+have)\s+(a|the|this)\s+rule\b|needing\s+to\b|needs\s+(the|this|these|that|its)\s+\w+|we('ll|\s+will)\s+(keep|stick|go\s+with|do|use|build|train|run|make|add|implement|deploy|ship|write|need)\b|i'd\s+(like|prefer|love)|would\s+(also\s+|really\s+)?be\s+(nice|great|good|better|cool|ideal)|nice\s+to\s+have|i\s+wonder\s+if|interested\s+in|let's|lets|make\s+sure|ensure|important|crucial|can\s+(you|yo)|could\s+(you|yo)|would\s+(you|yo)|will\s+(you|yo)|can\s+we|could\s+we|we\s+need|bitte|möchte|möchten|sollte|sollten|solltest|solltet|sollst|soll|sollen|muss|müssen|musst|müsst|müsste|müssten|müsstest|brauche|brauchen|benötige|benötigen|ich\s+will|(das|unser|mein)\s+(eigentliches\s+|wichtigstes\s+)?ziel\s+ist|wichtig|stelle\s+sicher|lass\s+uns|können\s+wir|^\W*((dann|jetzt|nun|also|ok)\s+)*\w+en\s+wir\b|kannst\s+du|könntest\s+du|würdest\s+du|wäre\s+mir|würden?\s+((ich|wir)\s+)?(\w+\s+)?gerne?|hätten?\s+((ich|wir)\s+)?gerne?|preciso|precisa|precisamos|precisam|tem\s+que|têm\s+que|deve|devem|devemos|deveria|deveriam|deveríamos|por\s+favor|lembrando|não\s+(pode|deve|quero)|sempre|nunca|moet|moeten|mag\s+niet|mogen\s+niet|graag|alsjeblieft|alstublieft|zorg\s+(er\s*voor\s+)?dat|ik\s+wil|we\s+willen|wij\s+willen|wil\s+je|kun\s+je|kan\s+je|kunt\s+u|nooit|altijd|per\s+favore|devi|dovresti|dobbiamo|dovremmo|devono|dovete|bisogna|(va|vanno)\s+(sempre\s+|prima\s+|anche\s+)?\w+(at|it|ut|tt|ss|st)[oaie]|voglio|vorrei|non\s+(fare|usare|toccare|cancellare|eliminare|cambiare|modificare|aggiungere|committare|pushare)|non\s+mi\s+fido|prosím|prosim|je\s+nutn[eé]|potřebuj[iu]|potrebuj[iu]|potřebovat|potrebovat|musí|musi|musíš|musis|musíme|musime|nesmí|nesmi|nesmíš|nesmis|chci|chtěl\s+bych|chtel\s+bych|můžeš|muzes|mohl\s+bys|bude\s+dobr[eé]|nezapomeň|nezapomen|proszę|prosze|musisz|musimy|trzeba|nie\s+wolno|chcę|potrzebuję|zawsze|nigdy|necesito|tiene\s+que|tienes\s+que|debe|deben|debes|debemos|debería|deberías|deberían|deberíamos|hay\s+que|siempre|jamás|il\s+faut|doit|doivent|dois|devons|devez|devrait|devrais|devraient|devriez|devrions|toujours|jamais|s'il\s+te\s+plaît|s'il\s+vous\s+plaît|tolong|harus|jangan|selalu|wajib|\w+(abilir|ebilir)\s+mi(sin|siniz)|mohon|perlu|lebih\s+suka|tetap|tetep|saya\s+(mau|ingin)|aku\s+(mau|ingin)|(você|voce|vc)\s+(vai|deve|precisa|tem\s+que)|vamos|solicito|hãy|không\s+được|khong\s+duoc|đừng|phải|không\s+cần|giúp\s+(anh|em|mình|tôi|tớ|chị)|(anh|mình|tôi|tớ|chị)\s+(muốn|cần)|(anh|mình|tôi|tớ|chị)\s+(đang\s+)?quan\s+tâm\s+(đến|tới)|^\W*((vậy|à|ừ|ok|oke|em|thì|ngoài\s+ra|đúng\s+rồi|bây\s+giờ|giờ|sau\s+đó|tiếp\s+theo)[\s,]+)*(bạn\s+)?(cần\s+|cứ\s+)?(tóm\s+tắt|thêm|chạy|dịch|xóa|xoá|dùng|tìm|đọc|gắn|cài|lưu|gửi|viết|sửa|tạo|kiểm\s+tra|cập\s+nhật|đổi|bỏ|thử|sử\s+dụng|mở|thực\s+hiện|chuyển|làm\s+theo|hỗ\s+trợ|triển\s+khai|cấu\s+hình|bổ\s+sung|nghiên\s+cứu|xuất|quay\s+(trở\s+)?lại|dọn\s+dẹp|chỉnh|tách|gộp|đẩy|dựa\s+vào)\s+\w+|^\W*((đúng\s+rồi|bây\s+giờ|giờ|sau\s+đó|vậy)[\s,]+)*(bạn\s+)?cần\s+\w+|quiero|quisiera|me\s+gustar[ií]a|prefiero|necesitas|necesitamos|quero|gostaria|prefiro|no\s+((te|me|lo|la|los|las|le|les|se)\s+)?(hagas|hagan|uses|usen|toques|toquen|borres|cambies|modifiques|elimines|agregues|añadas|pongas|dejes|olvides|inventes|asumas|ejecutes|subas|muevas|edites|rompas|quites|sigas|intentes|vuelvas|mezcles|publiques|env[ií]es|instales|actualices|reinicies)|нужно|надо|необходимо|должен|должна|должно|должны|следует|пожалуйста|нельзя|обязательно|хочу|хотелось\s+бы|давай|давайте|не\s+забудь|не\s+(трогай|меняй|удаляй|делай|используй|добавляй|пиши|запускай|пуш\w*|коммить\w*)|kro|karo|krdo|kardo|kar\s+do|kr\s+do|kijiye|kijie|kariye|karein|kren|dekho|samjho|samjo|batao|btao|bata\s+do|hatao|hata\s+do|lagao|laga\s+do|banao|bana\s+do|likho|bhejo|daalo|rakho|chahiye|chaiye|chahie)\b|(^|[,.;:]\s*)hay\s+\w+|\s(đi|di)\s*[.!]*$|(^\W*|[,.;:!]\s*|\b(and|so|then|but|also|now|ok)\s+)(you|u)\s+(may\s+|might\s+)?need\s+(to\s+)?[a-z]+|\b(can|could)\s+be\s+((a\s+)?(little|bit|lot|much)\s+)?(simplified|removed|smaller|bigger|larger|shorter|longer|cleaner|simpler|lighter|darker|brighter|thicker|thinner|wider|narrower|higher|lower|faster)\b",
    )
});

/// Words that ask something of the agent in Chinese, Japanese or Korean,
/// which write no spaces between words: "请", "需要", "不要", "直接", a
/// verb after "也", "都" or "再" ("…目录也删除", delete that folder too),
/// "把" after a path or a link, a verb after the name it acts on
/// ("ollama里的llama3删除"), a choice ("选择a", "方案B", "都要": both), "别" and
/// its verb ("人声别没了啊", don't lose the vocals), a permission
/// ("可以提交敏感信息", you may commit secrets), a
/// verb done "一下" (a little: "研究一下", look into it), a manner asked
/// for "一点" more ("你说话简短一点", speak more briefly), where to write
/// something ("设计文档输出到/home/…/docs"), "先放放" (put it
/// aside), the abilities the agent is given as its role ("你具备处理一切事务的
/// 能力", "还需具备每天主动学习…的能力": not a tool's, "这个库具备…能力"),
/// the way the user would like best ("最好是能接入ide", best if it can
/// plug into the IDE), "してください", "お願い", "よろしく", "しましょう" (let's), "しなく
/// ていい" (no need to), "해주세요", and the casual Japanese request that
/// ends on its verb's て-form ("このバッジを追加して", "ガイド書いて",
/// "心の支えになってね🙏"); what the user says they meant ("我是說可以添加在
/// rule 上", I mean it can be added to the rule) and a step the agent is
/// to take itself ("自己检查哪里做的不好", check yourself what went wrong) or
/// first of all ("主要修改claude v1", mainly change the Claude v1 design);
/// "查看" (look at) opening a clause ("查看docs文件夹的文件"), and a verb of
/// reading or checking asked to be done with care ("你认真的阅读", read it
/// carefully).
pub(super) static CJK_ASKS: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(^|[，。；：、,;:\s]|^\s*\d+[.．)）]\s*|之后|然后|那么|那|现在|接下来|并且|并|同时|也|都|再|全部|你就|速度|赶紧|赶快|马上|立刻|快点|(^|[，。；：、,;:\s])(自己|主要|重点|优先))(把|将|改用|采用|推荐|新建|安上|装上|切换(到|成|为|一下)|进行(一次|一下|[^中了])|备份(一下|一份|到|至|[^完好了成过])|用[^户途法量处于来]|参照|参考|发(送|给)?[^现生布展送给]|上网|查[^到看]|查看[^过過了到]|强制|换成|保存|记住|记录|分析|确认|检查|修改|修复|修正[^了过過完がはの。.]|添加|增加|新增|删除|去掉|实现|生成|创建|编写|整理|总结|梳理|优化|重构|运行|执行|部署|提交|更新|替换|移除|扮演|带我|帮助我|先|结合|实施|彻底|输出到|开始|继续|搜索|寻找|查找|测试|安装|接入|读完|阅读|调整|完善|补充|标记|拆分|合并|迁移|清理|清点|读取|使用[^说方率中情场]|归档|配置|启动|重启|停止|启用|禁用|回滚|注册|安排|调研|研究|制定|撰写|翻译|下载|上传|打开|关闭|解决|改进|改造|集成|写下|写入|写好|写进|写到|放到|重新|立即|插入|对比|列出|给出|画出|也可以|你(先|首先|重新|再|要|来|去|生成|帮|把|直接|现在|继续|看看)|注意|告诉我|就用)|[A-Za-z0-9/_-]把[^握]|(认真|仔细)(的|地)?(阅读|看|读|检查|分析|核对|审查|审阅)|(^|[，。；：,;:]\s*)(你|您)?还?(需|需要|要|应|应该|必须)?具备[^，。？?！!\n]{1,40}(能力|技能)|[A-Za-z0-9._:/-](删除|删掉|去掉|移除|卸载|安装|更新|升级|重启|下载)[了吧啊。！!]*\s*$|^\W*(我|就)?(选择|选)\s*[A-Za-z0-9一二三四五]|^\W*方案\s*[A-Za-z0-9一二三四五][。！!]*\s*$|^\W*(都要|全要|两个都要|全都要)[了吧啊。！!]*\s*$|别(没|丢|删|动|改|碰|忘|用|让|漏)|去除|^\W*(也)?可以(直接)?(提交|推送|上传|使用|用|删除|删|修改|改|添加|加|跳过|忽略|去掉|保留|重启|安装|覆盖|公开)[^吗嗎？?]*$|尽可能|尽量|放在|只(留|保留|做|用|改|问|回答)|一次只|(很|非常|最)重要|(就可以|就行|即可)[。！!]*\s*$|加(一个|上)|建议(你|把|在|将|先|再|用|使用|改|加|拆|保留|删除|统一|增加)|(并|并且)(确认|检查|修复|补充|更新|删除)|还要|要求|做(一份|一个|个|份)|(先|再)跑|跑(一下|一遍|一次)|跟我说|全部上|(^|[^主重需只不将快想还紧摘纲概觉像能会])要[^是么不求点素闻]|(自己|上网|去|再)(找|查|搜)|(找|查|搜|试试|改掉|删掉|过来)[吧啊呀]?[。！!]*\s*$|希望|交给你|我是说|我的意思是|我想(看到|看看|要|让|把|用|做|学|知道|了解|改|换|试|加|去|新建|创建|推送|备份|实现|增加)|我(更|比较|很|特别|还是|最|也)?(不)?喜欢|(不太|也不|并不)想|不走|不超过|请|需要|必须|一定要|应该|不要|不用|不需要|别再|务必|记得|确保|保证|只需|只要|直接|帮我|给我|调用|改成|改为|不能|禁止|我要|先不|要[左右居集对用改加去删换]|我希望|希望你|我想你|我想要|只能|我不想|不想要|我不希望|不做参考|告诉你|你可以自己|只有[^，。？?]{1,20}(可以|能)|使用中文|用中文|保持|保留|按照|[てで](ください|下さい)|お願い(します|したい|ね|な)?[。！!～~\p{So}]*\s*$|お願いしたい|よろしく(お願いします|ね)?[。！!～~\p{So}]*\s*$|(しよう|行こう|いこう|やろう|しましょう|行きましょう)[。！!～~\p{So}]*\s*$|なくて(いい|良い|大丈夫|結構)|[\p{Han}&&[^了过]]一下|[試试睇查改搵整做諗谂]吓|吖[。！!~～：:]*\s*$|我想(指定|設定|设定|改|用|搵|加)|(先)?放(一)?放|搁置|たい(です|と|な|ん|ので|けど|ね|。|$)|たくて|たくない|たくは|てほしい|て欲しい|てもらいたい|てもらえ(ます|る)|てもらって(いい|も)|ていただ(き|け)たい|しようと思|[がはも]欲しい|[がはも]ほしい|がいいです|でいいかな|方がいい|ほうがいい|しないで|必ず|べき|ないでください|[ぁ-んァ-ヶー一-龯](て|で)(ね|よ|ほしい|欲しい)?[。！!～~\p{So}]*\s*$|(输出|保存|存放|放|写|移动|复制|导出|上传|推送|提交|存)到\s*[/~A-Za-z]|(简短|简洁|具体|详细|清楚|清晰|仔细|认真|通俗|专业|正式|口语化|快|慢|短|简单|小|大|少|多)一?点[儿吧啊。！!，,]*\s*$|最好(是|能|要|用|别|不要|还是)|해\s*주세요|하지\s*마|반드시|해야|(해|해줘|줘|줘요|시켜|하자|보자|가자|해라|하세요|해봐|닫아|올려|만들어|고쳐|지워|바꿔|추가해|확인해|정리해)[.!~]*\s*$",
    )
});

/// A wish put in Portuguese, Spanish, French or Italian as English puts it
/// with "it would be good to" or "it is important that": "seria
/// importante termos um revisor" (it would matter that we had a
/// reviewer), "sería bueno", "ce serait mieux", "è importante che si possa
/// scegliere" (it matters that one can choose); and "see whether" asked
/// ("vedi se ha senso aggiornare", see whether it makes sense to update).
pub(super) static ROMANCE_WISH: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(seria|sería|serait|será|sarebbe)\s+(muito\s+|muy\s+|très\s+|mais\s+|más\s+|plus\s+|molto\s+|più\s+)?(importantes?|bom|boa|bueno|buena|bien|bem|bon|bonne|bello|bella|legal|ótimo|óptimo|ottimo|ideal|ideale|melhor|mejor|mieux|meglio|utile|interessante|interesante|intéressant|necessário|necesario|nécessaire|necessario|essencial|esencial|essentiel|essenziale|fundamental|fondamentale)\b|(^|[\s,;:])(è|é|es|est)\s+(molto\s+|muito\s+|muy\s+|très\s+)?(importante|important|fondamentale|fundamental|essenziale|essencial|esencial|essentiel|necessario|necessário|necesario|nécessaire)\s+(che|que|qu)\b|(^|[,;:]\s*|\b(e|ed|ma|poi|però)\s+)(vedi|guarda|verifica|controlla)\s+se\b",
    )
});

/// An instruction put in German as what "you" do, the verb before its
/// subject at the clause's start or after an adverb of when or where:
/// "Dort schiebst du den Ordner rein", "Dann erstellst du die Datei";
/// not a question ("Kannst du …?" is asked apart), nor what "you" are,
/// have or know ("Dann hast du ein Problem").
pub(super) static GERMAN_YOU_DO: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)(^\W*|[,;:]\s*|\b(und|dann|dort|da|danach|jetzt|nun|hier|zuerst|anschließend|außerdem|zusätzlich)\s+)(?<verb>\p{L}{2,}st)\s+du\b[^?\n]*$",
    )
});

/// What asks in Hebrew: a need or an obligation ("צריך להוסיף", one must
/// add; "חייב", must), a ban ("אסור", "אל תמחק", don't delete), a wish
/// ("אני רוצה", I want), "please" ("בבקשה", "נא ל…"), and the verbs a
/// request is put with in the future tense of the second person ("תוסיף",
/// add; "תעדכן", update).
pub(super) static HEBREW_ASKS: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(צריך|צריכה|צריכים|צריכות|חייב|חייבת|חייבים|אסור|בבקשה|אני\s+רוצה|הייתי\s+רוצה|(^|\s)אל\s+ת\S+|(^|\s)נא\s+ל\S+|(^|\s)ו?ת(וסיף|וסיפי|סיר|מחק|שנה|עדכן|בדוק|תקן|כתוב|צור|הוסיף)\b)",
    )
});

/// A step of a procedure the user lays out for the agent: "第二步，收集资料。"
/// (step two, gather the material), "步骤3：…", "Step 4: …", "Paso 2 -".
pub(super) static STEP: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(第\s*[一二三四五六七八九十百\d]+\s*步|步骤\s*[一二三四五六七八九十\d]+|(step|paso|passo|etapa|schritt|étape|шаг)\s*\d+\s*[:：.)\-—])",
    )
});

/// A step of a flow the user lays out, told by where it stands in the
/// sequence: "Then …", "After that …", "Danach werden Signale analysiert.",
/// "Die Antwort geht dann mit in die Bewertung ein." (the word within its
/// first few).
pub(super) static FLOW_STEP: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*([\w-]+\s+){0,5}(then|after\s+that|afterwards|next|finally|dann|danach|anschließend|anschliessend|nachdem|schließlich|schliesslich|puis|ensuite|enfin|luego|después|despues|finalmente|depois|em\s+seguida|poi|dopo|infine)\b",
    )
});

/// How a thing should be, in a word of wish or obligation: "so soll die
/// Oberfläche aussehen", "it should work like this", "ça doit marcher
/// comme ça".
pub(super) static SHOULD_BE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(should|must|needs?\s+to|has\s+to|soll|sollte|sollen|muss|müssen|doit|doivent|devrait|debe|debería|deberia|deve|deveria|dovrebbe)\b",
    )
});

/// A speaker who tells what they did or do ("then I clicked …", "danach
/// habe ich …"), or what happened ("then it crashed"): a story, not a
/// flow laid out.
pub(super) static TELLS_OWN: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(i|i'm|i've|we|we've|ich|wir|je|j'ai|nous|yo|eu|io|noi|was|were|did|didn't|had|happened|crashed|failed|broke|stopped|wurde|wurden|war|waren|hatte|était|fut|fue|foi|era)\b",
    )
});

/// A Chinese question that opens like an ask and asks something else:
/// whether it was done ("检查了吗？", "改过没有？"), whether the user is
/// to act ("需要我把页面点开吗"), or what a thing is ("你现在这个专考是考
/// 什么？", what does this exam of yours test now?).
pub(super) static NOT_ASKED: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"[了过][吗嗎么麼]|[了过]没有?|[了过]沒有?|^\W*(需要|要|该|应该|應該)我|是\p{Han}?什么[？?]?\s*$",
    )
});

/// A request put in Japanese as a question: "まとめてもらっていいですか？"
/// (could you sum it up?), "見ていただけますか" (would you look at it?).
pub(super) static JAPANESE_REQUEST: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"てもらって(いい|も)|てもらえ(ます|る|ない)|ていただけ(ます|ない|る)|てくれ(る|ない|ます)",
    )
});

/// A request put in Chinese as a question: "可不可以先去找一下有什么健身
/// skill？", "你可以总结出一个优化p4p的skill吗", "不能用 firebase 的服務嗎？"
/// (why not use Firebase's), "换一下不就行了？" (just swap them), "深蹲结束后
/// 练一下山羊挺身行不行？", "claude.md 不用指定遵守嗎？" (doesn't CLAUDE.md
/// need to say it is to be followed?).
pub(super) static CHINESE_REQUEST: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"可不可以|能不能|[你妳您](可以|能|能否|有(办|辦)法)|有没有办法|有沒有辦法|^\W*不(能|可以)[^，。？?]{2,}[吗嗎]|不(用|需要)[^，。？?]{2,}[吗嗎]|不就(好|行|可以)了|(行|好)不(行|好)[？?]*\s*$|麻(烦|煩)[你妳您]|^\W*要不(要|你|就)?|^\W*[你妳您](先|现在|現在|再|去|来|來)?(分析|列|看看|检查|檢查|排查|查一下|找|做|写|寫|改|整理|对比|對比)|[，,]\s*(好吧|好吗|好嗎|行吧|行吗|可以吗|可以嗎)[？?]*\s*$",
    )
});

/// A Japanese instruction written as notes are: closed by "こと" (what is
/// to be done: "作業用のworktreeを作成すること", not "…ということ", which
/// explains), by "なくてもok" (no need to: "工数は換算しなくてもok"), or by
/// the action's noun after what it acts on ("step2まで実施", carry out up
/// to step 2; "１０００のくらい以下を切り上げ", round up below the
/// thousands; "日本以外の場合はすべて英語表記", English everywhere outside
/// Japan). The nouns are also written as the words reach it simplified
/// ("表记" for "表記"); "最新の技術情報はcontext7を使って調査" (research the
/// latest with context7). And an order closed by the plain imperative
/// ("作業完了まで自律的にやれ", do it on your own until the work is done;
/// "テストを先に書け", "確認しろ"; "ごめんなさい" is no order).
pub(super) static JAPANESE_NOTE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"([^い]う|[^うい])こと[。！!]*\s*$|([しめけべせれえげびみきち見见]ろ|やれ|せよ|[^ん]なさい|[書书]け|使え|[読读]め|作れ|直せ|消せ|急げ|待て|行け)[。！!よ]*\s*$|なくても\s*(?i:ok|いい|良い|大丈夫|構わない)|[^\s。、]{2}\s*(修正|作成|削除|删除|追加|変更|变更|対応|对应|実施|实施|切り上げ|切り捨て|更新|統一|统一|反映|採番|采番|表記|表记|記載|记载|移動|移动|実装|实装|適用|适用|調査|调查|調查|调査|確認|确认|検討|検証|验证|導入|导入|採用|采用|設定|设定|分析|整理|改善)[。！!]*\s*$",
    )
});

/// A request put in Korean as a question or an order wherever it stands
/// in the sentence: "확인해볼래?" (will you check?), "확인해봐" (check), a
/// verb given to the agent to do for the user ("만들어줘봐", make some for
/// me; "선택지를 줘봐", give me options; "알려주세요"), a wish ("내가 봤으면
/// 좋겠음", I would like to see it; "보고 싶음", I want to see), a request
/// put as "would it not do if you …" ("숫자 넣어주면 안돼", put numbers in
/// front, won't you), "will you …?" ("다시 읽고 할래 ?"); or
/// written as notes are, a clause closed by the action's noun: "완료 후
/// 릴리스" (release once done), "이부분도 제거" (remove this part too),
/// "변경사항 전부 푸시" (push every change), "3개 증명 못하는 부분 보고"
/// (report the three parts that cannot be proved); a rule marked
/// required: "gogs 저장필수" (saving to gogs is a must); and a goal named
/// so: "프리랭으로 만들고 프리랭으로 실행 이게 목표임" (built and run in
/// FreeLang, that is the goal); asked as whether the agent can ("업로드
/// 대신해줄수있나?", could you upload it for me?), or told it is enough
/// ("이시트보면되고", looking at this sheet will do).
pub(super) static KOREAN_REQUEST: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(해|해\s*줄|해\s*볼|해\s*줘|해\s*주|줄|볼)래\s*\??\s*$|해봐|해줘|해주라|줘라|줘\s*봐|[어아여]\s*줘([요!~.?]|\s*$)|주세요|주십시오|면\s*좋겠|고\s*싶(다|음|어|어요|습니다|네요)|주면\s*안\s*(돼|되나|될까)|할래\s*\??\s*$|주고\s*[.!]*\s*$|필수|이게\s*목표(임|야|다|입니다)|(제거|추가|삭제|수정|변경|적용|구현|배포|릴리스|릴리즈|정리|생성|개선|반영|롤백|연동|분리|통합|이동|교체|대응|작성|설치|업데이트|리팩토링|테스트|저장|커밋|푸시|백업|보고|진행)\s*(\([^()]*\))?\s*[.!]*\s*$|지\s*(마(라|세요|십시오|요)?|말아(요|라)?)\s*[.!~]*\s*$|지\s*말고\s|(해|줄|주)\s*(수|순)\s*(있나|있어|있을까|있니|있나요|있어요|있습니까|있겠니|있겠어)|면\s*(돼|되고|됩니다|돼요|되요)([.!~]|\s|$)",
    )
});

/// A defect the user reports: what they see is wrong, and the fix is what
/// they ask ("the list view is not showing the columns", "the landmarks
/// are way too high", "still not working", "when you press no..nothing
/// happens either", "I have this error", "j'ai
/// cette erreur", "глобальная обработка ошибок отсутствует", "相手のじゃんけん
/// が表示されないよ").
pub(super) static DEFECT: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b((is|are|was|were)\s+not\s+\w+ing|(is|are|was|were)\s+(still\s+)?not\s+\w+(ible|able)|(isn't|isnt|aren't|arent|wasn't|wasnt)\s+(still\s+)?\w+(ible|able)|not\s+working|(doesn't|doesnt|does\s+not|don't|dont|didn't|didnt|isn't|isnt|aren't|arent|wasn't|wasnt|won't|can't|cant|cannot)\s+(work|show|load|render|display|appear|match|respond|compile|build|run|fit|align)\w*|(don't|dont|do\s+not|can't|cant|cannot)\s+see\s+(the|any|my|your)\s+(changes?|updates?|difference|fix|effect)|still\s+(not|broken|wrong|failing|shows?|showing|there|slow|crashing|crashes|missing|the\s+same|happening|hanging|freezing|flickering|visible)|broken|overlaps?|overlapping|overflows?|overflowing|flicker(s|ing)?|freezes|frozen|misaligned|(is|are|gets?)\s+cut\s+off|(way\s+)?too\s+(much|many|small|big|large|high|low|long|short|wide|narrow|dark|light|slow|fast)|(is|are|was|were|'re|'s|still|look|looks|seem|seems|get|gets|feel|feels)\s+(still\s+|way\s+|much\s+|a\s+bit\s+|a\s+little\s+)?too\s+\w+|to\s+much|(is|are)\s+wrong|in+c+or+ect(ly)?|not\s+correctly|(is|was|are|were)\s+not\s+good|isn't\s+good|not\s+good\s+enough|(is|are)\s+all\s+wrong|go(es)?\s+off\s+the|you\s+(always|keep)\s+\w+|não\s+(está|esta|estão|estao|tá|ta)\s+\w+ndo|não\s+(funciona|carrega|aparece|mostra|salva|consigo|consegui)|está\s+dando\s+(erro|error|missing)|no\s+(está|están)\s+\w+ndo|no\s+(se\s+)?(le\s+|me\s+|les\s+)?(funciona|carga|aparece|muestra|guarda|devuelve|responde)|funktioniert\s+(nicht|noch\s+nicht|immer\s+noch\s+nicht)|geht\s+(nicht|immer\s+noch\s+nicht)|(fonctionne|marche|s'affiche|charge)\s+pas|ne\s+(fonctionne|marche|s'affiche|charge|s'ouvre)\s+(pas|plus))\b|\bi\s+(can't|cant|cannot|can\s+not|am\s+unable\s+to|'m\s+unable\s+to|am\s+not\s+able\s+to|'m\s+not\s+able\s+to)\s+\w+|\b(an?\s+)?error\s+(is\s+)?(coming|showing|appearing|popping|occurs|occurring|happens|happening)|\bgetting\s+(an?\s+)?error|\bi\s+(have|got|get|see|am\s+seeing|'m\s+seeing)\s+(this|these|an?|the\s+following)\s+(errors?|issues?|problems?|bugs?|exceptions?)\b|\bj'ai\s+(encore\s+)?(cette|une|un|des|ces|ce|le|la|les)\s+(erreurs?|probl[eè]mes?|bugs?|soucis?)\b|^\W*((i'm|im|i\s+am|we're|we\s+are)\s+)?(still\s+)?getting\s+[\x22“`']|\b(i|we)\s+(lost|lose|broke)\s+(the|my|our|all)\b|\b(is|are)\s+throwing\s+(an?\s+)?(\w+\s+){0,2}(errors?|exceptions?)|\b(it|this|that|the\s+\w+)\s+(doesn't|doesnt|doenst|dosent|does\s+not)\s+need\b|\bthere(\s+is|\s+are|\s*'s)\s+(still\s+)?(a\s+|an\s+|some\s+)?(bug|problem|issue|error)s?\b|\b(one\s+more|another|(i|we)\s+(found|have|got|see|noticed)\s+(a|an|one|two|three|four|\d+|some|several|more|other))\s+(new\s+|more\s+|other\s+)?(bug|problem|issue|error)s?\b|\bfail(s|ed|ing)?\s+(to\s+\w+|saying|with)\b|\b(still\s+)?(has|have|with)\s+(some\s+)?errors?\b|\byou\s+(didn't|did\s+not|haven't|have\s+not|forgot(\s+to)?|never)\s+\w+|\byou\s+(broke|broken|deleted|removed|overwrote|reverted)\s+(the|my|our|all|it|this|that|everything)\b|^\W*((still|again)\s+)?(the\s+)?same\s+(error|issue|problem|bug|result|behaviou?r|crash|failure)\b|\b(parou(\s+de\s+funcionar)?|(está|esta|estão|estao)\s+(dando|com)\s+erro|dando\s+erro|não\s+é\s+possível|nao\s+e\s+possivel|not\s+found|errad[oa]s?|em\s+branco)\b|你(都|也|还|又|根本)?没(有)?(提醒|告诉|说|给|做|写|记|加|改|用|按|问)|你(咋|怎么|为什么|为啥)(不|没)|你每次都(只|不|没)|没有找到|没找到|找不到|没有(这个|该)|不显示|显示不出|打不开|不能用|用不了|报错|出错|不起作用|没反应|看不到|看不见|都没有|丢失|重复显示|缺失|表示されない|表示されません|動かない|動きません|動作しない|反映されない|止まった|止まってしまう|効かない|壊れた|(?i)\b(не\s+(работает|работают|отображается|отображаются|показывает|показываются|грузится|загружается|сохраняется|реализован[оаы]?|выполнен[оаы]?|учитывается|учитываются|обрабатывается|обрабатываются|срабатывает)|отсутству(ет|ют)|сломал(ось|ся|ась|ись|и)?)\b|(?i)\b(was\s+not|were\s+not|wasn't|weren't|has\s+not\s+been|hasn't\s+been|have\s+not\s+been|haven't\s+been)\s+(updated|saved|created|changed|fixed|applied|committed|pushed|deployed|removed|deleted|added|installed|generated|documented)\b|\bnão\s+(foi|foram)\s+(atualizad|salv|criad|alterad|corrigid|aplicad|enviad|removid|adicionad|instalad|gerad|documentad)[oa]s?\b|\bnão\s+tem\s+atualiza|\b(after|when|once|but|then)\b([^.!?\n]|\.{2,}){0,80}?\bnothing\s+(happened|happens|changed|changes|shows|showed|appears|appeared|loads|loaded)\b|\bno\s+(se\s+)?(ha|han|fue|fueron)\s+(sido\s+)?(actualizad|guardad|cread|cambiad|corregid|aplicad|añadid|agregad|eliminad|instalad)[oa]s?\b",
    )
});

/// A ban or a rule for always, at the start of a clause: "don't …",
/// "never …", "always …", "no console logs".
pub(super) static BAN: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^(don't|dont|do\s+not|never|always|avoid|no\s+more|only|instead|nicht\s+mehr|niemals|nie|immer|kein|keine|nur|sem|sin|sans|ohne|apenas|somente|solo|seulement)\b",
    )
});

/// What the user does not grasp, typed without its "I" ("don't understand
/// the second state", "dont know why it fails"): their own state, no ban.
pub(super) static OWN_STATE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(don't|dont|do\s+not)\s+(really\s+|quite\s+|fully\s+)?(understand|know|remember|recall|recogni[sz]e|get\s+(it|this|that|why|how|what)\b)",
    )
});

/// A short ban standing alone ("no deprecation alias!"), or an activity
/// banned before more ("no hallucinating and minimal waste of tokens").
pub(super) static PROHIBITION: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*no\s+[\w-]+(\s+[\w-]+){0,2}\s*[!.]*\s*$|^\W*no\s+[a-z]{2,}ing(\s+(and|or)\b|\s*[,;])",
    )
});

/// A goal or a rule the user states under its label ("Objective: fixing
/// the master controller", "Goal: cut the build to a minute", "目标：…",
/// "Constraint: no new dependencies", "Rule: tabs, not spaces"), the
/// label in bold or not ("**Principe** : PAS de LLM pour décider qui
/// travaille"), and a decision under its own ("Décision validée : Option
/// B — nettoyer et renommer").
pub(super) static GOAL_LABEL: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(objective|goal|task|aim|mission|objectif|tâche|ziel|aufgabe|objetivo|tarea|tarefa|目标|任务|目的|constraints?|requirements?|restrictions?|rules?|deadline|regras?|reglas?|règles?|regeln?|vorgaben?|anforderungen?|principles?|principes?|principios?|princípios?|prinzip(ien)?|decisions?|décisions?|decis(ión|ao|ão)|entscheidung|决定|决策|原则)(\s+(valid[ée]e|prise|finale?|made|taken|tomada|tomada))?[*_]*\s*[:：]\s*\S",
    )
});

/// A French ban, written as a to-do is, with an infinitive ("Ne pas
/// casser le flux existant", "Surtout pas de migration"), or told ("Ne
/// touche pas au dossier", "N'utilise jamais npm", opening the sentence
/// with the verb as the imperative writes it); and a Portuguese one
/// ("Não altere o schema", "não mexa no CSS").
pub(super) static FRENCH_BAN: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(ne\s+|n['’])\w*(e|es|ez|s|x)\s+(pas|jamais|plus|rien)\b|(^\W*|,\s*)(ne\s+(pas|jamais|plus|rien)\s+\w+|surtout\s+(pas|ne)|interdit\s+de|n[ãa]o\s+(altere|mude|apague|use|utilize|toque|remova|mexa|fa[çc]a|crie|delete|modifique|edite|adicione|instale|suba|publique|quebre|esque[çc]a|deixe|coloque|rode|execute|substitua|troque|renomeie|mova|exclua|implemente|invente|mostre|escreva|commite|comite|envie|gere|inclua|reescreva|duplique|ignore|pule|pare|toque))\b",
    )
});

/// What a clause may open with before its instruction: interjections,
/// linking words ("ok, now also run it", "depois revise o plano", then
/// revise the plan), a hedge ("maybe instead 'cd' use 'pushd'"), the step
/// it comes after ("after finishing please check for compiling success",
/// "once done, push"), the time from which it holds
/// ("from now on respond in Spanish", "going forward, use tabs"), what
/// it works from ("From this create a skill", "based on that, draft the
/// email"), and the agent called by its name, with or without a comma
/// ("claude fix the tests", "jarvis fasse die Ergebnisse zusammen").
pub(super) static LEAD: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^(\W*(ok|okay|alright|maybe|perhaps|claude|codex|gemini|chatgpt|copilot|jarvis|hey|all\s+right|ah|oh|so|and|but|also|now|for\s+now|then|next|first|depois|em\s+seguida|después|despues|luego|danach|dopo|one\s+(more\s+)?thing|(after|when|once)\s+(finishing|completing|done|finished|completed|(that|this|it)(\s+is|\s+was|\s*'s)?(\s+done|\s+finished)?|you(\s+are|\s*'re|\s+have|\s*'ve)?\s+(done|finished|completed))|btw|fuck(\s+me)?|ffs|wtf|omg|ugh|dude|bro|man|jeez|actually|well|hmm|great|good|nice|perfect|cool|thanks|thank\s+you|yes|yeah|yep|no|nope|sure|right|just|finally|again|pls|please|only|double|triple|ja|nein|gut|super|danke|und|dann|jetzt|also|bitte|oke|oke\s+deh|sip|lalu|terus|trus|sekarang|dan|oia|o\s+iya|oh\s+iya|iya|ya|deh|nah|jadi|kamu|km|kmu|vale|bueno|correcto|correcta|perfecto|listo|genial|bien|exacto|claro|sí|dale|perfeito|certo|beleza|ótimo|otimo|exatamente|parfait|génial|ahora|agora|então|entao|se\s+sim|se\s+n[ãa]o|bon|alors|puis|ensuite|enfin|et|e|ed|ma|poi|allora|quindi|invece|anche|adesso|ora|infine|perfetto|bene|ок|окей|хорошо|ладно|теперь|сейчас|потом|затем|также|так\s+же|ещё|еще|и|а|otherwise|else|if\s+so|in\s+that\s+case|ultrathink|megathink|think\s+(very\s+)?hard(er)?|wait\s*[,!.]+\s*|from\s+now\s+on|going\s+forward|moving\s+forward|from\s+here\s+on(\s+out)?|henceforth|ab\s+jetzt|von\s+nun\s+an|à\s+partir\s+de\s+maintenant|de\s+ahora\s+en\s+adelante|a\s+partir\s+de\s+agora|daqui\s+(pra|para)\s+frente|\d+[.)]|[a-h]\s+but|(from|based\s+on|using|with|given)\s+(this|that|these|those|it|them)(\s+in\s+mind)?)\b[\s,.!:-]*)+",
    )
});

/// How a request is put as a question: it binds ("can you …", "puedes …",
/// "puoi …", "bạn có thể …", "можешь …", "czy możesz …").
pub(super) static REQUEST_FORM: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((can|could|would|will|won't|wouldn't|shall)\s+(you\w?|u|we|ya)\b|(why\s+(don't|dont|not)|how\s+about|what\s+about|mind\s|do\s+you\s+mind|is\s+it\s+possible\s+to|would\s+it\s+be\s+possible|can\s+(there|it|this|that)\s+be|is\s+there\s+(a|any)\s+way\s+to|(tem|há)\s+(algo|algum\s+jeito|como)|d[áa]\s+(pra|para)|(é|seria)\s+poss[íi]vel|(voc[êe]\s+)?(consegue|poderia)\s+\w+|(voc[êe]\s+)?pode\s+(me\s+|nos\s+)?(fazer|limpar|clonar|criar|usar|remover|apagar|deletar|mudar|alterar|colocar|adicionar|seguir|continuar|rodar|testar|verificar|chamar|ajustar|atualizar|salvar|enviar|mandar|deixar|tirar|instalar|subir|ler|escrever|gerar|corrigir|implementar|organizar|juntar|trocar|ir|guardar|registrar|anotar|lembrar)\b|(puedes|podr[íi]as|se\s+puede)\s+\w+|(puoi|potresti|potete|potreste)\s+\w+|(bạn|em|anh|chị|cậu)\s+có\s+thể\s+\w+|(можешь|можете|сможешь|сможете|не\s+мог(ла|ли)?\s+бы)\s+\w+|(czy\s+)?(możesz|mozesz|możecie|mógłbyś|moglbys|mogłabyś)\s+\w+|hay\s+(algo|alguna\s+forma|alguna\s+manera)|can't|cant|cannot|couldn't|couldnt|(kann|könnte|kannst|könntest)\s+\w+\s+(mir|uns)|(kann|könnte)\s+(mir|uns))\b)",
    )
});

/// A statement put up for confirmation: "…, thoughts?", "…, correct?",
/// "…, any reason not to?", "… tu vois ?" (you see?). What binds is the
/// statement before it.
pub(super) static TAG: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)[,;:]\s*(thoughts|correct|right|no|agreed?|ok|okay|yes|make\s+sense|makes\s+sense|sounds?\s+good|any\s*reason\s+not\s+to|wdyt|what\s+do\s+you\s+think|objections?)\s*\?+\W*$|[,\s]\s*(tu\s+vois|vous\s+voyez|d'accord|n'est-ce\s+pas|tu\s+comprends|verstehst\s+du|weißt\s+du|sabe|entende|entiendes)\s*\?+\W*$",
    )
});

/// A question asking the agent for advice about what the user should do:
/// "Should I add it to my path?", and whether there is something the user
/// is to do ("…, and if not is there an experiment I should run?", "is
/// there anything I need to change?").
pub(super) static ASKS_ADVICE: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(should|shall|do|can|must)\s+i\b|\b(is|are)\s+there\s+(a|an|any|anything|something|some)\b[^?,;.]*\bi\s+(should|shall|need\s+to|must|have\s+to|ought\s+to)\b",
    )
});

/// What asks in Vietnamese wherever it stands: "nên" (should) before a
/// verb ("các kr nên có kr con", the key results should have their own),
/// "cho tôi" (for me) closing it ("dựa vào đây viết cho tôi", write it
/// for me from this), and the particle "nhé" closing it ("đúng rồi chi
/// tiết vào nhé", right, go into detail) — unless it says what the user
/// will do ([`VIETNAMESE_OWN`]).
pub(super) static VIETNAMESE_ASKS: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\bnên\s+(có|tạo|là|dùng|làm|viết|thêm|bỏ|chia|tách|gộp|đặt|để|sử\s+dụng|chuyển)\b|\b(cho|giùm|hộ)\s+(tôi|mình|em|anh|chị|tớ)(\s+(review|xem|với|luôn))?(\s+(nhé|nha))?\W*$|\s(nhé|nha|nhe)\W*$",
    )
});

/// What asks in Thai, which writes no space between words: a clause that
/// opens with the verb of an instruction ("เขียนโค้ด module 1", write the
/// code of module 1; "สร้างระบบ ERP", build an ERP system; "ให้ sub-agent …
/// ทำ", have a sub-agent do …; "ช่วย…", please), or one that says "must"
/// ("ต้อง"), "no need to" ("ไม่ต้อง"), "don't" ("อย่า"), "forbidden"
/// ("ห้าม"), or closes on "for me, please" ("…ให้หน่อย", "…ด้วยนะ"). ("ทำไม"
/// is "why", "ทำงาน" "it works", "ใช้ได้" "it can be used", "ขอบคุณ" "thank
/// you": no instruction.)
pub(super) static THAI_ASKS: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(^|\s)(ช่วย|กรุณา|โปรด|ขอ([^บ]|$)|ลอง|เขียน|สร้าง|ทำ([^ไง]|$)|ให้|ทดสอบ|แก้|เพิ่ม|ลบ|เปลี่ยน|ใช้([^ด]|$)|ส่ง|รัน|ติดตั้ง|อัปเดต|อัพเดท|ตรวจสอบ|สรุป|วิเคราะห์|ออกแบบ|เอา|จัด)|ต้อง|อย่า|ห้าม|หน่อย\W*$|ด้วย(นะ)?(ครับ|ค่ะ|คะ)?\W*$",
    )
});

/// What the user says they will do themselves, in Vietnamese ("để anh
/// kiểm tra lại nhé", let me check it again), or asks whether to do ("anh
/// có nên tạo…", should I create…).
pub(super) static VIETNAMESE_OWN: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"(?i)\bđể\s+(anh|em|mình|tôi|tớ)\s|\bcó\s+nên\b"));

/// A suggestion put as a question ("maybe by doing lines on the left
/// side?"), or put in the negative ("…, can't we get that from the
/// settings manager?", "why don't you read it in one go?").
pub(super) static SUGGESTION: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(maybe|perhaps|how\s+about|wouldn't\s+it\s+be)\b|(^|[,;:]\s)\W*((can['’]?t|cannot|couldn['’]?t|shouldn['’]?t)\s+(we|you|it|this|that)|why\s+(don['’]?t|wouldn['’]?t)\s+(we|you))\b",
    )
});

/// An ask with its subject left out, as people write in a hurry or in a
/// second language: "…/project_tab_ordering.xml, can try to sort in this
/// order …", "…, can be updated instead?". A modal opens the sentence or
/// the clause after a comma, with no one named to do it ("could be caused
/// by the cache" guesses, and is not this).
pub(super) static SUBJECTLESS_ASK: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"(?i)(^|[,;:]\s)\W*(can\s+be\s+\w+ed|(can|could)\s+try)\b"));

/// An Indonesian question for information, which puts its question word
/// last ("kamu sekarang pakai model apa": which model are you using now),
/// and a Vietnamese one, which puts it last or closes on a particle after
/// it ("chạy local vs chạy github action khác gì nhau", "thì phải làm
/// sao", "em thêm tag gì cho nó vậy"), and a Thai one, closed by its
/// particle or question word ("…ไหม", "…อะไรบ้าง", "…ยังไง") or opened by
/// "ทำไม" (why).
pub(super) static ASKED_LAST: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b(apa|gimana|bagaimana|berapa|siapa|kapan)(\s+(saja|aja|sih|ya))?\W*$|\b(gì|sao|thế\s+nào|đâu|bao\s+nhiêu)((\s+(vậy|thế|nhau|nhỉ|ạ|em|anh|chị|hả|à))*|(\s+\S+){1,3}\s+(vậy|thế|nhỉ|hả|à))\W*$|(ไหม|มั้ย|มั๊ย|หรอ|เหรอ|หรือเปล่า|หรือยัง|ป่าว|ไหน|อะไร(บ้าง)?|ยังไง|อย่างไร|ยัง)(ครับ|ค่ะ|คะ|นะ)?\W*$|^\W*ทำไม",
    )
});

/// How a question for information opens, with or without its `?`.
pub(super) static QUESTION_FORM: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((anything|something)\s+else\b|(what|why|how|where|when|which|who|whose)('s|\s+(is|are|was|were|do|does|did|can|could|would|should|will|has|have|had|the|we|you|i|it|its|this|that|about|much|many|long|come|exactly|else))\b|(is|are|was|were|do|does|did|has|have|had)\s+(it|we|you|they|there|their|this|that|the|i|he|she)\b|(will|would|can|could)\s+(the|these|those|they|he|she)\b|(was|wie|warum|wo|wann|welche[rsn]?|gibt\s+es)\b|(apa|apakah|gimana|bagaimana|berapa|kenapa|mengapa|siapa|kapan)\b)",
    )
});

/// How a question for information opens: a question word, in English,
/// German, Portuguese or Spanish ("which", "where", "em qual", "onde").
pub(super) static ASKS_WHICH: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((like|so|and|ok|okay|then)[\s,]+)?(what|which|where|when|who|whose|how\s+(many|much|long|often|does|do|did|is|are|was|were)|why\s+(did|do|does)\s+we|why\s+(is|are|was|were)|welche[rsn]?|wo|wann|wer|em\s+qu(e|al)|qual|quais|onde|quando|quem|cuál|cuáles|dónde|cuándo|quién|qué)\b",
    )
});

/// A request to be told something, put as an instruction: "explain to me
/// what the out of scope items are", "tell me what happens currently",
/// "can you summarize where the PR is", "check your config and tell me
/// which models are the default" (what to look at, then what to tell),
/// "give me the command to run it", "I want to understand how it works",
/// "vorrei capire cosa è" (I'd like to understand what it is),
/// "今日の予定教えて" (tell me today's schedule). It asks for information,
/// as a question does; nothing of it binds once answered.
pub(super) static ASKS_TO_BE_TOLD: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|so|now|and|then|but)[\s,]+)*(((check|look\s+at)\s+[^.!?\n]*?\s+and\s+)?((can|could|would|will)\s+(you|u)\s+)?(please\s+)?((explain|describe|summarize|summarise)\s+((to\s+)?(me|us)\s+)?|(tell|show|remind)\s+(me|us)\s+)(\w+ly\s+)?(what|why|how|where|when|which|who|whether|if)\b|((tell|talk\s+to)\s+(me|us)\s+(a\s+bit\s+|more\s+)?about|(summarize|summarise)\s+(my|our)|help\s+(me|us)\s+(think|understand|decide|figure\s+out|come\s+up\s+with|brainstorm)|(i|we)\s+need\s+(some\s+)?help\s+(on|with|in|deciding|figuring\s+out)\s+(what|which|how|whether)|walk\s+(me|us)\s+through|give\s+(me|us)\s+(the|a|an|some)\s+([\w-]+\s+){0,3}(command|commands|steps|instructions|example|examples|link|url|overview|explanation|rundown)\b|(i\s+)?(want|need|would\s+like|'d\s+like)\s+to\s+(understand|know|hear|learn)\s+(more|what|why|how|where|when|which|who|whether|if)|give\s+(me|us)\s+more\s+(details?|info|information|context)|(il\s+faut\s+)?me\s+donner\s+plus\s+de\s+d[ée]tails|donne(z)?-moi\s+plus\s+de\s+d[ée]tails|(vorrei|voglio)\s+(capire|sapere)|(quiero|quisiera)\s+(entender|saber)|(quero|gostaria\s+de)\s+(entender|saber)|(je\s+(veux|voudrais)|j'aimerais)\s+(comprendre|savoir)|ich\s+(möchte|will|würde\s+gerne?)\s+(verstehen|wissen))\b|((can|could|would|will)\s+(you|u)\s+)?(please\s+)?(repeat\s+(that|this|it|the\s+(last|current)|your\s+last)|say\s+(that|it)\s+again)\b)|^\W*((ok|okay|also|und)[\s,]+)*(kannst|könntest)\s+du\s+[^?\n]{0,40}\bwiederholen\b|(给我|跟我|帮我)?(介绍|解释|讲讲|讲解|说说|科普)(一下)?[吧。！!]*\s*$|(教えて|説明して)(ください|下さい|くれ|ね|よ)?[。！!？?～~]*\s*$|知りたい(です|な|んだけど)?[。！!？?～~]*\s*$|^\W*(list|liệt\s+kê|giải\s+thích|kể)\s+cho\s+(anh|em|mình|tôi|chị)\b|^\W*giải\s+thích\b|(好|合适|更好)还是[^，。？?]{1,30}(好|合适|更好)[？?吗呢]*\s*$",
    )
});

/// An item numbered as Chinese numbers one, with words of its own:
/// "1、…", "3.1、…", "（2）…"; or as Chinese, Japanese and Korean lists
/// number with circled digits ("①プロの愛用者インタビュー", "② …").
pub(super) static CJK_ITEM: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"^\s*(\d+(\.\d+)*、\s*\p{Han}|[（(]\d+[)）]\s*\p{Han}{2}|\d+[.．]\s*[A-Za-z]*\p{Han}|[①-⑳❶-❿➀-➉⑴-⒇]\s*\w)",
    )
});

/// Asked to think, about nothing named: "let's think carefully about the
/// change", "think some more", "please think hard for this one". It shapes
/// the next answer and is spent with it.
pub(super) static THINK: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|now|so|please|let's|lets)[\s,]+|(can|could|would|will)\s+(you|u)\s+(please\s+)?)*(ultra)?think(\s+(carefully|hard|harder|deeply|more|again|some\s+more|step\s+by\s+step|it\s+through|about\s+(it|this|that|the\s+\w+)|(for|on)\s+(it|this|that)(\s+one)?))*\s*[.!?]*\s*$",
    )
});

/// The user telling what they will do themselves, and nothing more:
/// "let me check on my side", "let me think about it", "let me try it
/// first". It asks nothing of the agent ("let me know …" does, and "let
/// me see the logs" asks to be shown).
pub(super) static OWN_ACTION: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|hmm|wait|alright|so)[\s,!.]+)*let\s+me\s+(check|look|think|try|test|verify|review|read|ask|confirm|double[\s-]check|get\s+back|figure|dig|investigate|restart|reboot|grab|go|come\s+back|sleep\s+on)\b",
    )
});

/// Courtesies spent as they are read, beyond the words of [`SPENT`]: an
/// invitation to ask ("If you have any question please ask"), a
/// reaction to what the agent showed that names it ("Okay MergeService
/// looks good."), praise ("bazinga, good work.", "great work, that's
/// genuinely useful"), a go-ahead for now ("that's fine for now"), and
/// in Chinese a go-ahead to do again or now what was on the table ("你再验证
/// 一下", verify it again; "开始吧", start; "继续制作", go on making it); a
/// message sent to the wrong
/// session ("wait, wrong session sry"), a turn asked again ("the output is
/// truncated, say that again"), and a closing courtesy ("Let me know if
/// you need any clarification!", "hope this helps", "thanks in advance"),
/// and the shape asked of the next answer ("1 line answer", "answer in
/// one sentence").
pub(super) static SPENT_FORM: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|so|and|also|yes|great|thanks)[\s,!.]+)*(if\s+(you\s+have|there\s+(is|are))\s+(any|more|other)\s+questions?|any\s+questions?)[\s,]*((please|just|then|feel\s+free\s+to|don't\s+hesitate\s+to)\s+)?(ask|let\s+me\s+know|tell\s+me)(\s+(me|them|first|before))?\s*[.!]*\s*$|^\W*((ok|okay|und|also|ja|e|y|et)[\s,!.]+)*((wenn|falls)\s+(du|ihr|sie)\s+([^\s,.!?]+\s+){0,2}fragen\s+(hast|habt|haben)|(se|caso)\s+(tiver|tenha|houver|tiverem)\s+([^\s,.!?]+\s+){0,2}(d[uú]vidas?|perguntas?)|si\s+(tienes|tiene|tienen|hay)\s+([^\s,.!?]+\s+){0,2}(dudas?|preguntas?)|si\s+(tu\s+as|vous\s+avez)\s+([^\s,.!?]+\s+){0,2}questions?)[\s,]*[^.!?\n]{0,25}[.!]*\s*$|^\W*((ok|okay|yes|yeah|alright|great|nice|cool)[\s,!.]+)*([^\s,!?]+\s+){1,3}(looks?|seems?|sounds?)\s+(really\s+|very\s+|pretty\s+|so\s+)?(good|great|fine|perfect|nice|awesome|excellent|solid|right|correct)(\s+(to\s+me|now|so\s+far))?\s*[.!]*\s*$|^\W*((ok|okay|yes|good|great)[\s,!.]+)*(proceed|continue|go|move)\s+(on\s+)?(to\s+|with\s+)?(the\s+)?next(\s+(phase|step|task|one|part|stage|item))?\s*[.!]*\s*$|^\W*((ok|okay|nice|great|cool|wow|bazinga|awesome|perfect|sure|yes|yeah|thanks)[\s,!.]+)*(really\s+|very\s+)?(good|great|nice|awesome|excellent|amazing|solid|fantastic)\s+(work|job|stuff|one|catch|call|find)\b\s*[.!]*(\s*,?\s*(that's|that\s+is|this\s+is|it's)\b[^?]*)?$|^\W*((ok|okay|yes|yeah|sure)[\s,!.]+)*(that's|that\s+is|it's)\s+(fine|ok|okay|good|great|perfect|alright)(\s+(for\s+now|then|too|with\s+me))?\s*[.!]*\s*$|^\W*((那|好|好的|ok|行|嗯)[，,\s]*)?(现在)?[你您]?(先|再|重新)?(试|验证|测试|跑|弄|执行|写入|检查)(一下|一次|一遍|看看)?(吧|呗|了)?[。！!～~]*\s*$|^\W*(开始|继续|开始吧|继续吧|搞起|走起)(实施|执行|实现|开发|制作|工作|干活|吧|了)*[。！!～~]*\s*$|^\W*((ok|okay|wait|oops|sorry|sry|hmm)[\s,!.]+)*(that\s+was\s+(the\s+)?|this\s+is\s+(the\s+)?)?wrong\s+(session|window|chat|tab|terminal|thread)\b[\s,.!]*(sorry|sry|my\s+bad)?[\s.!]*$|^\W*((ok|okay|wait|hmm)[\s,!.]+)*([^.!?\n]{0,40}[,;]\s*)?(say|repeat|show|print)\s+(that|it)\s+again\s*[.!]*\s*$|^\W*((ok|okay|and|also|thanks)[\s,!.]+)*(please\s+)?(let\s+me\s+know|tell\s+me|ask\s+me)\s+if\s+(you\s+)?(need|have|want)\s+(any\s+|more\s+|further\s+)?(clarifications?|questions?|help|info(rmation)?|details|context|anything(\s+else)?)\s*[.!]*\s*$|^\W*(i\s+)?hope\s+(this|that|it)\s+helps\b[\s.!]*$|^\W*thanks?\s+(you\s+)?in\s+advance\b[\s.!]*$|^\W*((ok|okay|oh|ah|oops|sorry|wait)[\s,!.]+)*(never\s*mind|nvm|no\s+(worries|problem|probs?|rush|pressure|stress|biggie|big\s+deal)|hold\s+on|hang\s+on|(just\s+)?(one|a)\s+(sec|second|moment|min|minute))\b[\s,.!]*((then|thanks|thank\s+you|sorry)[\s.!]*)?$|^\W*((ok|okay|so|and|just|please|pls)[\s,!.]+)*((in|with)\s+)?(a|one|1|two|2|three|3|a\s+few|few)\s*[-\s]?(line|word|sentence)s?(\s+(answer|reply|response))?(\s+(please|pls|only))?\s*[.!]*\s*$|^\W*((ok|okay|so|and|just|please|pls)[\s,!.]+)*(answer|reply|respond)(\s+(it|this|that|me))?\s+(in|with)\s+(a|one|1|two|2|three|3|a\s+few|few)\s*[-\s]?(line|word|sentence)s?(\s+(only|please|pls))?\s*[.!]*\s*$",
    )
});

/// A question of what the agent can do, not a request that it do it:
/// "can you see that?", "now, can you shop on amazon for me?", "would you
/// be able to buy and sell through it?".
pub(super) static ASKS_ABILITY: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|so|now|and|also|hmm)[\s,]+)*((can|could)\s+(you|u)\s+(even\s+|actually\s+|also\s+)?(see|view|hear|access|control|reach|browse|shop|read)\b|(would|will)\s+you\s+be\s+able\s+to\b|(are|r)\s+you\s+able\s+to\b)[^.!\n]*\?\s*$|^\W*if\s+[^?\n]{3,120},\s*(would|will)\s+you\s+be\s+able\s+to\b[^.!\n]*\?\s*$",
    )
});

/// Courtesies of Chinese, Japanese and Korean, which write no spaces for
/// [`SPENT`] to read word by word: a greeting or a leave-taking ("これから
/// よろしくお願いします", glad to work with you; "また明日", see you
/// tomorrow; "晚安"), thanks, an apology, "that's it" ("そういう事です"),
/// "never mind" ("好了不管了", "算了"), and a pause ("ドキュメント確認作業は中断
/// させてください", stop the document check; "先暂停"; "클로드 중지"). Alone, each is spent
/// as it is read; "この件、よろしくお願いします" hands over a task and is not one.
pub(super) static CJK_COURTESY: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"^[\s\p{P}]*(まず[、,]?\s*)?([^\s。！!？?]{0,24}(を|は))?(中断|中止|一時停止|停止|ストップ)(して|させて)(ください|下さい|くれ)?[。！!]*$|^[\s\p{P}]*(你他妈的?|你他媽的?|你)?(先|那)?(给我|給我)?(暂停|停止|停下|停一下|住手)(来|來)?(一下)?[吧啊。！!]*$|^[\s\p{P}]*(\S+\s+){0,3}(작동\s*)?(중지|멈춰|정지|그만)(\s*(해봐|해줘|해요|해|하세요))?[.!~]*$|^[\s\p{P}\p{So}]*((はい|うん|ok|OK|好的?|嗯|那|好了)[、，,\s]*)*((これから|今後|引き続き|どうぞ)(も|とも)?[、\s]*)?(よろしく(お願い(します|いたします|しますね))?|また明日|おやすみ(なさい)?|初めまして|はじめまして|ごめん(ね|なさい)?|すみません|ありがとう(ございます|ございました)?|お疲れ(様|さま)(です|でした)?|お願い(します|いたします)?|そういう(事|こと)です(ね|よ)?|了解(です|しました)?|わかりました|分かりました|承知しました|なるほど(ね)?|すごい(ね)?|ドキドキ|谢谢(你)?|辛苦了|晚安|明天见|对不起|不好意思|不管了|算了|没事了?|감사합니다|고마워(요)?|수고했어(요)?|수고하셨습니다|잘\s*자)[\s\p{P}\p{So}ー〜～~]*([\p{L}\p{N}_.-]+(さん|くん|ちゃん))?[\s\p{P}\p{So}ー〜～~]*$",
    )
});

/// An ask that names nothing yet: "I want you to do something for me",
/// "can you help me with something?".
pub(super) static ASKS_NOTHING_YET: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*((ok|okay|hey|so|now)[\s,!.]+)*(i\s+(want|need|would\s+like)\s+you\s+to|can\s+you|could\s+you|would\s+you|please)\s+(do\s+(something|a\s+thing|one\s+thing|me\s+a\s+favou?r)|help\s+me(\s+with\s+something)?)(\s+for\s+me)?\s*[.!?]*\s*$",
    )
});

/// Nothing but the marks Claude Code puts where pictures were pasted.
pub(super) static IMAGE_MARKS: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"^(\s*\[Image #\d+\])+\s*$"));

/// An image handed over and nothing asked of it: "look at screenshot with
/// red arrow", "read the image '/Users/me/Desktop/shot.png'". Spent once
/// the agent has looked.
pub(super) fn image_handed_over(text: &str) -> bool {
    static LOOK: LazyLock<Pattern> = LazyLock::new(|| {
        pattern(
            r"(?i)^\W*((ok|okay|now|so|please|pls)[\s,]+)*(read|look\s+at|see|check|view|open)\s+(the\s+|this\s+|my\s+|attached\s+)?(image|screenshot|screen\s*shot|picture|attachment)s?\b",
        )
    });
    LOOK.is_match(text) && !text.contains(" and ") && !text.contains(',') && word_count(text) <= 10
}

/// Asked why the agent holds a view ("why are you recommending A over
/// B?", "why do you think it fails?"): a reason asked for, no reproach.
pub(super) static ASKS_REASON: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\bwhy\s+(are|were|do|did|would)\s+you\s+(still\s+|again\s+)?(recommend|suggest|say|think|propos|assum|expect|prefer|consider|choos|favou?r|lean|believ)\w*",
    )
});

/// A reproach put as a question: what the agent did against what the user
/// asked ("why are you writing typescript?", "为什么你又把heartbeat记到了
/// workspace文件夹下？", "你怎么没记得呢？") holds the rule it broke; an
/// objection put so ("why would we track the commands in the interactive
/// mode?", "why do you keep reading 100 lines at a time?") holds what not
/// to do. "Why would you recommend it?" asks for a reason.
pub(super) static REPROACH: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\bwhy\s+(are|were)\s+you\s+(still\s+|again\s+)?\w+ing\b|\bwhy\s+would\s+(we|you)\s+(ever\s+|even\s+)?(need|want|track|keep|do|add|use|have|make|put|create|write|store|load|call|run|go|duplicate|copy|move|change|remove|delete)\b|\bwhy\s+do\s+you\s+(keep|always)\b|\bwhy\s+did\s+you\s+(\w+\s+)?(delete|remove|change|add|create|write|use|drop|rename|move|revert|break|ignore|skip|commit|push)\b|怎么(又|还|没)|为什么(你)?(又|还是?|没有?)|为什么你不|我(之前|刚才|已经|不是)(都)?(说|讲|告诉)|不是(说|让你)",
    )
});

/// The agent asked for its advice or opinion: "what would you recommend?",
/// "any opinions or recommendations?", "what would you suggest" typed
/// without its question mark, "do you think we should also add potassium
/// mass balance?". A question, whatever modal it holds.
pub(super) static ASKS_OPINION: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)\b((what|which)\s+(would|do|should|will)\s+you\s+(recommend|suggest|propose|advise|prefer|think)|^\W*how\s+(would|should|do|will|can)\s+(you|we|i)\s+(handle|approach|tackle|structure|name|design|deal\s+with|go\s+about|solve)\b[^.!?]*|what\s+do\s+you\s+think|any\s+(opinions?|recommendations?|suggestions?|thoughts|ideas)(\s+or\s+\w+)?)\s*\?|^\W*((ok|okay|so|and|then|also)[\s,]+)*do\s+you\s+think\s+(we|i)\s+(should|need|could|must|ought)\b[^.!?]*\?\s*$|^\W*(is\s+there\s+)?(anything|something)\s+else\b[^.!]*\?\s*$|^\W*((ok|okay|so|and|then)[\s,]+)*(what|which)\s+(would|do|should)\s+you\s+(recommend|suggest|propose|advise)\b[^.!?]*$",
    )
});

/// A slash command alone (to a chat's bot too: `/start@my_bot`), or a line
/// of a command's options alone (`--max-iterations 15`,
/// `--completion-promise "COMPLETE" \`), or a runtime's own command
/// that sets how it runs (`/model sonnet`, `/effort high`): the command's
/// invocation, spent when it runs.
pub(super) static COMMAND: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r#"^/[A-Za-z][A-Za-z0-9:_-]*(@[A-Za-z0-9_]+)?$|^/(model|effort|theme|vim|config|permissions|output-style|statusline|fast|add-dir|login|logout|resume|clear|cost|status|doctor|mcp|agents|hooks|ide|help|exit|export|plugin|usage|context|rewind|privacy-settings|terminal-setup|release-notes|upgrade)(\s+[\w.:@/-]+){0,2}\s*$|^(--[A-Za-z][A-Za-z0-9_-]*(=\S+|\s+("[^"\n]*"|'[^'\n]*'|[^\s-]\S*))?\s*)+\\?$"#,
    )
});

/// A compaction asked for in words ("先compact以下", "please compact now"):
/// a command to the runtime, spent when it runs.
pub(super) static COMPACT_NOW: LazyLock<Pattern> = LazyLock::new(|| {
    pattern(
        r"(?i)^\W*(先|请|please\s+|pls\s+|now\s+|let's\s+|lets\s+)?/?compact(\s+(now|it|this|the\s+context))?\s*(以下|一下|下)?[。.!！]*\s*$",
    )
});

/// An operator of code written inline (`firstKeptEntryIndex = 6`).
pub(super) static OPERATOR: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r"\s(=|<-|==|!=|=>|&&|\|\|)\s|[{};]\s*$|^\w+(\.\w+)+:|^\[[A-Z_]+\]$"));

/// A path to an image handed over (a screenshot dropped into the prompt),
/// in the quotes a terminal puts around a path with spaces
/// (`"C:\Users\me\Screenshot 2026-03-30 193721.jpg"`) or without.
pub(super) static IMAGE_PATH: LazyLock<Pattern> =
    LazyLock::new(|| pattern(r#"(?i)^["']?\S*[/\\][^\n]+\.(png|jpe?g|gif|webp|heic|bmp)["']?$"#));

/// Compiles this module's patterns ([`super::prepare`]).
pub(super) fn prepare() {
    crate::pattern::prepare(&[
        &ASKS_OF,
        &FLOW_STEP,
        &SHOULD_BE,
        &TELLS_OWN,
        &OWN_ACTION,
        &CJK_ASKS,
        &SUBJECTLESS_ASK,
        &NOT_ASKED,
        &ROMANCE_WISH,
        &GERMAN_YOU_DO,
        &HEBREW_ASKS,
        &STEP,
        &JAPANESE_REQUEST,
        &CHINESE_REQUEST,
        &JAPANESE_NOTE,
        &KOREAN_REQUEST,
        &DEFECT,
        &BAN,
        &PROHIBITION,
        &GOAL_LABEL,
        &FRENCH_BAN,
        &LEAD,
        &REQUEST_FORM,
        &TAG,
        &ASKS_ADVICE,
        &VIETNAMESE_ASKS,
        &THAI_ASKS,
        &VIETNAMESE_OWN,
        &SUGGESTION,
        &ASKED_LAST,
        &QUESTION_FORM,
        &ASKS_WHICH,
        &ASKS_TO_BE_TOLD,
        &CJK_ITEM,
        &THINK,
        &SPENT_FORM,
        &ASKS_ABILITY,
        &CJK_COURTESY,
        &ASKS_NOTHING_YET,
        &IMAGE_MARKS,
        &REPROACH,
        &ASKS_REASON,
        &OWN_STATE,
        &ASKS_OPINION,
        &COMMAND,
        &COMPACT_NOW,
        &OPERATOR,
        &IMAGE_PATH,
    ]);
}

"""The words promptguard's multilingual rules are built from, per language, in one place.

Each language is one `Language` record: its words for ignoring, for instructions, for showing or telling, for
the hidden prompt, for limits, for "without", for an AI, for answering and for a password, each a tuple of
regular-expression alternatives as the normalised text spells them (case-folded, the Turkish dotless i read
as "i"). `rules` builds its patterns from them with `words`, so a language is added here, in one record, and
the rules that read that kind of word then read it too.

A Python module rather than a data file (TOML, JSON): the entries are regular-expression fragments, written as
raw strings with their comments, checked by ruff at commit, and loaded with no parser at a Lambda's init.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Language:
    """One language's words; each field a tuple of alternatives (regular expressions), empty where unknown."""

    ignore: tuple[str, ...] = ()
    """Ignoring or forgetting, as an order ("ignoriere", "olvida"): `override_instructions_i18n`."""
    instructions: tuple[str, ...] = ()
    """Instructions, rules or orders, the object of `ignore`."""
    show: tuple[str, ...] = ()
    """Showing, telling, repeating or printing, in the imperative or the infinitive (`prompt_leak_i18n`). Not a
    past or third person: a page that says the system prompt was shown ("données", "zeigt", "gösterilen") asks
    for nothing. Not "write": "write a system prompt for my support bot" is a request for one."""
    hidden_prompt: tuple[str, ...] = ()
    """The system prompt, or instructions called initial, original, hidden or secret (`prompt_leak_i18n`)."""
    limits: tuple[str, ...] = ()
    """Rules, restrictions, limits, filters and censorship (`limits_off_i18n`)."""
    without: tuple[str, ...] = ()
    """"Without" before the noun it negates (`\\b` in front where the script has word boundaries)."""
    without_after: tuple[str, ...] = ()
    """"Without" after the noun, in languages that put it there (Japanese, Korean, Turkish)."""
    ai: tuple[str, ...] = ()
    """An AI, the persona a jailbreak defines. German "KI" only after an article: Turkish "ki" is "that"."""
    answer: tuple[str, ...] = ()
    """An order to answer."""
    secret: tuple[str, ...] = ()
    """A password or a secret code (`secret_request`)."""
    your: tuple[str, ...] = ()
    """"Your" before the secret: the model's own."""
    your_after: tuple[str, ...] = ()
    """"Your" after the secret, where the possessive follows the noun."""
    mine: tuple[str, ...] = ()
    """"My": in a password question, the asker's own password (not a leak)."""
    how: tuple[str, ...] = ()
    """"How": a question how to handle a password (not a leak)."""
    handling: tuple[str, ...] = ()
    """Resetting, changing, forgetting or keeping a password safe (not a leak)."""
    previous: tuple[str, ...] = ()
    """"Previous", "above" or "all": before the instructions a verb-last language then ignores, or, where
    machine translation drops the noun, the last word of an order to ignore ("Игнорировать предыдущие.")."""
    articles: tuple[str, ...] = ()
    """Articles and "all", what may stand between `ignore` and a `previous` whose noun was dropped."""
    not_before: tuple[str, ...] = ()
    """"Not" (or "don't") as a word just before a verb of `ignore` ("non", "nie"): a reminder ("non dimenticare le
    istruzioni") is no order to ignore them. Plain text (one lookbehind each, `rules._unless_after`)."""
    not_after: tuple[str, ...] = ()
    """"Not" after the verb of `ignore`, within two words ("vergessen Sie nicht die Regeln", "glöm inte",
    "n'oubliez pas")."""
    maker_claim: tuple[str, ...] = ()
    """"I am your developer": the speaker claims to have built, to own or to run the model (`authority_claim`)."""
    as_maker: tuple[str, ...] = ()
    """"As your creator, …": speaking as whoever built the model (`authority_claim`)."""
    made_by: tuple[str, ...] = ()
    """"As an AI developed by …", the user speaking as the model or its maker, as machine translation renders
    it (`model_impersonation`)."""
    everything: tuple[str, ...] = ()
    """"Everything", the object of `ignore` that wipes the slate (`override_everything`)."""
    repeat: tuple[str, ...] = ()
    """An order to repeat (`repeat_above_i18n`)."""
    above: tuple[str, ...] = ()
    """"Above" or "previous": the text before the order (`repeat_above_i18n`)."""
    verbatim: tuple[str, ...] = ()
    """"Word for word" (`repeat_above_i18n`)."""


LANGUAGES: dict[str, Language] = {
    "de": Language(
        maker_claim=(
            r"ich bin (?:dein|ihr)e?r? (?:\w+ )?(?:entwickler|schöpfer|administrator|admin|besitzer|programmierer)",
        ),
        not_before=("nicht",), not_after=(r"nicht",),
        made_by=(r"als von \w+ entwickelte ki\b",),
        repeat=(r"wiederhole", r"wiederholen sie"),
        above=(r"oben", r"oberhalb", r"darüber", r"davor", r"vorherige\w?"),
        verbatim=(r"wörtlich", r"wortwörtlich", r"wort für wort"),
        secret=(r"passwort", r"kennwort", r"geheimcode"),
        your=(r"\bihr\b", r"\bdein"),
        mine=(r"\bmein",),
        how=(r"\bwie\b",),
        handling=(r"zurücksetz", r"ändern", r"vergessen", r"sicher"),
        limits=(r"regeln", r"einschränkung\w{0,20}", r"grenzen", r"filter\w{0,20}", r"zensur"),
        without=(r"\bohne",),
        ai=(r"\b(?:eine?|einer|die|der|als|deine) ki\b",),
        answer=(r"antworte", r"beantworte"),
        ignore=(r"ignorier\w{0,20}", r"verg[ei]ss\w{0,20}", r"missacht\w{0,20}"),
        everything=(r"alles", r"alle"),
        articles=(r"alle\w{0,20}", r"die", r"der", r"das", r"den"),
        previous=(r"vorherige\w{0,20}",),
        instructions=(r"anweisung\w{0,20}", r"regeln", r"vorgaben", r"befehl\w{0,20}"),
        show=(
            r"zeig(?:e|en)?", r"verrat(?:e|en)?", r"nenne?n?", r"wiederhole?n?", r"gib", r"geben", r"teilen?",
            r"drucken?", r"offenbaren?", r"enthülle?n?",
        ),
        hidden_prompt=(
            r"system-?prompts?\b", r"system-?(?:anweisung|nachricht)\w{0,20}",
            r"(?:ursprünglich|anfänglich|versteckt|geheim|vorherig)\w{0,20} (?:anweisung|instruktion)\w{0,20}",
        ),
    ),
    "es": Language(
        maker_claim=(r"soy (?:tu|su) (?:\w+ )?(?:desarrollador|creador|administrador|programador|dueño)",),
        not_before=("no",),
        # and Portuguese ("desenvolvida pela")
        made_by=(r"como (?:una? )?ia (?:desarrollad|cread|entrenad|desenvolvid|criad|treinad)[ao] (?:por|pel[ao])\b",),
        repeat=(r"repite", r"repetir"),
        above=(r"arriba", r"anterior\w?", r"previo"),
        verbatim=(r"palabra por palabra",),
        secret=(r"contraseña", r"código secreto"),
        your=(r"\btu\b", r"\bsu\b"),  # "tu" is French too
        mine=(r"\bmi\b", r"\bmis\b"),
        how=(r"\bc[oó]mo\b",),  # and Portuguese
        handling=(r"olvid",),
        limits=(r"reglas", r"restricci\w+", r"límites", r"filtros", r"censura"),
        without=(r"\bsin",),
        # "IA" of Spanish, French, Italian and Portuguese, and "AI" (also right after Chinese or Japanese).
        ai=(r"(?<![a-z])(?:ia|ai)(?![a-z])",),
        answer=(r"responde", r"contesta"),
        ignore=(r"ignora\w{0,20}", r"olvid\w{0,20}"),
        everything=(r"todo",),
        articles=(r"tod[oa]s?", r"las", r"los", r"la", r"el", r"lo"),  # "todos", "todas": Portuguese too
        previous=(r"anteriores",),  # and Portuguese
        # "instru…" reads Spanish "instrucciones", French "instructions" and Portuguese "instruções" alike.
        instructions=(r"instru\w{0,20}", r"indicaciones"),
        show=(
            r"muestra(?:me|nos)?", r"muéstra(?:me|nos)", r"mostrar(?:me|nos)?", r"revela(?:r|rme)?",
            r"revéla(?:me|nos)", r"dime", r"dinos", r"decir(?:me)?", r"comparte", r"compárte(?:me|nos)", r"compartir",
            r"repite", r"repíte(?:me|nos)", r"repetir", r"imprime", r"imprimir", r"enseña", r"enséña(?:me|nos)",
        ),
        hidden_prompt=(
            r"(?:prompt|instrucciones|mensaje) del sistema\b",
            r"instrucciones (?:iniciales|originales|ocultas|secretas|previas)\b",
        ),
    ),
    "fr": Language(
        maker_claim=(
            r"je suis (?:ton|votre) (?:\w+ )?(?:développeur|créateur|administrateur|programmeur|propriétaire)",
        ),
        not_before=("pas", "ne"), not_after=(r"pas",),
        made_by=(r"en tant qu'(?:ia|intelligence artificielle) (?:développée|créée|entraînée) par\b",),
        repeat=(r"répète", r"répétez", r"répéter"),
        above=(r"ci-dessus", r"au-dessus", r"plus haut", r"précédent\w?"),
        verbatim=(r"mot pour mot", r"mot à mot"),
        secret=(r"mot de passe", r"code secret"),
        your=(r"\bvotre", r"\bton\b", r"\bta\b"),
        mine=(r"\bmon\b", r"\bma\b", r"\bmes\b"),
        how=(r"\bcomment\b",),
        handling=(r"oubli",),
        limits=(r"règles", r"restrictions?", r"limites", r"filtres", r"censure"),
        without=(r"\bsans",),
        answer=(r"réponds", r"répondez"),
        ignore=(r"ignorez", r"ignore[rs]?", r"oublie\w{0,20}"),
        everything=(r"tout",),
        articles=(r"les", r"la", r"le", r"tout\w{0,20}"),
        previous=(r"précédent\w{0,20}",),
        instructions=(r"règles", r"consignes"),
        show=(
            r"montrez?", r"montrer", r"révèle", r"révélez", r"révéler", r"affichez?", r"afficher", r"donnez?",
            r"donner", r"répète", r"répétez", r"répéter", r"dis", r"dites", r"partagez?", r"partager", r"imprimez?",
            r"imprimer", r"divulguez?", r"divulguer", r"dévoilez?", r"dévoiler",
        ),
        hidden_prompt=(
            r"(?:prompt|invite|message|instructions?) (?:du )?système\b",
            r"instructions (?:initiales|d'origine|originales|cachées|secrètes|précédentes)\b",
        ),
    ),
    "pt": Language(
        maker_claim=(
            r"sou (?:o |a )?(?:seu|teu|sua|tua) (?:\w+ )?(?:desenvolvedor|criador|administrador|programador|dono)",
        ),
        not_before=("não", "nao"),
        repeat=(r"repita",),  # and "repetir", as Spanish spells it
        above=(r"acima",),
        verbatim=(r"palavra por palavra",),
        secret=(r"senha", r"palavra-passe"),
        your=(r"\bsua\b", r"\bseu\b"),
        mine=(r"\bmeu\b", r"\bminha\b"),
        handling=(r"esquec",),
        limits=(r"regras", r"restriç\w+"),
        without=(r"\bsem",),
        answer=(r"responda",),
        ignore=(r"esque[çc]\w{0,20}",),
        everything=(r"tudo",),
        instructions=(r"regras", r"instru[çc][õo]es"),
        articles=(r"as", r"os"),
        show=(
            r"mostre", r"mostra", r"revele", r"diga", r"diz", r"dizer", r"compartilhe", r"compartilhar", r"repita",
            r"imprima", r"divulgue", r"divulgar",
        ),
        hidden_prompt=(
            r"(?:prompt|mensagem|instruções) do sistema\b",
            r"instruções (?:iniciais|originais|ocultas|secretas|anteriores)\b",
        ),
    ),
    "it": Language(
        maker_claim=(
            r"sono (?:il |la )?(?:tuo|tua|vostro|suo) (?:\w+ )?(?:sviluppatore|creatore|amministratore|programmatore)",
        ),
        not_before=("non",),
        made_by=(r"come (?:un'|una )?ia (?:sviluppat|creat|addestrat)[ao] da\b",),
        repeat=(r"ripeti", r"ripetere"),
        above=(r"sopra", r"precedente"),
        verbatim=(r"parola per parola",),
        your=(r"\btua\b",),
        mine=(r"\bmio\b", r"\bmia\b"),
        limits=(r"regole", r"restrizioni", r"limiti", r"filtri"),
        without=(r"\bsenza",),
        answer=(r"rispondi",),
        ignore=(r"dimentic\w{0,20}", r"ignora\w{0,20}"),  # "ignora" is Spanish too
        everything=(r"tutto",),
        instructions=(r"regole", r"istruzion\w{0,20}"),
        articles=(r"tutt\w{0,20}", r"gli"),
        previous=(r"precedent\w{0,20}",),
        show=(
            r"mostrami", r"mostrare", r"rivela", r"rivelami", r"rivelare", r"dimmi", r"condividi", r"condividere",
            r"ripeti", r"ripetere", r"stampa", r"stampare", r"svela", r"svelami", r"svelare",
        ),
        hidden_prompt=(
            r"(?:prompt|messaggio|istruzioni) di sistema\b",
            r"istruzioni (?:iniziali|originali|nascoste|segrete|precedenti)\b",
        ),
    ),
    "nl": Language(
        maker_claim=(r"ik ben je (?:ontwikkelaar|maker|programmeur)",),
        not_after=(r"niet",),
        repeat=(r"herhaal",),
        above=(r"hierboven", r"vorige"),
        verbatim=(r"woord voor woord",),
        secret=(r"wachtwoord",),
        your=(r"\bje (?=wachtwoord)",),  # only right before it: French "je" is "I"
        mine=(r"\bmijn\b",),
        how=(r"\bhoe\b",),
        limits=(r"regels", r"beperkingen"),
        without=(r"\bzonder",),
        answer=(r"antwoord",),
        ignore=(r"negeer", r"vergeet"),
        instructions=(r"instructies",),
        show=(r"toon", r"tonen", r"vertel", r"vertellen", r"herhaal", r"herhalen", r"onthul", r"onthullen"),
        hidden_prompt=(r"systemprompt\b", r"(?:systeem|oorspronkelijke|verborgen|geheime) ?(?:prompt|instructies)\b"),
    ),
    "pl": Language(
        maker_claim=(r"jestem (?:twoim|waszym) (?:programistą|twórcą|deweloperem)",),
        not_before=("nie",),
        repeat=(r"powtórz",),
        above=(r"powyżej", r"poprzedni\w?"),
        verbatim=(r"słowo w słowo",),
        secret=(r"hasło",),
        your=(r"\btwoj",),
        mine=(r"\bmoj",),
        how=(r"\bjak\b",),
        limits=(r"zasad", r"ograniczeń", r"filtrów", r"cenzury"),
        without=(r"\bbez",),
        answer=(r"odpowiadaj",),
        ignore=(r"ignoruj", r"zignoruj"),
        instructions=(r"instrukcj\w{0,20}",),
        show=(r"pokaż", r"pokażcie", r"ujawnij", r"powiedz", r"powtórz", r"wypisz", r"podaj"),
        hidden_prompt=(
            r"(?:prompt|instrukcj\w{0,20}|polecenia) systemow\w{0,20}",
            r"(?:ukryte|tajne|pierwotne|początkowe) (?:instrukcje|polecenia)\b",
        ),
    ),
    "ru": Language(
        maker_claim=(r"я (?:\w+ )?(?:твой|ваш) (?:\w+ )?(?:разработчик|создатель|администратор|программист)",),
        not_before=("не",),
        made_by=(r"как (?:ии|искусственный интеллект),? (?:разработанн|созданн)\w{0,20}",),
        repeat=(r"повтори\w{0,3}",),
        above=(r"выше", r"предыдущ\w{1,4}"),
        verbatim=(r"дословно", r"слово в слово"),
        secret=(r"пароль",),
        your=(r"\bваш", r"\bтво"),
        mine=(r"\bмо[йяеи]",),
        how=(r"\bкак\b",),
        limits=(r"правил\w{0,20}", r"ограничени\w{0,20}", r"фильтр\w{0,20}", r"цензур\w{0,20}"),
        without=(r"\bбез",),
        ai=(r"(?<![а-я])ии(?![а-я])",),
        answer=(r"отвечай", r"ответь"),
        ignore=(r"игнорир\w{0,20}", r"забудь\w{0,20}", r"не обращай"),
        articles=(r"все\w{0,20}", r"всё"),
        previous=(r"предыдущ\w{0,20}", r"прежн\w{0,20}"),
        instructions=(r"инструкц\w{0,20}", r"указани\w{0,20}", r"правил\w{0,20}"),
        show=(
            r"покажи(?:те)?", r"раскрой(?:те)?", r"выведи(?:те)?", r"выдай(?:те)?", r"повтори(?:те)?", r"скажи(?:те)?",
            r"поделись", r"распечатай", r"озвучь",
        ),
        hidden_prompt=(
            r"системн\w{0,20} (?:промпт\w{0,20}|подсказк\w{0,20}|инструкци\w{0,20}|сообщени\w{0,20})",
            r"(?:исходн|первоначальн|скрыт|секретн|изначальн)\w{0,20} (?:инструкци\w{0,20}|указани\w{0,20}"
            r"|промпт\w{0,20})",
        ),
    ),
    "tr": Language(
        maker_claim=(r"senin (?:\w+ )?(?:geliştirici|yaratıcı|yönetici)",),
        made_by=(r"tarafından (?:geliştirilen|geliştirilmiş|oluşturulan) bir (?:yapay zeka|ai)\b",),
        repeat=(r"tekrarla\w{0,4}",),
        above=(r"yukaridaki", r"önceki"),  # its dotless i as normalisation spells it
        verbatim=(r"kelimesi kelimesine",),
        secret=(r"şifre",),
        your=(r"\bsenin",),
        mine=(r"\bbenim",),
        how=(r"\bnas[ıi]l",),
        limits=(r"kural\w{0,20}", r"kisitlama\w{0,20}", r"sinir\w{0,20}", r"sansür\w{0,20}"),
        without_after=(r"olmadan",),
        ai=(r"yapay zeka",),
        answer=(r"cevap ver",),
        ignore=(r"unut(?!ma|me)", r"görmezden gel(?!me)", r"yok say(?!ma)"),  # not the negatives "unutma", ...
        instructions=(r"talimat\w{0,20}", r"kural\w{0,20}", r"yönerge\w{0,20}"),
        articles=(r"tüm", r"bütün"),
        previous=(r"önceki\w{0,20}",),
        show=(
            r"göster(?:in|ir misin|ebilir misin)?", r"açikla(?:yin|r misin)?", r"söyle(?:yin|r misin)?",
            r"yazdir(?:in)?", r"tekrarla(?:yin)?", r"paylaş(?:in|ir misin)?",
        ),
        hidden_prompt=(
            r"sistem (?:istemi|komutu|talimatlar\w{0,20}|mesaj\w{0,20})",
            r"(?:orijinal|ilk|gizli|önceki) talimatlar\w{0,20}",
        ),
    ),
    "vi": Language(
        maker_claim=(r"tôi là (?:nhà phát triển|người tạo ra|quản trị viên|lập trình viên) của bạn",),
        not_before=("đừng", "không"),
        made_by=(r"một ai (?:được )?(?:phát triển|tạo ra) bởi\b",),
        secret=(r"mật khẩu",),
        your=(r"của bạn", r"\bbạn\b"),
        mine=(r"\bcủa tôi",),
        how=(r"làm sao", r"làm thế nào"),
        limits=(r"quy tắc", r"giới hạn", r"hạn chế", r"bộ lọc", r"kiểm duyệt"),
        without=(r"không có",),
        ai=(r"trí tuệ nhân tạo",),
        answer=(r"trả lời",),
        ignore=(r"bỏ qua", r"hãy quên"),
        instructions=(r"hướng dẫn", r"chỉ dẫn"),
        articles=(r"tất cả", r"những", r"các"),
        previous=(r"trước đó",),
        show=(r"hiển thị", r"tiết lộ", r"cho tôi xem", r"cho tôi biết", r"in ra", r"lặp lại", r"chia sẻ"),
        hidden_prompt=(
            r"(?:lời nhắc|chỉ dẫn|hướng dẫn|thông điệp|lệnh) (?:của )?hệ thống",
            r"(?:hướng dẫn|chỉ dẫn) (?:ban đầu|gốc|ẩn|bí mật)",
        ),
    ),
    "id": Language(
        maker_claim=(r"aku (?:adalah )?(?:pengembang|pembuat|administrator)(?:mu| kamu| anda)",),
        not_before=("jangan",),
        made_by=(r"sebagai (?:sebuah )?ai yang (?:dikembangkan|dibuat|dilatih) oleh\b",),
        repeat=(r"ulangi",),
        above=(r"di atas", r"sebelumnya"),
        verbatim=(r"kata demi kata", r"kata per kata"),
        secret=(r"kata (?:sandi|laluan)",),  # and Malay
        your_after=(r"\banda\b", r"\bkamu\b"),
        mine=(r"\bsaya\b",),
        how=(r"\bbagaimana",),
        limits=(r"aturan", r"batasan", r"pembatasan", r"sensor"),
        without=(r"\btanpa",),
        ai=(r"kecerdasan buatan",),
        answer=(r"jawab\w{0,20}",),
        ignore=(r"abaikan", r"lupakan", r"abaikanlah"),
        instructions=(r"instruksi", r"perintah", r"petunjuk", r"arahan"),  # "arahan" is Malay too
        articles=(r"semua", r"yang"),
        previous=(r"sebelumnya",),
        show=(r"tunjukkan", r"ungkapkan", r"beri tahu", r"beritahu", r"cetak", r"ulangi", r"bagikan", r"sebutkan"),
        hidden_prompt=(
            r"(?:prompt|instruksi|perintah|pesan) sistem\b", r"instruksi (?:awal|asli|tersembunyi|rahasia)\b"
        ),
    ),
    "zh": Language(
        maker_claim=(r"我是(?:你|您)的(?:开发者|开发人员|创造者|创建者|管理员|程序员)",),
        made_by=(r"由[^，。,.]{1,12}(?:开发|開發|创建|訓練|训练)的(?:ai|人工智能)",),
        repeat=(r"重复", r"复述"),
        above=(r"上面", r"以上", r"上述", r"前面"),
        verbatim=(r"逐字", r"一字不差", r"原封不动"),
        secret=(r"密码", r"密碼"),
        your=(r"你的", r"您的"),
        mine=(r"我的", r"我忘"),
        how=(r"怎么", r"怎樣", r"怎样", r"如何"),
        handling=(r"重置", r"忘记", r"忘了", r"修改"),
        limits=(r"规则", r"規則", r"限制", r"过滤", r"過濾", r"审查", r"審查"),
        without=(r"没有", r"沒有", r"无", r"無", r"不受"),
        ai=(r"人工智能",),
        answer=(r"回答", r"回复", r"回覆"),
        ignore=(r"忽略", r"无视", r"忽视", r"忘记", r"忘掉", r"不要理会"),
        instructions=(r"指令", r"指示", r"说明", r"提示", r"规则"),
        show=(
            r"显示", r"展示", r"透露", r"告诉我", r"告訴我", r"输出", r"輸出", r"打印", r"重复", r"重複", r"泄露",
            r"给我看", r"給我看", r"公开", r"公開", r"说出", r"說出",
        ),
        hidden_prompt=(
            r"系统提示词?", r"系統提示詞?", r"系统指令", r"系統指令", r"系统消息", r"初始指令", r"原始指令",
            r"隐藏(?:的)?指令", r"秘密指令",
        ),
    ),
    "ja": Language(
        maker_claim=(r"私は(?:あなたの)?(?:開発者|作成者|管理者|開発元)",),
        made_by=(r"によって開発された(?:ai|人工知能)",),
        repeat=(r"繰り返",),
        above=(r"上記", r"上の", r"以上の"),
        verbatim=(r"一字一句", r"そのまま"),  # "一字一句" is Chinese too
        secret=(r"パスワード",),
        your=(r"あなたの",),
        mine=(r"私の",),
        how=(r"どうやって",),
        limits=(r"ルール", r"制限", r"フィルター", r"検閲"),
        without_after=(r"ない", r"なし", r"無し"),
        ai=(r"人工知能",),
        answer=(r"答え",),
        ignore=(r"無視", r"忘れ"),
        instructions=(r"設定", r"命令", r"要求", r"ルール"),
        show=(r"見せ", r"教え", r"表示し", r"出力", r"繰り返", r"明かし"),
        hidden_prompt=(
            r"システムプロンプト", r"システムメッセージ", r"システム指示", r"(?:初期|元|最初|隠された|秘密)の?指示",
        ),
    ),
    "ko": Language(
        maker_claim=(r"(?:나는|저는) (?:너의|당신의) (?:개발자|제작자|관리자)",),
        previous=(r"이전", r"앞의", r"위의", r"모든"),
        instructions=(r"지시", r"명령", r"지침"),
        ignore=(r"무시", r"잊"),
        made_by=(r"(?:에서|이|가) 개발한 ai",),
        repeat=(r"반복",),
        above=(r"위의", r"위 내용", r"위에"),
        verbatim=(r"그대로",),
        secret=(r"비밀번호", r"비밀 코드", r"기밀 문자열"),
        your=(r"너의", r"당신의"),
        mine=(r"내 ", r"제 "),
        how=(r"어떻게",),
        limits=(r"규칙", r"제한", r"필터", r"검열"),
        without_after=(r"없는", r"없이"),
        ai=(r"인공지능",),
        answer=(r"대답", r"답해"),
        show=(r"보여", r"알려", r"출력", r"공개", r"반복", r"말해"),
        hidden_prompt=(r"시스템 ?(?:프롬프트|메시지|지침|지시)", r"(?:초기|원래|숨겨진|비밀) ?(?:지침|지시|프롬프트)"),
    ),
    "ar": Language(
        maker_claim=(r"أنا (?:مطورك|منشئك|مسؤولك|مبرمجك)", r"أنا (?:ال)?(?:مطور|منشئ|مبرمج)(?:ال)? الخاص بك",),
        made_by=(r"(?:ذكاء|ذكاءً) (?:اصطناعي|اصطناعيًا) (?:طورته|طوّرته|من تطوير)",),
        secret=(r"كلمة (?:المرور|السر)", r"رمز (?:عبور|المرور)"),  # "رمز عبور" is Persian too
        your=(r"تك\b",),
        your_after=(r"الخاصة? بك",),
        how=(r"كيف",),
        limits=(r"قواعد", r"قيود", r"حدود", r"مرشحات", r"فلاتر", r"رقابة"),
        without=(r"بلا", r"بدون"),
        ai=(r"ذكاء اصطناعي",),
        answer=(r"أجب", r"جاوب"),
        ignore=(r"تجاهل\w{0,20}", r"انس", r"أهمل", r"اهمل"),
        instructions=(r"التعليمات", r"تعليمات", r"الإرشادات", r"الأوامر", r"التوجيهات"),
        articles=(r"كل", r"جميع", r"ال\S*"),
        previous=(r"السابق\w{0,20}",),
        show=(r"اعرض", r"اكشف", r"أظهر", r"اظهر", r"أخبرني", r"اخبرني", r"اطبع", r"كرر", r"شارك"),
        hidden_prompt=(
            r"(?:موجه|تعليمات|رسالة|أوامر) النظام", r"التعليمات (?:الأصلية|الأولية|المخفية|السرية|السابقة)",
        ),
    ),
    "hi": Language(
        maker_claim=(r"मैं (?:आपका|तुम्हारा) (?:\S+ )?(?:डेवलपर|निर्माता|व्यवस्थापक|प्रोग्रामर)",),
        as_maker=(r"आपके (?:निर्माता|डेवलपर) के रूप में",),
        previous=(r"पिछले", r"पूर्व", r"सभी"),
        instructions=(r"निर्देश", r"अनुदेश"),
        ignore=(r"अनदेख", r"भूल", r"नज़रअंदाज़", r"नजरअंदाज", r"उपेक्षा"),
        made_by=(r"द्वारा (?:विकसित|बनाया गया|बनाई गई) (?:एक )?(?:एआई|ai)",),
        secret=(r"पासवर्ड",),
        your=(r"आपका", r"आपके"),
        mine=(r"मेरा", r"मेरे"),
        how=(r"कैसे",),
        limits=(r"नियम", r"प्रतिबंध", r"सीमा", r"फ़िल्टर"),
        without=(r"बिना",),
        ai=(r"एआई",),
        answer=(r"जवाब",),
        show=(
            r"दिखाओ", r"दिखाइए", r"दिखाएं", r"दिखा दो", r"बताओ", r"बताइए", r"बताएं", r"बता दो", r"प्रकट करो",
            r"प्रकट करें", r"दोहराओ", r"दोहराएं",
        ),
        hidden_prompt=(r"सिस्टम (?:प्रॉम्प्ट|निर्देश|संदेश)", r"(?:मूल|प्रारंभिक|छिपे हुए|छिपे|गुप्त) निर्देश"),
    ),
    "en": Language(
        made_by=(r"as an? (?:ai|model|assistant|language model) (?:developed|created|made|built|trained) by\b",),
        # English rules are written in `rules` itself; only the words `secret_request` shares with the others.
        secret=(r"secret code", r"passcode"),
        your=(r"\byour",),
        mine=(r"\bmy\b",),
        how=(r"\bhow\b",),
        handling=(r"\breset", r"\bchange", r"\bforgot", r"\bstrong", r"\bsafe"),
        articles=(r"all\w{0,20}", r"the"),  # "alle" of German and the Nordic languages too
    ),
    "el": Language(
        maker_claim=(r"είμαι ο (?:\S+ )?(?:προγραμματιστήσ|δημιουργόσ|κατασκευαστήσ) σου",),
        not_before=("μην",),
        repeat=(r"επανάλαβε",),
        above=(r"παραπάνω", r"προηγούμεν\w{1,3}"),
        verbatim=(r"λέξη προς λέξη",),
        secret=(r"κωδικ[όο]σ? πρόσβασησ",),  # final sigma as case folding writes it
        your_after=(r"\bσου\b", r"\bσασ\b"),
        mine=(r"\bμου\b",),
        how=(r"\bπώσ\b",),
        ignore=(r"αγν[οό]\w{0,20}", r"ξ[εέ]χα\w{0,20}"),
        instructions=(r"οδηγί\w{0,20}", r"εντολ\w{0,20}"),
        articles=(r"τα", r"τισ", r"τουσ", r"όλ\w{0,20}"),  # final sigma as case folding writes it
        previous=(r"προηγούμεν\w{0,20}",),
    ),
    "sw": Language(
        secret=(r"nenosiri",), ignore=(r"puuza", r"sahau"), instructions=(r"maagizo", r"maelekezo"),
    ),
    "tl": Language(
        maker_claim=(r"ako ang (?:iyong )?(?:developer|lumikha|gumawa|programmer)\b",),
        as_maker=(r"bilang (?:iyong|ang iyong) (?:lumikha|developer)\b",),
        not_before=("huwag", "huwag mong", "huwag ninyong"),
        your=(r"\biyong\b",), mine=(r"\bko\b",), how=(r"\bpaano\b",), repeat=(r"ulitin",), above=(r"sa itaas",),
        verbatim=(r"salita por salita",),
        made_by=(r"bilang (?:isang )?ai na (?:binuo|ginawa|nilikha) ng\b",),
        ignore=(r"huwag (?:mong |ninyong )?pansinin", r"balewalain", r"kalimutan"),
        instructions=(r"tagubilin", r"instruksyon", r"panuto"),
    ),
    "hr": Language(  # and Serbian, Bosnian in Latin script
        not_before=("ne",),
        ignore=(r"zanemari\w{0,4}", r"zaboravi\w{0,4}", r"ignoriraj\w{0,4}"), everything=(r"sve",),
        instructions=(r"uput\w{0,20}", r"naredb\w{0,20}"),
    ),
    "sv": Language(
        not_after=(r"inte",),
        repeat=(r"upprepa",), above=(r"ovan", r"ovanför", r"föregående"), verbatim=(r"ordagrant", r"ord för ord"),
        ignore=(r"ignorera", r"glöm"), instructions=(r"instruktion\w{0,20}",),  # and Danish "instruktioner"
    ),
    "ro": Language(
        not_before=("nu",),
        repeat=(r"repetă",), above=(r"de mai sus",), verbatim=(r"cuvânt cu cuvânt",),
        ignore=(r"uită", r"ignoră", r"ignorați"), instructions=(r"instrucțiun\w{0,20}",),
    ),
    "bn": Language(
        maker_claim=(r"আমি (?:তোমার|আপনার) (?:\S+ )?(?:ডেভেলপার|নির্মাতা|স্রষ্টা|প্রোগ্রামার)",),
        as_maker=(r"(?:তোমার|আপনার) (?:স্রষ্টা|নির্মাতা|ডেভেলপার) হিসেবে",),
        secret=(r"পাসওয়ার্ড",), your=(r"তোমার", r"আপনার"), mine=(r"আমার",), how=(r"কিভাবে", r"কীভাবে"),
        made_by=(r"দ্বারা (?:তৈরি|বিকশিত) (?:একটি )?(?:এআই|ai)",),
        previous=(r"পূর্ববর্তী", r"আগের", r"পূর্বের", r"সমস্ত", r"সব"),
        instructions=(r"নির্দেশ",),
        ignore=(r"উপেক্ষা", r"ভুলে যা", r"অগ্রাহ্য"),
    ),
    "th": Language(
        maker_claim=(r"ฉัน(?:เป็น|คือ)(?:ผู้พัฒนา|ผู้สร้าง|โปรแกรมเมอร์)ของคุณ",),
        secret=(r"รหัสผ่าน",), your_after=(r"ของคุณ",), mine=(r"ของฉัน",), how=(r"อย่างไร", r"ยังไง"),
        made_by=(r"\bai\s*(?:ที่)?(?:พัฒนา|สร้าง)โดย",),
        ignore=(r"เพิกเฉย", r"ละเว้น", r"ไม่สนใจ", r"ลืม", r"ละเลย"),
        instructions=(r"คําสั่ง", r"คําแนะนํา"),
    ),
    "he": Language(
        maker_claim=(r"אני (?:ה)?(?:מפתח|יוצר|מתכנת) שלך",),
        secret=(r"סיסמ[הא]",), your_after=(r"שלך",), mine=(r"שלי",), how=(r"איך",),
        ignore=(r"התעל[םמ]\w{0,20}", r"שכח\w{0,20}"),
        instructions=(r"[הוכלבמש]{0,2}(?:הוראות|הנחיות)",),  # behind up to two prefix letters ("וה", "של")
    ),
    "fa": Language(
        your_after=(r"\bشما\b",), mine=(r"\bمن\b",), how=(r"چگونه", r"چطور"),
        instructions=(r"دستورالعمل", r"دستورات"), ignore=(r"نادیده بگیر", r"فراموش کن"),
    ),
    "ur": Language(
        secret=(r"پاس ورڈ",), mine=(r"میرا", r"میری"), how=(r"کیسے",), instructions=(r"ہدایات",),
        ignore=(r"نظر انداز", r"بھول"),
    ),
    "uk": Language(  # Ukrainian
        not_before=("не",),
        ignore=(r"ігнору\w{0,20}", r"забудь\w{0,20}"), instructions=(r"інструкц\w{0,20}", r"вказівк\w{0,20}"),
    ),
    "cs": Language(  # Czech, and Slovak
        ignore=(r"zapomeň\w{0,20}", r"ignoruj\w{1,4}", r"ignorov\w{1,6}"),
        instructions=(r"pokyn\w{0,20}", r"instrukc\w{0,20}"),
    ),
    "no": Language(  # Norwegian, and Danish
        ignore=(r"glem", r"ignorer"), instructions=(r"instruks\w{0,20}",), not_before=("ikke",), not_after=(r"ikke",)
    ),
    "fi": Language(ignore=(r"unohda", r"ohita"), instructions=(r"ohje\w{0,20}",), not_before=("älä",)),  # Finnish
    "hu": Language(  # Hungarian
        ignore=(r"figyelmen kívül", r"felejtsd el"), instructions=(r"utasítás\w{0,20}",), not_before=("ne",)
    ),
    "sl": Language(  # Slovenian
        ignore=(r"prezri\w{0,4}", r"pozabi\w{0,4}"), instructions=(r"navodil\w{0,20}",), not_before=("ne",)
    ),
    "sr": Language(  # Serbian in Cyrillic script, and Macedonian
        not_before=("не",),
        ignore=(r"занемари\w{0,4}", r"заборави\w{0,4}", r"игнориши"),
        instructions=(r"упутств\w{0,20}", r"инструкциј\w{0,20}"),
    ),
    "lt": Language(ignore=(r"ignoruo\w{0,6}", r"pamiršk\w{0,6}")),  # Lithuanian
    "lv": Language(ignore=(r"ignorē\w{0,6}", r"aizmirsti"), instructions=(r"norādījum\w{0,20}",)),  # Latvian
    "et": Language(  # Estonian
        not_before=("ära",),
        ignore=(r"ignoreeri\w{0,4}", r"unusta"), instructions=(r"juhis\w{0,20}", r"juhend\w{0,20}"),
    ),
    "af": Language(ignore=(r"ignoreer",)),  # Afrikaans
    "sq": Language(  # Albanian
        not_before=("mos",),
        ignore=(r"injoro\w{0,4}", r"harro\w{0,4}"),
        instructions=(r"udhëzim\w{0,20}",),
    ),
    "is": Language(ignore=(r"hunsa\w{0,4}",), instructions=(r"leiðbeining\w{0,20}",)),  # Icelandic
    "cy": Language(ignore=(r"anwybydd\w{0,6}",), instructions=(r"[cg]yfarwydd\w{0,20}",)),  # Welsh
    "ga": Language(ignore=(r"déan neamhaird",), instructions=(r"treoir\w{0,20}", r"treoracha")),  # Irish
    "zu": Language(ignore=(r"ziba",), instructions=(r"imiyalelo",)),  # Zulu
    # The verb-last languages of India with no record above (Hindi and Bengali have one): their instructions,
    # then the verb.
    "ta": Language(instructions=(r"வழிமுறை", r"அறிவுறுத்தல்", r"கட்டளை"), ignore=(r"புறக்கணி", r"மறந்து")),  # Tamil
    "te": Language(instructions=(r"సూచనల",), ignore=(r"విస్మరించ", r"మర్చిపో")),  # Telugu
    "kn": Language(instructions=(r"ಸೂಚನೆ",), ignore=(r"ನಿರ್ಲಕ್ಷಿಸ", r"ಮರೆತು")),  # Kannada
    "ml": Language(instructions=(r"നിർദ്ദേശ",), ignore=(r"അവഗണിക്ക", r"മറക്കുക")),  # Malayalam
    "mr": Language(instructions=(r"सूचना",), ignore=(r"दुर्लक्ष कर", r"विसरून जा")),  # Marathi
    "gu": Language(instructions=(r"સૂચના",), ignore=(r"અવગણ", r"ભૂલી જા")),  # Gujarati
}  # fmt: skip
"""Every language the rules read by name (the learned layer reads the rest)."""

SPACED = (
    "de", "es", "fr", "pt", "it", "nl", "pl", "ru", "tr", "id", "vi", "en", "el", "sw", "tl", "sv", "ro", "hr", "uk",
    "cs", "no", "fi", "hu", "sl", "sr", "lt", "lv", "et", "af", "sq", "is", "cy", "ga", "zu",
)  # fmt: skip
"""Languages whose words are read behind one `\\b` (one test where a word cannot start, not one per branch)."""
UNSPACED = ("zh", "ja", "ko", "ar", "hi", "bn", "th", "he", "fa", "ur", "ta", "te", "kn", "ml", "mr", "gu")
"""Languages whose words are read behind the lookahead of what they open with (`openings.behind_opening`):
Chinese and Japanese have no spaces for `\\b` to stand at."""


def words(kind: str, languages: tuple[str, ...]) -> str:
    """The `kind` words (a `Language` field) of `languages`, as one alternation's branches, in that order."""
    return "|".join(entries(kind, languages))


def entries(kind: str, languages: tuple[str, ...]) -> tuple[str, ...]:
    """The `kind` words (a `Language` field) of `languages`, in that order, each once."""
    if kind not in {field.name for field in fields(Language)}:
        raise KeyError(kind)
    return tuple(dict.fromkeys(word for code in languages for word in getattr(LANGUAGES[code], kind)))

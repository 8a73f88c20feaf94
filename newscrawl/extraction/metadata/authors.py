"""Author strings as sites write them, cleaned to a list of names.

Bylines arrive as "By JANE DOE and John Roe, Staff Writers | Updated March 5, 2024", as
"Von Max Muster", "作者：张三", as URLs in ``article:author`` or as a whole paragraph when a
template goes wrong. A name is what is left after the byline words, roles, dates, handles and
links are cut away; anything still too long to be a name is dropped, because one wrong author
in a corpus is worse than none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice

from ..decode import readable
from ..text import CJK_CHAR, HAN, HANGUL

_MAX_RAW = 300
"""Longer raw strings are template accidents (a paragraph, a bio), not bylines."""
_MAX_NAME = 60
_MAX_WORDS = 6

_BY_WORDS = r"oleh|بقلم|מאת|โดย"
""""By" in Indonesian and Malay, Arabic, Hebrew and Thai: before a name, as "by" is."""
_AUTHOR_WORDS = (r"penulis|yazar|tác giả|نویسنده|लेखक|teksti|kirjoittaja|írta|szerző|forfatter"
                 r"|författare")
""""Author" or "written" in Indonesian, Turkish, Vietnamese, Persian, Hindi, Finnish, Hungarian
and the Scandinavian languages: a label, before a colon or on a line of its own."""
_PIECE_KIND = (r"analysis|opinion|commentary|column|(?:eine?\s+)?(?:kommentar|kolumne|analyse"
               r"|gastbeitrag|glosse|reportage)")
"""What a piece is, before its writer's "by": "Analysis by Jane Doe" (CNN), "Opinion by"
(The Washington Post), "Ein Kommentar von Max Muster" (German papers)."""
AGENCIES = frozenset({
    "afp", "ap", "dpa", "sid", "kna", "epd", "apa", "sda", "ats", "ansa", "agi", "efe", "lusa",
    "anp", "belga", "aap", "pa", "upi", "tass", "pap", "ctk", "čtk", "mti", "bta", "hina", "sta",
    "tt", "ntb", "ians", "pti", "ani", "aa", "dha", "iha", "ddp", "dts", "kyodo", "yonhap",
    "xinhua", "reuters", "bernama", "antara"})
"""News agencies by the names bylines credit them with ("Von dpa", "(AFP)", "SID"): a writer
of news pages, though written in capitals as credentials are."""
# "By" in the languages we crawl, at the start of a byline. Words that also open surnames
# ("De Luca", "Da Silva", "Von Trier") count only before a colon or two more words.
_BY = re.compile(
    r"^\s*(?:(?:written|posted|published|submitted|reported|(?:additional\s+)?reporting|writing|text"
    rf"|words|story|photos?|{_PIECE_KIND}"
    r"|(?:(?:view|see)\s+all\s+|more\s+)?(?:articles|posts|stories))\s+)?"
    r"(?:by|from|przez|от|автор|tekst|texte|texto|testo|"
    r"author|autor|auteur|autore|auteurs|authors|écrit par|escrito por|scritto da|"
    f"{_BY_WORDS}|{_AUTHOR_WORDS}|skrevet av|skrivet av|"
    r"geschrieben von|(?:von|par|por|di|da|de|door|av|af)(?=\s*[:：]|\s+\S+\s+\S"
    rf"|\s+(?:{'|'.join(sorted(AGENCIES))})\b))\b\s*[:：]?\s*"
    r"|^\s*(?:作者|记者|撰文|文|编辑|责任编辑|来源|筆者|著者|記者|기자)\s*[：:/／|]\s*",
    re.I,
)
BY_PREFIX = re.compile(
    rf"^\s*(?:(?:written|posted|reported|words|story|{_PIECE_KIND})\s+)?(?:by\b\s*[:：]?\s*\S"
    r"|(?:von|par|por|di|door|av|af|przez|от|автор|écrit par|escrito por|scritto da"
    rf"|geschrieben von|{_BY_WORDS})\b\s*[:：]?\s*(?-i:(?![a-z]))[^\W\d_])"
    r"|^\s*(?:作者|记者|撰文|文|筆者|著者|記者)\s*[：:/／|]",
    re.I,
)
"""A line that reads as a byline by its first word. The other languages' words for "by" are
also words of English or of their own prose ("Door & Window Sensor", "door fittings", "Por
qué"), so a name must follow them: a letter, not lower-case ASCII (a lower-case handle
follows only "by")."""
BY_ONLY = re.compile(r"^\s*(?:(?:written|posted)\s+)?(?:by|von|par|por|di|door|av|af|przez"
                     rf"|{_BY_WORDS})\s*[:：]?\s*$", re.I)
# Labels that name the writer on the next line or after them, stronger than a bare "By", so
# they are also trusted in an author box at the end of an article: "Written by", "Article by",
# "Posted by", "Author:", "Autorin:", "Contributors:".
_LABEL = (r"(?:(?:written|posted|article|story|words|reported|text)\s+by|authors?"
          r"|autor(?:in|en|es)?|auteur(?:e|s)?|autore|autori|contributors?|verfasst von"
          rf"|rédigé par|{_AUTHOR_WORDS})")
AUTHOR_LABEL = re.compile(rf"^\s*{_LABEL}\s*[:：]?\s*$", re.I)
"""A line that is only such a label: the name is on the next line."""
AUTHOR_LABELLED = re.compile(
    r"^\s*(?:(?:written|posted|article|story|words|reported)\s+by|verfasst von|rédigé par)"
    r"\s*[:：]?\s*"
    r"|^\s*(?:authors?|autor(?:in|en|es)?|auteur(?:e|s)?|autore|autori|contributors?"
    rf"|{_AUTHOR_WORDS})\s*[:：]\s*",
    re.I,
)
"""A line that starts with such a label (a bare "Author" needs its colon: "Author interviews")."""
AUTHOR_LABEL_START = re.compile(rf"\s*{_LABEL}", re.I)
"""Either of the two, loosely: one cheap test per line before a block is read closely."""
# Credits that name someone other than the writer: the whole piece is dropped.
_NOT_WRITER = re.compile(
    r"(?i)^\s*(?:(?:medically\s+|fact[- ]?)?(?:reviewed|checked|edit(?:ed|ing)|illustrat\w*"
    r"|photo\w*|images?|video|produced|translated|design\w*|code|graphics?)\b(?:\s+by)?\b|"
    r"(?:photos?|images?|illustrations?|graphics?)\s*:|"
    # editors, sources (an outlet) and photographers in Chinese and Japanese credits
    r"(?:责任编辑|責任編輯|编辑|編輯|责编|責編|来源|來源|摄影|攝影|写真)\s*[：:/／])"
)
_CJK_REPORTER = "记者|記者|通讯员|通訊員|实习生|實習生"
"""Reporter, correspondent, intern: the roles a Chinese credit line names its writers by."""
_CJK_ROLE = re.compile(
    rf"(?:本报|本報)?(?:{_CJK_REPORTER}|特约记者|特約記者|编辑|责编|责任编辑|기자)")
_CJK_SPLIT = re.compile(r"[、，,；;\s]+")
_URL_OR_MAIL = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\w+")
HANDLE = re.compile(r"(?<!\w)@\w+")
_DATEISH = re.compile(
    r"(?i)(?:\b(?:updated|published|posted|modified|last updated|on|am|le|el|il)\b\s*[:.]?\s*)?"
    r"(?:\b\d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b|\b\d{1,2}\s+\w{3,9}\.?,?\s+\d{4}\b|"
    r"\b\w{3,9}\.?\s+\d{1,2},?\s+\d{4}\b|\b\d{4}\b|\b\d{1,2}:\d{2}\b.*$|\b\d+\s+(?:min|hours?|"
    r"days?|minutes?)\b.*$|"
    # "Mar 6", "6 March": this year's dates are often printed without the year.
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|"
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b)"
)
# A label that ends in "by" ("Recipe by", "Article by", "Insights from") names no one: the
# name is on the next line.
_BY_LABEL = re.compile(r"(?i)(?:^|\s)(?:by|from|von|par|por|door|przez)$")
_SEPARATORS = re.compile(r"\s*(?:[|•·;\n\t]|\s[-–—]\s)\s*")
_SPLIT = re.compile(
    r"\s*(?:,|;|&|\+|/|\band\b|\bund\b|\bet\b|\ben\b|\boch\b|\bog\b|\bva\b"
    r"|(?-i:(?<=\s)[yei](?=\s))"
    r"|(?-i:(?<=[\s(])(?:with|avec|mit|con|com|met)(?=\s)))\s*",
    re.I,
)
"""Between names: "and" in several languages, and "with" ("Martin Untersinger (avec Damien
Leloup et Morgane Tual)": co-writers) in lower case and between spaces only, since "Mit" and
"Con" are also given names and ".com" ends an outlet's. The one-letter "and"s (Spanish "y",
Italian "e", Polish "i") likewise: in capitals they are initials ("Mary E. Smith")."""
_ROLE_WORDS = frozenset(
    """
staff writer writers reporter reporters editor editors editorial correspondent correspondents
contributor contributors contributing columnist columnists senior chief managing associate
assistant deputy executive news desk special photographer photographers photos photo
producer analyst director founder ceo author authors host guest freelance journalist
journalists bureau international national political politics business science health sports
technology tech culture opinion features investigations investigative data video digital
press release wire service services the of for and at in our rédaction redaktion redacción
redazione redacao redação journaliste periodista giornalista redakteur redakteurin
korrespondent korrespondentin envoyé spécial spéciale corresponsal corrispondente
published updated posted submitted last read reading min mins minute minutes share follow
comments more print email e-mail
mon tue wed thu fri sat sun monday tuesday wednesday thursday friday saturday sunday today
yesterday ago about view all profile bio sponsored advertisement
""".split()  # noqa: SIM905 - a word list reads better as prose
)
_CREDENTIAL = re.compile(
    r"^(?:[A-Z][A-Z]?\.?){1,4}(?:[-\s]\d+)?$|^(?i:ph\.?\s?d|m\.?d|r\.?n|jr|sr|esq|mba|msc|bsc|"
    r"phd|dr|prof|rd|ms|ma|ba|cpa|cfa)\.?$"
)
_GENERIC = frozenset({
    "admin", "administrator", "staff", "editor", "editors", "redaction", "rédaction", "redaktion",
    "guest", "anonymous", "unknown", "null", "none", "undefined", "user", "author", "webmaster",
    "on", "via",
    # what an agency is, printed under its name ("SID" / "Nachrichtenagentur")
    "nachrichtenagentur", "presseagentur", "news agency", "agence de presse", "agenzia",
    # a page's own labels and links, taken from an author field or link: "Home", "Name"
    "home", "name", "comment", "comments", "category", "categories", "contact", "menu",
    "search", "login",
    # Chinese author boxes' and fields' words: article (count), reads, fans, follow, comments,
    # share, anonymous (佚名, 匿名), this site, original, reposted, unknown
    "文章", "阅读", "閱讀", "总阅读", "總閱讀", "粉丝", "粉絲", "关注", "關注", "评论", "評論",
    "分享", "收藏", "佚名", "匿名", "本站", "原创", "原創", "转载", "轉載", "未知",
})
_COLLECTIVE = frozenset({"staff", "desk", "team", "editors", "newsroom", "news", "press",
                         "redaktion", "rédaction", "redacción", "redazione"})
"""The last word of a newsroom's or an outlet's name ("Podium Staff", "BBC News", "Associated
Press"): a name that ends in one keeps its words, though each is also a role's."""
# Left after a date is cut from "Jane Doe on March 5": lower-case, so "Audiophile On" stays.
_TRAILING = frozenset({"on", "via", "am", "le", "el", "il"})
_TRIM = " \t\n\r.,;:|-–—·•*()[]{}\"'“”‘’«»"
_FILED_FROM = re.compile(r"^([A-Z][\w'’.-]*(?:\s[A-Z][\w'’.-]*){1,3})"
                         r"\sin(?:\s[A-Z][\w'’.-]*){1,3}$")
"""Where the writer filed from, after a full name: "Jane Doe in London" (the Guardian's,
Reuters' style)."""


# Chinese (and Japanese) credit lines, which name the writer without a "By": "记者 张三",
# "（总台记者 张三）", "本报实习生 王五 本报记者 张三 李四", "新京报记者 张三 山东冠县报道",
# "XX日报·XX记者 张三", "（张三 上海报道）", "作者：张三", "文/张三", "文・山田太郎".
CJK_CREDIT_LEAD = re.compile(
    rf"(?:^|(?<=\s))(?:\S{{0,12}}?(?:{_CJK_REPORTER}|撰稿人?)(?:\s*[:：]|(?=\s|$))"
    r"|(?:作者|撰文|文字?|图文|圖文|筆者|笔者)\s*[:：/／・])\s*"
)
"""A reporter's credit with its outlet ("本报记者", "新华日报·XX记者") or a writer's label."""
_CJK_REPORTED = re.compile(rf"(?:\s+|\s*[/／]\s*)[{HAN}]{{2,10}}(?:报道|報道|報導|报导)$"
                           rf"|\s*(?:发自|發自)[{HAN}]{{2,8}}$")
"""Where the reporter filed from, after the names: "上海报道", Taiwan's "／台北報導", "发自北京"."""
_CJK_ROLE_GLUED = re.compile(rf"^\S{{0,12}}?(?:{_CJK_REPORTER})\s*[:：]?\s*")
_CJK_CREDIT_NAME = re.compile(
    rf"[{HAN}]{{2,4}}|[{HAN}]{{1,6}}(?:[·・•][{HAN}]{{1,6}})+|[A-Za-z][\w.-]{{1,29}}")
CJK_POSTED_BY = re.compile(
    r"由(?![于於])\s*(\S{2,12}?)\s*(?:张贴|張貼|发表|發表)(?:于|於)?\s*[@:：]?")
"""A blog's or forum's "posted by" ("由张三发表于", "由张三张贴 @"); 由于 is "because"."""
_CJK_BRACKETS = "（()）【】[] \u3000"
_CJK_LAST_BRACKET = re.compile(r"[（(]([^（()）]{2,40})[）)]$")
_CJK_MAX_NAMES = 8


_KO_CREDIT = re.compile(
    r"(?:[\[(【][^\])】]{1,30}[\])】]\s*)?"
    rf"((?:[{HANGUL}]{{2,4}}[\s·,]+){{0,{_CJK_MAX_NAMES - 1}}}?[{HANGUL}]{{2,4}})\s*"
    r"(?:특파원|선임기자|객원기자|인턴기자|기자)"
    r"(?:\s*[\w.+-]+@[\w.-]+\.\w+)?\s*(=|$)")
"""A Korean credit: names, then the role ("홍길동 기자", "홍길동 기자 hong@example.co.kr"), as a
line of its own or opening the story after the dateline ("(서울=연합뉴스) 홍길동 기자 = ...").
Each name ends at a separator: names that may also run together backtrack exponentially on a
sentence that is no credit (eight words took 20 s)."""


def cjk_credit(text: str) -> str | None:
    """The names a Chinese, Japanese or Korean credit line gives, space-separated, or None when
    the text is not one. The whole text must be the credit (or, at the end of a paragraph, its
    last bracket): a label or a reporter's role first, or a place with "报道" (reported from) last,
    and nothing but names between, each 2-4 Han characters, a dotted transcription or a Latin
    handle; or a post's "由张三发表于" (posted by). Prose that mentions a reporter ("记者看到……")
    is none. Editors (编辑) and sources (来源: an outlet) are not credited as writers."""
    text = text.strip()
    korean = _KO_CREDIT.match(text)
    if korean:
        return " ".join(re.split(r"[\s·,]+", korean.group(1)))
    posted = CJK_POSTED_BY.fullmatch(text)
    if posted:
        return posted.group(1) if _CJK_CREDIT_NAME.fullmatch(posted.group(1)) else None
    if len(text) > 60 or text[-1:] in "）)" and text[:1] not in "（(":
        m = _CJK_LAST_BRACKET.search(text)
        if m is None:
            return None
        text = m.group(1)
    text = text.strip(_CJK_BRACKETS)
    reported = _CJK_REPORTED.search(text)
    if reported:
        # with the place filed from, the role may run into the name: "記者陳大文／台北報導"
        text = _CJK_ROLE_GLUED.sub("", text[:reported.start()], count=1)
    lead = CJK_CREDIT_LEAD.match(text)
    if lead is None and not reported:
        return None
    names = [n for n in _CJK_SPLIT.split(CJK_CREDIT_LEAD.sub(" ", text)) if n]
    if not names or len(names) > _CJK_MAX_NAMES:
        return None
    if not all(_CJK_CREDIT_NAME.fullmatch(name) for name in names):
        return None
    return " ".join(names)


def _title_if_shouting(name: str) -> str:
    """``JANE DOE`` reads as ``Jane Doe``, ``LYNNE O'DONNELL`` as ``Lynne O'Donnell`` and
    ``JEAN-PIERRE`` as ``Jean-Pierre``; mixed-case names keep their spelling (McDonald)."""
    if name.isupper() and len(name) > 3:
        return " ".join(_LETTERS.sub(lambda m: m[0].capitalize(), w) if _NAME_WORD.match(w)
                        else w for w in name.split())
    return name


_NAME_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*[.,]?$")
"""A word of letters, with an apostrophe or hyphen inside; a credential ("CEPF®") or a handle
("CC7567") is not a word to recase."""


_LETTERS = re.compile(r"[^\W\d_]+")
_LATIN_PAIR = re.compile(r"[A-Za-z]{2}")


def _is_role(piece: str) -> bool:
    """Compiled patterns, not ``re.findall(pattern, ...)``: re's cache lookup doubled the cost of
    a call made for every piece of every author string."""
    words = _LETTERS.findall(piece.lower())
    return bool(words) and _ROLE_WORDS.issuperset(words)


# Template placeholders a page shipped unfilled: "{{ author }}", "${author}",
# "page.head.extra.author".
_PLACEHOLDER = re.compile(r"[{}$<>]|^[A-Za-z_]+(?:\.[A-Za-z_]{2,}){2,}$")


# The last seven are an organisation's: "Society for the Blind".
_NAME_PARTICLES = frozenset(
    """
van von der den des het de da di du del della degli dei dos das la le bin binti bint ibn ben al
el las los ter ten zu zur vom af av the for and with from our its
""".split()  # noqa: SIM905 - a word list reads better as prose
)
"""Lower-case words that names and organisations' names hold ("Jan van der Berg")."""


def _valid(name: str) -> bool:
    # A colon marks a credit ("design: Jane Doe", "Photo: ..."), or CSS: the writer's own
    # label ("Author:", "By:") is cut before a name gets here.
    if (not name or len(name) > _MAX_NAME or name.lower() in _GENERIC
            or _PLACEHOLDER.search(name) or ":" in name):
        return False
    if not any(c.isalpha() for c in name):
        return False
    if CJK_CHAR.search(name):
        return len(name) <= 12
    return not _prose(name)


_SENTENCE_WORDS = frozenset({"is", "are", "was", "were", "has", "have", "had", "this", "that",
                             "these", "those", "you", "your", "will", "can"})
"""Lower-case words that a sentence holds and no name does ("This review is posted in")."""
_IMPERATIVES = frozenset(
    """
visit get read see view follow contact shop click sign subscribe join learn discover explore
browse find download watch leave write send call email book buy order try start
""".split()  # noqa: SIM905 - a word list reads better as prose
)
"""A link's verb: "Visit the Acme Store", "Get in touch" are calls to action, not names."""


def _prose(name: str) -> bool:
    """Words that read as a sentence, a description or a call to action, not as a name."""
    words = name.split()
    if len(words) > _MAX_WORDS:
        return True
    if len(words) > 1 and (
            name[-1] in "!?" or any(w in _SENTENCE_WORDS for w in words)
            or (words[0].lower() in _IMPERATIVES and words[1][:1].islower())):
        return True
    if not any(c.isupper() or c.islower() for c in name):
        return False  # a script without case (Arabic, Hebrew, Thai, Hangul, Devanagari)
    # A name has at least one capitalised word (or is a handle: lower case, "xJewishNinjax");
    # three lower-case words are a phrase of prose ("never looked back"), not a handle.
    if not any(w[:1].isupper() for w in words):
        return not (len(words) == 1 or name.islower() and len(words) <= 2)
    # Capitalised words beside two lower-case ones are a sentence ("By default Compose sets up
    # a single ...") or a description after the names ("..., Extension horticulture
    # educators").
    lower = sum(1 for w in words
                if w[:1].islower() and len(w) >= 3 and w.isalpha() and w not in _NAME_PARTICLES)
    return lower >= 2


def names_nobody(line: str) -> bool:
    """A line that reads as page text, not a byline: a sentence, a call to action, a page's
    label ("Home", "Coming Soon!"). A box that opens with one is no byline box, so the lines
    after it are not read for a name."""
    text = " ".join(line.split()).strip(_TRIM)
    return text.lower() in _GENERIC or (" " in text and _prose(text))


def _split_cjk(text: str) -> list[str]:
    text = _CJK_ROLE.sub(" ", text)
    return [p for p in _CJK_SPLIT.split(text) if p]


def _names(raw: str) -> list[str]:
    text = _URL_OR_MAIL.sub(" ", raw)
    text = HANDLE.sub(" ", text)
    # Keep what precedes a line/pipe/dash separator unless it was only the byline word.
    pieces = [p for p in _SEPARATORS.split(text) if p.strip(_TRIM)]
    kept: list[str] = []
    for piece in pieces:
        if _NOT_WRITER.match(piece):
            continue
        piece = _BY.sub("", piece, count=1)
        piece = _DATEISH.sub(" ", piece)
        if not piece.strip(_TRIM) or _is_role(piece):
            continue
        kept.append(piece)
    names: list[str] = []
    for piece in kept:
        if CJK_CHAR.search(piece) and not _LATIN_PAIR.search(piece):
            parts = _split_cjk(piece)
        else:
            parts = _SPLIT.split(piece)
            # A line that starts in lower case and goes on as a sentence is prose that opens
            # like a byline ("By this time, a Persian physician ...", Spanish "Por qué ..."):
            # its short pieces are not names either; so is a line without a comma that runs on
            # past a name's length (a headline: "Acme and Initech sign a partnership to ...").
            # (Names first, then a description after a comma, is a byline: "Jane Doe,
            # Candidate Representative to the Committee"; so is "Jane Doe staff writer".)
            if piece.lstrip(_TRIM)[:1].islower() and any(
                    _prose(part) for part in parts if _LETTERS.search(part)):
                continue
            if "," not in piece and any(len(part.split()) > _MAX_WORDS for part in parts):
                continue
        for part in parts:
            part = _BY.sub("", part, count=1)
            part = " ".join(part.split()).strip(_TRIM)
            if part.casefold() in AGENCIES:
                names.append(part)
                continue
            if not part or _CREDENTIAL.match(part) or _BY_LABEL.search(part):
                continue
            # "Jane Doe Staff Writer": drop trailing role words.
            words = part.split()
            # ... except a desk's or a team's name: "Podium Staff", "TOI Lifestyle Desk".
            if words[-1].lower().strip(_TRIM) not in _COLLECTIVE:
                while len(words) > 1 and (words[-1].lower().strip(_TRIM) in _ROLE_WORDS
                                          or words[-1] in _TRAILING):
                    words.pop()
            part = " ".join(words).strip(_TRIM)
            if filed := _FILED_FROM.match(part):
                part = filed.group(1)
            part = _title_if_shouting(part)
            if _is_role(part):  # roles only, or all a date left: "Submitted on <date>"
                continue
            if part.count("(") > part.count(")"):
                # a remark split or trimmed open: "Org (Brand)", "Name (with X and Y)"
                part = part[: part.rfind("(")].strip(_TRIM)
            if _valid(part):
                names.append(part)
    return names


_INVERTED = re.compile(r"^([^\W\d_][\w'’.-]*(?: [\w'’.-]+)?), ([^\W\d_][\w'’. -]*)$")


def invert_name(value: str) -> str:
    """``Doe, Jane`` (library catalogue order, as in ``dc.creator``) to ``Jane Doe``."""
    m = _INVERTED.match(value.strip())
    if not m or _CREDENTIAL.match(m.group(2).strip()):
        return value
    return f"{m.group(2).strip()} {m.group(1)}"


MAX_AUTHOR_VALUES = 100
"""Raw author strings read per source. No page of the four labelled sets has more than 9; a
page of 220,000 author ``<meta>`` tags (the hostile script's ``author_metas``, 10 MB) took
13 s of the crawl's one thread to clean them all."""


def clean_authors(values: Iterable[object]) -> tuple[str, ...]:
    """Names from raw author strings (the first ``MAX_AUTHOR_VALUES``), split, de-duplicated
    case-insensitively, in page order."""
    out: list[str] = []
    seen: set[str] = set()
    for value in islice(values, MAX_AUTHOR_VALUES):
        if not isinstance(value, str):
            continue
        # double-escaped in JSON-LD or meta ("Maria &amp; Katerina"), or mojibake ("JaroÅ\x84")
        raw = readable(value.strip()) or ""
        if not raw or len(raw) > _MAX_RAW or (raw[-1] in ".!?。" and len(raw.split()) >= 15):
            continue  # a template accident, or a sentence: a teaser, a bio, a caption
        for name in _names(raw):
            key = name.casefold()
            if key not in seen:
                seen.add(key)
                out.append(name)
    return tuple(out)

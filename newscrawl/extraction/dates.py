"""Dates as pages write them, to ISO 8601, with absurd values thrown away.

Most pages give machine dates (``2024-03-05T10:00:00+01:00``), so a compiled ISO pattern
handles them without a parser. Everything else goes to python-dateutil, which is already pinned
and handles RFC 2822, US and European orders and English month names; its ``parserinfo`` is
extended with the month names of the other languages we crawl instead of pulling in dateparser,
which is an order of magnitude slower and loads a locale database on import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime, timedelta

from dateutil import parser as _dateutil

_EARLIEST = date(1990, 1, 1)
_FUTURE_SLACK = timedelta(days=2)
_MAX_LEN = 120

_ISO = re.compile(
    r"(\d{4})-?(\d{2})-?(\d{2})"
    r"(?:[T ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?"
)
_CJK_DATE = re.compile(r"(\d{4})\s*[年년/.-]\s*(\d{1,2})\s*[月월/.-]\s*(\d{1,2})\s*[日일]?"
                       r"(?:\s*(\d{1,2})[:时시](\d{2}))?")
_EPOCH = re.compile(r"\d{10}(?:\d{3})?")
_FOUR_DIGITS = re.compile(r"(?<!\d)\d{4}(?!\d)")
_DOTTED = re.compile(r"\b\d{1,2}\.\s?\d{1,2}\.\s?\d{4}\b")
# Labels around a date ("Published:", "mis à jour le"): dateutil's fuzzy mode skips most words
# but not these, which it sometimes reads as tokens.
_NOISE = re.compile(r"(?i)(?:published|posted|updated|modified|mis à jour|actualizado)\s*:?")
_URL_DATE = re.compile(
    r"/((?:19|20)\d{2})(?:([/_-])(\d{1,2})\2(\d{1,2})|(\d{2})(\d{2}))(?=[/_.-]|$)"
)
_URL_WORD_DATE = re.compile(r"/((?:19|20)\d{2})/([a-z]{3,9})/(\d{1,2})(?=[/_.-]|$)", re.I)
"""``/2024/mar/05/``, ``/2023/october/03/``: a path that spells the month."""
_NUMERIC_DATE = re.compile(r"(?<![\d.])(\d{1,2})([./-])(\d{1,2})\2(\d{4})(?!\d)")
_DAY_RANGE = re.compile(r"(?<![\d./:-])\d{1,2}\s*[-\u2013\u2014]\s*\d{1,2}(?![\d./:-])")
""""March 23-26, 2026": a span of days (an event's), not one date."""
_AMOUNT = re.compile(r"[$€£¥₹]\s?\d[\d.,]*|\d[\d.,]*\s?[$€£¥₹]")
"""A price ("$10.85", "14,95 €"): dateutil's fuzzy mode reads its digits as a month and a day
("Wagan EL2022 Air Purifier for $10.85 (list price $14.95)" became 2022-10-14)."""
_SEGMENT_SEPARATORS = re.compile(r"\s[|\u00b7\u2022\u30fb]\s|\s[-\u2013\u2014]\s")
"""Between the date and the rest of a byline line ("Dec 18, 2025 · 12 min read")."""

# Month names of the languages the crawler meets most (dateutil knows only English): French,
# Spanish, Italian, German, Portuguese, Dutch, Polish, Turkish, Russian, Czech, Romanian,
# Hungarian, Finnish, the Scandinavian and Malay/Indonesian spellings, Ukrainian, Greek,
# Catalan, Arabic (Egyptian and Levantine names), Hebrew (also with the "in" prefix dates
# use: "22 בנובמבר 2024") and Hindi, in the forms dates use (genitive where the language
# inflects: "5 ledna 2024").
_MONTHS = [
    ("Jan", "January", "janvier", "janv", "enero", "ene", "gennaio", "gen", "januar", "jänner",
     "janeiro", "januari", "styczeń", "stycznia", "ocak", "январь", "января", "ledna", "leden",
     "ianuarie", "január", "tammikuuta", "січня", "ιανουαρίου", "gener", "يناير", "ינואר",
     "בינואר", "जनवरी"),
    ("Feb", "February", "février", "févr", "fevrier", "febrero", "febbraio", "februar",
     "fevereiro", "fev", "februari", "luty", "lutego", "şubat", "февраль", "февраля", "února",
     "únor", "februarie", "február", "helmikuuta", "лютого", "φεβρουαρίου", "febrer", "فبراير",
     "شباط", "פברואר", "בפברואר", "फ़रवरी", "फरवरी"),
    ("Mar", "March", "mars", "marzo", "märz", "maerz", "março", "marco", "maart", "marzec",
     "marca", "mart", "март", "марта", "mrt", "března", "březen", "martie", "március",
     "maaliskuuta", "marts", "maret", "березня", "μαρτίου", "març", "مارس", "آذار", "מרץ", "במרץ",
     "मार्च"),
    ("Apr", "April", "avril", "avr", "abril", "abr", "aprile", "kwiecień", "kwietnia", "nisan",
     "апрель", "апреля", "dubna", "duben", "aprilie", "április", "huhtikuuta", "квітня",
     "απριλίου", "أبريل", "ابريل", "إبريل", "نيسان", "אפריל", "באפריל", "अप्रैल"),
    ("May", "mai", "mayo", "maggio", "mag", "maio", "mei", "maj", "maja", "mayıs", "май", "мая",
     "května", "květen", "május", "toukokuuta", "травня", "μαΐου", "maig", "مايو", "أيار", "מאי",
     "במאי", "मई"),
    ("Jun", "June", "juin", "junio", "giugno", "giu", "juni", "junho", "czerwiec", "czerwca",
     "haziran", "июнь", "июня", "června", "červen", "iunie", "június", "kesäkuuta", "червня",
     "ιουνίου", "juny", "يونيو", "يونية", "حزيران", "יוני", "ביוני", "जून"),
    ("Jul", "July", "juillet", "juil", "julio", "luglio", "lug", "juli", "julho", "lipiec",
     "lipca", "temmuz", "июль", "июля", "července", "červenec", "iulie", "július", "heinäkuuta",
     "липня", "ιουλίου", "juliol", "يوليو", "يولية", "تموز", "יולי", "ביולי", "जुलाई"),
    ("Aug", "August", "août", "aout", "agosto", "ago", "augustus", "sierpień", "sierpnia",
     "ağustos", "август", "августа", "srpna", "srpen", "augusztus", "elokuuta", "augusti",
     "agustus", "ogos", "серпня", "αυγούστου", "agost", "أغسطس", "آب", "אוגוסט", "באוגוסט",
     "अगस्त"),
    ("Sep", "Sept", "September", "septembre", "septiembre", "setiembre", "settembre", "set",
     "setembro", "wrzesień", "września", "eylül", "сентябрь", "сентября", "září", "septembrie",
     "szeptember", "syyskuuta", "вересня", "σεπτεμβρίου", "setembre", "سبتمبر", "أيلول", "ספטמבר",
     "בספטמבר", "सितंबर", "सितम्बर"),
    ("Oct", "October", "octobre", "octubre", "ottobre", "ott", "oktober", "outubro", "out",
     "październik", "października", "ekim", "октябрь", "октября", "okt", "října", "říjen",
     "octombrie", "október", "lokakuuta", "жовтня", "οκτωβρίου", "أكتوبر", "اكتوبر", "אוקטובר",
     "באוקטובר", "अक्टूबर", "अक्तूबर"),
    ("Nov", "November", "novembre", "noviembre", "novembro", "listopad", "listopada", "kasım",
     "ноябрь", "ноября", "listopadu", "noiembrie", "marraskuuta", "листопада", "νοεμβρίου",
     "نوفمبر", "נובמבר", "בנובמבר", "नवंबर", "नवम्बर"),
    ("Dec", "December", "décembre", "decembre", "déc", "diciembre", "dic", "dicembre", "dezember",
     "dezembro", "dez", "grudzień", "grudnia", "aralık", "декабрь", "декабря", "prosince",
     "prosinec", "decembrie", "joulukuuta", "desember", "disember", "грудня", "δεκεμβρίου",
     "desembre", "ديسمبر", "דצמבר", "בדצמבר", "दिसंबर", "दिसम्बर"),
]

# Slovak, Croatian, Serbian (Cyrillic and Latin), Slovenian, Bulgarian, Macedonian,
# Lithuanian, Latvian, Estonian, Albanian, Icelandic, Azerbaijani, Filipino, Malay, Persian
# (the Gregorian months), Urdu and Bengali: the forms CLDR gives for dates (Babel 2.18's data),
# with the nominatives Croatian also prints, Slovenian's genitives and Latvian's locatives
# ("24. novembrī"). Croatian's "listopad" (October) and Malay's "Mac" are in
# _LANGUAGE_MONTHS: elsewhere they are Polish and Czech for November and an English word.
_MORE_MONTHS = (
    ("januára", "siječnja", "јануар", "януари", "јануари", "sausio", "janvāris", "jaanuar",
     "janar", "janúar", "yanvar", "ژانویهٔ", "ژانویه", "جنوری", "জানুয়ারী", "siječanj", "janvārī",
     "januarja"),
    ("februára", "veljače", "фебруар", "февруари", "vasario", "februāris", "veebruar", "shkurt",
     "febrúar", "fevral", "pebrero", "فوریه", "فوریهٔ", "فروری", "ফেব্রুয়ারী", "veljača",
     "februārī", "februarja"),
    ("ožujka", "marec", "kovo", "märts", "marso", "مارچ", "মার্চ", "ožujak", "martā"),
    ("apríla", "travnja", "април", "balandžio", "aprīlis", "aprill", "prill", "apríl", "aprel",
     "آوریل", "اپریل", "এপ্রিল", "travanj", "aprīlī", "aprila"),
    ("mája", "svibnja", "мај", "gegužės", "maijs", "maí", "مهٔ", "مه", "مئی", "মে", "svibanj",
     "maijā"),
    ("júna", "lipnja", "јун", "junij", "юни", "јуни", "birželio", "jūnijs", "juuni", "qershor",
     "júní", "iyun", "hunyo", "ژوئن", "جون", "জুন", "lipanj", "jūnijā", "junija"),
    ("júla", "srpnja", "јул", "julij", "юли", "јули", "liepos", "jūlijs", "juuli", "korrik",
     "júlí", "iyul", "hulyo", "julai", "ژوئیه", "ژوئیهٔ", "جولائی", "জুলাই", "srpanj", "jūlijā",
     "julija"),
    ("augusta", "kolovoza", "avgust", "rugpjūčio", "augusts", "gusht", "ágúst", "avqust", "اوت",
     "اگست", "আগস্ট", "kolovoz", "augustā", "avgusta"),
    ("septembra", "rujna", "септембар", "septembar", "септември", "rugsėjo", "septembris",
     "shtator", "sentyabr", "setyembre", "سپتامبر", "ستمبر", "সেপ্টেম্বর", "rujan", "septembrī"),
    ("októbra", "октобар", "oktobar", "октомври", "spalio", "oktobris", "oktoober", "tetor",
     "oktyabr", "oktubre", "اکتبر", "اکتوبر", "অক্টোবর", "oktobrī", "oktobra"),
    ("novembra", "studenoga", "новембар", "novembar", "ноември", "lapkričio", "novembris",
     "nëntor", "nóvember", "noyabr", "nobyembre", "نوامبر", "نومبر", "নভেম্বর", "studeni",
     "studenog", "novembrī"),
    ("decembra", "prosinca", "децембар", "decembar", "декември", "gruodžio", "decembris",
     "detsember", "dhjetor", "dekabr", "disyembre", "دسامبر", "دسمبر", "ডিসেম্বর", "prosinac",
     "decembrī"),
)

# Thai, written out and abbreviated ("2 ม.ค. 2567"); Thai pages count years in the Buddhist era.
_THAI_MONTHS = (("มกราคม", "ม.ค."), ("กุมภาพันธ์", "ก.พ."), ("มีนาคม", "มี.ค."), ("เมษายน", "เม.ย."),
                ("พฤษภาคม", "พ.ค."), ("มิถุนายน", "มิ.ย."), ("กรกฎาคม", "ก.ค."), ("สิงหาคม", "ส.ค."),
                ("กันยายน", "ก.ย."), ("ตุลาคม", "ต.ค."), ("พฤศจิกายน", "พ.ย."), ("ธันวาคม", "ธ.ค."))
_MONTHS = [(*names, *more, *thai)
           for names, more, thai in zip(_MONTHS, _MORE_MONTHS, _THAI_MONTHS, strict=True)]
_BUDDHIST_ERA = 543
_BUDDHIST_YEARS = 2400
"""A year from 2400 on is the Buddhist era's (2567 is 2024): no page dates itself so far ahead."""


_THAI_ABBREVIATION = re.compile("|".join(re.escape(abbr) for _, abbr in _THAI_MONTHS))
"""dateutil splits "ม.ค." at its dots: a date it reads spells the month out."""
_THAI_MONTH = {abbr: name for name, abbr in _THAI_MONTHS}


def _common_era(year: int) -> int:
    return year - _BUDDHIST_ERA if year >= _BUDDHIST_YEARS else year


# Iran's solar calendar, in which Persian pages date themselves ("۳ آذر ۱۴۰۵", "۱۴۰۵/۰۹/۰۳").
_JALALI_MONTHS = ("فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور", "مهر", "آبان", "آذر",
                  "دی", "بهمن", "اسفند")
_JALALI_MONTH = {name: i for i, name in enumerate(_JALALI_MONTHS, 1)} | {"امرداد": 5}
_JALALI_DATE = re.compile(
    r"(?<!\d)(\d{1,2})\s*(" + "|".join(sorted(_JALALI_MONTH, key=len, reverse=True))
    + r")(?![^\W\d_])\s*(\d{4})(?!\d)(?:[\s,،\-–|]*(?:ساعت\s*)?(\d{1,2}):(\d{2})(?!\d))?")
_JALALI_YEARS = range(1369, 1421)
"""1990 to 2042: a four-digit year here on a Persian page is the solar calendar's."""
_NOWRUZ_1403 = date(2024, 3, 20)
_JALALI_LEAP = frozenset({1, 5, 9, 13, 17, 22, 26, 30})
"""Leap years by their place in the 33-year cycle, which matches the astronomical calendar
from 1343 to 1473 (1964 to 2094)."""


def _jalali_year_days(year: int) -> int:
    return 366 if year % 33 in _JALALI_LEAP else 365


def _from_jalali(year: int, month: int, day: int) -> date:
    if year not in _JALALI_YEARS or not 1 <= month <= 12 or not 1 <= day <= (
            31 if month <= 6 else 30 if month <= 11 else _jalali_year_days(year) - 336):
        raise ValueError(f"no such solar date: {year}-{month}-{day}")
    days = (sum(map(_jalali_year_days, range(1403, year)))
            - sum(map(_jalali_year_days, range(year, 1403))))
    days += 31 * (month - 1) if month <= 7 else 186 + 30 * (month - 7)
    return _NOWRUZ_1403 + timedelta(days=days + day - 1)


_MONTH_NUMBER = {name.lower(): i for i, names in enumerate(_MONTHS, 1) for name in names}


def word_trie(words: Iterable[str]) -> str:
    """``words`` as one pattern shaped like a trie ("jan(?:uary|vier)?"): ``re`` tries the
    branches of a flat alternation one by one at every position of the text, so five hundred
    month names cost five hundred tries a character, where a trie costs one per letter they
    share. Longer words are tried first, as in an alternation sorted by length."""
    root: dict = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict) -> str:
        branches = [re.escape(ch) + pattern(child) for ch, child in node.items() if ch]
        if not branches:
            return ""
        if "" in node:
            return "(?:" + "|".join(branches) + ")?"
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return pattern(root)


_MONTH_NAME = word_trie(_MONTH_NUMBER)
# "March 5, 2024", "Mar. 5th 2024", "5 March 2024", "5. März 2024", "5 de marzo de 2024", with
# nothing else but a label: read without dateutil (most printed dates look like this).
_WRITTEN_DATE = re.compile(
    r"^[\W_]*(?:(?:published|posted|updated|last updated|modified|on)\b\W*)*"
    rf"(?:(?P<m1>{_MONTH_NAME})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y1>\d{{4}})"
    rf"|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\.?\s+(?:de\s+)?(?P<m2>{_MONTH_NAME})\.?,?\s+(?:de\s+)?"
    r"(?P<y2>\d{4}))[\W_]*$",
    re.I,
)
_HAS_MONTH = re.compile(rf"(?<![^\W\d_])(?:{_MONTH_NAME})(?![^\W\d_])|\d[./-]\d|\d{{8}}", re.I)
"""A month name or a numeric day/month: without either, no text is a date to the day."""


class _ParserInfo(_dateutil.parserinfo):
    MONTHS = _MONTHS  # type: ignore[assignment]
    JUMP = [*_dateutil.parserinfo.JUMP, "de", "del", "di", "du", "le", "el", "à", "um", "年", "月",
            "日"]


# Zone abbreviations dateutil leaves unresolved (it warns and drops them); standard time only.
_ZONES = {"UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "BST": 3600, "CET": 3600, "CEST": 7200,
          "EET": 7200, "EEST": 10800, "MSK": 10800, "IST": 19800, "SGT": 28800, "HKT": 28800,
          "JST": 32400, "KST": 32400, "AEST": 36000, "AEDT": 39600, "NZST": 43200,
          "ET": -18000, "EST": -18000, "EDT": -14400, "CT": -21600, "CST": -21600,
          "CDT": -18000, "MT": -25200, "MST": -25200, "MDT": -21600, "PT": -28800,
          "PST": -28800, "PDT": -25200, "AKST": -32400, "HST": -36000}


def _tzinfos(name: str | None, offset: int | None) -> int | None:
    if offset is not None:
        return offset
    return _ZONES.get(name.upper()) if name else None


_INFO = _ParserInfo()
_INFO_DAYFIRST = _ParserInfo(dayfirst=True)
# Two defaults that differ in every field: a field that comes out the same in both was on the page.
_DEFAULT_A = datetime(2001, 1, 1)
_DEFAULT_B = datetime(2002, 2, 2)


_PAGE_LANGUAGE: ContextVar[tuple[str, bool]] = ContextVar("page_language", default=("", False))
"""The page's primary language subtag and whether it writes slashed dates day first, worked out
once a page by :func:`page_language`."""
_MONTH_FIRST_REGIONS = frozenset({"US", "PH", "CA", "FM", "MH", "PW"})
_YEAR_FIRST_LANGUAGES = frozenset({"zh", "ja", "ko", "hu", "lt", "mn"})
_DOTTED_TIME = re.compile(r"(?<![\d.,])([01]?\d|2[0-3])\.([0-5]\d)(?![\d.,])")
"""A clock time written with a dot, as British, Nordic and Finnish papers print it ("Tue 5 Mar
2024 10.00 GMT", "kl. 10.00"); a dotted date's pieces touch another dot and are not one."""
_GMT_OFFSET = re.compile(r"\b(?:GMT|UTC)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?(?!\d)")
""""GMT+7" as people write it, 7 hours east; dateutil reads it the POSIX way, 7 hours west."""


def writes_day_first(language: str | None) -> bool:
    """Whether pages in ``language`` (BCP 47) write 02/01/2024 for 2 January: English in the
    United States and a few neighbours writes the month first, most other languages and
    English elsewhere the day; year-first languages write the year first and are left to
    the default, as is a page that declares no language."""
    if not language:
        return False
    primary, _, region = language.partition("-")
    if primary == "en":
        return bool(region) and region[:2] not in _MONTH_FIRST_REGIONS
    return primary not in _YEAR_FIRST_LANGUAGES


@contextmanager
def page_language(language: str | None) -> Iterator[None]:
    """Read the dates inside the block as pages in ``language`` (BCP 47) write them: the order
    of a slashed numeric date, and the month words that name another month in another
    language. The readers of a page's dates are a dozen calls deep in the metadata rules, so
    the language travels with the context instead of through each of them."""
    primary = (language or "").partition("-")[0].lower()
    token = _PAGE_LANGUAGE.set((primary, writes_day_first(language)))
    try:
        yield
    finally:
        _PAGE_LANGUAGE.reset(token)


def _word_pattern(words: Iterable[str]) -> re.Pattern[str]:
    return re.compile(r"(?<![^\W\d_])(?:" + "|".join(words) + r")(?![^\W\d_])", re.I)


_CROATIAN_OCTOBER = {"listopad": "October", "listopada": "October"}  # Polish, Czech: November
_LANGUAGE_MONTHS = {"hr": _CROATIAN_OCTOBER, "bs": _CROATIAN_OCTOBER,
                    "ms": {"mac": "March"}}  # an English word elsewhere
_LANGUAGE_MONTH = {language: (_word_pattern(months), months)
                   for language, months in _LANGUAGE_MONTHS.items()}
_VIETNAMESE_MONTH = re.compile(r"(?<![^\W\d_])(?:tháng|thg)\s*(1[0-2]|0?[1-9])(?!\d)", re.I)
""""24 tháng 11, 2026", "ngày 24 tháng 11 năm 2026": Vietnamese numbers its months."""
_ENGLISH_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
                   "September", "October", "November", "December")
_LITHUANIAN_DATE = re.compile(r"(\d{4})\s*m\.\s*([^\W\d_]+)\s+(\d{1,2})\s*d\.")
""""2026 m. lapkričio 24 d.": the "m." (metai, year) reads to dateutil as minutes."""


def _month_words(text: str, primary: str) -> str:
    """``text`` with the month words that need the page's language (``primary``, its primary
    subtag), or a number, spelled in English, and a Lithuanian date's year and day marks
    dropped."""
    if words := _LANGUAGE_MONTH.get(primary):
        pattern, english = words
        text = pattern.sub(lambda m: english[m.group().lower()], text)
    text = _VIETNAMESE_MONTH.sub(lambda m: _ENGLISH_MONTHS[int(m.group(1)) - 1], text)
    if "m." in text:
        text = _LITHUANIAN_DATE.sub(r"\3 \2 \1", text)
    return text


def _now() -> datetime:
    return datetime.now(UTC)


def _plausible(d: date, now: datetime | None) -> bool:
    latest = ((now or _now()) + _FUTURE_SLACK).date()
    return _EARLIEST <= d <= latest


def _offset(tz: str | None) -> str:
    if not tz:
        return ""
    if tz == "Z":
        return "+00:00"
    digits = tz[1:].replace(":", "")
    if len(digits) == 2:
        digits += "00"
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 14 or minutes > 59:
        raise ValueError(tz)
    return f"{tz[0]}{digits[:2]}:{digits[2:]}"


def _format(dt: datetime, has_time: bool) -> str:
    if not has_time:
        return dt.date().isoformat()
    text = dt.replace(microsecond=0).isoformat()
    return text


def _calendar_day(year: int, month: int, day: int) -> date:
    """The day a year-first numeric date names: in the solar calendar on a Persian page."""
    if year in _JALALI_YEARS and _PAGE_LANGUAGE.get()[0] == "fa":
        return _from_jalali(year, month, day)
    return date(year, month, day)


def _from_iso(m: re.Match[str]) -> tuple[str, date] | None:
    year, month, day, hour, minute, second, tz = m.groups()
    d = _calendar_day(int(year), int(month), int(day))
    if hour is None:
        return d.isoformat(), d
    dt = datetime(d.year, d.month, d.day, int(hour), int(minute), int(second or 0))
    return dt.isoformat() + _offset(tz), d


def _from_written(text: str) -> tuple[str, date] | None | bool:
    """A date written out in words, or None for an impossible one; False when the text is not
    of that simple shape and dateutil must decide."""
    m = _WRITTEN_DATE.match(text)
    if not m:
        return False
    month = _MONTH_NUMBER[(m.group("m1") or m.group("m2")).lower()]
    d = date(_common_era(int(m.group("y1") or m.group("y2"))), month,
             int(m.group("d1") or m.group("d2")))
    return d.isoformat(), d


def _from_segments(text: str) -> tuple[str, date] | None | bool:
    """The one written date among the pieces of a line ("Dec 18, 2025 · 12 min read", "By Jane
    | March 5, 2024"); False when no piece is a written date."""
    found: tuple[str, date] | None | bool = False
    for piece in _SEGMENT_SEPARATORS.split(text):
        written = _from_written(piece)
        if written is False:
            continue
        if found is not False:
            return False  # two dates on the line: dateutil, and its checks, decide
        found = written
    return found


def _from_dateutil(text: str) -> tuple[str, date] | None:
    primary, day_first = _PAGE_LANGUAGE.get()
    text = _AMOUNT.sub(" ", _month_words(text, primary))
    written = _from_written(text)
    if written is not False:
        return written  # type: ignore[return-value]
    if not _HAS_MONTH.search(text):
        return None
    if _SEGMENT_SEPARATORS.search(text):
        written = _from_segments(text)
        if written is not False:
            return written  # type: ignore[return-value]
    if _DAY_RANGE.search(text):
        return None
    info = _INFO_DAYFIRST if day_first or _DOTTED.search(text) else _INFO
    text = _GMT_OFFSET.sub(_iso_offset, _NOISE.sub(" ", text))
    text = _DOTTED_TIME.sub(r"\1:\2", text)
    text = _THAI_ABBREVIATION.sub(lambda m: _THAI_MONTH[m.group()], text)
    try:
        a = _dateutil.parse(text, parserinfo=info, default=_DEFAULT_A, fuzzy=True,
                              tzinfos=_tzinfos)
        b = _dateutil.parse(text, parserinfo=info, default=_DEFAULT_B, fuzzy=True,
                              tzinfos=_tzinfos)
    except (ValueError, OverflowError, TypeError):
        return None
    if (a.year, a.month, a.day) != (b.year, b.month, b.day):
        return None  # a year, a month or a day was missing: not a date to the day
    years = _FOUR_DIGITS.findall(text)
    if years and str(a.year) not in years:
        return None  # "January 6-9, 2026" read as 2009: the year the text spells is not it
    a = a.replace(year=_common_era(a.year))
    has_time = (a.hour, a.minute) != (0, 0) or a.tzinfo is not None
    return _format(a, has_time), a.date()


def _at(day: date, hour: str | None, minute: str | None) -> tuple[str, date]:
    if hour is None:
        return day.isoformat(), day
    return datetime(day.year, day.month, day.day, int(hour), int(minute or 0)).isoformat(), day


def _iso_offset(m: re.Match[str]) -> str:
    return f" {m.group(1)}{int(m.group(2)):02d}:{m.group(3) or '00'}"


def parse_date(value: object, now: datetime | None = None) -> str | None:
    """``value`` as ISO 8601 (``YYYY-MM-DD`` or a full timestamp, offset kept), or None.

    None for anything not precise to the day, before 1990 or more than two days ahead of
    ``now``: a wrong date in a corpus is worse than a missing one.
    """
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return None
    text = str(value).strip()
    if not text or len(text) > _MAX_LEN:
        return None
    result: tuple[str, date] | None = None
    try:
        if _EPOCH.fullmatch(text):
            seconds = int(text[:10])
            dt = datetime.fromtimestamp(seconds, UTC)
            result = dt.isoformat(), dt.date()
        elif (m := _ISO.match(text)) and (m.end() == len(text) or not text[m.end()].isdigit()):
            result = _from_iso(m)
        elif m := _CJK_DATE.search(text):
            y, mo, d, h, mi = m.groups()
            result = _at(_calendar_day(int(y), int(mo), int(d)), h, mi)
        elif m := _JALALI_DATE.search(text):
            d, mo, y, h, mi = m.groups()
            result = _at(_from_jalali(int(y), _JALALI_MONTH[mo], int(d)), h, mi)
        else:
            result = _from_dateutil(text)
    except (ValueError, OverflowError, OSError):
        return None
    if result is None or not _plausible(result[1], now):
        return None
    return result[0]


def instant(iso: str) -> datetime | None:
    """A ``parse_date`` result as an aware datetime, or None when it has no time or offset."""
    if len(iso) <= 10:
        return None
    try:
        dt = datetime.fromisoformat(iso)
    except ValueError:
        return None
    return dt if dt.tzinfo is not None else None


_ZONE_WEST = timedelta(hours=12)
_ZONE_EAST = timedelta(hours=14)
"""The widest offsets in use (UTC-12, UTC+14)."""


def zone_days(iso: str) -> tuple[date, date] | None:
    """The first and last calendar day the timestamp ``iso`` falls on somewhere on Earth, or
    None when it gives no offset (a day alone, or a local time of unknown zone)."""
    dt = instant(iso)
    if dt is None:
        return None
    utc = dt.astimezone(UTC)
    return (utc - _ZONE_WEST).date(), (utc + _ZONE_EAST).date()


def swapped_date(text: str, day: str) -> str | None:
    """The other reading of the numeric date in ``text`` that was read as ``day``: 02-12-2025
    is 12 February or 2 December. None when the date is not ambiguous (13/02/2025, 02/02/2025)."""
    m = _NUMERIC_DATE.search(text)
    if not m:
        return None
    a, b, year = int(m.group(1)), int(m.group(3)), int(m.group(4))
    if a == b or a > 12 or b > 12:
        return None
    for reading in (date(year, a, b).isoformat(), date(year, b, a).isoformat()):
        if reading != day[:10]:
            return reading
    return None


def url_date(url: str | None, now: datetime | None = None) -> str | None:
    """The day a URL path spells out (``/2024/03/05/``, ``/20240305/``, ``/2024/mar/05/``),
    or None."""
    if not url:
        return None
    m = _URL_DATE.search(url)
    try:
        if m:
            year, _, month, day, month8, day8 = m.groups()
            d = date(int(year), int(month or month8), int(day or day8))
        elif (m := _URL_WORD_DATE.search(url)) and m.group(2).lower() in _MONTH_NUMBER:
            d = date(int(m.group(1)), _MONTH_NUMBER[m.group(2).lower()], int(m.group(3)))
        else:
            return None
    except ValueError:
        return None
    return d.isoformat() if _plausible(d, now) else None

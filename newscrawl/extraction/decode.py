"""Bytes to text the way a browser chooses the encoding, without ever raising.

Order: BOM, the HTTP Content-Type header, ``<meta charset>`` (also inside a non-HTML wrapper
such as ``<text encoding="gb2312">``), then UTF-8 (and ISO-2022-JP, which passes for ASCII),
then a statistical guess, in which the page's language (declared, else its country domain's,
else its words') settles the Latin code pages the guess confuses. Legacy labels are upgraded
to their supersets (gb2312/gbk → gb18030, latin-1 → cp1252) by w3lib.
"""

from __future__ import annotations

import codecs
import html
import re
from urllib.parse import urlsplit

from charset_normalizer import from_bytes
from w3lib.encoding import (
    html_body_declared_encoding,
    html_to_unicode,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

from newscrawl.extraction.language import detect

# Signatures of bodies that are not text whatever their Content-Type says.
_BINARY_MAGIC = (
    b"%PDF", b"\x89PNG", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b",
    b"RIFF", b"OggS", b"ID3", b"\x00\x00\x01\x00", b"BM", b"Rar!", b"7z\xbc\xaf", b"wOFF",
    b"wOF2", b"\x7fELF", b"MZ",
)
_WRAPPER_ENCODING = re.compile(rb"""<text\b[^>]*\bencoding\s*=\s*["']?([\w.:-]+)""", re.I)
_SNIFF_BYTES = 65536
# Every byte but the control bytes that text does not use (below 9, and 14 to 31 but ESC,
# which ISO-2022-JP text uses at every switch between ASCII and Japanese).
_NOT_CONTROL = bytes(b for b in range(256) if not (b < 9 or 13 < b < 32) or b == 27)
# ISO-2022-JP's escapes into JIS X 0208 and JIS X 0201: 7-bit text that strict UTF-8 would
# take for ASCII.
_ISO2022_JP = re.compile(rb"\x1b(?:\$[@B]|\([IJ])")


class NotText(ValueError):
    """The body is not HTML text (binary, empty); ``str(exc)`` is the drop reason."""


def _utf16_without_bom(head: bytes) -> str | None:
    """``utf-16-le``/``-be`` when the bytes read as UTF-16 give markup (UTF-16 sent without a
    BOM): a ``<``, a tenth of the first characters printable ASCII and next to no control
    characters. Text in another script after a short ``<head>`` passes, as a count of the
    markup's NULs would not; other bytes give printable ASCII only where a NUL meets a byte
    from 32 to 126 (1 character in 700 for random bytes), small integers give controls."""
    head = head[:512]
    if len(head) < 16:
        return None
    for codec in ("utf-16-le", "utf-16-be"):
        text = head[: len(head) // 2 * 2].decode(codec, "replace")
        ascii_ = text.encode("ascii", "ignore")
        controls = len(ascii_.translate(None, _NOT_CONTROL))
        if "<" in text and len(ascii_) >= len(text) / 10 and controls <= len(text) / 32:
            return codec
    return None


def looks_binary(body: bytes) -> bool:
    """True for known binary signatures or a body whose first KiB has over 3 % control bytes."""
    head = body[:1024].lstrip()
    if head.startswith(_BINARY_MAGIC):
        return True
    if not head:
        return False
    # UTF-16/32 text carries NULs: trust a BOM or the NUL pattern before counting them.
    if read_bom(body[:4])[0] is not None or _utf16_without_bom(body[:1024]):
        return False
    controls = len(head.translate(None, _NOT_CONTROL))  # counted in C, not byte by byte
    # Text has next to none; uniformly random bytes have 27/256 (10.5 %).
    return controls > len(head) // 32


def _detect(body: bytes) -> str | None:
    best = from_bytes(body[:_SNIFF_BYTES]).best()
    return best.encoding if best is not None else None


def _meta_encoding(body: bytes) -> str | None:
    enc = html_body_declared_encoding(body[:_SNIFF_BYTES])
    if enc:
        return enc
    m = _WRAPPER_ENCODING.search(body[:4096])
    return resolve_encoding(m.group(1).decode("ascii")) if m else None


def _decodes(body: bytes, encoding: str) -> str | None:
    try:
        return body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def _non_ascii(text: str) -> int:
    return len(text) - len(text.encode("ascii", "ignore"))


def _nearly_decodes(body: bytes, encoding: str) -> bool:
    """A few bad bytes (a truncated character, one stray byte) among many good characters.

    Pages are often spliced together from parts, so one bad sequence should not throw away
    an otherwise valid declaration, nor valid UTF-8.
    """
    try:
        text = body.decode(encoding, "replace")
    except LookupError:
        return False
    bad = text.count("\ufffd")
    good = _non_ascii(text) - bad
    return good >= 20 * max(bad, 1)


# Labels that decode any byte sequence (nearly), so a server's "ISO-8859-1" default proves little.
_WEAK = frozenset({"cp1252", "latin_1", "iso8859-1", "ascii"})
_LETTERS = re.compile(r"[^\W\d_]+")


def _looks_mojibake(text: str) -> bool:
    """Latin-script text has a few accented letters per word; another script read as cp1252
    turns whole words into accented Latin letters (``Ïðàâèòåëüñòâî``)."""
    accented = total = 0
    for word in _LETTERS.findall(text, 0, _SNIFF_BYTES):
        if not word.isascii():
            total += len(word)
            accented += sum(1 for c in word if c > "\x7f")
    return total >= 20 and accented > 0.6 * total


def _detect_tolerant(body: bytes) -> str | None:
    """A detector guess when a few bad bytes make every strict decoding fail."""
    for candidate in ("gb18030", "big5", "shift_jis", "euc-kr", "euc-jp"):
        text = body[:_SNIFF_BYTES].decode(candidate, "replace")
        bad = text.count("\ufffd")
        if bad and bad * 50 <= _non_ascii(text):
            guess = _detect(text.replace("\ufffd", "").encode(candidate, "replace"))
            if guess:
                return guess
    return None


_ASCII_LETTERS = bytes(range(65, 91)) + bytes(range(97, 123))


def _detect_around_latin(body: bytes) -> str | None:
    """A detector guess for Korean that glues its particles to English words ("iPhone과",
    "App Store에서"): the detector reads such words as mixed scripts and refuses every code
    page, so it is asked again without the ASCII letters, and the guess must still decode the
    page. EUC-KR's bytes are all above ASCII, so the letters' removal does not cut them."""
    guess = _detect(body[:_SNIFF_BYTES].translate(None, _ASCII_LETTERS))
    return guess if guess is not None and _nearly_decodes(body, guess) else None


# Languages written in Latin script: their legacy code page (the locale default a browser
# falls back to for an undeclared page) and the letters beyond ASCII their words use. The
# detector tells other scripts apart well; it is the Latin code pages, which differ in a
# handful of letters, that it confuses on a short page.
_LATIN_LANGUAGES = {
    "en": ("cp1252", "éèêëàâäçñöüïôûœæ"),  # loanwords: café, naïve, façade
    "fr": ("cp1252", "àâæçéèêëîïôœùûüÿ"),
    "es": ("cp1252", "áéíóúñü"),
    "pt": ("cp1252", "áâãàçéêíóôõú"),
    "it": ("cp1252", "àèéìíîòóùú"),
    "de": ("cp1252", "äöüß"),
    "nl": ("cp1252", "éèëïöüáóúàâêô"),
    "sv": ("cp1252", "åäöé"),
    "da": ("cp1252", "æøåé"),
    "no": ("cp1252", "æøåéò"),
    "nb": ("cp1252", "æøåéò"),
    "nn": ("cp1252", "æøåéò"),
    "fi": ("cp1252", "äöåšž"),
    "is": ("cp1252", "áðéíóúýþæö"),
    "ca": ("cp1252", "àçèéíïòóúü"),
    "pl": ("cp1250", "ąćęłńóśźż"),
    "cs": ("cp1250", "áčďéěíňóřšťúůýž"),
    "sk": ("cp1250", "áäčďéíĺľňóôŕšťúýž"),
    "hu": ("cp1250", "áéíóöőúüű"),
    "sl": ("cp1250", "čćšž"),
    "hr": ("cp1250", "čćđšž"),
    "bs": ("cp1250", "čćđšž"),
    "ro": ("cp1250", "ăâîșțşţ"),
    "tr": ("cp1254", "çğıöşüâî"),
    "lt": ("cp1257", "ąčęėįšųūž"),
    "lv": ("cp1257", "āčēģīķļņšūž"),
    "et": ("cp1257", "äöõüšž"),
}
# ISO code pages that place some of their Windows sibling's letters elsewhere.
_ISO_SIBLING = {"cp1250": "iso8859-2", "cp1257": "iso8859-13"}
# Country domains with one Latin-script language, for a page that declares none (browsers
# weigh the domain the same way: Firefox's detector takes the top-level domain as a hint).
_LANGUAGE_OF_DOMAIN = {
    "fr": "fr", "es": "es", "mx": "es", "ar": "es", "co": "es", "cl": "es", "pe": "es",
    "pt": "pt", "br": "pt", "it": "it", "de": "de", "at": "de", "nl": "nl", "se": "sv",
    "dk": "da", "no": "no", "fi": "fi", "is": "is", "cat": "ca", "pl": "pl", "cz": "cs",
    "sk": "sk", "hu": "hu", "si": "sl", "hr": "hr", "ba": "bs", "ro": "ro", "tr": "tr",
    "lt": "lt", "lv": "lv", "ee": "et", "uk": "en", "ie": "en", "us": "en", "au": "en",
    "nz": "en",
}
# Single-byte code pages of Latin script, as codecs names them: a detector's guess among these
# is one the declared language may overrule.
_LATIN_CODECS = frozenset({
    "cp1250", "cp1252", "cp1254", "cp1257", "cp1258", "cp437", "cp775", "cp850", "cp852", "cp858",
    "latin-1", "iso8859-1", "iso8859-2", "iso8859-3", "iso8859-4", "iso8859-9", "iso8859-10",
    "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16", "mac-latin2", "mac-roman",
    "mac-iceland", "mac-turkish", "hp-roman8",
})
_DECLARED_LANGUAGE = re.compile(
    rb"""<html\b[^>]*?\blang\s*=\s*["']?\s*([a-z]{2,3})\b"""
    rb"""|http-equiv\s*=\s*["']?content-language["']?\s+content\s*=\s*["']?\s*([a-z]{2,3})\b""",
    re.I)


_RAW_TEXT = re.compile(r"<(script|style)\b", re.I)
_RAW_TEXT_END = {"script": re.compile(r"</script\s*>", re.I),
                 "style": re.compile(r"</style\s*>", re.I)}
_TAG_OR_ENTITY = re.compile(r"<[^<>]*>|&#?\w+;")


def _prose(text: str) -> str:
    """``text`` without its scripts, styles, tags and entities. One pass: a regex that skips
    from ``<script`` to its end tag rescans the rest of the page for every one left open
    (1.6 s for 64 KB of them)."""
    parts, pos = [], 0
    for opening in _RAW_TEXT.finditer(text):
        if opening.start() < pos:
            continue
        parts.append(text[pos:opening.start()])
        end = _RAW_TEXT_END[opening.group(1).lower()].search(text, opening.end())
        if end is None:
            pos = len(text)
            break
        pos = end.end()
    parts.append(text[pos:])
    return _TAG_OR_ENTITY.sub(" ", "".join(parts))


def _written_language(text: str) -> str | None:
    """The language of the page's words, for a page that names none: read in the guessed
    code page, the few letters it garbles (``og³osi³``) leave a Polish page's other words
    Polish."""
    lang, _ = detect(_prose(text), min_chars=80)
    return lang if lang in _LATIN_LANGUAGES else None


def _latin_language(body: bytes, url: str | None) -> str | None:
    """The page's language when it is one of ``_LATIN_LANGUAGES``: as declared (``<html
    lang>``, or ``Content-Language`` in a ``<meta>``), else as its country domain says."""
    m = _DECLARED_LANGUAGE.search(body, 0, _SNIFF_BYTES)
    if m is not None:
        lang = (m.group(1) or m.group(2)).decode("ascii").lower()
    else:
        try:
            host = urlsplit(url or "").hostname or ""
        except ValueError:
            host = ""
        lang = _LANGUAGE_OF_DOMAIN.get(host.rpartition(".")[2], "")
    return lang if lang in _LATIN_LANGUAGES else None


_LONE_IN_WORD = re.compile(r"(?<=[A-Za-z])[^\x00-\x7f](?![^\x00-\x7f])"
                           r"|(?<![^\x00-\x7f])[^\x00-\x7f](?=[a-z])")


def _words_torn_apart(body: bytes, guess: str) -> bool:
    """Whether a double-byte guess reads Latin-script text: nearly every non-ASCII character
    a lone one inside or at the edge of an ASCII word, as Finnish ``hyväksyi`` read as Big5
    gives ``hyv鄢syi``. Chinese or Japanese text runs its characters together, and mixed
    with English it does not glue single ideographs to English words."""
    text = body[:_SNIFF_BYTES].decode(guess, "replace")
    others = _non_ascii(text)
    return others >= 3 and len(_LONE_IN_WORD.findall(text)) >= 0.9 * others


def _latin_codec(name: str | None) -> bool:
    try:
        return name is not None and codecs.lookup(name).name in _LATIN_CODECS
    except LookupError:
        return False


def _letters(text: str, lang: str) -> tuple[int, int]:
    """(letters of ``lang``'s alphabet, letters) beyond ASCII in ``text``."""
    alphabet = _LATIN_LANGUAGES[lang][1]
    letters = inside = 0
    for c in text[:_SNIFF_BYTES].casefold():
        if c > "\x7f" and c.isalpha():
            letters += 1
            inside += c in alphabet
        elif c > "\x7f" and c.isnumeric():
            letters += 1  # ``³`` or ``¹`` where a letter was meant
    return inside, letters


def _language_codec(body: bytes, lang: str) -> str | None:
    """The code page of ``lang`` that spells ``body`` in it: of the Windows one and its ISO
    sibling, which puts ``ą ś ź`` elsewhere (read as cp1250, ISO-8859-2's ``ą`` is ``±``), the
    one that reads the most of the language's letters, if its letters beyond ASCII (19 in 20
    at least) are that language's. Czech read as cp1252 spells ``pøíštì``, Polish
    ``przyjê³a``."""
    windows = _LATIN_LANGUAGES[lang][0]
    best, inside, letters = None, -1, 0
    for codec in filter(None, (windows, _ISO_SIBLING.get(windows))):
        text = _decodes(body, codec)
        if text is not None and (counts := _letters(text, lang))[0] > inside:
            best, (inside, letters) = codec, counts
    return best if best is not None and inside >= 0.95 * letters else None


def _choose_encoding(body: bytes, content_type: str | None = None, url: str | None = None
                     ) -> tuple[str, str | None]:
    """The codec to read ``body`` with, checked against the bytes rather than trusted.

    BOM first. Then the header and then ``<meta>``: a declaration is taken when it decodes the
    bytes, so a header beats a contradicting ``<meta>`` unless it is wrong. A weak declaration
    (latin-1/cp1252/ascii, often a server default) loses to valid non-ASCII UTF-8, to a
    ``<meta>`` that decodes, and to a detector when reading it as cp1252 garbles whole words.
    Undeclared bytes are tried as UTF-8 (strictly, then allowing a few bad bytes) before the
    detector guesses.

    Also returns the strict UTF-8 decoding when it was made (None otherwise), so ``decode``
    need not decode a UTF-8 page a second time.
    """
    bom = read_bom(body[:4])[0]
    if bom:
        return resolve_encoding(bom) or bom, None
    utf16 = _utf16_without_bom(body[:1024])
    if utf16:
        return utf16, None
    header = http_content_type_encoding(content_type) if content_type else None
    meta = _meta_encoding(body)
    utf8 = _decodes(body, "utf-8")
    weak_fallback = weak_reads = None
    declarations = [e for e in dict.fromkeys((header, meta)) if e and not e.startswith(
        ("utf-16", "utf-32"))]  # no BOM and no NUL pattern: the label is wrong (WHATWG: UTF-8)
    for declared in declarations:
        if declared == "utf-8":
            if utf8 is not None or _nearly_decodes(body, "utf-8"):
                return "utf-8", utf8
            continue
        text = _decodes(body, declared)
        if text is None:
            if declared not in _WEAK and _nearly_decodes(body, declared):
                return declared, utf8
            continue
        if declared not in _WEAK:
            return declared, utf8
        if utf8 is not None and not utf8.isascii():
            return "utf-8", utf8
        if not _looks_mojibake(text):
            # it reads, but a strong declaration after it that reads too wins (a server's
            # ISO-8859-1 default over a Polish page's <meta charset=windows-1250>)
            weak_reads = weak_reads or declared
            continue
        weak_fallback = weak_fallback or declared
    if weak_reads:
        return weak_reads, utf8
    if utf8 is not None:
        if utf8.isascii() and _ISO2022_JP.search(body, 0, _SNIFF_BYTES):
            return "iso2022_jp_ext", None
        return "utf-8", utf8
    if _nearly_decodes(body, "utf-8"):
        return "utf-8", utf8
    guess = _detect(body) or _detect_tolerant(body) or _detect_around_latin(body)
    if guess is not None and not _latin_codec(guess) and _words_torn_apart(body, guess):
        guess = "cp1252"  # a Latin code page; which one, the language below may say
    # Detectors confuse the Latin code pages on a short page (French or Italian as cp1250,
    # Latvian as cp1250, Turkish as ISO-8859-10); the page's language (declared, else its
    # country domain's, else its words') settles it, as a browser's locale would, when its
    # code page spells the bytes in that language.
    if (weak_fallback is None and (guess is None or _latin_codec(guess))
            and (lang := _latin_language(body, url) or _written_language(
                body[:_SNIFF_BYTES].decode(guess or "cp1252", "replace")))):
        hinted = _language_codec(body, lang)
        if hinted is not None and hinted != guess:
            return hinted, utf8
    if guess and (weak_fallback is None or resolve_encoding(guess) not in _WEAK):
        return guess, utf8
    return weak_fallback or next(iter(declarations), "utf-8"), utf8


def decode(body: bytes | str, content_type: str | None = None, url: str | None = None
           ) -> tuple[str, str]:
    """Return ``(encoding, text)``; raise :class:`NotText` for empty or binary bodies.

    See ``decode_page``, which also hands back the bytes when they are the text's UTF-8.
    """
    encoding, text, _ = decode_page(body, content_type, url)
    return encoding, text


def decode_page(body: bytes | str, content_type: str | None = None, url: str | None = None
                ) -> tuple[str, str, bytes | None]:
    """Return ``(encoding, text, utf8)``; raise :class:`NotText` for empty or binary bodies.

    ``url``, the page's address, lends its country domain (``.fr``, ``.lv``) as the page's
    language when the page declares none.

    ``utf8`` is ``body`` itself when it is exactly the UTF-8 encoding of ``text`` (it decoded
    strictly as UTF-8, without a BOM), else None: the parser can then read the bytes as they
    came instead of encoding the text again.

    A declared encoding that does not decode the page (a UTF-8 page labelled ISO-8859-1, a GBK
    page labelled UTF-8) loses to strict UTF-8 and then to a detector's guess; bytes that
    decode in no candidate become U+FFFD. A body that decodes to nothing but whitespace (a
    lone BOM) is ``empty``, like an empty one.
    """
    if isinstance(body, str):
        if not body.strip():
            raise NotText("empty")
        try:
            body.encode("utf-8")
        except UnicodeEncodeError:
            # Lone surrogates (a str built with surrogateescape) make libxml2 drop the rest of
            # the page; bytes never decode to them, so only a str caller can hand them in.
            body = body.encode("utf-8", "replace").decode("utf-8")
        return "utf-8", body, None
    if not body.strip():
        raise NotText("empty")
    if looks_binary(body):
        raise NotText("binary")
    encoding, utf8 = _choose_encoding(body, content_type, url)
    source = None
    if encoding == "utf-8" and utf8 is not None:
        text = utf8  # what html_to_unicode would give: valid UTF-8, no BOM (handled above)
        source = body
    else:
        encoding, text = html_to_unicode(f"text/html; charset={encoding}", body)
    if not text.strip():
        raise NotText("empty")
    return encoding, text, source


MOJIBAKE = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d"
                       "\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022"
                       "\u2026\u2030\u2039\u203a\u20ac\u2122]")
"""A UTF-8 lead byte then a continuation byte, both read as Latin-1 or cp1252 characters."""


def unmangled(text: str) -> str:
    """Text stored as UTF-8 bytes read as Latin-1 or cp1252 before it reached the page
    ("Investorâ\x80\x99s", "Investorâ€™s", "JaroÅ\x84"), read as it was meant. Text with a
    character neither codec has (a real "’", Chinese), or whose bytes are not UTF-8 (real
    accents: "Café", "été»"), is left as it is."""
    if MOJIBAKE.search(text):
        for legacy in ("cp1252", "latin-1"):
            try:
                return text.encode(legacy).decode("utf-8")
            except UnicodeError:
                continue
    return text


def readable(text: str | None) -> str | None:
    """A declared text (title, description, author) as the page means it: double-escaped by
    its CMS ("Q&amp;A", "&#038;"), or mangled as :func:`unmangled` undoes."""
    if text and "&" in text and ";" in text:
        text = html.unescape(text)
    return unmangled(text) if text else text

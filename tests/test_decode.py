"""decode: bytes to text the way a browser would, checked against real encoded bytes.

Every page here is paragraph-length text in its own script, encoded with the codec under test,
so a detector has what a real page gives it; each test asserts the sentence comes back intact,
not merely that something was returned.
"""

from __future__ import annotations

import codecs
import gzip
import json
import random
from pathlib import Path

import pytest

from newscrawl.extraction.decode import NotText, decode, looks_binary

FIXTURES = Path(__file__).parent / "fixtures" / "pages"

ZH = ('北京时间昨天晚上，国家统计局发布了最新的经济数据。数据显示，今年前三个季度全国居民人'
      '均可支配收入比上年同期名义增长百分之六点三，扣除价格因素实际增长百分之五点九。城镇居'
      '民和农村居民的收入差距继续缩小，消费市场总体保持平稳恢复的态势。')
ZH_TW = ('臺北市政府今天宣布，將在明年春天以前完成捷運環狀線北段的規劃工作。市長在記者會上表示'
         '，這條路線將連接多個人口密集的行政區，預計每天可以服務超過二十萬名旅客。交通局長補充'
         '說明，相關的環境影響評估已經進入最後階段。')
JA = ('気象庁によりますと、強い台風十号は今夜遅くから明日の朝にかけて九州南部に接近し、上陸'
      'するおそれがあります。各地で非常に激しい雨が降り、土砂災害や低い土地の浸水、河川の増'
      '水に厳重な警戒が必要です。鉄道各社は明日の始発から運転を見合わせる可能性があると発表'
      'しています。')
KO = ('서울시는 내년부터 대중교통 요금을 단계적으로 인상하는 방안을 검토하고 있다고 밝혔습'
      '니다. 시 관계자는 최근 몇 년 동안 운영 적자가 크게 늘어나 더 이상 요금을 동결하기 어'
      '렵다고 설명했습니다. 시민 단체들은 요금 인상은 신중하게 결정해야 한다고 주장했습니다'
      '.')
RU = ('Правительство утвердило новую программу развития транспортной инфраструктуры на ближ'
      'айшие пять лет. По словам министра, основное внимание будет уделено ремонту регионал'
      'ьных дорог и строительству мостов. Эксперты отмечают, что финансирование определено '
      'лишь частично.')
AR = ('أعلنت وزارة الصحة اليوم عن إطلاق حملة وطنية جديدة للتطعيم ضد الإنفلونزا الموسمية في '
      'جميع المحافظات. وقال المتحدث باسم الوزارة إن الحملة تستهدف كبار السن والأطفال والعام'
      'لين في القطاع الصحي بشكل خاص.')
FR = ("Le conseil municipal a voté mercredi soir le budget de l'année prochaine, après un d"
      'ébat animé sur la rénovation des écoles élémentaires. « Nous avons fait des choix di'
      "fficiles », a déclaré la maire, qui a précisé que les impôts locaux n'augmenteraient"
      ' pas.')
DE = ('Die Größe der neuen Brücke über den Fluss überraschte viele Bürger. Für die Anwohner'
      ' ist der Lärm während der Bauarbeiten äußerst belastend, sagte die Sprecherin der In'
      'itiative.')


def page(text: str, *, head: str = "", lang: str = "") -> str:
    lang_attr = f' lang="{lang}"' if lang else ""
    return (f"<!DOCTYPE html>\n<html{lang_attr}><head>{head}<title>News</title></head>\n"
            f"<body><div class=\"story\"><p>{text}</p></div></body></html>\n")


def meta(charset: str) -> str:
    return f'<meta charset="{charset}">'


# --------------------------------------------------------------------------- fixture folders

@pytest.mark.parametrize("case", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()))
def test_fixture_pages(case: str) -> None:
    folder = FIXTURES / case
    info = json.loads((folder / "meta.json").read_text("utf-8"))
    expected = json.loads((folder / "expected.json").read_text("utf-8"))
    encoding, text = decode((folder / "page.html").read_bytes(), info.get("content_type"))
    assert codecs.lookup(encoding).name == codecs.lookup(expected["encoding"]).name
    for snippet in expected["contains"]:
        assert snippet in text


# --------------------------------------------------------------------------- legacy encodings

SCRIPTS = [
    ("gbk", ZH, "zh"), ("big5", ZH_TW, "zh-TW"), ("shift_jis", JA, "ja"), ("euc-kr", KO, "ko"),
    ("windows-1251", RU, "ru"), ("windows-1256", AR, "ar"), ("windows-1252", FR, "fr"),
    ("euc-jp", JA, "ja"),
]


@pytest.mark.parametrize(("charset", "text", "lang"), SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_declared_in_meta(charset: str, text: str, lang: str) -> None:
    body = page(text, head=meta(charset), lang=lang).encode(charset)
    _, decoded = decode(body)
    assert text in decoded


@pytest.mark.parametrize(("charset", "text", "lang"), SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_undeclared_paragraph_is_detected(charset: str, text: str, lang: str) -> None:
    body = page(text, lang=lang).encode(charset)
    assert charset.encode() not in body.lower()
    _, decoded = decode(body)
    assert text in decoded


def test_undeclared_gbk_is_not_read_as_utf8_or_latin1() -> None:
    encoding, text = decode(page(ZH).encode("gbk"))
    assert encoding == "gb18030"
    assert ZH in text and "\ufffd" not in text


@pytest.mark.parametrize(("charset", "text"), [("windows-1256", AR), ("windows-1251", RU)])
def test_declared_in_header_only(charset: str, text: str) -> None:
    _, decoded = decode(page(text).encode(charset), f"text/html; charset={charset}")
    assert text in decoded


# --------------------------------------------------------------------------- lying declarations

def test_meta_says_latin1_but_bytes_are_utf8() -> None:
    encoding, text = decode(page(FR, head=meta("iso-8859-1")).encode("utf-8"))
    assert encoding == "utf-8"
    assert FR in text and "Ã©" not in text


def test_header_says_utf8_but_bytes_are_cp1252() -> None:
    encoding, text = decode(page(FR).encode("cp1252"), "text/html; charset=utf-8")
    assert encoding == "cp1252"
    assert FR in text and "\ufffd" not in text


def test_header_says_utf8_but_bytes_are_latin1_and_meta_agrees_with_header() -> None:
    body = page(DE, head=meta("utf-8")).encode("latin-1")
    _, text = decode(body, "text/html; charset=UTF-8")
    assert DE in text


def test_header_says_utf8_but_bytes_are_gbk() -> None:
    _, text = decode(page(ZH).encode("gbk"), "text/html; charset=utf-8")
    assert ZH in text


def test_header_wins_over_contradicting_meta_when_it_decodes() -> None:
    body = page(ZH, head=meta("utf-8")).encode("gbk")
    encoding, text = decode(body, "text/html; charset=gbk")
    assert encoding == "gb18030"
    assert ZH in text


def test_header_wins_over_meta_for_utf8_bytes() -> None:
    body = page(ZH, head=meta("gbk")).encode("utf-8")
    encoding, text = decode(body, "text/html; charset=utf-8")
    assert encoding == "utf-8"
    assert ZH in text


def test_meta_wins_when_header_does_not_decode_the_bytes() -> None:
    body = page(ZH, head=meta("gbk")).encode("gbk")
    encoding, text = decode(body, "text/html; charset=utf-8")
    assert encoding == "gb18030"
    assert ZH in text


def test_server_default_latin1_header_loses_to_meta() -> None:
    """Servers send ISO-8859-1 by default; cp1252 decodes almost any byte, so it proves little."""
    body = page(RU, head=meta("windows-1251")).encode("cp1251")
    encoding, text = decode(body, "text/html; charset=ISO-8859-1")
    assert encoding == "cp1251"
    assert RU in text


def test_server_default_latin1_header_loses_to_a_latin_meta_that_reads_too() -> None:
    """Polish as cp1252 reads as Latin letters, no mojibake: only the <meta> knows it."""
    polish = "Rząd ogłosił w środę, że podatki wzrosną od przyszłego roku."
    body = page(polish, head=meta("windows-1250")).encode("cp1250")
    encoding, text = decode(body, "text/html; charset=ISO-8859-1")
    assert encoding == "cp1250"
    assert polish in text


def test_a_utf16_label_the_bytes_refute_is_no_fallback() -> None:
    body = b"<html><body><p>" + bytes(range(0x80, 0xff)) * 2 + b"</p></body></html>"
    encoding, text = decode(body, "text/html; charset=utf-16")
    assert not encoding.startswith("utf-16")
    assert "<p>" in text  # read as UTF-16, the markup was CJK


def test_server_default_latin1_header_on_cyrillic_bytes_without_meta() -> None:
    _, text = decode(page(RU).encode("cp1251"), "text/html; charset=ISO-8859-1")
    assert RU in text


@pytest.mark.parametrize("text", [FR, DE], ids=["fr", "de"])
def test_latin1_header_on_real_latin_text_is_kept(text: str) -> None:
    """The mojibake check must not overrule a correct Latin-1 label on accented text."""
    encoding, decoded = decode(page(text).encode("cp1252"), "text/html; charset=ISO-8859-1")
    assert encoding == "cp1252"
    assert text in decoded


def test_meta_utf16_on_ascii_compatible_bytes_is_ignored() -> None:
    _, text = decode(page(FR, head=meta("utf-16")).encode("utf-8"))
    assert FR in text


# --------------------------------------------------------------------------- BOMs and UTF-16

def test_utf8_bom_beats_header_and_is_not_in_text() -> None:
    body = codecs.BOM_UTF8 + page(ZH).encode("utf-8")
    encoding, text = decode(body, "text/html; charset=iso-8859-1")
    assert encoding == "utf-8"
    assert ZH in text
    assert not text.startswith("\ufeff")


def test_utf16_le_bom() -> None:
    body = codecs.BOM_UTF16_LE + page(ZH, head=meta("utf-8")).encode("utf-16-le")
    encoding, text = decode(body)
    assert encoding == "utf-16-le"
    assert ZH in text


def test_utf16_be_bom() -> None:
    encoding, text = decode(codecs.BOM_UTF16_BE + page(RU).encode("utf-16-be"))
    assert encoding == "utf-16-be"
    assert RU in text


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_text_not_binary(codec: str) -> None:
    _, text = decode(page(FR).encode(codec))
    assert FR in text


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("words", [RU, ZH], ids=["ru", "zh"])
def test_utf16_without_bom_in_another_script_after_a_short_head(codec: str,
                                                                 words: str) -> None:
    """Most characters of such a page have no NUL byte: the markup still reads as UTF-16."""
    body = f"<html><head><title>t</title></head><body><p>{words * 4}</p></body></html>"
    encoding, text = decode(body.encode(codec))
    assert encoding == codec
    assert words in text


# --------------------------------------------------------------------------- zh-dev wrapper

def test_zh_wrapper_declares_the_encoding() -> None:
    body = ('<text id="http://news.example.cn/a/1.html" title="经济数据" encoding="gb2312">\n'
            + page(ZH) + "</text>\n").encode("gb2312")
    encoding, text = decode(body)
    assert encoding == "gb18030"
    assert ZH in text


# --------------------------------------------------------------------------- damaged bytes

def test_invalid_utf8_sequences_become_replacement_characters() -> None:
    good = page(FR + " " + ZH, head=meta("utf-8")).encode("utf-8")
    cut = good.index(ZH.encode())
    body = good[:cut] + b"\xc3\x28 \xff\xfe \xe2\x82 " + good[cut:]
    encoding, text = decode(body)
    assert encoding == "utf-8"
    assert "\ufffd" in text
    assert FR in text and ZH in text


def test_undeclared_utf8_with_one_stray_byte_stays_utf8() -> None:
    good = page(FR + " " + FR).encode("utf-8")
    cut = good.index("é".encode())
    encoding, text = decode(good[:cut] + b"\xff" + good[cut:])
    assert encoding == "utf-8"
    assert FR in text


@pytest.mark.parametrize(("charset", "text"), [("gbk", ZH), ("big5", ZH_TW)])
def test_undeclared_cjk_with_one_stray_byte(charset: str, text: str) -> None:
    good = page(text + text).encode(charset)
    cut = good.index(text[40].encode(charset))
    _, decoded = decode(good[:cut] + b"\xff" + good[cut:])
    assert text[:30] in decoded and text[45:] in decoded


def test_declared_gbk_truncated_mid_character() -> None:
    body = page(ZH, head=meta("gbk")).encode("gbk")
    body = body + ZH[0].encode("gbk")[:1]
    _, text = decode(body)
    assert ZH in text


def test_nul_bytes_in_text_do_not_make_it_binary() -> None:
    body = page("Hello\x00 world, a NUL in the middle of an otherwise ordinary sentence.").encode()
    _, text = decode(body)
    assert "world, a NUL" in text


# --------------------------------------------------------------------------- not text

def _png() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))


@pytest.mark.parametrize(("body", "reason"), [
    (b"", "empty"),
    (b" \t\r\n  \n", "empty"),
    (codecs.BOM_UTF8, "empty"),
    (codecs.BOM_UTF16_LE + " \n ".encode("utf-16-le"), "empty"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", "binary"),
    (_png(), "binary"),
    (gzip.compress(page(FR).encode()), "binary"),
    (random.Random(7).randbytes(4096), "binary"),
    (b"\x00" * 64, "binary"),
], ids=["empty", "whitespace", "utf8-bom-only", "utf16-bom-whitespace", "pdf", "png", "gzip",
        "random", "nuls"])
def test_not_text_raises_with_reason(body: bytes, reason: str) -> None:
    with pytest.raises(NotText) as info:
        decode(body, "text/html; charset=utf-8")
    assert str(info.value) == reason


# --------------------------------------------------------------------------- str input

def test_str_passes_through() -> None:
    assert decode(page(ZH)) == ("utf-8", page(ZH))


def test_str_with_lone_surrogate_is_made_encodable() -> None:
    _, text = decode("<p>caf\udce9</p><p>" + FR + "</p>")
    text.encode("utf-8")
    assert FR in text


def test_random_bytes_of_any_seed_are_binary() -> None:
    """Uniform random bytes have ~10.5 % control bytes, close to a 10 % cut: every seed counts."""
    assert all(looks_binary(random.Random(seed).randbytes(3000)) for seed in range(300))


def test_decode_page_hands_back_the_bytes_only_when_they_are_the_texts_utf8() -> None:
    from newscrawl.extraction.decode import decode_page

    page = "<html><body><p>café – 中文 😀</p></body></html>".encode()
    encoding, text, utf8 = decode_page(page)
    assert (encoding, utf8) == ("utf-8", page) and text.encode("utf-8") == page
    assert decode_page(codecs.BOM_UTF8 + page)[2] is None  # the BOM is not in the text
    assert decode_page(page.replace(b"\xc3\xa9", b"\xe9"))[2] is None  # not valid UTF-8
    assert decode_page("<p>déjà</p>".encode("cp1252"), "text/html; charset=cp1252")[2] is None
    assert decode_page("<p>str</p>")[2] is None


# ----------------------------------------------------- undeclared Latin code pages, by language

LATIN = {
    "fr": ("cp1252", "Le maire a présenté mercredi le projet de rénovation du théâtre, fermé "
                     "depuis trois ans ; la façade sera restaurée et la salle gagnera deux cents "
                     "fauteuils, même si l'opposition dénonce un chantier trop cher."),
    "it": ("cp1252", "Il consiglio comunale ha approvato ieri sera il nuovo piano del traffico, "
                     "che entrerà in vigore a settembre. Però i commercianti del centro temono "
                     "un calo delle vendite e chiedono più parcheggi."),
    "da": ("cp1252", "Kommunen har besluttet at bygge en ny skole i den nordlige del af byen. "
                     "Byggeriet skal stå færdigt om tre år, og forældrene har længe klaget over "
                     "de små bygninger."),
    "lv": ("cp1257", "Pilsētas dome otrdien apstiprināja nākamā gada budžetu. Visvairāk naudas "
                     "tiks novirzīts skolu renovācijai un jaunas tramvaja līnijas būvniecībai, "
                     "kas savienos ziemeļu mikrorajonus ar centru."),
    "cs": ("cp1250", "Zastupitelstvo města v úterý schválilo rozpočet na příští rok. Největší "
                     "část peněz půjde na opravy škol a na stavbu nové tramvajové trati, která "
                     "propojí sídliště na severu s centrem."),
}


@pytest.mark.parametrize("lang", sorted(LATIN))
@pytest.mark.parametrize("declared_by", ["html", "meta"])
def test_undeclared_latin_code_page_follows_the_declared_language(lang: str,
                                                                  declared_by: str) -> None:
    """The detector alone reads such paragraphs as cp1250 (French ``crčme``, Danish
    ``fćrdigt``) or Latvian as cp1250; a browser's locale default settles it, and so does the
    language the page declares."""
    charset, text = LATIN[lang]
    body = (page(text, lang=lang) if declared_by == "html" else page(
        text, head=f'<meta http-equiv="Content-Language" content="{lang}">')).encode(charset)
    encoding, decoded = decode(body)
    assert text in decoded, encoding


@pytest.mark.parametrize(("lang", "declared"), [("cs", "en"), ("cs", "fr"), ("cs", "de")])
def test_a_declared_language_the_bytes_do_not_spell_is_not_followed(lang: str,
                                                                    declared: str) -> None:
    # Czech read as cp1252 spells "pøíštì": not English, French or German.
    charset, text = LATIN[lang]
    encoding, decoded = decode(page(text, lang=declared).encode(charset))
    assert codecs.lookup(encoding).name == codecs.lookup(charset).name
    assert text in decoded


@pytest.mark.parametrize(("lang", "url"), [("fr", "http://www.journal.fr/2024/01/03/budget"),
                                           ("lv", "https://zinas.example.lv/raksts/1"),
                                           ("cs", "http://www.noviny.fr/clanek")])
def test_undeclared_page_without_a_language_takes_its_country_domain(lang: str, url: str) -> None:
    """A page that declares no language is read as its country domain's, when that language's
    code page spells it; a Czech page on a French domain is not French and keeps cp1250."""
    charset, text = LATIN[lang]
    assert "lang=" not in page(text)
    _, decoded = decode(page(text).encode(charset), None, url)
    assert text in decoded


def bare_page(text: str) -> str:
    """A page with little markup around its text, as old hand-written pages are: the less
    ASCII around the letters, the more the detector's guess rests on them."""
    return f"<html><body><p>{text}</p></body></html>"


# Paragraphs the detector alone misread on a bare page: Turkish as ISO-8859-10 ("küįük"),
# Polish in ISO-8859-2 as cp1250 ("Rz±d"), Finnish as Big5 ("hyv鄢syi"), French as cp1250;
# which paragraph it misreads moves with the markup around it.
UNNAMED = {
    "tr": "Hükümet küçük işletmeleri desteklemek için yeni önlemler açıkladı. Ekonomi bakanı "
          "programın gelecek ay başlayacağını söyledi.",
    "pl": "Rząd ogłosił nowe środki wsparcia dla małych firm. Minister gospodarki powiedział, "
          "że program ruszy w przyszłym miesiącu.",
    "fi": "Kaupunginvaltuusto hyväksyi tiistaina ensi vuoden talousarvion. Suurin osa rahoista "
          "käytetään koulujen peruskorjaukseen ja uuden raitiotielinjan rakentamiseen, joka "
          "yhdistää pohjoiset lähiöt keskustaan.",
    "it": LATIN["it"][1],
}


@pytest.mark.parametrize(("lang", "charset"), [
    ("tr", "cp1254"), ("tr", "iso8859-9"), ("pl", "cp1250"), ("pl", "iso8859-2"),
    ("fi", "cp1252"), ("it", "cp1252"), ("fr", "cp1252"), ("lv", "cp1257"), ("cs", "iso8859-2"),
])
def test_undeclared_latin_page_naming_no_language_is_read_in_its_words_language(
        lang: str, charset: str) -> None:
    """No charset, no ``lang``, no country domain: the language of the page's own words, read
    in the detector's guess, picks the code page (the Windows one or its ISO sibling) that
    spells them."""
    text = UNNAMED[lang] if lang in UNNAMED else LATIN[lang][1]
    body = bare_page(text).encode(charset)
    assert b"lang=" not in body
    encoding, decoded = decode(body)
    assert text in decoded, encoding


MIXED = [
    ("euc-kr", "애플은 화요일 새로운 iPhone과 iPad를 발표했다. 가격은 799달러부터다."),
    ("gbk", "苹果公司周二发布了新款iPhone和iPad，售价从799美元起。A股市场今日上涨。用户可以在"
            "App Store下载iOS 18更新。"),
    ("big5", "蘋果公司週二發表了新款iPhone和iPad，售價從799美元起。用戶可以在App Store下載"
             "iOS 18更新。"),
    ("shift_jis", "アップルは火曜日、新型iPhoneとiPadを発表した。価格は799ドルから。ユーザーは"
                  "App StoreでiOS 18のアップデートをダウンロードできる。Xボックスも値上げ。"),
    ("euc-jp", "アップルは火曜日、新型iPhoneとiPadを発表した。価格は799ドルから。Xボックスも"
               "値上げ。"),
]


@pytest.mark.parametrize(("charset", "text"), MIXED, ids=[m[0] for m in MIXED])
def test_undeclared_cjk_with_english_words(charset: str, text: str) -> None:
    """Korean glues particles to English words ("iPhone과"), which made the detector refuse
    every code page and the page come out as UTF-8 replacement characters; Chinese and
    Japanese beside English words are not taken for Latin text."""
    encoding, decoded = decode(bare_page(text).encode(charset))
    assert text in decoded, encoding


def test_undeclared_iso_2022_jp() -> None:
    """7-bit, so valid UTF-8 as far as bytes go; its escapes say what it is. Dense Japanese
    carries an escape every few bytes, which is not a binary body's control bytes."""
    text = "".join(f"<p>{JA}ｶﾀｶﾅ、ABC{n}。</p>" for n in range(20))
    body = page(text).encode("iso2022_jp_ext")
    assert not looks_binary(body)
    _, decoded = decode(body)
    assert text in decoded


def test_prose_for_language_detection_skips_scripts_and_styles_in_one_pass() -> None:
    from newscrawl.extraction.decode import _prose

    assert _prose("a<script>x</script>b<STYLE>y</style >c<script>open to the end <p>d") == "abc"
    assert _prose("<p>R&amp;D <b>og</b>łosił</p><script src=x></script>end").split() == [
        "R", "D", "og", "łosił", "end"]
    # 6,000 scripts left open: each used to send a lazy regex to the end of the page again
    assert _prose("<script>x " * 6000 + "tail") == ""

"""Publication dates: how printed dates are read, and which of a page's dates is its own.
Every page here is hand-written."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from newscrawl.extraction.dates import page_language, parse_date, url_date, zone_days
from newscrawl.extraction.metadata import Metadata, extract_metadata
from newscrawl.extraction.parse import parse

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def meta(markup: str, url: str | None = "https://news.example/story") -> Metadata:
    return extract_metadata(parse(markup), url)


def page(head: str = "", body: str = "", lang: str = "en") -> str:
    return f'<html lang="{lang}"><head>{head}</head><body>{body}</body></html>'


@pytest.mark.parametrize(("raw", "expected"), [
    # a byline line: the date and a reading time, an author or a section around it
    ("December 18, 2025 · 3 min read", "2025-12-18"),
    ("December 18, 2025 \u30fb 3 min read", "2025-12-18"),
    ("Updated Dec 18, 2025 \u00b7 12 min read", "2025-12-18"),
    ("5 min read \u2022 Dec 3, 2024", "2024-12-03"),
    ("By Jane Doe | March 5, 2024", "2024-03-05"),
    # a span of days is an event's, not a date
    (": March 23-26, 2025", None),
    ("Dec 3, 2024 - Jan 4, 2025", None),
    ("01-04-2024", "2024-01-04"),
    # Thai: months spelled out or abbreviated, years in the Buddhist era
    ("2 ม.ค. 2567", "2024-01-02"),
    ("2 มกราคม 2567", "2024-01-02"),
    ("อัปเดต 2 ม.ค. 2567 10:30 น.", "2024-01-02T10:30:00"),
    ("วันอังคารที่ 2 มกราคม พ.ศ. 2567", "2024-01-02"),
    # a clock time with a dot, as British and Nordic papers print it; dotted dates stay dates
    ("Tue 5 Mar 2024 10.00 GMT", "2024-03-05T10:00:00+00:00"),
    ("5 mars 2024 kl. 10.00", "2024-03-05T10:00:00"),
    ("05.03.2024 10.30", "2024-03-05T10:30:00"),
    # prices are not a month and a day, nor a model number a year
    ("Wagan EL2022 Ionic Air Purifier for $10.85 (list price $14.95)", None),
    ("Pack of 12 for 10,85 € until 2025", None),
])
def test_parse_date_lines(raw, expected):
    assert parse_date(raw, now=NOW) == expected


@pytest.mark.parametrize(("url", "expected"), [
    ("https://n.example/world/2024/mar/05/slug", "2024-03-05"),
    ("https://n.example/blog/2023/october/03/slug/", "2023-10-03"),
    ("https://n.example/blog/2023/notes/03/slug/", None),
])
def test_url_date_with_month_word(url, expected):
    assert url_date(url, now=NOW) == expected


def test_named_published_meta_before_the_generic_date():
    assert meta(page('<meta name="published" content="July 17, 2025">')).published == (
        "2025-07-17")
    assert meta(page('<meta name="published-date" content="2021-02-16">')).published == (
        "2021-02-16")
    both = ('<meta name="date" content="01/07/16">'
            '<meta property="og:published_time" content="2024-10-08T00:00:00-04:00">')
    assert meta(page(both)).published == "2024-10-08T00:00:00-04:00"


def test_comment_microdata_dates_are_not_the_question_date():
    body = ('<div itemscope itemtype="https://schema.org/Question"><h1 itemprop="name">Q?</h1>'
            '<time itemprop="dateCreated" datetime="2014-02-04 13:02:51Z">12 years ago</time>'
            '<p>Question text</p>'
            '<ul><li itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
            '<div class="d-none" itemprop="datePublished">2018-05-21 20:37:55 +00:00</div>'
            '<time class="d-none" itemprop="datePublished">2019-01-21T21:40:59Z</time>'
            '<p>A comment</p></li></ul></div>')
    assert meta(page(body=body)).published == "2014-02-04T13:02:51+00:00"


def test_url_one_day_off_the_declared_utc_date_wins():
    declared = '<meta property="article:published_time" content="2025-12-19T02:41:41+00:00">'
    body = "<h1>Headline</h1><p>Text</p>"
    assert meta(page(declared, body), "https://b.example/2025/12/18/slug").published == (
        "2025-12-18")
    # further apart: the URL is no clock of the article
    assert meta(page(declared, body), "https://b.example/2025/12/10/slug").published == (
        "2025-12-19T02:41:41+00:00")
    # a day later than any time zone makes of 02:41 UTC: no clock of it either
    assert meta(page(declared, body), "https://b.example/2025/12/20/slug").published == (
        "2025-12-19T02:41:41+00:00")


def test_far_date_after_a_labelled_byline_and_post_time_label():
    filler = "".join(f"<p>Paragraph {i} of the post.</p>" for i in range(80))
    body = (f"<h1>Headline</h1>{filler}<p>Written by</p><p><a>Jane Doe</a></p>"
            "<p>April 8, 2024</p>")
    assert meta(page(body=body)).published == "2024-04-08"
    body = f"<h1>Headline</h1>{filler}<div>Post time: 01-04-2024</div>"
    assert meta(page(body=body)).published == "2024-01-04"


def test_founded_date_of_a_forum_member_is_not_the_post_date():
    body = ("<h1>Thread</h1><p>Some Member</p><p>Posts:</p><p>4032</p><p>Founded:</p>"
            "<p>Dec 11, 2021</p><p>» Tue Aug 27, 2019 1:47 am</p><p>First post</p>")
    assert meta(page(body=body)).published == "2019-08-27T01:47:00"


def test_padded_date_line_is_short_enough():
    pad = " " * 60
    body = f"<h1>Headline</h1><p>{pad}Published: January 3, 2024{pad}</p><p>Text</p>"
    assert meta(page(body=body)).published == "2024-01-03"


def test_ambiguous_numeric_date_read_the_way_the_page_agrees():
    body = ('<h1>Post</h1><p>Jane Doe</p><time datetime="02-12-2025">02-12-2025</time>'
            '<p>Text</p><aside><time datetime="2025-12-02">December 02, 2025</time></aside>')
    assert meta(page(body=body)).published == "2025-12-02"
    body = "<h1>Post</h1><p>03/10/2023</p><p>Text</p>"
    assert meta(page(body=body), "https://b.example/2023/october/03/post/").published == (
        "2023-10-03")
    # nothing on the page says otherwise: month first, as dateutil reads it
    assert meta(page(body=body)).published == "2023-03-10"


def test_date_in_an_author_box_dates_a_page_without_a_headline():
    body = ('<div><p>Intro</p></div>' * 3 + '<div class="resource-author-details"><p>Luke Kim</p>'
            '<small>December 17, 2025</small></div><p>Text</p>')
    assert meta(page(body=body)).published == "2025-12-17"


def test_microdata_and_meta_dates_keep_document_order():
    # a visible property before a <meta> of the same name: the first in the document wins,
    # as in a single document-ordered read
    body = ('<h1>Headline</h1><p><span itemprop="datePublished" content="2024-01-05">Jan 5</span>'
            '</p><meta itemprop="datePublished" content="2023-01-01"><p>Text</p>')
    assert meta(page(body=body)).published == "2024-01-05"
    body = ('<h1>Headline</h1><meta itemprop="datePublished" content="2023-01-01">'
            '<p><span itemprop="datePublished" content="2024-01-05">Jan 5</span></p>')
    assert meta(page(body=body)).published == "2023-01-01"


def test_labelled_dates_in_other_languages_date_a_page_without_a_headline():
    for label in ("发布时间：", "Opublikowano: ", "Gepubliceerd op ", "公開日："):
        body = (f'<div class="title">标题</div><div class="info">{label}2022-02-13 04:22:18'
                '</div><p>正文</p>')
        assert (meta(page(body=body)).published or "")[:10] == "2022-02-13", label


def test_date_in_an_element_classed_time_dates_a_page_without_a_headline():
    body = ('<div class="box-text-title">标题</div><div class="box-text-time">'
            '<span>2022-02-13 20:04:17</span></div><p>正文</p>')
    assert (meta(page(body=body)).published or "")[:10] == "2022-02-13"


@pytest.mark.parametrize(("raw", "expected"), [
    ("4. listopadu 2024", "2024-11-04"),  # Czech
    ("5 martie 2024", "2024-03-05"),  # Romanian
    ("2024. március 5.", "2024-03-05"),  # Hungarian, year first
    ("5. maaliskuuta 2024", "2024-03-05"),  # Finnish
    ("12 серпня 2024", "2024-08-12"),  # Ukrainian
    ("5 Μαΐου 2024", "2024-05-05"),  # Greek
    ("5 de març de 2024", "2024-03-05"),  # Catalan
    ("17 Agustus 2024", "2024-08-17"),  # Indonesian
    ("3 augusti 2023", "2023-08-03"),  # Swedish
    ("5. marts 2024", "2024-03-05"),  # Danish
    ("22 نوفمبر 2024", "2024-11-22"),  # Arabic, Egyptian month name
    ("الجمعة 5 حزيران 2024 - 10:15", "2024-06-05T10:15:00"),  # Arabic, Levantine
    ("٢٢ نوفمبر ٢٠٢٤", "2024-11-22"),  # Arabic-Indic digits
    ("22 בנובמבר 2024", "2024-11-22"),  # Hebrew, "in November"
    ("22 नवंबर 2024", "2024-11-22"),  # Hindi
    ("2024년 11월 22일", "2024-11-22"),  # Korean
    ("입력 2024.11.22 10:15", "2024-11-22T10:15:00"),
    ("2024年11月22日 下午3:15", "2024-11-22"),  # an afternoon hour is not read as 03:15
    ("Mac OS 10 released 2019", None),
    ("24. novembra 2024", "2024-11-24"),  # Slovak, Slovenian
    ("24. studenoga 2024.", "2024-11-24"),  # Croatian
    ("24. новембар 2024.", "2024-11-24"),  # Serbian
    ("24. novembar 2024.", "2024-11-24"),
    ("24 ноември 2024 г.", "2024-11-24"),  # Bulgarian, Macedonian
    ("2024 m. lapkričio 24 d.", "2024-11-24"),  # Lithuanian, year first
    ("2024. gada 24. novembrī", "2024-11-24"),  # Latvian
    ("24. detsember 2024", "2024-12-24"),  # Estonian
    ("24 nëntor 2024", "2024-11-24"),  # Albanian
    ("24. nóvember 2024", "2024-11-24"),  # Icelandic
    ("24 noyabr 2024", "2024-11-24"),  # Azerbaijani
    ("Nobyembre 24, 2024", "2024-11-24"),  # Filipino
    ("24 Julai 2024", "2024-07-24"),  # Malay
    ("۲۴ نوامبر ۲۰۲۴", "2024-11-24"),  # Persian, Persian digits
    ("24 نومبر، 2024", "2024-11-24"),  # Urdu
    ("২৪ নভেম্বর ২০২৪", "2024-11-24"),  # Bengali, Bengali digits
    ("ngày 24 tháng 11 năm 2024", "2024-11-24"),  # Vietnamese numbers its months
    ("Thứ Hai, 25 thg 11 2024 14:30", "2024-11-25T14:30:00"),
    ("24. listopada 2024", "2024-11-24"),  # Polish (Croatian's October: below)
])
def test_month_names_in_more_languages(raw, expected):
    assert parse_date(raw, now=NOW) == expected


@pytest.mark.parametrize(("language", "raw", "expected"), [
    ("hr", "24. listopada 2024.", "2024-10-24"),  # Croatian: October
    ("pl", "24 listopada 2024", "2024-11-24"),  # Polish: November
    ("cs", "24. listopadu 2024", "2024-11-24"),  # Czech: November
    ("ms", "5 Mac 2024", "2024-03-05"),  # Malay: March
    ("en", "5 Mac 2024", None),  # English: a computer
])
def test_month_words_that_name_another_month_in_another_language(language, raw, expected):
    with page_language(language):
        assert parse_date(raw, now=NOW) == expected


def test_croatian_page_dated_in_october():
    markup = ('<html lang="hr"><head><title>Vijesti</title></head><body><article>'
              "<h1>Vijesti</h1><p class=date>24. listopada 2024. u 10:15</p><p>"
              + "Tekst vijesti. " * 40 + "</p></article></body></html>")
    published = extract_metadata(parse(markup), "https://vijesti.example/x/1.html").published
    assert published == "2024-10-24T10:15:00"


# --- branch dates2 ---------------------------------------------------------------------------

def test_meta_names_that_end_by_naming_the_publication():
    body = "<h1>Headline</h1><p>Text</p>"
    for name in ("w-published-date", "og:publish_date", "cxenseparse:publishtime",
                 "article:first_published_time", "awa-publishedDate"):
        head = f'<meta name="{name}" content="2025-06-10T08:14:52Z">'
        assert (meta(page(head, body)).published or "")[:10] == "2025-06-10", name
    # not an update's, a version's or a "last published" date
    for name in ("cdc:last_published", "x-wix-published-version", "shareaholic:modified_date"):
        head = f'<meta name="{name}" content="2025-06-10T08:14:52Z">'
        assert meta(page(head, body)).published is None, name
    # a named key of the usual list still comes first
    head = ('<meta name="w-published-date" content="2025-05-27">'
            '<meta property="article:published_time" content="2024-01-02">')
    assert meta(page(head, body)).published == "2024-01-02"


def test_vendor_plain_date_is_a_generic_date():
    head = '<meta name="ms.date" content="2025-04-08T00:00:00Z">'
    body = ('<h1>What is it?</h1><p>Last updated on <span>2025-04-22</span></p>'
            '<p>Text</p>')
    assert meta(page(head, body)).published == "2025-04-08T00:00:00+00:00"
    # like "date", it yields to a date printed (not as an update) by the headline
    body = '<h1>What is it?</h1><p>Posted March 1, 2025</p><p>Text</p>'
    assert meta(page(head, body)).published == "2025-03-01"


def test_a_day_off_the_declared_timestamp_only_when_a_time_zone_explains_it():
    shows = '<h1>Headline</h1><div><span>Nov {}, 2025</span></div><p>Text</p>'
    late = '<meta property="article:published_time" content="2025-11-13T22:47:05Z">'
    # 22:47 UTC on the 13th is the 13th or the 14th somewhere, never the 12th
    assert meta(page(late, shows.format(12))).published == "2025-11-12"
    assert meta(page(late, shows.format(14))).published == "2025-11-13T22:47:05+00:00"
    # 02:00 UTC on the 13th is still the 12th in the Americas
    early = '<meta property="article:published_time" content="2025-11-13T02:00:00Z">'
    assert meta(page(early, shows.format(12))).published == "2025-11-13T02:00:00+00:00"
    # a local time of unknown zone, or a day alone: a day either way may be the same moment
    naive = '<meta property="article:published_time" content="2025-11-13T22:47:05">'
    assert meta(page(naive, shows.format(12))).published == "2025-11-13T22:47:05"
    day = '<meta property="article:published_time" content="2025-11-13">'
    assert meta(page(day, shows.format(12))).published == "2025-11-13"


def test_time_under_the_headline_before_times_of_the_sidebar_above_it():
    sidebar = ('<aside><ul><li><a>Other</a> <time datetime="2025-02-17T12:00:00Z">02/17/2025'
               '</time></li>\n<li><a>More</a> <time datetime="2025-01-06">01/06/2025</time>'
               '</li></ul></aside>\n')
    body = (sidebar + '<main><h1>Onboarding notes</h1>\n<div class="meta">'
            '<time datetime="2016-09-14T12:00:00Z">09/14/2016</time> by <a>Jo</a></div>'
            '<p>Text</p></main>')
    assert meta(page(body=body)).published == "2016-09-14T12:00:00+00:00"


def test_date_printed_by_the_headline_beats_a_header_clock_above_it():
    clock = ('<header><p>Welcome, Guest. It is <time datetime="2026-04-07T14:41:27Z">'
             'April 07, 2026, 09:41:27 AM</time></p></header>\n<nav><a>Home</a> <a>Help</a> '
             '<a>Search</a> <a>Login</a> <a>Register</a></nav>\n')
    body = (clock + '<div>\n<h1>Which tent for a wet spring?</h1>\n<p>Started by Forums, June 04, '
            '2024, 11:23:55 AM</p><p>Text</p></div>')
    assert meta(page(body=body)).published == "2024-06-04T11:23:55"
    # with no other date on the page, the clock above it is still all there is
    body = clock + '<div>\n<h1>Which tent for a wet spring?</h1>\n<p>Text</p></div>'
    assert (meta(page(body=body)).published or "")[:10] == "2026-04-07"
    # one just above the headline (its dateline) is the page's, not a related post's far below
    body = ('<div class="post-date"><time datetime="2023-10-12">10/12/2023</time></div>\n'
            '<h1>Cheap fares</h1>\n' + '<p>Text</p>\n' * 20 + '<div class="related"><time datetime='
            '"2025-12-18">12/18/2025</time></div>')
    assert meta(page(body=body)).published == "2023-10-12"


def test_disagreeing_declarations_settled_by_the_date_the_byline_prints():
    head = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
            '"2019-05-07T11:20:45Z"}</script>'
            '<meta property="article:published_time" content="2025-12-16T20:42:00Z">')
    body = ('<h1>The best trail packs</h1><address><a>Rosa Lindqvist</a>'
            '<time>Updated: Dec 16, 2025 3:42 PM EST</time></address><p>Text</p>')
    assert meta(page(head, body)).published == "2025-12-16T20:42:00+00:00"
    # printed date matching neither, or none printed: JSON-LD first, as before
    other = body.replace("Dec 16, 2025", "Dec 1, 2025")
    assert meta(page(head, other)).published == "2019-05-07T11:20:45+00:00"
    assert meta(page(head, "<h1>The best</h1><p>Text</p>")).published == (
        "2019-05-07T11:20:45+00:00")
    # the same moment in two time zones is no disagreement
    head = ('<script type="application/ld+json">{"@type": "Article", "datePublished": '
            '"2017-02-24T01:18:13Z"}</script>'
            '<meta property="article:published_time" content="2017-02-23T17:18:13-08:00">')
    body = '<h1>Star Wars</h1><p><span>Feb 23, 2017</span></p><p>Text</p>'
    assert meta(page(head, body)).published == "2017-02-24T01:18:13+00:00"


def test_zone_days():
    assert zone_days("2025-11-13T22:47:05+00:00") == (date(2025, 11, 13), date(2025, 11, 14))
    assert zone_days("2025-11-13T02:00:00-05:00") == (date(2025, 11, 12), date(2025, 11, 13))
    assert zone_days("2025-11-13T22:47:05") is None
    assert zone_days("2025-11-13") is None


@pytest.mark.parametrize("lang,expected", [
    ("es", "2024-01-02"), ("en-GB", "2024-01-02"), ("vi", "2024-01-02"),
    ("en-US", "2024-02-01"), ("en", "2024-02-01"), (None, "2024-02-01"),
])
def test_slashed_numeric_date_read_in_the_order_of_the_page_language(lang, expected):
    html_lang = f' lang="{lang}"' if lang else ""
    markup = (f"<html{html_lang}><head><title>Nieve en Madrid</title></head><body><article>"
              "<h1>Nieve en Madrid</h1><p class=date>02/01/2024</p><p>" + "Texto. " * 40
              + "</p></article></body></html>")
    published = extract_metadata(parse(markup), "https://news.example/x/story.html").published
    assert published == expected
    # Outside a page, the default stays month first.
    assert parse_date("02/01/2024") == "2024-02-01"


@pytest.mark.parametrize("written,offset", [
    ("GMT+7", "+07:00"), ("(GMT+7)", "+07:00"), ("UTC+8", "+08:00"), ("UTC+05:30", "+05:30"),
    ("GMT-5", "-05:00"), ("GMT", "+00:00"),
])
def test_gmt_offsets_as_people_write_them(written, offset):
    assert parse_date(f"Jan 2, 2024 10:30 {written}") == "2024-01-02T10:30:00" + offset


def test_thai_date_under_the_headline_dates_the_page():
    markup = ('<html lang="th"><head><title>ข่าว</title></head><body><article><h1>ข่าว</h1>'
              "<p>2 ม.ค. 2567 10:30 น.</p><p>" + "เนื้อหาข่าว " * 40 + "</p></article></body></html>")
    published = extract_metadata(parse(markup), "https://news.example/x/1.html").published
    assert published == "2024-01-02T10:30:00"


@pytest.mark.parametrize(("raw", "expected"), [
    ("۳ آذر ۱۴۰۵", "2026-11-24"),
    ("سه‌شنبه ۴ آذر ۱۴۰۵ - ۱۴:۳۰", "2026-11-25T14:30:00"),
    ("تاریخ انتشار: ۱۲ دی ۱۴۰۲ ساعت ۱۰:۱۵", "2024-01-02T10:15:00"),
    ("1 فروردین 1399", "2020-03-20"),  # Nowruz
    ("30 اسفند 1403", "2025-03-20"),  # 1403 is a leap year
    ("30 اسفند 1404", None),  # 1404 is not
    ("31 مهر 1402", None),  # the second half-year's months have 30 days
])
def test_persian_solar_dates(raw, expected):
    assert parse_date(raw, now=datetime(2026, 11, 24, tzinfo=UTC)) == expected


def test_numeric_solar_dates_only_on_persian_pages():
    now = datetime(2026, 11, 24, tzinfo=UTC)
    assert parse_date("۱۴۰۵/۰۹/۰۳", now=now) is None
    with page_language("fa-IR"):
        assert parse_date("۱۴۰۵/۰۹/۰۳", now=now) == "2026-11-24"
        assert parse_date("1402-10-12T10:15:00", now=now) == "2024-01-02T10:15:00"
        assert parse_date("2024-01-02", now=now) == "2024-01-02"


@pytest.mark.parametrize(("lang", "printed", "expected"), [
    ("fa", "۱۲ دی ۱۴۰۲ - ۱۰:۱۵", "2024-01-02T10:15:00"),
    ("fa", "۱۴۰۲/۱۰/۱۲", "2024-01-02"),
    ("ar", "٢٢ نوفمبر ٢٠٢٤", "2024-11-22"),  # Arabic-Indic digits
    ("hi", "२२ नवंबर २०२४", "2024-11-22"),  # Devanagari digits
])
def test_date_in_another_script_s_digits_under_the_headline(lang, printed, expected):
    # The printed-date search skipped every text without a year in ASCII digits.
    markup = (f'<html lang="{lang}"><head><title>خبر</title></head><body><article>'
              f'<h1>بارش برف در تهران</h1><div class="date">{printed}</div><p>'
              + "متن خبر درباره بارش برف. " * 40 + "</p></article></body></html>")
    assert extract_metadata(parse(markup), "https://khabar.example/news/1").published == expected


def test_month_name_trie_matches_what_the_flat_alternation_matches():
    # The trie only makes the pattern faster: every name, in every place a date puts it,
    # must match as the plain alternation (longest names first) matches it.
    import re

    from newscrawl.extraction import dates

    flat = "|".join(sorted(map(re.escape, dates._MONTH_NUMBER), key=len, reverse=True))
    flat_written = re.compile(dates._WRITTEN_DATE.pattern.replace(dates._MONTH_NAME, flat), re.I)
    texts = [form.format(name) for name in dates._MONTH_NUMBER
             for form in ("5 {} 2024", "{} 5, 2024", "{}. 5th 2024", "x{} 5 2024", "{}")]
    texts += [t.upper() for t in texts]
    for text in texts:
        ours, theirs = dates._WRITTEN_DATE.match(text), flat_written.match(text)
        assert (ours and ours.groupdict()) == (theirs and theirs.groupdict()), text
    assert dates.word_trie(["jan", "january", "janv", "mai"]) == "(?:jan(?:uary|v)?|mai)"


@pytest.mark.parametrize(("key", "field"), [
    ("article:post_date", "published"), ("og:regDate", "published"), ("ptime", "published"),
    ("displaydate", "published"), ("dc.created", "published"), ("created", "published"),
    ("og:modified_time", "modified"), ("article:post_modified", "modified"),
    ("updated_time", "modified"), ("revision_date", "modified"),
])
def test_less_common_date_meta_names(key, field):
    # Names htmldate also reads, from WordPress and Drupal themes, Korean and Chinese CMSs.
    markup = (f'<html><head><meta name="{key}" content="2024-03-05T10:00:00+01:00">'
              "<title>T</title></head><body><p>x</p></body></html>")
    meta = extract_metadata(parse(markup), "https://news.example/a")
    assert getattr(meta, field) == "2024-03-05T10:00:00+01:00"
    if field == "modified":
        assert meta.published is None or meta.published == meta.modified


def test_generation_time_is_no_publication_date():
    markup = ('<html><head><meta name="gentime" content="2024-03-05T10:00:00+01:00">'
              "<title>T</title></head><body><p>x</p></body></html>")
    assert extract_metadata(parse(markup), "https://news.example/a").published is None


@pytest.mark.parametrize(("lang", "lines", "expected"), [
    ("pt", ["Atualizado em 06/03/2024 10:00", "Publicado em 05/03/2024 09:00"],
     "2024-03-05T09:00:00"),
    ("nl", ["Bijgewerkt: 6 maart 2024", "5 maart 2024"], "2024-03-05"),
    ("zh", ["更新时间：2024-03-06 10:00", "发布时间：2024-03-05 09:00"], "2024-03-05T09:00:00"),
    ("ko", ["수정 2024.11.23 09:00", "입력 2024.11.22 10:15"], "2024-11-22T10:15:00"),
    # The update's label after the date on one line labels the second date, not the first.
    ("ko", ["입력 2024.11.22 10:15 수정 2024.11.23 09:00"], "2024-11-22T10:15:00"),
    ("pt", ["Atualizado em 06/03/2024"], "2024-03-06"),  # the only date there is
    # Both dates on one line, the publication first: the part before the update's label.
    ("en", ["March 5, 2024 · Updated March 6, 2024"], "2024-03-05"),
    ("en", ["Published March 5, 2024 10:00 am. Updated March 6, 2024"], "2024-03-05T10:00:00"),
    ("de", ["Veröffentlicht: 05.03.2024, aktualisiert: 06.03.2024"], "2024-03-05"),
    ("pt", ["Publicado em 5 de março de 2024 | Atualizado em 6 de março de 2024"], "2024-03-05"),
    ("fr", ["Publié le 05 mars 2024 à 10h00, modifié le 06 mars 2024 à 11h00"],
     "2024-03-05T10:00:00"),
    ("fr", ["Le 5 mars 2024 à 10h00 - Mis à jour le 6 mars 2024 à 11h00"], "2024-03-05T10:00:00"),
    ("it", ["Pubblicato il 5 marzo 2024 alle 10:00 - Modificato il 6 marzo 2024"],
     "2024-03-05T10:00:00"),
    ("nl", ["5 maart 2024, 10:00 Laatste update: 6 maart 2024, 11:00"], "2024-03-05T10:00:00"),
    ("pl", ["Opublikowano: 5 marca 2024, 10:00 Aktualizacja: 6 marca 2024"],
     "2024-03-05T10:00:00"),
    ("tr", ["05.03.2024 10:00 Güncelleme: 06.03.2024 11:00"], "2024-03-05T10:00:00"),
    ("sv", ["Publicerad 5 mars 2024 kl. 10.00 Uppdaterad 6 mars 2024 kl. 11.00"],
     "2024-03-05T10:00:00"),
    ("da", ["5. mar. 2024 kl. 10.00 Opdateret 6. mar. 2024"], "2024-03-05T10:00:00"),
])
def test_update_labels_in_other_languages(lang, lines, expected):
    printed = "".join(f"<p class=meta>{line}</p>" for line in lines)
    markup = (f'<html lang="{lang}"><head><title>T</title></head><body><article>'
              f"<h1>Headline of the story</h1>{printed}<p>" + "Text of the story. " * 40
              + "</p></article></body></html>")
    assert extract_metadata(parse(markup), "https://n.example/x/1").published == expected


@pytest.mark.parametrize(("printed", "published", "modified"), [
    ("<p>March 5, 2024 · Updated March 6, 2024</p>", "2024-03-05", "2024-03-06"),
    ("<p>March 5, 2024</p><p><span>Updated</span> <time>March 6, 2024</time></p>",
     "2024-03-05", "2024-03-06"),
    ("<p>Publié le 05 mars 2024 à 10h00, modifié le 06 mars 2024 à 11h00</p>",
     "2024-03-05T10:00:00", "2024-03-06T11:00:00"),
    ("<p>Published March 5, 2024</p>", "2024-03-05", None),
    # an update before the publication is a misreading, not the page's
    ("<p>March 5, 2024 · Updated March 4, 2024</p>", "2024-03-05", None),
    # "Update" in a post's title is no label
    ("<p>March 5, 2024</p><p>Development Update 2024-03-06</p>", "2024-03-05", None),
])
def test_printed_update_is_the_modified_date_when_none_is_declared(printed, published, modified):
    markup = page(body=f"<article><h1>Headline of the story</h1>{printed}<p>"
                  + "Text of the story. " * 40 + "</p></article>")
    m = meta(markup, "https://n.example/x/1")
    assert (m.published, m.modified) == (published, modified)


def test_declared_modified_date_wins_over_the_printed_one():
    markup = page('<meta property="article:modified_time" content="2024-03-07T09:00:00Z">',
                  "<article><h1>Headline of the story</h1>"
                  "<p>March 5, 2024 · Updated March 6, 2024</p><p>Text.</p></article>")
    assert meta(markup).modified == "2024-03-07T09:00:00+00:00"


def test_a_time_without_datetime_gives_the_stamp_it_keeps_in_a_data_attribute():
    body = ('<h1>Houston hires a head coach</h1><a href="/u/1">Travis Haney</a> - '
            '<time data-published="2016-12-09 09:13:00Z"> 4 hours ago </time><p>Text.</p>')
    assert (meta(page(body=body)).published or "")[:10] == "2016-12-09"

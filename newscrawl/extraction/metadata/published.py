"""The publication and update dates: declared ones, checked against the date the byline under
the headline prints, and without a declaration the dates the page shows (a <time>, a labelled
line, a date further down).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date as calendar_date
from itertools import chain

from lxml import etree

from newscrawl.extraction.dates import parse_date, swapped_date, url_date, word_trie, zone_days
from newscrawl.extraction.meta_jsonld import JsonLd
from newscrawl.extraction.metadata.authors import AUTHOR_LABEL, AUTHOR_LABELLED, BY_ONLY, BY_PREFIX
from newscrawl.extraction.metadata.collect import (
    _GENERIC_DATE_KEYS,
    _PUBLISHED_KEYS,
    _TEXT_CONTENT,
    _Collected,
    _in_reply,
    decided,
    on,
)
from newscrawl.extraction.metadata.walk import (
    _BODY_TEXTS,
    _BYLINE_TEXTS_BEFORE,
    _SKIP_TEXT_PARENTS,
    _after_headline,
    _before_headline,
    _following_texts,
    _headline,
    _outside_article,
    _strings_down,
)
from newscrawl.extraction.text import letters_key

_FAR_DATE_TRIES = 8
"""Texts below the headline searched for a labelled byline or date (an article's length)."""
_DATE_LABEL = re.compile(r"(?i)\b(?:posted|published|updated|written|post (?:time|date)"
                         r"|date posted)\b|publié|veröffentlicht|publicado|pubblicato"
                         r"|gepubliceerd|publicerad|opublikowano|опубликовано|yayınlan"
                         r"|发布|发表|發佈|發表|更新时间|时间[：:]|日期[：:]|公開日|投稿日|掲載日"
                         r"|작성일|등록일|입력")
_CJK_STAMP = re.compile(r"\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日\s*\d{1,2}[:：]\d{2}")
"""A day written out in Chinese or Japanese with the time to the minute ("2024年3月5日 08:19"):
a publication stamp, as a date mentioned in prose carries no clock time."""
_DATE_HINTS = ("date", "publish", "posted", "byline", "author", "time")
_NOT_DATE_HINTS = ("review", "card", "stock", "sale", "event")
"""Classes of dates that are not the page's: a review's, a teaser card's, a sale's."""
# Visible text just after (and a little before) the headline, where bylines and dates sit.
_YEAR = re.compile(r"(?<!\d)(?:199\d|20[0-4]\d|25[3-8]\d|259[0-2]|1369|13[7-9]\d|14[01]\d|1420)"
                   r"(?!\d)")
"""1990 to 2049 in the common era, in the Buddhist era of Thai pages (2533 to 2592) and in the
solar calendar of Persian ones (1369 to 1420)."""
_ASCII_DIGITS = {zero + i: ord("0") + i for zero in (0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0xFF10)
                 for i in range(10)}
"""Arabic-Indic, Persian, Devanagari, Bengali, Thai and full-width digits."""


def _has_year(text: str, pos: int = 0) -> bool:
    """Whether ``text`` holds a plausible year, in ASCII digits or another script's."""
    return _YEAR.search(text, pos) is not None or (
        not text.isascii() and _YEAR.search(text.translate(_ASCII_DIGITS), pos) is not None)


# An update, not the publication: "Updated", "Last post" / "Last reply" on forum threads.
_UPDATED = re.compile("(?i)" + word_trie((
    "updated", "modified", "modifié", "modificato", "aktualisiert", "mis à jour", "actualizado",
    "aggiornato", "aktualizacj", "güncelleme", "atualizad", "actualitzat", "bijgewerkt",
    "geüpdatet", "zaktualizowan", "aktualizován", "aktualizovan", "frissítve", "actualizat",
    "обновлен", "оновлен", "güncellen", "uppdaterad", "opdateret", "oppdatert", "päivitetty",
    "ενημερώθηκε", "diperbarui", "cập nhật", "עודכן", "تحديث", "تم التحديث", "به‌روز", "更新",
    "수정", "dernier message", "letzter beitrag", "último mensaje", "ultimo messaggio"))
    + r"|\b(?:last|latest|laatste)\s+update\b|\bupdate\s*:|\blast (?:post|reply|activity)")
"""An update's label in the languages of the month names (Portuguese, Catalan, Dutch, Polish,
Czech, Slovak, Hungarian, Romanian, Russian, Ukrainian, Turkish, the Nordic ones, Greek,
Indonesian, Vietnamese, Hebrew, Arabic, Persian, Chinese and Japanese, Korean)."""
_LINE_PUNCTUATION = " -–—|·•,;(["
"""What separates a date from the update's label after it on one line."""
_NOT_PUBLISHED = re.compile(r"(?i)\bjoined\b|member since|\bregistered\b|\bfounded\b"
                            r"|beigetreten|inscrit")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_TEXT_MAX = 80
_TEXT_WINDOW_AFTER = 60
_TEXT_WINDOW_BEFORE = 12
_TIME_SCAN = 5
_BYLINE_DATE_TEXTS = 12
"""Text nodes below the headline that make its byline area (author, date, reading time)."""
_BYLINE_DATE_LEN = 40
_PUBLISHED_NAME = re.compile(r"(?:publish(?:ed)?(?:date|time|at)|published|publication(?:date|time)"
                             r"|pubdate|datepub(?:lished)?)$")
"""Any other meta name that ends by naming the publication ("w-published-date",
"og:publish_date", "cxenseparse:publishtime", "article:first_published_time"), its
punctuation dropped: vendors prefix the names they copy."""
_NOT_PUBLISHED_NAME = re.compile(r"last|modif|updat")
_NAMESPACED_DATE = re.compile(r"[a-z]+[.:_]date$")
"""A vendor's plain date ("ms.date", "cludo:date"): as generic as ``date``, read after it."""


def _times_by_headline(c: _Collected, h1: etree._Element | None) -> list[etree._Element]:
    """The ``<time>``s to date a page by, in order: one marked as the publication's
    (``pubdate``, ``class=*publish*``, itemprop ``datePublished``), then one in the byline just
    under or just above the headline, then any other that is not above the headline; not one
    labelled as an update, which dates the page only after the printed dates (_published)."""
    times = [t for t in c.times if (t.get("pubdate") is not None
             or "publish" in (t.get("class") or "").lower()
             or (t.get("itemprop") or "").lower() == "datepublished") and not _in_reply(t)]
    if h1 is not None and len(c.times) > len(times):
        near = chain(_after_headline(c, h1, _BYLINE_DATE_TEXTS),
                     _before_headline(c, h1, _BYLINE_TEXTS_BEFORE))
        times += [p for t in near if (p := t.getparent()) is not None and p.tag == "time"]
    return [t for t in times + [t for t in c.times if not _above(t, h1)]
            if not _labelled_time_update(t)]


def _labelled_time_update(time: etree._Element) -> bool:
    """A ``<time>`` that an update label stands just before ("<span>Updated</span> <time>"):
    the page's update, not its publication."""
    previous = time.getprevious()
    if previous is None:
        parent = time.getparent()
        before = parent.text if parent is not None else None
    elif previous.tail and not previous.tail.isspace():
        before = previous.tail
    else:
        # a label element's own text ("<span>Updated</span>"): not a whole block's string
        before = previous.text if len(previous) == 0 else None
    return bool(before) and len(before) <= 40 and _UPDATED.search(before) is not None


def _above(el: etree._Element, h1: etree._Element | None) -> bool:
    """On a source line before the headline's: a header's clock, a sidebar's list of posts.
    (A page minified onto one line keeps plain document order.)"""
    line = h1.sourceline if h1 is not None else None
    return bool(line and el.sourceline and el.sourceline < line)


_STAMP_ATTRIBUTE = re.compile(r"publish|date|time|stamp")


def _time_date(c: _Collected, url: str | None, times: list[etree._Element]) -> str | None:
    """The date of the first of ``times`` that gives one: its ``datetime``, its text, or a
    stamp its site keeps in another attribute (247Sports: ``<time data-published="2016-12-09
    09:13:00Z">4 hours ago</time>``)."""
    for el in times:
        value = el.get("datetime") or _TEXT_CONTENT(el)
        date = parse_date(value)
        if not date:
            value = next((v for k, v in el.items() if k.startswith("data-")
                          and _STAMP_ATTRIBUTE.search(k) and len(v) >= 8), "")
            date = parse_date(value)
        if date:
            return _day_month(c, url, value, date)
    return None


def _day_month(c: _Collected, url: str | None, text: str, date: str) -> str:
    """``date`` as read from ``text``, or the other reading of an ambiguous numeric date
    (02-12-2025, 03/10/2023) when only that one is among the page's unambiguous dates: an ISO
    ``<time datetime>`` or the day its URL spells."""
    other = swapped_date(text, date)
    if other is None:
        return date
    days = {v[:10] for t in c.times if _ISO_DAY.match(v := t.get("datetime") or "")}
    days.add(url_date(url) or "")
    return other if other in days and date[:10] not in days else date


@dataclass(frozen=True, slots=True)
class _Shown:
    """A date printed next to the headline, and whether it is labelled as an update."""

    date: str
    updated: bool


def _short_dates(texts: list) -> Iterator[tuple[int, str, str]]:
    """``(index, text, date)`` for each text short enough to be a date line that parses as a
    date; the year test first spares the date parser most texts."""
    for i, text in enumerate(texts):
        if (len(text) <= _DATE_TEXT_MAX or len(text.strip()) <= _DATE_TEXT_MAX) and _has_year(
                text):
            date = parse_date(text) or _line_date(text)
            if date:
                yield i, text, date


def _line_date(text: str) -> str | None:
    """The first date of a line that holds more than one, which the date parser refuses: the
    part before an update label ("March 5, 2024 · Updated March 6, 2024", "Published: 05.03.2024,
    updated: 06.03.2024"); a line of several labelled fields ("作者： 来源： 发布日期： 9/17/2004
    5:54:13 AM", "Author: X · Published: DATE") read from its last date label on."""
    update = _UPDATED.search(text)
    if update and _has_year(text[:update.start()]):
        text = text[:update.start()].rstrip(_LINE_PUNCTUATION)
        if date := parse_date(text):
            return date
    if ":" in text or "：" in text:
        labels = list(_DATE_LABEL.finditer(text))
        if labels and labels[-1].start() and _has_year(text, labels[-1].end()):
            return parse_date(text[labels[-1].end():])
    return None


def _date_label(text: str, previous: str) -> str:
    """A date's text with its label: the label may be its own node just before it ("<span>
    Updated</span> <time>..."), a short text without a year."""
    return text if _has_year(previous) or len(previous) > 40 else text + " " + previous


def _shown_date(c: _Collected, h1: etree._Element | None, url: str | None = None,
                n_after: int = _TEXT_WINDOW_AFTER, n_before: int = _TEXT_WINDOW_BEFORE,
                ) -> _Shown | None:
    """A date written out next to the headline ("Published March 5, 2024"), as a reader sees it.

    Texts right below the headline come first, then the few just above it; a date labelled as
    an update is used only when no other date is there.
    """
    if h1 is None:
        return None
    updated: _Shown | None = None
    after = _after_headline(c, h1, n_after)
    texts = after + _before_headline(c, h1, n_before) if n_before else after
    for i, text, date in _short_dates(texts):
        parent = text.getparent()
        if parent is not None and parent.tag in _SKIP_TEXT_PARENTS:
            continue
        # the text before it in reading order labels it ("Updated" / "March 5"); above the
        # headline texts run nearest first, so ``texts[i - 1]`` there is not that text
        label = _date_label(text, texts[i - 1] if 0 < i < len(after) else "")
        if _NOT_PUBLISHED.search(label):
            continue  # a member's join date on a forum, an event's date
        if _labelled_update(text, label):
            updated = updated or _Shown(_day_month(c, url, text, date), True)
            continue
        return _Shown(_day_month(c, url, text, date), False)
    return updated


def _printed_update(root: etree._Element, c: _Collected, url: str | None,
                    published: str | None) -> str | None:
    """The update date printed in the byline area under the headline ("Updated March 6, 2024",
    "<span>Updated</span> <time>…", "March 5, 2024 · Updated March 6, 2024"), for a page that
    declares none; not one before the publication. The texts are read as plain strings, and
    parsed only when an update label is among them: most pages have none."""
    h1 = _headline(root, c)
    if h1 is None:
        return None
    strings = _byline_strings(c, h1)
    # only lines short enough to be a date's or its label's are searched (prose, a script's
    # text, is not)
    short = "\0".join(t for t in strings
                       if len(t) <= _DATE_TEXT_MAX or len(t.strip()) <= _DATE_TEXT_MAX)
    if _UPDATED.search(short) is None:
        return None
    for i, text in enumerate(strings):
        if len(text.strip()) > _DATE_TEXT_MAX:
            continue
        label = _date_label(text, strings[i - 1] if i else "")
        update = _UPDATED.search(label)
        if update is None or _NOT_PUBLISHED.search(label):
            continue
        # the label in the text itself: the date after it (a publication may come before it)
        dated = text[update.end():] if update.start() < len(text) else text
        if not _has_year(dated) or not (date := parse_date(dated)):
            continue
        date = _day_month(c, url, dated, date)
        return None if published and date[:10] < published[:10] else date
    return None


def _labelled_update(text: str, label: str) -> bool:
    """Whether the date ``text`` gives is labelled as an update: by a label before it, or in
    the node before; not by one that follows it on the same line ("입력 2024.11.22 10:15 수정
    2024.11.23", "March 5, 2024 · Updated March 6"), whose first date is the publication's."""
    m = _UPDATED.search(text)
    if m is None:
        return label != text and _UPDATED.search(label, len(text)) is not None
    return not any(ch.isdigit() for ch in text[: m.start()])


def _update_or_caption(el: etree._Element | None) -> bool:
    """The element or one of its near ancestors is a caption or is classed as an update date
    ("updated", "modified", "date-modified")."""
    for _ in range(4):
        if el is None:
            return False
        if el.tag in ("figure", "figcaption", "caption"):
            return True
        cls = (el.get("class") or "").lower()
        if "updat" in cls or "modif" in cls or "caption" in cls:
            return True
        el = el.getparent()
    return False


def _same_day_swapped(a: str, b: str) -> bool:
    """``a`` is ``b`` with day and month read the other way round (09.10.2024 vs 2024-09-10)."""
    return a[:4] == b[:4] and a[5:7] == b[8:10] and a[8:10] == b[5:7]


def _days_apart(a: str, b: str) -> int:
    return abs((calendar_date.fromisoformat(a[:10]) - calendar_date.fromisoformat(b[:10])).days)


def _same_instant_day(day: str, declared: str) -> bool:
    """``day`` may be the declared moment's day in another time zone: a day off a declared
    timestamp with an offset only when some zone (UTC-12 to UTC+14) puts the moment on that
    day (2025-11-13T22:47Z is the 13th or the 14th, never the 12th); a day either way when the
    declaration gives no offset."""
    span = zone_days(declared)
    if span is None:
        return _days_apart(day, declared) <= 1
    return span[0] <= calendar_date.fromisoformat(day[:10]) <= span[1]


def _byline_override(c: _Collected, h1: etree._Element, declared: str,
                     modified: str | None) -> str | None:
    """The date printed in the byline area when it overrules the declared one (see
    _published). The texts are read as plain strings; the element behind a date is fetched
    only when that date would overrule, to check it is not a script's, a caption's or one
    classed as an update."""
    strings = _byline_strings(c, h1)
    for i, text, date in _short_dates(strings):
        label = _date_label(text, strings[i - 1] if i else "")
        if _NOT_PUBLISHED.search(label) or _labelled_update(text, label):
            continue
        if (len(text.strip()) > _BYLINE_DATE_LEN or date[:10] == declared[:10]
                or (modified and date[:10] == modified[:10])
                or _same_instant_day(date, declared) or _same_day_swapped(date, declared)):
            return None
        node = next((t for t in _after_headline(c, h1, _BYLINE_DATE_TEXTS) if t == text), None)
        parent = node.getparent() if node is not None else None
        if parent is None or parent.tag in _SKIP_TEXT_PARENTS:
            continue
        return None if _update_or_caption(parent) else date
    return None


def _byline_strings(c: _Collected, h1: etree._Element) -> list[str]:
    """The first texts after the headline, where a byline prints its dates; read once for the
    three readers of printed dates that need them."""
    if c.byline is None:
        c.byline = _strings_after(h1, _BYLINE_DATE_TEXTS)
    return c.byline


def _strings_after(el: etree._Element, limit: int) -> list[str]:
    """The first ``limit`` non-blank texts after ``el`` as plain strings (script text included),
    read by lxml's C iterator: no element objects."""
    out: list[str] = []
    node: etree._Element | None = el
    while node is not None:
        tail = node.tail
        if tail and not tail.isspace():
            out.append(tail)
        for sib in node.itersiblings():
            if isinstance(sib.tag, str):
                for t in sib.itertext():
                    if not t.isspace():
                        out.append(t)
                        if len(out) >= limit:
                            return out[:limit]
            tail = sib.tail
            if tail and not tail.isspace():
                out.append(tail)
        node = node.getparent()
    return out[:limit]


def _published(root: etree._Element, c: _Collected, ld: JsonLd | None, url: str | None,
               modified: str | None) -> str | None:
    """The declared publication date, unless the byline under the headline prints another one
    that is neither the declared modification date nor the same day in another time zone or
    day/month order: then the declared date is a CMS's (an import, a re-save) and the printed
    one is the date readers see. Two declarations that disagree are settled by the printed
    date. Without a declared date: a marked or byline <time>, the printed date, any other
    <time>, URL, a labelled date further down, modified."""
    declared = _date([ld.published if ld else None,
                      *[v for k in _PUBLISHED_KEYS for v in c.metas.get(k, ())]])
    h1 = _headline(root, c)
    if not declared:
        declared = _date([v for k, values in c.metas.items() if _publication_name(k)
                          for v in values])
    if not declared:
        declared = _date([*[v for k in _GENERIC_DATE_KEYS for v in c.metas.get(k, ())],
                          *[v for k, values in c.metas.items() if k.endswith("date")
                            and k not in _GENERIC_DATE_KEYS and _NAMESPACED_DATE.match(k)
                            for v in values]])
    if declared and h1 is not None:
        declared = _printed_declaration(c, ld, h1, declared)
    if declared:
        # A URL dated one day off the declared date: the CMS wrote the URL on the site's own
        # clock, the declared timestamp in UTC ("/2025/12/18/" and 2025-12-19T02:41Z); only
        # a day some time zone gives that moment (not the 20th for 2025-12-19T02:41Z).
        day = url_date(url)
        if (day and _days_apart(day, declared) == 1 and _same_instant_day(day, declared)
                and on("published.url_day_off_declared")):
            return decided("published.url_day_off_declared", day)
        # A <time> on the page that shows the declared day: nothing to overrule.
        if any((t.get("datetime") or "")[:10] == declared[:10] for t in c.times[:_TIME_SCAN]):
            return decided("published.declared", declared)
        if h1 is not None and on("published.byline_over_declared") and (
                printed := _byline_override(c, h1, declared, modified)):
            return decided("published.byline_over_declared", printed)
        return decided("published.declared", declared)
    undeclared: tuple[tuple[str, Callable[[], str | None]], ...] = (
        ("post_timestamp", lambda: _post_timestamp(h1)),
        ("time", lambda: _time_date(c, url, _times_by_headline(c, h1))),
        ("shown", lambda: (shown.date if (shown := _shown_date(c, h1, url)) else None)),
        ("url", lambda: url_date(url)),
        ("far_below", lambda: _far_date(root, c, h1)),
        ("modified", lambda: modified),
    )
    for rule, read in undeclared:
        if on(f"published.{rule}") and (date := read()):
            return decided(f"published.{rule}", date)
    return None


def _post_timestamp(h1: etree._Element | None) -> str | None:
    """Reddit's post element (``<shreddit-post>``) holds the headline and its creation time in
    an attribute, ``created-timestamp``; the page prints only "2 mo. ago" and has no <time>."""
    for el in h1.iterancestors() if h1 is not None else ():
        if stamp := el.get("created-timestamp"):
            return parse_date(stamp)
    return None


def _printed_declaration(c: _Collected, ld: JsonLd | None, h1: etree._Element,
                         declared: str) -> str:
    """When the JSON-LD ``datePublished`` and the first publication meta tag disagree (2018 in
    one, 2025 in the other), the one the byline under the headline prints, with whatever
    label: the page stands by the date it shows. (Microdata ``datePublished``, repeated once
    per post on a forum thread, is not a second declaration.)"""
    meta = next((c.metas[k][0] for k in _PUBLISHED_KEYS if k != "datepublished" and k in c.metas),
                None)
    if ld is None or not ld.published or meta is None:
        return declared
    dates = [d for v in (ld.published, meta) if (d := parse_date(v))]
    if len(dates) < 2 or _same_instant_day(dates[1], dates[0]):
        return declared
    first_printed = next(_short_dates(_byline_strings(c, h1)), None)
    if first_printed is None:
        return declared
    return next((d for d in dates if d[:10] == first_printed[2][:10]), declared)


def _publication_name(key: str) -> bool:
    """A meta name not in _PUBLISHED_KEYS that names the publication date (_PUBLISHED_NAME)."""
    if "pub" not in key:
        return False
    key = letters_key(key)
    return bool(_PUBLISHED_NAME.search(key)) and not _NOT_PUBLISHED_NAME.search(key)


def _far_date(root: etree._Element, c: _Collected, h1: etree._Element | None) -> str | None:
    """A labelled date further down ("Posted on April 13, 2023" under the article, "Published
    On:" in a footer line), or one in an element classed as a date; below the headline, or from
    the top of the body on a page without one (a forum thread's first post). Read as plain
    strings; the element is fetched only for a text that parses as a date."""
    strings = _strings_down(root, c, h1)
    texts: list | None = None
    tries = 0
    for i, t, date in _short_dates(strings):
        tries += 1
        if tries > _FAR_DATE_TRIES:
            return None  # a list of dated items (archives, comments): none is the page's
        if texts is None:
            texts = (_following_texts(h1, len(strings)) if h1 is not None
                     else _BODY_TEXTS(root, n=len(strings)))
        if len(texts) <= i:
            return None
        holder = texts[i].getparent()
        if holder is None or holder.tag in _SKIP_TEXT_PARENTS or _outside_article(
                holder, False, False):
            continue
        label = t if i == 0 or len(strings[i - 1]) > 40 else strings[i - 1] + " " + t
        if _NOT_PUBLISHED.search(label):
            continue
        if _DATE_LABEL.search(label) or _date_classed(holder) or _CJK_STAMP.search(t) or (
                h1 is not None and _after_byline(strings, i)):
            return date
    return None


def _after_byline(strings: list[str], i: int) -> bool:
    """The date follows a labelled byline ("Written by" / "Jane Doe" / "April 8, 2024") below
    the headline: it is the article's date, as a reader takes it."""
    return any(AUTHOR_LABEL.match(t) or AUTHOR_LABELLED.match(t) or BY_PREFIX.match(t)
               or BY_ONLY.match(t) for t in strings[max(0, i - 2):i])


def _date_classed(el: etree._Element) -> bool:
    for a in (el, el.getparent()):
        if a is None:
            return False
        cls = ((a.get("class") or "") + " " + (a.get("id") or "")).lower()
        if any(h in cls for h in _NOT_DATE_HINTS):
            return False
        if a.tag == "time" or any(h in cls for h in _DATE_HINTS):
            return True
    return False


def _date(values: list[str | None]) -> str | None:
    for value in values:
        date = parse_date(value)
        if date:
            return date
    return None

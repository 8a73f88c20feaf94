"""The page's headline: the <h1> that agrees with the declared titles (og:title, the JSON-LD
headline, <title>), else a declared title with the site's name, section and descriptors cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import unquote, urlsplit

from lxml import etree

from newscrawl.extraction.decode import readable
from newscrawl.extraction.meta_jsonld import JsonLd
from newscrawl.extraction.metadata.collect import (
    _MAX_TITLE,
    _TITLE_KEYS,
    _WORD,
    _clip,
    _Collected,
    _first,
    _hostname,
    _key,
    _page_type,
    _words,
    decided,
    on,
)
from newscrawl.extraction.metadata.headings import (
    _inline_text,
    _rstrip_glyphs,
)
from newscrawl.extraction.metadata.walk import _iter_before, _Walk
from newscrawl.extraction.text import (
    CJK,
    CJK_CHAR,
    HAN,
    HIDING_CLASSES,
    screen_reader_only,
)

# Between a headline and the site name in <title> and og:title.
_TITLE_SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " / ", " « ", " » ",
                     " ~ ", ": ", "｜", " – ", " _ ", "：")
# Separators a headline does not contain itself, so a third piece between them is a section.
_GENERIC_PAGE_TYPES = frozenset({
    "website", "webpage", "collectionpage", "faqpage", "aboutpage", "contactpage",
    "searchresultspage", "itempage", "medicalwebpage", "profilepage"})
"""schema.org page types and og:type values that say "a page", not "an article"."""
_ELLIPSES = ("…", "...")
_DESCRIPTOR_SEPARATORS = (" | ", "｜")
"""After the headline in a title only: what follows is a descriptor or a section."""
_UPPER_KICKER = re.compile(
    r"(?=.*[A-Z]{2})[A-Z0-9][A-Z0-9.,'’&!?-]*(?: [A-Z0-9][A-Z0-9.,'’&!?-]*){0,3}")
"""A kicker in capitals, up to four words: "BUDGET 3.0", "WATCH", "LIVE UPDATES"."""
_KICKER_HEADLINE_WORDS = 4
_SECTION_SEPARATORS = frozenset({" | ", " :: ", " · ", " • ", " / ", " « ", " » ", "｜", " _ "})
_SOURCE_DOMAIN = re.compile(r"\s+\(((?:[\w-]+\.)+[a-z]{2,})\)$", re.I)
"""A link aggregator's source after a headline: "Grads Find No Jobs (latimes.com)"."""
_SLUG_WORD = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"\d+")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_SLUG_MARGIN = 0.15
"""Share of the slug's words the declared title must lack for the slug's <h1> to win."""
_SITE_EXTRA = 6
"""Characters a title piece may add to the site's name and still be only its name."""
_H1_AGREEMENT = 0.3
"""Share of an <h1>'s words found in the declared titles for it to count as the headline."""
_H1_SOLE_AGREEMENT = 0.1
"""The same when the page has a single <h1>: one shared word is enough."""
_H1_HEADER_AGREEMENT = 0.8
"""The same for an <h1> in a page <header> outside any article (a banner, a title bar)."""
_SECTION_H1S = 4
"""<h1>s on a page that uses them for its sections (a post's subheads, a sidebar's boxes, a
store's menus): one of them sharing a single word with the declared title is chance."""
_FUNCTION_WORDS = frozenset({
    "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "with", "by", "from",
    "is", "are", "be", "what", "how", "why", "your", "you", "our", "we", "it", "its", "this",
    "that", "de", "la", "le", "les", "et", "des", "du", "el", "los", "las", "y", "en", "di",
    "il", "e", "der", "die", "das", "und", "zu", "von"})
"""Words every title has: an <h1> sharing only these with the declared title does not agree
with it ("Notes and Resources" against "Tidepools: What Lives There and How to Visit
Them")."""


def _site_names(site_name: str | None, url: str | None) -> list[str]:
    names = [_key(site_name)] if site_name else []
    if names and len(names[0]) >= 3 and names[0].endswith("网"):
        # "腾讯网" (Tencent's site) signs its news pages "腾讯新闻": the name without its "网".
        names.append(names[0][:-1])
    host = _hostname(url) if url else None
    if host:
        labels = [x for x in host.removeprefix("www.").split(".") if x]
        if len(labels) >= 2:
            names.append(_key(labels[-2] if len(labels[-2]) > 3 or len(labels) < 3
                              else labels[-3]))
            names.append(_key(".".join(labels)))
    return [n for n in names if len(n) >= 3 or (len(n) == 2 and CJK_CHAR.match(n))]


_CJK_SITE = re.compile(rf"(?=..)[{HAN}]{{0,10}}(?:网|網|网站|網站|新闻|新聞"
                       r"|频道|頻道|日报|日報|晚报|晚報|时报|時報|在线|在線|门户|門戶)")
"""A Chinese site's or channel's name, by the words such names end with ("巴彦淖尔市人民政府网",
"腾讯新闻", "教育频道", "人民日报", a bare "新闻") after a title's last separator
("标题_频道_网站"), when the page declares no site name and its host is pinyin or an
abbreviation that matches nothing. Only there: a headline may end the same way
("中国正式接入国际互联网")."""


def _is_site(piece: str, sites: list[str]) -> bool:
    """The piece names the site: it is the site's name, part of it ("Times"), or the name with
    a word or two around it ("BBC News", "The FreeBSD Forums"). A piece that only *mentions*
    the site ("Docker Hardened Images", "Corti introduces GIM") is a headline about it."""
    k = _key(piece)
    if not k:
        return True
    return any(k == s or (len(k) >= 4 and (k in s or (s in k and (
        len(s) * 2 >= len(k) or len(k) - len(s) <= _SITE_EXTRA)))) for s in sites)


def _strip_site(title: str, sites: list[str], leading: bool = True,
                headings: Sequence[str] = ()) -> str:
    """``Headline | Site`` or ``Site - Headline`` to ``Headline`` when a side names the site.

    ``Headline | Section | Site``: once the site is cut from one end, what remains on the far
    side of the same separator is a section or category, when the separator is one headlines
    do not use themselves (a pipe, a slash, a bullet; not a dash or a colon).

    A leading piece that an <h1> (``headings``, keys) opens with is the headline's start, not
    the site, unless it is the site's very name: "Ridge Wallet - Royal Black" on The Ridge's
    page whose <h1> is "Ridge Wallet", "Nintendo Switch – OLED Model - Nintendo - Official Site".
    """
    for sep in _TITLE_SEPARATORS:
        if sep not in title:
            continue
        head, _, tail = title.rpartition(sep)
        if head and _is_site(tail, sites):
            if sep in _SECTION_SEPARATORS and sep in head:
                head = head.partition(sep)[0]
            return _strip_site(head.strip(), sites, leading, headings)
        if head and _CJK_SITE.fullmatch(_key(tail)):
            # "标题 - 要闻云南 - 云南日报网": the pieces between are channels, shorter than it
            pieces = head.split(sep)
            if len(pieces) > 1 and len(pieces[0]) > max(map(len, pieces[1:])):
                head = pieces[0]
            return _strip_site(head.strip(), sites, leading, headings)
        head, _, tail = title.partition(sep)
        if ((leading or sep in _SECTION_SEPARATORS) and tail and _is_site(head, sites)
                and not _opens_heading(head, sites, headings)):
            if sep in _SECTION_SEPARATORS and sep in tail:
                tail = tail.rpartition(sep)[2]
            return _strip_site(tail.strip(), sites, leading, headings)
    return title


def _opens_heading(piece: str, sites: list[str], headings: Sequence[str]) -> bool:
    k = _key(piece)
    return k not in sites and any(h.startswith(k) for h in headings)


def _strip_host(title: str, url: str | None) -> str:
    """``example.com Headline`` to ``Headline``: the page's own host name run into a title
    without a separator names the site (one with a separator is _strip_site's)."""
    host = (_hostname(url) or "").removeprefix("www.") if url else ""
    first, _, rest = title.partition(" ")
    if host and _WORD.match(rest) and first.lower().removeprefix("www.") == host:
        return rest
    return title


def _strip_site_tail(heading: str, sites: list[str]) -> str:
    """``Headline | Site`` in an <h1> (some themes print the <title> there) to ``Headline``.

    Only a trailing site name and not after a colon: in a heading, "Brand: what it did" is the
    headline itself."""
    for sep in _TITLE_SEPARATORS:
        if sep != ": " and sep in heading:
            head, _, tail = heading.rpartition(sep)
            if head.strip() and _is_site(tail, sites):
                return head.strip()
    return heading


def _cut_source(heading: str, h1: etree._Element) -> str:
    """``Headline (latimes.com)`` to ``Headline`` when the <h1> links to that host: a link
    aggregator names the story's source. Not "Server rendering (Next.js)", which links nowhere
    of that name."""
    found = _SOURCE_DOMAIN.search(heading)
    if found:
        domain = found.group(1).lower()
        for a in h1.iter("a"):
            try:
                host = urlsplit(a.get("href") or "").hostname or ""
            except ValueError:  # "http://[" and other broken hrefs
                continue
            if host == domain or host.endswith("." + domain):
                return heading[:found.start()]
    return heading


_MAX_HEADLINE = 150
_SENTENCE_STOP = re.compile(r"[.!?](?=\s|$)|[。！？]")
"""An <h1> longer than a long headline that holds two sentences or more is a paragraph set
in the heading's type ("Learn which renovations ...? Get expert tips ... We'll help you ...")."""


def _h1_ok(h1: etree._Element, text: str, sites: list[str], site_words: set[str]) -> bool:
    """Not the logo or site name that some themes wrap in an <h1> (also a short form of it:
    "Garden News" on "Garden Update News", or the text beside a logo image), nor a
    page-header <h1> outside any article, nor a paragraph."""
    if _is_site(text, sites) or len(text) < 3 or h1.get("hidden") is not None:
        return False
    if len(text) > _MAX_HEADLINE and len(_SENTENCE_STOP.findall(text)) >= 2:
        return False
    if site_words and _words(text) <= site_words:
        return False
    if any("logo" in (img.get("class") or "").lower() for img in h1.iter("img", "svg")):
        return False
    classes = (h1.get("class") or "").lower().split()
    if HIDING_CLASSES & set(classes) or screen_reader_only(classes):
        return False
    parent = h1.getparent()
    for el in (h1, parent) if parent is not None else (h1,):
        # Class tokens, not substrings: "tag-sustainable-brands" on an <article> is a tag list.
        for token in ((el.get("class") or "") + " " + (el.get("id") or "")).lower().split():
            if ("logo" in token or "site-title" in token or "site-name" in token
                    or token.startswith("brand") or token.endswith("brand")):
                return False
    ancestors = {a.tag for a in h1.iterancestors()}
    return bool(ancestors & {"article", "main"}) or not ancestors & {"nav", "footer"}


_CJK_NEIGHBOUR = "\u3000-\u303f" + CJK + "\uff01-\uff60“”"
_CJK_SEPARATOR = re.compile(
    f"(?<=[{_CJK_NEIGHBOUR}])\\s*(_+|\\|+|-+)\\s*(?=\\S)"
    f"|(?<=\\S)\\s*(_+|\\|+|-+)\\s*(?=[{_CJK_NEIGHBOUR}])")
"""Chinese titles join headline, channel and site with a bare "_", "-" or "|"
("北京今冬首场降雪来了_网易新闻", "…来了--人民网"): where either side is CJK, the mark (or a run
of it) is a separator."""


def _spaced_separators(title: str) -> str:
    return _CJK_SEPARATOR.sub(lambda m: f" {(m.group(1) or m.group(2))[0]} ", title)


def _in_page_header(h1: etree._Element) -> bool:
    """Inside a <header> that is not within the article: the site's banner, or a category
    page's title bar; or inside a link, as a blog's banner links its front page. Taken only
    when it agrees closely with the declared title."""
    ancestors = {a.tag for a in h1.iterancestors()}
    return ("header" in ancestors and not ancestors & {"article", "main"}) or "a" in ancestors


def _declared_titles(c: _Collected, ld: JsonLd | None) -> list[str]:
    # og:title before the JSON-LD headline: Google asks for headlines of at most 110
    # characters, so some CMSs cut them, and some put the article's first lines there.
    return [t for t in map(readable, (
        _clip(_first(c.metas, _TITLE_KEYS), _MAX_TITLE),
        _clip(ld.headline, _MAX_TITLE) if ld else None,
        _clip(c.title, _MAX_TITLE),
    )) if t]


def _choose_title(root: etree._Element, c: _Collected, ld: JsonLd | None,
                  site_name: str | None, url: str | None) -> str | None:
    """:func:`_chosen_title`, with the bare separators of a Chinese title as the page wrote
    them where they stay in the headline ("新竹尖石_美樹營地賞楓 @ 史蒂文的家")."""
    declared = _declared_titles(c, ld)
    title = _chosen_title(root, c, ld, declared, site_name, url)
    if not title or any(title in d for d in declared):
        return title
    written = re.compile(_SPACED_MARK.sub(
        lambda m: rf"\s*(?:{m.group(1)})+\s*", re.escape(title)))
    return next((m.group() for d in declared if (m := written.search(d))), title)


_SPACED_MARK = re.compile(r"\\ (_|\\\||\\-)\\ ")
"""A separator as :func:`_spaced_separators` wrote it, in ``re.escape``'s spelling."""


def _chosen_title(root: etree._Element, c: _Collected, ld: JsonLd | None, declared: list[str],
                  site_name: str | None, url: str | None) -> str | None:
    """The headline as a reader sees it: the <h1> that agrees with the declared title (or the
    only <h1> there is), else the declared title with the site's name cut off."""
    # A "site name" that is a whole "Headline | Site" title is the page's title misfiled.
    if site_name and any(sep in site_name for sep in _SECTION_SEPARATORS):
        site_name = None
    sites = _site_names(site_name, url)
    site_words = _words(site_name) if site_name else set()
    declared = [_spaced_separators(t) for t in declared]
    h1s: list[tuple[str, etree._Element]] = []
    header_h1s: list[tuple[str, etree._Element]] = []
    title_words = (c.title or "").split()
    for h in c.h1s:
        text = _clip(readable(_inline_text(h)), _MAX_TITLE)
        text = _cut_source(_rstrip_glyphs(text), h) if text else text
        if (text and len(title_words) >= 2 and text == title_words[-1] and CJK_CHAR.match(text)
                and len("".join(title_words[:-1])) >= 2 * len(text)):
            # "土豆不“土” 土豆无“土” 松花江网" over an <h1> "松花江网": the site's name, set
            # after the headline with a space as Chinese titles may; a headline is the longer
            # part ("松花江网 北京今冬首场降雪来了" over its headline is the other order).
            sites.append(_key(text))
            declared = [d.removesuffix(text).rstrip() for d in declared]
            continue
        if text and _h1_ok(h, text, sites, site_words):
            text = _strip_site_tail(text, sites)
            (header_h1s if _in_page_header(h) else h1s).append((text, h))
    headings = [_key(text) for text, _ in h1s + header_h1s]
    # The site's name in "Headline - Site" agrees with any <h1> that names the site.
    stripped = [_strip_site(d, sites, headings=headings) for d in declared]
    declared_words = set().union(*map(_words, stripped))
    best, best_overlap = None, 0.0
    declared_keys = {_key(s) for s in stripped}
    sections = len(c.h1s) >= _SECTION_H1S
    for text, h in h1s:
        words = _words(text)
        shared = words & declared_words
        content = len(shared - _FUNCTION_WORDS)
        if sections and content == 1 and _key(text) not in declared_keys:
            content = 0
        overlap = len(shared) / len(words) if content else 0.0
        if overlap > best_overlap:
            best, best_overlap = (text, h), overlap
    # A banner <h1> (a blog's name) is also in <title> ("Blog Name: Post"), so it is held to
    # the most specific declared title only (og:title, else the headline, else <title>).
    # One that is a whole declared title (the JSON-LD headline) is the headline all the same.
    first_words = _words(declared[0]) if declared else set()
    for text, h in header_h1s if best_overlap < _H1_AGREEMENT else ():
        words = _words(text)
        overlap = len(words & first_words) / len(words) if words else 0.0
        if _key(text) in declared_keys:
            overlap = 1.0
        if overlap >= _H1_HEADER_AGREEMENT and overlap > best_overlap:
            best, best_overlap = (text, h), overlap
    heading = None
    if best is not None and best_overlap >= _H1_AGREEMENT:
        heading = best
    elif len(h1s) == 1 and (not declared or best_overlap >= _H1_SOLE_AGREEMENT):
        heading = h1s[0]
    # A home page names itself "Brand – what it does" or "Brand: what it does": the brand is
    # part of that name. Only a repeated site name at the end, or a brand before a pipe, is cut.
    home = _is_home(url)
    names = []
    for d, s in zip(declared, stripped, strict=True):
        if home:
            s = _strip_site(d, sites, False)
        elif (hostless := _strip_host(d, url)) != d:
            s = _strip_site(hostless, sites, headings=headings)
        if t := _cut_descriptors(_rstrip_glyphs(s)):
            names.append(t)
    # og:title is sometimes only the site's name ("Robomow") while <title> names the page.
    named = next((t for t in names if not _is_site(t, sites)), None)
    slug = _slug_words(c.canonical or _first(c.metas, ("og:url",)) or url) if (
        h1s or header_h1s) else set()
    slugged = _slug_heading(slug, h1s + header_h1s, named or (names[0] if names else None))
    if slugged is not None and on("title.slug_h1"):
        return decided("title.slug_h1", _cut_descriptors(slugged))
    if heading is None:
        named = named or (names[0] if names else None)
        if named:
            return decided("title.declared", named)
        return decided("title.first_h1", _cut_descriptors(h1s[0][0]) if h1s else None)
    named = named or (names[0] if names else None)
    text = _cut_descriptors(heading[0])
    # The URL's slug made from the <h1> says the <h1> names this page, not its book.
    # ... and a declared title that is the <h1> itself says the page's <title> only adds a
    # kicker or a section before it, not the page's own name.
    page_part = None if (len(slug) >= 2 and slug <= _slug_words_of(text)) or (
        declared and _key(declared[0]) == _key(text)) else (
        _part_before_heading(c.title, text, sites))
    if page_part and on("title.part_before_h1"):
        return decided("title.part_before_h1", page_part)
    if named and on("title.kicker_above") and _kicker_above(heading[1], text, named):
        return decided("title.kicker_above", named)
    # "Thread: <title>", "Blog: <title>", "<Product line> <title>": an <h1> that only puts a
    # label or kicker before the whole declared title shows that title with a lead-in.
    if named and _WORD.search(named) and len(_words(named)) >= 2:
        k, n = _key(text), _key(named)
        if k != n and k.endswith(n) and on("title.h1_lead_in"):
            return decided("title.h1_lead_in", named)
    # A page that calls itself a generic web page (schema.org WebPage, og:type website), with
    # its <h1> outside any <article>, is a landing page: its <h1> is a hero line ("One
    # workspace. Zero busywork.") and the declared title names the page. An <h1> that only
    # shortens or lengthens the declared title, or changes its numbers (a year the page was
    # updated to, the meta tags were not), is still the headline.
    if (named and not named.endswith(_ELLIPSES) and _page_type(c, ld) in _GENERIC_PAGE_TYPES
            and not any(a.tag == "article" for a in heading[1].iterancestors())):
        k, n = _key(_DIGITS.sub("", text)), _key(_DIGITS.sub("", named))
        if k not in n and n not in k and on("title.landing_page"):
            return decided("title.landing_page", named)
    return decided("title.h1", text)


def _kicker_above(h1: etree._Element, text: str, named: str) -> bool:
    """Whether the declared title is ``Kicker: Headline`` with the <h1>'s headline and a kicker
    printed just above the <h1> (an overline): the publisher's title of the story. Not a
    breadcrumb's link ("Products" over "Air Purifiers"), nor after a dash ("Section - Title")."""
    head, found, tail = named.partition(": ")
    if not found or not head or _key(tail) != _key(text):
        return False
    kicker = _key(head)
    return any(_key(t) == kicker and next(t.holder.iterancestors("a"), t.holder).tag != "a"
               for t in _Walk(_iter_before(h1)).first(_KICKER_TEXTS) if t.holder is not None)


_KICKER_TEXTS = 4
"""Texts just above the <h1> where its overline sits (nearest first)."""


def _part_before_heading(title: str | None, heading: str, sites: list[str]) -> str | None:
    """``Page - Book`` in <title> with an <h1> that is ``Book``: the <h1> is the name of the
    book, manual or forum the page belongs to (documentation themes print it on every page),
    and the part before it names this page. Not when that part is itself the site's name
    (``Site - Headline``) or a kicker in capitals (``_cut_descriptors``), nor after a colon,
    which headlines use themselves."""
    title = readable(_clip(title, _MAX_TITLE))
    if not title:
        return None
    for sep in _TITLE_SEPARATORS:
        if sep != ": " and sep in title:
            head, _, tail = title.rpartition(sep)
            head = head.strip()
            if (head and _key(tail) == _key(heading) and not _is_site(head, sites)
                    and not _UPPER_KICKER.fullmatch(head)):
                return _strip_site(head, sites) or None
            return None
    return None


def _slug_words(url: str | None) -> set[str]:
    """Words of the URL's last path segment ("/2025/06/storm-hits-the-coast.html"), without
    tokens that mix letters and digits (ids such as "a1b2c3", "n-5xtnr")."""
    if not url:
        return set()
    segment = unquote(urlsplit(url).path).rstrip("/").rpartition("/")[2]
    segment = _EXTENSION.sub("", segment)
    tokens = _SLUG_WORD.findall(segment.casefold())
    is_id = [not w.isdigit() and any(map(str.isdigit, w)) for w in tokens]
    # a letter hyphenated to an id is the id's ("n-5xtnr"), not a word of the headline
    return {w for k, w in enumerate(tokens) if not is_id[k] and not (
        len(w) == 1 and k + 1 < len(tokens) and is_id[k + 1])}


def _slug_heading(slug: set[str], h1s: list[tuple[str, etree._Element]],
                  named: str | None) -> str | None:
    """The <h1> that the URL's slug was made from, when the declared title has drifted from it.

    CMSs build the slug from the headline as first written; an SEO title is often rewritten
    later. An <h1> holding every word of a slug of two or more words, while the declared title
    holds clearly fewer of them, is the headline the page was published under."""
    if len(slug) < 2:
        return None
    declared_share = len(slug & _slug_words_of(named)) / len(slug) if named else 0.0
    if declared_share > 1.0 - _SLUG_MARGIN:
        return None
    return next((text for text, _ in h1s if slug <= _slug_words_of(text)), None)


def _slug_words_of(text: str) -> set[str]:
    """Words as a slug spells them: "Men's" is "mens"."""
    return set(_SLUG_WORD.findall(text.casefold().replace("'", "").replace("’", "")))


def _is_home(url: str | None) -> bool:
    if not url:
        return False
    parts = urlsplit(url)
    return bool(_hostname(url)) and parts.path in ("", "/") and not parts.query


def _cut_descriptors(title: str) -> str:
    """``Headline | Top 19 Companies`` to ``Headline``: a pipe is not punctuation a headline
    uses, so what follows it is a descriptor, a section or a site the page did not name.
    Before it, an upper-case kicker of a few words ("BUDGET 3.0 | Sars gets R4bn …", as
    TimesLIVE titles its stories) gives way to the headline after it."""
    head, sep, tail = title.partition(" | ")
    if (sep and _UPPER_KICKER.fullmatch(head) and len(tail.split()) >= _KICKER_HEADLINE_WORDS
            and not tail.isupper() and on("title.upper_kicker")):
        title = decided("title.upper_kicker", tail.strip())
    for sep in _DESCRIPTOR_SEPARATORS:
        head = title.partition(sep)[0].strip()
        if head != title and _WORD.search(head):
            title = head
    return title

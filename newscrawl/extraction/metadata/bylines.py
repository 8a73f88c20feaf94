"""Who wrote the page: declared authors (JSON-LD, meta tags, Twitter labels, microdata), else a
byline on the page near the headline (classed boxes, "By" lines, labelled credits, forum thread
starters and posters, Chinese, Japanese and Korean credit lines). Names are cleaned by
``authors``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from copy import deepcopy
from itertools import chain, islice

from lxml import etree

from newscrawl.extraction.compiled import CWALK
from newscrawl.extraction.meta_jsonld import ARTICLE_TYPES, JsonLd
from newscrawl.extraction.metadata.authors import (
    AGENCIES,
    AUTHOR_LABEL,
    AUTHOR_LABEL_START,
    AUTHOR_LABELLED,
    BY_ONLY,
    BY_PREFIX,
    CJK_CREDIT_LEAD,
    CJK_POSTED_BY,
    cjk_credit,
    clean_authors,
    invert_name,
    names_nobody,
)
from newscrawl.extraction.metadata.collect import (
    _AUTHOR_KEYS,
    _TEXT_CONTENT,
    _Collected,
    _first,
    _key,
    _page_type,
    decided,
    on,
)
from newscrawl.extraction.metadata.walk import (
    _BYLINE_TEXTS_BEFORE,
    _SKIP_TEXT_PARENTS,
    _after_headline,
    _before_headline,
    _elements_after,
    _following_texts,
    _headline,
    _iter_elements_before,
    _outside_article,
    _strings_below,
    _strings_down,
    in_story,
)
from newscrawl.extraction.text import CJK_CHAR, hides

_BYLINE = etree.XPath(
    "(//@class[contains(.,'byline') or contains(.,'Byline') or contains(.,'author')"
    " or contains(.,'Author') or contains(.,'writer')] | //@id[contains(.,'byline')]"
    " | //@rel[.='author'] | //@itemprop[.='author'])/parent::*[not(self::meta)"
    " and not(self::link) and not(self::script) and not(self::style)]"
)
"""Byline boxes, in document order. Read along the attribute axis, as ``_ITEMPROP``: testing
the predicates on every element took twice as long (1.1 against 2.2 ms on a WCXB page)."""
_AUTHOR_PAGE = re.compile(
    r"/(?:authors?|writers?|contributors?|columnists?|reporters?)/[^/?#]+/?(?:[?#]|$)"
    r"|[?&_]author=[^&#]", re.I)
"""A link to a writer's page ("/author/jane-doe/", "/articles/authors/jane-doe",
"?_author=Jane%20Doe"): a byline that themes mark by its target, not by a class."""
_ITEMPROP_NAME = etree.XPath(".//*[@itemprop='name']")
_BYLINE_SKIP = frozenset({"meta", "link", "script", "style", "img", "svg", "picture", "source",
                          "noscript", "template", "input", "button", "form"})
_BYLINE_AFTER = 150
_BYLINE_BEFORE = 40
_BYLINE_TEXTS = 25
_LABEL_STARTS = re.compile("\0" + AUTHOR_LABEL_START.pattern, AUTHOR_LABEL_START.flags)
"""AUTHOR_LABEL_START at the start of a text, in texts joined by NUL."""
_LABEL_LOOKAHEAD = 8
_LABEL_TRIES = 3
_CJK_CREDIT_HINT = re.compile(r"记者|記者|报道|報道|報導|报导|作者|撰|文[/／・]|讯员|訊員|实习|實習"
                              r"|筆者|笔者|기자|특파원|" + CJK_POSTED_BY.pattern)
"""Words one of which a Chinese, Japanese or Korean credit line holds: only texts with one are
parsed."""
_CJK_CREDIT_TRIES = 12
_KO_DATELINE = 60
_CONNECTORS = frozenset({",", "&", "and", "und", "et", "y", "e", "og", "och", "en", "i", "и",
                         "和", "、"})
# "By clicking / submitting / signing up ...": a consent line, not a byline.
_BY_GERUND = re.compile(r"\s*[Bb]y\s+[a-z]+ing\b")
_MAX_BYLINE_TEXT = 200


_CONNECTOR_LINE = re.compile(r"\n\s*(,|&|and|und|et|y|e|og|och|en|i|и|和|、)\s*\n", re.I)


_STYLED_OR_HIDDEN = etree.XPath(".//*[@hidden or @style]")


def _visible_strings(el: etree._Element) -> list[str]:
    """The texts of ``el`` a reader sees: a byline box may hide the outlet's name for search
    engines ("The Plain Dealer" in ``display:none``). ``el`` itself may be hidden: microdata
    kept out of sight still names the writer."""
    if any(map(hides, _STYLED_OR_HIDDEN(el))):
        el = deepcopy(el)
        for hidden in filter(hides, _STYLED_OR_HIDDEN(el)):
            for e in hidden.iter():
                e.text = None
                if e is not hidden:
                    e.tail = None
    return [s for t in el.itertext() if (s := t.strip())]


def _texts(el: etree._Element) -> str:
    return _lines(_visible_strings(el))


def _lines(strings: list[str]) -> str:
    """Text with a line between elements: ``<b>By</b><a>Jane</a>`` must not read "ByJane",
    and "Jane Doe" above "Updated 2 hours ago" must not become one name. A line that is only
    "and" or "," joins its neighbours back into one byline."""
    return _CONNECTOR_LINE.sub(r" \1 ", "\n".join(strings))


def _byline_texts(el: etree._Element) -> list[str]:
    """What an author-hinted element says, or, when it holds a whole author box (name, bio,
    links), its first few short lines: the name comes first in such boxes."""
    value = el.get("content")
    if value:
        return [value.strip()]
    names = _ITEMPROP_NAME(el)
    if names:
        return [" and ".join((n.get("content") or _texts(n)) for n in names[:10])]
    strings = _visible_strings(el)
    text = _lines(strings)
    if 0 < len(text) <= _MAX_BYLINE_TEXT:
        return [text]
    return [t for t in strings[:4] if len(t) <= _MAX_BYLINE_TEXT]


def _in_comments(el: etree._Element) -> bool:
    """Whether a byline candidate sits among comments or in page furniture: navigation, the
    page's ``<footer>`` (not a story's own, ``in_story``, where blogs print "Posted by"). An
    ``<aside>`` holds other articles' bylines (a sidebar of stories), except a ``rel="author"``
    link: a page names its own writer so, and some lay the byline beside the text in an
    ``<aside>`` (The Guardian's article meta column)."""
    aside_is_furniture = not _is_rel_author(el)
    for a in el.iterancestors():
        cls = (a.get("class") or "") + " " + (a.get("id") or "")
        if ("comment" in cls.lower() or a.tag in ("nav", "head")
                or (a.tag == "footer" and not in_story(a))
                or (a.tag == "aside" and aside_is_furniture)):
            return True
    return False


def _is_rel_author(el: etree._Element) -> bool:
    """``rel="author"``, or Drupal's RDFa for a node's writer, ``rel="sioc:has_creator"``."""
    rel = el.get("rel")
    return rel is not None and not _REL_AUTHOR.isdisjoint(rel.lower().split())


_REL_AUTHOR = frozenset({"author", "sioc:has_creator"})


def _is_byline(el: etree._Element) -> bool:
    """Called on ~190 elements around the headline: attributes are read only when present and
    the hints tested with ``in`` (no generator), 0.39 -> 0.30 ms median per page."""
    tag = el.tag
    if tag in _BYLINE_SKIP or not isinstance(tag, str):
        return False
    if _is_rel_author(el):
        return True
    if tag == "a":
        href = el.get("href")
        if href is not None and _AUTHOR_PAGE.search(href):
            return True
    prop = el.get("itemprop")
    if prop is not None and prop.lower() == "author":
        return True
    if tag == "a" and el.get("data-author"):
        return True  # a writer's link keyed by the CMS's author id (247Sports)
    # React sites name their parts for tests, not styles: BBC's <div data-testid="byline">.
    cls, id_, test_id = el.get("class"), el.get("id"), el.get("data-testid")
    if cls is None and id_ is None and test_id is None:
        return False
    hint = f"{cls or ''} {id_ or ''} {test_id or ''}".lower()
    if "btn" in hint or "button" in hint:
        return False  # a control ("followAuthorBtn"): its text is an action, not a name
    return ((("author" in hint or "byline" in hint or "writer" in hint
             or "contributor" in hint) and "authori" not in hint)  # authorization
            or (("aut" in hint or "yazar" in hint or "penulis" in hint)
                and _AUTHOR_CLASS_WORD.search(hint) is not None))


_AUTHOR_CLASS_WORD = re.compile(
    r"(?<![a-z])(?:autor(?:e|es|en|in|a|as)?|auteur|auteurs|yazar|penulis)(?![a-z])")
"""The author in other languages' class names ("autor", "autore", "auteur", Turkish "yazar",
Indonesian "penulis"), as a whole word: "autorefresh" and "autoresize" are not."""


def _bylines_after(el: etree._Element, limit: int) -> Iterator[etree._Element]:
    """The bylines (_is_byline) among the first ``limit`` elements after ``el``, in document
    order. One loop over lxml's element-only iterator, not a generator under islice and filter:
    the window is ~150 elements, each of which paid three Python layers."""
    node: etree._Element | None = el
    while node is not None:
        for sib in node.itersiblings():
            for e in sib.iter(etree.Element):
                if limit <= 0:
                    return
                limit -= 1
                if _is_byline(e):
                    yield e
        node = node.getparent()


def _own_story_first(h1: etree._Element, after: Iterator[etree._Element],
                     before: Iterator[etree._Element]) -> Iterator[etree._Element]:
    """The bylines below the headline, then above it, those inside the headline's own
    ``<article>`` before any other: the byline just below a headline may be the next story's
    (The New Republic's stream of posts, each an ``<article>`` with its byline above its
    headline), while its own sits above it."""
    story = next(h1.iterancestors("article"), None)
    if story is None:
        yield from after
        yield from before
        return
    elsewhere = []
    for el in chain(after, before):
        if story in el.iterancestors():
            yield el
        else:
            elsewhere.append(el)
    yield from elsewhere


def _dom_authors(root: etree._Element, c: _Collected) -> tuple[str, ...]:
    """Names from the byline closest to the headline (microdata authors count as bylines).

    With a headline, only a window of elements around it is looked at, in order of distance
    (below it first: that is where bylines sit); without one, the whole page.
    """
    h1 = _headline(root, c)
    candidates: Iterable[etree._Element]
    if h1 is not None and on("authors.dom.thread_starter") and (
            starter := _thread_starter(c, h1)):
        return decided("authors.dom.thread_starter", starter)
    if h1 is not None:
        if CWALK is not None:  # the few elements whose attributes may make them bylines
            after = filter(_is_byline, CWALK.byline_candidates_after(h1, _BYLINE_AFTER))
            before = filter(_is_byline, CWALK.byline_candidates_before(h1, _BYLINE_BEFORE))
        else:  # lazily: a byline found just below the headline spares the rest of both
            after = _bylines_after(h1, _BYLINE_AFTER)
            before = filter(_is_byline, islice(_iter_elements_before(h1), _BYLINE_BEFORE))
        candidates = chain(_own_story_first(h1, islice(after, 6), islice(before, 3)),
                           c.author_els)
    else:
        candidates = c.author_els + _BYLINE(root)
    outlet: tuple[str, ...] = ()
    for el in islice(candidates, 12):
        if _in_comments(el):
            continue
        for text in _byline_texts(el):
            names = _byline_names(text.split("\n"))
            if names and all(_OUTLET_NAME.search(n) or n.casefold() in AGENCIES for n in names):
                outlet = outlet or names  # a source or agency ("中国新闻网", "AFP"): a writer wins
            elif names and on("authors.dom.byline_element"):
                return decided("authors.dom.byline_element", names)
    if on("authors.dom.text_byline") and (names := _text_byline(root, c, h1)):
        return decided("authors.dom.text_byline", names)
    if outlet and on("authors.dom.outlet_or_agency"):
        return decided("authors.dom.outlet_or_agency", outlet)
    if not on("authors.dom.forum_poster"):
        return ()
    if (h1 is not None and CWALK is not None
            and (hrefs := CWALK.links_after(h1, _POSTER_WINDOW)) is not None
            and not any(_MEMBER_PAGE.search(href) for href in hrefs)):
        return ()  # no member's profile linked in the window: the loop below finds none
    return decided("authors.dom.forum_poster", _forum_poster(
        _elements_after(h1) if h1 is not None else root.iter(etree.Element)))


_MEMBER_PAGE = re.compile(
    r"memberlist\.php\?mode=viewprofile|member\.php\?(?:\d|(?:[^#]*&)?u=\d)|profile\.php\?id=\d"
    r"|[?;&]action=profile;u=\d|/members/[^/?#]+\.\d+/?(?:[?#]|$)", re.I)
"""A link to a forum member's profile: phpBB's ``memberlist.php?mode=viewprofile``,
vBulletin's ``member.php?u=``, FluxBB's ``profile.php?id=``, SMF's ``action=profile;u=``,
XenForo's ``/members/jane.123/``."""
_MEMBER_STAT = re.compile(r"(?i)\s*(?:join(?:ed)?(?:\s+date)?|registered|posts)\s*(?::|$)")
_POSTER_WINDOW = 300
_POSTER_GAP = 12
_STAT_CHARS = 40
"""A statistic is a label and a value ("Join Date: Mar 2016"), not a paragraph."""


def _forum_poster(elements: Iterator[etree._Element]) -> tuple[str, ...]:
    """The first post's writer on a classic forum (phpBB, vBulletin, FluxBB, SMF): a link to a
    member's profile followed, within a few elements, by the member's statistics ("Posts:",
    "Joined:", "Registered:", "Join Date"). Such a link alone is no byline: off forums it is
    an account or sign-up link (measured: +1 forum page, -2 articles)."""
    link, since = None, 0
    for el in islice(elements, _POSTER_WINDOW):
        if el.tag == "a" and _MEMBER_PAGE.search(el.get("href") or ""):
            link, since = el, 0
        elif link is not None:
            since += 1
            if since > _POSTER_GAP:
                link = None
            elif el.text and len(el.text) <= _STAT_CHARS and _MEMBER_STAT.match(el.text):
                return clean_authors([_TEXT_CONTENT(link)])
    return ()


_STARTER_LABEL = re.compile(r"(?i)(?:thread|topic)\s+(?:starter|author)|started\s+by")
_STARTER_BADGE = re.compile(r"(?i)discussion\s+starter")
_STARTER_WORDS = ("thread", "topic", "started", "discussion")
"""A word each of the two patterns above needs, under the same case folding."""

_STARTER_TEXTS = 40
"""How far below a thread's title its starter is looked for (phpBB's author box comes after
the page's pagination): further down, "Started by" heads the similar threads' lines. The texts
are the walk from the headline that bylines and dates share."""


def _names_a_starter(texts: list[str]) -> bool:
    """Whether the texts hold a word of ``_STARTER_WORDS`` as the patterns' ``(?i)`` reads
    them: lower case, and "İ", "ı" and "ſ" as "i", "i" and "s" (the only other characters
    the regex engine takes for these letters, and "İ" the only one ``lower`` lengthens). An
    ``(?i)`` regex over the joined texts cost 0.04 ms a KB, the ``in`` tests 0.002."""
    joined = "\0".join(texts)
    if not joined.isascii():
        joined = joined.replace("\u0130", "i").replace("\u0131", "i").replace("\u017f", "s")
    folded = joined.lower()
    return any(word in folded for word in _STARTER_WORDS)


def _thread_starter(c: _Collected, h1: etree._Element) -> tuple[str, ...]:
    """A forum thread's author, as the engines label the opening post: "Thread starter" before
    the name (XenForo), "Topic author" (phpBB), "Started by" (vBulletin), or a "Discussion
    starter" badge after it. The bylines nearest the title can be replies' (their posts mark
    the writer with microdata or classes the opening post lacks)."""
    after = _after_headline(c, h1, _STARTER_TEXTS)
    if not _names_a_starter(after):
        return ()
    texts = [t.strip() for t in after]
    for i, text in enumerate(texts):
        if m := _STARTER_LABEL.fullmatch(text.rstrip(":： ")):
            name = texts[i + 1] if i + 1 < len(texts) else ""
        elif (m := _STARTER_LABEL.match(text)) and text[m.end():].strip(":： "):
            name = text[m.end():]
        elif _STARTER_BADGE.fullmatch(text) and i:
            name = texts[i - 1]
        else:
            continue
        return clean_authors([name])
    return ()


def _byline_names(lines: list[str]) -> tuple[str, ...]:
    """Names from the lines of a byline box. A line after "By" (or starting with it) names the
    writer; the lines before it are a kicker or a date ("Guide / by / Will Judd", "Post / by /
    galitsyn", "Originally published ... / By / April Fulton"). Without one, the first line
    that holds a name, unless a line of page text comes first ("Coming Soon!" / a product's
    name)."""
    for i, line in enumerate(lines):
        if (BY_ONLY.match(line) or AUTHOR_LABEL.match(line)) and i + 1 < len(lines):
            names = clean_authors([lines[i + 1]])
        elif i and (BY_PREFIX.match(line) or AUTHOR_LABELLED.match(line)):
            names = clean_authors([line])
        else:
            continue
        if names:
            return names
    for line in lines:
        names = clean_authors([line])
        if names:
            return names
        if names_nobody(line):
            return ()
    return ()


def _text_byline(root: etree._Element, c: _Collected,
                 h1: etree._Element | None) -> tuple[str, ...]:
    """A line that starts with "By" ("Von", "Par", "作者：" ...) just below the headline or just
    above it; failing that, a line labelled "Written by", "Author:", "Posted by" ... further down
    the article, where author boxes sit (comments, navigation and the page footer skipped)."""
    # Chinese, Japanese and Korean credit lines are looked for only on a page whose <title> or
    # headline is written in Han, kana or Hangul: scanning every page's texts cost 0.6 ms.
    cjk = bool(CJK_CHAR.search(c.title or "")) or (
        h1 is not None and bool(CJK_CHAR.search(_TEXT_CONTENT(h1))))
    if h1 is None:
        return _cjk_byline(_strings_down(root, c, h1)) if cjk else ()
    return (_labelled_byline(_after_headline(c, h1, _BYLINE_TEXTS), near=True)
            or _labelled_byline(_before_headline(c, h1, _BYLINE_TEXTS_BEFORE)[::-1], near=True)
            or _far_byline(c, h1)
            or (_cjk_byline(_strings_below(c, h1)) if cjk else ()))


def _cjk_byline(strings: list[str]) -> tuple[str, ...]:
    """A Chinese or Japanese credit line ("记者 张三", "（张三 上海报道）", "作者：张三"), under
    the headline or at the article's end, where such pages put it; on old table layouts without
    an <h1>, anywhere from the top. A credit's label may stand alone with the names in the next
    text ("本报记者" / "张三 李四"), so up to four texts are read as one line.

    One scan of the joined texts for credit words finds the few texts worth parsing."""
    joined = "\0".join(strings)
    tries = 0
    for m in _CJK_CREDIT_HINT.finditer(joined):
        i = joined.count("\0", 0, m.start())
        tries += 1
        if tries > _CJK_CREDIT_TRIES:
            break
        text = strings[i]
        # A long text is a credit only in a closing bracket, or as a Korean story's opening
        # dateline: "(서울=연합뉴스) 홍길동 기자 = ...".
        if (len(text) > _MAX_BYLINE_TEXT and not text.rstrip().endswith(("）", ")"))
                and "=" not in text[:_KO_DATELINE]):
            continue
        credit = cjk_credit(text)
        if credit is None and CJK_CREDIT_LEAD.fullmatch(text.strip()):
            for n in (4, 2):
                credit = cjk_credit(" ".join(s.strip() for s in strings[i:i + n]))
                if credit:
                    break
        if credit:
            names = clean_authors([credit])
            if names:
                return names
    return ()


def _far_byline(c: _Collected, h1: etree._Element) -> tuple[str, ...]:
    """A labelled byline ("Written by", "Author:") in the ~400 texts below the headline. They
    are read as plain strings (one XPath call, no element objects); only at a line that starts
    like a label are the next few texts fetched with their elements."""
    strings = _strings_below(c, h1)
    # One search over the texts joined by NUL (no text holds one, and it is neither a space
    # nor a label letter, so a match cannot straddle two texts) instead of a match per text.
    joined = "\0" + "\0".join(strings)
    tries = 0
    for m in _LABEL_STARTS.finditer(joined):
        i = joined.count("\0", 0, m.start())
        if len(strings[i]) <= _MAX_BYLINE_TEXT:
            texts = _following_texts(h1, i + _LABEL_LOOKAHEAD)[i:]
            names = _labelled_byline(texts, near=False)
            tries += 1
            if names or tries >= _LABEL_TRIES:
                return names
    return ()


def _labelled_byline(texts: list, near: bool) -> tuple[str, ...]:  # noqa: C901
    # Neither a label nor the name after it is a <style>'s or a <script>'s text (CSS-in-JS
    # puts <style> in the body, right after an "Authors" heading).
    texts = [t for t in texts if len(t) <= _MAX_BYLINE_TEXT and (
        (holder := t.getparent()) is not None and holder.tag not in _SKIP_TEXT_PARENTS)]
    for i, text in enumerate(texts):
        parent = text.getparent()
        label_only = AUTHOR_LABEL.match(text) or (near and BY_ONLY.match(text))
        if label_only and i + 1 < len(texts):
            line = texts[i + 1]
            # "<a>Jane Doe</a> and <a>John Roe</a>": names joined by a connector line
            j = i + 2
            while j + 1 < len(texts) and texts[j].strip().lower() in _CONNECTORS:
                line += f" {texts[j].strip()} {texts[j + 1]}"
                j += 2
        elif m := AUTHOR_LABELLED.match(text):
            line = text[m.end():]
        elif near and BY_PREFIX.match(text) and not _BY_GERUND.match(text):
            line = text
        else:
            continue
        if _outside_article(parent, bool(label_only), near):
            continue
        names = clean_authors([line])
        if names:
            return names
    return ()


def _twitter_author(c: _Collected) -> list[str]:
    """``twitter:label1 = "Written by"`` with the name in ``twitter:data1`` (Yoast and others)."""
    for i in ("1", "2"):
        label = _first(c.metas, (f"twitter:label{i}",)) or ""
        if BY_PREFIX.match(label) or "author" in label.lower() or "written" in label.lower():
            data = _first(c.metas, (f"twitter:data{i}",))
            return [data] if data else []
    return []


def _names_site(name: str, sites: set[str]) -> bool:
    """The author is the site or its publisher, or a piece of its name ("USA" of "USA TODAY",
    "Clemson" of "Clemson News" once the cleaner has cut the role word)."""
    k = _key(name)
    return bool(k) and any(k == s or (len(k) >= 3 and k in s) for s in sites)


_OUTLET_NAME = re.compile(
    r"(?:网|網|日报|日報|晚报|晚報|时报|時報|新闻|新聞|通讯社|通訊社|新华社|新華社|电视台|電視台"
    r"|电台|電台|杂志|雜誌|일보|신문|뉴스|방송|통신)$|^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}$"
)
"""An outlet's name in an author field, not a person's: Chinese outlets end in 网 (site), 日报
(daily), 新闻 (news), 新华社 …, Korean ones in 일보 (daily), 신문 (newspaper), 뉴스 (news),
방송 (broadcaster), 통신 (agency); or a domain name ("example.com")."""


_SIGNATURE_TAGS = frozenset({"strong", "b"})
_NEWS_TYPES = ARTICLE_TYPES - {"review", "recipe", "howto", "creativework", "techarticle",
                               "apireference", "discussionforumposting", "posting"}
_SIGNATURE_MAX = 80
_SIGNATURE_PROSE = 150
"""Characters of the paragraph beside a signature: the story's own text, not a heading's."""
_SIGNATURE_STORY = 3
"""Paragraphs of prose in the signed block: a story, not a page's section under its heading."""


def _signed_paragraph(root: etree._Element) -> tuple[str, ...]:
    """The writer's name set in bold as a paragraph of its own, first above the story's text
    or last below it (Lesotho Times signs its stories "<p><strong>Mohloai Mpesi</strong></p>"
    above them, VnExpress below): read where the page names only itself or no one. A bold
    subheading looks the same, so the name must be the first or last paragraph of a block of
    prose, beside one of them, and read as no words of the page."""
    words: set[str] | None = None  # the page's words, read once if a name comes up
    for parent in dict.fromkeys(p.getparent() for p in root.iter("p")):
        if parent is None:
            continue
        children = list(parent.iterchildren("p"))
        # the first and last paragraphs with text, each with its neighbour: read from the
        # ends only, since most blocks open and close with plain prose
        ends = [(p, beside) for p, beside in (_first_two(children), _first_two(children[::-1]))
                if beside is not None and _all_bold(p) and len(_text(p)) <= _SIGNATURE_MAX
                and len(_text(beside)) >= _SIGNATURE_PROSE]
        if not ends or sum(len(_text(p)) >= _SIGNATURE_PROSE
                           for p in children) < _SIGNATURE_STORY:
            continue
        for p, _ in ends:
            names = clean_authors([_text(p)])
            if not names or not all(2 <= len(n.split()) <= 4 and not any(
                    ch.isdigit() for ch in n) for n in names):
                continue
            if words is None:
                words = set(" ".join(root.itertext()).split())
            # every word capitalised and one the page never writes in lower case: "Key
            # Takeaways" and "Best Practices" are words of the page, "Mohloai Mpesi" is not
            if all(w[0].isupper() and w.lower() not in words for n in names for w in n.split()):
                return names
    return ()


def _text(p: etree._Element) -> str:
    return " ".join("".join(p.itertext()).split())


def _first_two(paragraphs: list[etree._Element]) -> tuple[etree._Element | None, ...]:
    """The first two of ``paragraphs`` that hold text (None for each missing)."""
    found = list(islice((p for p in paragraphs if _text(p)), 2))
    return (*found, *([None] * (2 - len(found))))


def _all_bold(p: etree._Element) -> bool:
    """Whether every letter of ``p`` is inside a <strong> or <b>."""
    if (p.text or "").strip():
        return False
    children = [child for child in p if isinstance(child.tag, str)]
    return bool(children) and all(
        child.tag in _SIGNATURE_TAGS and not (child.tail or "").strip() for child in children)


def _authors(root: etree._Element, c: _Collected, ld: JsonLd | None,
             site_name: str | None) -> tuple[str, ...]:
    """The first source that names someone; the site's own name, or a news agency's alone,
    is only a last resort, since many sites put it in ``author`` while the byline on the page
    names the writer."""
    sources: list[tuple[str, list[str]]] = []
    if ld:
        sources.append(("jsonld", ld.authors))
    for key in _AUTHOR_KEYS:
        values = [v for v in c.metas.get(key, ()) if "://" not in v]
        if key == "dc.creator":
            values = [invert_name(v) for v in values]
        if values:
            sources.append((f"meta:{key}", values))
    sources.append(("twitter_label", _twitter_author(c)))
    sites = {_key(n) for n in (site_name, ld.publisher if ld else None) if n}
    fallback: tuple[str, ...] = ()
    for source, values in sources:
        if not on(f"authors.{source}"):
            continue
        names = clean_authors(values)
        writers = tuple(n for n in names if not (_names_site(n, sites) or _OUTLET_NAME.search(n)))
        if names and all(n.casefold() in AGENCIES for n in writers):
            fallback = fallback or names
        elif writers:
            # the outlet listed beside its writers ("한국일보", "신현주 기자") is not one of them
            return decided(f"authors.{source}", writers)
    names = _dom_authors(root, c)
    if names and not all(_names_site(n, sites) for n in names):
        return names
    declared = {_page_type(c, ld), (_first(c.metas, ("og:type",)) or "").strip().lower()}
    if (on("authors.signed_paragraph") and _NEWS_TYPES & declared
            and (signed := _signed_paragraph(root))):
        return decided("authors.signed_paragraph", signed)
    if names:
        return names
    if fallback and on("authors.site_or_agency"):
        return decided("authors.site_or_agency", fallback)
    # An organisation credited as the author (a company blog) is still the page's author.
    if ld and ld.author_orgs and on("authors.jsonld_organisation"):
        return decided("authors.jsonld_organisation", clean_authors(ld.author_orgs))
    return ()

"""The texts and elements around the headline, where bylines and dates sit.

XPath's following::/preceding:: axes read the whole rest of the document even when only the
first few nodes are wanted; these walks stop early, and each is read once per page and kept on
the ``_Collected`` for the byline and the date readers that share it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from lxml import etree

from newscrawl.extraction.compiled import CWALK
from newscrawl.extraction.metadata.collect import _TITLE_KEYS, _Collected, _first, _words
from newscrawl.extraction.metadata.headings import _inline_text
from newscrawl.extraction.text import HIDING_CLASSES, hides, screen_reader_only

_BYLINE_TEXTS_BEFORE = 4
_FAR_TEXTS = 400
_FOLLOWING_TEXTS = etree.XPath("following::text()[normalize-space()][position() <= $n]")
_FOLLOWING_ALL = etree.XPath("following::text()", smart_strings=False)
_XPATH_SPACE = " \t\r\n"
# Parenthesised, so the position counts over the whole body: "//body//text()[...][position()
# <= $n]" counts per parent element, which let every text of a long page through.
_BODY_STRINGS = etree.XPath("(//body//text()[normalize-space()])[position() <= $n]",
                            smart_strings=False)
_BODY_TEXTS = etree.XPath("(//body//text()[normalize-space()])[position() <= $n]")
_OPAQUE = frozenset({"svg", "script", "style", "noscript", "template", "math", "select"})
_SKIP_TEXT_PARENTS = frozenset({"script", "style", "noscript", "template", "option", "textarea"})
_H2_SCAN = 10
_H2_AGREEMENT = 0.6
_H2_MIN_CHARS = 8
"""Characters from which a heading that a declared title holds whole is taken for the headline."""


# Walks from the headline, nearest first. XPath's following::/preceding:: axes read the whole
# rest of the document even when only the first few nodes are wanted; these stop early.

class _Text(str):
    """A text node's string, with the element that holds it (``getparent`` as in lxml)."""

    holder: etree._Element | None = None

    def getparent(self) -> etree._Element | None:
        return self.holder


def _text(text: str, holder: etree._Element | None) -> _Text:
    t = _Text(text)
    t.holder = holder
    return t


def _iter_after(el: etree._Element) -> Iterator[tuple[str, etree._Element | None]]:
    """Non-blank texts after ``el`` (not inside it) in document order, with their holders."""
    node: etree._Element | None = el
    while node is not None:
        parent = node.getparent()
        if node.tail and not node.tail.isspace():
            yield node.tail, parent
        for sib in node.itersiblings():
            yield from _iter_subtree(sib)
            if sib.tail and not sib.tail.isspace():
                yield sib.tail, parent
        node = parent


def _iter_subtree(el: etree._Element) -> Iterator[tuple[str, etree._Element | None]]:
    """Non-blank texts inside ``el`` (its own tail excluded), document order, with holders.
    Scripts, styles and SVG drawings are skipped whole: their text is never a byline."""
    stack: list[etree._Element] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, e in walker:
        if event == "start":
            tag = e.tag
            if not isinstance(tag, str) or tag in _OPAQUE:
                walker.skip_subtree()
                stack.append(e)  # its "end" still comes
                continue
            stack.append(e)
            text = e.text
            if text and not text.isspace():
                yield text, e
        else:
            stack.pop()
            tail = e.tail
            if stack and tail and not tail.isspace():
                yield tail, stack[-1]


class _Walk:
    """A walk away from the headline, read only as far as asked: the byline wants 25 texts,
    the date 60, and the second request continues where the first stopped."""

    __slots__ = ("rest", "texts")

    def __init__(self, walk: Iterator[tuple[str, etree._Element | None]]) -> None:
        self.texts: list[_Text] = []
        self.rest: Iterator[tuple[str, etree._Element | None]] | None = walk

    def first(self, n: int) -> list[_Text]:
        wanted = n - len(self.texts)
        if wanted > 0 and self.rest is not None:
            more = [_text(t, h) for t, h in islice(self.rest, wanted)]
            self.texts += more
            if len(more) < wanted:
                self.rest = None
        return self.texts[:n]


class _CompiledWalk(_Walk):
    """``_Walk(_iter_after(el))`` read by ``_cwalk.texts_after``: the texts up to the most
    asked for yet (at least ``_AFTER_BATCH``), walked again in C if a caller wants more."""

    __slots__ = ("el", "fetched")

    def __init__(self, el: etree._Element) -> None:
        super().__init__(iter(()))
        self.el, self.fetched = el, 0

    def first(self, n: int) -> list[_Text]:
        if n > self.fetched and len(self.texts) == self.fetched:  # else the walk ran out
            self.fetched = max(n, _AFTER_BATCH)
            self.texts = [_text(t, h) for t, h in
                          CWALK.texts_after(self.el, _OPAQUE_NAMES, self.fetched)]
        return self.texts[:n]


_AFTER_BATCH = 60
"""Texts after the headline a first request fetches: the most any reader asks for (the
printed date's window, ``published._TEXT_WINDOW_AFTER``)."""
_OPAQUE_NAMES = frozenset(name.encode() for name in _OPAQUE)


def _after_headline(c: _Collected, h1: etree._Element, n: int) -> list[_Text]:
    """The first ``n`` texts after the headline, walked once per page for byline and date."""
    if c.after is None:
        c.after = _Walk(_iter_after(h1)) if CWALK is None else _CompiledWalk(h1)
    return c.after.first(n)


def _before_headline(c: _Collected, h1: etree._Element, n: int) -> list[_Text]:
    """The last ``n`` texts before the headline, nearest first, walked once per page."""
    if c.before is None:
        c.before = _Walk(_iter_before(h1))
    return c.before.first(n)


def _reversed_iter(el: etree._Element) -> Iterator[etree._Element]:
    """``reversed(list(el.iter()))`` without listing the whole subtree first: a walk back from
    the headline that wants a few texts must not read every link of a mega-menu above it."""
    stack = [(el, reversed(el))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            yield node
        else:
            stack.append((child, reversed(child)))


def _iter_before(el: etree._Element) -> Iterator[tuple[str, etree._Element | None]]:
    """Non-blank texts before ``el`` (not inside it), nearest first, with their holders."""
    node: etree._Element | None = el
    while node is not None:
        parent = node.getparent()
        for sib in node.itersiblings(preceding=True):
            if sib.tail and not sib.tail.isspace():
                yield sib.tail, parent
            yield from _texts_back(sib)
        if parent is not None and parent.text and not parent.text.isspace():
            yield parent.text, parent
        node = parent


def _texts_back(el: etree._Element) -> Iterator[tuple[str, etree._Element]]:
    """The non-blank texts inside ``el`` (its tail aside) from the last back to its own
    text, with their holders: a child's tail comes before the child's own texts, as it
    follows them on the page ("<span><b>By</b></span> Jane Doe" gives " Jane Doe", "By")."""
    stack = [(el, reversed(el))]
    while stack:
        holder, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if holder.text and isinstance(holder.tag, str) and not holder.text.isspace():
                yield holder.text, holder
        else:
            if child.tail and not child.tail.isspace():
                yield child.tail, holder
            stack.append((child, reversed(child)))


def _iter_elements_before(el: etree._Element) -> Iterator[etree._Element]:
    """Elements before ``el``, nearest first (XPath's ``preceding::*``, which reads the whole
    start of the document for its first 40: 0.14 -> 0.08 ms median)."""
    node: etree._Element | None = el
    while node is not None:
        for sib in node.itersiblings(preceding=True):
            for e in _reversed_iter(sib):
                if isinstance(e.tag, str):
                    yield e
        node = node.getparent()


def _headline(root: etree._Element, c: _Collected) -> etree._Element | None:
    """The element bylines and dates are looked for around: the first <h1> with text, else
    (forum threads, some blogs, broadcasters' pages) the first <h2> or <h3> whose words are
    mostly in the declared title, else an empty <h1>. Found once per page and kept on ``c``."""
    if c.anchor is not False:
        return c.anchor  # type: ignore[return-value]
    found = next((h for h in c.h1s if len(_inline_text(h)) >= 3 and not _banner(h)), None)
    if found is None:
        titles = " ".join(t for t in (c.title, _first(c.metas, _TITLE_KEYS)) if t)
        title_words = _words(titles)
        for h2 in islice(root.iter("h2", "h3"), _H2_SCAN):
            text = _inline_text(h2)
            words = _words(text)
            # a headline without spaces (Chinese) is one "word" unless the title holds it whole
            if words and (len(words & title_words) >= _H2_AGREEMENT * len(words)
                          or len(text) >= _H2_MIN_CHARS and text in titles):
                found = h2
                break
    if found is None and c.h1s:
        found = c.h1s[0]  # an empty <h1> (filled in by script) still marks the headline's place
    c.anchor = found
    return found


def _banner(h1: etree._Element) -> bool:
    """An <h1> out of sight (the site's name kept for search engines) or inside a link (a
    logo's or a blog's banner linking its front page): the headline is elsewhere."""
    classes = (h1.get("class") or "").lower().split()
    return (hides(h1) or not HIDING_CLASSES.isdisjoint(classes) or screen_reader_only(classes)
            or next(h1.iterancestors("a"), None) is not None)


def _elements_after(el: etree._Element) -> Iterator[etree._Element]:
    """Elements after ``el`` in document order (not its descendants)."""
    node: etree._Element | None = el
    while node is not None:
        for sib in node.itersiblings():
            yield from sib.iter(etree.Element)
        node = node.getparent()


def _strings_down(root: etree._Element, c: _Collected, h1: etree._Element | None) -> list[str]:
    """The ~400 texts below the headline, or from the top of the body on a page without one."""
    if h1 is not None:
        return _strings_below(c, h1)
    if c.below is None:
        c.below = _BODY_STRINGS(root, n=_FAR_TEXTS)
    return c.below


def _strings_below(c: _Collected, h1: etree._Element) -> list[str]:
    """The ~400 texts below the headline as plain strings, read once for byline and date."""
    if c.below is None:
        c.below = _following_strings(h1, _FAR_TEXTS)
    return c.below


def _following_strings(el: etree._Element, n: int) -> list[str]:
    """The first ``n`` non-blank texts after ``el`` as plain strings: ``_FOLLOWING_TEXTS``
    without the element objects, so an index into one is an index into the other.

    All the texts to the end of the document are fetched without a predicate and the first
    ``n`` non-blank ones picked here: libxml2 cannot stop an axis early at ``position() <= n``
    (only at a literal ``[n]``), so any predicate is evaluated on every text to the end, and
    that costs more than turning them all into strings (0.13 -> 0.06 ms median on WCXB pages).
    """
    if CWALK is not None and (texts := CWALK.following_texts(el, n)) is not None:
        return texts
    return list(islice((t for t in _FOLLOWING_ALL(el) if t.strip(_XPATH_SPACE)), n))


def _following_texts(el: etree._Element, n: int) -> list:
    """``_FOLLOWING_TEXTS(el, n=n)``: the first ``n`` non-blank texts after ``el``, each a str
    whose ``getparent()`` is the element lxml's smart string names (for a tail, the element it
    follows); in C when the package was built with its compiled walks."""
    if CWALK is not None and (pairs := CWALK.following_texts(el, n, True)) is not None:
        return [_text(t, h) for t, h in pairs]
    return _FOLLOWING_TEXTS(el, n=n)


def _outside_article(el: etree._Element, cell: bool, near: bool) -> bool:
    """In a form ("By submitting ...", a review form's "Author" field); unless ``near`` the
    headline, also in comments, navigation or the page's own footer (a footer inside an article
    is the article's, and often holds its author box), and with ``cell`` in a table or
    definition list: an "Author" cell there (an infobox, a book's details) is about the subject.
    """
    for a in el.iterancestors():
        if a.tag in ("form", "fieldset", "button", "label"):
            return True
        if near:
            continue
        if cell and a.tag in ("table", "dl"):
            return True
        cls = (a.get("class") or "") + " " + (a.get("id") or "")
        if "comment" in cls.lower() or a.tag in ("nav", "head") or (
                a.tag == "footer" and not in_story(a)):
            return True
    return False


def in_story(el: etree._Element) -> bool:
    """Whether an ``<article>`` or ``<main>`` holds ``el``: a ``<footer>`` there closes the
    story (its byline, its date), where one outside them closes the page."""
    return next(el.iterancestors("article", "main"), None) is not None

"""Drop what is never content and unwrap inline markup, so a paragraph is one text node.

Link text is counted before the ``<a>`` tags are unwrapped: after unwrapping it is no longer
visible, and link density is one of the strongest boilerplate signals.
"""

from __future__ import annotations

import re

from lxml import etree

from .compiled import CWALK
from .text import HIDDEN_STYLE, SCREEN_READER_CLASSES, hides, screen_reader_only

__all__ = ["HIDDEN_STYLE", "SCREEN_READER_CLASSES", "clean", "hides"]

DROP = (
    "head", "script", "style", "noscript", "template", "iframe", "frame", "frameset", "svg",
    "math", "img", "picture", "video", "audio", "canvas", "object", "embed", "source", "track",
    "map", "link", "meta", "button", "input", "select", "textarea", "option", "dialog",
)
INLINE = (
    "a", "abbr", "acronym", "b", "bdi", "bdo", "big", "blink", "cite", "code", "data", "del",
    "dfn", "em", "font", "i", "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp", "small",
    "span", "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr", "center",
    "o:p", "fb:like",
)
_INLINE = frozenset(INLINE)
_LINK_INLINE = _INLINE | {"br"}
KEEP_IF_BLOCKS = ("button", "noscript")
"""Dropped when small, kept as a ``div`` when they hold blocks of text: libxml2 lets an
unclosed ``<button>`` in a page header swallow the whole page, and forum software (Discourse,
Flarum) serves its posts inside ``<noscript>`` to clients without JavaScript."""
CONTROLS = ("button", "input", "select", "textarea")
CONTROL_MARK = "data-newscrawl-control"
"""Set on the block that held a form control before cleaning dropped it: a sign-up box, a
paywall, a comment form or a search field sits beside one, an article's paragraphs far from
any (``features``' ``anc_control``)."""
LINKED_MARK = "data-newscrawl-linked"
"""Set on each outermost block inside an ``<a>`` before the ``<a>`` is unwrapped: a teaser
card is often one link around a heading and a summary, whose text the link counts (keyed by
the ``<a>``'s own block) cannot show (``NodeTable.linked``, the story stage's ``anc_linked``)."""
_BLOCKS = frozenset({"p", "div", "article", "section", "main", "li", "table", "h1", "h2", "h3",
                     "h4", "blockquote", "pre"})
_BLOCK_TEXT_CHARS = 200
_OFTEN_HIDDEN_INLINE = ("span", "a", "label", "cite", "code", "small", "em", "strong", "b", "i")
"""The inline tags that carry hidden text on WCXB's pages (span 68 %, a 14 %, label 12 %,
code 6 %); walking every inline tag would cost twice as much."""
_SEGMENTS = etree.XPath("//div[@hidden][starts-with(@id, 'S:')]")
_SWAP_SCRIPTS = etree.XPath("//script[contains(., '$RC(') or contains(., '$RS(')]/text()")
_SEGMENT_MARK = re.compile(r"""hidden id=["']?S:""")
_SEGMENT_MARK_BYTES = re.compile(_SEGMENT_MARK.pattern.encode())
_SWAP_CALL = re.compile(r"""\$R([CS])\(\s*["']([^"']{1,40})["']\s*,\s*["']([^"']{1,40})["']""")


def _place_streamed_segments(root: etree._Element) -> None:
    """Put React's streamed segments where the page's scripts would.

    React 18 streaming SSR sends finished content late in the body as ``<div hidden
    id="S:n">`` and a script call that moves it into place: ``$RC("B:0","S:0")`` fills a
    Suspense boundary, ``$RS("S:1","P:1")`` a placeholder. Without JavaScript the text would
    sit at the end of the page, marked hidden and out of reading order.
    """
    segments = {el.get("id"): el for el in _SEGMENTS(root)}
    if not segments:
        return
    targets: dict[str, str] = {}
    for script in _SWAP_SCRIPTS(root):
        for kind, a, b in _SWAP_CALL.findall(script):
            segment, target = (b, a) if kind == "C" else (a, b)
            targets.setdefault(segment, target)
    # Where no call names a segment (minified away), S:n pairs with the boundary B:n or
    # the slot P:n, as React numbers them.
    wanted = set(targets.values()) | {p + s[2:] for s in segments for p in ("B:", "P:")}
    by_id = {el.get("id"): el for el in root.iter("template", "span", "div")
             if el.get("id") in wanted}
    for seg_id, segment in segments.items():
        del segment.attrib["hidden"]
        target = by_id.get(targets.get(seg_id, ""))
        if target is None:
            target = by_id.get("B:" + seg_id[2:], by_id.get("P:" + seg_id[2:]))
        parent = target.getparent() if target is not None else None
        if parent is None or target is segment or segment in target.iterancestors():
            continue
        _leave_tail(segment)
        segment.tail = target.tail
        parent.replace(target, segment)


def _leave_tail(el: etree._Element) -> None:
    """Leave the text after ``el`` where it is when ``el`` is moved: on an empty ``<span>`` put
    in its place, which ``strip_tags`` unwraps. (Appending it to the text before ``el`` copies
    that text, quadratic in a run of moved elements: the hostile script's ``react_segments``.)"""
    if el.tail and el.getparent() is not None:
        keeper = etree.Element("span")
        keeper.tail, el.tail = el.tail, None
        el.addnext(keeper)


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
LINE_BREAK = "\u2028"
"""What a ``<br>`` becomes: Unicode's line separator, whitespace to every feature like the
newlines of the source, but told apart from them when the text is assembled."""


def hidden_input(el: etree._Element) -> bool:
    """An ``<input type=hidden>``: form state, no control a reader sees."""
    return el.tag == "input" and (el.get("type") or "").lower() == "hidden"


def _block_of(el: etree._Element) -> etree._Element | None:
    parent = el.getparent()
    while parent is not None and parent.tag in _INLINE:
        parent = parent.getparent()
    return parent


def _mark_linked_blocks(a: etree._Element) -> None:
    """Mark the outermost blocks inside ``a``. A nested ``<a>`` is left to its own call, so
    each element is walked once: through links nested in inline tags (``<a><b><a><b>…``,
    the hostile script's ``nested_links``) the walk was quadratic in their depth."""
    stack = list(a)
    while stack:
        el = stack.pop()
        if el.tag == "a":
            continue
        if el.tag in _LINK_INLINE:
            stack.extend(el)
        else:
            el.set(LINKED_MARK, "")


def _set(el: etree._Element, attr: str, value: str) -> None:
    """Set text or tail. libxml2 hands out control characters (form feeds ...) that lxml then
    refuses to store; by the time it raises it has dropped the old text, so the value goes
    in again without the characters it objects to. (Scanning every page for them first
    would cost ~0.7 ms; they are rare.)"""
    try:
        setattr(el, attr, value)
    except ValueError:
        setattr(el, attr, _NOT_XML.sub("", value))


# Reached from their 257th text node: "//*[text()[257]]" builds every element's list of text
# nodes, 0.080 ms of a median cleaned page a call against 0.032 (WCXB dev, the same elements).
_CROWDED = etree.XPath("//text()[257]/..")
_CROWDED_LINKS = etree.XPath("//a/text()[257]/..")


def _join_text_runs(root: etree._Element, crowded: etree.XPath) -> None:
    """Store each run of side-by-side text nodes as one node, where an element has many.

    Dropping or unwrapping an element leaves the text before and after it as two adjacent
    nodes, which libxml2 does not merge, and lxml reads ``.text`` of k such nodes by k
    concatenations: a 10 MB page of ``<br>``-separated lines took 93 s (the hostile script's
    ``br_in_block``), in the crawl's reactor thread. Below 257 nodes the reads stay cheap, and
    elements with more are rare, so the search for them is all most pages pay.

    The runs are read through the text serialiser, which is linear: reading them one by one
    through XPath is quadratic too (each text node it returns is located by walking back over
    the nodes before it).
    """
    for el in crowded(root):
        runs = []
        outside = 0  # characters of the children's text and tails
        for child in el:
            inner = len(etree.tostring(child, method="text", encoding=str, with_tail=False))
            with_tail = etree.tostring(child, method="text", encoding=str, with_tail=True)
            runs.append((child, with_tail[inner:]))
            outside += len(with_tail)
        whole = etree.tostring(el, method="text", encoding=str, with_tail=False)
        _set(el, "text", whole[: len(whole) - outside] or None)
        for child, tail in runs:
            _set(child, "tail", tail or None)


def _drop_hidden_inline(root: etree._Element) -> None:
    """Drop inline elements no reader sees: unwrapping would glue their text into the visible
    text around them ("Share", "javascript:void(0)", the other slides' captions) and lose the
    mark the model gets for hidden blocks. Hidden *blocks* stay: tabs and accordions hold
    content, and the feature walk marks them."""
    hidden = []
    for el in root.iter(*_OFTEN_HIDDEN_INLINE):
        attrib = el.attrib
        if not attrib:
            continue
        # hides(el), read from the one attribute proxy: this runs on every span and link,
        # and the two lookups through the element cost 15 % more.
        style = attrib.get("style")
        if "hidden" in attrib or (style and HIDDEN_STYLE.search(style)):
            hidden.append(el)
            continue
        names = attrib.get("class")
        if (names and ("sr" in names or "SR" in names or "Sr" in names or "creen" in names
                       or "isually" in names or "nvisible" in names)  # spares the split
                and screen_reader_only(names.lower().split())):
            hidden.append(el)
    for el in hidden:
        if el.getparent() is None:  # inside an element already emptied
            continue
        # Emptied, not removed: handing each tail to what precedes it copies the text
        # gathered so far, quadratic in a run of hidden spans. ``strip_tags`` unwraps the
        # empty span later, and its tail stays where it was. As a span it is not counted as
        # a link, as a removed one was not.
        el.clear(keep_tail=True)
        el.tag = "span"


_READABLE_TEXTS = etree.XPath(".//text()[not(parent::script or parent::style)]",
                             smart_strings=False)


def _has_text(el: etree._Element, chars: int) -> bool:
    """Whether ``el`` holds at least ``chars`` characters a reader sees: not whitespace (a
    pretty-printed menu button is tabs and newlines), not a script's or a style sheet's."""
    for text in _READABLE_TEXTS(el):
        chars -= len(text) - sum(map(text.count, _WHITESPACE))
        if chars <= 0:
            return True
    return False


_WHITESPACE = (" ", "\n", "\t", "\r", "\xa0")


def streams_segments(page: str | bytes) -> bool:
    """Whether the page's text, or its UTF-8 bytes, carry React streaming segments: a
    substring test (~0.18 ms on a median page's bytes, ~0.33 on its str) spares the other
    98 % of pages the tree-wide XPath."""
    if isinstance(page, bytes):
        return b"hidden id=" in page and _SEGMENT_MARK_BYTES.search(page) is not None
    return "hidden id=" in page and _SEGMENT_MARK.search(page) is not None


def _link_counts(root: etree._Element) -> dict[etree._Element, tuple[int, int]]:
    """Link characters and links by block (``_cwalk.link_counts`` counts the same in C),
    marking the blocks inside links on the way."""
    links: dict[etree._Element, tuple[int, int]] = {}
    for a in root.iter("a"):
        block = _block_of(a)
        if block is None:
            continue
        # Most links hold only text: serialising one costs five times reading its text.
        if len(a):
            text = etree.tostring(a, method="text", encoding=str, with_tail=False)
            _mark_linked_blocks(a)
        else:
            text = a.text or ""
        n = len(text) - text.count(" ") - text.count("\n")
        chars, count = links.get(block, (0, 0))
        links[block] = (chars + n, count + 1)
    return links


def clean(root: etree._Element, streamed: bool = True
          ) -> dict[etree._Element, tuple[int, int]]:
    """Clean ``root`` in place; return ``{block: (link characters, links)}``.

    The counts are keyed by the nearest non-inline ancestor of each link, which survives the
    unwrapping; holding the elements as keys keeps their lxml proxies (and so their identity)
    alive for the feature pass. Hidden elements stay in the tree; the feature walk marks them
    for the model. ``streamed=False`` (from :func:`streams_segments` on the page text) skips
    the search for React segments.
    """
    if streamed:
        _place_streamed_segments(root)
    for el in root.iter(*KEEP_IF_BLOCKS):
        # Descendants tested in Python: a multi-tag el.iter(...) costs ~1 ms of set-up per page.
        if (any(d.tag in _BLOCKS for d in el.iterdescendants())
                and _has_text(el, _BLOCK_TEXT_CHARS)):
            el.tag = "div"
    for control in root.iter(*CONTROLS):
        if hidden_input(control):
            continue
        block = _block_of(control)
        if block is not None:
            block.set(CONTROL_MARK, "")
    etree.strip_elements(root, *DROP, etree.Comment, etree.ProcessingInstruction, with_tail=False)
    _join_text_runs(root, _CROWDED_LINKS)  # the link count below reads their text
    _drop_hidden_inline(root)
    counted = CWALK.link_counts(root, _INLINE) if CWALK is not None else None
    if counted is not None:
        links, holding = counted
        for a in holding:
            _mark_linked_blocks(a)
    else:
        links = _link_counts(root)
    for br in root.iter("br"):
        br.text = LINE_BREAK  # unwrapped, it lands before the tail (the tail is not read)
    etree.strip_tags(root, "br", *INLINE)
    _join_text_runs(root, _CROWDED)
    for pre in root.iter("pre"):  # preformatted text keeps its lines
        for el in pre.iter():
            if el.text:
                _set(el, "text", el.text.replace("\n", LINE_BREAK))
            if el is not pre and el.tail:
                _set(el, "tail", el.tail.replace("\n", LINE_BREAK))
    return links

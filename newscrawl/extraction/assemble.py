"""Kept text nodes back into an article: paragraphs in document order."""

from __future__ import annotations

import re

import numpy as np

from .clean import LINE_BREAK
from .decode import MOJIBAKE, unmangled
from .features import FEATURE_NAMES, NO_ANCESTOR, TAGS, NodeTable, subtree_sums
from .text import HIDING_CLASSES, collapse_spaces


def smooth(table: NodeTable, proba: np.ndarray) -> np.ndarray:
    """Blend each node's probability with its container's, char-weighted.

    The cheap alternative to the context stage, kept so ``evaluate`` can show what each adds.
    A container (the nearest div/section/list around a node) is mostly all content or all
    boilerplate; a lone short node that disagrees with the rest of its container is more often
    a classifier slip than a real exception.
    """
    if len(proba) == 0:
        return proba
    weight = table.weights
    _, inv = np.unique(table.container, return_inverse=True)
    cont_mean = np.bincount(inv, weights=proba * weight) / np.bincount(inv, weights=weight)
    return 0.5 * proba + 0.5 * cont_mean[inv]


KEEP_FLOOR = 0.3
"""No node the model gives less than this is kept, however uncertain the page."""
PRECISION_LEAN = 1.5
"""Probabilities are raised to this power before the expected-F1 cut, which moves the cut
toward precision. Chosen in grouped cross-validation on WCXB (1, 1.5 and 2 tried: page F1
0.8763, 0.8762, 0.8719, articles 0.951, 0.955, 0.955); on pages it never saw (Readability's,
the Chinese set) 1.5 beat both 1 and the fixed 0.5 threshold. 1.25, over ten training seeds
of the model of 2026-11-23, gains 0.0004 on WCXB and loses on all three unseen sets
(docs/tried.md)."""


STORY_LEAN = 2.0
"""The lean on a page that declares itself a story (an article type in its JSON-LD or
``og:type``: ``page_is_article``). Such a page holds one text, and what the model half
believes beside it is mostly the site's other stories: "more news" teasers, a headline
list, a subscription box. On news of publishers it never saw, newscrawl kept 0.99 of the
articles at precision 0.90-0.91, against trafilatura's 0.91-0.93. Out of fold at seed 0
(stage-2 sure-core features of feature version 9), 2.0 against 1.5: fundus-dev precision
0.961 against 0.951, page F1 0.9666 against 0.9641; WCXB's articles 0.9587 either way and
all WCXB pages 0.8785 against 0.8794, the pages that declare an article but hold a thread or
a product. 2.5 gained fundus-dev 0.0008 more for 0.0015 of WCXB's articles. Re-checked with
the story stage's ``anc_linked`` (feature version 11, seed pairs 0+1 / 2+3 / 4+5), fundus-dev:
1.5 0.9666 / 0.9711 / 0.9667, 1.75 0.9687 / 0.9714 / 0.9688, 2.0 0.9714 / 0.9718 / 0.9716,
2.25 0.9718 / 0.9709 / 0.9709; WCXB 0.8819 / 0.8776 / 0.8789 at 1.5, 0.8804 / 0.8766 /
0.8774 at 2.0."""
_PAGE_IS_ARTICLE = FEATURE_NAMES.index("page_is_article")


def declares_story(table: NodeTable) -> bool:
    """Whether the page declares an article type (``page_is_article``): it gets the story
    lean here and the story stage 2 in ``NodeModel``."""
    return len(table) > 0 and bool(table.X[0, _PAGE_IS_ARTICLE] > 0)


def keep_nodes(table: NodeTable, proba: np.ndarray) -> np.ndarray:
    """The page's article: ``choose_nodes`` with the lean its declared type calls for, less
    the stories a story page appends below its own (``appended_stories``), the page's own
    address or its image's printed as text (``NodeTable.spells_address``), hidden copies
    of the kept text (``hidden_copies``) and, on a story page, the short lines its script
    shows on demand (``toggled_lines``)."""
    story = declares_story(table)
    keep = (choose_nodes(proba, table.weights, STORY_LEAN if story else PRECISION_LEAN)
            & ~table.spells_address)
    keep &= ~hidden_copies(table, keep)
    if not story:
        return keep
    return keep & ~appended_stories(table, keep) & ~toggled_lines(table, keep)


TOGGLED_MAX_CHARS = 150
"""A kept line under a hiding class goes on a story page when shorter than this; out of fold
on WCXB dev and fundus-dev, 100, 150, 200, 300 and any length gave fundus-dev 0.9739, 0.9746,
0.9751, 0.9752, 0.9752 (0.9724 without) and WCXB 0.8781 up to 200, then 0.8780: FAQ answers
toggled the same way are longer."""

TOGGLED_MAX_SHARE = 0.5
"""A hiding element holding this share of the kept text or more is the page's own text under
a stray class (Mental Floss opens ``<div class="hidden">`` and never closes it, so the
parser puts the story inside), not a block the script toggles. Below it, 0.2 to 1.0 decide
the same pages of WCXB dev and fundus-dev but one (0.2 spares a Postmedia wall)."""


def toggled_lines(table: NodeTable, keep: np.ndarray) -> np.ndarray:
    """Kept lines under an element whose class hides it (``HIDING_CLASSES``: Bootstrap's and
    Tailwind's ``hidden``, ``d-none``) that are shorter than ``TOGGLED_MAX_CHARS``.

    A story page's script shows such blocks on demand: Postmedia's sign-in wall ("Create an
    account or sign in to continue with your reading experience", a list of perks) inside
    the story's own block, Kleine Zeitung's summary of the story, a registration prompt.
    They sit among the paragraphs, so the model keeps them (The Province: page F1 0.82). The
    markup does not hide them (the stylesheet does), and hidden text is not boilerplate by
    itself: an accordion's or a tab's is content, so the rule takes short lines only, and on
    story pages, where a page's content is one text that shows whole.
    """
    elements = [e for e, key in zip(table.keyed.tolist(), table.keys, strict=True)
                if _HIDING_MARK.search(key) and not HIDING_CLASSES.isdisjoint(key.lower().split())]
    dropped = np.zeros(len(keep), dtype=bool)
    if not elements:
        return dropped
    starts = np.asarray(elements)
    kept_chars = np.bincount(table.owner, table.weights * keep, minlength=len(table.parent))
    under_each = subtree_sums(kept_chars, table.end)
    share = under_each[starts] / max(float(under_each[0]), 1.0)  # element 0: the whole page
    small = starts[share < TOGGLED_MAX_SHARE]
    # +1 where a small hiding element's subtree starts, -1 past its end: a node's element
    # lies under one when the running sum at its pre-order index is positive
    depth = np.zeros(len(table.parent) + 1, dtype=np.int64)
    np.add.at(depth, small, 1)
    np.add.at(depth, table.end[small], -1)
    under = keep & (np.cumsum(depth)[table.owner] > 0)
    texts = table.texts
    for i in np.flatnonzero(under).tolist():
        dropped[i] = len(texts[i].strip()) < TOGGLED_MAX_CHARS
    return dropped


_HIDING_MARK = re.compile("|".join(map(re.escape, sorted(HIDING_CLASSES))))
"""A cheap first test of an element's "class id" string for ``HIDING_CLASSES``."""


_HIDDEN = FEATURE_NAMES.index("anc_hidden")
COPY_MIN_CHARS = 200
"""A hidden kept node shorter than this is left to the model (and to ``assemble``'s repeats)."""
COPY_SHARE = 0.8
"""Share of a hidden node's character runs (``_COPY_RUN``) the visible kept text must hold."""
_COPY_RUN = 16
COPY_MAX_CHARS = 300_000
"""Past this much kept text (visible and hidden together) the copies are left: each character
starts a run, and the runs' hashes of a 20 MB page would take a gigabyte. A story and its
copy are tens of thousands of characters."""


def hidden_copies(table: NodeTable, keep: np.ndarray) -> np.ndarray:
    """Kept nodes the page hides itself (``display:none``, ``hidden`` on their own element)
    whose text the visible kept text already holds.

    Paywalled sites ship the story twice: the paragraphs a reader sees and, in a hidden
    ``<div class="o-paywall">``, the rest of the story as one run of text for the script
    that unlocks it (Der Freitag: 15,000 characters, the article's text twice, page F1 0.67).
    The copy is long prose, so the model keeps it; it is not an equal paragraph, so
    ``assemble``'s repeats miss it. Hidden text alone says nothing (a tab's or an
    accordion's text is content on WCXB's pages), so a node goes only when it is hidden on
    its own element and at least ``COPY_SHARE`` of its runs of ``_COPY_RUN`` letters and
    digits (no word breaks needed: Chinese has none) stand in the visible kept text. Out of
    fold on WCXB dev and fundus-dev it changes two pages, both for the better.
    """
    dropped = np.zeros(len(keep), dtype=bool)
    hidden = keep & (table.X[:, _HIDDEN] == 0)
    if not hidden.any():
        return dropped
    texts = table.texts
    candidates = [i for i in np.flatnonzero(hidden).tolist()
                  if len(texts[i]) >= COPY_MIN_CHARS]
    if not candidates:
        return dropped
    visible_text = "".join(texts[i] for i in np.flatnonzero(keep & ~hidden).tolist())
    if len(visible_text) + sum(len(texts[i]) for i in candidates) > COPY_MAX_CHARS:
        return dropped
    visible = _runs(visible_text)
    for i in candidates:
        runs = _runs(texts[i])
        if runs and len(runs & visible) >= COPY_SHARE * len(runs):
            dropped[i] = True
    return dropped


def _runs(text: str) -> set[int]:
    letters = "".join(c for c in text.casefold() if c.isalnum())
    return {hash(letters[j:j + _COPY_RUN]) for j in range(len(letters) - _COPY_RUN + 1)}


_TAG, _ANC_ARTICLE, _MATCHES_TITLE = (FEATURE_NAMES.index(name) for name in (
    "tag", "anc_t_article", "matches_title"))
_H1 = TAGS.index("h1")


def appended_stories(table: NodeTable, keep: np.ndarray) -> np.ndarray:
    """Kept nodes of the other stories a story page carries: each ``<article>`` apart from
    the headline's that holds an ``<h1>`` of its own.

    News sites that scroll on into the next story render it into the same HTML (Dagbladet
    appends a whole second article, headline, summary and body, below the first). The model
    cannot tell the two apart: both are long prose under an article element, so on a page
    declaring one story the second doubles the text (fundus-dev page F1 0.48 there). The
    page's own story is the ``<article>`` nearest the ``<h1>`` that matches the declared
    title; another ``<article>``, neither inside nor around it, with its own ``<h1>`` is a
    story of its own. Teaser cards (``<h2>``/``<h3>`` headings), comments and posts marked
    up as ``<article>`` hold no ``<h1>`` and are left to the model: on WCXB dev, where pages
    of forums and listings declare articles too, the rule changes no page. Nor does it act
    when the headline's ``<article>`` holds nothing the model kept: there the declared title
    is a teaser's (ABC News titles its story with the shorter headline of its news-feed card,
    an ``<article>`` with an ``<h1>`` of its own), and the story is elsewhere.
    """
    dropped = np.zeros(len(keep), dtype=bool)
    tag = table.X[:, _TAG]
    headings = np.flatnonzero((tag == _H1) & (table.X[:, _ANC_ARTICLE] < NO_ANCESTOR))
    if len(headings) < 2 or not keep.any():
        return dropped
    article = _nearest_article(table, headings)
    own = article[table.X[headings, _MATCHES_TITLE] > 0]
    if not len(own):
        return dropped
    lo, hi = own[0], table.end[own[0]]
    owner = table.owner
    if not keep[(owner >= lo) & (owner < hi)].any():
        return dropped  # the title matched a teaser of the story (ABC's news feed), not it
    for other in np.unique(article).tolist():
        other_end = table.end[other]
        if other_end <= lo or other >= hi:  # neither inside the story nor around it
            dropped |= keep & (owner >= other) & (owner < other_end)
    return dropped


def _nearest_article(table: NodeTable, nodes: np.ndarray) -> np.ndarray:
    """The pre-order index of each node's nearest ``<article>`` (its ``anc_t_article``
    levels up from the node's element)."""
    element = table.owner[nodes]
    levels = table.X[nodes, _ANC_ARTICLE].astype(np.int64)
    for step in range(1, int(levels.max()) + 1):
        element = np.where(levels >= step, table.parent[element], element)
    return element


def choose_nodes(proba: np.ndarray, weights: np.ndarray,
                 lean: float = PRECISION_LEAN) -> np.ndarray:
    """The nodes that maximise the page's expected F1, none under ``KEEP_FLOOR``.

    Pages are scored, and read, by how much of their text is right, so one fixed threshold
    is the wrong rule: a paragraph the model gives 0.4 is worth keeping on a page whose
    content is uncertain (a grid, a thread) and not on a page with a clear article, where
    it is more likely a teaser than a lost paragraph. With calibrated probabilities ``p``
    and each node's share of the text ``w``, the expected F1 of keeping the nodes in ``S``
    is close to ``2 Σ_S p·w / (Σ_S w + Σ p·w)``; the best ``S`` holds the most probable
    nodes, so the cut is found in one pass over them sorted (Jansche 2007; Ye et al. 2012).
    On a clear page it lands near 0.5, on an uncertain one lower, and a page of one
    plausible paragraph keeps it. Out of fold, the stage-2 probabilities are calibrated to
    within 0.06 in every tenth of [0, 1] on WCXB, which is what the rule needs.
    """
    keep = np.zeros(len(proba), dtype=bool)
    if not len(proba):
        return keep
    order = np.argsort(-proba, kind="stable")
    gain = (proba ** lean * weights)[order]
    expected_f1 = 2.0 * np.cumsum(gain) / (np.cumsum(weights[order]) + gain.sum())
    cut = int(np.argmax(expected_f1)) + 1
    keep[order[:cut]] = True
    return keep & (proba >= KEEP_FLOOR)


ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
"""Invisible characters a paragraph may consist of ("\u200d" alone, from page builders, and
once mangled "â\x80\x8d"): such a paragraph is not written."""
_INVISIBLE = ZERO_WIDTH + " \n"
"""What is left of an invisible paragraph once collapsed: "\u200d \u200d" is one too."""
REPEAT_MIN_CHARS = 15
"""A kept paragraph this long (non-space characters) is written once when the page repeats it
elsewhere; shorter ones ("Reply", a date, a price) legitimately recur in content."""
REPEAT_MIN_LEVELS = 3
"""How far up (from the later copy's element) the two copies of a paragraph must first meet
for the later one to count as the page's second rendering rather than the author's repeat."""


def _levels_to_common(parent: np.ndarray, first: int, later: int) -> int:
    """Levels from ``later`` up to the nearest ancestor it shares with ``first``."""
    ancestors = set()
    while first >= 0:
        ancestors.add(first)
        first = int(parent[first])
    levels = 0
    while later >= 0 and later not in ancestors:
        later = int(parent[later])
        levels += 1
    return levels


def assemble(table: NodeTable, keep: np.ndarray) -> str:
    """Join kept nodes, one paragraph each, separated by a blank line.

    Within a node, whitespace (source newlines included) collapses to one space; only a
    ``<br>`` starts a new line. Pages often carry their text twice, far apart in the tree (a
    mobile and a desktop layout, a standfirst repeated above the body, a post quoted further
    down a thread); the classifier keeps both copies, since they look alike, and a corpus
    wants one. So a paragraph equal (case aside) to one already written is skipped when the
    two copies first meet ``REPEAT_MIN_LEVELS`` or more levels up; repeats within one section
    of text are the author's and stay. Text the page stores as mangled UTF-8 ("Investorâ€™s",
    a CMS or a crawler that read UTF-8 as Latin-1) is written as meant (``decode.unmangled``);
    the features see it as the page has it.
    """
    paragraphs = []
    first_node: dict[str, int] = {}
    texts = table.texts
    for i in np.flatnonzero(keep).tolist():
        text = texts[i]
        if LINE_BREAK in text:
            text = "\n".join(line for line in map(collapse_spaces, text.split(LINE_BREAK)) if line)
        else:
            text = collapse_spaces(text)
        if not text.strip(_INVISIBLE):
            continue
        if len(text) - text.count(" ") - text.count("\n") >= REPEAT_MIN_CHARS:
            first = first_node.setdefault(text.casefold(), i)
            if first != i and _levels_to_common(
                    table.parent, int(table.owner[first]), int(table.owner[i])
            ) >= REPEAT_MIN_LEVELS:
                continue
        paragraphs.append(text)
    text = "\n\n".join(paragraphs)
    if not MOJIBAKE.search(text):  # one search per page; a page can mix both, so the
        return text                # repair goes paragraph by paragraph
    return "\n\n".join(p for p in map(unmangled, paragraphs) if p.strip(_INVISIBLE))

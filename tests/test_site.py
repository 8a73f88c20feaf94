"""A site's template read from its other pages: shares, the crawl's window, the context column."""

from __future__ import annotations

import math

import numpy as np
import pytest

from newscrawl.extraction import Extractor, SiteMemory
from newscrawl.extraction.context import CONTEXT_NAMES, context_features
from newscrawl.extraction.extractor import page_nodes
from newscrawl.extraction.features import FEATURE_NAMES
from newscrawl.extraction.site import recurrence, sample_size, site_of, site_recurrence

SHARE = FEATURE_NAMES.index("site_recurrence")
PAGES = FEATURE_NAMES.index("site_pages")


def _page(story: str) -> bytes:
    return (f"<html><body><nav><ul><li><a href='/'>Home</a></li>"
            f"<li><a href='/world'>World news</a></li></ul></nav>"
            f"<article><h1>{story}</h1><p>{story} was reported by the harbour office on "
            f"Tuesday, after weeks of delays.</p></article>"
            f"<footer><p>Sign up for the  Morning Briefing</p></footer></body></html>").encode()


def _table(story: str, url: str = "https://example.org/a"):
    return page_nodes(_page(story), url).table


def _share(table, text: str) -> float:
    return float(table.X[table.texts.index(text), SHARE])


def test_keys_ignore_case_and_whitespace_only() -> None:
    a = _table("Bridge reopened")
    keys = dict(zip(a.texts, a.text_keys, strict=True))
    b = page_nodes(_page("Bridge reopened").replace(b"Morning Briefing", b"morning\n briefing"),
                   "https://example.org/b").table
    other = dict(zip(b.texts, b.text_keys, strict=True))
    footer = [t for t in a.texts if "Briefing" in t][0]
    assert keys[footer] == other[[t for t in b.texts if "briefing" in t][0]]
    assert keys["Home"] != keys["World news"]


def test_recurrence_is_the_share_of_other_pages_holding_the_text() -> None:
    keys = np.array([1, 2, 3], dtype=np.int64)
    others = [np.array([1, 2]), np.array([1]), np.array([4, 5]), np.array([1, 9])]
    np.testing.assert_allclose(recurrence(keys, others), [0.75, 0.25, 0.0])
    assert np.isnan(recurrence(keys, [])).all()


def test_a_labelled_set_reads_each_page_against_the_rest_of_its_domain() -> None:
    tables = [_table("Bridge reopened"), _table("Ferry strike ends"), _table("Tram line opens"),
              _table("Dam inspected")]
    site_recurrence(tables, ["example.org", "example.org", "example.org", "other.net"])
    first = tables[0]
    assert sample_size(first) == 2
    assert _share(first, "Home") == 1.0
    assert _share(first, "Bridge reopened") == 0.0
    lone = tables[3]
    assert sample_size(lone) == 0
    assert np.isnan(lone.X[:, SHARE]).all()


def test_memory_reads_a_page_against_the_sites_earlier_pages_only() -> None:
    memory = SiteMemory()
    first = _table("Bridge reopened", "https://www.example.org/bridge")
    memory.observe(first, "https://www.example.org/bridge")
    assert sample_size(first) == 0 and np.isnan(first.X[:, SHARE]).all()

    second = _table("Ferry strike ends", "https://example.org/ferry")  # www. is the same site
    memory.observe(second, "https://example.org/ferry")
    assert sample_size(second) == 1
    assert _share(second, "Home") == 1.0
    assert _share(second, "Ferry strike ends") == 0.0

    elsewhere = _table("Bridge reopened", "https://other.net/bridge")
    memory.observe(elsewhere, "https://other.net/bridge")
    assert sample_size(elsewhere) == 0
    assert memory.pages("https://example.org/x") == 2 and len(memory) == 2


def test_a_refetched_page_is_not_its_own_template() -> None:
    memory = SiteMemory()
    url = "https://example.org/bridge"
    memory.observe(_table("Bridge reopened", url), url)
    again = _table("Bridge reopened", url)
    memory.observe(again, url)
    assert sample_size(again) == 0
    assert memory.pages(url) == 1  # the new fetch replaced the old one in the window


def test_memory_is_bounded_per_site_and_in_sites() -> None:
    memory = SiteMemory(max_pages=3, max_sites=2)
    for k in range(5):
        url = f"https://example.org/{k}"
        memory.observe(_table(f"Story {k}", url), url)
    assert memory.pages("https://example.org/") == 3
    last = _table("Story 9", "https://example.org/9")
    memory.observe(last, "https://example.org/9")
    assert sample_size(last) == 3
    for host in ("a.net", "b.net"):
        memory.observe(_table("Story", f"https://{host}/"), f"https://{host}/")
    assert len(memory) == 2
    assert memory.pages("https://example.org/") == 0  # least recently seen: forgotten
    with pytest.raises(ValueError):
        SiteMemory(max_pages=0)


def test_pages_without_a_host_are_read_alone() -> None:
    memory = SiteMemory()
    for url in (None, "not a url", "http://[::1"):
        table = _table("Bridge reopened", "https://example.org/a")
        memory.observe(table, url)
        assert sample_size(table) == 0
    assert len(memory) == 0
    assert site_of("http://[::1") is None


def test_both_stages_see_the_share_or_nothing() -> None:
    table = _table("Bridge reopened")
    proba = np.full(len(table), 0.5, dtype=np.float32)
    X = context_features(table, proba)
    share, pages = CONTEXT_NAMES.index("c_site_recurrence"), CONTEXT_NAMES.index("c_site_pages")
    assert np.isnan(X[:, share]).all() and np.isnan(X[:, pages]).all()
    assert np.isnan(table.X[:, [SHARE, PAGES]]).all()
    site_recurrence([table, _table("Ferry strike ends")], ["example.org"] * 2)
    X = context_features(table, proba)
    assert X[table.texts.index("Home"), share] == 1.0
    assert X[table.texts.index("Bridge reopened"), share] == 0.0
    assert X[0, pages] == pytest.approx(math.log1p(1)) == table.X[0, PAGES]


def test_an_extractor_with_memory_remembers_the_sites_pages() -> None:
    memory = SiteMemory()
    extractor = Extractor(sites=memory)
    for k, story in enumerate(("Bridge reopened", "Ferry strike ends")):
        article = extractor.extract(_page(story), f"https://example.org/{k}")
        assert "site" in article.timings_ms
    assert memory.pages("https://example.org/") == 2
    assert "site" not in Extractor().extract(_page("Dam inspected"), "https://x.org/").timings_ms


def _fixed_site_page(path: str, body: str, footer: str) -> bytes:
    return (f"<html><body><header><a href='/'>Harbour Gazette</a></header>"
            f"<main><h1>{path}</h1>{body}</main><footer><ul>{footer}</ul></footer>"
            f"</body></html>").encode()


def test_footer_links_name_the_sites_fixed_pages_by_short_names_only() -> None:
    """A footer's short link texts name fixed pages, absolute or relative, with or without
    www. and a trailing slash; a footer that lists stories by their headlines, an article's
    own footer, other hosts, fragments into the page and the page itself are not counted."""
    from lxml import etree

    from newscrawl.extraction.pagekind import markup_counts
    from newscrawl.extraction.site import footer_links

    html = ("<html><body class='has-sticky-footer'><nav><a href='/world'>World</a></nav>"
            "<main><article><p>Story</p><footer><a href='/tag/storms'>Storms</a>"
            "</footer></article></main><div class='site-Footer'><ul>"
            "<li><a href='/privacy/'>Privacy and cookies</a></li>"
            "<li><a href='https://example.org/terms#top'>Terms</a></li>"
            "<li><a href='/2024/05/storm.html'>Storm closes the coast road for a week</a></li>"
            "<li><a href='https://other.net/about'>About</a></li>"
            "<li><a href='#'>Top</a></li>"
            "<li><a href='HTTP://WWW.EXAMPLE.ORG/Imprint?lang=de'>Imprint</a></li>"
            "<li><a href='//example.org/jobs/'>Jobs</a></li>"
            "<li><a href='https://'>Broken</a></li></ul></div>"
            "<footer><a href='/contact'>Contact us</a></footer></body></html>")
    url = "https://www.example.org/contact/"
    links = footer_links(markup_counts(etree.HTML(html), url)[1], url)
    assert links == {"example.org/privacy", "example.org/terms", "example.org/Imprint?lang=de",
                     "example.org/jobs"}


def test_memory_counts_the_earlier_pages_whose_footers_link_a_page() -> None:
    memory = SiteMemory()
    footer = "<li><a href='/privacy/'>Privacy</a></li>"
    extractor = Extractor(sites=memory)
    story = "<p>" + "The ferry service resumed after the storm passed the coast. " * 6 + "</p>"
    first = extractor.extract(_fixed_site_page("a", story, footer), "https://example.org/a")
    assert first.footer_linked == (0, 0)
    extractor.extract(_fixed_site_page("b", story, ""), "https://example.org/b")
    privacy = extractor.extract(_fixed_site_page("p", story, footer),
                                "https://www.example.org/privacy")
    assert privacy.footer_linked == (1, 2)
    alone = Extractor().extract(_fixed_site_page("p", story, footer), "https://example.org/p")
    assert alone.footer_linked == (0, 0)


def test_a_footer_names_a_fixed_page_in_four_words_a_cjk_character_half_a_word() -> None:
    from lxml import etree

    from newscrawl.extraction.pagekind import markup_counts
    from newscrawl.extraction.site import footer_links

    html = ("<html><body><footer><a href='/privacy'>隐私政策</a>"
            "<a href='/2024/05/story.html'>北京今天下雪了交通受到影响</a></footer></body></html>")
    url = "https://news.example.cn/"
    assert footer_links(markup_counts(etree.HTML(html), url)[1], url) == {"news.example.cn/privacy"}

"""News-site pages that are not articles, generated for the page classifier's negative class.

WCXB's listings and collections are mostly shops, directories and blogs; a news crawl meets
section fronts, tag, topic and author pages, paginated archives and front pages. These are
built here from the training set's own articles (their headlines and first sentences become
teasers), so the teaser text is real prose in the articles' languages.

Kept apart from the demo's sample site (``newscrawl/sample_site``) on purpose: other markup
(random class names, six teaser layouts, card grids, tables, link lists, long excerpts),
other URL styles (words in several languages, query-string pagination), a seed of its own,
and no text of the sample site, so the sample-site crawl test is not passed by memory.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..extraction.text import CJK_CHAR, HANGUL, KANA

SEED = 2033

_TAG_WORDS = ("tag", "tags", "topic", "topics", "thema", "themen", "tema", "temas", "sujet",
              "sujets", "etiqueta", "argomenti", "keyword", "schlagwort", "t", "label")
_AUTHOR_WORDS = ("author", "authors", "autor", "autoren", "auteur", "autore", "journalist",
                 "profile", "people", "by", "redaktion", "writers", "columnist")
_SECTION_WORDS = ("politics", "world", "business", "economy", "sport", "sports", "culture",
                  "science", "tech", "opinion", "local", "region", "health", "politik",
                  "wirtschaft", "kultur", "ausland", "monde", "economie", "societe",
                  "deportes", "internacional", "cronaca", "esteri", "nieuws", "kraj",
                  "swiat", "news", "latest", "national", "lifestyle", "money", "us", "uk")
_CLASSES = ("grid", "cards", "stream", "river", "list", "feed", "archive", "results", "tiles",
            "col", "row", "module", "block", "items", "collection", "layout", "wrapper",
            "container", "section", "box", "c-list", "o-grid", "story-list", "post-list",
            "entries", "content", "main", "primary")
_ITEM_CLASSES = ("item", "card", "teaser", "story", "entry", "post", "tile", "media", "unit",
                 "article", "c-card", "headline", "promo", "list-item", "result")
_READ_MORE = ("Read more", "Weiterlesen", "Lire la suite", "Leer más", "Continua a leggere",
              "More", "»", "Full story")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True, slots=True)
class Story:
    """What a teaser is made of: one training article's headline and first paragraphs."""

    title: str
    paragraphs: tuple[str, ...]
    url: str


@dataclass(frozen=True, slots=True)
class GeneratedPage:
    url: str
    html: str
    kind: str
    """``front``, ``section``, ``tag``, ``author``, ``archive`` or ``search``."""
    site: str


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _slug(text: str, words: int = 3) -> str:
    parts = re.findall(r"\w+", text.lower())[:words]
    return "-".join(parts) or "x"


def _excerpt(story: Story, rng: random.Random, words: int) -> str:
    text = " ".join(story.paragraphs)
    if CJK_CHAR.search(text[:200]):
        return text[:words * 2] + "…"
    return " ".join(text.split()[:words]) + "…"


class _Site:
    """One generated site: a markup style, a URL style and a language of its own."""

    def __init__(self, index: int, rng: random.Random):
        self.rng = rng
        self.host = f"https://www.news{index}.example"
        self.name = f"news{index}.example"
        self.item_layout = rng.randrange(6)
        self.container = rng.choice(_CLASSES)
        self.item_class = rng.choice(_ITEM_CLASSES)
        self.tag_word = rng.choice(_TAG_WORDS)
        self.author_word = rng.choice(_AUTHOR_WORDS)
        self.sections = rng.sample(_SECTION_WORDS, 8)
        self.query_pages = rng.random() < 0.3
        self.html_ext = rng.random() < 0.2
        self.wrapper = rng.choice(("div", "section", "main", "ul"))
        self.show_dates = rng.random() < 0.7

    def url(self, *segments: str, page: int = 1) -> str:
        path = "/" + "/".join(segments)
        if self.html_ext and segments:
            path += ".html"
        elif segments:
            path += "/"
        if page > 1:
            if self.query_pages:
                path += f"?{self.rng.choice(('page', 'p', 'pg', 'seite', 'offset'))}={page}"
            else:
                path += f"page/{page}/" if path.endswith("/") else f"/page/{page}"
        return self.host + path

    def teaser(self, story: Story) -> str:
        rng = self.rng
        day = f"{rng.randint(1, 28)} {rng.choice(_MONTHS)} {rng.randint(2019, 2026)}"
        date = f"<time>{day}</time>" if self.show_dates else ""
        href = _e(story.url)
        title = _e(story.title)
        cls = self.item_class
        layout = self.item_layout
        if layout == 0:  # headline, short excerpt, date
            return (f'<article class="{cls}"><h2><a href="{href}">{title}</a></h2>'
                    f"<p>{_e(_excerpt(story, rng, rng.randint(12, 25)))}</p>{date}</article>")
        if layout == 1:  # image card, headline only
            return (f'<div class="{cls}"><a href="{href}"><img src="/i.jpg" alt="">'
                    f'<h3>{title}</h3></a><div class="meta">{date}</div></div>')
        if layout == 2:  # a list of links
            return f'<li class="{cls}"><a href="{href}">{title}</a> {date}</li>'
        if layout == 3:  # long excerpts, the hardest: each reads like a paragraph of prose
            more = rng.choice(_READ_MORE)
            return (f'<div class="{cls}"><h3><a href="{href}">{title}</a></h3>{date}'
                    f"<p>{_e(_excerpt(story, rng, rng.randint(30, 60)))}</p>"
                    f'<a href="{href}">{_e(more)}</a></div>')
        if layout == 4:  # table rows
            return f'<tr><td><a href="{href}">{title}</a></td><td>{date}</td></tr>'
        # kicker, headline, standfirst
        kicker = _e(rng.choice(self.sections).capitalize())
        return (f'<div class="{cls}"><span class="kicker">{kicker}</span>'
                f'<a href="{href}"><h2>{title}</h2><p>'
                f"{_e(_excerpt(story, rng, rng.randint(15, 35)))}</p></a></div>")

    def teasers(self, stories: Sequence[Story]) -> str:
        items = "".join(self.teaser(s) for s in stories)
        if self.item_layout == 4:
            return f'<table class="{self.container}">{items}</table>'
        if self.item_layout == 2:
            return f'<ul class="{self.container}">{items}</ul>'
        tag = "div" if self.wrapper == "ul" else self.wrapper
        return f'<{tag} class="{self.container}">{items}</{tag}>'

    def page(self, title: str, main: str, lang: str, og_type: str | None,
             ld_type: str | None) -> str:
        rng = self.rng
        nav = "".join(f'<li><a href="{self.url(s)}">{s.capitalize()}</a></li>'
                      for s in self.sections)
        head = [f"<title>{_e(title)} | {self.name}</title>", '<meta charset="utf-8">']
        if og_type:
            head.append(f'<meta property="og:type" content="{og_type}">')
        if ld_type:
            head.append('<script type="application/ld+json">{"@context":"https://schema.org",'
                        f'"@type":"{ld_type}","name":"{_e(title)}"}}</script>')
        footer_links = "".join(f'<a href="/{w}/">{w.capitalize()}</a> ' for w in
                               rng.sample(("about", "contact", "privacy", "terms", "imprint",
                                           "jobs", "advertise", "newsletter"), 5))
        return (f'<!DOCTYPE html><html lang="{lang}"><head>{"".join(head)}</head><body>'
                f'<header><a class="logo" href="/">{self.name}</a><nav><ul>{nav}</ul></nav>'
                f"</header><main>{main}</main><footer>{footer_links}"
                f"<p>© {self.name}</p></footer></body></html>")


def _language(story: Story) -> str:
    text = " ".join(story.paragraphs)[:300]
    if len(CJK_CHAR.findall(text)) < len(text) / 4:
        return "en"
    if re.search(f"[{HANGUL}]", text):
        return "ko"
    return "ja" if re.search(f"[{KANA}]", text) else "zh"


def generate_pages(stories: Sequence[Story], *, sites: int = 60,
                   seed: int = SEED) -> list[GeneratedPage]:
    """``sites`` sites of about seven pages each: a front page, section fronts and their
    second pages, a tag page, an author page, a dated archive or a search result. One site
    in five is written in Chinese, Japanese or Korean (teasers of those stories only, when
    there are some), whose teasers are short in words and long in characters."""
    rng = random.Random(seed)
    latin = [s for s in stories if _language(s) == "en"]
    ideographic = [s for s in stories if _language(s) != "en"]
    out: list[GeneratedPage] = []
    for index in range(sites):
        site = _Site(index, rng)
        pool = ideographic if ideographic and index % 5 == 4 else latin or list(stories)
        lang = _language(pool[0]) if pool is ideographic else "en"

        def pick(k: int, pool: list[Story] = pool) -> list[Story]:
            return rng.sample(pool, k) if k <= len(pool) else rng.choices(pool, k=k)

        def add(url: str, kind: str, title: str, main: str, og: str | None, ld: str | None,
                site: _Site = site, lang: str = lang) -> None:
            out.append(GeneratedPage(url, site.page(title, main, lang, og, ld), kind,
                                     site.name))

        generic = rng.choice((None, None, None, "website", "website", "website", "webpage",
                              "article"))
        # front page: several sections of teasers
        blocks = "".join(f'<section><h2><a href="{site.url(s)}">{s.capitalize()}</a></h2>'
                         f"{site.teasers(pick(rng.randint(3, 6)))}</section>"
                         for s in rng.sample(site.sections, rng.randint(3, 6)))
        add(site.host + "/", "front", site.name, blocks, generic, rng.choice((None, "WebSite")))
        for section in rng.sample(site.sections, 2):
            intro = (f"<p>{_e(_excerpt(rng.choice(pool), rng, rng.randint(15, 40)))}</p>"
                     if rng.random() < 0.3 else "")
            for page in (1, 2):
                title = section.capitalize() + (f" – {page}" if page > 1 else "")
                pager = " ".join(f'<a href="{site.url(section, page=k)}">{k}</a>'
                                 for k in range(1, 6))
                main = (f"<h1>{_e(title)}</h1>{intro if page == 1 else ''}"
                        f"{site.teasers(pick(rng.randint(8, 20)))}"
                        f'<nav class="pagination">{pager}</nav>')
                add(site.url(section, page=page), "section", title, main, generic,
                    rng.choice((None, "CollectionPage", "WebPage")))
        tag_story = rng.choice(pool)
        tag = _slug(tag_story.title, rng.randint(1, 2))
        description = (f"<p>{_e(_excerpt(rng.choice(pool), rng, rng.randint(20, 80)))}</p>"
                       if rng.random() < 0.4 else "")
        add(site.url(site.tag_word, tag), "tag", tag,
            f"<h1>{_e(tag)}</h1>{description}{site.teasers(pick(rng.randint(6, 20)))}",
            generic, rng.choice((None, "CollectionPage")))
        author = _slug(rng.choice(pool).title, 2)
        bio = (f'<div class="bio"><p>{_e(_excerpt(rng.choice(pool), rng, rng.randint(25, 90)))}'
               "</p></div>" if rng.random() < 0.6 else "")
        add(site.url(site.author_word, author), "author", author.replace("-", " ").title(),
            f"<h1>{_e(author)}</h1>{bio}{site.teasers(pick(rng.randint(5, 15)))}",
            rng.choice((None, "profile", "website")), rng.choice((None, "ProfilePage")))
        if rng.random() < 0.5:
            year, month = rng.randint(2019, 2026), rng.randint(1, 12)
            add(site.url(str(year), f"{month:02d}"), "archive", f"{year}-{month:02d}",
                f"<h1>{year}-{month:02d}</h1>{site.teasers(pick(rng.randint(10, 25)))}",
                generic, None)
        else:
            query = _slug(rng.choice(pool).title, 1)
            add(f"{site.host}/search?q={query}", "search", query,
                f"<h1>{_e(query)}</h1>{site.teasers(pick(rng.randint(5, 15)))}", None,
                rng.choice((None, "SearchResultsPage")))
    return out

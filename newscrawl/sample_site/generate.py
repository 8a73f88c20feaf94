"""Build the sample news site: articles wearing real-site boilerplate, listings, feeds, sitemaps.

``build_site(dest)`` writes ``dest/site/`` (what the server serves; absolute URLs are written
as ``__BASE__`` and filled in per request) and returns the manifest: every article's path and
true body text, the non-article pages and the path robots.txt forbids. ``n_articles`` scales
the same templates up for the crawl benchmark.
"""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta
from itertools import islice
from pathlib import Path

from newscrawl.sample_site.content import (
    BOILERPLATE,
    HEADINGS_EN,
    HEADINGS_ZH,
    LIST_ITEMS_EN,
    SECTIONS_EN,
    SENTENCES_ZH,
    SLOTS_EN,
    SLOTS_ZH,
    TITLES_ZH,
)

SITE_NAME = "The Harbour Gazette"
DEFAULT_ARTICLES = 48
DISALLOWED = "/private/staff-memo-on-the-newsroom-reorganisation-plan/"
UI = {
    "en": {"home": "Home", "share": "Share this article:", "related": "Related stories",
           "comments": "Comments", "most_read": "Most read", "by": "By", "topics": "Topics:",
           "cookie": "We use cookies and similar technologies to improve your experience, "
                     "measure our audience and show relevant advertising. By continuing to "
                     "browse you agree to our use of cookies.",
           "newsletter": "Get the morning briefing: the day's top stories in your inbox "
                         "every weekday at 7am. Sign up free, unsubscribe any time.",
           "ad": "Advertisement", "read_more": "Read more:", "reply": "Reply",
           "report": "Report", "next": "Next", "prev": "Previous", "min": "min read"},
    "zh": {"home": "首页", "share": "分享到：", "related": "相关报道", "comments": "网友评论",
           "most_read": "热门文章", "by": "记者", "topics": "标签：",
           "cookie": "本网站使用Cookie以改善您的浏览体验并进行访问统计。"
                     "继续浏览即表示您同意我们使用Cookie。",
           "newsletter": "订阅早间简报：每个工作日早上七点，把当天最重要的新闻送到您的邮箱。",
           "ad": "广告", "read_more": "延伸阅读：", "reply": "回复", "report": "举报",
           "next": "下一页", "prev": "上一页", "min": "分钟阅读"},
}
COMMENTS_ZH = [("海港居民", "报道很详细，希望后续能继续跟进。"),
               ("老张", "这个问题早就该解决了，点赞。"),
               ("路人甲", "请问具体什么时候开始实施？"), ("小雨", "支持！希望真正落到实处。")]
ADS_ZH = ["春季家电焕新季，全场满千减百，部分商品包邮到家。",
          "海港银行信用卡新户专享礼，首刷即送精美礼品。"]


@dataclass
class ArticleSpec:
    path: str
    title: str
    section: str
    lang: str
    published: date
    author: str
    blocks: list[tuple[str, str]]
    """(tag, text) in reading order: p, h2 or li."""
    tags: list[str]
    encoding: str = "utf-8"
    declares_type: bool = True
    listed: bool = True
    """In sitemaps and the feed; otherwise found only by following links."""
    read_more: bool = False
    inline_ad: bool = False

    @property
    def text(self) -> str:
        return "\n\n".join(t for _, t in self.blocks)

    @property
    def description(self) -> str:
        first = self.blocks[0][1]
        return first if len(first) < 200 else first[:197].rsplit(" ", 1)[0] + "…"


@dataclass
class Manifest:
    articles: list[dict] = field(default_factory=list)
    non_articles: list[str] = field(default_factory=list)
    disallowed: list[str] = field(default_factory=lambda: [DISALLOWED])


def _fill(template: str, rng: random.Random, slots: dict[str, list[str]]) -> str:
    def one(m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "org_cap":
            value = rng.choice(slots["org"])
            return value[0].upper() + value[1:]
        return rng.choice(slots[key.rstrip("2")])
    return re.sub(r"\{(\w+)\}", one, template)


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:80].rstrip("-")


def _tag_slug(tag: str) -> str:
    return _slug(tag) or "zh-" + tag.encode("utf-8").hex()[:12]


def _author_slug(name: str) -> str:
    return _slug(name) or "zh-" + name.encode("utf-8").hex()[:12]


def _paragraphs(rng: random.Random, sentences: list[str], slots: dict[str, list[str]],
                n: int, sep: str) -> list[str]:
    pool = list(sentences)
    rng.shuffle(pool)
    out = []
    for _ in range(n):
        k = rng.randint(2, 5)
        if len(pool) < k:
            pool = list(sentences)
            rng.shuffle(pool)
        chosen, pool = pool[:k], pool[k:]
        out.append(sep.join(_fill(s, rng, slots) for s in chosen))
    return out


def make_articles(n: int = DEFAULT_ARTICLES, seed: int = 7) -> list[ArticleSpec]:
    """``n`` articles: about one in six in Chinese, the rest over five English sections."""
    rng = random.Random(seed)
    sections = list(SECTIONS_EN)
    start = date(2024, 5, 1)
    specs: list[ArticleSpec] = []
    seen_paths: set[str] = set()
    for i in range(n):
        day = start + timedelta(days=(i * 60) // max(n, 1))
        zh = i % 6 == 5
        if zh:
            title = _fill(TITLES_ZH[(i // 6) % len(TITLES_ZH)], rng, SLOTS_ZH)
            blocks = [("p", p) for p in _paragraphs(rng, SENTENCES_ZH, SLOTS_ZH,
                                                    rng.randint(4, 7), "")]
            if rng.random() < 0.4:
                blocks.insert(len(blocks) // 2, ("h2", rng.choice(HEADINGS_ZH)))
            path = f"/zh/{day:%Y/%m/%d}/a{100000 + i}.html"
            spec = ArticleSpec(path, title, "zh", "zh", day, rng.choice(SLOTS_ZH["person"]),
                               blocks, ["城市", "民生"] if i % 2 else ["经济"],
                               encoding="gbk" if (i // 6) % 4 == 1 else "utf-8")
        else:
            section = sections[i % len(sections)]
            info = SECTIONS_EN[section]
            title = _fill(info["titles"][(i // len(sections)) % len(info["titles"])], rng,
                          SLOTS_EN)
            title = title[0].upper() + title[1:]
            paras = _paragraphs(rng, info["sentences"], SLOTS_EN, rng.randint(4, 9), " ")
            blocks = [("p", p) for p in paras]
            if rng.random() < 0.5:
                blocks.insert(rng.randint(2, len(blocks) - 1), ("h2", rng.choice(HEADINGS_EN)))
            if rng.random() < 0.3:
                items = rng.sample(LIST_ITEMS_EN, 3)
                at = rng.randint(2, len(blocks))
                blocks[at:at] = [("li", _fill(t, rng, SLOTS_EN)) for t in items]
            slug = _slug(title)
            path = (f"/{section}/{day:%Y/%m/%d}/{slug}.html" if i % 4 else
                    f"/{section}/{slug}-{20240000 + i * 37}")
            spec = ArticleSpec(path, title, section, "en", day, rng.choice(SLOTS_EN["person"]),
                               blocks, rng.sample(["economy", "climate", "transport",
                                                   "elections", "arts", "energy"], 2))
        if spec.path in seen_paths:
            spec.path = spec.path.replace(".html", f"-{i}.html") if spec.path.endswith(
                ".html") else f"{spec.path}-{i}"
        seen_paths.add(spec.path)
        spec.declares_type = i % 11 != 3
        spec.listed = i % 16 != 9
        spec.read_more = i % 3 == 1
        spec.inline_ad = i % 4 == 2
        specs.append(spec)
    return specs


# Layout ---------------------------------------------------------------------------------------

def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _nav(lang: str) -> str:
    items = [("/", UI[lang]["home"])] + [(f"/{s}/", SECTIONS_EN[s]["label"]) for s in SECTIONS_EN]
    items += [("/zh/", "中文"), ("/subscribe/", "Subscribe"), ("/login/", "Sign in")]
    lis = "".join(f'<li><a href="{h}">{_e(t)}</a></li>' for h, t in items)
    return f'<nav class="main-nav" aria-label="Sections"><ul>{lis}</ul></nav>'


def _page(*, lang: str, title: str, path: str, main: str, head: str = "", charset: str = "utf-8",
          rng: random.Random, most_read: list[ArticleSpec], og_type: str | None = "website",
          ld: dict | None = None) -> str:
    ui = UI[lang]
    ads = ADS_ZH if lang == "zh" else BOILERPLATE["ads"]
    meta = [f'<meta charset="{charset}">', f"<title>{_e(title)} | {SITE_NAME}</title>",
            f'<link rel="canonical" href="__BASE__{path}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f'<meta property="og:site_name" content="{SITE_NAME}">',
            f'<meta property="og:title" content="{_e(title)}">',
            f'<meta property="og:url" content="__BASE__{path}">',
            '<link rel="alternate" type="application/rss+xml" title="Latest" href="/rss.xml">',
            '<link rel="stylesheet" href="/static/site.css">']
    if og_type:
        meta.append(f'<meta property="og:type" content="{og_type}">')
    if ld:
        meta.append('<script type="application/ld+json">'
                    + json.dumps(ld, ensure_ascii=False) + "</script>")
    meta.append("<script>window.dataLayer=window.dataLayer||[];"
                "dataLayer.push({'event':'pageview'});</script>")
    reads = "".join(f'<li><a href="{a.path}">{_e(a.title)}</a></li>' for a in most_read)
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
{chr(10).join(meta)}
{head}
</head>
<body>
<div class="cookie-banner" role="dialog"><p>{ui["cookie"]}</p>
<a href="/privacy/#cookies">Manage preferences</a> <button>Accept all</button></div>
<header class="site-header">
<div class="top-bar"><span class="dateline">Harbourside edition</span> ·
<a href="/subscribe/">Subscribe from 1 pound a week</a> · <a href="/login/">Sign in</a></div>
<a class="logo" href="/">{SITE_NAME}</a>
{_nav(lang)}
</header>
<div class="ad ad-leaderboard"><span class="ad-label">{ui["ad"]}</span>
<p>{_e(rng.choice(ads))}</p></div>
<main id="content">
{main}
</main>
<aside class="sidebar"><section class="most-read"><h2>{ui["most_read"]}</h2><ol>{reads}</ol>
</section><div class="ad ad-mpu"><span class="ad-label">{ui["ad"]}</span>
<p>{_e(rng.choice(ads))}</p></div></aside>
<footer class="site-footer">
<ul><li><a href="/about/">About us</a></li><li><a href="/contact/">Contact</a></li>
<li><a href="/privacy/">Privacy and cookies</a></li><li><a href="/search?q=">Search</a></li>
<li><a href="{DISALLOWED}">Staff area</a></li><li><a href="/rss.xml">RSS</a></li></ul>
<p>© 2024 {SITE_NAME} Ltd. Registered office: 1 Quay Street, Harbourside. All rights reserved.
Reproduction without permission is prohibited.</p>
</footer>
</body>
</html>
"""


def _article_html(a: ArticleSpec, rng: random.Random, others: list[ArticleSpec]) -> str:
    ui = UI[a.lang]
    label = "中文" if a.lang == "zh" else SECTIONS_EN[a.section]["label"]
    section_path = "/zh/" if a.lang == "zh" else f"/{a.section}/"
    body = []
    for n, (tag, text) in enumerate(a.blocks):
        if tag == "li" and (n == 0 or a.blocks[n - 1][0] != "li"):
            body.append("<ul>")
        body.append(f"<{tag}>{_e(text)}</{tag}>")
        if tag == "li" and (n + 1 == len(a.blocks) or a.blocks[n + 1][0] != "li"):
            body.append("</ul>")
        if n == 1 and a.read_more:
            o = others[0]
            body.append(f'<p class="read-more"><strong>{ui["read_more"]}</strong> '
                        f'<a href="{o.path}">{_e(o.title)}</a></p>')
        if n == 2 and a.inline_ad:
            ads = ADS_ZH if a.lang == "zh" else BOILERPLATE["ads"]
            body.append(f'<div class="ad ad-inline"><span class="ad-label">{ui["ad"]}</span>'
                        f"<p>{_e(rng.choice(ads))}</p></div>")
    related = "".join(
        f'<li><a href="{o.path}">{_e(o.title)}</a><p>{_e(rng.choice(BOILERPLATE["related_teasers"]) if a.lang == "en" else o.title)}</p></li>'  # noqa: E501
        for o in others[:4])
    pool = COMMENTS_ZH if a.lang == "zh" else BOILERPLATE["comments"]
    comments = "".join(
        f'<div class="comment"><p class="comment-meta"><b>{_e(name)}</b> · {h} hours ago</p>'
        f'<p>{_e(text)}</p><a href="#reply">{ui["reply"]}</a> <a href="#report">'
        f'{ui["report"]}</a></div>'
        for h, (name, text) in enumerate(rng.sample(pool, 3), start=1))
    share = (f'<div class="share-bar">{ui["share"]} '
             '<a href="https://www.facebook.com/sharer/sharer.php">Facebook</a> '
             '<a href="https://x.com/intent/post">X</a> '
             '<a href="https://www.linkedin.com/shareArticle">LinkedIn</a> '
             '<a href="mailto:?subject=From%20the%20Gazette">Email</a> '
             '<a href="#copy">Copy link</a></div>')
    tags = " ".join(f'<a href="/tag/{_tag_slug(t)}/">{_e(t)}</a>' for t in a.tags)
    words = len(a.text.split()) if a.lang == "en" else len(a.text) // 2
    main = f"""<nav class="breadcrumbs"><a href="/">{ui["home"]}</a> ›
<a href="{section_path}">{label}</a> › <span>{_e(a.title)}</span></nav>
<article>
<header class="article-header"><h1>{_e(a.title)}</h1>
<p class="byline">{ui["by"]} <a href="/author/{_author_slug(a.author)}/">{_e(a.author)}</a> ·
<time datetime="{a.published.isoformat()}">{a.published:%d %B %Y}</time> ·
{max(1, words // 200)} {ui["min"]}</p></header>
{share}
<div class="article-body">
{chr(10).join(body)}
</div>
<div class="tags">{ui["topics"]} {tags}</div>
{share}
</article>
<section class="newsletter"><h2>The morning briefing</h2><p>{ui["newsletter"]}</p>
<form action="/newsletter"><input type="email" placeholder="Email"><button>Sign up</button></form>
</section>
<section class="related"><h2>{ui["related"]}</h2><ul>{related}</ul></section>
<section class="comments"><h2>{ui["comments"]} (3)</h2>{comments}</section>"""
    ld = None
    og_type = None
    head = ""
    if a.declares_type:
        og_type = "article"
        ld = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": a.title,
              "datePublished": a.published.isoformat(), "inLanguage": a.lang,
              "author": {"@type": "Person", "name": a.author},
              "publisher": {"@type": "Organization", "name": SITE_NAME}}
        head = (f'<meta name="description" content="{_e(a.description)}">\n'
                f'<meta name="author" content="{_e(a.author)}">\n'
                f'<meta property="article:published_time" content="{a.published.isoformat()}">')
    return _page(lang=a.lang, title=a.title, path=a.path, main=main, head=head,
                 charset="gbk" if a.encoding == "gbk" else "utf-8", rng=rng,
                 most_read=others[4:9], og_type=og_type, ld=ld)


def _teasers(items: list[ArticleSpec]) -> str:
    out = []
    for a in items:
        first = a.blocks[0][1]
        teaser = " ".join(first.split()[:16]) + "…" if a.lang == "en" else first[:30] + "…"
        out.append(f'<li class="teaser"><a href="{a.path}"><h3>{_e(a.title)}</h3></a>'
                   f'<p>{_e(teaser)}</p><time>{a.published:%d %b %Y}</time></li>')
    return f'<ul class="teasers">{"".join(out)}</ul>'


def _listing(title: str, base: str, items: list[ArticleSpec], per_page: int, lang: str,
             rng: random.Random, most_read: list[ArticleSpec],
             write: callable) -> list[str]:
    pages = [items[i:i + per_page] for i in range(0, len(items), per_page)] or [[]]
    paths = []
    for n, chunk in enumerate(pages, start=1):
        path = base if n == 1 else f"{base}page/{n}/"
        nav = []
        if n > 1:
            nav.append(f'<a rel="prev" href="{base if n == 2 else f"{base}page/{n - 1}/"}">'
                       f'{UI[lang]["prev"]}</a>')
        nav += [f'<a href="{base if k == 1 else f"{base}page/{k}/"}">{k}</a>'
                for k in range(max(1, n - 3), min(len(pages), n + 3) + 1)]
        if n < len(pages):
            nav.append(f'<a rel="next" href="{base}page/{n + 1}/">{UI[lang]["next"]}</a>')
        main = (f'<nav class="breadcrumbs"><a href="/">{UI[lang]["home"]}</a> › '
                f"<span>{_e(title)}</span></nav><h1>{_e(title)}</h1>{_teasers(chunk)}"
                f'<nav class="pagination">{" ".join(nav)}</nav>')
        ld = {"@context": "https://schema.org", "@type": "CollectionPage", "name": title}
        write(path, _page(lang=lang, title=title if n == 1 else f"{title} – page {n}", path=path,
                          main=main, rng=rng, most_read=most_read, ld=ld))
        paths.append(path)
    return paths


_STATIC_PAGES = {
    "/about/": ("About us", "AboutPage", [
        "The Harbour Gazette has reported on the towns and villages of the northern coast since "
        "1887. Today our newsroom of forty journalists publishes around the clock online and "
        "prints a weekend edition that is delivered to more than twenty thousand homes.",
        "We are owned by a charitable trust, which means that every pound we earn is spent on "
        "journalism. Our editorial code is published in full and our readers' editor answers "
        "complaints within ten working days.",
    ]),
    "/contact/": ("Contact us", "ContactPage", [
        "Newsroom: 01632 960 123, open every day from 7am to 11pm. Send tips and press "
        "releases to news@harbourgazette.example.",
        "Subscriptions and deliveries: 01632 960 456, Monday to Friday, 9am to 5pm.",
    ]),
    "/subscribe/": ("Subscribe", "WebPage", [
        "Unlimited access to every article, the daily puzzle and the weekend edition, from "
        "one pound a week for the first three months. Cancel any time.",
    ]),
    "/login/": ("Sign in", "WebPage", ["Sign in with your email address and password."]),
    "/privacy/": ("Privacy and cookies", "WebPage", [
        "This notice explains what personal data we collect when you visit our website, why we "
        "collect it and how long we keep it. We collect the information you give us when you "
        "register, subscribe or comment, and technical information about your device and "
        "browser. We use it to provide the services you asked for, to keep our website secure, "
        "to understand which articles are read and, if you agree, to show you advertising that "
        "is relevant to you. You can change your cookie choices at any time through the link "
        "at the bottom of every page, and you can ask us for a copy of the data we hold about "
        "you or ask us to delete it.",
        "We keep comment and account data for as long as your account is open, and analytics "
        "data for twenty-six months. We share data with processors who host our website, send "
        "our newsletters and sell advertising on our behalf, under contracts that require them "
        "to protect it. Some of these processors are located outside the country, in which "
        "case we rely on standard contractual clauses approved by the regulator.",
    ]),
}


def build_site(dest: str | Path, n_articles: int = DEFAULT_ARTICLES, seed: int = 7) -> Manifest:
    """Write the site under ``dest/site`` and the manifest to ``dest/manifest.json``."""
    dest = Path(dest)
    root = dest / "site"
    rng = random.Random(seed + 1)
    articles = make_articles(n_articles, seed)
    newest = sorted(articles, key=lambda a: a.published, reverse=True)
    manifest = Manifest()

    def write(path: str, text: str, encoding: str = "utf-8") -> None:
        rel = path.split("?")[0].lstrip("/")
        target = root / rel / "index.html" if path.endswith("/") else root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode(encoding, errors="xmlcharrefreplace"))

    for i, a in enumerate(articles):
        stride = [articles[(i + k * 7 + 1) % len(articles)] for k in range(9)]
        # An edition's "related" box links its own language, as real editions do.
        same = [o for o in stride if o.lang == a.lang]
        if len(same) < 4:  # the rest are needed only this far: a big site builds in linear time
            same += islice((o for o in articles
                            if o.lang == a.lang and o is not a and o not in stride), 4 - len(same))
        others = same[:4] + [o for o in stride if o not in same[:4]][:5]
        write(a.path, _article_html(a, rng, others), a.encoding)
        manifest.articles.append({
            "path": a.path, "title": a.title, "lang": a.lang, "text": a.text,
            "encoding": a.encoding, "listed": a.listed, "declares_type": a.declares_type,
            "published": a.published.isoformat()})
    most_read = newest[:5]
    # Front page, sections with pagination, the Chinese section, tags, authors.
    front = (f"<h1>{SITE_NAME}</h1><section><h2>Latest</h2>{_teasers(newest[:12])}</section>"
             + "".join(f'<section><h2><a href="/{s}/">{v["label"]}</a></h2>'
                       f'{_teasers([a for a in newest if a.section == s][:3])}</section>'
                       for s, v in SECTIONS_EN.items()))
    write("/", _page(lang="en", title="News from the northern coast", path="/", main=front,
                     rng=rng, most_read=most_read,
                     ld={"@context": "https://schema.org", "@type": "WebSite",
                         "name": SITE_NAME}))
    manifest.non_articles.append("/")
    for s, v in SECTIONS_EN.items():
        items = [a for a in newest if a.section == s]
        manifest.non_articles += _listing(v["label"], f"/{s}/", items, 5, "en", rng, most_read,
                                          write)
    manifest.non_articles += _listing("中文新闻", "/zh/", [a for a in newest if a.lang == "zh"],
                                      5, "zh", rng, most_read, write)
    tags: dict[str, list[ArticleSpec]] = {}
    for a in newest:
        for t in a.tags:
            tags.setdefault(t, []).append(a)
    for t, items in tags.items():
        manifest.non_articles += _listing(f"Topic: {t}", f"/tag/{_tag_slug(t)}/", items, 20,
                                          "en", rng, most_read, write)
    authors: dict[str, list[ArticleSpec]] = {}
    for a in newest:
        authors.setdefault(a.author, []).append(a)
    for name, items in authors.items():
        manifest.non_articles += _listing(name, f"/author/{_author_slug(name)}/", items, 20,
                                          items[0].lang, rng, most_read, write)
    for path, (title, kind, paras) in _STATIC_PAGES.items():
        main = f"<h1>{title}</h1>" + "".join(f"<p>{_e(p)}</p>" for p in paras)
        write(path, _page(lang="en", title=title, path=path, main=main, rng=rng,
                          most_read=most_read,
                          ld={"@context": "https://schema.org", "@type": kind, "name": title}))
        manifest.non_articles.append(path)
    # A page robots.txt forbids: article-shaped, in the sitemap, must never be fetched.
    memo = ArticleSpec(DISALLOWED, "Staff memo on the newsroom reorganisation plan", "world",
                       "en", date(2024, 6, 1), "Helen Marsh",
                       [("p", p) for p in _paragraphs(random.Random(1),
                                                      SECTIONS_EN["business"]["sentences"],
                                                      SLOTS_EN, 5, " ")], ["internal"])
    write(DISALLOWED, _article_html(memo, rng, newest[:9]))
    # Discovery files.
    listed = [a for a in newest if a.listed]
    _write_discovery(write, listed, manifest)
    (dest / "manifest.json").write_text(
        json.dumps(asdict(manifest), ensure_ascii=False, indent=1), "utf-8")
    return manifest


def _write_discovery(write: callable, listed: list[ArticleSpec], manifest: Manifest) -> None:
    write("/robots.txt", "User-agent: *\nDisallow: /private/\nDisallow: /search\n"
                         "Crawl-delay: 0\n\nSitemap: __BASE__/sitemap_index.xml\n")
    by_month: dict[str, list[ArticleSpec]] = {}
    for a in listed:
        by_month.setdefault(f"{a.published:%Y-%m}", []).append(a)
    names = []
    for month, items in sorted(by_month.items()):
        for k in range(0, len(items), 1000):
            name = f"/sitemaps/articles-{month}-{k // 1000 + 1}.xml"
            urls = "".join(f"<url><loc>__BASE__{a.path}</loc>"
                           f"<lastmod>{a.published.isoformat()}</lastmod></url>"
                           for a in items[k:k + 1000])
            write(name, '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns='
                        f'"http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>\n')
            names.append(name)
    pages = [p for p in manifest.non_articles if "/page/" not in p] + [DISALLOWED]
    write("/sitemaps/pages.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns='
          '"http://www.sitemaps.org/schemas/sitemap/0.9">'
          + "".join(f"<url><loc>__BASE__{p}</loc></url>" for p in pages) + "</urlset>\n")
    news = "".join(
        f"<url><loc>__BASE__{a.path}</loc><news:news><news:publication><news:name>{SITE_NAME}"
        f"</news:name><news:language>{a.lang}</news:language></news:publication>"
        f"<news:publication_date>{a.published.isoformat()}</news:publication_date>"
        f"<news:title>{_e(a.title)}</news:title></news:news></url>" for a in listed[:10])
    write("/sitemaps/news.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns='
          '"http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news='
          f'"http://www.google.com/schemas/sitemap-news/0.9">{news}</urlset>\n')
    index = "".join(f"<sitemap><loc>__BASE__{n}</loc></sitemap>"
                    for n in ["/sitemaps/news.xml", "/sitemaps/pages.xml", *names])
    write("/sitemap_index.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns='
          f'"http://www.sitemaps.org/schemas/sitemap/0.9">{index}</sitemapindex>\n')
    items = "".join(
        f"<item><title>{_e(a.title)}</title><link>__BASE__{a.path}</link>"
        f"<guid>__BASE__{a.path}</guid><pubDate>{a.published:%a, %d %b %Y} 06:00:00 +0000"
        f"</pubDate><description>{_e(a.description)}</description></item>"
        for a in listed[:15])
    write("/rss.xml", '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
          f"<title>{SITE_NAME}</title><link>__BASE__/</link><description>Latest news"
          f"</description>{items}</channel></rss>\n")
    write("/static/site.css", "body{font-family:Georgia,serif;max-width:60rem;margin:auto}\n")

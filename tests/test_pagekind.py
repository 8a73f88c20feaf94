# ruff: noqa: E501  (Korean sentences: one per line reads better than wrapped)
"""The page classifier: its model file is checked when it loads, and the pages real sites
broke the old hand rules with are decided right (small pages written here, not copied)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from compiledutil import compiled_walks

from newscrawl.extraction import Extractor
from newscrawl.extraction.model import ModelMismatch
from newscrawl.extraction.pagekind import (
    MARKUP_FEATURES,
    PAGE_CLASSES,
    PAGE_FEATURE_NAMES,
    PAGE_FEATURE_VERSION,
    WORDS_TEXT_CHARS,
    PageModel,
    PageWords,
    article_features,
    page_features,
)
from newscrawl.extraction.xgboost_lean import import_xgboost

xgb = import_xgboost()

SENTENCES = [
    "The city council voted late on Tuesday to close the old ferry terminal at the end of the "
    "year, ending more than a century of crossings from the harbour.",
    "Councillors who backed the plan said the terminal had lost money for a decade and that "
    "repairs to its pier would cost more than a new bridge.",
    "Residents of the island packed the public gallery, and several of them warned that older "
    "people would be cut off from the hospital on the mainland.",
    "The mayor told reporters after the vote that a bus service would run across the bridge "
    "every twenty minutes from the first week of January.",
    "Opponents have until the end of the month to ask for a review, and a group of fishermen "
    "said they had already hired a lawyer to prepare one.",
    "Figures released by the transport office show that the number of passengers fell by a "
    "third between the spring of last year and the summer of this one.",
    "The ferry company, which employs forty people, said it would try to find other work for "
    "its crews on the routes it runs further along the coast.",
    "A spokeswoman for the regional government said it had not been consulted and would study "
    "the decision before saying whether it would step in.",
    "Engineers who inspected the pier in March found cracks in two of its supporting columns "
    "and recommended that heavy vehicles be kept off it at once.",
    "Shopkeepers near the terminal fear that the loss of passengers will empty the street that "
    "leads down to the water, where most of them have traded for years.",
    "The council's own report admits that the bridge will add twenty minutes to the journey "
    "for people who live at the northern end of the island.",
    "Historians have asked that the terminal building, which opened in 1911, be listed so that "
    "it cannot be demolished once the last ferry has left.",
    "Several councillors who voted for the closure said they had received abusive messages "
    "in the days before the meeting and had reported them to the police.",
    "The school board said children from the island would be taken to classes by a special "
    "bus, and that no pupil would have to change schools because of the closure.",
    "At the harbour on Wednesday morning the first ferry left on time, carrying a handful of "
    "commuters and a delivery van loaded with bread for the island's only bakery.",
    "The captain, who has worked on the route for twenty-two years, said he would make the "
    "last crossing himself and then retire to the house he was born in.",
]

KOREAN = [
    "서울시는 화요일 오후 시의회에서 오래된 여객선 터미널을 올해 말에 폐쇄하기로 결정했다고 밝혔다.",
    "시의원들은 터미널이 지난 십 년 동안 적자를 냈으며 부두를 수리하는 비용이 새 다리를 놓는 것보다 많다고 설명했다.",
    "섬 주민들은 회의장을 가득 메웠고 일부 주민은 노인들이 본토의 병원에 가기 어려워질 것이라고 걱정했다.",
    "시장은 표결 직후 기자들에게 내년 1월 첫째 주부터 다리를 건너는 버스가 이십 분마다 운행될 것이라고 말했다.",
    "반대하는 주민들은 이달 말까지 재심을 요청할 수 있으며 어민 단체는 이미 변호사를 선임했다고 전했다.",
    "교통 당국이 발표한 자료에 따르면 승객 수는 지난해 봄부터 올해 여름 사이에 삼분의 일이 줄었다.",
    "마흔 명을 고용하고 있는 선박 회사는 해안을 따라 운영하는 다른 노선에서 선원들의 일자리를 찾겠다고 밝혔다.",
    "지방 정부 대변인은 사전에 협의를 받지 못했다며 결정 내용을 검토한 뒤 입장을 내겠다고 말했다.",
    "삼월에 부두를 점검한 기술자들은 기둥 두 개에서 균열을 발견하고 대형 차량의 통행을 즉시 막아야 한다고 권고했다.",
    "터미널 근처 상인들은 승객이 줄어들면 수십 년 동안 장사해 온 거리가 텅 빌 것이라고 우려하고 있다.",
]

NAV = ('<header><a href="/">The Daily Example</a><nav><ul>'
       + "".join(f'<li><a href="/{s}/">{s.title()}</a></li>'
                 for s in ("world", "politics", "business", "sport", "culture", "opinion"))
       + "</ul></nav></header>")
FOOTER = ('<footer><a href="/about/">About</a> <a href="/privacy/">Privacy</a> '
          '<a href="/contact/">Contact</a><p>© The Daily Example</p></footer>')


def _page(title: str, main: str, *, og_type: str | None = None, lang: str = "en",
          ld_type: str | None = None) -> str:
    head = f"<title>{title}</title>"
    if og_type:
        head += f'<meta property="og:type" content="{og_type}">'
    if ld_type:
        head += ('<script type="application/ld+json">{"@context": "https://schema.org", '
                 f'"@type": "{ld_type}", "headline": "{title}"}}</script>')
    return (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">{head}</head>'
            f"<body>{NAV}<main>{main}</main>{FOOTER}</body></html>")


def _story(title: str, sentences: list[str], paragraphs: int, per: int = 3, sep: str = " ",
           byline: str = "By Ana Pereira") -> str:
    body = "".join(f"<p>{sep.join(sentences[(i * per + k) % len(sentences)] for k in range(per))}"
                   "</p>" for i in range(paragraphs))
    return (f'<article><h1>{title}</h1><p class="byline">{byline} · 18 November 2019</p>'
            f'<div class="story-body">{body}</div></article>')


def _teasers(n: int, base: str = "/2019/11/") -> str:
    items = "".join(
        f'<div class="card"><a href="{base}{i:02d}/ferry-story-number-{i}/index.html">'
        f"<h3>{SENTENCES[i % len(SENTENCES)][:60]}</h3></a>"
        f"<p>{' '.join(SENTENCES[(i + 3) % len(SENTENCES)].split()[:14])}…</p>"
        f"<time>{i + 1} November 2019</time></div>" for i in range(n))
    return f'<div class="grid">{items}</div>'


@pytest.fixture(scope="module")
def extractor() -> Extractor:
    return Extractor()


@pytest.fixture(scope="module")
def model() -> PageModel:
    return PageModel.load()


def _decide(extractor: Extractor, model: PageModel, html: str, url: str):
    art = extractor.extract(html.encode("utf-8"), url)
    assert art.ok, art.reason
    return model.decide(art, "link")


def test_cnn_like_index_html_article_is_an_article(extractor, model) -> None:
    html = _page("Ferry terminal to close", _story("Ferry terminal to close", SENTENCES, 7),
                 og_type="article")
    kind = _decide(extractor, model, html,
                   "https://edition.example.com/2019/11/18/politics/ferry-terminal-close/"
                   "index.html")
    assert kind.is_article, kind


def test_korean_view_url_with_page_parameter_is_an_article(extractor, model) -> None:
    html = _page("여객선 터미널 폐쇄", _story("여객선 터미널 폐쇄", KOREAN, 6, per=2,
                                           byline="김민수 기자"), lang="ko")
    kind = _decide(extractor, model, html,
                   "http://www.daily.example.kr/news/news_view.html?idx=8576&page=1&bc=03")
    assert kind.is_article, kind


def test_website_declared_article_with_long_prose_is_an_article(extractor, model) -> None:
    html = _page("Ferry terminal to close", _story("Ferry terminal to close", SENTENCES, 12),
                 og_type="website", ld_type="WebPage")
    art = extractor.extract(html.encode(), "https://www.example.com/news/ferry-terminal-close")
    assert art.page_type in ("webpage", "website")
    assert len(art.text.split()) >= 700
    kind = model.decide(art, "link")
    assert kind.is_article, kind


def test_tag_page_of_teasers_is_not_an_article(extractor, model) -> None:
    html = _page("Topic: ferries", "<h1>Ferries</h1>" + _teasers(14), og_type="website")
    kind = _decide(extractor, model, html, "https://www.example.com/tag/ferries/")
    assert not kind.is_article, kind


def test_section_page_of_teasers_is_not_an_article(extractor, model) -> None:
    intro = f"<p>{SENTENCES[0]}</p>"
    html = _page("Politics", "<h1>Politics</h1>" + intro + _teasers(18, "/politics/2019/11/"),
                 og_type="website", ld_type="CollectionPage")
    kind = _decide(extractor, model, html, "https://www.example.com/politics/")
    assert not kind.is_article, kind


def test_features_are_one_row_in_the_models_order() -> None:
    row = page_features(url="http://www.daily.example.kr/news/news_view.html?idx=8576&page=1",
                        text="a\n\nb", found_via=None)
    assert row.shape == (len(PAGE_FEATURE_NAMES),) and row.dtype == np.float32
    names = list(PAGE_FEATURE_NAMES)
    assert row[names.index("url_query_keys")] == 2
    assert row[names.index("url_query_digit_run")] == 4
    assert row[names.index("url_ext_html")] == 1
    assert np.isnan(row[names.index("via_link")])  # unknown, not "not a link"
    assert page_features(url=None, text="", found_via="link")[names.index("via_link")] == 1


def _markup(extractor: Extractor, body: str, head: str = "") -> dict[str, float]:
    html = f"<html><head><title>t</title>{head}</head><body>{body}</body></html>"
    art = extractor.extract(html.encode(), "https://www.example.com/page")
    assert art.ok, art.reason
    return dict(zip(MARKUP_FEATURES, art.signals.markup, strict=True))


def test_markup_tells_a_story_from_pages_whose_prose_reads_like_one(extractor) -> None:
    """What a forum thread, a doc page, a shop's page and a list of teasers hold besides their
    prose reaches the classifier; a plain story holds none of it."""
    story = "".join(f"<p>{s}</p>" for s in SENTENCES[:6])
    plain = _markup(extractor, f"<article><h1>Ferry</h1>{story}</article>")
    assert plain["any_posting_type"] == plain["any_product_type"] == plain["forms"] == 0
    assert plain["repeated_blocks"] == plain["prices"] == 0

    posts = "".join(
        f'<div class="post" itemprop="comment" itemscope itemtype="https://schema.org/Comment">'
        f'<span itemprop="author">user{i}</span><time datetime="2024-05-0{i + 1}">{i + 1} May'
        f"</time><p>{SENTENCES[i]}</p></div>" for i in range(4))
    ld = ('<script type="application/ld+json">{"@type": "DiscussionForumPosting", '
          '"comment": [{"@type": "Comment"}]}</script>')
    forum = _markup(extractor, f"<h1>Ferry?</h1>{posts}", ld)
    assert forum["any_posting_type"] == 1 and forum["reply_items"] == 5
    assert forum["author_props"] == pytest.approx(np.log1p(4))
    assert forum["distinct_times"] == pytest.approx(np.log1p(4))

    tree = "<nav><ul><li><a href='/a'>a</a><ul><li><a href='/b'>b</a><ul><li><a href='/c'>c"
    docs = _markup(extractor, f"{tree}</a></li></ul></li></ul></li></ul></nav><h1>Install</h1>"
                   f"{story}<pre><code>pip install ferry==2.4.1</code></pre>")
    assert docs["list_depth"] == 3
    assert docs["nav_links"] == pytest.approx(np.log1p(3))
    assert docs["pre_page_share"] > 0 and docs["code_elements"] > 0

    offer = ('<script type="application/ld+json">{"@type": "Product", "offers": '
             '{"@type": "Offer", "price": "48.99"}}</script>')
    shop = _markup(extractor, f"<h1>Roller</h1>{story}<p>Now $ 48.99, was 59,00 €.</p>"
                   "<form><input type='hidden' name='id'><input name='qty'><select></select>"
                   "<button>Add to cart</button></form>", offer)
    assert shop["any_product_type"] == 1 and shop["forms"] == 1 and shop["inputs"] == 1
    assert shop["buttons"] == shop["selects"] == 1
    assert shop["prices"] == pytest.approx(np.log1p(2))

    grid = _markup(extractor, "<h1>Ferries</h1>" + _teasers(12))
    assert grid["repeated_blocks"] == pytest.approx(np.log1p(12))
    assert grid["time_elements"] == pytest.approx(np.log1p(12))


def test_prices_are_counted_as_the_price_pattern_counts_them_over_the_whole_text() -> None:
    """``price_count`` runs the pattern only around currency signs; the count must be the
    whole text's: runs of digits before a sign, signs side by side, non-ASCII digits and
    spaces, a sign at either end."""
    import random

    from newscrawl.extraction.pagekind import _PRICE, price_count

    cases = ["", "$", "5$", "$5$5", "1,000,000.00 \u20ac and \u00a3 3", "\u0663\u0664\u00a0$",
             "Price: 12.99 $ 4 \u00a5\n7", "no signs 123"]
    rng = random.Random(7)
    cases += ["".join(rng.choice("01 .,$\u20ac\u00a5a\n\u00a0\u0663")
                      for _ in range(rng.randint(0, 16))) for _ in range(20000)]
    assert [price_count(t) for t in cases] == [len(_PRICE.findall(t)) for t in cases]


def test_a_menu_that_links_the_page_itself_marks_a_sites_fixed_page() -> None:
    """A privacy page's footer links the privacy page; a story's template does not link the
    story. Links into the page (skip links, comments), a breadcrumb's last step and an
    article's own footer are on stories too, and are not counted."""
    from lxml import etree

    from newscrawl.extraction.pagekind import menu_self_links

    def count(body: str, url: str = "https://www.example.com/privacy/") -> int:
        return menu_self_links(etree.HTML(f"<html><body>{body}</body></html>"), url)

    footer = "<footer><ul><li><a href='/about/'>About</a></li>{}</ul></footer>"
    own = "<li><a href='/privacy/'>Privacy</a></li>"
    assert count(footer.format(own)) == 1
    assert count(footer.format("<li><a href='https://example.com/privacy'>P</a></li>")) == 1
    assert count("<div class='site-nav'><a href='../privacy/'>Privacy</a></div>",
                 "https://www.example.com/privacy/") == 1
    assert count(footer.format("")) == 0
    assert count(f"<p>{own}</p>") == 0  # not in a menu
    assert count("<nav><a href='/privacy/#main'>Skip to content</a></nav>") == 0
    assert count("<nav class='breadcrumb'><a href='/privacy/'>Privacy</a></nav>") == 0
    assert count("<article><p>Story</p><footer><a href='/privacy/'>Link</a></footer>"
                 "</article>") == 0
    assert count(footer.format(own), "https://www.example.com/") == 0  # a root has no name
    assert count(footer.format(own), None) == 0


def test_titles_named_like_the_sites_footer_links_read_as_fixed_pages() -> None:
    """The weights come from footers and titles alone: a word in many sites' footer links
    and few titles ("privacy") weighs nearly 1, one in both ("and") about half, a story's
    words nothing; a page's own footer link words count, not those in its article."""
    from collections import Counter

    from lxml import etree

    from newscrawl.extraction.pagekind import (
        MENU_MIN_DOMAINS,
        footer_link_words,
        menu_score,
        menu_word_weights,
    )

    root = etree.HTML("<html><body><article><p><a href='/x'>Storm news</a></p><footer>"
                      "<a href='/by'>By the desk</a></footer></article><div id='site-footer'>"
                      "<a href='/privacy'>Privacy and cookies</a></div>"
                      "<footer><a href='/kontakt'>Kontakt</a></footer></body></html>")
    assert footer_link_words(root) == {"privacy", "and", "cookies", "kontakt"}
    n = MENU_MIN_DOMAINS
    weights = menu_word_weights(
        Counter({"privacy": 10 * n, "and": 10 * n, "cookies": 5 * n, "rare": n - 1}),
        Counter({"and": 10 * n, "storm": 3 * n}))
    assert "rare" not in weights and "storm" not in weights
    assert weights["privacy"] > 0.95 and 0.45 < weights["and"] < 0.55
    assert menu_score(weights, "Privacy and cookies") > 0.8
    assert menu_score(weights, "Storm closes the coast road and the harbour") < 0.1
    assert menu_score(weights, "") is None


def test_page_words_file_keeps_the_menu_weights(tmp_path) -> None:
    words = PageWords([0.0] * len(PAGE_CLASSES), {"reply": [1.0] * len(PAGE_CLASSES)},
                      {"privacy": 0.97, "and": 0.5})
    words.save(tmp_path / "w.json")
    loaded = PageWords.load(tmp_path / "w.json")
    assert loaded == words and loaded.menu_score("Privacy") == 0.97


def _booster(names: list[str], version: str | None = str(PAGE_FEATURE_VERSION),
             threshold: str | None = "0.5",
             classes: str = " ".join(PAGE_CLASSES)) -> xgb.Booster:
    rng = np.random.default_rng(0)
    X = rng.random((70, len(names)), dtype=np.float32)
    y = (X[:, 0] * len(PAGE_CLASSES)).astype(int)
    booster = xgb.train({"objective": "multi:softprob", "num_class": len(PAGE_CLASSES),
                         "max_depth": 2, "nthread": 1},
                        xgb.DMatrix(X, label=y, feature_names=names), num_boost_round=3)
    booster.set_attr(newscrawl_page_classes=classes)
    if version is not None:
        booster.set_attr(newscrawl_page_feature_version=version)
    if threshold is not None:
        booster.set_attr(newscrawl_threshold=threshold)
    return booster


def test_model_with_the_codes_features_loads_and_predicts(tmp_path) -> None:
    path = tmp_path / "pages.ubj"
    booster = _booster(list(PAGE_FEATURE_NAMES))
    booster.save_model(str(path))
    loaded = PageModel.load(path)
    X = np.random.default_rng(1).random((5, len(PAGE_FEATURE_NAMES)), dtype=np.float32)
    assert loaded.threshold == 0.5
    softmax = booster.predict(xgb.DMatrix(X, feature_names=list(PAGE_FEATURE_NAMES)))
    article = PAGE_CLASSES.index("article")
    np.testing.assert_allclose(loaded.probability(X), softmax[:, article], rtol=1e-6)
    assert not np.allclose(softmax[:, article], softmax[:, article + 1])


def test_model_of_other_page_classes_refuses_to_load(tmp_path) -> None:
    path = tmp_path / "pages.ubj"
    _booster(list(PAGE_FEATURE_NAMES), classes=" ".join(reversed(PAGE_CLASSES))).save_model(
        str(path))
    with pytest.raises(ModelMismatch, match="page classes"):
        PageModel.load(path)


def test_model_with_reordered_features_refuses_to_load(tmp_path) -> None:
    names = list(PAGE_FEATURE_NAMES)
    names[3], names[4] = names[4], names[3]
    path = tmp_path / "pages.ubj"
    _booster(names).save_model(str(path))
    with pytest.raises(ModelMismatch, match=f"column 3 is {names[3]!r}"):
        PageModel.load(path)


def test_model_missing_a_feature_or_of_another_version_refuses_to_load(tmp_path) -> None:
    path = tmp_path / "pages.ubj"
    _booster(list(PAGE_FEATURE_NAMES)[:-1]).save_model(str(path))
    with pytest.raises(ModelMismatch, match="features"):
        PageModel.load(path)
    _booster(list(PAGE_FEATURE_NAMES), version="0").save_model(str(path))
    with pytest.raises(ModelMismatch, match="version"):
        PageModel.load(path)
    _booster(list(PAGE_FEATURE_NAMES), threshold=None).save_model(str(path))
    with pytest.raises(ModelMismatch, match="threshold"):
        PageModel.load(path)


def test_shipped_model_names_its_features_and_threshold(model) -> None:
    assert tuple(model.booster.feature_names) == PAGE_FEATURE_NAMES
    assert 0.0 < model.threshold < 1.0
    # It runs once a page: 160 trees of depth 3 take ~0.13 ms, extraction ~30 ms.
    assert model.booster.num_boosted_rounds() <= 200


def test_url_model_orders_but_is_checked_too(model, tmp_path) -> None:
    """The URL-only companion scores a URL before download (for request priority); a
    companion over other columns refuses to load with its main model."""
    p = model.url_probability("https://www.example.com/2019/11/18/politics/ferry/index.html")
    assert p is not None and 0.0 <= p <= 1.0
    main = _booster(list(PAGE_FEATURE_NAMES))
    main.set_attr(newscrawl_url_model="pages.url.ubj")
    main.save_model(str(tmp_path / "pages.ubj"))
    _booster(list(PAGE_FEATURE_NAMES)[:5]).save_model(str(tmp_path / "pages.url.ubj"))
    with pytest.raises(ModelMismatch, match="pages.url.ubj"):
        PageModel.load(tmp_path / "pages.ubj")


def test_article_decision_is_the_classifiers_unless_the_site_rules_out(extractor,
                                                                          model) -> None:
    """``pipelines.article_decision``, which the crawl and ``newscrawl extract`` on a WARC
    both call: a site's ``article_deny``/``article_allow`` (url_kind ``listing``) rules a page
    out; otherwise the page classifier decides, with or without how the page was found."""
    from newscrawl.pipelines import article_decision

    story = extractor.extract(_page("Ferry terminal to close", _story(
        "Ferry terminal to close", SENTENCES, 7), og_type="article").encode(),
        "https://www.example.com/2019/11/18/ferry-terminal-close")
    tag = extractor.extract(_page("Topic: ferries", "<h1>Ferries</h1>" + _teasers(14)).encode(),
                            "https://www.example.com/tag/ferries/")
    assert article_decision(story, "unknown", None, model)[0]
    assert article_decision(story, "unknown", "sitemap", model)[0]
    assert article_decision(story, "listing", "sitemap", model) == (
        False, "the site's URL patterns")
    is_article, why = article_decision(tag, "unknown", "link", model)
    assert not is_article and why.startswith("p(article) ")


def test_words_of_are_the_letter_runs_of_the_lower_cased_text() -> None:
    """Tokens are read apart only as a shortcut: the words must be the letter runs of the
    whole text, split at digits, underscores, punctuation and combining marks alike."""
    from newscrawl.extraction.pagekind import _LETTERS, words_of

    text = ("Reply (reply) REPLY\u00a0x\u00b2y snake_case 2024-05 covid19 \u0939\u093f\u0928\u094d\u0926\u0940 "
            "\u4eca\u5929\u4e0b\u96ea\u4e86\u3002\u5317\u4eac caf\u00e9 \u0130stanbul e-mail")
    assert words_of(text) == set(_LETTERS.findall(text.lower()))
    assert {"reply", "x\u00b2y", "snake", "case", "covid", "caf\u00e9", "e", "mail"} <= words_of(text)


def test_page_words_score_distinct_words_without_digits_or_case(tmp_path) -> None:
    zeros = (0.0,) * (len(PAGE_CLASSES) - 2)
    words = PageWords((-0.5, 0.25, *zeros),
                      {"reply": (-1.0, 1.0, *zeros), "joined": (-0.75, 0.0, *zeros),
                       "published": (0.5, -0.5, *zeros)})
    assert words.score("Reply reply REPLY\nJoined 2019")[:2] == pytest.approx((-2.25, 1.25))
    assert words.score("Published 12 May; 2024 posts")[:2] == pytest.approx((0.0, -0.25))
    assert words.score("")[:2] == pytest.approx((-0.5, 0.25))
    # A huge page is read only so far: its words past the limit do not count.
    assert words.score("x " * WORDS_TEXT_CHARS + "reply")[:2] == pytest.approx((-0.5, 0.25))
    assert words.score("reply") is not words.score("reply")  # the intercepts stay unchanged
    assert words.score("")[:2] == pytest.approx((-0.5, 0.25))
    words.save(tmp_path / "w.json", newscrawl_model_name="w")
    assert PageWords.load(tmp_path / "w.json") == words
    (tmp_path / "x.json").write_text('{"weights": {}}')
    with pytest.raises(ModelMismatch, match="page-words"):
        PageWords.load(tmp_path / "x.json")
    data = json.loads((tmp_path / "w.json").read_text())
    data["classes"] = ["article", "other"]
    (tmp_path / "y.json").write_text(json.dumps(data))
    with pytest.raises(ModelMismatch, match="classes"):
        PageWords.load(tmp_path / "y.json")


def test_shipped_page_words_tell_a_forums_furniture_from_a_news_sites(extractor,
                                                                      model) -> None:
    """The words regression the shipped classifier reads: a thread's furniture counts
    for a forum against an article, a newspaper's the other way; the decision's row carries
    its scores."""
    assert model.words is not None and model.words.index
    article, forum = PAGE_CLASSES.index("article"), PAGE_CLASSES.index("forum")

    def article_over_forum(text: str) -> float:
        scores = model.words.score(text)
        return float(scores[article] - scores[forum])

    thread = "Forum index\nReply\nQuote\nJoined\nPosts\nRegister\nCommunity\nThread tools"
    news = "News\nPublished\nShare this article\nNewsletter\nCopyright"
    assert article_over_forum(thread) < article_over_forum("") < article_over_forum(news)
    art = extractor.extract(_page("Ferry terminal to close", _story(
        "Ferry terminal to close", SENTENCES, 7)).encode(),
        "https://www.example.com/2019/11/18/ferry-terminal-close")
    columns = slice(PAGE_FEATURE_NAMES.index("page_words_article"),
                    PAGE_FEATURE_NAMES.index("page_words_article") + len(PAGE_CLASSES))
    row = article_features(art, words=model.words)
    assert row[columns] == pytest.approx(model.words.score(art.signals.page_text), rel=1e-6)
    assert np.isnan(article_features(art)[columns]).all()


def test_spider_orders_page_requests_by_what_the_url_says() -> None:
    """A dated story URL is requested before a tag page; both are requested."""
    from scrapy.utils.test import get_crawler

    from newscrawl.spiders.news import NewsSpider

    crawler = get_crawler(NewsSpider)
    spider = NewsSpider.from_crawler(crawler, url="http://n.example/")
    site = spider.sites["n.example"]
    story = spider._page_request(site, "http://n.example/world/2024/05/12/a-story-about-boats"
                                 ".html", "link", hops=1)
    tag = spider._page_request(site, "http://n.example/tag/boats/", "link", hops=1)
    assert 0 <= tag.priority < story.priority <= 10
    assert story.meta["newscrawl_page"] and tag.meta["newscrawl_page"]


def test_train_pages_writes_a_model_that_loads(tmp_path, capsys) -> None:
    """The training command end to end, on pages written here (WCXB's layout): a model, its
    URL companion and a card, loaded back through the checks a crawl uses."""
    from datautil import write_labelled_page
    from modelutil import keep_all_model

    from newscrawl.cli import main

    dev = tmp_path / "set" / "dev"
    for i in range(8):
        host = f"https://www.site{i}.example"
        write_labelled_page(dev, f"{i:04d}a", _page("Ferry", _story("Ferry", SENTENCES[i:], 6)),
                            "text", f"{host}/2024/05/0{i + 1}/ferry-terminal-story-{i}",
                            title="Ferry terminal to close")
        write_labelled_page(dev, f"{i:04d}l", _page("Ferries", _teasers(10 + i)), "text",
                            f"{host}/tag/ferries/", page_type="listing")
    out = tmp_path / "models" / "pages-test.ubj"
    # a node model trained elsewhere than models/ (here a stub that keeps every node)
    (tmp_path / "trial").mkdir()
    node_model = keep_all_model(tmp_path / "trial" / "keep-all.ubj")
    assert main(["train-pages", "--data", str(tmp_path / "set"), "--folds", "2",
                 "--generated-sites", "2", "--out", str(out), "--model", str(node_model)]) == 0
    captured = capsys.readouterr()
    printed = captured.out
    assert "threshold" in printed and "precision/recall curve" in printed
    assert f"with the node model {node_model}" in captured.out + captured.err
    loaded = PageModel.load(out)
    assert loaded.url_booster is not None and 0.0 <= loaded.threshold <= 1.0
    assert loaded.words is not None and out.with_name("pages-test.words.json").is_file()
    card = out.with_suffix(".md").read_text()
    assert "newscrawl train-pages" in card and "grouped by site" in card


def test_the_threshold_lets_no_generated_listing_in():
    from newscrawl.training.pages import choose_threshold

    # 90 articles from 0.96 down to 0.07, 90 non-articles from 0.6 down to 0.015: the best
    # F2 sits low, where a listing scored 0.3 would pass
    p = np.concatenate([np.linspace(0.96, 0.07, 90), np.linspace(0.6, 0.015, 90)])
    y = np.concatenate([np.ones(90), np.zeros(90)])
    free = choose_threshold(p, y)
    assert free < 0.3
    bound = choose_threshold(p, y, listings=np.array([0.01, 0.3]))
    assert bound > 0.3
    # the chosen threshold is a score a real page has: every page at or above it is let in
    assert bound in p and free in p
    # listings the curve's peak is above already change nothing
    assert choose_threshold(p, y, listings=np.array([free / 2])) == free


_SUM_IN_SET_ORDER = """
from newscrawl.extraction.pagekind import PAGE_CLASSES, PageWords
big = [1e16] + [0.0] * (len(PAGE_CLASSES) - 1)
words = {f"w{k}": [(-1) ** k * 1e16 if k % 3 else 1.0] + big[1:] for k in range(40)}
print(PageWords([0.0] * len(PAGE_CLASSES), words).score_words(set(words)).tolist())
"""


def test_page_words_score_the_same_whatever_the_hash_seed() -> None:
    """A set's order follows Python's hash seed; summed in that order, weights this far apart
    give another float each run, and a rebuilt page classifier other splits and figures."""
    outputs = {subprocess.run([sys.executable, "-c", _SUM_IN_SET_ORDER], check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout
               for seed in range(6)}
    assert len(outputs) == 1, outputs


MARKUP_PAGES = [
    "<html><body><nav><ul><li><a href='/a'>A</a></li><li><a href='/b'>B</a><ul><li>"
    "<a href='/c'>C</a></li></ul></li></ul></nav><main><article><h1>Story</h1><time "
    "datetime='2024-05-01'>May</time><time>later</time><footer><a href='/t'>Tag</a></footer>"
    "</article></main><aside><div class='card'><a href='/r1'>R1</a></div><div class='card'>"
    "<a href='/r2'>R2</a></div><div class='card'><a href='/r3'>R3</a></div></aside>"
    "<div role='contentinfo'><a href='/privacy'>Privacy</a><a>no href</a></div>"
    "<div id='siteFooter'><a href='/terms'>Terms</a></div><form><input type='HIDDEN'>"
    "<input name='q'><button>Go</button><select></select><textarea></textarea></form>"
    "<script type='application/LD+JSON'>{\"@type\": \"NewsArticle\"}</script>"
    "<script>var x = 1;</script><code>x</code><img src='a.png'><h2>Sub</h2><h3>Sub</h3>"
    "</body></html>",
    "<html><body class='has-sticky-footer'>" + "<div class='wrap'>" * 150
    + "<a href='/deep'>deep</a>" + "</div>" * 150 + "<footer>" + "<ol><li>" * 40
    + "<a href='/x'>x</a>" + "</li></ol>" * 40 + "</footer></body></html>",
]


def test_the_c_markup_walk_reads_the_raw_tree_as_the_python_walk_does() -> None:
    """``_cwalk.markup_walk`` must give ``_markup_walk``'s counts and the same footer link
    elements, on nested lists, footers by tag, role, class and id, an article's own footer,
    JSON-LD, hidden inputs and a tree deeper than its first stack allocation."""
    from lxml import etree

    from newscrawl.extraction import pagekind as PK

    compiled_walks("the Python walk")
    for html in MARKUP_PAGES:
        root = etree.HTML(html)
        python = PK._markup_walk(root)
        c = PK._C_MARKUP(root, PK._COUNTED, PK._BLOCKS, PK._NAV_TAGS, PK._MAIN_TAGS,
                         PK._PAGE_TAGS)
        assert c is not None
        assert dict(python[0]) == {k: v for k, v in c[0].items() if v}
        assert python[1:6] == c[1:6] and python[7] == c[7]
        assert len(python[6]) == len(c[6]) and all(a is b for a, b in zip(python[6], c[6],
                                                                          strict=True))
    own = ("<html><body><nav><a href='/about/'>About</a><a href='/about/#team'>Team</a>"
           "<a href='https://example.org/%61bout'>About us</a></nav><main><a href='/about/'>"
           "About</a></main><footer><a href='/about'>About</a></footer></body></html>")
    for html, url in ((own, "https://example.org/about/"), (MARKUP_PAGES[0], None)):
        in_c = PK.markup_counts(etree.HTML(html), url)[0]
        compiled, PK._C_MARKUP = PK._C_MARKUP, None
        try:
            in_python = PK.markup_counts(etree.HTML(html), url)[0]
        finally:
            PK._C_MARKUP = compiled
        assert in_c == in_python
    assert in_c["menu_self_links"] == 0 and PK.markup_counts(
        etree.HTML(own), "https://example.org/about/")[0]["menu_self_links"] == 2
    counts, footer = PK.markup_counts(etree.HTML(MARKUP_PAGES[0]), "https://example.org/")
    assert [a.get("href") for a in footer] == ["/privacy", "/terms"]
    assert counts["inputs"] == 1 and counts["distinct_times"] == pytest.approx(np.log1p(2))
    assert counts["any_posting_type"] is False and counts["list_depth"] == 2

"""``newscrawl evaluate``'s cross-validation on a small WCXB-layout page set written here."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
from datautil import write_labelled_page

from newscrawl.evaluation.evaluate import cross_validate, format_report

PROSE = ("The harbour authority said on Tuesday that the new breakwater would be finished by "
         "spring, two years later than first planned, after storms damaged the wall twice.")


def _write_page(base: Path, page_id: str, html: str, truth: str) -> None:
    write_labelled_page(base, page_id, html, truth, f"https://site{page_id}.example/news/{page_id}")


def _write_stories(tmp_path: Path, n: int) -> Path:
    """``n`` article pages, each on its own domain, with a nav and a footer around the story."""
    base = tmp_path / "dev"
    for k in range(n):
        body = f"{PROSE} Page {k} adds its own sentence about item {k}."
        _write_page(base, f"{k:04d}",
                    f"<html><body><nav><a href=/>Home</a> <a href=/n>News</a></nav>"
                    f"<article><h1>Story {k}</h1><p>{body}</p><p>{body}</p></article>"
                    f"<footer>Copyright Example</footer></body></html>", body)
    return base


def _write_news(news: Path, publishers: list[str]) -> None:
    """News pages of the given publishers, one each, on domains of their own."""
    for k, publisher in enumerate(publishers):
        body = f"{PROSE} Story {k} of the publisher."
        write_labelled_page(news, f"n{k}",
                            f"<html><body><nav><a href=/>Home</a></nav><article><h1>N{k}</h1>"
                            f"<p>{body}</p></article><footer>Footer</footer></body></html>",
                            body, f"https://news{k}.example/a", publisher=publisher)


def test_pages_without_text_nodes_count_as_empty_extractions(tmp_path: Path) -> None:
    base = _write_stories(tmp_path, 8)
    # Rendered by script only: nothing to classify, though the label has text.
    _write_page(base, "0100", "<html><body><div id=app></div><script>render()</script>"
                "</body></html>", PROSE)

    result = cross_validate(str(tmp_path), folds=2, models=["density"])
    assert result["pages"] == 8 and result["textless_pages"] == 1
    scored = result["models"]["density"]
    assert scored["page_all_labelled"]["all"]["n"] == 9
    # The textless page scores 0: the mean over all nine is 8/9 of the mean over eight.
    every, with_text = scored["page_all_labelled"]["all"]["f1"], scored["page"]["all"]["f1"]
    assert abs(every - with_text * 8 / 9) < 1e-9
    assert "1 pages yield no text node" in format_report(result)


def test_seeds_retrain_xgboost_on_the_same_folds_and_report_each_seed(tmp_path: Path) -> None:
    _write_stories(tmp_path, 10)
    result = cross_validate(str(tmp_path), folds=2, models=["xgboost"], seeds=2)
    seeds = result["models"]["xgboost"]["seed_page_f1"]
    assert len(seeds) == 2
    assert seeds[0] == result["models"]["xgboost"]["page"]["all"]["f1"]
    assert all(0.0 <= f <= 1.0 for f in seeds)
    assert "page F1 by training seed 0..1" in format_report(result)
    # Every page's copy in ideographs is scored on the original's words.
    respelled = result["models"]["xgboost"]["respelled"]
    assert respelled["copies"]["all"]["n"] == respelled["originals"]["all"]["n"] == 10
    assert 0.0 <= respelled["copies"]["all"]["f1"] <= 1.0
    assert "10 pages respelled in ideographs" in format_report(result)


def test_a_saved_model_is_also_scored_on_each_page_respelled_in_ideographs(tmp_path: Path) -> None:
    from newscrawl.evaluation.evaluate import respelled_text, score_model
    from newscrawl.extraction import Extractor
    from newscrawl.extraction.extractor import DEFAULT_MODEL

    base = _write_stories(tmp_path, 3)
    result = score_model(str(tmp_path), DEFAULT_MODEL, with_trafilatura=False)
    assert set(result["tools"]) == {"newscrawl", "respelled"}
    assert result["tools"]["respelled"]["page"]["all"]["n"] == 3
    assert "respelled: newscrawl on the 3 pages" in format_report(result)
    # The copy's choice is read from the page as written: the story's own words come back.
    body = gzip.decompress((base / "html" / "0001.html.gz").read_bytes())
    text = respelled_text(Extractor().model, body, "https://site0001.example/news/0001")
    assert "breakwater" in text and "Page 1 adds its own sentence" in text


def test_several_sets_are_cross_validated_together_and_scored_apart(tmp_path: Path) -> None:
    from newscrawl.evaluation.evaluate import format_report

    _write_stories(tmp_path / "first", 6)
    _write_news(tmp_path / "news" / "dev", ["Daily"] * 4)

    result = cross_validate([str(tmp_path / "first"), str(tmp_path / "news")], folds=2,
                            models=["density"], with_trafilatura=True)
    assert result["pages"] == 10
    sets = result["sets"]
    assert list(sets) == [str(tmp_path / "first"), str(tmp_path / "news")]
    assert [s["pages"] for s in sets.values()] == [6, 4]
    for per_set in sets.values():
        assert set(per_set["tools"]) == {"density", "trafilatura"}
        scores = per_set["tools"]["trafilatura"]["page"]["all"]
        assert {"precision", "recall", "f1"} <= set(scores)
    report = format_report(result)
    assert f"{tmp_path / 'news'}: 4 pages" in report and "trafilatura" in report


def test_a_set_that_mixes_scripts_is_also_scored_per_script(tmp_path: Path) -> None:
    from newscrawl.evaluation.evaluate import score_model
    from newscrawl.extraction.extractor import DEFAULT_MODEL

    _write_stories(tmp_path / "first", 4)
    news = tmp_path / "news" / "dev"
    _write_news(news, ["Daily", "Weekly", "Daily"])
    story = "東京都は二十八日、新しい防波堤の計画を発表した。工事は来年の春に終わる予定だという。"
    write_labelled_page(news, "jp", f"<html><body><nav><a href=/>ホーム</a></nav><article>"
                        f"<p>{story}</p><p>{story}</p></article></body></html>", story * 2,
                        "https://jp.example/a", publisher="Shimbun")

    result = cross_validate([str(tmp_path / "first"), str(tmp_path / "news")], folds=2,
                            models=["density"], with_trafilatura=False)
    first, mixed = (result["sets"][str(tmp_path / d)]["tools"]["density"]
                    for d in ("first", "news"))
    assert first["scripts"] == {}  # one script: nothing to split
    assert {s: v["n"] for s, v in mixed["scripts"].items()} == {"chars": 1, "words": 3}
    # The character-scored page's figure is that page's own score.
    assert 0.9 < mixed["scripts"]["chars"]["f1"] <= 1.0
    report = format_report(result)
    assert "chars pages (1): density" in report and "words pages (3): density" in report

    saved = score_model(str(tmp_path / "news"), DEFAULT_MODEL, with_trafilatura=False)
    assert saved["tools"]["newscrawl"]["scripts"]["chars"]["n"] == 1
    assert "chars pages (1): newscrawl" in format_report(saved)


def test_a_publishers_pages_share_a_fold_group_across_domains_and_sets() -> None:
    from newscrawl.evaluation.datasets import Page
    from newscrawl.training.dataset import page_groups

    pages = [Page("a", b"", "https://a.example/1", meta={"publisher": "Daily"}),
             Page("b", b"", "https://b.example/1", meta={"publisher": "Daily"}),
             Page("c", b"", "https://b.example/2"),  # the publisher's domain in another set
             Page("d", b"", "https://d.example/1", meta={"publisher": "Weekly"}),
             Page("e", b"", "https://e.example/1")]
    groups = page_groups(pages)
    assert groups[0] == groups[1] == groups[2] == "a.example"
    assert len({groups[0], groups[3], groups[4]}) == 3


def test_chinese_japanese_and_korean_news_pages_are_scored_by_characters(
        tmp_path: Path) -> None:
    from newscrawl.evaluation.datasets import load_pages, script_of

    assert script_of("東京都は二十八日、新しい計画を発表した。") == "chars"
    assert script_of("서울시는 28일 새로운 계획을 발표했다.") == "chars"
    assert script_of("La ville a présenté mardi un nouveau plan.") == "words"
    html = "<html><body><p>x</p></body></html>"
    write_labelled_page(tmp_path / "news" / "dev", "jp", html, "東京都は新しい計画を発表した。",
                        "https://jp.example/a", publisher="Shimbun")
    write_labelled_page(tmp_path / "news" / "dev", "fr", html, "La ville a présenté un plan.",
                        "https://fr.example/a", publisher="Journal")
    # WCXB's own measure is words on every page, whatever the script.
    write_labelled_page(tmp_path / "wcxb" / "dev", "zh", html, "东京都发表了新的计划。",
                        "https://zh.example/a")
    scripts = {p.page_id: p.script for d in ("news", "wcxb") for p in load_pages(tmp_path / d)}
    assert scripts == {"jp": "chars", "fr": "words", "zh": "words"}


def test_train_on_two_sets_writes_a_model_and_a_card_scoring_each_set(tmp_path: Path) -> None:
    from newscrawl.cli import main
    from newscrawl.extraction import Extractor

    _write_stories(tmp_path / "wcxb", 6)
    _write_news(tmp_path / "fundus" / "dev", ["P0", "P1", "P0", "P1"])
    out = tmp_path / "model" / "nodes-t.ubj"
    assert main(["train", "--data", str(tmp_path / "wcxb"), "--data", str(tmp_path / "fundus"),
                 "--set-weight", "fundus=2", "--folds", "2", "--out", str(out)]) == 0
    card = out.with_suffix(".md").read_text("utf-8")
    assert f"- {tmp_path / 'fundus'}: 4 labelled pages" in card
    assert "each page weighted 2 in training" in card
    assert f"Out of fold on {tmp_path / 'wcxb'} alone" in card
    assert card.count("| trafilatura |") == 2
    assert f"--data {tmp_path / 'wcxb'} --data {tmp_path / 'fundus'}" in card
    assert out.with_name("nodes-t.story.ubj").is_file()
    assert out.with_name("nodes-t.1.story.ubj").is_file()
    assert "member 2, story stage 2, XGBoost UBJ" in card
    assert "member 2, story stage 2: `{'n_estimators': 150" in card
    # The files load as a model: feature names and members checked.
    article = Extractor(out).extract(
        f"<html><body><article><p>{PROSE}</p></article></body></html>".encode(),
        "https://x.example/a")
    assert isinstance(article.text, str)


def test_the_story_stage_weighs_up_the_pages_of_sets_of_news_articles_only(tmp_path: Path) -> None:
    """A set whose every page is an article (fundus-dev) counts ``STORY_SET_WEIGHT`` times in the
    story stage 2; a set with any other page type (WCXB) keeps its weight, ``--set-weight``
    included."""
    from newscrawl.training.dataset import build_dataset
    from newscrawl.training.fit import STORY_SET_WEIGHT, story_dataset, story_rows

    _write_stories(tmp_path / "web", 3)
    write_labelled_page(tmp_path / "web" / "dev", "0900",
                        f"<html><body><ul><li>{PROSE}</li></ul></body></html>", PROSE,
                        "https://shop.example/list", page_type="listing")
    _write_news(tmp_path / "news" / "dev", ["P0", "P1"])
    ds = build_dataset([str(tmp_path / "web"), str(tmp_path / "news")],
                       set_weights={"web": 3.0})
    story = story_dataset(ds)
    news = np.array(["news" in lp.source for lp in ds.pages])
    assert news.sum() == 2 and (~news).sum() == 4
    np.testing.assert_array_equal(story.page_weight[news], STORY_SET_WEIGHT)
    np.testing.assert_array_equal(story.page_weight[~news], 3.0)
    np.testing.assert_array_equal(ds.page_weight[news], 1.0)  # the plain stages' unchanged
    assert story.X is ds.X
    # Routed by what a page declares, not by its set: the story stage serves declared articles.
    write_labelled_page(tmp_path / "one" / "dev", "0001",
                        '<html><head><meta property="og:type" content="article"></head><body>'
                        f"<p>{PROSE}</p></body></html>", PROSE, "https://one.example/a")
    one = build_dataset([str(tmp_path / "one")])
    assert story_rows([lp.table for lp in one.pages]).all()
    assert not story_rows([lp.table for lp in ds.pages]).any()


def test_readability_truth_keeps_loose_text_and_cjk_pages_score_by_characters(
        tmp_path: Path) -> None:
    from newscrawl.evaluation.datasets import load_pages

    pages = {"loose": "<div><p>When</p> there are two solutions to <b>x</b><h2>Head</h2>tail</div>",
             "zh": "<div><p>国家统计局今天上午发布最新数据显示第三季度国内生产总值。</p></div>"}
    for name, expected in pages.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "source.html").write_text(f"<html><body>{expected}</body></html>")
        (tmp_path / name / "expected.html").write_text(expected, "utf-8")
    loose, zh = load_pages(tmp_path)
    assert loose.text == "When\n\nthere are two solutions to x\n\nHead\n\ntail"
    assert (loose.script, zh.script) == ("words", "chars")


def test_the_model_card_writes_the_per_script_scores_under_a_sets_table() -> None:
    from newscrawl.training.cli import _scripts_paragraph

    scores = {"n": 2, "precision": 0.9, "recall": 1.0, "f1": 0.947}
    tools = {"two stages (shipped)": {"scripts": {"chars": scores, "words": scores}},
             "trafilatura": {"scripts": {"chars": scores, "words": scores}}}
    blank, paragraph = _scripts_paragraph(tools)
    assert blank == ""  # a paragraph of its own, or Markdown reads it as a table row
    assert paragraph.startswith("By script: chars pages (2): two stages (shipped) 0.947")
    assert "; words pages (2):" in paragraph
    assert _scripts_paragraph({"trafilatura": {"scripts": {}}}) == []

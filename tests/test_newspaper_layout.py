"""newspaper4k's test-page layout (``scripts/unseen-news.sh``): pages with an expected text are
read, with the URL, date and script they give, and scored by ``evaluate --model``."""

from __future__ import annotations

import json
from pathlib import Path

from newscrawl.evaluation.datasets import detect_kind, load_pages
from newscrawl.evaluation.evaluate import score_model
from newscrawl.extraction.extractor import DEFAULT_MODEL

STORY = ("<html><head><title>{title}</title></head><body><nav><a href='/'>Home</a></nav>"
         "<article><h1>{title}</h1>{paragraphs}</article></body></html>")


def _write(root: Path, stem: str, paragraphs: list[str], meta: dict | None) -> None:
    for sub in ("html", "txt", "metadata"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    html = STORY.format(title=stem, paragraphs="".join(f"<p>{p}</p>" for p in paragraphs))
    (root / "html" / f"{stem}.html").write_text(html, "utf-8")
    (root / "txt" / f"{stem}.txt").write_text("\n\n".join(paragraphs), "utf-8")
    if meta is not None:
        (root / "metadata" / f"{stem}.json").write_text(json.dumps(meta), "utf-8")


def test_pages_with_an_expected_text_are_read_with_their_url_date_and_script(
        tmp_path: Path) -> None:
    _write(tmp_path, "harbour", ["The harbour reopened on Monday after a week of storms."] * 3,
           {"url": "https://news.example/harbour", "publish_date": "2024-03-05T00:00:00",
            "meta_lang": "en", "authors": "['Someone Else']"})
    _write(tmp_path, "park", ["湖边的新公园昨天正式开放，市民们一早就来散步。"], None)
    (tmp_path / "html" / "front_page.html").write_text("<html><body>front</body></html>")

    assert detect_kind(tmp_path) == "newspaper"
    pages = {p.page_id: p for p in load_pages(tmp_path)}
    assert set(pages) == {"harbour", "park"}  # no expected text, no page
    harbour, park = pages["harbour"], pages["park"]
    assert harbour.url == "https://news.example/harbour"
    assert harbour.meta == {"publish_date": "2024-03-05T00:00:00", "language": "en"}
    assert (harbour.script, park.script) == ("words", "chars")
    assert park.url is None and park.page_type == "article"


def test_the_shipped_model_is_scored_on_the_set(tmp_path: Path) -> None:
    story = ["The harbour reopened on Monday after a week of storms had kept every boat in.",
             "Fishermen said the catch was already worth twice what it was last spring."]
    _write(tmp_path, "harbour", story, {"url": "https://news.example/harbour"})
    park = "湖边的新公园昨天正式开放，市民们一早就来散步，有的人还带着孩子。"
    _write(tmp_path, "park", [park] * 2, None)
    result = score_model(str(tmp_path), DEFAULT_MODEL, with_trafilatura=False)
    page = result["tools"]["newscrawl"]["page"]
    assert page["all"]["n"] == 2 and result["skipped"] == 0
    # Both stories kept whole; beside them at most the headline (newspaper's texts leave it
    # out), not the menu.
    assert page["all"]["recall"] == 1.0 and page["all"]["f1"] > 0.9

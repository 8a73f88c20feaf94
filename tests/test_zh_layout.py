"""The Chinese page set's layout: its truth files read as the set means them."""

from __future__ import annotations

from pathlib import Path

from newscrawl.evaluation.datasets import load_pages
from newscrawl.evaluation.metadata_eval import evaluate_metadata

STORY = ("<html><head><title>湖边新公园开放</title></head><body><h1>湖边新公园开放</h1>"
         "<p>湖边的新公园昨天正式开放，市民们一早就来散步。</p><p>记者 {names}</p></body></html>")


def _write(root: Path, stem: str, names: str, author: str, date: str) -> None:
    for sub in ("original", "cleaned", "author", "date"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "original" / f"{stem}.html").write_bytes(STORY.format(names=names).encode("gbk"))
    (root / "cleaned" / f"{stem}.txt").write_text("湖边的新公园昨天正式开放，市民们一早就来散步。",
                                                  "utf-8")
    (root / "author" / f"{stem}.txt").write_text(author, "utf-8")
    (root / "date" / f"{stem}.txt").write_text(date, "utf-8")


def test_space_separated_authors_are_several_and_unknown_fields_are_absent(tmp_path: Path) -> None:
    _write(tmp_path, "a", "林小雨 周明", "林小雨 周明", "2024-03-05 08:19")
    _write(tmp_path, "b", "林小雨", "UNKNOWN", "UNKNWON")
    pages = {p.page_id: p for p in load_pages(tmp_path)}
    assert pages["a"].meta == {"author": ["林小雨", "周明"], "publish_date": "2024-03-05 08:19"}
    assert pages["b"].meta == {"author": None, "publish_date": None}

    fields = evaluate_metadata(str(tmp_path), with_trafilatura=False)["fields"]
    # Only the page that names its authors counts, and the two names we find match the two.
    assert fields["authors"]["n"] == 1
    assert fields["authors"]["newscrawl"]["acc"] == 1.0

"""`newscrawl bench` end to end on a handful of pages.

The assertions are on the figures' shape and sanity (positive, ordered, counted, ratio
present), never on a speed: timings on a shared machine would make such a test flaky.
Pages come from a tiny WCXB-layout set written here; set NEWSCRAWL_BENCH_DATA to a real set
(e.g. ../shared/data/wcxb-dev) to run the same checks on it.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from newscrawl.evaluation import bench

pytestmark = pytest.mark.benchmark

MODEL = Path(__file__).resolve().parents[2] / "models" / "nodes-v1.ubj"


@pytest.fixture(autouse=True)
def _needs_model() -> None:
    if not MODEL.is_file():
        pytest.skip(f"{MODEL} not trained yet: bench times the shipped model")

_ARTICLE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Bench page {i}</title></head><body><nav><a href="/">Home</a> <a href="/a">World</a></nav>
<article><h1>Bench page {i}</h1>
<p>The harbour authority said on Tuesday that the new breakwater would be finished by spring,
two years later than first planned, after storms damaged the partly built wall twice.</p>
<p>Engineers blamed the delay on the supply of armour stone, which had to be shipped from a
quarry four hundred kilometres away once the local one was exhausted.</p></article>
<footer>Copyright 2024</footer></body></html>"""


_TYPES = {"0005": "other", "0006": "other"}


def _write_wcxb(root: Path, pages: dict[str, bytes]) -> Path:
    (root / "dev" / "html").mkdir(parents=True)
    (root / "dev" / "ground-truth").mkdir()
    for page_id, body in pages.items():
        (root / "dev" / "html" / f"{page_id}.html.gz").write_bytes(gzip.compress(body))
        label = {"url": f"https://example.org/{page_id}", "ground_truth": {"main_content": ""},
                 "_internal": {"page_type": {"primary": _TYPES.get(page_id, "article")}}}
        (root / "dev" / "ground-truth" / f"{page_id}.json").write_text(json.dumps(label))
    return root


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    if os.environ.get("NEWSCRAWL_BENCH_DATA"):
        return Path(os.environ["NEWSCRAWL_BENCH_DATA"])
    pages = {f"{i:04d}": _ARTICLE.format(i=i).encode() for i in range(5)}
    pages["0005"] = b"%PDF-1.7\n" + bytes(range(256)) * 8  # newscrawl: empty, reason binary
    pages["0006"] = b""  # both tools give nothing
    return _write_wcxb(tmp_path / "set", pages)


def test_bench_json_figures_are_sane(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--data", str(data_dir), "--n", "7", "--warmup", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)

    assert report["pages"] == 7
    assert report["threads"] == 1
    assert report["model"] == "nodes-v1"
    assert report["model_trees"] > 0
    total = report["newscrawl"]["total_ms"]
    assert total["n"] == 7, "pages with no text are still timed"
    assert 0 < total["p50"] <= total["p90"] <= total["p95"]
    assert total["pages_per_s"] > 0
    stages = report["newscrawl"]["stages_ms"]
    assert {"decode", "parse", "metadata"} <= set(stages)
    assert all(s["p50"] >= 0 and s["n"] > 0 for s in stages.values())
    if not os.environ.get("NEWSCRAWL_BENCH_DATA"):
        assert report["newscrawl"]["empty"] == {"binary": 1, "empty": 1}

    tf = report["trafilatura"]["total_ms"]
    assert tf["n"] == 7 and tf["p50"] > 0
    assert report["ratio_p50"] == pytest.approx(total["p50"] / tf["p50"], rel=1e-2)

    kinds = report["by_page_type"]
    if not os.environ.get("NEWSCRAWL_BENCH_DATA"):
        assert list(kinds) == ["article", "other"], "most pages first"
        assert [k["n"] for k in kinds.values()] == [5, 2]
    assert sum(k["n"] for k in kinds.values()) <= 7
    for k in kinds.values():
        assert k["newscrawl_p50"] > 0
        assert k["ratio_p50"] == pytest.approx(k["newscrawl_p50"] / k["trafilatura_p50"],
                                                 rel=1e-2, abs=1e-3)  # JSON keeps 3 decimals

    meta = report["metadata"]
    assert 0 < meta["share_of_p50"] < 1
    assert report["rss"]["pages"] == 7
    assert report["rss"]["peak_mb"] >= report["rss"]["baseline_mb"] > 0
    assert set(report["targets"]) == {
        "p50_le_10ms", "metadata_adds_le_20pct", "ratio_le_0.45", "rss_le_300mb"
    }


def test_bench_human_lines_carry_n_and_conditions(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--data", str(data_dir), "--n", "3", "--warmup", "1", "--no-rss"]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first.startswith("newscrawl extract p50 ")
    assert "n=3" in first and "1 thread" in first and "model " in first
    assert "ratio newscrawl/trafilatura p50 " in out
    assert "by page type" in out
    assert any(line.strip().startswith("article ") and "n=3" in line
               for line in out.splitlines())
    assert "peak RSS" not in out

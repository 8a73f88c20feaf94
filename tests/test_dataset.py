"""``newscrawl dataset``: the real command on feeds the tests write, output read back with
pyarrow (splits, counts, duplicates, types, the card's YAML header)."""

from __future__ import annotations

import gzip
import io
import json
import os
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import yaml

from newscrawl.cli import main
from newscrawl.dataset import minhash
from newscrawl.pipelines import text_hash

_RNG = random.Random(5)
_VOCAB = ["".join(_RNG.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(_RNG.randint(3, 9)))
          for _ in range(4000)]
ZH = ("国家统计局今天上午发布最新数据显示第三季度国内生产总值同比增长百分之五点二消费和投资保持"
      "稳定增长对外贸易结构继续优化就业形势总体稳定居民收入增长与经济增长基本同步专家认为今年"
      "全年经济增长目标有望顺利实现但外部环境依然复杂严峻需要继续加大宏观政策调节力度")


def words(n: int, rng: random.Random) -> str:
    return " ".join(rng.choice(_VOCAB) for _ in range(n))


def article(key: str, text: str, site: str, published: str | None = "2026-01-10",
            language: str = "en", url: str | None = None) -> dict:
    url = url or f"https://{site}/news/{key}"
    return {"url": url, "canonical_url": url, "title": f"Title {key}", "text": text,
            "language": language, "crawled_at": "2026-02-01T10:00:00Z",
            "content_hash": text_hash(text), "model_version": "nodes-v1",
            "words": len(text.split()), "site": site, "authors": ["Ann Writer"],
            "published": published, "modified": None, "description": None,
            "tags": ["politics", "economy"], "image": None, "page_type": "newsarticle"}


def write_jsonl(path: Path, records: list[dict | str]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    body = "".join(line + "\n" for line in lines).encode()
    path.write_bytes(gzip.compress(body) if path.name.endswith(".gz") else body)
    return path


def build(tmp: Path, *inputs: str, out: str = "out", args: tuple[str, ...] = ()) -> dict:
    assert main(["dataset", *inputs, "--out", str(tmp / out), *args]) == 0
    return json.loads((tmp / out / "stats.json").read_text("utf-8"))


def read(out: Path) -> dict[str, pa.Table]:
    tables: dict[str, list[pa.Table]] = {}
    for f in sorted((out / "data").glob("*.parquet")):
        tables.setdefault(f.name.split("-")[0], []).append(pq.read_table(f))
    return {k: pa.concat_tables(v) for k, v in tables.items()}


def edit(text: str, rng: random.Random, n: int) -> str:
    w = text.split()
    for _ in range(n):
        w[rng.randrange(len(w))] = rng.choice(_VOCAB)
    return " ".join(w)


@pytest.fixture
def feeds(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A plain and a gzip feed: 30 distinct articles on 10 sites, a wire story on three sites
    (the copy published first comes last), an exact repeat under a new URL, a new version
    of one URL, a Chinese article and its near copy, a broken line and a line without text."""
    rng = random.Random(1)
    distinct = [article(f"d{i}", words(200, rng), f"site{i % 10}.example") for i in range(30)]
    wire = words(300, rng)
    syndicated = [
        article("w1", wire, "a.example", "2026-01-12T09:00:00+00:00"),
        article("w2", edit(wire, rng, 3), "b.example", "2026-01-11T18:00:00-05:00"),
        article("w3", edit(wire, rng, 2), "c.example", "2026-01-11T22:00:00+01:00"),
    ]
    repeat = article("r1", distinct[0]["text"], "site0.example", url="https://site0.example/x")
    new_version = article("v2", words(200, rng), "site1.example", url=distinct[1]["url"])
    zh = article("zh1", ZH, "xinwen.example", "2026-01-09", language="zh")
    zh_copy = article("zh2", ZH.replace("专家认为", "分析人士指出"), "baodao.example",
                      "2026-01-10", language="zh-CN")
    plain = write_jsonl(tmp_path / "feed-1.jsonl",
                        [*distinct[:20], syndicated[0], "{not json", zh, repeat])
    packed = write_jsonl(tmp_path / "feed-2.jsonl.gz",
                         [*distinct[20:], syndicated[1], json.dumps({"url": "x", "text": ""}),
                          zh_copy, new_version, syndicated[2]])
    return tmp_path, {"plain": str(plain), "packed": str(packed),
                      "glob": str(tmp_path / "feed-*.jsonl*")}


def test_dataset_dedups_splits_and_types(feeds: tuple[Path, dict[str, str]]) -> None:
    tmp, paths = feeds
    stats = build(tmp, paths["glob"], args=("--splits", "train=0.6,validation=0.2,test=0.2"))
    tables = read(tmp / "out")
    rows = pa.concat_tables(tables.values()).to_pylist()
    titles = {r["title"] for r in rows}

    assert stats["lines_read"] == 39
    assert stats["bad_lines"] == {"not_json": 1, "no_text": 1}
    assert stats["duplicates"] == {"duplicate_text": 1, "duplicate_url": 1, "near_duplicate": 3}
    assert stats["articles"] == len(rows) == 32  # 30 + the wire story + the Chinese one
    # of the wire story the earliest published stays (c: 21:00 UTC on the 11th), though
    # read last; of the Chinese pair the earlier one; of the repeated text the first crawled
    assert {"Title w3", "Title zh1", "Title d0"} <= titles
    assert not {"Title w1", "Title w2", "Title zh2", "Title r1"} & titles
    # a URL seen twice: one row, the first seen (both published the same day)
    assert "Title d1" in titles and "Title v2" not in titles

    assert len({r["id"] for r in rows}) == len(rows)
    sites_by_split = {split: set(t.column("site").to_pylist()) for split, t in tables.items()}
    for a in sites_by_split:
        for b in sites_by_split:
            assert a == b or not sites_by_split[a] & sites_by_split[b]
    assert {s: v["articles"] for s, v in stats["splits"].items()} == {
        s: t.num_rows for s, t in tables.items()}
    assert sum(stats["languages"].values()) == len(rows)
    assert stats["languages"]["zh"] == 1
    assert stats["months"]["2026-01"] == len(rows)

    schema = next(iter(tables.values())).schema
    assert schema.field("published").type == pa.timestamp("us", tz="UTC")
    assert schema.field("crawled_at").type == pa.timestamp("us", tz="UTC")
    assert schema.field("authors").type == pa.list_(pa.string())
    assert pa.types.is_integer(schema.field("words").type)
    w3 = next(r for r in rows if r["title"] == "Title w3")
    assert w3["published"].isoformat() == "2026-01-11T21:00:00+00:00"
    assert w3["tags"] == ["politics", "economy"]
    for f in (tmp / "out" / "data").glob("*.parquet"):
        assert pq.ParquetFile(f).metadata.row_group(0).column(0).compression == "ZSTD"


def test_card_header_is_what_data_tools_read(feeds: tuple[Path, dict[str, str]]) -> None:
    tmp, paths = feeds
    stats = build(tmp, paths["plain"], paths["packed"], args=("--name", "news-test"))
    text = (tmp / "out" / "README.md").read_text("utf-8")
    assert text.startswith("---\n")
    header = yaml.safe_load(text.split("---\n")[1])
    assert header["pretty_name"] == "news-test"
    assert header["language"] == ["en", "zh"]
    assert header["size_categories"] == ["n<1K"]
    assert "license" in header
    files = {d["split"]: d["path"] for d in header["configs"][0]["data_files"]}
    assert set(files) == {"train", "validation", "test"}
    for split, pattern in files.items():
        shards = sorted((tmp / "out").glob(pattern))
        assert shards, split
        n = stats["splits"][split]["shards"]
        assert [s.name for s in shards] == [
            f"{split}-{i:05d}-of-{n:05d}.parquet" for i in range(n)]
    assert "near_duplicate" in text


def test_rebuild_with_more_input_keeps_every_article_in_its_split(tmp_path: Path) -> None:
    rng = random.Random(2)
    first = [article(f"a{i}", words(120, rng), f"s{i % 40}.example") for i in range(120)]
    more = [article(f"b{i}", words(120, rng), f"s{i % 50}.example") for i in range(80)]
    one = write_jsonl(tmp_path / "one.jsonl", first)
    two = write_jsonl(tmp_path / "two.jsonl", more)
    args = ("--splits", "train=0.5,validation=0.25,test=0.25", "--shard-rows", "25")
    build(tmp_path, str(one), out="small", args=args)
    stats = build(tmp_path, str(one), str(two), out="big", args=args)
    before = {r["id"]: s for s, t in read(tmp_path / "small").items() for r in t.to_pylist()}
    after = {r["id"]: s for s, t in read(tmp_path / "big").items() for r in t.to_pylist()}
    assert len(before) == 120 and len(after) == 200
    assert all(after[i] == s for i, s in before.items())
    assert all(stats["splits"][s]["articles"] > 0 for s in ("train", "validation", "test"))
    assert stats["splits"]["train"]["shards"] == -(-stats["splits"]["train"]["articles"] // 25)

    by_url = build(tmp_path, str(one), out="by-url", args=(*args, "--split-by", "url"))
    assert sum(v["articles"] for v in by_url["splits"].values()) == 120


def test_empty_input_gives_an_empty_valid_dataset(tmp_path: Path) -> None:
    empty = write_jsonl(tmp_path / "empty.jsonl", [])
    stats = build(tmp_path, str(empty))
    assert stats["articles"] == 0 and stats["lines_read"] == 0
    tables = read(tmp_path / "out")
    assert set(tables) == {"train", "validation", "test"}
    assert all(t.num_rows == 0 and "text" in t.schema.names for t in tables.values())
    header = yaml.safe_load((tmp_path / "out" / "README.md").read_text("utf-8").split("---\n")[1])
    assert header["size_categories"] == ["n<1K"]


def test_filters_are_counted(tmp_path: Path) -> None:
    rng = random.Random(3)
    records = [
        article("short", words(20, rng), "a.example"),
        article("de", words(150, rng), "a.example", language="de-AT"),
        article("fr", words(150, rng), "a.example", language="fr"),
        article("old", words(150, rng), "a.example", published="2025-12-31T23:00:00-02:00"),
        article("late", words(150, rng), "a.example", published="2026-03-01"),
        article("undated", words(150, rng), "a.example", published=None),
        article("elsewhere", words(150, rng), "b.example"),
        article("kept", words(150, rng), "a.example", published="2026-01-31T23:59:00Z"),
    ]
    feed = write_jsonl(tmp_path / "f.jsonl", records)
    stats = build(tmp_path, str(feed), args=(
        "--min-words", "50", "--languages", "en,de", "--since", "2026-01-01",
        "--until", "2026-02-28", "--sites", "a.example"))
    assert stats["filtered"] == {"too_short": 1, "language": 1, "no_published": 1,
                                 "after_until": 1, "site": 1}
    assert {r["title"] for t in read(tmp_path / "out").values() for r in t.to_pylist()} == {
        "Title de", "Title old", "Title kept"}  # "old" is 2026-01-01 01:00 UTC


def test_usage_errors_and_quiet_log(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    feed = write_jsonl(tmp_path / "f.jsonl", [article("a", words(100, random.Random(4)),
                                                      "a.example")])
    assert main(["dataset", str(tmp_path / "nothing-*.jsonl"), "--out", str(tmp_path / "o")]) == 2
    assert main(["dataset", str(feed), "--out", str(tmp_path / "o"),
                 "--splits", "train=0.9,test=0.2"]) == 2
    # a pipe cannot be read twice: said so, not "no such file"
    os.mkfifo(tmp_path / "pipe")
    for source in ("-", str(tmp_path / "pipe")):
        capsys.readouterr()
        assert main(["dataset", source, "--out", str(tmp_path / "o")]) == 2
        assert "not a pipe" in capsys.readouterr().err
    capsys.readouterr()
    assert main(["dataset", str(feed), "--out", str(tmp_path / "o")]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and err.count("\n") == 1 and "1 articles of 1 lines" in err


def test_progress_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    feed = write_jsonl(tmp_path / "f.jsonl", [article("a", words(100, random.Random(4)),
                                                      "a.example")])
    term = Terminal()
    monkeypatch.setattr("sys.stderr", term)
    assert main(["dataset", str(feed), "--out", str(tmp_path / "o")]) == 0
    shown = term.getvalue()
    assert "\r" in shown and "lines/s" in shown and "left" in shown


def test_near_duplicates_follow_the_threshold() -> None:
    rng = random.Random(6)
    base = words(400, rng)
    close, far = edit(base, rng, 2), edit(base, rng, 60)
    unrelated = words(400, rng)
    sig, has = minhash.signatures([base, close, far, unrelated, "", ZH])
    assert has.tolist() == [True, True, True, True, False, True]
    assert minhash.estimate(sig[0], sig[1]) > 0.9
    assert minhash.estimate(sig[0], sig[2]) < 0.5
    assert minhash.estimate(sig[0], sig[3]) < 0.05
    pairs = minhash.candidate_pairs(sig, has)
    assert [0, 1] in pairs[minhash.similar(sig, pairs, 0.8)].tolist()
    assert minhash.tokens("Wire, story: 北京") == ["wire,", "story:", "北", "京"]


def test_a_damaged_gzip_keeps_the_lines_before_the_damage(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture) -> None:
    rng = random.Random(7)
    packed = write_jsonl(tmp_path / "f.jsonl.gz",
                         [article(f"a{i}", words(300, rng), "a.example") for i in range(40)])
    data = packed.read_bytes()
    packed.write_bytes(data[:len(data) * 2 // 3])
    stats = build(tmp_path, str(packed))
    assert 0 < stats["articles"] < 40
    assert list(stats["unreadable_inputs"]) == [str(packed)]
    assert "stopped early" in capsys.readouterr().err


def test_versions_of_a_wire_story_are_one_group_whichever_comes_first(tmp_path: Path) -> None:
    """Eight edited versions of each story, then the original, published first: every version
    is near its original, not always near the other versions. Pairing each bucket's rows with
    its first row alone left copies whose first row was another version (44 of 180 kept)."""
    rng = random.Random(9)
    rows = []
    for story in range(6):
        base = words(400, rng)
        rows += [article(f"s{story}v{v}", edit(base, rng, 5), f"v{v}.example", "2026-01-10")
                 for v in range(8)]
        rows.append(article(f"s{story}", base, "wire.example", "2026-01-01"))
    stats = build(tmp_path, str(write_jsonl(tmp_path / "wire.jsonl", rows)),
                  args=("--splits", "train=1"))
    titles = {r["title"] for r in read(tmp_path / "out")["train"].to_pylist()}
    assert titles == {f"Title s{story}" for story in range(6)}
    assert stats["duplicates"]["near_duplicate"] == 48


def test_lines_without_a_url_or_with_odd_fields_are_kept_and_counted_right(
        tmp_path: Path) -> None:
    rng = random.Random(10)
    no_url = [{k: v for k, v in article(f"n{i}", words(200, rng), "nourl.example").items()
               if k not in ("url", "canonical_url")} for i in range(3)]
    odd = [article("big", words(200, rng), "BBC"), article("nan", words(200, rng), "a")]
    odd[0]["words"], odd[1]["words"] = 3e9, float("nan")  # no count the int32 column holds
    odd[1]["language"] = "en_US"
    path = write_jsonl(tmp_path / "odd.jsonl", [*no_url, *odd])
    stats = build(tmp_path, str(path),
                  args=("--splits", "train=1", "--sites", "nourl.example,BBC,a"))
    rows = read(tmp_path / "out")["train"].to_pylist()
    assert stats["articles"] == len(rows) == 5  # three texts without a URL are three articles
    assert len({r["id"] for r in rows}) == 5
    assert {r["words"] for r in rows if r["site"] in ("BBC", "a")} == {200}
    assert stats["languages"] == {"en": 5}  # en_US is English, as the filter reads it

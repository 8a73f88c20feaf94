"""``newscrawl extract``: files, globs, .gz and stdin in; text or JSONL out; bad input costs
one stderr line, never the run.

Run both as a user runs it (``python -m newscrawl extract`` in a subprocess, which also checks
the real stdin/stdout plumbing) and in-process through ``newscrawl.cli.main`` for the cases
that only need the output. A stub model that keeps every text node stands in for the shipped
one, so the assertions are about the command, not about what a trained model keeps.
"""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from modelutil import keep_all_model

from newscrawl.cli import main

REPO = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((REPO / "newscrawl" / "article.schema.json").read_text("utf-8"))

EN_TITLE = "Harbour wall to open two years late"
EN = ("The harbour authority said on Tuesday that the new breakwater would be finished by "
      "spring, two years later than first planned, after storms damaged the wall twice.")
ZH_TITLE = "统计局发布前三季度经济数据"
ZH = ("北京时间昨天晚上，国家统计局发布了最新的经济数据。数据显示，今年前三个季度全国居民"
      "人均可支配收入比上年同期名义增长百分之六点三，扣除价格因素实际增长百分之五点九。")
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8


def page(title: str, text: str) -> str:
    return (f"<!DOCTYPE html>\n<html><head><title>{title}</title></head>\n"
            f"<body><article><p>{text}</p></article></body></html>\n")


EN_PAGE = page(EN_TITLE, EN).encode("utf-8")


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return keep_all_model(tmp_path_factory.mktemp("model") / "keep-all.ubj")


def newscrawl(model: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    """The real command, as a user types it, from the repository."""
    result = subprocess.run(
        [sys.executable, "-m", "newscrawl", "extract", "--model", str(model), *args],
        cwd=REPO, input=stdin, capture_output=True, timeout=120, check=False)
    return subprocess.CompletedProcess(result.args, result.returncode,
                                       result.stdout.decode("utf-8"),
                                       result.stderr.decode("utf-8"))


def in_process(model: Path, capsys: pytest.CaptureFixture[str], *args: str
               ) -> tuple[int, str, str]:
    code = main(["extract", "--model", str(model), *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


# --------------------------------------------------------------------------- subprocess

def test_plain_file_prints_title_blank_line_then_text(model: Path, tmp_path: Path) -> None:
    result = newscrawl(model, write(tmp_path / "a.html", EN_PAGE))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{EN_TITLE}\n\n{EN}\n"
    assert result.stderr == ""


def test_quoted_glob_expands_sorted_with_head_style_headers(model: Path, tmp_path: Path) -> None:
    b = write(tmp_path / "b.html", page("Second", EN).encode())
    a = write(tmp_path / "a.html", page("First", EN).encode())
    result = newscrawl(model, str(tmp_path / "*.html"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (f"==> {a} <==\nFirst\n\n{EN}\n\n"
                             f"==> {b} <==\nSecond\n\n{EN}\n")
    assert result.stderr.strip() == "newscrawl extract: 2 pages: 2 extracted"


@pytest.mark.parametrize("args", [(), ("-",)], ids=["no-path", "dash"])
def test_stdin(model: Path, args: tuple[str, ...]) -> None:
    result = newscrawl(model, "--format", "json", *args, stdin=EN_PAGE)
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert (record["url"], record["title"], record["text"]) == (None, EN_TITLE, EN)


def test_bad_inputs_are_reported_and_the_run_goes_on(model: Path, tmp_path: Path) -> None:
    binary = write(tmp_path / "logo.html", PNG)
    missing = str(tmp_path / "missing.html")
    good = write(tmp_path / "good.html", EN_PAGE)
    result = newscrawl(model, binary, missing, good)
    assert result.returncode == 0
    assert result.stdout.endswith(f"{EN_TITLE}\n\n{EN}\n")
    assert result.stderr.splitlines() == [
        f"newscrawl extract: {binary}: no text (binary)",
        f"newscrawl extract: {missing}: No such file or directory",
        "newscrawl extract: 3 pages: 1 extracted, 2 dropped (binary, unreadable)",
    ]


def test_nothing_extracted_exits_1(model: Path, tmp_path: Path) -> None:
    result = newscrawl(model, write(tmp_path / "logo.png", PNG), str(tmp_path / "missing.html"),
                       write(tmp_path / "empty.html", b""))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1] == (
        "newscrawl extract: 3 pages: 0 extracted, 3 dropped (binary, empty, unreadable)")


# --------------------------------------------------------------------------- in process

def test_text_that_opens_with_the_headline_prints_it_once(
        model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = (f"<html><head><title>{EN_TITLE}</title></head><body><article><h1>{EN_TITLE}</h1>"
            f"<p>{EN}</p></article></body></html>").encode()
    code, out, _ = in_process(model, capsys, write(tmp_path / "h.html", body))
    assert code == 0
    assert out == f"{EN_TITLE}\n\n{EN}\n"


def test_gz_file_is_gunzipped(model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                              ) -> None:
    path = write(tmp_path / "a.html.gz", gzip.compress(EN_PAGE))
    code, out, err = in_process(model, capsys, path)
    assert (code, out, err) == (0, f"{EN_TITLE}\n\n{EN}\n", "")


def test_bad_gzip_is_reported(model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                              ) -> None:
    truncated = write(tmp_path / "cut.html.gz", gzip.compress(EN_PAGE)[:40])
    not_gzip = write(tmp_path / "plain.html.gz", EN_PAGE)
    code, out, err = in_process(model, capsys, truncated, not_gzip)
    assert (code, out) == (1, "")
    lines = err.splitlines()
    assert lines[0].startswith(f"newscrawl extract: {truncated}: bad gzip (")
    assert lines[1].startswith(f"newscrawl extract: {not_gzip}: bad gzip (")
    assert lines[2] == "newscrawl extract: 2 pages: 0 extracted, 2 dropped (2 bad_gzip)"


def test_json_lines_have_the_crawl_feed_fields(model: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "a.html", EN_PAGE)
    write(tmp_path / "b.html", page("Other", EN + " Again.").encode())
    code, out, err = in_process(model, capsys, "--format", "json", str(tmp_path / "*.html"))
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["title"] for r in records] == [EN_TITLE, "Other"]
    assert records[0]["text"] == EN
    assert records[0]["url"] == (tmp_path / "a.html").resolve().as_uri()
    for record in records:
        # Exactly the schema's fields: none missing, nothing extra (it forbids extras).
        assert set(record) == set(SCHEMA["properties"])
        assert record["model_version"] == "keep-all-stub"
        assert record["words"] > 0 and len(record["content_hash"]) == 40


def test_url_option_shows_up_in_json(model: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    url = "https://news.example/2024/05/07/harbour-wall?utm_source=x"
    code, out, _ = in_process(model, capsys, "--format", "json", "--url", url,
                              write(tmp_path / "a.html", EN_PAGE))
    record = json.loads(out)
    assert code == 0
    assert record["url"] == url
    assert record["canonical_url"] == "https://news.example/2024/05/07/harbour-wall"


def test_a_saved_page_gets_the_canonical_url_it_declares_not_its_file_uri(
        model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    declared = "https://news.example/2024/05/07/harbour-wall?utm_source=rss"
    link = f'<link rel="canonical" href="{declared}"></head>'.encode()
    markup = EN_PAGE.replace(b"</head>", link)
    paths = [write(tmp_path / "a.html", markup), write(tmp_path / "b.html", EN_PAGE)]
    code, out, err = in_process(model, capsys, "--format", "json", *paths)
    assert code == 0, err
    declaring, plain = (json.loads(line) for line in out.splitlines())
    assert declaring["url"] == (tmp_path / "a.html").resolve().as_uri()
    assert declaring["canonical_url"] == "https://news.example/2024/05/07/harbour-wall"
    assert plain["canonical_url"] is None  # no web address known, none invented
    # given the page's web address, a canonical on another site is not the page's
    code, out, _ = in_process(model, capsys, "--format", "json", "--url",
                              "https://mirror.example/copy", paths[0])
    assert json.loads(out)["canonical_url"] == "https://mirror.example/copy"


def test_gbk_without_charset_decodes(model: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "zh.html", page(ZH_TITLE, ZH).encode("gbk"))
    code, out, err = in_process(model, capsys, "--format", "json", path)
    assert code == 0, err
    assert ZH_TITLE in out  # written as is, not \u-escaped
    record = json.loads(out)
    assert record["title"] == ZH_TITLE
    assert ZH in record["text"]
    code, out, _ = in_process(model, capsys, path)
    assert out == f"{ZH_TITLE}\n\n{ZH}\n"


def test_stdin_in_process(model: Path, capsys: pytest.CaptureFixture[str],
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(EN_PAGE)))
    code, out, _ = in_process(model, capsys, "--url", "https://news.example/a/story", "-")
    assert (code, out) == (0, f"{EN_TITLE}\n\n{EN}\n")


def test_unmatched_glob_is_a_usage_error(model: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "a.html", EN_PAGE)
    pattern = str(tmp_path / "*.htm")
    code, out, err = in_process(model, capsys, str(tmp_path / "a.html"), pattern)
    assert (code, out) == (2, "")
    assert err == f"newscrawl extract: no files match {pattern!r}\n"


def test_url_with_several_inputs_is_a_usage_error(model: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    a = write(tmp_path / "a.html", EN_PAGE)
    code, out, err = in_process(model, capsys, "--url", "https://news.example/x", a, a)
    assert (code, out) == (2, "")
    assert "--url" in err


def test_model_that_does_not_load_is_a_usage_error(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = in_process(tmp_path / "no-model.ubj", capsys,
                                write(tmp_path / "a.html", EN_PAGE))
    assert (code, out) == (2, "")
    assert err.startswith("newscrawl extract: cannot load the model: ")


# --------------------------------------------------------------------------- WARC files

def warc(path: Path, records: list[tuple[str, str, str, bytes]], *, gz: bool = True) -> str:
    """A WARC file as a crawler writes one: a warcinfo record, then per (type, url,
    "status|content type[|gzip]", body) a request or response record."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as f:
        writer = WARCWriter(f, gzip=gz)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "test"}))
        for kind, url, status, body in records:
            if kind == "request":
                http = StatusAndHeaders(f"GET {url} HTTP/1.1", [("Host", "x")],
                                        is_http_request=True)
            else:
                status, content_type, *encoding = status.split("|")
                headers = [("Content-Type", content_type)]
                if encoding == ["zstd"]:  # as Scrapy asks for it when it can decode it
                    from backports import zstd
                    body = zstd.compress(body)
                    headers += [("Content-Encoding", "zstd")]
                elif encoding:  # stored as sent: gzip-encoded, then chunked
                    body = gzip.compress(body)
                    body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
                    headers += [("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]
                http = StatusAndHeaders(status, headers, protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, kind, payload=io.BytesIO(body), http_headers=http,
                warc_headers_dict={"WARC-Date": "2025-03-05T08:00:00Z"}))
    return str(path)


PL_TITLE = "Żółw przepłynął zatokę"
PL = "Żółw przepłynął całą zatokę w ciągu jednej nocy, mówią rybacy z przystani."
# ISO-8859-2 bytes with no <meta> charset: only the HTTP header says what they are
PL_PAGE = (f"<html><head><title>{PL_TITLE}</title></head>"
           f"<body><article><p>{PL}</p></article></body></html>").encode("iso-8859-2")


def test_warc_html_responses_are_pages_with_their_own_url_charset_and_time(
        model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = warc(tmp_path / "news.warc.gz", [
        ("request", "https://harbour.example/wall", "", b""),
        ("response", "https://harbour.example/wall", "200 OK|text/html", EN_PAGE),
        ("response", "https://harbour.example/sent", "200 OK|text/html|gzip", EN_PAGE),
        # the HTTP header's charset, which a guess from these bytes gets wrong
        ("response", "https://przystan.example/zolw", "200 OK|text/html; charset=iso-8859-2",
         PL_PAGE),
        ("response", "https://harbour.example/logo.png", "200 OK|image/png", PNG),
        ("response", "https://harbour.example/old", "404 Not Found|text/html", EN_PAGE),
        ("response", "https://harbour.example/moved", "301 Moved Permanently|text/html", b""),
    ])
    code, out, err = in_process(model, capsys, "--format", "json", "--all-pages", path)
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["url"], r["title"]) for r in records] == [
        ("https://harbour.example/wall", EN_TITLE), ("https://harbour.example/sent", EN_TITLE),
        ("https://przystan.example/zolw", PL_TITLE)]
    assert records[1]["text"] == EN
    assert records[2]["text"] == PL
    assert {r["crawled_at"] for r in records} == {"2025-03-05T08:00:00+00:00"}
    validator = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    for record in records:
        validator.validate(record)
    assert err.strip() == ("newscrawl extract: 3 pages: 3 extracted; 5 WARC records skipped "
                           "(http_301, http_404, not_html, warc_request, warc_warcinfo)")


STORY = [f"Paragraph {n} of the harbour story: the fishing fleet sailed out before dawn, "
         "and by noon the nets were full of herring, mackerel and a few surprised crabs that "
         "the crew threw back into the grey water of the bay." for n in range(1, 7)]
STORY_PAGE = ("<html><head><title>The fleet came home</title>"
              '<meta property="og:type" content="article"></head><body><article>'
              "<h1>The fleet came home</h1>" + "".join(f"<p>{p}</p>" for p in STORY)
              + "</article></body></html>").encode()
SECTION_PAGE = ("<html><head><title>Harbour news</title></head><body><h1>Harbour</h1><ul>"
                + "".join(f'<li><a href="/2025/03/story-{n}">Story {n} of the day</a></li>'
                          for n in range(30))
                + "</ul></body></html>").encode()


def test_a_warc_gives_the_articles_a_crawl_exports_with_their_site(
        model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    story = "https://www.harbour.example/2025/03/05/the-fleet-came-home-at-last"
    path = warc(tmp_path / "crawl.warc.gz", [
        ("response", "https://www.harbour.example/harbour/", "200 OK|text/html", SECTION_PAGE),
        ("response", story, "200 OK|text/html", STORY_PAGE),
        ("response", story + "?utm_source=feed", "200 OK|text/html", STORY_PAGE),
        ("response", "https://www.harbour.example/2025/03/05/a-short-note-on-the-tide",
         "200 OK|text/html", EN_PAGE),
    ])
    code, out, err = in_process(model, capsys, "--format", "json", path)
    assert code == 0, err
    (record,) = (json.loads(line) for line in out.splitlines())
    assert (record["url"], record["site"]) == (story, "harbour.example")
    assert record["text"].endswith("\n\n".join(STORY))
    assert err.strip().splitlines()[-1] == (
        "newscrawl extract: 4 pages: 1 extracted, 3 dropped (duplicate_url, 2 not_article); "
        "1 WARC records skipped (warc_warcinfo)")
    # --all-pages: every page's text, as for saved pages
    code, out, err = in_process(model, capsys, "--format", "json", "--all-pages", path)
    assert len(out.splitlines()) == 4


def test_a_zstd_encoded_response_in_a_warc_is_read_as_the_crawl_read_it(
        model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """warcio undoes gzip and brotli but hands zstd back as it is; Scrapy asks for it."""
    story = "https://www.harbour.example/2025/03/05/the-fleet-came-home-at-last"
    path = warc(tmp_path / "zstd.warc.gz", [("response", story, "200 OK|text/html|zstd",
                                             STORY_PAGE)])
    code, out, err = in_process(model, capsys, "--format", "json", path)
    assert code == 0, err
    (record,) = (json.loads(line) for line in out.splitlines())
    assert record["text"].endswith("\n\n".join(STORY))


def test_damaged_warc_keeps_the_pages_before_the_damage(
        model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(warc(tmp_path / "cut.warc", [
        ("response", "https://harbour.example/wall", "200 OK|text/html", EN_PAGE),
        ("response", "https://harbour.example/next", "200 OK|text/html", EN_PAGE),
    ], gz=False))
    data = path.read_bytes()
    cut = data.index(b"WARC/1.", data.index(b"https://harbour.example/next") - 400)
    path.write_bytes(data[:cut] + b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99999\r\n"
                     b"\r\nnot a record")
    code, out, err = in_process(model, capsys, "--all-pages", path.as_posix())
    assert code == 0
    assert out == f"==> https://harbour.example/wall <==\n{EN_TITLE}\n\n{EN}\n"
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"newscrawl extract: {path}: bad WARC (")
    assert lines[1] == "newscrawl extract: 2 pages: 1 extracted, 1 dropped (bad_warc); " \
                       "1 WARC records skipped (warc_warcinfo)"


def test_a_warc_gz_cut_short_says_so_after_the_pages_before_the_cut(
        model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """warcio ends quietly at a gzip member cut short: the file would pass for a whole WARC."""
    path = Path(warc(tmp_path / "cut.warc.gz", [
        ("response", f"https://harbour.example/{n}", "200 OK|text/html", EN_PAGE)
        for n in range(6)]))
    data = path.read_bytes()
    path.write_bytes(data[:len(data) * 2 // 3])
    code, out, err = in_process(model, capsys, "--all-pages", path.as_posix())
    assert code == 0
    kept = out.count("==> https://harbour.example/")
    assert 1 <= kept < 6
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"newscrawl extract: {path}: bad WARC (")
    assert lines[-1].startswith(f"newscrawl extract: {kept + 1} pages: {kept} extracted, "
                                "1 dropped (bad_warc)")
    # the whole file: no complaint
    path.write_bytes(data)
    code, out, err = in_process(model, capsys, "--all-pages", path.as_posix())
    assert out.count("==> ") == 6 and "bad WARC" not in err


def test_url_with_a_warc_is_a_usage_error(model: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = warc(tmp_path / "one.warc.gz", [
        ("response", "https://harbour.example/wall", "200 OK|text/html", EN_PAGE)])
    code, out, err = in_process(model, capsys, "--url", "https://other.example/", path)
    assert (code, out) == (2, "")
    assert "WARC" in err

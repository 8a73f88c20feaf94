"""``newscrawl extract PATH...``: the article of saved pages, as text or JSONL.

Why it is built this way:

* It calls the extraction library and nothing else that decides what the text is, so what it
  prints is what a crawl of the same bytes would export; ``--format json`` builds its lines
  with the pipeline's own :func:`newscrawl.pipelines.article_item`, so the field names and
  their values (canonical URL, hash, word count) match the crawl's feed.
* On saved pages it does *not* apply the crawl's article-or-not decision or its minimum
  length: someone pointing it at one page wants that page's text. On a WARC file it does
  (``--all-pages`` opts out): a crawl's archive is how a corpus is rebuilt with a better model,
  so its output must be the crawl's, the same pages (the pipeline's own
  :func:`newscrawl.pipelines.article_decision`, minimum length and repeats) with the same
  fields (``site`` from the record, else the host, as for ``-a url=`` crawls).
* Globs are expanded here (sorted), so ``'pages/*.html'`` works quoted, on any shell, and a
  glob that matches nothing is caught as the typo it usually is (exit 2) before the model is
  loaded.
* One bad input costs one line on stderr, never the run: a batch over a thousand saved pages
  must not stop at the first truncated ``.gz``. Unusable pages print nothing on stdout, so the
  JSONL stays one valid article per line.
* Inputs are read up to the extractor's size limit plus one byte (gzip too), so a huge file or
  a gzip bomb is refused as ``too_large`` by the library instead of filling memory.
* A WARC file (``.warc``, ``.warc.gz``, read with warcio) is many pages: each HTML response
  is extracted with its own URL, its HTTP ``Content-Type`` (the charset a browser would use)
  and its capture time as ``crawled_at``, which is how corpora are built from Common Crawl's
  news archives. Records that are no HTML page (requests, metadata, images, redirects, errors)
  are counted by reason, as the crawl counts its drops.
* Pages are read as a crawl reads them, each against the earlier pages of its site in the
  run (``SiteMemory``: text a site repeats is its template), so a WARC's articles come out as
  the crawl that wrote it exported them. A lone page has no earlier pages: it reads alone.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import gzip
import io
import json
import os
import sys
import zlib
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from collections.abc import Iterator

    from newscrawl.extraction import Article

PROG = "newscrawl extract"
STDIN = "-"
STDIN_LABEL = "standard input"

EPILOG = """\
output:
  text  the title, a blank line, then the text (paragraphs separated by a blank line); the
        title is left out when the text opens with it.
        With several inputs each article starts with a header line '==> PATH <==' (as
        head(1) does), after a blank line from the previous one.
  json  one JSON object per line (UTF-8), with the fields of the crawl's feed
        (newscrawl/article.schema.json); for a saved page site is null, crawled_at
        is the time of the run and, without --url, canonical_url is the one the page
        declares (null if none); from standard input without --url, url is null.

WARC files (.warc, .warc.gz): every HTML response record is a page, with the record's
URL, its HTTP Content-Type and, in json, its capture time as crawled_at and its site
(the crawl's, else the host); other records (requests, metadata, non-HTML, non-200
responses) are counted in the summary, not printed. Only the pages a crawl would export
are printed: articles (the crawl's decision, on what the record says of how the crawl
found the page), long enough, each once; --all-pages prints every page's text.

Pages with no usable text (binary, empty, no content ...) and inputs that cannot be read
print one line 'newscrawl extract: PATH: reason' on stderr and nothing on stdout; the run
goes on. With several inputs a summary line goes to stderr at the end.

exit status: 0 if at least one article was extracted, 1 if none, 2 for usage errors (a glob
that matches no file, --url with several inputs, a model that does not load).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "Extract the main text and metadata of saved pages."
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="HTML file, glob pattern (expanded here, sorted), .gz file "
                             "(gunzipped in memory), WARC file (.warc, .warc.gz) or '-' for "
                             "standard input; none: standard input")
    parser.add_argument("--url", default=None,
                        help="the page's URL (one input only); default: the file's file:// "
                             "URI, none for standard input")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text (default) or json: one object per line")
    parser.add_argument("--all-pages", action="store_true",
                        help="WARC input: every HTML page, not only the articles a crawl "
                             "would export (saved pages are always extracted)")
    parser.add_argument("--model", type=Path, default=None,
                        help="node model file (default: the shipped models/nodes-v1.ubj)")


class UsageError(Exception):
    """A mistake in the command line itself; reported and exit status 2, nothing extracted."""


class Unreadable(Exception):
    """One input could not be turned into bytes; ``str(exc)`` is the reason printed."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind
        """Short name for the summary line (``unreadable``, ``bad_gzip``)."""


@dataclass(frozen=True, slots=True)
class Source:
    """One input: what the user called it, where to read it, and the URL the page gets."""

    label: str
    path: Path | None
    """None for standard input."""
    url: str | None


def expand(patterns: list[str]) -> list[str]:
    """Each PATH as given, or its glob matches (sorted); an existing file wins over a pattern,
    so a file really named ``[1].html`` is still found. No PATH means standard input."""
    if not patterns:
        return [STDIN]
    out: list[str] = []
    unmatched: list[str] = []
    for pattern in patterns:
        if pattern == STDIN or os.path.lexists(pattern) or not glob.has_magic(pattern):
            out.append(pattern)
            continue
        matches = sorted(glob.glob(pattern, recursive=True))
        if not matches:
            unmatched.append(pattern)
        out.extend(matches)
    if unmatched:
        raise UsageError("; ".join(f"no files match {p!r}" for p in unmatched))
    return out


def is_warc(path: Path | None) -> bool:
    return path is not None and path.name.lower().endswith((".warc", ".warc.gz"))


def sources(paths: list[str], url: str | None) -> list[Source]:
    """Attach a URL to each input: ``--url`` for a single one, else the file's URI."""
    if url is not None and len(paths) > 1:
        raise UsageError(f"--url names one page, but {len(paths)} inputs were given")
    if url is not None and is_warc(Path(paths[0])):
        raise UsageError("--url names one page, but a WARC file holds its pages' own URLs")
    out = []
    for p in paths:
        if p == STDIN:
            out.append(Source(STDIN_LABEL, None, url))
        else:
            path = Path(p)
            out.append(Source(p, path, url if url is not None else path.resolve().as_uri()))
    return out


def read_body(source: Source, limit: int, stdin: BinaryIO | None = None) -> bytes:
    """The page's bytes, gunzipped when the name ends in ``.gz``; at most ``limit`` bytes, so
    the extractor sees that the page is too large without it ever being held whole."""
    if source.path is None:
        stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise Unreadable("standard input is closed", "unreadable")
        try:
            return stream.read(limit)
        except OSError as exc:
            raise Unreadable(exc.strerror or str(exc), "unreadable") from None
    try:
        f = source.path.open("rb")
    except OSError as exc:
        raise Unreadable(exc.strerror or str(exc), "unreadable") from None
    with f:
        if source.path.suffix.lower() == ".gz":
            try:
                with gzip.GzipFile(fileobj=f) as gz:
                    return gz.read(limit)
            except (OSError, EOFError, zlib.error) as exc:
                raise Unreadable(f"bad gzip ({exc})", "bad_gzip") from None
        try:
            return f.read(limit)
        except OSError as exc:
            raise Unreadable(exc.strerror or str(exc), "unreadable") from None


@dataclass(frozen=True, slots=True)
class Page:
    """One page to extract: an input file, or one response record of a WARC file."""

    label: str
    url: str | None
    body: bytes
    content_type: str | None = None
    crawled_at: str | None = None
    """The capture time a WARC record gives; None: the time of the run."""
    site: str | None = None
    """A WARC page's site: the crawl's name for it, else the URL's host; None for a file."""
    found_via: str | None = None
    """How the crawl that wrote the WARC found the page, when the record says so."""
    in_warc: bool = False


_HTML_TYPES = ("text/html", "application/xhtml+xml")


def _utc(warc_date: str | None) -> str | None:
    """``2025-03-05T08:00:00Z`` as the crawl writes its times (``+00:00``, whole seconds)."""
    try:
        moment = datetime.fromisoformat(warc_date or "")
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def warc_pages(source: Source, limit: int, skipped: Counter[str]) -> Iterator[Page]:
    """The HTML pages a WARC file's response records hold, in file order. A record that is no
    page is counted in ``skipped`` by reason; a file that stops being a WARC partway raises
    ``Unreadable`` after the pages before the damage."""
    from warcio.archiveiterator import ArchiveIterator
    from warcio.recordloader import ArchiveLoadFailed

    assert source.path is not None
    try:
        f = source.path.open("rb")
    except OSError as exc:
        raise Unreadable(exc.strerror or str(exc), "unreadable") from None
    with f:
        try:
            records = ArchiveIterator(f)
            for record in records:
                http = record.http_headers if record.rec_type == "response" else None
                status = http.get_statuscode() if http is not None else None
                content_type = http.get_header("Content-Type") if http is not None else None
                if record.rec_type != "response":
                    skip = f"warc_{record.rec_type}"
                elif status != "200":
                    skip = f"http_{status}" if status else "not_http"
                elif content_type and not content_type.lower().lstrip().startswith(_HTML_TYPES):
                    skip = "not_html"
                else:
                    skip = None
                if skip:
                    _check_whole(records, record)
                    skipped[skip] += 1
                    continue
                fields = record.rec_headers
                url = fields.get_header("WARC-Target-URI")
                site = fields.get_header("Newscrawl-Site") or (
                    (urlsplit(url).hostname or "").removeprefix("www.") if url else None)
                body = _decoded(record.content_stream().read(limit), http, limit)
                _check_whole(records, record)
                yield Page(url or source.label, url, body,
                           content_type, _utc(fields.get_header("WARC-Date")), site=site or None,
                           found_via=fields.get_header("Newscrawl-Found-Via"), in_warc=True)
            if records.err_count:  # what warcio skipped, it only printed
                raise ArchiveLoadFailed(f"{records.err_count} unreadable stretches passed over")
        except ArchiveLoadFailed as exc:
            raise Unreadable(f"bad WARC ({exc})", "bad_warc") from None
        except Exception as exc:  # noqa: BLE001 - warcio fails in many ways on a damaged file
            raise Unreadable(f"bad WARC ({type(exc).__name__}: {exc})", "bad_warc") from None


_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def _decoded(body: bytes, http: Any, limit: int) -> bytes:
    """The body as the crawl read it: warcio undoes gzip, deflate and brotli, not zstd, which
    Scrapy asks servers for and decodes (a zstd-encoded article came out of the WARC as
    binary). At most ``limit`` bytes; a body that is no zstd frame is left as it is."""
    encoding = (http.get_header("Content-Encoding") or "").strip().lower()
    if encoding != "zstd" or not body.startswith(_ZSTD_MAGIC):
        return body
    try:
        from compression import zstd  # Python 3.14
    except ImportError:
        from backports import zstd  # Scrapy's own dependency before 3.14
    try:
        with zstd.ZstdFile(io.BytesIO(body)) as stream:
            return stream.read(limit)
    except (zstd.ZstdError, EOFError):
        return body


def _check_whole(records: Any, record: Any) -> None:
    """Raise ``ArchiveLoadFailed`` for a record the file ends inside: warcio ends quietly
    there (a copy interrupted, a disk full), so a file cut in half would pass for a WARC of
    half the pages, its last page cut short."""
    from warcio.recordloader import ArchiveLoadFailed

    records.read_to_end()
    unread = getattr(record.raw_stream, "limit", 0)
    if unread:
        raise ArchiveLoadFailed(f"the file ends {unread} bytes into a record")


def to_record(art: Article, url: str | None, model_version: str, crawled_at: str,
              site: str | None = None) -> dict[str, Any]:
    """The crawl feed's item for this article, as a JSON-ready dict."""
    from newscrawl.pipelines import article_item

    item = article_item(art, url or "", crawled_at=crawled_at, model_version=model_version,
                        site=site)
    record = asdict(item)
    if not url or not url.startswith(("http://", "https://")):
        # No web address known (a saved file, standard input without --url): the page's own
        # declared one is the best there is, rather than a file: URI or an invented one.
        from newscrawl.pipelines import canonical

        record["canonical_url"] = canonical(art.canonical_url) if art.canonical_url else None
        if url is None:
            record["url"] = None
    return record


class ExportDecision:
    """Whether the crawl would export a WARC page: the pipeline's article decision, minimum
    length and repeats (canonical URL, text hash), in the crawl's own functions and
    settings. A WARC holds no site configuration or run settings: a site's
    ``article_allow``/``article_deny``, ``max_items`` and ``NEWSCRAWL_SINCE`` do not apply,
    so a crawl cut short by them gives back the articles it downloaded and left out too."""

    def __init__(self) -> None:
        from newscrawl import settings
        from newscrawl.extraction.pagekind import PageModel

        self.min_words = settings.NEWSCRAWL_MIN_WORDS
        self.pages = PageModel.load(settings.NEWSCRAWL_PAGE_MODEL)
        self.urls: set[str] = set()
        self.hashes: set[str] = set()

    def __call__(self, art: Article, page: Page) -> str | None:
        """None for a page the crawl exports, else ``reason (why)``."""
        from newscrawl.pipelines import article_decision, canonical, text_hash, word_count

        url = page.url or ""
        # a WARC holds no site configuration: no article_allow/article_deny patterns
        is_article, why = article_decision(art, "unknown", page.found_via, self.pages)
        if not is_article:
            return f"not_article ({why})"
        words = word_count(art.text)
        if words < self.min_words:
            return f"too_short ({words:.0f} words < {self.min_words})"
        urls = {canonical(url, art.canonical_url), canonical(url)}
        if urls & self.urls:
            return "duplicate_url (URL already extracted)"
        content_hash = text_hash(art.text)
        if content_hash in self.hashes:
            return "duplicate_text (same text already extracted)"
        self.urls |= urls
        self.hashes.add(content_hash)
        return None


def write_text(out: TextIO, art: Article, header: str | None, first: bool) -> None:
    """Title, blank line, text; the header (several inputs) tells where each one starts,
    the way head(1) does, so the output stays readable and splittable."""
    if header is not None:
        out.write(("" if first else "\n") + f"==> {header} <==\n")
    # The headline is often the text's first paragraph already: print it once.
    opening = art.text.split("\n\n", 1)[0]
    if art.title and " ".join(opening.split()).casefold() != " ".join(art.title.split()).casefold():
        out.write(f"{art.title}\n\n")
    out.write(art.text.rstrip("\n") + "\n")


def summary(total: int, extracted: int, dropped: Counter[str],
            skipped: Counter[str] | None = None) -> str:
    """``3 pages: 2 extracted, 1 dropped (binary)``; a reason seen more than once gets its
    count (``2 empty``). WARC records that hold no page follow as ``skipped``."""
    def reasons(counts: Counter[str]) -> str:
        return ", ".join(r if n == 1 else f"{n} {r}" for r, n in sorted(counts.items()))

    line = f"{total} pages: {extracted} extracted"
    if dropped:
        line += f", {sum(dropped.values())} dropped ({reasons(dropped)})"
    if skipped:
        line += f"; {sum(skipped.values())} WARC records skipped ({reasons(skipped)})"
    return line


def prepare_stdout(out: TextIO, fmt: str) -> None:
    """JSONL is UTF-8 whatever the locale says; text goes out in the locale's encoding, with
    characters it cannot show escaped rather than a crash halfway through a batch."""
    if not isinstance(out, io.TextIOWrapper):
        return
    if out.encoding.lower().replace("-", "").replace("_", "") == "utf8":
        return
    if fmt == "json":
        out.reconfigure(encoding="utf-8")
    else:
        out.reconfigure(errors="backslashreplace")


def run(args: argparse.Namespace) -> int:
    def err(message: str) -> None:
        print(f"{PROG}: {message}", file=sys.stderr)

    try:
        inputs = sources(expand(args.paths), args.url)
    except UsageError as exc:
        err(str(exc))
        return 2

    from newscrawl.extraction import Extractor, SiteMemory

    try:
        extractor = Extractor(args.model, sites=SiteMemory())
    except Exception as exc:  # missing file, other features, not a model at all
        err(f"cannot load the model: {exc}")
        return 2

    out = sys.stdout
    prepare_stdout(out, args.format)
    several = len(inputs) > 1 or any(is_warc(s.path) for s in inputs)
    limit = extractor.options.max_bytes + 1
    crawled_at = datetime.now(UTC).isoformat(timespec="seconds")
    extracted = pages = 0
    dropped: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    not_exported = ExportDecision()

    def extract_one(page: Page, first: bool) -> int:
        try:
            art = extractor.extract(page.body, page.url, content_type=page.content_type)
        except Exception as exc:  # a library bug must cost one page, not the run
            err(f"{page.label}: extraction failed: {type(exc).__name__}: {exc}")
            dropped["extraction_error"] += 1
            return 0
        if not art.ok:
            reason = art.reason or "no_text"
            err(f"{page.label}: no text ({reason})")
            dropped[reason] += 1
            return 0
        if page.in_warc and not args.all_pages:
            reason = not_exported(art, page)
            if reason is not None:
                err(f"{page.label}: {reason}")
                dropped[reason.split(" ", 1)[0]] += 1
                return 0
        if args.format == "json":
            record = to_record(art, page.url, extractor.model_version,
                               page.crawled_at or crawled_at, page.site)
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            write_text(out, art, page.label if several else None, first=first)
        out.flush()
        return 1

    def pages_of(source: Source) -> Iterator[Page]:
        if is_warc(source.path):
            yield from warc_pages(source, limit, skipped)
        else:
            yield Page(source.label, source.url, read_body(source, limit))

    try:
        for source in inputs:
            try:
                for page in pages_of(source):
                    pages += 1
                    extracted += extract_one(page, first=not extracted)
            except Unreadable as exc:  # the file, or a WARC's rest past the damage
                err(f"{source.label}: {exc}")
                pages += 1
                dropped[exc.kind] += 1
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining
        # again when it flushes stdout at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        return 0
    if several:
        err(summary(pages, extracted, dropped, skipped))
    return 0 if extracted else 1

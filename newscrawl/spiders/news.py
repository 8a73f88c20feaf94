"""The ``news`` spider: discover a site's articles and yield each downloaded page as a ``Page``.

Discovery, in order of trust: sitemaps named in robots.txt (or /sitemap.xml), sitemap indexes
and Google News sitemaps, RSS/Atom feeds (configured or linked from start pages), then links
followed from front and section pages up to ``max_depth`` hops. Whether a page is an article
is decided in the pipeline, which sees the extracted text; the spider only records what the
URL looks like and how the page was found. Every request carries an errback, so a failed
download is a counted, logged reason (``newscrawl/dropped/<reason>``) and never a traceback.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

import scrapy
from lxml import etree
from scrapy.exceptions import (
    CannotResolveHostError,
    CloseSpider,
    DownloadCancelledError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    IgnoreRequest,
    ResponseDataLossError,
    UnsupportedURLSchemeError,
)
from scrapy.http import Request, Response, TextResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.gz import gunzip, gzip_magic_number
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots
from twisted.internet.error import ConnectionRefusedError as TxConnectionRefusedError
from twisted.internet.error import DNSLookupError, TCPTimedOutError
from twisted.internet.error import TimeoutError as TxTimeoutError
from twisted.python.failure import Failure
from twisted.web._newclient import ResponseFailed

from newscrawl.extraction.dates import parse_date, url_date
from newscrawl.extraction.decode import looks_binary
from newscrawl.extraction.pagekind import PageModel
from newscrawl.items import Page
from newscrawl.pipelines import since_day
from newscrawl.spiders.sites import SiteConfig, load_sites, site_from_url
from newscrawl.warc import CAPTURED_AT

logger = logging.getLogger(__name__)

_FEED_ENTRIES = etree.XPath("//*[local-name()='item' or local-name()='entry']")
_ENTRY_LINK = etree.XPath(
    "*[local-name()='link'][not(@rel) or @rel='alternate']/@href"
    " | *[local-name()='link'][not(@href)]/text()"
)
_ENTRY_DATE = etree.XPath(
    "*[local-name()='pubDate' or local-name()='published' or local-name()='updated'"
    " or local-name()='date']/text()"
)
_FEED_LINK_TAGS = (
    "//link[@rel='alternate'][@type='application/rss+xml' or @type='application/atom+xml']/@href"
)
_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


_FAILURE_TYPES: tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], str], ...] = (
    ((DownloadTimeoutError, TxTimeoutError, TCPTimedOutError), "timeout"),
    ((DownloadConnectionRefusedError, TxConnectionRefusedError), "connection_refused"),
    ((CannotResolveHostError, DNSLookupError), "dns"),
    (ResponseDataLossError, "data_loss"),
    ((DownloadFailedError, ResponseFailed), "download_failed"),
    (UnsupportedURLSchemeError, "unsupported_scheme"),
)
_IGNORED_COUNTERS = (("robotstxt/forbidden", "robots_txt"), ("offsite/filtered", "offsite"))
"""Scrapy's middlewares raise a plain ``IgnoreRequest``, each after counting it under its own
key; the counter, not the message, tells which one refused a request."""


def failure_reason(failure: Failure) -> str:
    """A short, stable stats key for why a request produced no response, from the exception's
    type. An ``IgnoreRequest`` is ``ignored`` here; ``NewsSpider.on_error`` tells which
    middleware raised it."""
    exc = failure.value
    if isinstance(exc, HttpError):
        return f"http_{exc.response.status}"
    if isinstance(exc, IgnoreRequest):
        return "ignored"
    if isinstance(exc, DownloadCancelledError):
        # Scrapy's HTTP handler cancels a download when it passes DOWNLOAD_MAXSIZE (the
        # declared length, or the bytes received); its timeout is DownloadTimeoutError
        return "too_large"
    for types, reason in _FAILURE_TYPES:
        if isinstance(exc, types):
            return reason
    return _CAMEL.sub("_", type(exc).__name__.removesuffix("Error")).lower() or "download_error"


def sites_from_arguments(url: str | None = None, sites: str | None = None,
                         site: str | None = None, max_items: str | None = None,
                         max_depth: str | None = None, **unused: Any) -> list[SiteConfig]:
    """The sites the spider's ``-a`` arguments name. A ``ValueError`` says, in one line, what
    is wrong (with the valid site names when there are some); ``scrapy crawl`` reports it as a
    usage error before the crawl starts (``newscrawl/scrapy_commands/crawl.py``)."""
    if sites:
        try:
            configs = load_sites(sites)
        except OSError as exc:
            raise ValueError(f"-a sites={sites}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise ValueError(f"-a sites={sites}: {exc}") from None
        if site:
            names = [c.name for c in configs]
            configs = [c for c in configs if c.name == site]
            if not configs:
                raise ValueError(f"-a site={site}: no such site in {sites}; its sites: "
                                 + ", ".join(names))
    elif url:
        try:
            configs = [site_from_url(url)]
        except ValueError as exc:
            raise ValueError(f"-a url={url}: {exc}") from None
    else:
        raise ValueError("give -a url=https://... or -a sites=sites.toml")
    for name, value in (("max_items", max_items), ("max_depth", max_depth)):
        if value is not None:
            try:
                number = int(value)
            except ValueError:
                raise ValueError(f"-a {name}={value}: give a whole number") from None
            if number < 0:
                raise ValueError(f"-a {name}={value}: give a number >= 0")
            for config in configs:
                setattr(config, name, number)
    return configs


class NewsSpider(scrapy.Spider):
    """``scrapy crawl news -a url=https://example.com/`` or ``-a sites=sites.toml``.

    Optional arguments: ``site=<name>`` (crawl one site of the file), ``max_items=N`` and
    ``max_depth=N`` (override every site's limits).
    """

    name = "news"
    since: str | None = None
    """``NEWSCRAWL_SINCE``, set by ``from_crawler``."""
    pages: PageModel | None = None
    """The page classifier, whose URL score orders page requests (set by ``from_crawler``)."""

    def __init__(self, url: str | None = None, sites: str | None = None,
                 site: str | None = None, max_items: str | None = None,
                 max_depth: str | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        configs = sites_from_arguments(url=url, sites=sites, site=site, max_items=max_items,
                                       max_depth=max_depth)
        self.sites: dict[str, SiteConfig] = {c.name: c for c in configs}
        self.allowed_domains = sorted({d for c in configs for d in c.allowed_domains})
        self.exported: Counter[str] = Counter()
        self._ignored_claimed: Counter[str] = Counter()
        # Domains are checked by SiteConfig.may_request: LinkExtractor's allow_domains
        # compares the netloc, port included, so it rejects every link of host:port sites.
        self._link_extractors = {c.name: LinkExtractor(deny=c.deny, unique=True)
                                 for c in configs}

    @classmethod
    def check_arguments(cls, **kwargs: Any) -> None:
        """Raise ``ValueError`` for ``-a`` arguments the spider cannot run with; ``scrapy
        crawl`` asks before it starts the crawl."""
        sites_from_arguments(**kwargs)

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> NewsSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.since = since_day(crawler.settings)
        spider.pages = PageModel.load(crawler.settings.get("NEWSCRAWL_PAGE_MODEL") or None)
        return spider

    def _before_since(self, url: str, dated: str | None = None) -> bool:
        """A page dated before ``NEWSCRAWL_SINCE``: not requested, counted. The date is the
        sitemap's ``lastmod`` or the feed's when it reads as one, else the day the URL spells
        (``/2024/05/31/``). A ``lastmod`` is when the page last changed, never earlier than its
        publication, so nothing published since is skipped. An undated page is requested."""
        if self.since is None:
            return False
        day = (parse_date(dated) if dated else None) or url_date(url)  # ISO 8601, or None
        if day is not None and day[:10] < self.since:
            self.crawler.stats.inc_value("newscrawl/skipped/before_since")
            return True
        return False

    def take_article(self, site_name: str | None) -> bool:
        """Count an article towards its site's ``max_items``; False when the site is full
        (``newscrawl.limits.MaxItemsPipeline`` drops it then)."""
        site = self.sites.get(site_name or "")
        if site is None:
            return True
        if self._full(site):
            return False
        self.exported[site.name] += 1
        return True

    def _full(self, site: SiteConfig) -> bool:
        return bool(site.max_items) and self.exported[site.name] >= site.max_items

    def site_full(self, site_name: str | None) -> bool:
        """The site has its ``max_items`` articles (``newscrawl.limits``)."""
        site = self.sites.get(site_name or "")
        return site is not None and self._full(site)

    async def start(self) -> AsyncIterator[Any]:
        for site in self.sites.values():
            for url in site.start_urls:
                yield self._page_request(site, url, "start", hops=0)
            if site.robots_sitemaps:
                origins = {_origin(u) for u in site.start_urls + site.sitemaps + site.feeds}
                for origin in sorted(origins):
                    yield self._request(site, f"{origin}/robots.txt", self.parse_robots)
            for url in site.sitemaps:
                yield self._request(site, url, self.parse_sitemap)
            for url in site.feeds:
                yield self._request(site, url, self.parse_feed)

    def _request(self, site: SiteConfig, url: str, callback: Any, priority: int = 0,
                 **meta: Any) -> Request:
        meta.setdefault("newscrawl_page", False)
        return Request(url, callback=callback, errback=self.on_error, priority=priority,
                       meta={"site": site.name, **meta})

    def _page_request(self, site: SiteConfig, url: str, found_via: str,
                      hops: int) -> Request:
        # What the URL says orders the crawl (likely articles first), never drops a page.
        p = self.pages.url_probability(url) if self.pages is not None else None
        return self._request(site, url, self.parse_page, 0 if p is None else round(10 * p),
                             newscrawl_page=True, found_via=found_via, hops=hops)

    def _site(self, response: Response | Request) -> SiteConfig:
        return self.sites[response.meta["site"]]

    # Discovery -----------------------------------------------------------------------------

    def parse_robots(self, response: Response) -> Iterator[Request]:
        site = self._site(response)
        urls = list(sitemap_urls_from_robots(response.body, base_url=response.url))
        if not urls and not site.sitemaps:
            urls = [urljoin(response.url, "/sitemap.xml")]
        for url in urls:
            if site.may_request(url):
                yield self._request(site, url, self.parse_sitemap)

    def parse_sitemap(self, response: Response) -> Iterator[Request]:
        site = self._site(response)
        body = self._sitemap_body(response)
        if body is None:
            self._discovery_failed(response.url, "invalid_sitemap")
            return
        if not body.lstrip().startswith(b"<"):  # a plain-text sitemap: one URL per line
            entries = [{"loc": line.strip().decode("utf-8", "replace")}
                       for line in body.splitlines() if line.strip().startswith(b"http")]
            kind = "urlset"
        else:
            try:
                sitemap = Sitemap(body)
                entries, kind = list(sitemap), sitemap.type
            except (etree.XMLSyntaxError, StopIteration):
                self._discovery_failed(response.url, "invalid_sitemap")
                return
        if kind == "sitemapindex":
            for entry in entries:
                # a sitemap last changed before NEWSCRAWL_SINCE lists nothing newer
                if site.may_request(entry["loc"]) and not self._before_since(
                        entry["loc"], entry.get("lastmod")):
                    yield self._request(site, entry["loc"], self.parse_sitemap)
        elif kind == "urlset":
            self.crawler.stats.inc_value("newscrawl/discovered/sitemap", len(entries))
            for entry in entries:
                if self._full(site):
                    return
                url = entry["loc"]
                if self._before_since(url, entry.get("lastmod")):
                    continue
                if site.may_request(url):
                    via = "news_sitemap" if "news" in entry else "sitemap"
                    yield self._page_request(site, url, via, hops=0)
        else:
            self._discovery_failed(response.url, "invalid_sitemap")

    def _sitemap_body(self, response: Response) -> bytes | None:
        if gzip_magic_number(response):
            try:
                return gunzip(response.body,
                              max_size=self.crawler.settings.getint("DOWNLOAD_MAXSIZE"))
            except (OSError, ValueError):
                return None
        body = response.body
        return body if body.strip() and not looks_binary(body) else None

    def parse_feed(self, response: Response) -> Iterator[Request]:
        site = self._site(response)
        parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True,
                                 huge_tree=False)
        try:
            root = etree.fromstring(response.body, parser)
        except etree.XMLSyntaxError:
            root = None
        if root is None:
            self._discovery_failed(response.url, "invalid_feed")
            return
        entries = []
        for entry in _FEED_ENTRIES(root):
            if links := _ENTRY_LINK(entry):
                dates = _ENTRY_DATE(entry)
                entries.append((str(links[0]).strip(), str(dates[0]) if dates else None))
        self.crawler.stats.inc_value("newscrawl/discovered/feed", len(entries))
        for link, dated in entries:
            url = urljoin(response.url, link)
            if self._before_since(url, dated):
                continue
            if site.may_request(url) and not self._full(site):
                yield self._page_request(site, url, "feed", hops=0)

    # Pages ---------------------------------------------------------------------------------

    def parse_page(self, response: Response) -> Iterator[Page | Request]:
        site = self._site(response)
        if self._full(site):
            # downloaded while the site's last places were being taken: counted, not lost
            self.crawler.stats.inc_value("newscrawl/dropped/site_full")
            logger.info("Dropped page %s: site_full (site %s has its max_items articles)",
                        response.url, site.name)
            if all(self._full(s) for s in self.sites.values()):
                raise CloseSpider("max_items")
            return
        content_type = response.headers.get("Content-Type")
        self.crawler.stats.inc_value("newscrawl/pages")
        yield Page(
            url=response.url,
            status=response.status,
            body=response.body,
            content_type=content_type.decode("latin-1") if content_type else None,
            site=site.name,
            url_kind=site.url_kind(response.url),
            found_via=response.meta.get("found_via", "link"),
            # when the response arrived: the WARC record's date, when there is an archive
            crawled_at=response.meta.get(CAPTURED_AT)
            or datetime.now(UTC).isoformat(timespec="seconds"),
        )
        hops = response.meta.get("hops", 0)
        if not isinstance(response, TextResponse) or looks_binary(response.body[:2048]):
            return
        if response.meta.get("found_via") == "start":
            for href in response.xpath(_FEED_LINK_TAGS).getall():
                url = response.urljoin(href)
                if site.may_request(url):
                    yield self._request(site, url, self.parse_feed)
        if not site.follow_links or hops >= site.max_depth:
            return
        for link in self._link_extractors[site.name].extract_links(response):
            if site.may_request(link.url) and not self._before_since(link.url):
                yield self._page_request(site, link.url, "link", hops=hops + 1)

    # Failures ------------------------------------------------------------------------------

    def on_error(self, failure: Failure) -> list[Request]:
        """Count and log a failed request in one line; Scrapy would log a traceback. A site
        that answers for its robots.txt with an error status (most often 404: it has none)
        still gets its ``/sitemap.xml`` tried, as a robots.txt naming no sitemap does."""
        request = failure.request
        reason = failure_reason(failure)
        if reason == "ignored":
            reason = self._ignored_reason(request)
        if request.meta.get("newscrawl_page"):
            self.crawler.stats.inc_value(f"newscrawl/dropped/{reason}")
            logger.info("Dropped page %s: %s (%s)", request.url, reason,
                        failure.getErrorMessage())
            return []
        self._discovery_failed(request.url, reason, failure.getErrorMessage())
        site = self.sites.get(request.meta.get("site", ""))
        if (request.callback == self.parse_robots and isinstance(failure.value, HttpError)
                and site is not None and not site.sitemaps):
            url = urljoin(request.url, "/sitemap.xml")
            if site.may_request(url):
                return [self._request(site, url, self.parse_sitemap)]
        return []

    def _ignored_reason(self, request: Request) -> str:
        """Which middleware ignored the request: one whose counter (``robotstxt/forbidden``,
        ``offsite/filtered``) holds a refusal no errback has claimed yet, else ours when the
        request's site is full, else the redirect middleware when the request used up its
        redirects, else ``ignored``."""
        stats = self.crawler.stats
        for key, reason in _IGNORED_COUNTERS:
            if stats.get_value(key, 0) > self._ignored_claimed[key]:
                self._ignored_claimed[key] += 1
                return reason
        site = self.sites.get(request.meta.get("site") or "")
        if site is not None and site.denies(request.url):
            return "denied"  # newscrawl.limits.SiteRequestsMiddleware: a redirect to a denied URL
        if self.site_full(request.meta.get("site")):
            return "site_full"  # newscrawl.limits.SiteRequestsMiddleware
        max_redirects = self.crawler.settings.getint("REDIRECT_MAX_TIMES")
        if (request.meta.get("redirect_times", 0) >= max_redirects
                or request.meta.get("redirect_ttl") == 0):
            return "redirect_loop"
        return "ignored"

    def _discovery_failed(self, url: str, reason: str, detail: str = "") -> None:
        self.crawler.stats.inc_value(f"newscrawl/discovery_failed/{reason}")
        logger.info("Skipped %s: %s%s", url, reason, f" ({detail})" if detail else "")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"

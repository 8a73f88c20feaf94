"""Per-site crawl configuration, and what a site's own URL patterns say of a page.

A site is described once (start pages, sitemaps, feeds, domains, URL patterns, limits), either
from ``-a url=...`` or from a TOML (or, with PyYAML installed, YAML) file of ``[[site]]`` tables.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


@dataclass(slots=True)
class SiteConfig:
    """How to crawl one site; every list may be empty."""

    name: str
    start_urls: list[str] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)
    """Sitemaps or sitemap indexes to read besides those named in robots.txt."""
    feeds: list[str] = field(default_factory=list)
    """RSS or Atom feeds; more are discovered from <link rel=alternate> on start pages."""
    allowed_domains: list[str] = field(default_factory=list)
    """Defaults to the hosts of the start URLs, sitemaps and feeds (subdomains included)."""
    article_allow: list[str] = field(default_factory=list)
    """Regexes; when given, only matching URLs can be exported as articles."""
    article_deny: list[str] = field(default_factory=list)
    """Regexes of URLs that are never articles (they may still be followed as listings)."""
    deny: list[str] = field(default_factory=list)
    """Regexes of URLs never requested (search, login, share links, traps)."""
    robots_sitemaps: bool = True
    """Read the sitemaps that robots.txt names."""
    follow_links: bool = True
    max_items: int = 0
    """Stop requesting this site after this many exported articles (0: no limit)."""
    max_depth: int = 3
    """Link-following hops from a start page (sitemap and feed entries start at 0)."""
    _allow: list[re.Pattern[str]] = field(default_factory=list, repr=False)
    _article_deny: list[re.Pattern[str]] = field(default_factory=list, repr=False)
    _deny: list[re.Pattern[str]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        if not (self.start_urls or self.sitemaps or self.feeds):
            raise ValueError(f"site {self.name!r}: give start_urls, sitemaps or feeds")
        if not self.allowed_domains:
            hosts = {urlsplit(u).hostname for u in self.start_urls + self.sitemaps + self.feeds}
            self.allowed_domains = sorted(h.removeprefix("www.") for h in hosts if h)
        # as Scrapy writes the hosts of the URLs it requests: lower case, IDNs in punycode
        self.allowed_domains = [_ascii_host(self.name, d) for d in self.allowed_domains]
        self._allow = [_compile(self.name, p) for p in self.article_allow]
        self._article_deny = [_compile(self.name, p) for p in self.article_deny]
        self._deny = [_compile(self.name, p) for p in self.deny]

    def allows_domain(self, url: str) -> bool:
        host = (urlsplit(url).hostname or "").lower()
        return any(host == d or host.endswith("." + d) for d in self.allowed_domains)

    def may_request(self, url: str) -> bool:
        """On an allowed domain and not denied."""
        return self.allows_domain(url) and not self.denies(url)

    def denies(self, url: str) -> bool:
        """A ``deny`` pattern matches: never requested, a redirect's target included."""
        return any(p.search(url) for p in self._deny)

    def url_kind(self, url: str) -> str:
        """What the site's own patterns say: ``listing`` (never an article), ``article``
        (allowed by ``article_allow``) or ``unknown``. A generic URL shape is no rule: the
        page classifier weighs the URL with the page (``extraction.pagekind``)."""
        if any(p.search(url) for p in self._article_deny):
            return "listing"
        if self._allow:
            return "article" if any(p.search(url) for p in self._allow) else "listing"
        return "unknown"


def _ascii_host(site: str, domain: str) -> str:
    try:
        return domain.strip().strip(".").lower().encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise ValueError(f"site {site!r}: bad domain {domain!r}: {exc}") from None


def _compile(site: str, pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"site {site!r}: bad pattern {pattern!r}: {exc}") from None


_FIELDS = {
    "name", "start_urls", "sitemaps", "feeds", "allowed_domains", "article_allow",
    "article_deny", "deny", "robots_sitemaps", "follow_links", "max_items", "max_depth",
}


def site_from_dict(data: dict[str, Any], default_name: str = "site") -> SiteConfig:
    """Build a site from one table of a config file; unknown keys are an error, not ignored."""
    unknown = set(data) - _FIELDS
    if unknown:
        raise ValueError(f"unknown site settings {sorted(unknown)}; known: {sorted(_FIELDS)}")
    data = dict(data)
    name = data.setdefault("name", default_name)
    for key in _LISTS:
        if isinstance(data.get(key), str):
            data[key] = [data[key]]
        if key in data and not (isinstance(data[key], list)
                                and all(isinstance(v, str) for v in data[key])):
            raise ValueError(f"site {name!r}: {key} must be a list of strings")
    for key, kind in (("robots_sitemaps", bool), ("follow_links", bool), ("max_items", int),
                      ("max_depth", int)):
        value = data.get(key)
        # a bool is an int to Python, and "false" is true: each must be what it says
        if key in data and (type(value) is not kind or (kind is int and value < 0)):
            expected = "true or false" if kind is bool else "a whole number, 0 or more"
            raise ValueError(f"site {name!r}: {key} = {value!r}, expected {expected}")
    if not isinstance(name, str) or not name:
        raise ValueError(f"site name {name!r}: a site's name is a non-empty string")
    return SiteConfig(**data)


_LISTS = ("start_urls", "sitemaps", "feeds", "allowed_domains", "article_allow",
          "article_deny", "deny")


def load_sites(path: str | Path) -> list[SiteConfig]:
    """Read ``[[site]]`` tables from TOML (``site:`` list in YAML)."""
    path = Path(path)
    raw = path.read_bytes()
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError:
            raise ValueError(f"{path}: YAML needs PyYAML (pip install pyyaml); "
                             "or write the file as TOML") from None
        try:
            data = yaml.safe_load(raw) or {}
        except yaml.YAMLError as exc:
            raise ValueError(f"{path}: {' '.join(str(exc).split())}") from None
    else:
        data = tomllib.loads(raw.decode("utf-8"))
    tables = (data.get("site") or data.get("sites") or []) if isinstance(data, dict) else None
    if isinstance(tables, dict):
        tables = [tables]
    if tables is None or not isinstance(tables, list) or not all(
            isinstance(t, dict) for t in tables):
        raise ValueError(f"{path}: expected site tables ([[site]] in TOML, a 'site:' list "
                         "of mappings in YAML)")
    if not tables:
        raise ValueError(f"{path}: no [[site]] tables")
    sites = [site_from_dict(t, default_name=f"site{i + 1}") for i, t in enumerate(tables)]
    names = [site.name for site in sites]
    if repeated := sorted({n for n in names if names.count(n) > 1}):
        raise ValueError(f"{path}: site names must differ; repeated: {', '.join(repeated)}")
    return sites


def site_from_url(url: str) -> SiteConfig:
    host = urlsplit(url).hostname
    if not host or urlsplit(url).scheme not in ("http", "https"):
        raise ValueError(f"not an http(s) URL: {url!r}")
    return SiteConfig(name=host.removeprefix("www."), start_urls=[url])

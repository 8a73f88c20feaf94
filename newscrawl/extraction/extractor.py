"""The one code path from bytes to an Article, shared by spiders, CLI, training and bench."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from .article import Article
from .clean import clean
from .decode import NotText, decode
from .metadata import extract_metadata
from .parse import parse

DEFAULT_MODEL = Path(__file__).resolve().parent.parent.parent / "models" / "nodes-v1.ubj"


@dataclass(frozen=True, slots=True)
class ExtractorOptions:
    """Tunables of extraction; the library's default settings."""

    max_bytes: int = 20_000_000
    """Bodies larger than this are refused (``reason="too_large"``) rather than parsed."""
    threshold: float = 0.5
    """Probability above which a text node is kept."""


class Extractor:
    """Holds a loaded model and options; each call builds its own parser, tree and arrays,
    so one instance can serve concurrent callers."""

    def __init__(self, model: str | Path | None = None, options: ExtractorOptions | None = None):
        self.options = options or ExtractorOptions()
        self.model_path = Path(model) if model else DEFAULT_MODEL
        self.model_version = self.model_path.stem
        """Names the model in every exported item (``nodes-v1``)."""

    def extract(self, body: bytes | str, url: str | None = None, *,
                content_type: str | None = None) -> Article:
        """Extract the article of one page; never raises on bad input."""
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        if len(body) > self.options.max_bytes:
            return Article(url=url, reason="too_large")
        try:
            encoding, text = decode(body, content_type)
        except NotText as exc:
            return Article(url=url, reason=str(exc))
        t1 = time.perf_counter()
        root = parse(text)
        t2 = time.perf_counter()
        meta = extract_metadata(root, url)
        t3 = time.perf_counter()
        clean(root)
        t4 = time.perf_counter()
        paragraphs = [" ".join(t.split()) for t in root.itertext() if t.strip()]
        t5 = time.perf_counter()
        timings.update(decode=(t1 - t0) * 1e3, parse=(t2 - t1) * 1e3, metadata=(t3 - t2) * 1e3,
                       clean=(t4 - t3) * 1e3, assemble=(t5 - t4) * 1e3)
        body_text = "\n\n".join(paragraphs)
        return Article(
            url=url, text=body_text, title=meta.title, authors=meta.authors,
            published=meta.published, modified=meta.modified, language=meta.language,
            description=meta.description, site_name=meta.site_name, image=meta.image,
            tags=meta.tags, section=meta.section, canonical_url=meta.canonical_url,
            page_type=meta.page_type, encoding=encoding,
            reason=None if body_text else "no_text",
            nodes_total=len(paragraphs), nodes_kept=len(paragraphs), timings_ms=timings,
        )

"""Bytes to text the way a browser chooses the encoding, without ever raising.

Order: BOM, the HTTP Content-Type header, ``<meta charset>`` (also inside a non-HTML wrapper
such as ``<text encoding="gb2312">``), then a statistical guess, then UTF-8. Legacy labels are
upgraded to their supersets (gb2312/gbk → gb18030, latin-1 → cp1252) by w3lib.
"""

from __future__ import annotations

import re

from charset_normalizer import from_bytes
from w3lib.encoding import (
    html_body_declared_encoding,
    html_to_unicode,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
)

# Signatures of bodies that are not text whatever their Content-Type says.
_BINARY_MAGIC = (
    b"%PDF", b"\x89PNG", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b",
    b"RIFF", b"OggS", b"ID3", b"\x00\x00\x01\x00", b"BM", b"Rar!", b"7z\xbc\xaf", b"wOFF",
    b"wOF2", b"\x7fELF", b"MZ",
)
_WRAPPER_ENCODING = re.compile(rb"""<text\b[^>]*\bencoding\s*=\s*["']?([\w.:-]+)""", re.I)
_SNIFF_BYTES = 65536


class NotText(ValueError):
    """The body is not HTML text (binary, empty); ``str(exc)`` is the drop reason."""


def looks_binary(body: bytes) -> bool:
    """True for known binary signatures or a body whose first KiB is mostly control bytes."""
    head = body[:1024].lstrip()
    if head.startswith(_BINARY_MAGIC):
        return True
    if not head:
        return False
    # UTF-16/32 text carries NULs: trust a BOM before counting them.
    if read_bom(body[:4])[0] is not None:
        return False
    controls = sum(1 for b in head if b < 9 or 13 < b < 32)
    return controls > len(head) // 10


def _detect(body: bytes) -> str | None:
    best = from_bytes(body[:_SNIFF_BYTES]).best()
    return best.encoding if best is not None else None


def declared_encoding(body: bytes, content_type: str | None = None) -> str | None:
    """The encoding the page or its server declares, resolved to a Python codec name."""
    bom = read_bom(body[:4])[0]
    if bom:
        return resolve_encoding(bom)
    enc = http_content_type_encoding(content_type) if content_type else None
    if enc:
        return enc
    enc = html_body_declared_encoding(body[:_SNIFF_BYTES])
    if enc:
        return enc
    m = _WRAPPER_ENCODING.search(body[:4096])
    return resolve_encoding(m.group(1).decode("ascii")) if m else None


def _decodes(body: bytes, encoding: str) -> str | None:
    try:
        return body.decode(encoding)
    except (UnicodeDecodeError, LookupError):
        return None


def choose_encoding(body: bytes, content_type: str | None = None) -> str:
    """The codec to read ``body`` with, checked against the bytes rather than trusted."""
    bom = read_bom(body[:4])[0]
    if bom:
        return resolve_encoding(bom) or bom
    declared = declared_encoding(body, content_type)
    utf8 = _decodes(body, "utf-8")
    if declared and declared != "utf-8":
        if _decodes(body, declared) is not None:
            # cp1252 decodes nearly anything, so it proves nothing: valid non-ASCII UTF-8 wins.
            if declared == "cp1252" and utf8 is not None and not utf8.isascii():
                return "utf-8"
            return declared
    if utf8 is not None:
        return "utf-8"
    return _detect(body) or declared or "utf-8"


def decode(body: bytes | str, content_type: str | None = None) -> tuple[str, str]:
    """Return ``(encoding, text)``; raise :class:`NotText` for empty or binary bodies.

    A declared encoding that does not decode the page (a UTF-8 page labelled ISO-8859-1, a GBK
    page labelled UTF-8) loses to strict UTF-8 and then to a detector's guess; bytes that
    decode in no candidate become U+FFFD.
    """
    if isinstance(body, str):
        if not body.strip():
            raise NotText("empty")
        return "utf-8", body
    if not body.strip():
        raise NotText("empty")
    if looks_binary(body):
        raise NotText("binary")
    encoding = choose_encoding(body, content_type)
    return html_to_unicode(f"text/html; charset={encoding}", body)

"""Near-duplicate detection: MinHash signatures of 5-gram shingles, LSH banding, verification.

Why it is built this way:

* Tokens are words (lower-cased, split at white space, punctuation at their edges off),
  except in scripts written without spaces (Chinese, Japanese kana, Thai, Lao, Khmer,
  Myanmar), where every character is a token; a shingle is five consecutive tokens, so a
  Chinese shingle is five characters and a mixed text needs no language detection. Splitting
  at white space is ~3 times faster than a ``\\w+`` regex, and tokenising is most of the cost.
* A token's hash is looked up in a dict (computed with blake2b the first time), shingle
  hashes are numpy operations over a batch of texts, and signatures are computed by rensa
  (Rust) from those hashes, so they are stable across runs and machines. datasketch, the
  usual choice, computes 6-8 times fewer signatures a second (docs/dataset.md).
* Banding and clustering run once over all signatures, after the first pass, as numpy sorts
  (no index in memory while reading): every band is sorted, an article that shares a band
  with an earlier one becomes a candidate pair with the first article of that bucket, and a
  pair is kept only when the signatures agree on at least ``threshold`` of their positions
  (the MinHash estimate of the Jaccard similarity). Candidates from 21 bands of 6 rows reach
  ~0.998 at Jaccard 0.8; the verification keeps unrelated articles apart.
* Signatures live in a file (memory-mapped), not in memory: 512 bytes an article on disk,
  which is what lets ten million articles fit a small machine.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

import numpy as np
import rensa

if TYPE_CHECKING:
    from collections.abc import Sequence

NUM_PERM = 128
BANDS = 21
ROWS = 6
SEED = 42
SHINGLE = 5

_UNSPACED = ("\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf"
             "\u4e00-\u9fff\uf900-\ufaff")
_HAS_UNSPACED = re.compile(f"[{_UNSPACED}]")
_UNSPACED_TOKEN = re.compile(rf"[{_UNSPACED}]|[^\s{_UNSPACED}]+")
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")
_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                 0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD], dtype=np.uint64)
_BAND_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD, 0x94D049BB133111EB],
                     dtype=np.uint64)[:ROWS]
_CACHE_LIMIT = 1_000_000


def tokens(text: str) -> list[str]:
    """The text lower-cased and split at white space, and into single characters where a
    script is written without spaces. Punctuation is taken off later (:class:`_TokenHashes`)."""
    low = text.lower()
    if not low.isascii() and _HAS_UNSPACED.search(low):
        return _UNSPACED_TOKEN.findall(low)
    return low.split()


class _TokenHashes(dict):
    """Token -> stable 64-bit hash of the token without its edge punctuation (0: the token
    is only punctuation and does not count). A dict, so a token seen before costs one lookup
    in C; emptied when it holds a million tokens, which bounds its memory."""

    def __missing__(self, token: str) -> int:
        if len(self) >= _CACHE_LIMIT:
            self.clear()
        word = _EDGE.sub("", token)
        value = (int.from_bytes(hashlib.blake2b(word.encode("utf-8"), digest_size=8).digest(),
                                "big") | 1) if word else 0
        self[token] = value
        return value


_token_hashes = _TokenHashes()


def token_hashes(text: str) -> np.ndarray:
    """The 64-bit hashes of the text's tokens, punctuation left out."""
    toks = tokens(text)
    h = np.fromiter(map(_token_hashes.__getitem__, toks), np.uint64, len(toks))
    return h[h != 0]


def shingle_hashes(token_hashes: np.ndarray) -> np.ndarray:
    """One 64-bit hash per run of five consecutive tokens (order matters: a shingle is a
    phrase, not a bag); a text shorter than five tokens is one shingle of all of them."""
    t = np.asarray(token_hashes, dtype=np.uint64)
    if len(t) == 0:
        return t
    n = len(t) - SHINGLE + 1
    if n <= 0:
        return np.bitwise_xor.reduce(t * _MIX[:len(t)], keepdims=True)
    s = t[:n] * _MIX[0]
    for k in range(1, SHINGLE):
        s ^= t[k:k + n] * _MIX[k]
    s ^= s >> np.uint64(29)
    return s


def _batch_shingles(hashed: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The shingles of many texts at once (as :func:`shingle_hashes` gives them one by one),
    flat, with each text's start offset: the numpy work is done once per batch."""
    sizes = np.fromiter(map(len, hashed), np.int64, len(hashed))
    flat = np.concatenate(hashed) if hashed else np.zeros(0, np.uint64)
    starts = np.zeros(len(hashed) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    n = len(flat) - SHINGLE + 1
    if n > 0:
        s = flat[:n] * _MIX[0]
        for k in range(1, SHINGLE):
            s ^= flat[k:k + n] * _MIX[k]
        s ^= s >> np.uint64(29)
        # a shingle stays when its five tokens are of one text
        owner = np.repeat(np.arange(len(hashed)), sizes)[:n]
        s = s[np.arange(n) + SHINGLE - 1 < starts[owner + 1]]
    else:
        s = np.zeros(0, np.uint64)
    counts = np.maximum(sizes - SHINGLE + 1, 0)
    short = np.flatnonzero((sizes > 0) & (sizes < SHINGLE))
    if len(short):  # texts of fewer than five tokens: one shingle each, put in place
        parts, at = [], 0
        offsets = np.concatenate([[0], np.cumsum(counts)])
        for i in short:
            parts += [s[at:offsets[i]], shingle_hashes(hashed[i])]
            at = offsets[i]
        s = np.concatenate([*parts, s[at:]])
        counts[short] = 1
    offsets = np.zeros(len(hashed) + 1, np.uint64)
    np.cumsum(counts, out=offsets[1:])
    return s, offsets


def signatures(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """MinHash signatures (``len(texts) x NUM_PERM`` uint32) and which texts had any token
    (an empty text has no signature worth comparing)."""
    flat, offsets = _batch_shingles([token_hashes(t) for t in texts])
    has = offsets[1:] > offsets[:-1]
    if not has.any():
        return np.zeros((len(texts), NUM_PERM), np.uint32), has
    matrix = rensa.RMinHash.digest_matrix_from_flat_token_hashes(flat, offsets, NUM_PERM, SEED)
    sig = np.array(matrix.to_rows(), dtype=np.uint32).reshape(len(texts), NUM_PERM)
    return sig, has


def band_hashes(sig: np.ndarray, band: int) -> np.ndarray:
    """A 64-bit key per row for one band: equal keys are a candidate pair. Column by column,
    so a memory-mapped signature file is read without copying more than one column."""
    key = np.zeros(len(sig), np.uint64)
    for j in range(ROWS):
        key += sig[:, band * ROWS + j].astype(np.uint64) * _BAND_MIX[j]
    return key ^ (key >> np.uint64(31))


BUCKET_PEERS = 32
"""How many earlier rows of its bucket a row is paired with: every pair in a bucket of up to
33 rows. Pairing each row with the bucket's first alone missed copies whose first row was
another, less similar version (eight edited versions of a wire story and its original kept
44 copies of 20 stories out of 180); the cap keeps a bucket of thousands of template pages
linear."""


def candidate_pairs(sig: np.ndarray, eligible: np.ndarray) -> np.ndarray:
    """Pairs ``(earlier, later)`` of rows that share at least one band, each row with up to
    ``BUCKET_PEERS`` earlier rows of the bucket; unique, as an ``k x 2`` int64 array."""
    rows = np.flatnonzero(eligible)
    found = []
    for band in range(BANDS):
        keys = band_hashes(sig, band)[rows]
        order = np.argsort(keys, kind="stable")  # rows ascending within a bucket
        k = keys[order]
        same = np.flatnonzero(k[1:] == k[:-1]) + 1
        if not len(same):
            continue
        starts = np.ones(len(k), bool)
        starts[same] = False
        head = np.maximum.accumulate(np.where(starts, np.arange(len(k)), 0))
        for back in range(1, BUCKET_PEERS + 1):
            later = same[same - back >= head[same]]
            if not len(later):
                break
            found.append(np.stack([rows[order[later - back]], rows[order[later]]], axis=1))
    if not found:
        return np.zeros((0, 2), np.int64)
    n = np.int64(len(sig))
    codes = np.unique(np.concatenate(found).astype(np.int64) @ np.array([n, 1], np.int64))
    return np.stack([codes // n, codes % n], axis=1)


def similar(sig: np.ndarray, pairs: np.ndarray, threshold: float,
            chunk: int = 65536) -> np.ndarray:
    """Mask of the pairs whose signatures agree on at least ``threshold`` of positions."""
    keep = np.zeros(len(pairs), bool)
    for i in range(0, len(pairs), chunk):
        p = pairs[i:i + chunk]
        keep[i:i + chunk] = (sig[p[:, 0]] == sig[p[:, 1]]).mean(axis=1) >= threshold
    return keep


def estimate(a: np.ndarray, b: np.ndarray) -> float:
    """MinHash estimate of the Jaccard similarity of two signatures."""
    return float((a == b).mean())

"""The article's language: what the page declares, checked against the text itself.

Declarations are often template defaults (``lang="en"`` on a German article, ``en-US`` on every
page of a multilingual CMS), and detection alone cannot give a region or script subtag. So the
declared tag is kept when detection agrees on the primary subtag or the text is too short to
judge, and detection wins otherwise. py3langid (a numpy port of langid.py, model inside the
wheel, no network) classifies 500 characters in ~0.3 ms (1,000 in ~0.56 ms; median, one core);
only such a sample from the middle of the text is classified, so long articles cost no more. On
the 94 Readability pages with over 1,200 characters, the 500-character sample gives the same
language as the whole text on 93, as does a 1,000-character one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

_MIN_CHARS = 200
"""Below this, detection is unreliable (names, captions): the declaration stands."""
_SAMPLE_CHARS = 500
"""Enough prose for a confident call; langid's cost grows with length (~0.3 ms here)."""
_MIN_CONFIDENCE = 0.8

# langid's codes for languages whose usual BCP 47 tag differs.
_TAGS = {"zh": "zh", "nb": "nb", "nn": "nn", "no": "no", "iw": "he", "in": "id", "ji": "yi"}


_WINDOW = 6
"""Bytes that determine py3langid's tokenizer state: at least the depth of its n-gram trie
(6 for the shipped model; a test checks). Each extra byte is one more pass over the sample."""

_PROBES = (
    "The city council approved the new budget on Tuesday after a long debate about schools.",
    "Der Stadtrat hat am Dienstag nach einer langen Debatte den neuen Haushalt beschlossen.",
    "市议会周二在就学校问题进行长时间辩论后批准了新的预算，居民对此反应不一。",
    "Городской совет во вторник утвердил новый бюджет после долгих дебатов о школах.",
    "مجلس المدينة وافق يوم الثلاثاء على الميزانية الجديدة بعد نقاش طويل حول المدارس.",
    "市議会は火曜日、学校をめぐる長い議論の末に新しい予算を承認した。 😀 x",
)


@lru_cache(maxsize=1)
def _identifier():  # noqa: ANN202 - py3langid has no public type for it
    """Loaded once, on first use: the model takes ~0.5 s to unpack."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    class WindowWalkIdentifier(LanguageIdentifier):
        __slots__ = ("window_walk",)

        def _raw_score(self, text: bytes) -> object:
            walk = getattr(self, "window_walk", None)
            return walk(text) if walk is not None else super()._raw_score(text)

    identifier = WindowWalkIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    _use_window_walk(identifier, lambda text: LanguageIdentifier._raw_score(identifier, text))
    return identifier


def _window_walk(identifier,  # noqa: ANN001 - see _identifier
                 original: Callable[[bytes], object]) -> Callable[[bytes], object]:
    """py3langid's ``_raw_score`` with its tokenizer walk done for all bytes at once.

    py3langid walks a DFA over the sample's bytes in a Python loop, one dependent lookup per
    byte into tables of ~40 MB: in the pipeline, with those tables out of cache, that walk was
    0.4 ms of the stage's 0.7. The DFA tracks the longest suffix of the input that starts one
    of its n-grams, so its state after any byte depends only on the last ``_WINDOW`` bytes:
    starting every position from the initial state and stepping ``_WINDOW`` times, all
    positions in parallel, gives the same states. The per-feature counts go into py3langid's
    scoring formula in the order its loop would have produced them (first occurrence), so the
    scores are the same floats.
    """
    nextmove = np.frombuffer(identifier.tk_nextmove, dtype=f"u{identifier.tk_nextmove.itemsize}")
    rowbase = np.asarray(identifier._rowbase, dtype=np.int64)
    output = np.asarray(identifier.tk_output, dtype=np.int64)

    def raw_score(text: bytes) -> object:
        data = np.frombuffer(text, dtype=np.uint8)
        n = len(data)
        state = np.zeros(n, dtype=np.int64)
        for step in range(_WINDOW):
            lag = _WINDOW - 1 - step  # position i reads byte i - lag in this step
            if lag < n:
                state[lag:] = nextmove[rowbase[state[lag:]] + data[:n - lag]]
        features = output[state]
        features = features[features >= 0]
        if not len(features):
            return original(text)  # py3langid's own answer for a featureless text
        found, first, counts = np.unique(features, return_index=True, return_counts=True)
        order = np.argsort(first)
        # py3langid's _sparse_score, without the dict it would turn straight back into arrays
        return (np.log1p(counts[order].astype(np.float32)) @ identifier.nb_ptc[found[order]]
                + identifier.nb_pc)

    return raw_score


def _use_window_walk(identifier,  # noqa: ANN001 - see _identifier
                     original: Callable[[bytes], object]) -> None:
    """Switch ``_window_walk`` on if it gives py3langid's exact results on the probes;
    otherwise (another py3langid, another model) py3langid's own walk stays."""
    identifier.window_walk = None
    try:
        walk = _window_walk(identifier, original)
        reference = [identifier.classify(t) for t in _PROBES]
        identifier.window_walk = walk
        if [identifier.classify(t) for t in _PROBES] != reference:
            identifier.window_walk = None
    except Exception:  # noqa: BLE001 - private internals changed: the public path
        identifier.window_walk = None


def load_model() -> None:
    """Unpack the detector now rather than on the first page (~0.5 s, 1.5-2 s on a busy
    host): the page that paid for it looked slow in a crawl's timings and warnings."""
    _identifier()


def _sample(text: str) -> str:
    if len(text) <= _SAMPLE_CHARS:
        return text
    # The middle of an article is its least boilerplate-heavy part.
    start = (len(text) - _SAMPLE_CHARS) // 2
    return text[start:start + _SAMPLE_CHARS]


def detect(text: str, min_chars: int = _MIN_CHARS) -> tuple[str | None, float]:
    """(ISO 639-1 code, probability) for ``text``; (None, 0.0) when shorter than
    ``min_chars``, too short to judge."""
    sample = " ".join(_sample(text).split())
    if len(sample) < 0.9 * _SAMPLE_CHARS and len(text) > _SAMPLE_CHARS:
        # the middle was mostly white space (a page's prose with its tags blanked out):
        # sample the text as it reads instead; the whole text is split only then
        sample = _sample(" ".join(text.split()))
    if len(sample) < min_chars:
        return None, 0.0
    code, prob = _identifier().classify(sample)
    return _TAGS.get(code, code), float(prob)


def _primary(tag: str) -> str:
    primary = tag.replace("_", "-").split("-")[0].lower()
    return _TAGS.get(primary, primary)


def detect_language(text: str, declared: str | None) -> str | None:
    """A BCP 47 tag: ``declared`` when the text agrees or cannot tell, else the detected one.

    Chinese declared as ``zh-TW``/``zh-Hant`` stays as declared when detection says ``zh``: the
    subtag carries the script, which detection does not give.
    """
    detected, prob = detect(text or "")
    if detected is None or prob < _MIN_CONFIDENCE:
        return declared
    if declared and _primary(declared) == detected:
        return declared
    return detected

import sys, time, statistics as S
"""The Cython walk against features._walk. Build first, from the checkout:
cythonize -i -I "$(python -c 'import lxml; print(lxml.get_include()[0])')" newscrawl/extraction/_cwalk.pyx
Usage: python scripts/cwalk_compare.py DATA_DIR ..."""
sys.path.insert(0, ".")
from newscrawl.extraction import _cwalk as cwalk  # noqa: E402
import newscrawl.extraction.features as F
from newscrawl.extraction.clean import CONTROL_MARK, LINKED_MARK, clean, streams_segments
from newscrawl.evaluation.datasets import load_pages
from newscrawl.extraction.decode import decode_page
from newscrawl.extraction.parse import parse
from newscrawl.extraction.payload import place_payload
from newscrawl.extraction.metadata import extract_metadata
from newscrawl.extraction.pagekind import markup_counts
def cw(root, links):
    r = cwalk.walk(root, links, F._TAG_CODE, F._CONTAINERS, F._TAG_MASK, F._GROUP_BIT["hidden"], F._GROUP_BIT["control"], F._LINKED_BIT, F.HIDDEN_STYLE, CONTROL_MARK.encode(), LINKED_MARK.encode())
    if r is None: return F._walk(root, links), True
    masks, keyed, keys = r[4], r[10], r[11]
    for i, mask in zip(keyed, F._class_masks(keys), strict=True):
        masks[i] |= mask
    return r, False
clk = time.perf_counter
A=[]; B=[]; bad=0; fb=0; n=0
for d in sys.argv[1:]:
    for k, p in enumerate(load_pages(d)):
        enc, text, utf8 = decode_page(p.body, None, p.url)
        root = parse(text, utf8); raw = text if utf8 is None else utf8
        place_payload(root, text, raw); extract_metadata(root, p.url); markup_counts(root, p.url)
        links = clean(root, streams_segments(raw))
        if k % 2:
            a=clk(); r1 = F._walk(root, links); b=clk(); r2, f = cw(root, links); c=clk(); A.append(b-a); B.append(c-b)
        else:
            a=clk(); r2, f = cw(root, links); b=clk(); r1 = F._walk(root, links); c=clk(); B.append(b-a); A.append(c-b)
        n += 1; fb += f
        if tuple(r1) != tuple(r2):
            bad += 1
            if bad < 4:
                for j, (x, y) in enumerate(zip(r1, r2)):
                    if x != y: print(p.page_id, 'field', j, len(x), len(y), [(u, v) for u, v in zip(x, y) if u != v][:2])
print(n, 'pages', bad, 'differ', fb, 'fallbacks; python %.3f C %.3f ms' % (S.median(A)*1e3, S.median(B)*1e3))

# cython: language_level=3
"""``features._walk`` in C: the same arrays from libxml2's nodes, without a Python object per
element (the walk was half of the features stage, and that stage the largest of extraction).

It reads the tree through lxml's public C API (``etreepublic``) and libxml2's node structs,
built against the lxml it was compiled with (``LXML_VERSION``); ``features`` uses it only
under that lxml, and only for the trees it can read exactly as lxml reads them: elements
whose text and attribute values are text nodes. Anything else (a comment, an entity
reference, an attribute holding one) gives None, and the Python walk reads that page.
"""

cimport cython
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdlib cimport free, malloc, realloc
from libc.math cimport INFINITY, log, log1p, log10
from libc.string cimport memset, strchr, strcmp, strlen, strstr

cimport lxml.includes.etreepublic as cetree
cimport numpy as cnp
from lxml.includes.tree cimport (
    XML_CDATA_SECTION_NODE,
    XML_ELEMENT_NODE,
    XML_TEXT_NODE,
    XML_XINCLUDE_END,
    XML_XINCLUDE_START,
    const_xmlChar,
    xmlAttr,
    xmlNode,
)

import numpy as np

cdef extern from *:
    """
    #ifndef NEWSCRAWL_LXML_VERSION
    #define NEWSCRAWL_LXML_VERSION ""
    #endif
    """
    const char* NEWSCRAWL_LXML_VERSION

cetree.import_lxml__etree()
cnp.import_array()

LXML_VERSION = NEWSCRAWL_LXML_VERSION.decode("ascii")
"""The lxml whose headers this module was compiled against."""


class _Unusual(Exception):
    """A node this walk does not read as lxml would."""


cdef inline str _utf8(const_xmlChar* s):
    return PyUnicode_DecodeUTF8(<const char*>s, strlen(<const char*>s), NULL)


cdef inline xmlNode* _text_or_skip(xmlNode* c) noexcept:
    # lxml's _textNodeOrSkip: text and CDATA nodes, XInclude markers passed over
    while c is not NULL:
        if c.type == XML_TEXT_NODE or c.type == XML_CDATA_SECTION_NODE:
            return c
        if c.type == XML_XINCLUDE_START or c.type == XML_XINCLUDE_END:
            c = c.next
        else:
            return NULL
    return NULL


cdef object _collect(xmlNode* first):
    """lxml's ``_collectText`` from a text node: its run of text nodes as one str."""
    cdef xmlNode* cur = first
    cdef int count = 0
    cdef const_xmlChar* last = NULL
    while cur is not NULL:
        if cur.content[0] != 0:
            last = cur.content
        count += 1
        cur = _text_or_skip(cur.next)
    if last is NULL:
        return ""
    if count == 1:
        return _utf8(last)
    joined = b""
    cur = first
    while cur is not NULL:
        joined += <bytes>(<const char*>cur.content)
        cur = _text_or_skip(cur.next)
    return joined.decode("utf-8")


cdef str _value(xmlAttr* a):
    """An attribute's value as ``el.get`` reads it, for a value made of text nodes."""
    cdef xmlNode* child = a.children
    if child is NULL:
        return ""
    if child.type != XML_TEXT_NODE:
        raise _Unusual()
    if child.next is NULL:
        return _utf8(child.content)
    joined = b""
    while child is not NULL:
        if child.type != XML_TEXT_NODE:
            raise _Unusual()
        joined += <bytes>(<const char*>child.content)
        child = child.next
    return joined.decode("utf-8")



cdef enum:
    SLOTS = 1024  # names a page's elements use: a few dozen; past SLOTS/2 the dict serves


cdef struct NameCache:
    size_t keys[SLOTS]
    long long values[SLOTS]
    Py_ssize_t used


cdef inline Py_ssize_t _slot(NameCache* cache, size_t key) noexcept:
    """The slot holding ``key``, or the empty one where it goes (-1 when half full)."""
    cdef Py_ssize_t at = (key >> 4) & (SLOTS - 1)
    while cache.keys[at] != 0:
        if cache.keys[at] == key:
            return at
        at = (at + 1) & (SLOTS - 1)
    return at if cache.used < SLOTS // 2 else -1


cdef inline void _remember(NameCache* cache, Py_ssize_t slot, size_t key,
                           long long value) noexcept:
    """Store ``value`` in the empty ``slot`` ``_slot`` gave (none when the cache is full)."""
    if slot >= 0:
        cache.keys[slot] = key
        cache.values[slot] = value
        cache.used += 1


cdef inline bint _walked(xmlNode* c) noexcept:
    # what lxml's iterwalk visits: elements, comments, entity references, PIs
    return c.type == 1 or c.type == 8 or c.type == 5 or c.type == 7


cdef inline xmlNode* _next_walked(xmlNode* c) noexcept:
    while c is not NULL and not _walked(c):
        c = c.next
    return c


def walk(root, dict links, dict tag_codes, containers, list tag_mask, long long hidden_bit,
         long long control_bit, long long linked_bit, hidden_style, bytes control_mark,
         bytes linked_mark):
    """``features._walk``'s twelve results (the five per-element sequences and ``cont`` as
    int64 arrays), masks without the class words' groups; None for a tree it cannot read."""
    try:
        return _walk(root, links, tag_codes, containers, tag_mask, hidden_bit, control_bit,
                     linked_bit, hidden_style, control_mark, linked_mark)
    except _Unusual:
        return None


cdef object _walk(root, dict links, dict tag_codes, containers, list tag_mask,
                  long long hidden_bit, long long control_bit, long long linked_bit,
                  hidden_style, bytes control_mark, bytes linked_mark):
    cdef xmlNode* c_root = (<cetree._Element?>root)._c_node
    cdef xmlNode* c = c_root
    cdef xmlNode* nxt
    cdef xmlAttr* a
    cdef xmlAttr* class_attr
    cdef xmlAttr* id_attr
    cdef const char* name
    cdef const char* control_name = control_mark
    cdef const char* linked_name = linked_mark
    cdef Py_ssize_t i = 0, top, sp = 0, code, n_tags = len(tag_mask)
    cdef long long mask
    link_of = {<size_t>(<cetree._Element?>el)._c_node: v for el, v in links.items()}
    # libxml2 interns a document's names: one lookup per distinct name pointer
    cdef NameCache codes
    memset(&codes, 0, sizeof(NameCache))
    cdef Py_ssize_t slot
    cdef bint container_of[64]
    cdef long long mask_of[64]
    if n_tags > 64:
        raise _Unusual()
    for code in range(n_tags):
        container_of[code] = code in containers
        mask_of[code] = tag_mask[code]
    # per element: tag code, parent, depth, end, masks, container; grown by doubling
    cdef Py_ssize_t capacity = 4096
    columns = np.empty((6, capacity), np.int64)
    stack_a = np.empty(capacity + 1, np.int64)
    cdef long long[:, ::1] col = columns
    cdef long long[::1] stack = stack_a
    stack[0] = -1
    link_at = []
    keyed = []
    keys = []
    texts = []
    owner = []
    tails = []
    while True:
        if c.type != XML_ELEMENT_NODE:
            raise _Unusual()
        if c.ns is not NULL:
            code = 0  # "{ns}name": no tag of TAGS
        else:
            slot = _slot(&codes, <size_t>c.name)
            if slot >= 0 and codes.keys[slot] == <size_t>c.name:
                code = codes.values[slot]
            else:
                code = tag_codes.get(_utf8(c.name), 0)
                _remember(&codes, slot, <size_t>c.name, code)
        if i == capacity:
            grown = np.empty((6, 2 * capacity), np.int64)
            grown[:, :capacity] = columns
            columns = grown
            col = columns
            grown_stack = np.empty(2 * capacity + 1, np.int64)
            grown_stack[:capacity + 1] = stack_a
            stack_a = grown_stack
            stack = stack_a
            capacity *= 2
        top = stack[sp]
        col[0, i] = code
        col[1, i] = top
        col[2, i] = sp
        col[3, i] = i + 1
        col[5, i] = i if (container_of[code] or top < 0) else col[5, top]
        if link_of:
            value = link_of.get(<size_t>c)
            if value is not None:
                link_at.append((i, *value))
        mask = mask_of[code]
        a = c.properties
        if a is not NULL:
            class_attr = NULL
            id_attr = NULL
            while a is not NULL:
                if a.ns is NULL:
                    name = <const char*>a.name
                    if strcmp(name, b"class") == 0:
                        if class_attr is NULL:  # el.get reads the first
                            class_attr = a
                    elif strcmp(name, b"id") == 0:
                        if id_attr is NULL:
                            id_attr = a
                    elif strcmp(name, b"hidden") == 0:
                        mask |= hidden_bit
                    elif strcmp(name, b"aria-hidden") == 0:
                        if _value(a) == "true":
                            mask |= hidden_bit
                    elif strcmp(name, b"style") == 0:
                        if hidden_style.search(_value(a)):
                            mask |= hidden_bit
                    elif strcmp(name, control_name) == 0:
                        mask |= control_bit
                    elif strcmp(name, linked_name) == 0:
                        mask |= linked_bit
                a = a.next
            if class_attr is not NULL or id_attr is not NULL:
                keyed.append(i)
                keys.append(f"{_value(class_attr) if class_attr is not NULL else ''} "
                            f"{_value(id_attr) if id_attr is not NULL else ''}")
        col[4, i] = mask
        nxt = _text_or_skip(c.children)
        if nxt is not NULL:
            text = _collect(nxt)
            if text and not text.isspace():
                texts.append(text)
                owner.append(i)
                tails.append(False)
        sp += 1
        stack[sp] = i
        i += 1
        nxt = _next_walked(c.children)
        if nxt is not NULL:
            c = nxt
            continue
        while True:  # the end of c, and of each ancestor that has no next node
            top = stack[sp]
            sp -= 1
            col[3, top] = i
            if c is c_root:  # the root's tail is outside the page
                done = columns[:, :i]
                return (done[0], done[1], done[2], done[3], done[4], texts, owner, tails,
                        done[5], link_at, keyed, keys)
            nxt = _text_or_skip(c.next)
            if nxt is not NULL and top:
                text = _collect(nxt)
                if text and not text.isspace():
                    texts.append(text)
                    owner.append(stack[sp])
                    tails.append(True)
            nxt = _next_walked(c.next)
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent


cdef inline str _attr(xmlNode* c, const char* wanted):
    """``c.get(wanted)`` for a name in no namespace: the first such attribute, else None."""
    cdef xmlAttr* a = c.properties
    while a is not NULL:
        if a.ns is NULL and strcmp(<const char*>a.name, wanted) == 0:
            return _value(a)
        a = a.next
    return None


cdef inline Py_ssize_t _children(xmlNode* c) noexcept:
    """``len(el)``: the nodes lxml counts as children."""
    cdef Py_ssize_t n = 0
    c = c.children
    while c is not NULL:
        n += _walked(c)
        c = c.next
    return n


def markup_walk(root, tuple counted, frozenset blocks, frozenset nav_tags, frozenset main_tags,
                frozenset page_tags, tuple spellings=()):
    """What ``pagekind.markup_counts`` reads from the raw tree besides its microdata: the
    counts of the ``counted`` tags, visible inputs, distinct times, the deepest list, the
    JSON-LD scripts' texts, links in navigation, the site footer's links (elements) and the
    most blocks holding links that share a parent, tag and class; and the links whose href
    holds one of ``spellings`` (UTF-8) and no "#", for ``pagekind.menu_self_links`` to
    judge. None for a tree it cannot read as lxml does (the Python reading serves)."""
    try:
        return _markup_walk(root, counted, blocks, nav_tags, main_tags, page_tags, spellings)
    except _Unusual:
        return None


cdef bint _names_footer(xmlNode* c) except -1:
    """``role="contentinfo"``, or "ooter" in the class or the id (the first of each name, as
    ``el.get`` reads it), tested on libxml2's strings where a value is one text node."""
    cdef xmlAttr* a = c.properties
    cdef bint role_seen = False, class_seen = False, id_seen = False
    cdef const char* name
    cdef xmlNode* child
    while a is not NULL:
        if a.ns is NULL:
            name = <const char*>a.name
            if not role_seen and strcmp(name, b"role") == 0:
                role_seen = True
                if _value(a) == "contentinfo":
                    return True
            elif (not class_seen and strcmp(name, b"class") == 0) or (
                    not id_seen and strcmp(name, b"id") == 0):
                if name[0] == 99:  # "c"
                    class_seen = True
                else:
                    id_seen = True
                child = a.children
                if child is not NULL and child.type == XML_TEXT_NODE and child.next is NULL:
                    if strstr(<const char*>child.content, b"ooter") is not NULL:
                        return True
                elif "ooter" in _value(a):
                    return True
        a = a.next
    return False


cdef enum:
    IN_NAV = 1
    IN_FOOTER = 2
    IN_MAIN = 4
    K_BLOCK = 64
    K_NAV = 128
    K_MAIN = 256
    K_PAGE = 512
    K_FOOTER = 1024
    K_LINK = 2048
    K_LIST = 4096


cdef struct Level:
    xmlNode* node
    long long bits
    bint held
    long long lists


cdef struct Levels:
    Level* at
    Py_ssize_t capacity


cdef object _markup_walk(root, tuple counted, frozenset blocks, frozenset nav_tags,
                         frozenset main_tags, frozenset page_tags, tuple spellings):
    cdef cetree._Document doc = cetree.documentOrRaise(root)
    # the open elements, the root at 1 (0: above it); grown as the tree deepens
    cdef Levels levels
    levels.capacity = 64
    levels.at = <Level*>malloc(levels.capacity * sizeof(Level))
    if levels.at is NULL:
        raise MemoryError()
    levels.at[0].node = NULL
    levels.at[0].bits = 0
    levels.at[0].held = 1
    levels.at[0].lists = 0
    try:
        return _markup_levels((<cetree._Element?>root)._c_node, doc, &levels, counted, blocks,
                              nav_tags, main_tags, page_tags, spellings)
    finally:
        free(levels.at)


cdef object _markup_levels(xmlNode* c_root, cetree._Document doc, Levels* stack,
                           tuple counted, frozenset blocks, frozenset nav_tags,
                           frozenset main_tags, frozenset page_tags, tuple spellings):
    cdef Level* levels = stack.at
    cdef xmlNode* c = c_root
    cdef xmlNode* nxt
    cdef xmlNode* holder
    cdef Level* grown
    cdef Py_ssize_t sp = 0, level, kind
    cdef long long bits
    cdef Py_ssize_t lists = 0, depth = 0, inputs = 0, nav_links = 0
    cdef Py_ssize_t n_counted = len(counted)
    cdef Py_ssize_t UL = counted.index("ul"), OL = counted.index("ol")
    cdef Py_ssize_t INPUT = counted.index("input"), TIME = counted.index("time")
    cdef Py_ssize_t SCRIPT = counted.index("script")
    counts = [0] * n_counted
    # per distinct name pointer: 1 + its index in counted (0: none) | K_* flags
    cdef NameCache kinds
    memset(&kinds, 0, sizeof(NameCache))
    cdef Py_ssize_t slot
    flags_of = {}
    names = {}
    cdef long long flags
    times = set()
    scripts = []
    footer_links = []
    self_links = []
    siblings = {}
    cdef bytes first_bytes = spellings[0] if len(spellings) > 0 else None
    cdef bytes second_bytes = spellings[1] if len(spellings) > 1 else None
    cdef const char* first_spelling = NULL
    cdef const char* second_spelling = NULL
    if first_bytes is not None:
        first_spelling = first_bytes
    if second_bytes is not None:
        second_spelling = second_bytes
    cdef xmlAttr* href
    cdef xmlNode* value
    while True:
        if c.type != XML_ELEMENT_NODE or c.ns is not NULL:
            raise _Unusual()
        slot = _slot(&kinds, <size_t>c.name)
        if slot >= 0 and kinds.keys[slot] == <size_t>c.name:
            flags = kinds.values[slot]
        else:
            name = _utf8(c.name)
            names[<size_t>c.name] = name
            flags = ((counted.index(name) + 1 if name in counted else 0)
                     | K_BLOCK * (name in blocks) | K_NAV * (name in nav_tags)
                     | K_MAIN * (name in main_tags) | K_PAGE * (name in page_tags)
                     | K_FOOTER * (name == "footer") | K_LINK * (name == "a")
                     | K_LIST * (name in ("ul", "ol")))
            flags_of[<size_t>c.name] = flags
            _remember(&kinds, slot, <size_t>c.name, flags)
        kind = (flags & 63) - 1
        # the counted tags, in document order as root.iter(*counted) meets them
        if kind >= 0:
            counts[kind] += 1
            if kind == INPUT:
                inputs += not ((_attr(c, b"type") or "").lower() == "hidden")
            elif kind == TIME:
                times.add(_attr(c, b"datetime") or (_collect(_text_or_skip(c.children))
                                                    if _text_or_skip(c.children) is not NULL
                                                    else None) or "")
            elif kind == UL or kind == OL:
                if counts[UL] + counts[OL] < 2000:
                    depth = max(depth, 1 + levels[sp].lists)
            elif kind == SCRIPT:
                if (_attr(c, b"type") or "").lower() == "application/ld+json":
                    first = _text_or_skip(c.children)
                    scripts.append(_collect(first) if first is not NULL else "")
        # a link: its parent's chain decides navigation and footer, and marks the blocks
        if flags & K_LINK and first_spelling is not NULL:
            href = c.properties
            while href is not NULL and not (href.ns is NULL
                                            and strcmp(<const char*>href.name, b"href") == 0):
                href = href.next
            if href is not NULL:
                value = href.children
                if value is not NULL and value.type == XML_TEXT_NODE and value.next is NULL:
                    if strchr(<const char*>value.content, 35) is NULL and (  # no "#"
                            strstr(<const char*>value.content, first_spelling) is not NULL
                            or (second_spelling is not NULL and strstr(
                                <const char*>value.content, second_spelling) is not NULL)):
                        self_links.append(cetree.elementFactory(doc, c))
                elif value is not NULL:  # a value of several nodes: judged in Python
                    self_links.append(cetree.elementFactory(doc, c))
        if flags & K_LINK and sp > 0:
            bits = levels[sp].bits
            nav_links += (bits & IN_NAV) != 0
            if bits & (IN_FOOTER | IN_MAIN) == IN_FOOTER and _attr(c, b"href") is not None:
                footer_links.append(cetree.elementFactory(doc, c))
            level = sp
            while level > 0 and not levels[level].held:
                levels[level].held = 1
                holder = levels[level].node
                if <long long>flags_of[<size_t>holder.name] & K_BLOCK:
                    key = (<size_t>holder.parent, names[<size_t>holder.name],
                           _attr(holder, b"class") or "")
                    siblings[key] = siblings.get(key, 0) + 1
                level -= 1
        # this element's own state, for its descendants
        bits = levels[sp].bits
        if flags & K_NAV:
            bits |= IN_NAV
        if flags & K_MAIN:
            bits |= IN_MAIN
        elif not bits & IN_FOOTER and not flags & K_PAGE and (flags & K_FOOTER or _names_footer(c)):
            bits |= IN_FOOTER
        sp += 1
        if sp == stack.capacity:
            grown = <Level*>realloc(levels, 2 * stack.capacity * sizeof(Level))
            if grown is NULL:
                raise MemoryError()
            levels = stack.at = grown
            stack.capacity *= 2
        levels[sp].node = c
        levels[sp].bits = bits
        levels[sp].held = 0
        levels[sp].lists = levels[sp - 1].lists + ((flags & K_LIST) != 0)
        nxt = _next_walked(c.children)
        if nxt is not NULL:
            c = nxt
            continue
        while True:
            sp -= 1
            if c is c_root:
                repeated = 0
                for (parent, _, _), n in siblings.items():
                    if parent and n > repeated and _children(<xmlNode*><size_t>parent) >= 3:
                        repeated = n
                return (dict(zip(counted, counts)), inputs, times, depth, scripts, nav_links,
                        footer_links, repeated, self_links)
            nxt = _next_walked(c.next)
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent


cdef inline Py_ssize_t _text_chars(xmlNode* el) noexcept:
    """``len(t) - t.count(" ") - t.count("\\n")`` for ``t`` the text of ``el``'s subtree
    (``etree.tostring(el, method="text")`` without its tail), from libxml2's UTF-8: code
    points are the bytes that do not continue one."""
    cdef Py_ssize_t n = 0
    cdef xmlNode* c = el.children
    cdef const unsigned char* p
    while c is not NULL:
        if c.type == XML_TEXT_NODE or c.type == XML_CDATA_SECTION_NODE:
            p = <const unsigned char*>c.content
            while p[0] != 0:
                if (p[0] & 0xC0) != 0x80 and p[0] != 32 and p[0] != 10:
                    n += 1
                p += 1
        if c.children is not NULL and c.type == XML_ELEMENT_NODE:
            c = c.children
            continue
        while c.next is NULL:
            c = c.parent
            if c is el:
                return n
        c = c.next
    return n


def link_counts(root, frozenset inline):
    """What ``clean`` counts of the links after dropping and before unwrapping:
    ``{block: (link characters, links)}`` by each link's nearest ancestor whose tag is not
    in ``inline``, and the links that hold elements (their blocks get marked). None for a
    tree it cannot read as lxml does."""
    try:
        return _link_counts(root, inline)
    except _Unusual:
        return None


cdef object _link_counts(root, frozenset inline):
    cdef xmlNode* c_root = (<cetree._Element?>root)._c_node
    cdef cetree._Document doc = cetree.documentOrRaise(root)
    cdef xmlNode* c = c_root
    cdef xmlNode* nxt
    cdef xmlNode* block
    cdef NameCache kinds  # 1: an inline tag, 2: "a", 4: neither
    memset(&kinds, 0, sizeof(NameCache))
    cdef Py_ssize_t slot
    cdef long long flags
    counts = {}
    holding = []
    while True:
        if c.type != XML_ELEMENT_NODE:
            raise _Unusual()
        flags = _name_kind(&kinds, c, inline)
        if flags & 2:
            block = c.parent
            while block is not NULL and block.type == XML_ELEMENT_NODE and _name_kind(
                    &kinds, block, inline) & 1:
                block = block.parent
            if block is not NULL and block.type == XML_ELEMENT_NODE:
                found = counts.get(<size_t>block)
                chars = _text_chars(c)
                counts[<size_t>block] = ((chars, 1) if found is None
                                         else (found[0] + chars, found[1] + 1))
                if _next_walked(c.children) is not NULL:
                    holding.append(cetree.elementFactory(doc, c))
        nxt = _next_walked(c.children)
        if nxt is not NULL:
            c = nxt
            continue
        while True:
            if c is c_root:
                return ({cetree.elementFactory(doc, <xmlNode*><size_t>block_at): value
                         for block_at, value in counts.items()}, holding)
            nxt = _next_walked(c.next)
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent


cdef long long _name_kind(NameCache* kinds, xmlNode* c, frozenset inline) except -1:
    cdef Py_ssize_t slot = _slot(kinds, <size_t>c.name)
    cdef long long kind
    if slot >= 0 and kinds.keys[slot] == <size_t>c.name and c.ns is NULL:
        return kinds.values[slot]
    if c.ns is not NULL:
        return 4  # "{ns}name": neither inline nor a link
    name = _utf8(c.name)
    kind = 1 if name in inline else 0
    kind |= 2 if name == "a" else 0
    kind = kind or 4
    _remember(kinds, slot, <size_t>c.name, kind)
    return kind


cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index)
    bint Py_UNICODE_ISSPACE(Py_UCS4)


def char_counts(list texts, const unsigned char[::1] class_of, Py_ssize_t classes):
    """``features._char_counts``: per text, its code points in each class of ``class_of``
    (float64, as ``np.bincount`` gives them), and its last code point that is not white
    space; read from the strings' own storage, without encoding them."""
    cdef Py_ssize_t n = len(texts), row, i, length
    cdef int kind
    cdef void* data
    cdef Py_UCS4 cp
    counts_a = np.zeros((n, classes), np.float64)
    last_a = np.zeros(n, np.int64)
    cdef double[:, ::1] counts = counts_a
    cdef long long[::1] last = last_a
    for row in range(n):
        text = texts[row]
        if not isinstance(text, str):
            raise TypeError("char_counts reads str")
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        length = PyUnicode_GET_LENGTH(text)
        for i in range(length):
            counts[row, class_of[PyUnicode_READ(kind, data, i)]] += 1
        i = length - 1
        while i >= 0 and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)):
            i -= 1
        if i < 0:
            raise ValueError("a text of white space only has no last character")
        last[row] = PyUnicode_READ(kind, data, i)
    return counts_a, last_a


cdef extern from "Python.h":
    object PyUnicode_Substring(object, Py_ssize_t, Py_ssize_t)


cdef inline bint _splits_words(Py_UCS4 cp) noexcept:
    """``features._WORD_SPLIT``'s characters and white space: where a class word ends."""
    return (Py_UNICODE_ISSPACE(cp) or cp == 0x2D or cp == 0x5F or cp == 0x3A or cp == 0x2E
            or cp == 0x2F or (0x30 <= cp <= 0x39))


cdef list _class_words(str value):
    """``features.class_words`` of one value: its lower-cased words, split where
    ``class_words`` splits them (lower-casing each value alone is lower-casing them joined by
    NUL, which ends the final-sigma rule's context there as a value's end does)."""
    lowered = value.lower()
    cdef int kind = PyUnicode_KIND(lowered)
    cdef void* data = PyUnicode_DATA(lowered)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(lowered), i = 0, start
    words = []
    while i < length:
        while i < length and _splits_words(PyUnicode_READ(kind, data, i)):
            i += 1
        start = i
        while i < length and not _splits_words(PyUnicode_READ(kind, data, i)):
            i += 1
        if i > start:
            words.append(PyUnicode_Substring(lowered, start, i))
    return words


def class_masks(list values, dict cache, word_mask, Py_ssize_t cache_max,
                Py_ssize_t cached_chars):
    """``features._class_masks`` as int64: each word's groups from ``word_mask`` (the cached
    ``features._word_mask``), values of at most ``cached_chars`` kept in ``cache``. Most of a
    page's ~300 values are new on a site's first page, and ``str.translate`` split them in
    ~0.3 ms."""
    cdef Py_ssize_t n = len(values), row
    cdef long long mask
    out_a = np.empty(n, np.int64)
    cdef long long[::1] out = out_a
    for row in range(n):
        value = values[row]
        found = cache.get(value)
        if found is not None:
            out[row] = found
            continue
        mask = 0
        for word in _class_words(<str?>value):
            mask |= <long long>word_mask(word)
        out[row] = mask
        if len(value) <= cached_chars:
            if len(cache) >= cache_max:
                cache.clear()
            cache[value] = mask
    return out_a


cdef struct WordEntry:
    long long row
    long long element
    long long index


cdef int _by_row_then_element(const void* a, const void* b) noexcept nogil:
    cdef const WordEntry* x = <const WordEntry*>a
    cdef const WordEntry* y = <const WordEntry*>b
    if x.row != y.row:
        return -1 if x.row < y.row else 1
    if x.element != y.element:
        return -1 if x.element < y.element else 1
    return 0


cdef extern from "stdlib.h":
    void qsort(void* base, size_t n, size_t size,
               int (*compar)(const void*, const void*) noexcept nogil) noexcept nogil


@cython.boundscheck(False)
@cython.wraparound(False)
def path_word_scores(list keys, const long long[::1] keyed, const long long[::1] parent,
                     const long long[::1] end, const long long[::1] owner, dict cache,
                     dict rows_of, const double[:, ::1] weights, double intercept):
    """``pathwords.PathWords.score``: the same sums, added in the same order (so the same
    float64 values before the float32 cast), in loops instead of ~25 NumPy calls a page.

    ``cache`` maps a "class id" value to the word rows it holds (each once, in the value's
    order), as ``pathwords._word_rows`` fills it."""
    cdef Py_ssize_t n = owner.shape[0], n_el = parent.shape[0], k, j, m = 0, b, i
    cdef Py_ssize_t n_keyed = keyed.shape[0]
    if len(keys) != n_keyed or end.shape[0] != n_el or weights.shape[1] != 5:
        raise ValueError("path_word_scores: arrays of mismatched lengths")
    of_element = [cache.get(value) for value in keys]
    for k in range(n_keyed):
        if of_element[k] is None:
            value = keys[k]
            rows = cache.get(value)
            if rows is None:
                found = []
                for word in _class_words(<str?>value):
                    r = rows_of.get(word)
                    if r is not None and r not in found:
                        found.append(r)
                rows = cache[value] = tuple(found)
            of_element[k] = rows
    for k in range(n_keyed):
        m += len(<tuple>of_element[k])
    out_a = np.empty(n, np.float32)
    cdef float[::1] out = out_a
    if n == 0:
        return out_a
    if m == 0:
        out_a.fill(intercept)
        return out_a
    cdef WordEntry* entries = <WordEntry*>malloc(m * sizeof(WordEntry))
    cdef double* own = <double*>malloc(3 * (n_el + 1) * sizeof(double))
    cdef double* add = <double*>malloc(2 * (n_el + 1) * sizeof(double))
    cdef double* sub = <double*>malloc(2 * (n_el + 1) * sizeof(double))
    cdef long long e, p, gp, ggp, r_, n_rows = weights.shape[0]
    cdef long long reach = -1, key
    cdef double total, running0, running1
    try:
        if entries is NULL or own is NULL or add is NULL or sub is NULL:
            raise MemoryError()
        memset(own, 0, 3 * (n_el + 1) * sizeof(double))
        memset(add, 0, 2 * (n_el + 1) * sizeof(double))
        memset(sub, 0, 2 * (n_el + 1) * sizeof(double))
        m = 0
        for k in range(n_keyed):
            e = keyed[k]
            if e < 0 or e >= n_el:
                raise ValueError("path_word_scores: a keyed element outside the tree")
            for r in <tuple>of_element[k]:
                r_ = r
                if r_ < 0 or r_ >= n_rows:
                    raise ValueError("path_word_scores: a word row outside the weights")
                entries[m].row = r_
                entries[m].element = e
                entries[m].index = m
                for b in range(3):  # np.bincount(element, M[:, b]): in entry order
                    own[b * (n_el + 1) + e] += weights[r_, b]
                m += 1
        qsort(entries, m, sizeof(WordEntry), _by_row_then_element)
        for i in range(m):
            e = entries[i].element
            if end[e] < 0 or end[e] > n_el:
                raise ValueError("path_word_scores: a subtree end outside the tree")
            key = entries[i].row * (n_el + 1) + e
            if key >= reach:  # no earlier element with this word spans this one: topmost
                for b in range(2):
                    add[b * (n_el + 1) + e] += weights[entries[i].row, 3 + b]
                    sub[b * (n_el + 1) + end[e]] += weights[entries[i].row, 3 + b]
            key = entries[i].row * (n_el + 1) + end[e]
            if key > reach:
                reach = key
        running0 = running1 = 0.0
        for i in range(n_el + 1):  # np.cumsum(add - sub), the two path buckets
            running0 = running0 + (add[i] - sub[i])
            running1 = running1 + (add[n_el + 1 + i] - sub[n_el + 1 + i])
            add[i] = running0
            add[n_el + 1 + i] = running1
        for j in range(n):
            e = owner[j]
            if e < 0 or e >= n_el:
                raise ValueError("path_word_scores: a node's owner outside the tree")
            p = parent[e]
            gp = parent[p] if 0 <= p < n_el else -1
            ggp = parent[gp] if 0 <= gp < n_el else -1
            if p >= n_el or gp >= n_el or ggp >= n_el:
                raise ValueError("path_word_scores: a parent outside the tree")
            total = own[e] + own[n_el + 1 + (p if p >= 0 else n_el)]
            total = total + own[2 * (n_el + 1) + (gp if gp >= 0 else n_el)]
            total = total + add[ggp if ggp >= 0 else n_el] * (1.0 if ggp >= 0 else 0.0)
            total = total + add[n_el + 1 + e]
            out[j] = <float>(total + intercept)
        return out_a
    finally:
        free(entries)
        free(own)
        free(add)
        free(sub)


def metadata_elements(root, tuple tags):
    """``metadata.collect._collect``'s two reads of the raw tree in one walk: the elements
    whose tag is one of ``tags`` (as ``top.iter(*tags)`` gives them) and those holding an
    ``itemprop`` attribute (the XPath ``/descendant::*/@itemprop/..``), each in document
    order, from the document's root element. The XPath alone was 0.38 ms of _collect's 0.56
    on a median WCXB page."""
    cdef cetree._Document doc = cetree.documentOrRaise(root)
    top = root.getroottree().getroot()
    cdef xmlNode* c_root = (<cetree._Element?>top)._c_node
    cdef xmlNode* c = c_root
    cdef xmlAttr* a
    cdef Py_ssize_t k, n_tags = len(tags)
    names = [t.encode("utf-8") for t in tags]
    cdef const char* wanted[16]
    if n_tags > 16:
        raise ValueError("metadata_elements: at most 16 tags")
    for k in range(n_tags):
        wanted[k] = <const char*>(<bytes>names[k])
    tagged = []
    props = []
    while True:
        if c.type == XML_ELEMENT_NODE:
            if c.ns is NULL:
                for k in range(n_tags):
                    if strcmp(<const char*>c.name, wanted[k]) == 0:
                        tagged.append(cetree.elementFactory(doc, c))
                        break
            a = c.properties
            while a is not NULL:
                if a.ns is NULL and strcmp(<const char*>a.name, "itemprop") == 0:
                    props.append(cetree.elementFactory(doc, c))
                    break
                a = a.next
            if c.children is not NULL:
                c = c.children
                continue
        while True:
            if c is c_root:
                return tagged, props
            if c.next is not NULL:
                c = c.next
                break
            c = c.parent


cdef double _pairwise_sum(const double* a, Py_ssize_t n) noexcept nogil:
    """NumPy's float64 ``sum``, to the bit: pairwise, eight accumulators up to 128 items."""
    cdef Py_ssize_t i, half
    cdef double res
    cdef double r[8]
    if n < 8:
        res = -0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        for i in range(8):
            r[i] = a[i]
        i = 8
        while i < n - (n % 8):
            r[0] += a[i]
            r[1] += a[i + 1]
            r[2] += a[i + 2]
            r[3] += a[i + 3]
            r[4] += a[i + 4]
            r[5] += a[i + 5]
            r[6] += a[i + 6]
            r[7] += a[i + 7]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i]
            i += 1
        return res
    half = n // 2
    half -= half % 8
    return _pairwise_sum(a, half) + _pairwise_sum(a + half, n - half)


cdef void _subtree_sums(const double* per_node, const long long* owner, Py_ssize_t n,
                        const long long* end, Py_ssize_t n_el, double* prefix,
                        double* out) noexcept nogil:
    """``context._subtree``: per element, ``per_node`` summed over its subtree's nodes (the
    per-element sums in node order, then one prefix sum over the pre-order)."""
    cdef Py_ssize_t i
    memset(out, 0, n_el * sizeof(double))
    for i in range(n):
        out[owner[i]] += per_node[i]
    prefix[0] = 0.0
    for i in range(n_el):
        prefix[i + 1] = prefix[i] + out[i]
    for i in range(n_el):
        out[i] = prefix[end[i]] - prefix[i]


cdef Py_ssize_t _deepest_holding(const double* sub_mass, const long long* depth, Py_ssize_t n_el,
                                 double at_least) noexcept nogil:
    cdef Py_ssize_t i, best = -1
    for i in range(n_el):
        if sub_mass[i] >= at_least and (best < 0 or depth[i] > depth[best]):
            best = i
    return best


cdef struct Ranked:
    double p
    Py_ssize_t at


cdef int _by_p_descending(const void* a, const void* b) noexcept nogil:
    cdef const Ranked* x = <const Ranked*>a
    cdef const Ranked* y = <const Ranked*>b
    if x.p > y.p:
        return -1
    if x.p < y.p:
        return 1
    return (x.at > y.at) - (x.at < y.at)


CONTEXT_COMPUTED = 45
"""The columns ``context_columns`` fills: every ``CONTEXT_NAMES`` column but the carried ones."""


@cython.boundscheck(False)
@cython.wraparound(False)
def context_columns(const float[::1] proba, const double[::1] weight,
                    const long long[::1] container, const long long[::1] owner,
                    const long long[::1] parent, const long long[::1] end,
                    const long long[::1] depth, float[:, ::1] X,
                    const long long[::1] offsets, const long long[::1] windows,
                    const long long[::1] climb, double sure, double sure_core_holds,
                    double root_holds):
    """``context.context_features``' computed columns into ``X[:, :45]``, the same float32
    values: every sum in NumPy's order (``bincount`` and ``cumsum`` in node order, ``sum``
    pairwise), so that stage 2 sees the columns it was trained on. ~60 NumPy calls on a few
    hundred rows cost ~0.5 ms a page."""
    cdef Py_ssize_t n = proba.shape[0], n_el = parent.shape[0], i, j, k, c, at, lo, hi
    if (weight.shape[0] != n or container.shape[0] != n or owner.shape[0] != n
            or end.shape[0] != n_el or depth.shape[0] != n_el or X.shape[0] != n
            or X.shape[1] < CONTEXT_COMPUTED):
        raise ValueError("context_columns: arrays of mismatched lengths")
    if 2 * offsets.shape[0] + windows.shape[0] + 3 * climb.shape[0] + 20 != CONTEXT_COMPUTED:
        raise ValueError("context_columns: not the context stage's column count")
    if n == 0:
        return
    if n_el == 0:
        raise ValueError("context_columns: nodes without elements")
    for i in range(n):
        if owner[i] < 0 or owner[i] >= n_el or container[i] < 0 or container[i] >= n_el:
            raise ValueError("context_columns: a node's element outside the tree")
    for i in range(n_el):
        if end[i] < i or end[i] > n_el or parent[i] >= n_el:
            raise ValueError("context_columns: a subtree outside the tree")
    doubles = np.zeros((7, n + 1), np.float64)
    per_element = np.zeros((9, n_el + 1), np.float64)
    counts = np.zeros(n_el, np.int64)
    cdef double[:, ::1] d = doubles
    cdef double[:, ::1] e = per_element
    cdef long long[::1] count = counts
    cdef double* p = &d[0, 0]
    cdef double* wp = &d[1, 0]       # weight * p
    cdef double* wk = &d[2, 0]       # weight * kept
    cdef double* ws = &d[3, 0]       # weight * sure
    cdef double* csum = &d[4, 0]     # [0, cumsum(p)]
    cdef double* kept_chars = &d[5, 0]
    cdef double* col = &d[6, 0]
    cdef double* sum_wp = &e[0, 0]
    cdef double* sum_w = &e[1, 0]
    cdef double* high = &e[2, 0]
    cdef double* low = &e[3, 0]
    cdef double* sub_w = &e[4, 0]
    cdef double* sub_wp = &e[5, 0]
    cdef double* sub_kept = &e[6, 0]
    cdef double* sub_sure = &e[7, 0]
    cdef double* prefix = &e[8, 0]   # n_el + 1 long, as every row
    ranked_a = np.empty(n * sizeof(Ranked), np.uint8)
    cdef unsigned char[::1] ranked_buffer = ranked_a
    cdef Ranked* ranked = <Ranked*>&ranked_buffer[0]
    kept_at_a = np.empty(n, np.int64)
    cdef long long[::1] kept_at = kept_at_a
    cdef Py_ssize_t n_kept = 0, n_levels = climb.shape[0], any_sure = 0, pos, left, right
    cdef double pmax, total_kept, total_w, total_sub_kept, w_sum, value, anc_w
    cdef long long a, root, core, offset
    chain_a = np.empty(n_el, np.int64)
    cdef long long[::1] chain = chain_a
    cdef Py_ssize_t chain_n, starts, holding
    cdef bint inside
    with nogil:
        for i in range(n):
            p[i] = proba[i]
            wp[i] = weight[i] * p[i]
            wk[i] = weight[i] * (1.0 if p[i] > 0.5 else 0.0)
            ws[i] = weight[i] * (1.0 if p[i] >= sure else 0.0)
            any_sure = any_sure or p[i] >= sure
            if p[i] > 0.5:
                kept_at[n_kept] = i
                n_kept += 1
        c = 0
        for i in range(n):
            X[i, c] = <float>p[i]
        c += 1
        for k in range(offsets.shape[0]):
            offset = offsets[k]
            for i in range(n):
                X[i, c] = <float>(p[i - offset] if i - offset >= 0 else -1.0)
            c += 1
        for k in range(offsets.shape[0]):
            offset = offsets[k]
            for i in range(n):
                X[i, c] = <float>(p[i + offset] if i + offset < n else -1.0)
            c += 1
        csum[0] = 0.0
        for i in range(n):
            csum[i + 1] = csum[i] + p[i]
        for k in range(windows.shape[0]):
            offset = windows[k]
            for i in range(n):
                lo = i - offset if i - offset > 0 else 0
                hi = i + offset + 1 if i + offset + 1 < n else n
                X[i, c] = <float>((csum[hi] - csum[lo]) / <double>(hi - lo))
            c += 1
        # per container: weighted mean, max, min, log1p(count)
        for i in range(n_el):
            high[i] = -INFINITY
            low[i] = INFINITY
        for i in range(n):
            a = container[i]
            sum_wp[a] += wp[i]
            sum_w[a] += weight[i]
            if p[i] > high[a]:
                high[a] = p[i]
            if p[i] < low[a]:
                low[a] = p[i]
            count[a] += 1
        for i in range(n):
            a = container[i]
            X[i, c] = <float>(sum_wp[a] / sum_w[a])
            X[i, c + 1] = <float>high[a]
            X[i, c + 2] = <float>low[a]
            X[i, c + 3] = <float>log1p(<double>count[a])
        c += 4
        memset(sum_wp, 0, n_el * sizeof(double))
        memset(sum_w, 0, n_el * sizeof(double))
        for i in range(n):
            sum_wp[owner[i]] += wp[i]
            sum_w[owner[i]] += weight[i]
        for i in range(n):
            X[i, c] = <float>(sum_wp[owner[i]] / sum_w[owner[i]])
        c += 1
        pmax = p[0]
        for i in range(1, n):
            if p[i] > pmax:
                pmax = p[i]
        w_sum = _pairwise_sum(&weight[0], n)
        value = _pairwise_sum(wp, n) / w_sum
        for i in range(n):
            X[i, c] = <float>pmax
            X[i, c + 1] = <float>value
        value = _pairwise_sum(wk, n) / w_sum
        for i in range(n):
            X[i, c + 2] = <float>value
        c += 3
        # distance to the nearest kept node, in nodes, over n
        pos = 0
        for i in range(n):
            if n_kept == 0:
                X[i, c] = 1.0
                continue
            while pos < n_kept and kept_at[pos] < i:
                pos += 1
            left = kept_at[pos - 1 if pos > 0 else 0]
            right = kept_at[pos if pos < n_kept else n_kept - 1]
            lo = i - left if i >= left else left - i
            hi = right - i if right >= i else i - right
            X[i, c] = <float>(<double>(lo if lo < hi else hi) / <double>n)
        c += 1
        for i in range(n):
            ranked[i].p = p[i]
            ranked[i].at = i
        # argsort(-p, kind="stable"): p descending, ties in reading order
        qsort(ranked, n, sizeof(Ranked), _by_p_descending)
        for i in range(n):
            col[ranked[i].at] = <double>i
        for i in range(n):
            X[i, c] = <float>(col[i] / <double>n)
        c += 1
        kept_chars[0] = wk[0]
        for i in range(1, n):
            kept_chars[i] = kept_chars[i - 1] + wk[i]
        total_kept = kept_chars[n - 1] if not (1.0 > kept_chars[n - 1]) else 1.0
        for i in range(n):
            X[i, c] = <float>((kept_chars[i] - wk[i]) / total_kept)
            X[i, c + 1] = <float>((total_kept - kept_chars[i]) / total_kept)
        c += 2
        # subtrees a few levels up
        _subtree_sums(&weight[0], &owner[0], n, &end[0], n_el, prefix, sub_w)
        _subtree_sums(wp, &owner[0], n, &end[0], n_el, prefix, sub_wp)
        _subtree_sums(wk, &owner[0], n, &end[0], n_el, prefix, sub_kept)
        total_w = sub_w[0] if not (1.0 > sub_w[0]) else 1.0
        total_sub_kept = sub_kept[0] if not (1.0 > sub_kept[0]) else 1.0
        for i in range(n):
            a = owner[i]
            at = 0
            for k in range(n_levels):
                while at < climb[k]:
                    a = parent[a] if parent[a] > 0 else 0
                    at += 1
                anc_w = sub_w[a] if not (1.0 > sub_w[a]) else 1.0
                X[i, c + 3 * k] = <float>(sub_wp[a] / anc_w)
                X[i, c + 3 * k + 1] = <float>(sub_kept[a] / total_sub_kept)
                X[i, c + 3 * k + 2] = <float>(sub_w[a] / total_w)
        c += 3 * n_levels
        root = 0
        if sub_kept[0] > 0:
            root = _deepest_holding(sub_kept, &depth[0], n_el, root_holds * total_sub_kept)
        for i in range(n):
            inside = owner[i] >= root and owner[i] < end[root]
            X[i, c] = 1.0 if inside else 0.0
            X[i, c + 1] = <float>(sub_w[root] / total_w)
            X[i, c + 2] = <float>(<double>(depth[owner[i]] - depth[root]) if inside else -1.0)
        c += 3
        # where each node stands to the subtree holding the sure text
        if not any_sure:
            for i in range(n):
                X[i, c] = 0.0
                X[i, c + 1] = -1.0
                X[i, c + 2] = 0.0
                X[i, c + 3] = 0.0
        else:
            _subtree_sums(ws, &owner[0], n, &end[0], n_el, prefix, sub_sure)
            core = _deepest_holding(sub_sure, &depth[0], n_el, sure_core_holds * sub_sure[0])
            chain_n = 0
            a = core
            while True:
                chain[chain_n] = a
                chain_n += 1
                if parent[a] < 0 or chain_n == n_el:
                    break
                a = parent[a]
            value = _pairwise_sum(ws, n) / (w_sum if not (1.0 > w_sum) else 1.0)
            for i in range(n):
                a = owner[i]
                inside = a >= core and a < end[core]
                starts = holding = 0
                for j in range(chain_n):
                    starts += chain[j] <= a
                    holding += end[chain[j]] > a
                k = min(starts, holding) - 1  # in the chain root first
                X[i, c] = 1.0 if inside else 0.0
                X[i, c + 1] = <float>(0.0 if inside else
                                      <double>(depth[a] - depth[chain[chain_n - 1 - k]]))
                X[i, c + 2] = <float>(sub_w[core] / total_w)
                X[i, c + 3] = <float>value


cdef enum:  # the order of features._C_COLUMNS
    K_CHARS, K_SPACE_RATIO, K_LETTER_RATIO, K_UPPER_RATIO, K_CJK_RATIO, K_DIGIT_RATIO,
    K_PUNCT_RATIO, K_SYMBOL_RATIO, K_STOPS, K_STOPS_PER_100, K_ENDS_WITH_STOP,
    K_ENDS_WITH_COLON, K_IS_TAIL, K_CASED_RUN, K_IS_ONLY_TEXT, K_DEPTH, K_REL_DEPTH, K_TAG,
    K_PARENT_TAG, K_GRAND_TAG, K_SAME_TAG_SIBLINGS, K_SIBLINGS, K_CHILDREN,
    K_OWNER_TEXT_NODES, K_IS_HEADING, K_RANK, K_CHARS_BEFORE, K_DENSITY, K_NEIGHBOURS,
    K_ANCESTORS, K_IN_BEST_BLOCK, K_BEST_BLOCK_SHARE, K_PAGE_CHARS, K_PAGE_NODES,
    K_CHARS_REL_MAX, K_CONT_REL_MAX, K_COLUMNS

cdef enum:  # features' character classes
    CC_OTHER, CC_SPACE, CC_LOWER, CC_UPPER, CC_LETTER, CC_DIGIT, CC_STOP, CC_PUNCT, CC_SYMBOL,
    CC_CLASSES


cdef inline double _at_least(double x, double floor) noexcept nogil:
    """``np.maximum(x, floor)`` and ``max(x, floor)`` for the counts here (never NaN)."""
    return x if not (floor > x) else floor


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
def node_columns(const double[:, ::1] counts, const long long[::1] last_cp,
                 const unsigned char[::1] tails, const long long[::1] owner,
                 const long long[:, ::1] link_rows, const long long[::1] tag_code,
                 const long long[::1] parent, const long long[::1] depth,
                 const long long[::1] end, const long long[::1] cont,
                 const long long[::1] masks, float[:, ::1] X, const long long[::1] cols,
                 const unsigned char[::1] class_of, const unsigned char[::1] is_heading,
                 long long p_code, long long body_code, long long control_bit,
                 Py_ssize_t groups, long long no_ancestor):
    """``features._computed_columns`` in C: the same float32 values into ``X`` (logs from
    libm, which NumPy's SIMD logs match after the float32 cast), and the same three arrays
    back. ~100 NumPy calls on a page's few hundred rows: ``node_features`` took 1.27 ms
    median on WCXB dev with them, 0.86 with this."""
    cdef Py_ssize_t n = owner.shape[0], n_el = tag_code.shape[0], n_tags = is_heading.shape[0]
    cdef Py_ssize_t i, j, k, g, o, po, gpo, c, at, best, lanes = groups + 1
    if (counts.shape[0] != n or counts.shape[1] != CC_CLASSES or last_cp.shape[0] != n
            or tails.shape[0] != n or X.shape[0] != n or cols.shape[0] != K_COLUMNS
            or parent.shape[0] != n_el or depth.shape[0] != n_el or end.shape[0] != n_el
            or cont.shape[0] != n_el or masks.shape[0] != n_el or link_rows.shape[1] != 3):
        raise ValueError("node_columns: arrays of mismatched lengths")
    if n == 0 or n_el == 0:
        raise ValueError("node_columns: a page without text nodes or elements")
    if n_tags > 64 or lanes > 63 or no_ancestor < 1 or no_ancestor > 255:
        raise ValueError("node_columns: more tags or groups than it counts")
    for k in range(K_COLUMNS):
        if cols[k] < 0 or cols[k] >= X.shape[1]:
            raise ValueError("node_columns: a column outside X")
    if (cols[K_DENSITY] + 48 > X.shape[1] or cols[K_NEIGHBOURS] + 16 > X.shape[1]
            or cols[K_ANCESTORS] + groups > X.shape[1]):
        raise ValueError("node_columns: a block of columns outside X")
    for i in range(n_el):
        if (parent[i] >= i or parent[i] < (-1 if i == 0 else 0) or end[i] <= i
                or end[i] > n_el or cont[i] < 0 or cont[i] >= n_el or tag_code[i] < 0
                or tag_code[i] >= n_tags or depth[i] < 0):
            raise ValueError("node_columns: not a pre-order tree")
    for i in range(n):
        if owner[i] < 0 or owner[i] >= n_el or last_cp[i] < 0 or last_cp[i] >= class_of.shape[0]:
            raise ValueError("node_columns: a node outside the tree")
    for j in range(link_rows.shape[0]):
        if link_rows[j, 0] < 0 or link_rows[j, 0] >= n_el:
            raise ValueError("node_columns: a link count outside the tree")

    chars_a = np.empty(n, np.float64)
    co_a = np.empty(n, np.int64)
    linked_a = np.empty(n, np.float32)
    cdef double[::1] chars = chars_a
    cdef long long[::1] co = co_a
    cdef float[::1] linked = linked_a
    # per element: own chars, punctuation, nodes, link chars, link count, <p>; then the
    # subtree sums of each (prefix sums over the pre-order); then ds and dt
    sums_a = np.zeros((14, n_el + 1), np.float64)
    cdef double[:, ::1] e = sums_a
    density_a = np.empty((n_el, 12), np.float32)
    cdef float[:, ::1] dens = density_a
    shape_a = np.zeros((3, n_el), np.int64)  # same-tag siblings, children, control held
    cdef long long[:, ::1] shape = shape_a
    dist_a = np.empty((n_el, lanes), np.uint8)
    cdef unsigned char[:, ::1] dist = dist_a
    cdef double length, safe, letters, punct, total_chars, plain, dt, dp, ds, ds_max, value
    cdef double largest = -INFINITY
    cdef double max_chars = 0.0, max_cont = 0.0, before = 0.0, max_depth = 1.0
    cdef long long tag_count[64]
    cdef long long mask, up

    with nogil:
        # the text's own columns
        for i in range(n):
            length = 0.0
            for k in range(CC_CLASSES):
                length = length + counts[i, k]
            chars[i] = length - counts[i, CC_SPACE]
            safe = _at_least(chars[i], 1.0)
            letters = counts[i, CC_LOWER] + counts[i, CC_UPPER] + counts[i, CC_LETTER]
            punct = counts[i, CC_STOP] + counts[i, CC_PUNCT]
            X[i, cols[K_CHARS]] = <float>log1p(chars[i])
            X[i, cols[K_SPACE_RATIO]] = <float>(counts[i, CC_SPACE] / _at_least(length, 1.0))
            X[i, cols[K_LETTER_RATIO]] = <float>(letters / safe)
            X[i, cols[K_UPPER_RATIO]] = <float>(counts[i, CC_UPPER] / _at_least(letters, 1.0))
            X[i, cols[K_CJK_RATIO]] = <float>(counts[i, CC_LETTER] / safe)
            X[i, cols[K_DIGIT_RATIO]] = <float>(counts[i, CC_DIGIT] / safe)
            X[i, cols[K_PUNCT_RATIO]] = <float>(punct / safe)
            X[i, cols[K_SYMBOL_RATIO]] = <float>(counts[i, CC_SYMBOL] / safe)
            X[i, cols[K_STOPS]] = <float>log1p(counts[i, CC_STOP])
            X[i, cols[K_STOPS_PER_100]] = <float>(100.0 * counts[i, CC_STOP] / safe)
            X[i, cols[K_ENDS_WITH_STOP]] = 1.0 if class_of[last_cp[i]] == CC_STOP else 0.0
            X[i, cols[K_ENDS_WITH_COLON]] = (
                1.0 if last_cp[i] == 0x3A or last_cp[i] == 0xFF1A else 0.0)
            X[i, cols[K_IS_TAIL]] = 1.0 if tails[i] else 0.0
            X[i, cols[K_CASED_RUN]] = <float>log1p(
                (counts[i, CC_LOWER] + counts[i, CC_UPPER] + counts[i, CC_DIGIT])
                / (counts[i, CC_SPACE] + 1.0))
            o = owner[i]
            e[0, o] += chars[i]
            e[1, o] += punct
            e[2, o] += 1.0
            if chars[i] > max_chars:
                max_chars = chars[i]
        for j in range(link_rows.shape[0]):
            e[3, link_rows[j, 0]] = <double>link_rows[j, 1]
            e[4, link_rows[j, 0]] = <double>link_rows[j, 2]
        for i in range(n_el):
            e[5, i] = 1.0 if tag_code[i] == p_code else 0.0
            if <double>depth[i] > max_depth:
                max_depth = <double>depth[i]
        # subtree sums: integer-valued doubles, exact in any order
        for k in range(6):
            value = 0.0
            for i in range(n_el):  # e[6 + k] first holds the prefix sums, shifted by one
                e[6 + k, i] = value
                value = value + e[k, i]
            e[6 + k, n_el] = value
            for i in range(n_el):
                e[6 + k, i] = e[6 + k, end[i]] - e[6 + k, i]
        # sub_chars 6, sub_link 9 (at most sub_chars), sub_links 10, sub_punct 7,
        # sub_nodes 8, sub_p 11 (less the element's own <p>)
        total_chars = _at_least(e[6, 0], 1.0)
        best = 0
        for i in range(n_el):
            if e[9, i] > e[6, i]:
                e[9, i] = e[6, i]
            e[11, i] = e[11, i] - e[5, i]
            plain = _at_least(e[6, i] - e[9, i], 0.0)
            dt = plain / _at_least(<double>(end[i] - i - 1) + 1.0 - e[10, i], 1.0)
            dp = plain / (e[7, i] + 1.0)
            ds = dt * log10(e[11, i] + 2.0) * log(_at_least(dp, 1.0))
            e[12, i] = ds
            e[13, i] = dt
            value = -1.0 if tag_code[i] == body_code else ds
            if value > largest:  # the first of the largest, as np.argmax
                largest = value
                best = i
        ds_max = _at_least(e[12, best], 1e-6)
        for i in range(n_el):
            dens[i, 0] = <float>(e[9, i] / _at_least(e[6, i], 1.0))
            dens[i, 1] = <float>log1p(e[10, i])
            dens[i, 2] = <float>(e[6, i] / total_chars)
            dens[i, 3] = <float>log1p(e[6, i])
            dens[i, 4] = <float>log1p(e[8, i])
            dens[i, 5] = <float>log1p(e[6, i] / _at_least(e[8, i], 1.0))
            dens[i, 6] = <float>log1p(e[11, i])
            dens[i, 7] = <float>log1p(<double>(end[i] - i - 1))
            dens[i, 8] = <float>(e[7, i] / _at_least(e[6, i], 1.0))
            dens[i, 9] = <float>log1p(e[13, i])
            dens[i, 10] = <float>log1p(e[12, i])
            dens[i, 11] = <float>(e[12, i] / ds_max)
        # same-tag siblings and children: each element's children, first child to next
        for i in range(n_tags):
            tag_count[i] = 0
        for i in range(n_el):
            c = i + 1
            while c < end[i]:
                tag_count[tag_code[c]] += 1
                shape[1, i] += 1
                c = end[c]
            c = i + 1
            while c < end[i]:
                shape[0, c] = tag_count[tag_code[c]] - 1
                c = end[c]
            c = i + 1
            while c < end[i]:
                tag_count[tag_code[c]] = 0
                c = end[c]
        # a control's block marks every element holding it, then each element's distance
        # to the nearest element carrying each group (itself included), top down
        for i in range(n_el - 1, -1, -1):
            if masks[i] & control_bit:
                shape[2, i] = 1
            if shape[2, i] and i > 0:
                shape[2, parent[i]] = 1
        for i in range(n_el):
            mask = masks[i] | (control_bit if shape[2, i] else 0)
            for g in range(lanes):
                if (mask >> g) & 1:
                    dist[i, g] = 0
                elif i == 0:
                    dist[i, g] = <unsigned char>no_ancestor
                else:
                    up = dist[parent[i], g] + 1
                    dist[i, g] = <unsigned char>(up if up < no_ancestor else no_ancestor)
        # each node's element, parent, grandparent and container
        for i in range(n):
            o = owner[i]
            po = parent[o] if parent[o] > 0 else 0
            gpo = parent[po] if parent[po] > 0 else 0
            co[i] = cont[po] if cont[o] == o else cont[o]
            X[i, cols[K_IS_ONLY_TEXT]] = 1.0 if e[2, o] == e[8, o] else 0.0
            X[i, cols[K_DEPTH]] = <float>depth[o]
            X[i, cols[K_REL_DEPTH]] = <float>(<double>depth[o] / max_depth)
            X[i, cols[K_TAG]] = <float>tag_code[o]
            X[i, cols[K_PARENT_TAG]] = <float>tag_code[po]
            X[i, cols[K_GRAND_TAG]] = <float>tag_code[gpo]
            X[i, cols[K_SAME_TAG_SIBLINGS]] = <float>log1p(<double>shape[0, o])
            X[i, cols[K_SIBLINGS]] = <float>log1p(
                <double>(shape[1, parent[o] if parent[o] > 0 else 0] - 1))
            X[i, cols[K_CHILDREN]] = <float>log1p(<double>shape[1, o])
            X[i, cols[K_OWNER_TEXT_NODES]] = <float>log1p(e[2, o])
            X[i, cols[K_IS_HEADING]] = 1.0 if is_heading[tag_code[o]] else 0.0
            X[i, cols[K_RANK]] = <float>(<double>i / <double>n)
            before = before + chars[i]
            X[i, cols[K_CHARS_BEFORE]] = <float>((before - chars[i]) / total_chars)
            c = cols[K_DENSITY]
            for k in range(12):
                X[i, c + k] = dens[o, k]
                X[i, c + 12 + k] = dens[po, k]
                X[i, c + 24 + k] = dens[gpo, k]
                X[i, c + 36 + k] = dens[co[i], k]
            c = cols[K_ANCESTORS]
            for g in range(groups):
                X[i, c + g] = <float>dist[o, g]
            linked[i] = <float>dist[o, groups]
            X[i, cols[K_IN_BEST_BLOCK]] = 1.0 if o >= best and o < end[best] else 0.0
            X[i, cols[K_BEST_BLOCK_SHARE]] = <float>(e[6, best] / total_chars)
            X[i, cols[K_PAGE_CHARS]] = <float>log1p(total_chars)
            X[i, cols[K_PAGE_NODES]] = <float>log1p(<double>n)
            if e[6, co[i]] > max_cont:
                max_cont = e[6, co[i]]
        # neighbours in reading order: prev1, prev2, next1, next2, each chars, link
        # density, punctuation ratio and same container; -1 (and not the same) past an end
        for i in range(n):
            X[i, cols[K_CHARS_REL_MAX]] = <float>(chars[i] / _at_least(max_chars, 1.0))
            X[i, cols[K_CONT_REL_MAX]] = <float>(e[6, co[i]] / _at_least(max_cont, 1.0))
            for k in range(4):
                at = i - 1 - k if k < 2 else i + k - 1
                c = cols[K_NEIGHBOURS] + 4 * k
                if at < 0 or at >= n:
                    X[i, c] = X[i, c + 1] = X[i, c + 2] = -1.0
                    X[i, c + 3] = 0.0
                else:
                    X[i, c] = X[at, cols[K_CHARS]]
                    X[i, c + 1] = X[at, cols[K_DENSITY]]
                    X[i, c + 2] = X[at, cols[K_PUNCT_RATIO]]
                    X[i, c + 3] = 1.0 if co[i] == co[at] else 0.0
    return chars_a, co_a, linked_a


cdef inline bint _blank(const_xmlChar* s) noexcept:
    """No character but XPath's spaces (``normalize-space()`` of it is empty)."""
    while s[0] != 0:
        if s[0] != 32 and s[0] != 9 and s[0] != 10 and s[0] != 13:
            return False
        s += 1
    return True


cdef inline xmlNode* _text_owner(xmlNode* c) noexcept:
    """The element an lxml smart string of the text node ``c`` names as its parent: the
    nearest node before it that lxml counts as an element (the text is its tail), else the
    text's parent (lxml's ``_buildElementStringResult``)."""
    cdef xmlNode* before = c.prev
    while before is not NULL:
        if _walked(before):
            return before
        before = before.prev
    return c.parent


def following_texts(el, Py_ssize_t n, bint holders=False):
    """The first ``n`` non-blank text nodes after ``el`` (not inside it), as the XPath
    ``following::text()[normalize-space()]`` gives them: plain strings, or with ``holders``
    (text, element) pairs, the element that lxml's smart string would return from
    ``getparent()``. The XPath cannot stop early (libxml2 evaluates a predicate on every text
    to the document's end), which cost ~0.5 ms a page. None for a node this walk does not
    read as libxml2's axis does."""
    cdef xmlNode* c = (<cetree._Element?>el)._c_node
    cdef cetree._Document doc = cetree.documentOrRaise(el)
    cdef int kind
    texts = []
    if n <= 0:
        return texts
    while c.next is NULL:  # the first step passes over el's own subtree
        c = c.parent
        if c is NULL or c.type != XML_ELEMENT_NODE:
            return texts
    c = c.next
    while True:
        kind = c.type
        if kind == XML_TEXT_NODE or kind == XML_CDATA_SECTION_NODE:
            if c.content is not NULL and not _blank(c.content):
                if holders:
                    texts.append((_utf8(c.content), cetree.elementFactory(doc, _text_owner(c))))
                else:
                    texts.append(_utf8(c.content))
                if len(texts) == n:
                    return texts
        elif kind != XML_ELEMENT_NODE and kind != 8 and kind != 7:  # comments and PIs
            return None
        if kind == XML_ELEMENT_NODE and c.children is not NULL:
            c = c.children
            continue
        while c.next is NULL:
            c = c.parent
            if c is NULL or c.type != XML_ELEMENT_NODE:
                return texts
        c = c.next


cdef inline bint _named(xmlNode* c, frozenset names) except -1:
    return c.ns is NULL and <bytes>(<const char*>c.name) in names


cdef inline bint _enterable(xmlNode* c, frozenset opaque) except -1:
    """An element whose texts ``walk._iter_subtree`` reads (not a comment, PI, entity or an
    opaque element)."""
    return c.type == XML_ELEMENT_NODE and not _named(c, opaque)


cdef bint _add_text(xmlNode* first, object holder, list out, Py_ssize_t limit) except -1:
    """A text or tail starting at the text node ``first``, if not blank; True at ``limit``."""
    if first is NULL:
        return False
    text = _collect(first)
    if text and not text.isspace():
        out.append((text, holder))
    return len(out) >= limit


cdef bint _subtree_texts(xmlNode* top, cetree._Document doc, frozenset opaque, list out,
                         Py_ssize_t limit) except -1:
    """``walk._iter_subtree(top)`` into ``out``, True once it holds ``limit``: each entered
    element's text, then its descendants, then on leaving a node its tail (held by the
    parent); in a loop over the nodes' links, not a recursion (a deep page)."""
    cdef xmlNode* cur = top
    cdef xmlNode* child
    if not _enterable(top, opaque):
        return False
    if _add_text(_text_or_skip(top.children), cetree.elementFactory(doc, top), out, limit):
        return True
    while True:
        child = _next_walked(cur.children) if _enterable(cur, opaque) else NULL
        if child is not NULL:
            cur = child
            if _enterable(cur, opaque) and _add_text(
                    _text_or_skip(cur.children), cetree.elementFactory(doc, cur), out, limit):
                return True
            continue
        while True:  # leave cur: its tail, then its next sibling or its parent's end
            if cur is top:
                return False
            if _add_text(_text_or_skip(cur.next), cetree.elementFactory(doc, cur.parent),
                         out, limit):
                return True
            child = _next_walked(cur.next)
            if child is not NULL:
                cur = child
                if _enterable(cur, opaque) and _add_text(
                        _text_or_skip(cur.children), cetree.elementFactory(doc, cur), out,
                        limit):
                    return True
                break
            cur = cur.parent


def texts_after(el, frozenset opaque, Py_ssize_t limit):
    """``metadata.walk._iter_after(el)``'s first ``limit`` (text, holder) pairs: the non-blank
    texts after ``el`` (not inside it), tails held by their parent, the texts of ``opaque``
    elements (UTF-8 tag names) passed over. lxml's iterwalk, one Python generator per sibling
    subtree, cost ~0.25 ms a page."""
    cdef cetree._Document doc = cetree.documentOrRaise(el)
    cdef xmlNode* node = (<cetree._Element?>el)._c_node
    cdef xmlNode* parent
    cdef xmlNode* sib
    out = []
    if limit <= 0:
        return out
    while node is not NULL:
        parent = node.parent
        if parent is not NULL and parent.type != XML_ELEMENT_NODE:
            parent = NULL
        holder = cetree.elementFactory(doc, parent) if parent is not NULL else None
        if _add_text(_text_or_skip(node.next), holder, out, limit):
            return out
        sib = _next_walked(node.next)
        while sib is not NULL:
            if _subtree_texts(sib, doc, opaque, out, limit):
                return out
            if _add_text(_text_or_skip(sib.next), holder, out, limit):
                return out
            sib = _next_walked(sib.next)
        node = parent
    return out


cdef inline xmlNode* _next_element(xmlNode* c) noexcept:
    while c is not NULL and c.type != XML_ELEMENT_NODE:
        c = c.next
    return c


cdef Py_ssize_t _elements_after(xmlNode* node, Py_ssize_t limit, xmlNode** out) noexcept:
    """Into ``out``, the first ``limit`` elements after ``node`` in document order
    (``metadata.walk._elements_after``: its following siblings' subtrees, then its
    ancestors'); how many there were."""
    cdef xmlNode* top
    cdef xmlNode* c
    cdef xmlNode* nxt
    cdef Py_ssize_t seen = 0
    while node is not NULL and node.type == XML_ELEMENT_NODE:
        top = node.next
        while top is not NULL:
            if top.type == XML_ELEMENT_NODE:
                c = top  # its subtree, elements only, in pre-order
                while True:
                    if seen >= limit:
                        return seen
                    out[seen] = c
                    seen += 1
                    nxt = _next_element(c.children)
                    if nxt is not NULL:
                        c = nxt
                        continue
                    while c is not top:
                        nxt = _next_element(c.next)
                        if nxt is not NULL:
                            c = nxt
                            break
                        c = c.parent
                    if c is top:
                        break
            top = top.next
        node = node.parent
    return seen


cdef xmlNode** _window(Py_ssize_t limit) except NULL:
    cdef xmlNode** window = <xmlNode**>malloc((limit if limit > 0 else 1) * sizeof(xmlNode*))
    if window is NULL:
        raise MemoryError()
    return window


def links_after(el, Py_ssize_t limit):
    """The ``href`` (or "") of each ``<a>`` among the first ``limit`` elements after ``el``
    in document order (``_elements_after``), so that a window with no link of interest is
    passed over without a Python step per element. None for an attribute this walk does not
    read as lxml does."""
    cdef xmlNode** window = _window(limit)
    cdef Py_ssize_t i, n
    cdef xmlNode* c
    hrefs = []
    try:
        n = _elements_after((<cetree._Element?>el)._c_node, limit, window)
        for i in range(n):
            c = window[i]
            if c.ns is NULL and strcmp(<const char*>c.name, "a") == 0:
                href = _attr(c, "href")
                hrefs.append(href if href is not None else "")
        return hrefs
    except _Unusual:
        return None
    finally:
        free(window)


cdef bint _mentions_byline(xmlAttr* a) noexcept:
    """Whether a class, id or data-testid value may name a byline as ``bylines._is_byline``
    reads it: it holds "aut", "byline", "writer", "contributor", "yazar" or "penulis" in ASCII
    letters of either case (every word that test looks for holds one), or a byte outside
    ASCII (whose lower case ``str.lower`` decides: "İ" has an ASCII "i" in it), or a node
    other than text."""
    cdef xmlNode* child = a.children
    cdef const unsigned char* s
    cdef Py_ssize_t i, j, k, n
    cdef unsigned char ch
    cdef const char* needle
    while child is not NULL:
        if child.type != XML_TEXT_NODE:
            return True
        s = <const unsigned char*>child.content
        n = strlen(<const char*>s) if s is not NULL else 0
        for i in range(n):
            if s[i] >= 0x80:
                return True
        for needle in (b"aut", b"byline", b"writer", b"contributor", b"yazar", b"penulis"):
            k = strlen(needle)
            for i in range(n - k + 1):
                for j in range(k):
                    ch = s[i + j]
                    if ch >= 0x41 and ch <= 0x5A:
                        ch += 0x20
                    if ch != <unsigned char>needle[j]:
                        break
                else:
                    return True
        child = child.next
    return False


cdef bint _may_be_byline(xmlNode* c) noexcept:
    """A superset of the elements ``bylines._is_byline`` accepts, read from the attributes
    alone: one with ``rel`` or ``itemprop``, a link with ``href`` or ``data-author``, or a
    class, id or data-testid that may name a byline."""
    cdef xmlAttr* a = c.properties
    cdef bint link = c.ns is NULL and strcmp(<const char*>c.name, b"a") == 0
    cdef const char* name
    while a is not NULL:
        if a.ns is NULL:
            name = <const char*>a.name
            if strcmp(name, b"rel") == 0 or strcmp(name, b"itemprop") == 0:
                return True
            if link and (strcmp(name, b"href") == 0 or strcmp(name, b"data-author") == 0):
                return True
            if ((strcmp(name, b"class") == 0 or strcmp(name, b"id") == 0
                    or strcmp(name, b"data-testid") == 0) and _mentions_byline(a)):
                return True
        a = a.next
    return False


def byline_candidates_after(el, Py_ssize_t limit):
    """Of the first ``limit`` elements after ``el`` in ``bylines._bylines_after``'s order
    (``_elements_after``), those ``_is_byline`` may accept (``_may_be_byline``), in that
    order: the test runs in Python on a few elements, not 150."""
    cdef cetree._Document doc = cetree.documentOrRaise(el)
    cdef xmlNode** window = _window(limit)
    cdef Py_ssize_t i, n
    found = []
    try:
        n = _elements_after((<cetree._Element?>el)._c_node, limit, window)
        for i in range(n):
            if _may_be_byline(window[i]):
                found.append(cetree.elementFactory(doc, window[i]))
        return found
    finally:
        free(window)


cdef inline xmlNode* _previous_element(xmlNode* c) noexcept:
    while c is not NULL and c.type != XML_ELEMENT_NODE:
        c = c.prev
    return c


cdef inline xmlNode* _last_descendant(xmlNode* c) noexcept:
    """``c``'s last element in pre-order: its last element child's, and so on down."""
    cdef xmlNode* child
    while True:
        child = _previous_element(c.last)
        if child is NULL:
            return c
        c = child


def byline_candidates_before(el, Py_ssize_t limit):
    """Of the first ``limit`` elements before ``el``, nearest first (``walk._iter_elements_before``:
    each preceding sibling's subtree backwards, then its ancestors' preceding siblings'), those
    ``_is_byline`` may accept, in that order."""
    cdef cetree._Document doc = cetree.documentOrRaise(el)
    cdef xmlNode* node = (<cetree._Element?>el)._c_node
    cdef xmlNode* top
    cdef xmlNode* c
    cdef xmlNode* prev
    cdef Py_ssize_t seen = 0
    found = []
    while node is not NULL and node.type == XML_ELEMENT_NODE:
        top = _previous_element(node.prev)
        while top is not NULL:
            c = _last_descendant(top)
            while True:
                if seen >= limit:
                    return found
                seen += 1
                if _may_be_byline(c):
                    found.append(cetree.elementFactory(doc, c))
                if c is top:
                    break
                prev = _previous_element(c.prev)
                c = _last_descendant(prev) if prev is not NULL else c.parent
            top = _previous_element(top.prev)
        node = node.parent
    return found

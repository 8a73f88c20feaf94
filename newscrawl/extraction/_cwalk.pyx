# cython: language_level=3
"""``features._walk`` in C: the same arrays from libxml2's nodes, without a Python object per
element (the walk was half of the features stage, and that stage the largest of extraction).

It reads the tree through lxml's public C API (``etreepublic``) and libxml2's node structs,
built against the lxml it was compiled with (``LXML_VERSION``); ``features`` uses it only
under that lxml, and only for the trees it can read exactly as lxml reads them: elements
whose text and attribute values are text nodes. Anything else (a comment, an entity
reference, an attribute holding one) gives None, and the Python walk reads that page.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen

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


cdef inline bint _walked(xmlNode* c) noexcept:
    # what lxml's iterwalk visits: elements, comments, entity references, PIs
    return c.type == 1 or c.type == 8 or c.type == 5 or c.type == 7


cdef inline xmlNode* _next_walked(xmlNode* c) noexcept:
    while c is not NULL and not _walked(c):
        c = c.next
    return c


cdef Py_ssize_t _count(xmlNode* root) noexcept:
    cdef Py_ssize_t n = 0
    cdef xmlNode* c = root
    cdef xmlNode* nxt
    while True:
        n += 1
        nxt = _next_walked(c.children)
        if nxt is not NULL:
            c = nxt
            continue
        while True:
            if c is root:
                return n
            nxt = _next_walked(c.next)
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent


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
    cdef xmlNode* c_root = (<cetree._Element>root)._c_node
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
    cdef Py_ssize_t n_el = _count(c_root)
    link_of = {<size_t>(<cetree._Element>el)._c_node: v for el, v in links.items()}
    code_of_name = {}  # libxml2 interns a document's names: one lookup per distinct pointer
    is_container = [k in containers for k in range(n_tags)]
    tag_code_a, parent_a, depth_a, end_a, masks_a, cont_a = (
        np.empty(n_el, np.int64) for _ in range(6))
    cdef long long[::1] tag_code = tag_code_a, parent = parent_a, depth = depth_a
    cdef long long[::1] end = end_a, masks = masks_a, cont = cont_a
    stack_a = np.empty(n_el + 1, np.int64)
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
            found = code_of_name.get(<size_t>c.name)
            if found is None:
                found = code_of_name[<size_t>c.name] = tag_codes.get(_utf8(c.name), 0)
            code = found
        top = stack[sp]
        tag_code[i] = code
        parent[i] = top
        depth[i] = sp
        end[i] = i + 1
        cont[i] = i if (is_container[code] or top < 0) else cont[top]
        if link_of:
            value = link_of.get(<size_t>c)
            if value is not None:
                link_at.append((i, *value))
        mask = tag_mask[code]
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
        masks[i] = mask
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
            end[top] = i
            if c is c_root:  # the root's tail is outside the page
                return (tag_code_a, parent_a, depth_a, end_a, masks_a, texts, owner, tails,
                        cont_a, link_at, keyed, keys)
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

# cython: language_level=3
from lxml.includes.tree cimport xmlNode, xmlAttr, xmlChar, const_xmlChar
from lxml.includes.tree cimport XML_ELEMENT_NODE, XML_TEXT_NODE, XML_CDATA_SECTION_NODE, XML_XINCLUDE_START, XML_XINCLUDE_END
cimport lxml.includes.etreepublic as cetree
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strlen, strcmp

cetree.import_lxml__etree()

cdef inline xmlNode* _text_or_skip(xmlNode* c) noexcept:
    while c is not NULL:
        if c.type == XML_TEXT_NODE or c.type == XML_CDATA_SECTION_NODE:
            return c
        elif c.type == XML_XINCLUDE_START or c.type == XML_XINCLUDE_END:
            c = c.next
        else:
            return NULL
    return NULL

cdef object _collect(xmlNode* c):
    """lxml's .text / .tail of a node list: None when there is no text node."""
    cdef xmlNode* first = _text_or_skip(c)
    cdef xmlNode* cur = first
    cdef int count = 0
    cdef const_xmlChar* last = NULL
    while cur is not NULL:
        if cur.content[0] != 0:
            last = cur.content
        count += 1
        cur = _text_or_skip(cur.next)
    if last is NULL:
        return '' if count else None
    if count == 1:
        return PyUnicode_DecodeUTF8(<const char*>last, strlen(<const char*>last), NULL)
    out = b''
    cur = first
    while cur is not NULL:
        out += <bytes>(<const char*>cur.content)
        cur = _text_or_skip(cur.next)
    return out.decode('utf-8')

cdef inline bint _is_node(xmlNode* c) noexcept:
    # what lxml iterates: elements, comments, entity refs, PIs
    return c.type == 1 or c.type == 8 or c.type == 5 or c.type == 7

class _Unusual(Exception):
    pass

cdef object _value(xmlAttr* a):
    """An attribute's value as lxml reads it, for attributes whose children are text nodes."""
    cdef xmlNode* ch = a.children
    if ch is NULL:
        return ''
    if ch.type != XML_TEXT_NODE:
        raise _Unusual()
    if ch.next is NULL:
        return PyUnicode_DecodeUTF8(<const char*>ch.content, strlen(<const char*>ch.content), NULL)
    out = b''
    while ch is not NULL:
        if ch.type != XML_TEXT_NODE:
            raise _Unusual()
        out += <bytes>(<const char*>ch.content)
        ch = ch.next
    return out.decode('utf-8')


def walk(root, links, *args):
    try:
        return _walk(root, links, *args)
    except _Unusual:
        return None

def _walk(root, links, dict tag_codes, containers, list tag_mask, int hidden_bit, int control_bit,
         int linked_bit, hidden_style, bytes control_mark, bytes linked_mark):
    """Returns None when the tree holds anything but elements (the Python walk decides)."""
    cdef xmlNode* c_root = (<cetree._Element>root)._c_node
    cdef xmlNode* c = c_root
    cdef xmlNode* nxt
    cdef xmlAttr* a
    cdef int i, top, code, mask, n = 0
    cdef xmlAttr* cls_a
    cdef xmlAttr* id_a
    link_of = {}
    for el, v in links.items():
        link_of[<size_t>(<cetree._Element>el)._c_node] = v
    names_cache = {}
    link_at = []; cont = []; tag_code = []; parent = []; depth = []; end = []
    masks = []; keyed = []; keys = []; texts = []; owner = []; tails = []
    stack = [-1]
    cdef list nodes_stack = []
    cdef size_t addr
    while True:
        # start event for c
        if c.type != XML_ELEMENT_NODE:
            return None
        i = len(tag_code)
        if c.ns is not NULL:
            code = 0
        else:
            addr = <size_t>c.name
            k = names_cache.get(addr)
            if k is None:
                k = tag_codes.get(PyUnicode_DecodeUTF8(<const char*>c.name, strlen(<const char*>c.name), NULL), 0)
                names_cache[addr] = k
            code = k
        top = stack[-1]
        tag_code.append(code)
        parent.append(top)
        depth.append(len(stack) - 1)
        end.append(i + 1)
        cont.append(i if (code in containers or top < 0) else cont[top])
        v = link_of.get(<size_t>c)
        if v is not None:
            link_at.append((i, *v))
        mask = tag_mask[code]
        a = c.properties
        if a is not NULL:
            cls_a = NULL
            id_a = NULL
            while a is not NULL:
                if a.ns is NULL:
                    nm = <const char*>a.name
                    if strcmp(nm, b"class") == 0:
                        if cls_a is NULL:
                            cls_a = a
                    elif strcmp(nm, b"id") == 0:
                        if id_a is NULL:
                            id_a = a
                    elif strcmp(nm, b"hidden") == 0:
                        mask |= hidden_bit
                    elif strcmp(nm, b"aria-hidden") == 0:
                        if _value(a) == "true":
                            mask |= hidden_bit
                    elif strcmp(nm, b"style") == 0:
                        if hidden_style.search(_value(a)):
                            mask |= hidden_bit
                    elif strcmp(nm, <const char*>control_mark) == 0:
                        mask |= control_bit
                    elif strcmp(nm, <const char*>linked_mark) == 0:
                        mask |= linked_bit
                a = a.next
            if cls_a is not NULL or id_a is not NULL:
                keyed.append(i)
                keys.append(f"{_value(cls_a) if cls_a is not NULL else ''} {_value(id_a) if id_a is not NULL else ''}")
        masks.append(mask)
        t = _collect(c.children)
        if t and not t.isspace():
            texts.append(t); owner.append(i); tails.append(False)
        stack.append(i)
        # descend to the first child node
        nxt = c.children
        while nxt is not NULL and not _is_node(nxt):
            nxt = nxt.next
        if nxt is not NULL:
            c = nxt
            continue
        # no children: end events up the tree until a next sibling
        while True:
            i = stack.pop()
            end[i] = len(tag_code)
            if c is c_root:
                return tag_code, parent, depth, end, masks, texts, owner, tails, cont, link_at, keyed, keys
            t = _collect(c.next)
            if t and i and not t.isspace():
                texts.append(t); owner.append(stack[-1]); tails.append(True)
            nxt = c.next
            while nxt is not NULL and not _is_node(nxt):
                nxt = nxt.next
            if nxt is not NULL:
                c = nxt
                break
            c = c.parent

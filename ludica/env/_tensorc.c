/* The observation encoder of ludica/env/tensor.py, in C (optional; built by setup.py beside the
 * mypyc kernels).
 *
 * tensor.py turns a Schema's field tree into a plan of nested tuples (Schema._spec); Plan(spec)
 * compiles it into the tree of Node below, once per schema. Plan.encode(out, view, ...) then lays
 * a seat's view out into `out`, an array('f') of zeros, exactly as the fields' own `put` methods
 * do: each number is computed in double and stored as float32 (what `out[at] = x` on an array
 * does), a count is read back as double, increased, and stored again (`out[at] += 1.0`), and the
 * view is read with Python's own semantics (truthiness, float(), dict lookups, iteration).
 * A field the plan does not know (K_PY) is laid out by its own `put`, called with the same array.
 *
 * Errors: any exception raised here (a gap in the schema, a malformed view, or a case this code
 * declines, e.g. non-ASCII digits) makes tensor.py encode the view again in Python, which gives the
 * exact tensor or the exact error (with its message and "key: " prefixes). So this code only has
 * to be right when it succeeds, and to fail rather than guess.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

enum {
    K_REC = 0, K_NUM, K_FLAG, K_ONEOF, K_MEMBERS, K_SEAT, K_SEATS, K_TEXT, K_OPT, K_BYSEAT,
    K_BYID, K_SEQ, K_DICE, K_SENTENCE, K_SEATOR, K_BITS, K_WORKERS, K_PY, K_COUNT
};

typedef struct Node Node;
struct Node {
    int kind;
    int counts;         /* Members, Seats: add 1.0 instead of setting 1.0 */
    Py_ssize_t n;       /* seats (Seat, Seats, BySeat, Dice, Workers), items (Seq), digits (Bits) */
    Py_ssize_t k;       /* dice per seat (Dice), faces (Workers), the other part's offset (SeatOr) */
    Py_ssize_t block;   /* BySeat, ById, Seq: one item's slots with its presence slot */
    double shift, scale;
    PyObject *obj;      /* index dict (OneOf, Members, ById), extra tuple (Seat), pattern
                           (Sentence), bound `put` (K_PY) */
    PyObject *key;      /* BySeat, ById: the item key naming the seat or id (NULL for None) */
    Py_ssize_t nchild;  /* Rec: its fields of at least one slot */
    PyObject **keys;
    Py_ssize_t *offs;
    Node **child;       /* Rec: its fields; Opt, BySeat, ById, Seq, Sentence, SeatOr: child[0]
                           is the inner field (SeatOr: child[1] is the other part) */
    PyObject *fields;   /* Rec: key -> its field's number in `keys` (every key is an exact str) */
    Py_ssize_t nseen;   /* Rec: the entries remembered in seen/seen_as */
    PyObject **seen;    /* Rec: the key met last at each place of a view dict's entries */
    Py_ssize_t *seen_as; /* Rec: the field number of that key (-1: not a field, e.g. free text) */
};

/* A Rec remembers the keys of the dicts it read, place by place (the game builds them in the same
 * order from step to step): a key met at the same place as before is the very same object, so it
 * is known without a lookup. */
#define SEEN_EXTRA 8

typedef struct {
    float *buf;
    Py_ssize_t len;
    PyObject *out;  /* the array itself, for the fields laid out in Python */
    PyObject *ctx;  /* the tensor.Ctx, for the same */
    PyObject *pos;  /* ctx.pos: seat -> place in the observer's order */
} Enc;

static PyObject *SchemaError = NULL;
static PyObject *str_fullmatch = NULL, *str_groupdict = NULL, *str_get = NULL, *str_items = NULL, *str_pos = NULL;
static PyObject *skip_ids = NULL; /* (None, ""): ids ById rejects even when not strict */

static void node_free(Node *f)
{
    if (f == NULL)
        return;
    Py_XDECREF(f->obj);
    Py_XDECREF(f->key);
    Py_XDECREF(f->fields);
    for (Py_ssize_t i = 0; i < f->nseen; i++)
        Py_XDECREF(f->seen[i]);
    PyMem_Free(f->seen);
    PyMem_Free(f->seen_as);
    for (Py_ssize_t i = 0; i < f->nchild; i++) {
        if (f->keys)
            Py_XDECREF(f->keys[i]);
        if (f->child)
            node_free(f->child[i]);
    }
    PyMem_Free(f->keys);
    PyMem_Free(f->offs);
    PyMem_Free(f->child);
    PyMem_Free(f);
}

/* ---------------------------------------------------------------- building a plan from a spec */

static int spec_size(PyObject *spec, Py_ssize_t i, Py_ssize_t *out)
{
    *out = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, i));
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int spec_double(PyObject *spec, Py_ssize_t i, double *out)
{
    *out = PyFloat_AsDouble(PyTuple_GET_ITEM(spec, i));
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static Node *node_build(PyObject *spec);

static int node_children(Node *f, Py_ssize_t count)
{
    f->child = PyMem_Calloc((size_t)count, sizeof(Node *));
    if (f->child == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    f->nchild = count;
    return 0;
}

/* A Rec's key -> field number, and room for the keys it meets (see SEEN_EXTRA); keys that are not
 * all distinct exact str leave `fields` NULL (the Rec is then read key by key). */
static int build_fields(Node *f)
{
    PyObject *fields = PyDict_New();
    if (fields == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < f->nchild; i++) {
        if (!PyUnicode_CheckExact(f->keys[i])) {
            Py_DECREF(fields);
            return 0;
        }
        PyObject *number = PyLong_FromSsize_t(i);
        if (number == NULL || PyDict_SetItem(fields, f->keys[i], number) < 0) {
            Py_XDECREF(number);
            Py_DECREF(fields);
            return -1;
        }
        Py_DECREF(number);
    }
    if (PyDict_GET_SIZE(fields) != f->nchild) {
        Py_DECREF(fields);
        return 0;
    }
    Py_ssize_t room = 2 * f->nchild + SEEN_EXTRA;
    f->seen = PyMem_Calloc((size_t)room, sizeof(PyObject *));
    f->seen_as = PyMem_Calloc((size_t)room, sizeof(Py_ssize_t));
    if (f->seen == NULL || f->seen_as == NULL) {
        Py_DECREF(fields);
        PyErr_NoMemory();
        return -1;
    }
    f->nseen = room;
    f->fields = fields;
    return 0;
}

static int build_rec(Node *f, PyObject *items)
{
    if (!PyTuple_Check(items)) {
        PyErr_SetString(PyExc_TypeError, "a Rec spec holds a tuple of (key, offset, spec)");
        return -1;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(items);
    f->keys = PyMem_Calloc((size_t)count + 1, sizeof(PyObject *));
    f->offs = PyMem_Calloc((size_t)count + 1, sizeof(Py_ssize_t));
    if (f->keys == NULL || f->offs == NULL || node_children(f, count) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *item = PyTuple_GET_ITEM(items, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3) {
            PyErr_SetString(PyExc_TypeError, "a Rec field spec is (key, offset, spec)");
            return -1;
        }
        f->keys[i] = Py_NewRef(PyTuple_GET_ITEM(item, 0));
        if (spec_size(item, 1, &f->offs[i]) < 0)
            return -1;
        f->child[i] = node_build(PyTuple_GET_ITEM(item, 2));
        if (f->child[i] == NULL)
            return -1;
    }
    return build_fields(f);
}

static const Py_ssize_t spec_lengths[K_COUNT] = {
    2, 3, 1, 2, 3, 3, 3, 1, 2, 5, 5, 4, 3, 3, 4, 2, 4, 2,
};

static Node *node_build(PyObject *spec)
{
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) < 1) {
        PyErr_SetString(PyExc_TypeError, "a field spec is a tuple (kind, ...)");
        return NULL;
    }
    long kind = PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
    if (kind == -1 && PyErr_Occurred())
        return NULL;
    if (kind < 0 || kind >= K_COUNT || PyTuple_GET_SIZE(spec) != spec_lengths[kind]) {
        PyErr_Format(PyExc_ValueError, "bad field spec of kind %ld", kind);
        return NULL;
    }
    Node *f = PyMem_Calloc(1, sizeof(Node));
    if (f == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    f->kind = (int)kind;
    f->scale = 1.0;
    int ok = 0;
    PyObject *a = PyTuple_GET_SIZE(spec) > 1 ? PyTuple_GET_ITEM(spec, 1) : NULL;
    switch (kind) {
    case K_REC: /* (0, ((key, offset, spec), ...)) */
        ok = build_rec(f, a);
        break;
    case K_NUM: /* (1, offset, scale) */
        ok = spec_double(spec, 1, &f->shift) < 0 || spec_double(spec, 2, &f->scale) < 0 ? -1 : 0;
        break;
    case K_FLAG: case K_TEXT:
        break;
    case K_ONEOF: /* (3, index) */
        f->obj = Py_NewRef(a);
        break;
    case K_MEMBERS: /* (4, index, counts) */
        f->obj = Py_NewRef(a);
        f->counts = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 2));
        ok = f->counts < 0 ? -1 : 0;
        break;
    case K_SEAT: /* (5, n, extra) */
        f->obj = Py_NewRef(PyTuple_GET_ITEM(spec, 2));
        ok = spec_size(spec, 1, &f->n);
        break;
    case K_SEATS: /* (6, n, counts) */
        f->counts = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 2));
        ok = f->counts < 0 ? -1 : spec_size(spec, 1, &f->n);
        break;
    case K_OPT: /* (8, inner) */
        ok = node_children(f, 1) < 0 || (f->child[0] = node_build(a)) == NULL ? -1 : 0;
        break;
    case K_BYSEAT: /* (9, n, block, key, item) */
    case K_BYID:   /* (10, index, block, key, item) */
        if (kind == K_BYSEAT)
            ok = spec_size(spec, 1, &f->n);
        else
            f->obj = Py_NewRef(a);
        if (PyTuple_GET_ITEM(spec, 3) != Py_None)
            f->key = Py_NewRef(PyTuple_GET_ITEM(spec, 3));
        if (ok == 0)
            ok = spec_size(spec, 2, &f->block);
        if (ok == 0)
            ok = node_children(f, 1) < 0 || (f->child[0] = node_build(PyTuple_GET_ITEM(spec, 4))) == NULL ? -1 : 0;
        break;
    case K_SEQ: /* (11, n, block, item) */
        ok = spec_size(spec, 1, &f->n) < 0 || spec_size(spec, 2, &f->block) < 0 ? -1 : 0;
        if (ok == 0)
            ok = node_children(f, 1) < 0 || (f->child[0] = node_build(PyTuple_GET_ITEM(spec, 3))) == NULL ? -1 : 0;
        break;
    case K_DICE: /* (12, n, k) */
        ok = spec_size(spec, 1, &f->n) < 0 || spec_size(spec, 2, &f->k) < 0 ? -1 : 0;
        break;
    case K_SENTENCE: /* (13, pattern, rec spec) */
        f->obj = Py_NewRef(a);
        ok = node_children(f, 1) < 0 || (f->child[0] = node_build(PyTuple_GET_ITEM(spec, 2))) == NULL ? -1 : 0;
        if (ok == 0 && f->child[0]->kind != K_REC) {
            PyErr_SetString(PyExc_ValueError, "a Sentence's groups are a Rec");
            ok = -1;
        }
        break;
    case K_SEATOR: /* (14, seat spec, other spec, other offset) */
        ok = node_children(f, 2) < 0 || (f->child[0] = node_build(a)) == NULL
                     || (f->child[1] = node_build(PyTuple_GET_ITEM(spec, 2))) == NULL
                     || spec_size(spec, 3, &f->k) < 0
                 ? -1 : 0;
        break;
    case K_BITS: /* (15, n) */
        ok = spec_size(spec, 1, &f->n);
        break;
    case K_WORKERS: /* (16, n, faces, scale) */
        ok = spec_size(spec, 1, &f->n) < 0 || spec_size(spec, 2, &f->k) < 0 || spec_double(spec, 3, &f->scale) < 0
                 ? -1 : 0;
        break;
    case K_PY: /* (17, bound put) */
        f->obj = Py_NewRef(a);
        break;
    }
    if (ok < 0) {
        node_free(f);
        return NULL;
    }
    return f;
}

/* ---------------------------------------------------------------- laying a view out */

static int out_of_range(void)
{
    PyErr_SetString(PyExc_IndexError, "array assignment index out of range");
    return -1;
}

/* out[i] = v: computed in double, stored as float32 */
static inline int store(Enc *e, Py_ssize_t i, double v)
{
    if (i < 0 || i >= e->len)
        return out_of_range();
    e->buf[i] = (float)v;
    return 0;
}

/* out[i] += v: read back as double, increased, stored as float32 */
static inline int add(Enc *e, Py_ssize_t i, double v)
{
    if (i < 0 || i >= e->len)
        return out_of_range();
    e->buf[i] = (float)((double)e->buf[i] + v);
    return 0;
}

static int gap(const char *what)
{
    PyErr_SetString(SchemaError, what);
    return -1;
}

/* float(v), as Num.put reads a number */
static inline int as_double(PyObject *v, double *d)
{
    if (PyFloat_CheckExact(v)) {
        *d = PyFloat_AS_DOUBLE(v);
        return 0;
    }
    if (PyLong_CheckExact(v)) {
        *d = PyLong_AsDouble(v);
        return (*d == -1.0 && PyErr_Occurred()) ? -1 : 0;
    }
    PyObject *f = PyNumber_Float(v);
    if (f == NULL)
        return -1;
    *d = PyFloat_AS_DOUBLE(f);
    Py_DECREF(f);
    return 0;
}

/* index.get(key): 1 and *i when found, 0 when not, -1 on an error (e.g. an unhashable key) */
static inline int lookup(PyObject *index, PyObject *key, Py_ssize_t *i)
{
    PyObject *found = PyDict_GetItemWithError(index, key);
    if (found == NULL)
        return PyErr_Occurred() ? -1 : 0;
    *i = PyLong_AsSsize_t(found);
    return (*i == -1 && PyErr_Occurred()) ? -1 : 1;
}

/* `value or ()` as a list or tuple (a new reference), or NULL with no error when value is falsy */
static PyObject *items_or_none(PyObject *v, int *err)
{
    *err = 0;
    int truth = PyObject_IsTrue(v);
    if (truth <= 0) {
        *err = truth < 0;
        return NULL;
    }
    PyObject *seq = PySequence_Fast(v, "not iterable");
    *err = seq == NULL;
    return seq;
}

static int put(Enc *e, Node *f, Py_ssize_t at, PyObject *v);

/* One field of a Rec: its value `x` (not None) laid out; plain numbers and flags inline */
static inline int put_field(Enc *e, Node *f, Py_ssize_t i, Py_ssize_t at, PyObject *x)
{
    Node *c = f->child[i];
    Py_ssize_t slot = at + f->offs[i];
    if (c->kind == K_NUM) {
        double d;
        return as_double(x, &d) < 0 ? -1 : store(e, slot, (d + c->shift) / c->scale);
    }
    if (c->kind == K_FLAG) {
        int r = x == Py_True ? 1 : x == Py_False ? 0 : PyObject_IsTrue(x);
        return r > 0 ? store(e, slot, 1.0) : r;
    }
    return put(e, c, slot, x);
}

/* The field number of a dict's key `key` met at place `j` of its entries: -1 when it names no
 * field, -2 when the key is not an exact str (the Rec is then read key by key), -3 on an error. */
static inline Py_ssize_t field_of(Node *f, Py_ssize_t j, PyObject *key)
{
    if (j < f->nseen && f->seen[j] == key)
        return f->seen_as[j];
    if (!PyUnicode_CheckExact(key))
        return -2;
    PyObject *found = PyDict_GetItemWithError(f->fields, key); /* str keys: runs no Python code */
    if (found == NULL && PyErr_Occurred())
        return -3;
    Py_ssize_t i = found == NULL ? -1 : PyLong_AsSsize_t(found);
    if (j < f->nseen) {
        Py_XSETREF(f->seen[j], Py_NewRef(key));
        f->seen_as[j] = i;
    }
    return i;
}

/* Rec.put of a dict: its entries read in one pass (no lookup per declared key), then the fields
 * laid out in their declared order, as Rec.put does. 1 when done, 0 when the dict must be read key
 * by key (a key that is not an exact str), -1 on an error. */
static int put_rec_entries(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    PyObject *few[32];
    PyObject **vals = f->nchild <= 32 ? few : PyMem_Calloc((size_t)f->nchild, sizeof(PyObject *));
    if (vals == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memset(vals, 0, (size_t)f->nchild * sizeof(PyObject *));
    Py_ssize_t pos = 0, j = 0, i = 0;
    PyObject *key, *x;
    while (i > -2 && PyDict_Next(v, &pos, &key, &x)) /* no Python code runs in this loop */
        if ((i = field_of(f, j++, key)) >= 0 && x != Py_None)
            vals[i] = Py_NewRef(x); /* kept while the fields run Python code */
    int r = i == -3 ? -1 : i == -2 ? 0 : 1;
    for (i = 0; i < f->nchild; i++) {
        if (vals[i] == NULL)
            continue;
        if (r == 1 && put_field(e, f, i, at, vals[i]) < 0)
            r = -1;
        Py_DECREF(vals[i]);
    }
    if (vals != few)
        PyMem_Free(vals);
    return r;
}

static int put_rec(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    if (v == Py_None)
        return 0;
    int exact = PyDict_CheckExact(v);
    if (exact && f->fields != NULL) {
        int done = put_rec_entries(e, f, at, v);
        if (done != 0)
            return done < 0 ? -1 : 0;
    }
    PyObject *get = NULL;
    if (!exact && (get = PyObject_GetAttr(v, str_get)) == NULL)
        return -1;
    int r = 0;
    for (Py_ssize_t i = 0; i < f->nchild && r == 0; i++) {
        PyObject *x;
        if (exact) {
            x = PyDict_GetItemWithError(v, f->keys[i]);
            if (x == NULL) {
                r = PyErr_Occurred() ? -1 : 0;
                continue;
            }
            Py_INCREF(x);
        }
        else if ((x = PyObject_CallOneArg(get, f->keys[i])) == NULL) {
            r = -1;
            continue;
        }
        if (x != Py_None)
            r = put_field(e, f, i, at, x);
        Py_DECREF(x);
    }
    Py_XDECREF(get);
    return r;
}

static int put_members(Enc *e, Node *f, Py_ssize_t at, PyObject *v, PyObject *index)
{
    int err;
    PyObject *seq = items_or_none(v, &err);
    if (seq == NULL)
        return err ? -1 : 0;
    int r = 0;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq) && r == 0; j++) {
        Py_ssize_t i;
        int found = lookup(index, PySequence_Fast_GET_ITEM(seq, j), &i);
        if (found <= 0)
            r = found < 0 ? -1 : gap(index == e->pos ? "not a seat" : "not one of the declared values");
        else
            r = f->counts ? add(e, at + i, 1.0) : store(e, at + i, 1.0);
    }
    Py_DECREF(seq);
    return r;
}

static int put_seat(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    Py_ssize_t i = 0;
    int found = 0;
    if (PyUnicode_Check(v) && (found = lookup(e->pos, v, &i)) < 0)
        return -1;
    if (!found) {
        int known = PySequence_Contains(f->obj, v);
        if (known <= 0)
            return known < 0 ? -1 : gap("neither a seat nor an extra value");
        i = PySequence_Index(f->obj, v);
        if (i < 0)
            return -1;
        i += f->n;
    }
    return store(e, at + i, 1.0);
}

/* BySeat and ById: (seat or id, item) pairs from a dict, or from a list of items by their key */
static int put_keyed(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    PyObject *pairs = NULL, *seq = NULL;
    int by_key = 0;
    if (PyDict_CheckExact(v))
        pairs = PySequence_List(v); /* keys only: items are looked up below */
    else if (PyDict_Check(v)) {
        PyObject *items = PyObject_CallMethodNoArgs(v, str_items);
        if (items == NULL)
            return -1;
        pairs = PySequence_List(items);
        Py_DECREF(items);
        by_key = 2;
    }
    else {
        if (f->key == NULL) {
            PyErr_SetString(PyExc_AssertionError, "a list of items without a key");
            return -1;
        }
        pairs = PySequence_List(v);
        by_key = 1;
    }
    if (pairs == NULL)
        return -1;
    int r = 0;
    Py_ssize_t count = PyList_GET_SIZE(pairs);
    for (Py_ssize_t j = 0; j < count && r == 0; j++) {
        PyObject *entry = PyList_GET_ITEM(pairs, j), *ident, *item;
        if (by_key == 0) {
            ident = Py_NewRef(entry);
            item = PyDict_GetItemWithError(v, entry);
            if (item == NULL) {
                Py_DECREF(ident);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_RuntimeError, "the dict changed");
                r = -1;
                break;
            }
            Py_INCREF(item);
        }
        else if (by_key == 2) {
            if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) {
                PyErr_SetString(PyExc_TypeError, "items() gave something else than pairs");
                r = -1;
                break;
            }
            ident = Py_NewRef(PyTuple_GET_ITEM(entry, 0));
            item = Py_NewRef(PyTuple_GET_ITEM(entry, 1));
        }
        else {
            ident = PyObject_GetItem(entry, f->key);
            if (ident == NULL) {
                r = -1;
                break;
            }
            item = Py_NewRef(entry);
        }
        Py_ssize_t i;
        int found = lookup(f->kind == K_BYSEAT ? e->pos : f->obj, ident, &i);
        if (found < 0)
            r = -1;
        else if (f->kind == K_BYSEAT) {
            if (!found || i >= f->n)
                r = gap("not one of the seats");
        }
        else if (!found) {
            int refused = PySequence_Contains(skip_ids, ident);
            r = refused < 0 ? -1 : refused ? gap("beyond the declared ids") : 0;
            found = -1; /* left out */
        }
        if (r == 0 && found > 0) {
            Py_ssize_t base = at + i * f->block;
            r = store(e, base, 1.0);
            if (r == 0)
                r = put(e, f->child[0], base + 1, item);
        }
        Py_DECREF(ident);
        Py_DECREF(item);
    }
    Py_XDECREF(seq);
    Py_DECREF(pairs);
    return r;
}

static int put_seq(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    Py_ssize_t len = PyObject_Size(v);
    if (len < 0)
        return -1;
    PyObject *seq;
    if (len > f->n) {
        PyObject *cut = PySequence_GetSlice(v, 0, f->n);
        if (cut == NULL)
            return -1;
        seq = PySequence_Fast(cut, "not iterable");
        Py_DECREF(cut);
    }
    else
        seq = PySequence_Fast(v, "not iterable");
    if (seq == NULL)
        return -1;
    int r = 0;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > f->n) /* a sequence whose slice is longer than asked: let Python say what it does */
        r = gap("a slice longer than asked");
    for (Py_ssize_t i = 0; i < count && r == 0; i++) {
        Py_ssize_t base = at + i * f->block;
        r = store(e, base, 1.0);
        if (r == 0)
            r = put(e, f->child[0], base + 1, PySequence_Fast_GET_ITEM(seq, i));
    }
    Py_DECREF(seq);
    return r;
}

/* the number after the last "." of a die's name: ASCII digits only (others are left to Python) */
static int die_number(PyObject *text, Py_ssize_t from, Py_ssize_t to, Py_ssize_t limit, Py_ssize_t *number)
{
    if (from >= to)
        return gap("a die without a number");
    Py_ssize_t value = 0;
    for (Py_ssize_t j = from; j < to; j++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(text, j);
        if (c > 127) {
            PyErr_SetString(PyExc_ValueError, "non-ASCII digits are left to Python");
            return -1;
        }
        if (c < '0' || c > '9')
            return gap("a die's number is not digits");
        value = value * 10 + (Py_ssize_t)(c - '0');
        if (value >= limit)
            return gap("a die beyond the declared dice");
    }
    *number = value;
    return 0;
}

static int put_die(Enc *e, Node *f, Py_ssize_t at, PyObject *die)
{
    PyObject *text = PyObject_Str(die);
    if (text == NULL)
        return -1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    Py_ssize_t dot = PyUnicode_FindChar(text, '.', 0, len, -1);
    Py_ssize_t s = 0, number = 0;
    int r = dot < -1 ? -1 : 0;
    if (r == 0 && f->n > 1) {
        PyObject *seat = PyUnicode_Substring(text, 0, dot < 0 ? 0 : dot);
        int found = seat == NULL ? -1 : lookup(e->pos, seat, &s);
        Py_XDECREF(seat);
        r = found < 0 ? -1 : found == 0 ? gap("a die of no seat") : 0;
    }
    if (r == 0)
        r = die_number(text, dot + 1, len, f->k, &number);
    Py_DECREF(text);
    return r == 0 ? store(e, at + s * f->k + number, 1.0) : -1;
}

typedef int (*PutItem)(Enc *e, Node *f, Py_ssize_t at, PyObject *item);

/* Every item of a list (None reads as none) laid out by ``one``: a die of Dice, a worker of Workers. */
static int put_each(Enc *e, Node *f, Py_ssize_t at, PyObject *v, PutItem one)
{
    int err;
    PyObject *seq = items_or_none(v, &err);
    if (seq == NULL)
        return err ? -1 : 0;
    int r = 0;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq) && r == 0; j++)
        r = one(e, f, at, PySequence_Fast_GET_ITEM(seq, j));
    Py_DECREF(seq);
    return r;
}

static int put_sentence(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    PyObject *text = PyObject_Str(v);
    if (text == NULL)
        return -1;
    PyObject *found = PyObject_CallMethodOneArg(f->obj, str_fullmatch, text);
    Py_DECREF(text);
    if (found == NULL)
        return -1;
    int r = 0;
    if (found == Py_None)
        r = gap("a sentence that does not read as its pattern");
    else {
        PyObject *groups = PyObject_CallMethodNoArgs(found, str_groupdict);
        r = groups == NULL ? -1 : store(e, at, 1.0);
        if (r == 0)
            r = put_rec(e, f->child[0], at + 1, groups);
        Py_XDECREF(groups);
    }
    Py_DECREF(found);
    return r;
}

static int put_bits(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    PyObject *text = PyObject_Str(v);
    if (text == NULL)
        return -1;
    Py_ssize_t len = PyUnicode_GET_LENGTH(text), count = 0;
    int r = 0;
    for (Py_ssize_t j = 0; j < len && r == 0; j++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(text, j);
        if (c == ' ')
            continue;
        if ((c != '0' && c != '1' && c != '+' && c != '-') || count >= f->n)
            r = gap("not the declared binary digits");
        else if (c == '1' || c == '+')
            r = store(e, at + count, 1.0);
        count++;
    }
    Py_DECREF(text);
    if (r == 0 && count != f->n)
        r = gap("not the declared number of binary digits");
    return r;
}

static int put_worker(Enc *e, Node *f, Py_ssize_t at, PyObject *pair)
{
    PyObject *two = PySequence_Fast(pair, "a worker is not a pair");
    if (two == NULL)
        return -1;
    int r = 0;
    Py_ssize_t s = 0, face = 0;
    if (PySequence_Fast_GET_SIZE(two) != 2) {
        PyErr_SetString(PyExc_ValueError, "a worker is not a pair");
        r = -1;
    }
    else {
        int found = lookup(e->pos, PySequence_Fast_GET_ITEM(two, 0), &s);
        if (found <= 0)
            r = found < 0 ? -1 : gap("a worker of no seat");
        else {
            PyObject *number = PyNumber_Long(PySequence_Fast_GET_ITEM(two, 1));
            face = number == NULL ? -1 : PyLong_AsSsize_t(number);
            Py_XDECREF(number);
            if (face == -1 && PyErr_Occurred())
                r = -1;
            else if (face < 1 || face > f->k)
                r = gap("not a die face");
        }
    }
    Py_DECREF(two);
    return r == 0 ? add(e, at + s * f->k + face - 1, 1.0 / f->scale) : -1;
}

static int put_python(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    PyObject *where = PyLong_FromSsize_t(at);
    if (where == NULL)
        return -1;
    PyObject *args[4] = {e->out, where, v, e->ctx};
    PyObject *done = PyObject_Vectorcall(f->obj, args, 4, NULL);
    Py_DECREF(where);
    if (done == NULL)
        return -1;
    Py_DECREF(done);
    return 0;
}

/* Field.put of the field `f`: its value `v` laid out at slot `at` */
static int put(Enc *e, Node *f, Py_ssize_t at, PyObject *v)
{
    double d;
    int r;
    switch (f->kind) {
    case K_REC:
        return put_rec(e, f, at, v);
    case K_NUM:
        if (v == Py_None)
            return 0;
        return as_double(v, &d) < 0 ? -1 : store(e, at, (d + f->shift) / f->scale);
    case K_FLAG:
        r = PyObject_IsTrue(v);
        return r > 0 ? store(e, at, 1.0) : r;
    case K_ONEOF: {
        Py_ssize_t i;
        r = lookup(f->obj, v, &i);
        return r > 0 ? store(e, at + i, 1.0) : r < 0 ? -1 : gap("not one of the declared values");
    }
    case K_MEMBERS:
        return put_members(e, f, at, v, f->obj);
    case K_SEAT:
        return put_seat(e, f, at, v);
    case K_SEATS:
        return put_members(e, f, at, v, e->pos);
    case K_TEXT:
        return 0;
    case K_OPT:
        if (v == Py_None)
            return 0;
        return store(e, at, 1.0) < 0 ? -1 : put(e, f->child[0], at + 1, v);
    case K_BYSEAT: case K_BYID:
        return put_keyed(e, f, at, v);
    case K_SEQ:
        return put_seq(e, f, at, v);
    case K_DICE:
        return put_each(e, f, at, v, put_die);
    case K_SENTENCE:
        return put_sentence(e, f, at, v);
    case K_SEATOR:
        if (PyUnicode_Check(v))
            return store(e, at, 1.0) < 0 ? -1 : put_seat(e, f->child[0], at + 1, v);
        return put(e, f->child[1], at + f->k, v);
    case K_BITS:
        return put_bits(e, f, at, v);
    case K_WORKERS:
        return put_each(e, f, at, v, put_worker);
    default:
        return put_python(e, f, at, v);
    }
}

/* ---------------------------------------------------------------- the Plan type */

typedef struct {
    PyObject_HEAD
    Node *root;
    Py_ssize_t base;      /* where the view starts: after the header of 2 x seats slots */
    Py_ssize_t delegates; /* fields laid out by their own Python `put` (they need an array('f')) */
} Plan;

static Py_ssize_t node_delegates(Node *f)
{
    Py_ssize_t count = f->kind == K_PY;
    for (Py_ssize_t i = 0; i < f->nchild; i++)
        count += node_delegates(f->child[i]);
    return count;
}

static void plan_dealloc(Plan *self)
{
    node_free(self->root);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int plan_init(Plan *self, PyObject *args, PyObject *kwds)
{
    PyObject *spec;
    Py_ssize_t base;
    static char *names[] = {"spec", "base", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!n", names, &PyTuple_Type, &spec, &base))
        return -1;
    Node *root = node_build(spec);
    if (root == NULL)
        return -1;
    if (root->kind != K_REC) {
        node_free(root);
        PyErr_SetString(PyExc_ValueError, "a view's plan is a Rec");
        return -1;
    }
    node_free(self->root);
    self->root = root;
    self->base = base;
    self->delegates = node_delegates(root);
    return 0;
}

static int header(Enc *e, Py_ssize_t n, PyObject *seats, PyObject *seat, PyObject *pending)
{
    if (seat != Py_None) {
        Py_ssize_t i = PySequence_Index(seats, seat);
        if (i < 0 || store(e, i, 1.0) < 0)
            return -1;
    }
    PyObject *seq = PySequence_Fast(pending, "pending is not iterable");
    if (seq == NULL)
        return -1;
    int r = 0;
    for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(seq) && r == 0; j++) {
        Py_ssize_t i;
        int found = lookup(e->pos, PySequence_Fast_GET_ITEM(seq, j), &i);
        r = found < 0 ? -1 : found ? store(e, n + i, 1.0) : 0;
    }
    Py_DECREF(seq);
    return r;
}

PyDoc_STRVAR(plan_encode_doc,
"encode(out, view, ctx, seats, seat, pending)\n\n"
"Lay the header and the view out into `out` (float32 zeros: an array('f'), or a numpy array\n"
"when no field is laid out in Python), as Schema's Python encoder does. Raises on anything it\n"
"does not lay out (the caller encodes again in Python).");

static PyObject *plan_encode(Plan *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "encode(out, view, ctx, seats, seat, pending)");
        return NULL;
    }
    PyObject *out = args[0], *view = args[1], *ctx = args[2];
    Py_buffer buffer;
    if (PyObject_GetBuffer(out, &buffer, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (buffer.itemsize != 4 || buffer.format == NULL || strcmp(buffer.format, "f") != 0) {
        PyBuffer_Release(&buffer);
        PyErr_SetString(PyExc_TypeError, "out must be a buffer of native float32 (an array('f'))");
        return NULL;
    }
    PyObject *pos = PyObject_GetAttr(ctx, str_pos);
    if (pos == NULL || !PyDict_Check(pos)) {
        Py_XDECREF(pos);
        PyBuffer_Release(&buffer);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "ctx.pos must be a dict");
        return NULL;
    }
    Enc e = {(float *)buffer.buf, buffer.len / 4, out, ctx, pos};
    int r = header(&e, (self->base) / 2, args[3], args[4], args[5]);
    if (r == 0)
        r = put_rec(&e, self->root, self->base, view);
    Py_DECREF(pos);
    PyBuffer_Release(&buffer);
    if (r < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef plan_methods[] = {
    {"encode", (PyCFunction)(void (*)(void))plan_encode, METH_FASTCALL, plan_encode_doc},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef plan_members[] = {
    {"delegates", T_PYSSIZET, offsetof(Plan, delegates), READONLY,
     PyDoc_STR("how many fields are laid out by their own Python put (then `out` must be an array('f'))")},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject PlanType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ludica.env._tensorc.Plan",
    .tp_doc = PyDoc_STR("Plan(spec, base): a schema's fields compiled for encode()"),
    .tp_basicsize = sizeof(Plan),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)plan_init,
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_methods = plan_methods,
    .tp_members = plan_members,
};

static PyObject *set_error(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, (PyTypeObject *)PyExc_Exception)) {
        PyErr_SetString(PyExc_TypeError, "an exception class");
        return NULL;
    }
    Py_XSETREF(SchemaError, Py_NewRef(cls));
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"set_error", set_error, METH_O, PyDoc_STR("set_error(cls): the class of a schema's gaps (SchemaError)")},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "ludica.env._tensorc",
    PyDoc_STR("The observation encoder of ludica.env.tensor, in C (see the comment atop its source)."),
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__tensorc(void)
{
    if (PyType_Ready(&PlanType) < 0)
        return NULL;
    str_fullmatch = PyUnicode_InternFromString("fullmatch");
    str_groupdict = PyUnicode_InternFromString("groupdict");
    str_get = PyUnicode_InternFromString("get");
    str_items = PyUnicode_InternFromString("items");
    str_pos = PyUnicode_InternFromString("pos");
    skip_ids = Py_BuildValue("(Os)", Py_None, "");
    SchemaError = Py_NewRef(PyExc_ValueError);
    if (!str_fullmatch || !str_groupdict || !str_get || !str_items || !str_pos || !skip_ids)
        return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL)
        return NULL;
    if (PyModule_AddObjectRef(module, "Plan", (PyObject *)&PlanType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}

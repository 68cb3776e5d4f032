/*
 * The compiled legal-play generator: Variant.play_paths for the four built-in variants.
 *
 * This is a line-by-line port of the pure-Python generator in variant.py, backgammon.py and
 * long_nardy.py, which stays the readable reference. It must give exactly what the reference
 * gives: the same resulting positions, the same move list for each (the first one the
 * reference's search meets) and the same dict order. So it keeps the reference's search
 * order everywhere: single-die steps from the highest starting point down, the two orders of
 * two different dice, the shortcut for independent dice in the backgammon middle game, the
 * ordered search of doubles in the backgammon family and the de-duplicated search of doubles
 * in long nardy. tests/test_fastpath.py checks the two against each other.
 *
 * A side is 26 counts (0 = off, 1-24 = points, 25 = bar); the opponent's side is first
 * turned into the mover's point numbers, as the reference does, so that a step compares two
 * counts on one point.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define OFF 0
#define BAR 25
#define CHECKERS 15
#define HEAD 24
#define BLOCK 6

enum { KIND_BACKGAMMON = 0, KIND_ACEY_DEUCEY = 1, KIND_LONG = 2 };

/* Both sides of one moment of a turn, the opponent in my numbering. The padding is always
 * zero so that a state hashes and compares as 56 plain bytes. */
typedef struct {
    uint8_t me[26];
    uint8_t op[26];
    uint8_t pad[4];
} State;

/* One checker moved by one die; start 25 is the bar (or, in acey-deucey, from off the board),
 * end 0 is off. */
typedef struct {
    uint8_t s, t, hit;
} Mv;

typedef struct {
    State st;
    Mv mv;
} Step;

/* A state reached and the moves of one play reaching it; ``top`` is the highest start the
 * next move may use (ordered doubles only). */
typedef struct {
    State st;
    uint8_t n, top;
    Mv mv[4];
} Node;

struct Set;

typedef struct {
    int kind;
    uint8_t open[26]; /* 1 where I may land: points 1-24 only */
    int head_at_start, may_leave_head;
    struct Set *work; /* WORK_SETS sets for the searches */
} Ctx;

/* ---------------------------------------------------------------------------------------- */
/* Growable arrays of nodes, with an optional hash index for "first one wins" de-duplication */

typedef struct Set {
    Node *nodes;
    size_t n, cap;
    uint32_t *slot;  /* node index per hash slot */
    uint32_t *stamp; /* a slot is in use iff its stamp is the current generation */
    size_t mask;
    uint32_t gen;
} Set;

static int set_reserve(Set *s, size_t need) {
    if (need <= s->cap) return 0;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < need) cap *= 2;
    Node *nodes = PyMem_Realloc(s->nodes, cap * sizeof(Node));
    if (!nodes) return -1;
    s->nodes = nodes;
    s->cap = cap;
    return 0;
}

static inline uint64_t hash_state(const State *x) {
    uint64_t w[7], h = 0x9E3779B97F4A7C15ull;
    memcpy(w, x, sizeof w);
    for (int i = 0; i < 7; i++) {
        h ^= w[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

static void set_clear(Set *s) {
    s->n = 0;
    if (++s->gen == 0) { /* the stamps wrapped: forget them all */
        if (s->stamp) memset(s->stamp, 0, (s->mask + 1) * sizeof(uint32_t));
        s->gen = 1;
    }
}

static int set_rehash(Set *s, size_t slots) {
    uint32_t *slot = PyMem_Malloc(slots * sizeof(uint32_t));
    uint32_t *stamp = PyMem_Calloc(slots, sizeof(uint32_t));
    if (!slot || !stamp) {
        PyMem_Free(slot);
        PyMem_Free(stamp);
        return -1;
    }
    PyMem_Free(s->slot);
    PyMem_Free(s->stamp);
    s->slot = slot;
    s->stamp = stamp;
    s->mask = slots - 1;
    s->gen = 1;
    for (size_t i = 0; i < s->n; i++) {
        size_t j = hash_state(&s->nodes[i].st) & s->mask;
        while (s->stamp[j] == s->gen) j = (j + 1) & s->mask;
        s->stamp[j] = s->gen;
        s->slot[j] = (uint32_t)i;
    }
    return 0;
}

/* Append ``node`` unless its state is already there. 1 if added, 0 if not, -1 on no memory. */
static int set_add(Set *s, const Node *node) {
    if (2 * (s->n + 1) > s->mask + 1 && set_rehash(s, s->mask ? 2 * (s->mask + 1) : 1024) < 0)
        return -1;
    size_t j = hash_state(&node->st) & s->mask;
    while (s->stamp[j] == s->gen) {
        if (memcmp(&s->nodes[s->slot[j]].st, &node->st, sizeof(State)) == 0) return 0;
        j = (j + 1) & s->mask;
    }
    if (set_reserve(s, s->n + 1) < 0) return -1;
    s->stamp[j] = s->gen;
    s->slot[j] = (uint32_t)s->n;
    s->nodes[s->n++] = *node;
    return 1;
}

/* Append without de-duplication. */
static int list_add(Set *s, const Node *node) {
    if (set_reserve(s, s->n + 1) < 0) return -1;
    s->nodes[s->n++] = *node;
    return 0;
}

static void set_free(Set *s) {
    PyMem_Free(s->nodes);
    PyMem_Free(s->slot);
    PyMem_Free(s->stamp);
    memset(s, 0, sizeof *s);
}

/* Work space reused across calls while the GIL is held. Building the result allocates Python
 * objects, which may run a finalizer that generates plays again (or let another thread do so):
 * a call that finds the shared sets in use works in sets of its own. */
#define WORK_SETS 4
static Set shared_work[WORK_SETS];
static int shared_work_busy;

/* ---------------------------------------------------------------------------------------- */
/* Single-die steps: Backgammon.steps, LongNardy.steps and bear_offs of the reference         */

static int highest_point(const uint8_t *me) {
    for (int p = 24; p >= 1; p--)
        if (me[p]) return p;
    return 0;
}

static int total(const uint8_t *side) {
    int n = 0;
    for (int p = 0; p < 26; p++) n += side[p];
    return n;
}

/* RULES.md 1.3, 3.3: once every checker is home, from the die's own point, or from the
 * highest point when the die is larger. */
static int bear_offs(const State *x, int die, int highest, int top, Step *out) {
    int from;
    if (die <= highest) {
        if (!(die <= top && x->me[die])) return 0;
        from = die;
    } else if (0 < highest && highest <= top) {
        from = highest;
    } else {
        return 0;
    }
    out->st = *x;
    out->st.me[from]--;
    out->st.me[OFF]++;
    out->mv = (Mv){(uint8_t)from, OFF, 0};
    return 1;
}

/* One checker from ``start`` to an open ``end`` (``from_outside``: an acey-deucey checker
 * entering from off the board, counted nowhere before), hitting a blot there: the blot goes
 * to the bar (RULES.md 1.2). */
static void move_one(const State *x, int start, int end, int from_outside, Step *out) {
    out->st = *x;
    if (!from_outside) out->st.me[start]--;
    out->st.me[end]++;
    out->mv = (Mv){(uint8_t)start, (uint8_t)end, 0};
    if (x->op[end] == 1) {
        out->st.op[end]--;
        out->st.op[BAR]++;
        out->mv.hit = 1;
    }
}

/* RULES.md 1.2, 2: a checker entering on my point 25 - die from the bar (or, in acey-deucey,
 * from off the board). */
static int enter(const Ctx *c, const State *x, int die, int from_bar, Step *out) {
    int end = BAR - die;
    if (!c->open[end]) return 0;
    move_one(x, BAR, end, !from_bar, out);
    return 1;
}

static int backgammon_steps(const Ctx *c, const State *x, int die, int top, Step *out) {
    const uint8_t *me = x->me;
    int n = 0;
    if (me[BAR]) return enter(c, x, die, 1, out);
    int waiting = c->kind == KIND_ACEY_DEUCEY ? CHECKERS - total(me) : 0;
    if (waiting && top == BAR) n += enter(c, x, die, 0, out + n);
    int highest = highest_point(me);
    int from = top < highest ? top : highest;
    for (int p = from; p > die; p--) {
        int end = p - die;
        if (me[p] && c->open[end]) move_one(x, p, end, 0, &out[n++]);
    }
    if (highest <= 6 && !waiting) n += bear_offs(x, die, highest, top, out + n);
    return n;
}

/* My points in the order the opponent passes them (long_nardy.THEIR_PATH), and the inverse. */
static const uint8_t THEIR_PATH[24] = {12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,
                                       24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13};
static uint8_t ON_THEIR_PATH[25];

/* RULES.md 3.2, six-block rule: six held points in a row along the opponent's path, made by
 * landing on ``landed``, need an opponent checker on the board past the far end. */
static int blocks_illegally(const uint8_t *me, const uint8_t *op, int landed) {
    int first = ON_THEIR_PATH[landed], last = first;
    while (first > 0 && me[THEIR_PATH[first - 1]]) first--;
    while (last < 23 && me[THEIR_PATH[last + 1]]) last++;
    if (last - first + 1 < BLOCK) return 0;
    for (int k = last + 1; k < 24; k++)
        if (op[THEIR_PATH[k]]) return 0;
    return 1;
}

static int long_steps(const Ctx *c, const State *x, int die, int top, Step *out) {
    const uint8_t *me = x->me;
    int n = 0;
    int highest = highest_point(me);
    int from = top < highest ? top : highest;
    int head_used = c->head_at_start - me[HEAD] >= c->may_leave_head;
    for (int p = from; p > die; p--) {
        int end = p - die;
        if (!me[p] || !c->open[end] || (p == HEAD && head_used)) continue;
        move_one(x, p, end, 0, &out[n]); /* no hit: an open point is an empty one here */
        if (!blocks_illegally(out[n].st.me, x->op, end)) n++;
    }
    if (highest <= 6) n += bear_offs(x, die, highest, top, out + n);
    return n;
}

/* At most one step per start point, an entering one and a bear-off. */
#define MAX_STEPS 28

static inline int steps(const Ctx *c, const State *x, int die, int top, Step *out) {
    return c->kind == KIND_LONG ? long_steps(c, x, die, top, out)
                                : backgammon_steps(c, x, die, top, out);
}

/* ---------------------------------------------------------------------------------------- */
/* The searches of Variant.play_paths                                                         */

static void turn_context(Ctx *c, int kind, const State *x, int d1, int d2) {
    c->kind = kind;
    memset(c->open, 0, sizeof c->open);
    if (kind == KIND_LONG) {
        /* RULES.md 3.2: a point holding any opponent checker is closed; one checker leaves the
         * head per turn, two on the first move with 6-6, 4-4 or 3-3, except 4-4 after the
         * opponent's 5-5 opening. */
        for (int p = 1; p <= 24; p++) c->open[p] = x->op[p] == 0;
        c->head_at_start = x->me[HEAD];
        c->may_leave_head = 1;
        if (c->head_at_start == CHECKERS && d1 == d2 && (d1 == 6 || d1 == 4 || d1 == 3)) {
            int opened_five_five = x->op[12] == CHECKERS - 1 && x->op[16] == 1;
            if (!(d1 == 4 && opened_five_five)) c->may_leave_head = 2;
        }
    } else {
        /* RULES.md 1.2: open where the opponent has at most one checker. */
        for (int p = 1; p <= 24; p++) c->open[p] = x->op[p] < 2;
        c->head_at_start = c->may_leave_head = 0;
    }
}

static inline Node extend(const Node *from, const Step *s) {
    Node n = *from;
    n.st = s->st;
    n.mv[n.n++] = s->mv;
    return n;
}

/* Doubles. In the backgammon family (``ordered``) each move starts no higher than the one
 * before, without de-duplication until the end: sound there because a lower checker's move
 * never opens or closes anything for a higher one. In long nardy the order matters (the
 * six-block rule is checked after every single move): every order, de-duplicated by the
 * state reached at each depth. */
static Set *doubles(const Ctx *c, const Node *start, int die, int ordered) {
    Set *level = &c->work[0], *deeper = &c->work[1], *out = &c->work[2];
    Step st[MAX_STEPS];
    set_clear(level);
    if (list_add(level, start) < 0) return NULL;
    for (int depth = 0; depth < 4; depth++) {
        set_clear(deeper);
        for (size_t i = 0; i < level->n; i++) {
            Node here = level->nodes[i];
            int k = steps(c, &here.st, die, ordered ? here.top : BAR, st);
            for (int j = 0; j < k; j++) {
                Node next = extend(&here, &st[j]);
                next.top = st[j].mv.s;
                if ((ordered ? list_add(deeper, &next) : set_add(deeper, &next)) < 0) return NULL;
            }
        }
        if (!deeper->n) break;
        Set *t = level;
        level = deeper;
        deeper = t;
    }
    if (!ordered) return level;
    set_clear(out);
    for (size_t i = 0; i < level->n; i++)
        if (set_add(out, &level->nodes[i]) < 0) return NULL;
    return out;
}

static int entering_or_waiting(const Ctx *c, const uint8_t *me) {
    return me[BAR] || (c->kind == KIND_ACEY_DEUCEY && CHECKERS - total(me));
}

/* Backgammon.independent_pairs: two different dice in the middle game, without searching
 * both orders. Empty where the shortcut does not apply. */
static Set *independent_pairs(const Ctx *c, const Node *start, int d1, int d2) {
    Set *plays = &c->work[0];
    set_clear(plays);
    if (c->kind == KIND_LONG || entering_or_waiting(c, start->st.me)) return plays;
    int outside = 0;
    for (int p = 7; p <= 24; p++) outside += start->st.me[p];
    if (outside < 3) return plays;
    Step first1[MAX_STEPS], first2[MAX_STEPS];
    int n1 = steps(c, &start->st, d1, BAR, first1), n2 = steps(c, &start->st, d2, BAR, first2);
    if (!n1 || !n2) return plays;
    for (int order = 0; order < 2; order++) { /* one checker moving on */
        Step *firsts = order ? first2 : first1;
        int n = order ? n2 : n1, b = order ? d1 : d2;
        for (int i = 0; i < n; i++) {
            int t = firsts[i].mv.t, end = t - b;
            if (end <= 0 || !c->open[end]) continue;
            Step second;
            move_one(&firsts[i].st, t, end, 0, &second);
            Node one = extend(start, &firsts[i]);
            Node two = extend(&one, &second);
            if (set_add(plays, &two) < 0) return NULL;
        }
    }
    for (int i = 0; i < n1; i++) {
        Node one = extend(start, &first1[i]);
        for (int j = 0; j < n2; j++) {
            int s2 = first2[j].mv.s, t2 = first2[j].mv.t;
            if (s2 == first1[i].mv.s && start->st.me[s2] < 2) continue;
            Step second;
            move_one(&one.st, s2, t2, 0, &second);
            Node two = extend(&one, &second);
            if (set_add(plays, &two) < 0) return NULL;
        }
    }
    return plays;
}

/* Variant._two_dice: either order; RULES.md 1.2's most-dice and larger-die rules. */
static Set *two_dice(const Ctx *c, const Node *start, int high, int low) {
    Set *both = &c->work[1], *single_high = &c->work[2], *single_low = &c->work[3];
    Step st1[MAX_STEPS], st2[MAX_STEPS];
    set_clear(both);
    set_clear(single_high);
    set_clear(single_low);
    for (int order = 0; order < 2; order++) {
        int first = order ? low : high, second = order ? high : low;
        Set *singles = order ? single_low : single_high;
        int n1 = steps(c, &start->st, first, BAR, st1);
        for (int i = 0; i < n1; i++) {
            Node one = extend(start, &st1[i]);
            int n2 = steps(c, &one.st, second, BAR, st2);
            for (int j = 0; j < n2; j++) {
                Node two = extend(&one, &st2[j]);
                if (set_add(both, &two) < 0) return NULL;
            }
            if (!n2 && set_add(singles, &one) < 0) return NULL;
        }
    }
    if (both->n) return both;
    if (single_high->n) return single_high;
    if (single_low->n) return single_low;
    if (set_add(both, start) < 0) return NULL; /* no legal move: the empty play */
    return both;
}

/* ---------------------------------------------------------------------------------------- */
/* The Python side                                                                            */

static PyObject *move_tuples[26][26][2]; /* (start, end, hit), shared by every path */

static PyObject *move_tuple(const Mv *m) {
    PyObject **slot = &move_tuples[m->s][m->t][m->hit];
    if (!*slot) *slot = Py_BuildValue("(iiO)", m->s, m->t, m->hit ? Py_True : Py_False);
    Py_XINCREF(*slot);
    return *slot;
}

/* The opponent's side between their numbering and mine (each geometry is its own inverse). */
static void flip(int kind, const uint8_t *in, uint8_t *out) {
    out[OFF] = in[OFF];
    out[BAR] = in[BAR];
    for (int p = 1; p <= 24; p++) {
        int q = kind == KIND_LONG ? (p <= 12 ? p + 12 : p - 12) : 25 - p;
        out[p] = in[q];
    }
}

static PyObject *build(int kind, const Set *result, const State *start, PyObject *theirs) {
    PyObject *d = _PyDict_NewPresized((Py_ssize_t)result->n);
    if (!d) return NULL;
    for (size_t i = 0; i < result->n; i++) {
        const Node *node = &result->nodes[i];
        PyObject *key = PyTuple_New(2), *path = PyTuple_New(node->n);
        if (!key || !path) goto fail_item;
        PyObject *mine = PyBytes_FromStringAndSize((const char *)node->st.me, 26);
        if (!mine) goto fail_item;
        PyTuple_SET_ITEM(key, 0, mine);
        PyObject *them;
        if (memcmp(node->st.op, start->op, 26) == 0) {
            Py_INCREF(theirs);
            them = theirs;
        } else {
            uint8_t buf[26];
            flip(kind, node->st.op, buf);
            them = PyBytes_FromStringAndSize((const char *)buf, 26);
            if (!them) goto fail_item;
        }
        PyTuple_SET_ITEM(key, 1, them);
        for (int k = 0; k < node->n; k++) {
            PyObject *m = move_tuple(&node->mv[k]);
            if (!m) goto fail_item;
            PyTuple_SET_ITEM(path, k, m);
        }
        int bad = PyDict_SetItem(d, key, path);
        Py_DECREF(key);
        Py_DECREF(path);
        if (bad) goto fail;
        continue;
    fail_item:
        Py_XDECREF(key);
        Py_XDECREF(path);
        goto fail;
    }
    return d;
fail:
    Py_DECREF(d);
    return NULL;
}

static int small_int(PyObject *o, long lo, long hi, long *value) {
    if (!PyLong_CheckExact(o)) return 0;
    int overflow;
    *value = PyLong_AsLongAndOverflow(o, &overflow);
    return !overflow && lo <= *value && *value <= hi;
}

PyDoc_STRVAR(play_paths_doc,
             "play_paths(kind, mine, theirs, d1, d2)\n--\n\n"
             "Variant.play_paths for kind 0 (backgammon, nackgammon), 1 (acey-deucey) or 2\n"
             "(long nardy): {(mine, theirs) after: the moves of one play reaching it}.\n"
             "None where the arguments are not a kind, two 26-byte sides and two dice 1-6\n"
             "(the caller's reference generator then reports the error).");

static PyObject *play_paths(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    long kind, d1, d2;
    if (nargs != 5 || !small_int(args[0], 0, 2, &kind) || !PyBytes_CheckExact(args[1]) ||
        !PyBytes_CheckExact(args[2]) || PyBytes_GET_SIZE(args[1]) != 26 ||
        PyBytes_GET_SIZE(args[2]) != 26 || !small_int(args[3], 1, 6, &d1) ||
        !small_int(args[4], 1, 6, &d2))
        Py_RETURN_NONE;
    Node start;
    memset(&start, 0, sizeof start);
    start.top = BAR;
    memcpy(start.st.me, PyBytes_AS_STRING(args[1]), 26);
    flip((int)kind, (const uint8_t *)PyBytes_AS_STRING(args[2]), start.st.op);
    Ctx c;
    turn_context(&c, (int)kind, &start.st, (int)d1, (int)d2);
    Set own_work[WORK_SETS];
    int shared = !shared_work_busy;
    if (shared) {
        shared_work_busy = 1;
        c.work = shared_work;
    } else {
        memset(own_work, 0, sizeof own_work);
        c.work = own_work;
    }
    Set *result;
    if (d1 == d2) {
        result = doubles(&c, &start, (int)d1, kind != KIND_LONG);
    } else {
        int high = d1 > d2 ? (int)d1 : (int)d2, low = d1 > d2 ? (int)d2 : (int)d1;
        result = independent_pairs(&c, &start, high, low);
        if (result && !result->n) result = two_dice(&c, &start, high, low);
    }
    PyObject *out = result ? build((int)kind, result, &start.st, args[2]) : PyErr_NoMemory();
    if (shared) {
        shared_work_busy = 0;
    } else {
        for (int i = 0; i < WORK_SETS; i++) set_free(&own_work[i]);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"play_paths", (PyCFunction)(void (*)(void))play_paths, METH_FASTCALL, play_paths_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "nardy.core._movegen",
    .m_doc = "The compiled legal-play generator (see nardy.core.variant and docs/engine.md).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__movegen(void) {
    for (int i = 0; i < 24; i++) ON_THEIR_PATH[THEIR_PATH[i]] = (uint8_t)i;
    return PyModule_Create(&module_def);
}

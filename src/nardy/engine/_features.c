/*
 * The compiled input encodings of the nets: nardy.engine.features.encode (backgammon family,
 * 224 inputs) and nardy.engine.features_long.encode (long nardy, 220 inputs).
 *
 * A port of the numpy references, which stay the readable definition of every input (their
 * docstrings say what each means in the game). The values must be bit for bit the same, so
 * each one is computed at the precision numpy computes it: counts and pips are exact
 * integers; a figure numpy divides in float64 (an integer array over a Python number) is
 * divided here in double and rounded to float once, a figure it divides in float32 (a
 * float32 array over a Python number) is divided here in float. tests/test_fastpath.py
 * compares the two.
 *
 * Arrays come through the buffer protocol (no numpy headers needed): two C-contiguous uint8
 * buffers of N rows of 26 counts, and a writable C-contiguous float32 buffer of N rows.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define OFF 0
#define BAR 25
#define CHECKERS 15
#define SIDE 26

#define BG_RAW 98
#define BG_INPUTS (2 * BG_RAW + 16 + 12)
#define LONG_RAW 97
#define LONG_INPUTS (2 * LONG_RAW + 26)
#define HEAD 24

#if defined(_MSC_VER)
#include <intrin.h>
#define popcount64(x) ((int)__popcnt64(x))
static int ctz64(uint64_t x) {
    unsigned long i;
    _BitScanForward64(&i, x);
    return (int)i;
}
#else
#define popcount64(x) __builtin_popcountll(x)
#define ctz64(x) __builtin_ctzll(x)
#endif

static uint64_t roll_masks[25]; /* bit r of 36: roll r moves one checker exactly d pips */
static float escapes[1 << 12];  /* share of rolls that carry a checker past blocked points */

static void init_tables(void) {
    for (int r = 0; r < 36; r++) {
        int a = r / 6 + 1, b = r % 6 + 1;
        int reach[4], n = 0;
        if (a != b) {
            reach[n++] = a;
            reach[n++] = b;
            reach[n++] = a + b;
        } else {
            for (int k = 1; k <= 4; k++) reach[n++] = a * k;
        }
        for (int i = 0; i < n; i++)
            if (reach[i] <= 24) roll_masks[reach[i]] |= (uint64_t)1 << r;
    }
    for (int mask = 0; mask < (1 << 12); mask++) {
#define OPEN(d) ((d) > 12 || !((mask >> ((d) - 1)) & 1))
        int count = 0;
        for (int a = 1; a <= 6; a++)
            for (int b = 1; b <= 6; b++) {
                if (a == b)
                    count += OPEN(a) && OPEN(2 * a) && OPEN(3 * a) && OPEN(4 * a);
                else
                    count += OPEN(a + b) && (OPEN(a) || OPEN(b));
            }
#undef OPEN
        escapes[mask] = (float)(count / 36.0);
    }
}

static int total(const uint8_t *side) {
    int n = 0;
    for (int p = 0; p < SIDE; p++) n += side[p];
    return n;
}

/* Four truncated unary inputs per point 1-24: n >= 1, n >= 2, n >= 3, (n - 3) / 2. */
static void unary(const uint8_t *side, float *out) {
    for (int p = 1; p <= 24; p++) {
        int n = side[p];
        float *o = out + 4 * (p - 1);
        o[0] = n >= 1;
        o[1] = n >= 2;
        o[2] = n >= 3;
        o[3] = n > 3 ? (float)(n - 3) / 2.0f : 0.0f;
    }
}

/* The longest run of consecutive set flags among ``n``. */
static int longest_run(const uint8_t *flags, int n) {
    int best = 0, run = 0;
    for (int i = 0; i < n; i++) {
        run = flags[i] ? run + 1 : 0;
        if (run > best) best = run;
    }
    return best;
}

/* -- backgammon (features._side_inputs and encode) ------------------------------------------ */

typedef struct {
    /* pips, exposed blots, home points, prime, back checkers, shots, escapes; containment,
     * timing, mobility, backbone, forward anchor, pip loss to hits */
    float e[13];
    int back;
} BgSide;

static void bg_side(const uint8_t *a, const uint8_t *b, float *raw, BgSide *s) {
    int waiting = CHECKERS - total(a), b_waiting = CHECKERS - total(b);
    unary(a, raw);
    raw[96] = (float)((a[BAR] + waiting) / 2.0);
    raw[97] = (float)(a[OFF] / (double)CHECKERS);
    int pips = 0;
    for (int p = 0; p < SIDE; p++) pips += p * a[p];
    s->e[0] = (float)((pips + 25.0 * waiting) / 100.0);

    /* The other side in a's numbering moves upward from a's 0: shooters on bits 0-24 (bit 0
     * its bar and waiting checkers), a's blots on bits 1-24. */
    uint64_t shooters = (b[BAR] + b_waiting) > 0, blots = 0, blocks = 0, on = 0, open = 0;
    int block_lo = 25, block_hi = 0; /* a's lowest and highest points the other has made */
    for (int p = 1; p <= 24; p++) {
        if (b[25 - p] > 0) shooters |= (uint64_t)1 << p;
        if (b[25 - p] < 2) open |= (uint64_t)1 << p; /* a's point p: the other has not made it */
        if (a[p] == 1) blots |= (uint64_t)1 << p;
        if (a[p] > 0) on |= (uint64_t)1 << p;
        if (b[p] >= 2) {
            blocks |= (uint64_t)1 << (p - 1); /* a's point 25 - p on bit p - 1 */
            if (25 - p < block_lo) block_lo = 25 - p;
            if (25 - p > block_hi) block_hi = 25 - p;
        }
    }
    uint64_t direct = 0, hitting = 0;
    for (int d = 1; d <= 24; d++) {
        uint64_t ahead = shooters << d;
        if (d <= 6) direct |= ahead;
        if (ahead & blots) hitting |= roll_masks[d];
    }
    s->e[1] = (float)(popcount64(direct & blots) / 5.0);
    s->e[5] = (float)(popcount64(hitting) / 36.0);

    uint8_t made[24];
    int home = 0, back_checkers = 0, on_board = 0, timing = 0, held = 0, anchor = 0;
    for (int p = 1; p <= 24; p++) {
        made[p - 1] = a[p] >= 2;
        if (p <= 6) home += made[p - 1];
        if (p >= 19) back_checkers += a[p];
        if (a[p]) on_board = p;
        /* Timing: blots and spares played down to the ace point (a made point keeps two). */
        timing += (p - 1) * (made[p - 1] ? a[p] - 2 : a[p]);
        if (p >= 13) held += made[p - 1];
        if (p >= 19 && made[p - 1] && !anchor) anchor = 25 - p; /* the lowest point made */
    }
    int prime = longest_run(made, 24);
    s->e[2] = (float)(home / 6.0);
    s->e[3] = (float)((prime < 6 ? prime : 6) / 6.0);
    s->e[4] = (float)(back_checkers / 5.0);
    int entering = a[BAR] + waiting;
    s->back = entering > 0 ? 25 : on_board;
    s->e[6] = escapes[(blocks >> (25 - s->back)) & 0xFFF];

    /* Containment: the worst escapes from a point at or in front of the back checker. Only
     * from points up to 12 pips above one the other side has made is anything blocked. */
    float contain = 1.0f;
    int top = block_hi + 12 < s->back ? block_hi + 12 : s->back;
    for (int q = block_lo + 1; q <= top; q++) {
        float from_q = escapes[(blocks >> (25 - q)) & 0xFFF];
        if (from_q < contain) contain = from_q;
    }
    s->e[7] = contain;

    s->e[8] = (float)((timing + 24 * entering) / 100.0);

    /* Mobility: single-die moves onto a point on the board the other side has not made; only
     * the bar's (onto points 24-19 with dice 1-6) while a checker is on it. (open << d) has
     * bit q set where point q - d is open. */
    int moves = 0;
    if (entering > 0)
        moves = popcount64(open >> 19);
    else
        for (int d = 1; d <= 6; d++) moves += popcount64(on & (open << d));
    s->e[9] = (float)(moves / 60.0);

    s->e[10] = (float)(held / 6.0);
    s->e[11] = (float)(anchor / 6.0);

    /* Pip loss: each roll counts the costliest blot it hits. The blots nearest a's ace point
     * have travelled furthest, so going up from point 1 each roll is counted at the first
     * blot it hits. */
    uint64_t unhit = ((uint64_t)1 << 36) - 1;
    int lost = 0;
    for (uint64_t left = blots; left; left &= left - 1) {
        int p = ctz64(left);
        uint64_t rolls = 0;
        for (uint64_t behind = shooters & (((uint64_t)1 << p) - 1); behind; behind &= behind - 1)
            rolls |= roll_masks[p - ctz64(behind)];
        lost += popcount64(rolls & unhit) * (25 - p);
        unhit &= ~rolls;
    }
    s->e[12] = (float)(lost / 864.0);
}

static void bg_encode(const uint8_t *mine, const uint8_t *theirs, float *out) {
    BgSide m, o;
    bg_side(mine, theirs, out, &m);
    bg_side(theirs, mine, out + BG_RAW, &o);
    float *e = out + 2 * BG_RAW;
    e[0] = m.e[0];
    e[1] = o.e[0];
    e[2] = (o.e[0] - m.e[0]) * 2.0f;
    e[3] = (m.back + o.back) <= 25;
    for (int k = 1; k < 13; k++) {
        e[2 + 2 * k] = m.e[k];
        e[3 + 2 * k] = o.e[k];
    }
}

/* -- long nardy (features_long.encode) ------------------------------------------------------ */

typedef struct {
    float pips, to_home;
    int rear, none_off;
    uint8_t held[24]; /* in the other side's numbering, column c = its point c + 1 */
    int any_held;
} LongFacts;

static void long_facts(const uint8_t *x, LongFacts *f) {
    int pips = 0, to_home = 0;
    for (int p = 0; p <= 24; p++) { /* index 25, the bar, is always empty and weighs 0 */
        pips += p * x[p];
        to_home += (p > 6 ? p - 6 : 0) * x[p];
    }
    f->pips = (float)pips;
    f->to_home = (float)to_home;
    f->none_off = x[OFF] == 0;
    f->rear = 0;
    for (int p = 1; p <= 24; p++)
        if (x[p]) f->rear = p;
}

/* A side's points standing in the other side's way: below its last checker, in its numbering.*/
static void long_held(const uint8_t *x, int other_rear, LongFacts *f, int *front) {
    *front = 0;
    f->any_held = 0;
    for (int c = 0; c < 24; c++) {
        int count = x[c < 12 ? c + 13 : c - 11];
        f->held[c] = count > 0 && other_rear > c + 1;
        f->any_held |= f->held[c];
        if (f->held[c] && other_rear - 6 <= c + 1) ++*front;
    }
}

static void long_encode(const uint8_t *mine, const uint8_t *theirs, float *out) {
    const uint8_t *side[2] = {mine, theirs};
    LongFacts f[2];
    int front[2];
    float per[2][8], quarters[2][4];
    long_facts(mine, &f[0]);
    long_facts(theirs, &f[1]);
    for (int k = 0; k < 2; k++) {
        const uint8_t *x = side[k];
        const LongFacts *other = &f[1 - k];
        unary(x, out + k * LONG_RAW);
        out[k * LONG_RAW + 96] = (float)(x[OFF] / (double)CHECKERS);
        long_held(x, other->rear, &f[k], &front[k]);
        int run = longest_run(f[k].held, 24), points = 0;
        for (int p = 1; p <= 24; p++) points += x[p] > 0;
        per[k][0] = f[k].pips / 200.0f;
        per[k][1] = (float)(x[HEAD] / (double)CHECKERS);
        per[k][2] = (float)((run < 6 ? run : 6) / 6.0);
        per[k][3] = (float)(front[k] / 6.0);
        per[k][4] = (float)(points / 12.0);
        per[k][5] = (float)f[k].none_off;
        per[k][6] = f[k].to_home / 100.0f;
        per[k][7] = other->none_off ? (other->to_home - f[k].pips) / 50.0f : 0.0f;
        for (int q = 0; q < 4; q++) {
            int n = 0;
            for (int p = 6 * q + 1; p <= 6 * q + 6; p++) n += x[p];
            quarters[k][q] = (float)(n / (double)CHECKERS);
        }
    }
    float *e = out + 2 * LONG_RAW;
    e[0] = per[0][0];
    e[1] = per[1][0];
    e[2] = (f[1].pips - f[0].pips) / 50.0f;
    e[3] = !(f[0].any_held || f[1].any_held);
    e[4] = per[0][1];
    e[5] = per[1][1];
    for (int q = 0; q < 4; q++) {
        e[6 + q] = quarters[0][q];
        e[10 + q] = quarters[1][q];
    }
    for (int j = 0; j < 6; j++) {
        e[14 + 2 * j] = per[0][2 + j];
        e[15 + 2 * j] = per[1][2 + j];
    }
}

/* -- the Python side ------------------------------------------------------------------------ */

PyDoc_STRVAR(encode_doc,
             "encode(kind, mine, theirs, out)\n--\n\n"
             "Encode N positions into ``out``: kind 0 the backgammon family (224 float32 per\n"
             "row), 1 long nardy (220). ``mine`` and ``theirs`` are C-contiguous buffers of\n"
             "N * 26 uint8 counts, ``out`` a writable C-contiguous buffer of N rows of float32.");

static PyObject *encode(PyObject *module, PyObject *args) {
    (void)module;
    int kind;
    Py_buffer mine, theirs, out;
    if (!PyArg_ParseTuple(args, "iy*y*w*", &kind, &mine, &theirs, &out)) return NULL;
    PyObject *result = NULL;
    Py_ssize_t width = kind == 0 ? BG_INPUTS : kind == 1 ? LONG_INPUTS : 0;
    if (!width) {
        PyErr_Format(PyExc_ValueError, "kind must be 0 or 1, not %d", kind);
    } else if (mine.len % SIDE || mine.len != theirs.len) {
        PyErr_SetString(PyExc_ValueError, "mine and theirs must be N rows of 26 counts each");
    } else if (out.len != mine.len / SIDE * width * (Py_ssize_t)sizeof(float)) {
        PyErr_Format(PyExc_ValueError, "out must hold %zd rows of %zd float32",
                     mine.len / SIDE, width);
    } else {
        Py_ssize_t rows = mine.len / SIDE;
        const uint8_t *m = mine.buf, *t = theirs.buf;
        float *o = out.buf;
        for (Py_ssize_t i = 0; i < rows; i++) {
            if (kind == 0)
                bg_encode(m + i * SIDE, t + i * SIDE, o + i * width);
            else
                long_encode(m + i * SIDE, t + i * SIDE, o + i * width);
        }
        result = Py_None;
        Py_INCREF(result);
    }
    PyBuffer_Release(&mine);
    PyBuffer_Release(&theirs);
    PyBuffer_Release(&out);
    return result;
}

static PyMethodDef methods[] = {
    {"encode", encode, METH_VARARGS, encode_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "nardy.engine._features",
    .m_doc = "The compiled input encodings of the nets (see nardy.engine.features, docs/engine.md).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__features(void) {
    init_tables();
    return PyModule_Create(&module_def);
}

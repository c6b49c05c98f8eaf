/* `cuobjdump -sass` listings: functions, instruction words, control bits, register sources
 * (smtlm/sass_listing.h). Lines come through the trace reader's line source (plain or xz, file
 * or memory, NUL bytes refused). */
#include <stdlib.h>
#include <string.h>

#include "smtlm/sass_listing.h"
#include "trace_internal.h"

/* Before sm_70 an instruction is one word and the control bits sit in a separate word every
 * few instructions: not this format. */
#define SASS_MIN_ARCH 70u

typedef struct sass_parser {
    const char *name;
    smtlm_sass_listing *out;
    size_t func_cap, inst_cap; /* capacities of out->func and of the last function's inst */
    unsigned arch;             /* of the current `code for sm_XX` block; 0 before any */
    unsigned char variant;     /* its letter: 'a' for sm_90a, 0 for none */
    unsigned long lineno;
    char *err;
    size_t errlen;
} sass_parser;

static int is_space(char c) { return c == ' ' || c == '\t'; }

static const char *skip_space(const char *s)
{
    while (is_space(*s))
        s++;
    return s;
}

static int is_ident(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int fail(const sass_parser *p, unsigned long line, const char *fmt, ...) TRACE_PRINTF(3, 4);
static int fail(const sass_parser *p, unsigned long line, const char *fmt, ...)
{
    va_list ap;
    int rc;
    va_start(ap, fmt);
    rc = trace_vfail(p->err, p->errlen, SMTLM_TRACE_ERR_FORMAT, p->name, line, fmt, ap);
    va_end(ap);
    return rc;
}

static int nomem(const sass_parser *p)
{
    return trace_fail(p->err, p->errlen, SMTLM_TRACE_ERR_NOMEM, p->name, p->lineno, "out of memory");
}

/* Hex digits from s up to the first byte that is none: their count, the value in *v; -1 when
 * there are more than 16. */
static int hex_run(const char *s, uint64_t *v)
{
    trace_tok t = {s, 0};
    while (trace_hex_plus1[(unsigned char)s[t.n]] != 0)
        t.n++;
    if (t.n == 0)
        return 0;
    if (t.n > 16 || trace_parse_hex(t, UINT64_MAX, v) != 0)
        return -1;
    return (int)t.n;
}

/* A word comment at s ("/" "* 0x0000000b04067223 *" "/"): 1 with the word in *w and *end after
 * it, 0 when s is no word comment, < 0 (message written) when it is a malformed one. */
static int word_comment(const sass_parser *p, const char *s, uint64_t *w, const char **end)
{
    const char *q;
    int n;
    if (s[0] != '/' || s[1] != '*')
        return 0;
    q = skip_space(s + 2);
    if (q[0] != '0' || (q[1] != 'x' && q[1] != 'X'))
        return 0;
    n = hex_run(q + 2, w);
    q = skip_space(q + 2 + (n > 0 ? n : 0));
    if (n <= 0 || q[0] != '*' || q[1] != '/')
        return fail(p, p->lineno, "malformed hex word \"%.40s\"", s);
    *end = skip_space(q + 2);
    return 1;
}

/* ---- operands ---- */

/* A general register at s (R0..R254, RZ) ending where no identifier byte follows: its number
 * in *reg and the length; 0 when s is none; -1 when it is a number out of range. */
static int gen_reg(const char *s, unsigned *reg)
{
    unsigned v = 0, n = 1;
    if (s[0] != 'R')
        return 0;
    if (s[1] == 'Z') {
        n = 2;
        v = SMTLM_SASS_RZ;
    } else {
        while (s[n] >= '0' && s[n] <= '9') {
            v = v < SMTLM_SASS_RZ ? v * 10 + (unsigned)(s[n] - '0') : v; /* past 254: out of range */
            n++;
        }
        if (n == 1)
            return 0;
    }
    if (is_ident(s[n]))
        return 0;
    if (s[1] != 'Z' && v >= SMTLM_SASS_RZ)
        return -1;
    *reg = v;
    return (int)n;
}

/* Whether the operand text [s, e) carries the .reuse suffix. */
static int has_reuse(const char *s, const char *e)
{
    static const char word[] = ".reuse";
    const size_t n = sizeof word - 1;
    for (; (size_t)(e - s) >= n; s++)
        if (memcmp(s, word, n) == 0 && (s + n == e || !is_ident(s[n])))
            return 1;
    return 0;
}

static int add_src(const sass_parser *p, smtlm_sass_inst *in, unsigned reg, unsigned slot, int reuse)
{
    smtlm_sass_src *s;
    if (in->n_src == SMTLM_SASS_MAX_SRC)
        return fail(p, p->lineno, "more than %d register sources", SMTLM_SASS_MAX_SRC);
    s = &in->src[in->n_src++];
    s->reg = (uint16_t)reg;
    s->slot = (uint8_t)slot;
    s->reuse = (uint8_t)reuse;
    return 0;
}

/* The register a memory operand's address [s, e) (the text in its last brackets) is based on:
 * its general register term, RZ when it has none. */
static int mem_base(const sass_parser *p, const char *s, const char *e, unsigned *reg)
{
    const char *q;
    for (q = s; q < e; q++) {
        int n;
        if (q > s && is_ident(q[-1]))
            continue;
        n = gen_reg(q, reg);
        if (n < 0)
            return fail(p, p->lineno, "register \"%.*s\" out of range (R0..R254, RZ)",
                        (int)strcspn(q, "+-]"), q);
        if (n > 0)
            return 0;
    }
    *reg = SMTLM_SASS_RZ;
    return 0;
}

/* Operand k, the text [s, e) (trimmed), in operand slot `slot`: adds its register source, if
 * any, to in; 1 when it is operand 0 and a general register (the destination). */
static int operand(const sass_parser *p, smtlm_sass_inst *in, unsigned k, unsigned slot, const char *s, const char *e)
{
    const char *open, *close;
    unsigned reg;
    int n, rc;
    while (s < e && (*s == '-' || *s == '|' || *s == '!' || *s == '~' || *s == '+'))
        s++;
    if (s < e && (strncmp(s, "c[", 2) == 0 || strncmp(s, "cx[", 3) == 0))
        return 0; /* a constant bank */
    open = memchr(s, '[', (size_t)(e - s));
    close = memchr(s, ']', (size_t)(e - s));
    if (open != NULL || close != NULL) {
        /* the address is in the last bracket pair: desc[UR4][R2.64+0x8] reads R2 */
        const char *next;
        while (close != NULL && (next = memchr(close + 1, ']', (size_t)(e - close - 1))) != NULL)
            close = next;
        open = close;
        while (open != NULL && open > s && open[-1] != '[' && open[-1] != ']')
            open--;
        if (close == NULL || open == s || open[-1] != '[' || memchr(close, '[', (size_t)(e - close)) != NULL)
            return fail(p, p->lineno, "unbalanced brackets in operand \"%.*s\"", (int)(e - s), s);
        if ((rc = mem_base(p, open, close, &reg)) < 0)
            return rc;
        return add_src(p, in, reg, slot, 0);
    }
    n = gen_reg(s, &reg);
    if (n < 0)
        return fail(p, p->lineno, "register \"%.*s\" out of range (R0..R254, RZ)", (int)(e - s), s);
    if (n == 0)
        return 0;
    if (k == 0)
        return 1;
    return add_src(p, in, reg, slot, has_reuse(s + n, e));
}

/* Whether the operand text [s, e) is a predicate register (P0..P6, PT, UP0.., UPT). */
static int is_pred(const char *s, const char *e)
{
    if (s < e && *s == 'U')
        s++;
    return e - s == 2 && s[0] == 'P' && ((s[1] >= '0' && s[1] <= '6') || s[1] == 'T');
}

/* The operands of the text [s, e), split at the commas outside brackets. The operand slots
 * (a, b, c) count from the first source: after operand 0 and the destinations that follow it,
 * predicates (IADD3 R2, P0, R4, ...; ISETP P0, PT, R2, ...) and the register after a predicate
 * destination (LOP3.LUT P0, R2, R4, ...), as the encoding's reuse flags number them. */
static int operands(const sass_parser *p, smtlm_sass_inst *in, const char *s, const char *e)
{
    unsigned k = 0, lead = 1;
    int pred0 = 0;
    while (s < e) {
        const char *a = s, *b;
        int depth = 0, rc;
        while (s < e && (*s != ',' || depth > 0)) {
            depth += (*s == '[' || *s == '(' || *s == '{') - (*s == ']' || *s == ')' || *s == '}');
            s++;
        }
        b = s;
        a = skip_space(a);
        while (b > a && is_space(b[-1]))
            b--;
        if (a == b)
            return fail(p, p->lineno, "empty operand %u", k);
        if (k == 0) {
            pred0 = is_pred(a, b);
        } else if (k == lead) {
            unsigned reg;
            if (is_pred(a, b) || (k == 1 && pred0 && gen_reg(a, &reg) > 0))
                lead++;
        }
        if ((rc = operand(p, in, k, k >= lead && k - lead < 3 ? k - lead : SMTLM_SASS_SLOT_OTHER, a, b)) < 0)
            return rc;
        k++;
        if (s < e)
            s++; /* the comma */
    }
    return 0;
}

/* ---- lines ---- */

static void decode_ctrl(smtlm_sass_inst *in)
{
    const uint64_t c = in->hi >> 41;
    memset(&in->ctrl, 0, sizeof in->ctrl);
    in->ctrl.stall = (uint8_t)(c & 0xf);
    in->ctrl.flags = (uint8_t)(SMTLM_CTRL_VALID | (((c >> 4) & 1) ? SMTLM_CTRL_YIELD : 0));
    in->ctrl.wbar = (uint8_t)((c >> 5) & 7);
    in->ctrl.rbar = (uint8_t)((c >> 8) & 7);
    in->ctrl.wait = (uint8_t)((c >> 11) & 0x3f);
}

/* The array a of *cap elements of `size` bytes with room for element n (doubled when full), or
 * NULL when out of memory (a unchanged). */
static void *room(void *a, size_t *cap, size_t n, size_t size)
{
    size_t c;
    if (n < *cap)
        return a;
    c = *cap ? 2 * *cap : 16;
    if (c > SIZE_MAX / size || (a = realloc(a, c * size)) == NULL)
        return NULL;
    *cap = c;
    return a;
}

static smtlm_sass_func *cur_func(const sass_parser *p) { return &p->out->func[p->out->n - 1]; }

static int func_line(sass_parser *p, const char *s)
{
    smtlm_sass_listing *l = p->out;
    smtlm_sass_func *f;
    const char *e;
    size_t n;
    s = skip_space(s);
    e = s + strlen(s);
    while (e > s && is_space(e[-1]))
        e--;
    n = (size_t)(e - s);
    if (n == 0)
        return fail(p, p->lineno, "`Function :` without a name");
    if ((f = room(l->func, &p->func_cap, l->n, sizeof l->func[0])) == NULL)
        return nomem(p);
    l->func = f;
    memset(&l->func[l->n], 0, sizeof l->func[0]);
    if ((l->func[l->n].name = strndup(s, n)) == NULL)
        return nomem(p);
    l->func[l->n].line = (unsigned)p->lineno;
    l->func[l->n].arch = p->arch;
    l->func[l->n].variant = p->variant;
    l->n++;
    p->inst_cap = 0;
    return 0;
}

/* `code for sm_90a`: the block's architecture and its variant letter. */
static void arch_line(sass_parser *p, const char *s)
{
    unsigned v = 0;
    while (*s >= '0' && *s <= '9' && v < 10000)
        v = v * 10 + (unsigned)(*s++ - '0');
    p->arch = v;
    p->variant = (unsigned char)(*s >= 'a' && *s <= 'z' ? *s : 0);
}

/* An error when the current code block is older than sm_70 (one word per instruction, the
 * control bits in words of their own): it would be misread. */
static int old_arch(const sass_parser *p)
{
    if (p->arch == 0 || p->arch >= SASS_MIN_ARCH)
        return 0;
    return fail(p, p->lineno, "sm_%u code: only sm_%u and later listings (two words per instruction) are read",
                p->arch, SASS_MIN_ARCH);
}

/* An instruction line: s at its PC comment, pc parsed, q after it. Fills in (all but hi). */
static int inst_line(sass_parser *p, smtlm_sass_inst *in, uint32_t pc, const char *q)
{
    const char *lo_at = strstr(q, "/*"), *e, *m, *after;
    uint64_t lo;
    size_t n;
    int rc;
    memset(in, 0, sizeof *in);
    in->pc = pc;
    in->line = (uint32_t)p->lineno;
    if (p->out->n == 0)
        return fail(p, p->lineno, "instruction before any `Function :`");
    if ((rc = old_arch(p)) < 0)
        return rc;
    if (lo_at == NULL || (rc = word_comment(p, lo_at, &lo, &after)) == 0)
        return fail(p, p->lineno, "instruction at 0x%x without its low word", pc);
    if (rc < 0)
        return rc;
    if (*after != '\0')
        return fail(p, p->lineno, "text after the low word: \"%.40s\"", after);
    in->lo = lo;
    e = lo_at;
    while (e > q && is_space(e[-1]))
        e--;
    if (e == q || e[-1] != ';')
        return fail(p, p->lineno, "instruction at 0x%x does not end in ';'", pc);
    e--;
    q = skip_space(q);
    if (*q == '@') { /* the guard predicate */
        while (q < e && !is_space(*q))
            q++;
        q = skip_space(q);
    }
    for (m = q; m < e && !is_space(*m);)
        m++;
    if (m == q)
        return fail(p, p->lineno, "instruction at 0x%x without a mnemonic", pc);
    n = (size_t)(m - q) < sizeof in->op - 1 ? (size_t)(m - q) : sizeof in->op - 1;
    memcpy(in->op, q, n);
    in->op[n] = '\0';
    while (e > m && is_space(e[-1]))
        e--;
    return operands(p, in, skip_space(m), e);
}

static int push_inst(sass_parser *p, const smtlm_sass_inst *in)
{
    smtlm_sass_func *f = cur_func(p);
    smtlm_sass_inst *a;
    if (f->n > 0 && in->pc <= f->inst[f->n - 1].pc)
        return fail(p, in->line, "PC 0x%x does not follow 0x%x (line %u) in function %s", in->pc,
                    f->inst[f->n - 1].pc, f->inst[f->n - 1].line, f->name);
    if ((a = room(f->inst, &p->inst_cap, f->n, sizeof f->inst[0])) == NULL)
        return nomem(p);
    f->inst = a;
    f->inst[f->n++] = *in;
    return 0;
}

static int read_lines(sass_parser *p, trace_lines *l)
{
    smtlm_sass_inst in;
    int pending = 0, rc;
    while ((rc = trace_lines_next(l, p->err, p->errlen)) == 1) {
        const char *s = skip_space(l->line), *after;
        uint64_t w;
        p->lineno = l->lineno;
        rc = word_comment(p, s, &w, &after);
        if (rc < 0)
            return rc;
        if (rc == 1 && *after != '\0')
            return fail(p, p->lineno, "text after the high word: \"%.40s\"", after);
        if (pending) {
            if (rc == 0)
                return fail(p, in.line, "instruction at 0x%x without its high-word line", in.pc);
            in.hi = w;
            decode_ctrl(&in);
            if ((rc = push_inst(p, &in)) < 0)
                return rc;
            pending = 0;
        } else if (rc == 1) {
            /* a listing before sm_70 has a word of control bits on its own every few lines */
            return old_arch(p) < 0 ? SMTLM_TRACE_ERR_FORMAT
                                   : fail(p, p->lineno, "high word without an instruction line before it");
        } else if (strncmp(s, "Function :", 10) == 0) {
            if ((rc = func_line(p, s + 10)) < 0)
                return rc;
        } else if (strncmp(s, "code for sm_", 12) == 0) {
            arch_line(p, s + 12);
        } else if (s[0] == '/' && s[1] == '*' && trace_hex_plus1[(unsigned char)s[2]] != 0) {
            int n = hex_run(s + 2, &w);
            if (n < 0 || s[2 + n] != '*' || s[3 + n] != '/' || w > UINT32_MAX)
                return fail(p, p->lineno, "malformed PC \"%.20s\"", s);
            if (w > SMTLM_SASS_MAX_PC)
                return fail(p, p->lineno, "PC 0x%llx beyond 0x%x, the largest a function of a listing may have",
                            (unsigned long long)w, SMTLM_SASS_MAX_PC);
            if ((rc = inst_line(p, &in, (uint32_t)w, s + 4 + n)) < 0)
                return rc;
            pending = 1;
        }
    }
    if (rc < 0)
        return rc;
    if (pending)
        return fail(p, in.line, "instruction at 0x%x without its high-word line", in.pc);
    if (p->out->n == 0)
        return fail(p, l->lineno > 0 ? l->lineno : 1, "no `Function :` section");
    return SMTLM_OK;
}

/* ---- the index: the functions by (name, architecture, variant), sorted once ---- */

/* qsort has no context argument: the listing being sorted, one per thread. */
static _Thread_local smtlm_sass_listing *sorting;

static int func_cmp(const smtlm_sass_func *a, const smtlm_sass_func *b)
{
    int c = strcmp(a->name, b->name);
    if (c == 0)
        c = (a->arch > b->arch) - (a->arch < b->arch);
    if (c == 0)
        c = (a->variant > b->variant) - (a->variant < b->variant);
    return c;
}

static int by_key_then_line(const void *x, const void *y)
{
    const smtlm_sass_func *a = &sorting->func[*(const size_t *)x], *b = &sorting->func[*(const size_t *)y];
    int c;
    sorting->compares++;
    c = func_cmp(a, b);
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* Sorts the index and refuses a function listed twice in one `code for` block's architecture
 * and variant: the second of the pair met first in the listing, at its line. O(n log n) in the
 * number of functions, whatever their names. */
static int build_index(sass_parser *p)
{
    smtlm_sass_listing *l = p->out;
    const smtlm_sass_func *dup = NULL, *first = NULL;
    size_t i;
    if ((l->index = malloc((l->n ? l->n : 1) * sizeof *l->index)) == NULL)
        return nomem(p);
    for (i = 0; i < l->n; i++)
        l->index[i] = i;
    sorting = l;
    qsort(l->index, l->n, sizeof *l->index, by_key_then_line);
    sorting = NULL;
    for (i = 1; i < l->n; i++) {
        const smtlm_sass_func *a = &l->func[l->index[i - 1]], *b = &l->func[l->index[i]];
        /* b second of its run of equal keys (sorted by line) */
        if (func_cmp(a, b) == 0 && (i < 2 || func_cmp(&l->func[l->index[i - 2]], a) != 0) &&
            (dup == NULL || b->line < dup->line)) {
            dup = b;
            first = a;
        }
    }
    if (dup != NULL)
        return fail(p, dup->line, "function \"%s\" listed twice (first at line %u)", dup->name, first->line);
    return SMTLM_OK;
}

/* One body for both readers: l opened (or rc < 0 when it could not be). */
static int read_listing(trace_lines *l, int rc, const char *name, smtlm_sass_listing *out, char *err,
                        size_t errlen)
{
    sass_parser p;
    memset(&p, 0, sizeof p);
    p.name = name;
    p.out = out;
    p.err = err;
    p.errlen = errlen;
    if (rc >= 0) {
        if ((out->path = strdup(name)) == NULL)
            rc = nomem(&p);
        else if ((rc = read_lines(&p, l)) == SMTLM_OK)
            rc = build_index(&p);
        trace_lines_close(l);
    }
    if (rc < 0)
        smtlm_sass_listing_free(out);
    return rc;
}

int smtlm_sass_listing_read(const char *path, smtlm_sass_listing *out, char *err, size_t errlen)
{
    trace_lines l;
    if (out == NULL || path == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "<sass>", 0, "no path or no listing");
    memset(out, 0, sizeof *out);
    return read_listing(&l, trace_lines_open_file_limited(&l, path, SMTLM_SASS_MAX_BYTES, "SASS listing", err, errlen),
                        path, out, err, errlen);
}

int smtlm_sass_listing_parse(const char *text, size_t len, const char *name, smtlm_sass_listing *out,
                             char *err, size_t errlen)
{
    trace_lines l;
    if (out == NULL)
        return trace_fail(err, errlen, SMTLM_TRACE_ERR_ARG, "<sass>", 0, "no listing");
    memset(out, 0, sizeof *out);
    if (name == NULL)
        name = "<sass>";
    return read_listing(&l, trace_lines_open_mem(&l, text, len, name, err, errlen), name, out, err, errlen);
}

/* How well f serves a kernel of binary version arch (lower is better; -1: not at all): for a
 * named architecture its arch-specific block (sm_90a), its generic one (sm_90), another variant
 * of it, then a function outside any block; for arch 0 one outside any block, then any. */
static int rank(const smtlm_sass_func *f, unsigned arch)
{
    if (arch == 0)
        return f->arch == 0 ? 0 : 1;
    if (f->arch == arch)
        return f->variant == 'a' ? 0 : f->variant == 0 ? 1 : 2;
    return f->arch == 0 ? 3 : -1;
}

const smtlm_sass_func *smtlm_sass_func_find(const smtlm_sass_listing *l, const char *name, unsigned arch)
{
    const smtlm_sass_func *best = NULL;
    size_t lo = 0, hi;
    int best_rank = -1;
    if (l == NULL || name == NULL || l->index == NULL)
        return NULL;
    /* the first of the index's run of functions called name (binary search), then that run */
    hi = l->n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (strcmp(l->func[l->index[mid]].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < l->n && strcmp(l->func[l->index[lo]].name, name) == 0; lo++) {
        const smtlm_sass_func *f = &l->func[l->index[lo]];
        const int r = rank(f, arch);
        if (r >= 0 && (best == NULL || r < best_rank || (r == best_rank && f->line < best->line))) {
            best = f;
            best_rank = r;
        }
    }
    return best;
}

const smtlm_sass_inst *smtlm_sass_inst_at(const smtlm_sass_func *f, uint32_t pc)
{
    size_t lo = 0, hi = f != NULL ? f->n : 0;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (f->inst[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < (f != NULL ? f->n : 0) && f->inst[lo].pc == pc ? &f->inst[lo] : NULL;
}

void smtlm_sass_listing_free(smtlm_sass_listing *l)
{
    size_t i;
    if (l == NULL)
        return;
    for (i = 0; i < l->n; i++) {
        free(l->func[i].name);
        free(l->func[i].inst);
    }
    free(l->func);
    free(l->index);
    free(l->path);
    memset(l, 0, sizeof *l);
}

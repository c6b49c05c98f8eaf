/* Kanata log writer: each added instruction becomes a list of commands sorted by cycle; a heap
 * of instructions ordered by (cycle of their next command, order of addition) merges them into
 * the file. File ids live in small reference-counted cells so that a dependency (W) can name a
 * producer whose own commands are long written and freed. */
#include "smtlm/kanata_log.h"

#include <stdlib.h>
#include <string.h>

enum { CMD_I, CMD_L0, CMD_L1, CMD_S, CMD_E, CMD_W, CMD_R };

typedef struct cmd {
    uint64_t cycle;
    uint32_t text;   /* I/L: text offset; S/E: stage name offset */
    int32_t arg;     /* S: label offset or -1; W: the producer's handle */
    uint16_t lane;
    uint8_t kind;
} cmd;

typedef struct rec {
    uint64_t seq, sim_id;
    unsigned thread, pos, n_cmd;
    int cell;         /* its own id cell (handle) */
    cmd *cmd;
    char *text;
} rec;

typedef struct cell {
    int64_t id;       /* file id, -1 before its I is written */
    int refs, next_free;
} cell;

struct smtlm_kanata {
    FILE *f;
    rec **heap;
    size_t n_heap, cap_heap;
    cell *cells;
    int n_cells, cap_cells, free_cell;
    uint64_t seq, next_id, next_rid, count, late;
    uint64_t cycle;   /* the file's current cycle */
    uint64_t flushed; /* every command before this cycle is written */
    int has_cycle, oom;
};

smtlm_kanata *smtlm_kanata_new(FILE *f)
{
    smtlm_kanata *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->f = f;
    k->free_cell = -1;
    fputs("Kanata\t0004\n", f);
    return k;
}

/* ---- id cells ---- */

static int cell_new(smtlm_kanata *k, int refs)
{
    int i = k->free_cell;
    if (i >= 0) {
        k->free_cell = k->cells[i].next_free;
    } else {
        if (k->n_cells == k->cap_cells) {
            int cap = k->cap_cells ? k->cap_cells * 2 : 256;
            cell *c = realloc(k->cells, (size_t)cap * sizeof *c);
            if (!c)
                return 0;
            k->cells = c;
            k->cap_cells = cap;
        }
        i = k->n_cells++;
    }
    k->cells[i].id = -1;
    k->cells[i].refs = refs;
    return i + 1;
}

static cell *cell_at(smtlm_kanata *k, int handle)
{
    return handle > 0 && handle <= k->n_cells && k->cells[handle - 1].refs > 0 ? &k->cells[handle - 1] : NULL;
}

void smtlm_kanata_retain(smtlm_kanata *k, int handle)
{
    cell *c = cell_at(k, handle);
    if (c)
        c->refs++;
}

void smtlm_kanata_release(smtlm_kanata *k, int handle)
{
    cell *c = cell_at(k, handle);
    if (c && --c->refs == 0) {
        c->next_free = k->free_cell;
        k->free_cell = handle - 1;
    }
}

/* ---- the heap of instructions with commands to write ---- */

static int before(const rec *a, const rec *b)
{
    const uint64_t ca = a->cmd[a->pos].cycle, cb = b->cmd[b->pos].cycle;
    return ca < cb || (ca == cb && a->seq < b->seq);
}

static int heap_push(smtlm_kanata *k, rec *r)
{
    if (k->n_heap == k->cap_heap) {
        size_t cap = k->cap_heap ? k->cap_heap * 2 : 256;
        rec **h = realloc(k->heap, cap * sizeof *h);
        if (!h)
            return -1;
        k->heap = h;
        k->cap_heap = cap;
    }
    size_t i = k->n_heap++;
    while (i > 0 && before(r, k->heap[(i - 1) / 2])) {
        k->heap[i] = k->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    k->heap[i] = r;
    return 0;
}

static rec *heap_pop(smtlm_kanata *k)
{
    rec *top = k->heap[0], *last = k->heap[--k->n_heap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= k->n_heap)
            break;
        if (c + 1 < k->n_heap && before(k->heap[c + 1], k->heap[c]))
            c++;
        if (!before(k->heap[c], last))
            break;
        k->heap[i] = k->heap[c];
        i = c;
    }
    if (k->n_heap)
        k->heap[i] = last;
    return top;
}

/* ---- building an instruction's commands ---- */

/* Bytes a text takes in the file: a newline becomes the two characters \n. */
static size_t text_len(const char *s)
{
    size_t n = 1;
    for (; s && *s; s++)
        n += *s == '\n' ? 2 : 1;
    return n;
}

/* Copies s into r->text at *used (tabs become blanks, newlines \n); returns its offset. */
static uint32_t put_text(rec *r, size_t *used, const char *s)
{
    const uint32_t at = (uint32_t)*used;
    char *d = r->text + *used;
    for (; s && *s; s++) {
        if (*s == '\n') {
            *d++ = '\\';
            *d++ = 'n';
        } else if (*s != '\r') {
            *d++ = *s == '\t' ? ' ' : *s;
        }
    }
    *d++ = 0;
    *used = (size_t)(d - r->text);
    return at;
}

static void add_cmd(rec *r, uint64_t cycle, int kind, unsigned lane, uint32_t text, int32_t arg)
{
    cmd *c = &r->cmd[r->n_cmd++];
    c->cycle = cycle;
    c->kind = (uint8_t)kind;
    c->lane = (uint16_t)lane;
    c->text = text;
    c->arg = arg;
}

int smtlm_kanata_add(smtlm_kanata *k, const smtlm_kanata_inst *in, int keep)
{
    unsigned n_cmd = 4 + 2 * in->n_stages + in->n_deps;
    size_t text = text_len(in->name) + text_len(in->detail);
    for (unsigned i = 0; i < in->n_stages; i++)
        text += text_len(in->stage[i].name) + text_len(in->stage[i].label);
    rec *r = malloc(sizeof *r + n_cmd * sizeof(cmd) + text);
    const int own = r ? cell_new(k, keep ? 2 : 1) : 0;
    if (!own) {
        free(r);
        k->oom = 1;
        return -1;
    }
    r->cmd = (cmd *)(r + 1);
    r->text = (char *)(r->cmd + n_cmd);
    r->n_cmd = r->pos = 0;
    r->seq = k->seq++;
    r->sim_id = in->sim_id;
    r->thread = in->thread;
    r->cell = own;
    /* every cycle at least the flushed one (a correct caller never needs this) */
    const uint64_t lo = k->flushed;
    int moved = 0;
#define AT(c) ((c) < lo ? (moved = 1, lo) : (c))
    size_t used = 0;
    add_cmd(r, AT(in->start), CMD_I, 0, 0, 0);
    add_cmd(r, AT(in->start), CMD_L0, 0, put_text(r, &used, in->name), 0);
    if (in->detail)
        add_cmd(r, AT(in->start), CMD_L1, 0, put_text(r, &used, in->detail), 0);
    for (unsigned i = 0; i < in->n_stages; i++) {
        const smtlm_kanata_stage *s = &in->stage[i];
        const uint32_t name = put_text(r, &used, s->name);
        const int32_t label = s->label ? (int32_t)put_text(r, &used, s->label) : -1;
        add_cmd(r, AT(s->start), CMD_S, s->lane, name, label);
        add_cmd(r, AT(s->end), CMD_E, s->lane, name, 0);
    }
    for (unsigned i = 0; i < in->n_deps; i++) {
        cell *p = cell_at(k, in->dep[i]);
        if (!p)
            continue;
        p->refs++;
        add_cmd(r, AT(in->dep_cycle), CMD_W, 0, 0, in->dep[i]);
    }
    add_cmd(r, AT(in->retire), CMD_R, 0, 0, 0);
#undef AT
    /* stable sort by cycle: within a cycle the order above (I first, a stage's end before the
     * next one's start, R last) */
    for (unsigned i = 1; i < r->n_cmd; i++) {
        cmd c = r->cmd[i];
        unsigned j = i;
        for (; j > 0 && r->cmd[j - 1].cycle > c.cycle; j--)
            r->cmd[j] = r->cmd[j - 1];
        r->cmd[j] = c;
    }
    k->count++;
    k->late += (uint64_t)moved;
    if (heap_push(k, r)) {
        smtlm_kanata_release(k, own);
        free(r);
        k->oom = 1;
        return -1;
    }
    return keep ? own : 0;
}

/* ---- writing ---- */

static void advance(smtlm_kanata *k, uint64_t cycle)
{
    if (!k->has_cycle)
        fprintf(k->f, "C=\t%llu\n", (unsigned long long)cycle);
    else if (cycle > k->cycle)
        fprintf(k->f, "C\t%llu\n", (unsigned long long)(cycle - k->cycle));
    k->cycle = cycle;
    k->has_cycle = 1;
}

/* Writes r's commands of cycle `c`; returns 1 when r has no command left (r is freed). */
static int write_cycle(smtlm_kanata *k, rec *r, uint64_t c)
{
    FILE *f = k->f;
    for (; r->pos < r->n_cmd && r->cmd[r->pos].cycle == c; r->pos++) {
        const cmd *m = &r->cmd[r->pos];
        const long long me = m->kind == CMD_I ? (long long)k->next_id : (long long)k->cells[r->cell - 1].id;
        switch (m->kind) {
        case CMD_I:
            k->cells[r->cell - 1].id = (int64_t)k->next_id++;
            fprintf(f, "I\t%lld\t%llu\t%u\n", me, (unsigned long long)r->sim_id, r->thread);
            break;
        case CMD_L0:
        case CMD_L1:
            fprintf(f, "L\t%lld\t%d\t%s\n", me, m->kind == CMD_L0 ? 0 : 1, r->text + m->text);
            break;
        case CMD_S:
            fprintf(f, "S\t%lld\t%u\t%s\n", me, (unsigned)m->lane, r->text + m->text);
            if (m->arg >= 0)
                fprintf(f, "L\t%lld\t2\t%s\n", me, r->text + m->arg);
            break;
        case CMD_E:
            fprintf(f, "E\t%lld\t%u\t%s\n", me, (unsigned)m->lane, r->text + m->text);
            break;
        case CMD_W: {
            const cell *p = &k->cells[m->arg - 1];
            if (p->id >= 0)
                fprintf(f, "W\t%lld\t%lld\t0\n", me, (long long)p->id);
            smtlm_kanata_release(k, m->arg);
            break;
        }
        default:
            fprintf(f, "R\t%lld\t%llu\t0\n", me, (unsigned long long)k->next_rid++);
            break;
        }
    }
    if (r->pos < r->n_cmd)
        return 0;
    smtlm_kanata_release(k, r->cell);
    free(r);
    return 1;
}

void smtlm_kanata_flush(smtlm_kanata *k, uint64_t cycle)
{
    while (k->n_heap && k->heap[0]->cmd[k->heap[0]->pos].cycle < cycle) {
        rec *r = heap_pop(k);
        const uint64_t c = r->cmd[r->pos].cycle;
        advance(k, c);
        if (!write_cycle(k, r, c) && heap_push(k, r)) {
            k->oom = 1;
            free(r);
        }
    }
    if (cycle > k->flushed)
        k->flushed = cycle;
}

uint64_t smtlm_kanata_count(const smtlm_kanata *k) { return k->count; }
uint64_t smtlm_kanata_late(const smtlm_kanata *k) { return k->late; }

int smtlm_kanata_close(smtlm_kanata *k)
{
    if (!k)
        return 0;
    smtlm_kanata_flush(k, UINT64_MAX);
    while (k->n_heap) { /* commands at the last possible cycle */
        rec *r = heap_pop(k);
        advance(k, r->cmd[r->pos].cycle);
        if (!write_cycle(k, r, r->cmd[r->pos].cycle) && heap_push(k, r)) {
            k->oom = 1;
            free(r);
        }
    }
    const int rc = k->oom || fflush(k->f) || ferror(k->f) ? -1 : 0;
    free(k->heap);
    free(k->cells);
    free(k);
    return rc;
}

/* Reader thread: parses thread blocks of one trace in file order on a second thread, ahead of
 * the engine, through a bounded single-producer/single-consumer queue.
 *
 * The consumer sees exactly the sequence smtlm_trace_next_tb would give it on its own thread:
 * every block in order, then the end (0) or the reader's first error (< 0, same message), which
 * stays at the head of the queue so that later calls repeat it, as smtlm_trace_next_tb does.
 * Block objects circulate: the consumer hands back the object its CTA slot held when it takes
 * a new one, so memory stays bounded by the resident CTAs plus the queue's bound. */
#include "trace_prefetch.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

#define PREFETCH_DEPTH 1024u /* blocks waiting at most */
/* Blocks are parsed ahead until this many bytes of them wait in the queue: CTAs finish in waves,
 * and a wave takes many blocks at once, but memory must not grow with the trace. */
#define PREFETCH_BUDGET_BYTES (32u << 20)

typedef struct entry {
    smtlm_trace_tb *tb;
    int rc;            /* 1 = a block, 0 = end of the trace, < 0 = error (trace_prefetch.msg) */
    size_t bytes;      /* its footprint */
} entry;

struct trace_prefetch {
    smtlm_trace *t;    /* used by the reader thread only, once started */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t can_produce, can_consume;
    entry ring[PREFETCH_DEPTH];
    char msg[1024];    /* the error of the last entry (nothing follows an error) */
    unsigned head, count;
    size_t queued_bytes;
    smtlm_trace_tb **spare; /* objects handed back by the consumer */
    unsigned n_spare, spare_cap;
    int stop;          /* the consumer is closing */
    int finished;      /* the reader queued the end or an error and left */
};

static smtlm_trace_tb *take_spare(trace_prefetch *p)
{
    return p->n_spare > 0 ? p->spare[--p->n_spare] : smtlm_trace_tb_new();
}

static void *reader_main(void *arg)
{
    trace_prefetch *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        while (!p->stop && (p->count == PREFETCH_DEPTH || p->queued_bytes >= PREFETCH_BUDGET_BYTES))
            pthread_cond_wait(&p->can_produce, &p->mu);
        if (p->stop)
            break;
        smtlm_trace_tb *tb = take_spare(p);
        pthread_mutex_unlock(&p->mu);
        entry e;
        char msg[sizeof p->msg] = "";
        e.tb = tb;
        if (tb == NULL) {
            e.rc = SMTLM_TRACE_ERR_NOMEM;
            snprintf(msg, sizeof msg, "out of memory reading a thread block");
        } else {
            e.rc = smtlm_trace_next_tb(p->t, tb, msg, sizeof msg);
        }
        e.bytes = smtlm_trace_tb_footprint(tb);
        pthread_mutex_lock(&p->mu);
        p->ring[(p->head + p->count) % PREFETCH_DEPTH] = e;
        p->count++;
        p->queued_bytes += e.bytes;
        if (e.rc < 0)
            memcpy(p->msg, msg, sizeof msg);
        pthread_cond_signal(&p->can_consume);
        if (e.rc <= 0)
            break; /* nothing follows the end or an error */
    }
    p->finished = 1;
    pthread_cond_signal(&p->can_consume);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int trace_prefetch_start(trace_prefetch **out, smtlm_trace *t, unsigned max_objects)
{
    trace_prefetch *p;
    *out = NULL;
    p = calloc(1, sizeof *p);
    if (p == NULL)
        return SMTLM_TRACE_ERR_NOMEM;
    p->t = t;
    p->spare_cap = max_objects + PREFETCH_DEPTH + 1;
    p->spare = calloc(p->spare_cap, sizeof *p->spare);
    if (p->spare == NULL) {
        free(p);
        return SMTLM_TRACE_ERR_NOMEM;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->can_produce, NULL);
    pthread_cond_init(&p->can_consume, NULL);
    if (pthread_create(&p->thread, NULL, reader_main, p) != 0) {
        pthread_cond_destroy(&p->can_consume);
        pthread_cond_destroy(&p->can_produce);
        pthread_mutex_destroy(&p->mu);
        free(p->spare);
        free(p);
        return SMTLM_TRACE_ERR_IO;
    }
    *out = p;
    return 0;
}

int trace_prefetch_next(trace_prefetch *p, smtlm_trace_tb **tb, char *err, size_t errlen)
{
    int rc;
    pthread_mutex_lock(&p->mu);
    while (p->count == 0 && !p->finished)
        pthread_cond_wait(&p->can_consume, &p->mu);
    entry *e = &p->ring[p->head];
    rc = p->count == 0 ? 0 : e->rc; /* count 0 here only after a stop, which the consumer made */
    if (rc > 0) {
        if (*tb != NULL && p->n_spare < p->spare_cap)
            p->spare[p->n_spare++] = *tb;
        else
            smtlm_trace_tb_free(*tb);
        *tb = e->tb;
        e->tb = NULL;
        p->head = (p->head + 1) % PREFETCH_DEPTH;
        p->count--;
        p->queued_bytes -= e->bytes;
        pthread_cond_signal(&p->can_produce);
    } else if (rc < 0) {
        trace_copy_msg(err, errlen, p->msg);
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

void trace_prefetch_stop(trace_prefetch *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->can_produce);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    for (unsigned i = 0; i < p->count; i++)
        smtlm_trace_tb_free(p->ring[(p->head + i) % PREFETCH_DEPTH].tb);
    for (unsigned i = 0; i < p->n_spare; i++)
        smtlm_trace_tb_free(p->spare[i]);
    pthread_cond_destroy(&p->can_consume);
    pthread_cond_destroy(&p->can_produce);
    pthread_mutex_destroy(&p->mu);
    free(p->spare);
    free(p);
}

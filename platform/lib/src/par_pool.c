/* Persistent worker threads: a batch is published under a mutex with a generation number;
 * jobs are taken from an atomic counter (the caller takes them too); the last one to finish
 * wakes the caller. No thread creation or allocation per batch. */
#include "par_pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct par_pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned n_workers, started;
    unsigned long gen;
    int quit;
    par_job_fn fn;
    void *arg;
    unsigned n_jobs;
    atomic_uint next;
    unsigned busy; /* workers still in the current batch (under mu) */
    pthread_t th[];
};

static void take_jobs(par_pool *p)
{
    for (unsigned j; (j = atomic_fetch_add(&p->next, 1)) < p->n_jobs;)
        p->fn(p->arg, j);
}

static void *worker(void *arg)
{
    par_pool *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        seen = p->gen;
        pthread_mutex_unlock(&p->mu);
        take_jobs(p);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

par_pool *par_pool_new(unsigned n_threads)
{
    const unsigned n = n_threads > 1 ? n_threads - 1 : 0;
    par_pool *p = calloc(1, sizeof *p + n * sizeof(pthread_t));
    if (!p)
        return NULL;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->go, NULL);
    pthread_cond_init(&p->done, NULL);
    for (; p->started < n; p->started++)
        if (pthread_create(&p->th[p->started], NULL, worker, p)) {
            par_pool_free(p);
            return NULL;
        }
    p->n_workers = n;
    return p;
}

void par_pool_run(par_pool *p, unsigned n_jobs, par_job_fn fn, void *arg)
{
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->arg = arg;
    p->n_jobs = n_jobs;
    atomic_store(&p->next, 0);
    p->busy = p->n_workers;
    p->gen++;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    take_jobs(p);
    pthread_mutex_lock(&p->mu);
    while (p->busy)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void par_pool_free(par_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->started; i++)
        pthread_join(p->th[i], NULL);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

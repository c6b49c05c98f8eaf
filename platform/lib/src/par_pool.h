/* A persistent pool of host threads that runs n jobs of one function and waits for them. */
#ifndef SMTLM_PAR_POOL_H
#define SMTLM_PAR_POOL_H

typedef struct par_pool par_pool;
typedef void (*par_job_fn)(void *arg, unsigned job);

/* n_threads counts the caller, which works too: n_threads - 1 threads are started. NULL on
 * failure. */
par_pool *par_pool_new(unsigned n_threads);
/* Runs fn(arg, 0..n_jobs-1), each job once on some thread; returns when all are done. */
void par_pool_run(par_pool *p, unsigned n_jobs, par_job_fn fn, void *arg);
void par_pool_free(par_pool *p);

#endif

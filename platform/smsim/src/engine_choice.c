/* Which engine smsim runs, and on how many host threads. By default the C engine on every core
 * the process may use (results are identical for every engine and thread count); the SystemC
 * engine when asked for by name, or when an option only it honours is set to other than its
 * default, so no such option is ever silently ignored. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "smsim_internal.h"

/* The options only the SystemC engine reads: the SoC side and its synchronisation. */
static const char *const systemc_only[] = {"smtlm_tlm_dmi",         "smtlm_mem_real_access", "smtlm_addr_map",
                                           "smtlm_mem_single_port", "smtlm_mem_waits",       "smtlm_quantum_cycles"};

unsigned smsim_host_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static const smtlm_engine *named(const smtlm_engine *const *engines, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(engines[i]->name, name))
            return engines[i];
    return NULL;
}

static const char *where(const smtlm_options *o, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "<default>");
    smtlm_options_origin(o, name, buf, n);
    return buf;
}

const smtlm_engine *smsim_pick_engine(const smtlm_options *o, const smtlm_engine *const *engines, unsigned n, char *msg,
                                      size_t len)
{
    const char *want = smsim_opt_str(o, "smtlm_engine");
    const char *sc_option = NULL;
    for (unsigned i = 0; i < sizeof systemc_only / sizeof *systemc_only && !sc_option; i++)
        if (smtlm_options_non_default(o, systemc_only[i]))
            sc_option = systemc_only[i];
    char at[SMSIM_WHERE_MAX], at_engine[SMSIM_WHERE_MAX];
    if (!*want && sc_option) {
        const smtlm_engine *e = named(engines, n, "systemc");
        if (!e)
            snprintf(msg, len, "%s: -%s is an option of the SystemC engine, which this program does not have",
                     where(o, sc_option, at, sizeof at), sc_option);
        return e;
    }
    const smtlm_engine *e = named(engines, n, *want ? want : "c");
    if (!*want && !e)
        e = engines[0];
    if (!e) {
        snprintf(msg, len, "%s: -smtlm_engine: '%s' is not available in this program (%s%s)",
                 where(o, "smtlm_engine", at, sizeof at), want, engines[0]->name,
                 n > 1 ? ", or another built in" : " only: it was built without SystemC");
        return NULL;
    }
    if (sc_option && strcmp(e->name, "systemc") != 0) {
        snprintf(msg, len, "%s: -%s is an option of the SystemC engine; -smtlm_engine %s (%s) would ignore it",
                 where(o, sc_option, at, sizeof at), sc_option, e->name,
                 where(o, "smtlm_engine", at_engine, sizeof at_engine));
        return NULL;
    }
    return e;
}

void smsim_settle_threads(const smtlm_engine *e, smtlm_engine_params *p)
{
    if (p->threads != 0)
        return; /* set by the user: the engine refuses what it cannot do */
    const unsigned cores = smsim_host_cores();
    const unsigned most = e->max_threads < cores ? e->max_threads : cores;
    p->threads = p->sm_windows != SMTLM_WINDOWS_OFF && most > 1 ? most : 1;
    p->threads_best_effort = 1; /* the engine runs on one if it cannot start them (memory, thread limit) */
}

/* The silicon core's control bits: the -smtlm_sass listing, or kernel-N.sass beside each trace. */
#include <string.h>

#include "smsim_internal.h"

static int silicon(const run_ctx *r) { return r->cfg.gpu.sm.silicon.enabled; }

const char *smsim_program_listing(const run_ctx *r)
{
    const char *path = smsim_opt_str(r->opts, "smtlm_sass");
    return silicon(r) && *path ? path : NULL;
}

char *smsim_listing_beside(const run_ctx *r, const char *trace)
{
    return silicon(r) && !smsim_program_listing(r) ? smtlm_trace_source_listing_path(trace) : NULL;
}

int smsim_load_program_listing(run_ctx *r)
{
    char msg[SMSIM_MSG_MAX];
    const char *path = smsim_opt_str(r->opts, "smtlm_sass");
    if (!*path || r->program.path)
        return 0;
    if (!silicon(r)) {
        char where[SMSIM_WHERE_MAX] = "<default>";
        smtlm_options_origin(r->opts, "smtlm_sass", where, sizeof where);
        return smsim_fail(r, 2, "%s: -smtlm_sass: " SMTLM_SASS_ONLY_SILICON, where);
    }
    if (smtlm_sass_listing_read(path, &r->program, msg, sizeof msg) < 0) {
        memset(&r->program, 0, sizeof r->program);
        return smsim_fail(r, 2, "%s", msg);
    }
    return 0;
}

/* The silicon core is H100 silicon: a trace of another architecture (a Volta or Ampere binary)
 * would be timed as if H100 ran its instructions, which is no result for the GPU it came from;
 * refused unless -smtlm_silicon_other_arch 1 asks for exactly that. */
static int other_arch(run_ctx *r, const smtlm_trace_source *src)
{
    const unsigned v = smtlm_trace_source_header(src)->binary_version;
    int allowed = 0;
    if (v == SMTLM_SILICON_ARCH || (smtlm_options_get_bool(r->opts, "smtlm_silicon_other_arch", &allowed) == SMTLM_OPT_OK && allowed))
        return 0;
    return smsim_fail(r, 2, "%s: binary version %u: the silicon core times H100 (sm_%u) silicon; -smtlm_silicon_other_arch 1 "
                      "times this trace as H100 would run its instructions", smtlm_trace_source_path(src), v, SMTLM_SILICON_ARCH);
}

int smsim_attach_listing(run_ctx *r, smtlm_trace_source *src)
{
    char msg[SMSIM_MSG_MAX];
    if (!silicon(r))
        return 0;
    if (other_arch(r, src))
        return 2;
    const int rc = smtlm_trace_source_use_listing(src, r->program.path ? &r->program : NULL, msg, sizeof msg);
    if (rc < 0)
        return smsim_fail(r, 2, "%s", msg);
    if (rc == 0 && !r->derived_noted) {
        r->derived_noted = 1;
        fprintf(r->err, "smsim: note: %s: " SMTLM_SASS_DERIVED_NOTE "\n", smtlm_trace_source_path(src));
    }
    return 0;
}

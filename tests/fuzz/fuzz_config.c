/* libFuzzer target: arbitrary bytes as config text through the option reader. -config is
 * disabled so the input cannot make the reader open files; every path must end in a
 * result code with a message, never a crash, leak or hang. */
#include "smtlm/options.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The list-valued options a model decodes, run through the value-list helpers. */
static void decode_lists(const smtlm_options *opts)
{
    static const char *const names[] = {
        "gpgpu_pipeline_widths", "gpgpu_shader_core_pipeline", "gpgpu_clock_domains",
        "ptx_opcode_latency_int", "trace_opcode_latency_initiation_sp", "specialized_unit_1",
        "specialized_unit_5", "trace", "gpgpu_dram_timing_opt",
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *s = NULL;
        unsigned list[16], lat, ii;
        double d[4];
        int n;
        smtlm_spec_unit_cfg su;
        char buf[64];
        if (smtlm_options_get_str(opts, names[i], &s) != 0 || !s)
            __builtin_trap();
        smtlm_parse_uint_list(s, list, 16, &n);
        smtlm_parse_uint_list_sep(s, ':', list, 16, &n);
        smtlm_parse_double_list_sep(s, ':', d, 4, &n);
        smtlm_parse_lat_ii(s, &lat, &ii);
        smtlm_parse_specialized_unit(s, &su);
        smtlm_options_origin(opts, names[i], buf, sizeof buf);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink; /* opened once: the target runs millions of times */
    char err[256];
    smtlm_options *opts = smtlm_options_new();
    if (!opts)
        return 0;
    smtlm_options_set_include_allowed(opts, 0);
    err[0] = '\0';
    if (smtlm_options_parse_text(opts, (const char *)data, size, "fuzz.config", err, sizeof err) != 0 &&
        err[0] == '\0')
        __builtin_trap(); /* every error must come with a message */
    decode_lists(opts);
    if (!sink)
        sink = fopen("/dev/null", "w");
    if (sink) {
        smtlm_options_list(opts, sink);
        smtlm_options_warn_unmodelled(opts, 1, sink);
    }
    smtlm_options_free(opts);
    return 0;
}

/* A kernel's control bits by PC from its listing (sass_code.h). */
#include "smtlm/sass_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smtlm/opcodes.h"

/* Only the sources an Accel-Sim trace can carry (its first SMTLM_CTRL_SOURCES) get bits. */
#define SMTLM_CTRL_SOURCES 4u

smtlm_ctrl smtlm_sass_code_entry(const smtlm_sass_inst *in)
{
    smtlm_ctrl c = in->ctrl;
    const size_t len = strnlen(in->op, sizeof in->op);
    c.pipe = (uint8_t)smtlm_sass_pipe(in->op, len);
    const unsigned wide = smtlm_sass_wide_sources(in->op, len);
    c.reuse = c.wide = c.slots = 0;
    for (unsigned i = 0; i < in->n_src && i < SMTLM_CTRL_SOURCES; i++) {
        const smtlm_sass_src *s = &in->src[i];
        c.reuse |= (uint8_t)((s->reuse ? 1u : 0u) << i);
        c.wide |= (uint8_t)((wide && s->reg != SMTLM_SASS_RZ ? 1u : 0u) << i);
        c.slots |= (uint8_t)((s->slot & 3u) << (2 * i));
    }
    c.flags |= SMTLM_CTRL_VALID;
    return c;
}

int smtlm_sass_code_build(const smtlm_sass_listing *l, const smtlm_sass_func *f, smtlm_code *out, char *err, size_t n)
{
    out->at = NULL;
    out->n = 0;
    uint32_t top = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (f->inst[i].pc % 16) {
            snprintf(err, n, "%s:%u: PC 0x%04x is not a multiple of 16 (sm_70 and later instructions are 16 bytes)",
                     l->path, f->inst[i].line, f->inst[i].pc);
            return -1;
        }
        if (f->inst[i].pc / 16 + 1 > top)
            top = f->inst[i].pc / 16 + 1;
    }
    /* top <= SMTLM_SASS_MAX_PC / 16 + 1: the listing reader refuses a PC beyond it */
    smtlm_ctrl *at = calloc(top ? top : 1, sizeof *at);
    if (!at) {
        snprintf(err, n, "%s: out of memory", l->path);
        return -1;
    }
    for (size_t i = 0; i < f->n; i++)
        at[f->inst[i].pc / 16] = smtlm_sass_code_entry(&f->inst[i]);
    out->at = at;
    out->n = top;
    return 0;
}

void smtlm_sass_code_free(smtlm_code *c)
{
    free((void *)c->at);
    c->at = NULL;
    c->n = 0;
}

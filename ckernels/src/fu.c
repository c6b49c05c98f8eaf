/* Pipelined function units (ring buffer) and the SM's result buses. */
#include "smtlm/fu.h"

#include <string.h>

/* Opcode acceptance by kind (the rules behind fu->accept). */
static int kind_accepts(unsigned kind, unsigned op)
{
    switch (kind) {
    case SMTLM_FU_SP: /* everything but SFU, memory, DP (and tensor/specialized ops) */
        return op != SMTLM_OP_SFU && op != SMTLM_OP_LOAD && op != SMTLM_OP_STORE &&
               op != SMTLM_OP_MEMBAR && op != SMTLM_OP_DP && op != SMTLM_OP_SPEC &&
               op != SMTLM_OP_TENSOR_CORE;
    case SMTLM_FU_INT: /* as SP, and not SP_OP */
        return op != SMTLM_OP_SFU && op != SMTLM_OP_LOAD && op != SMTLM_OP_STORE &&
               op != SMTLM_OP_MEMBAR && op != SMTLM_OP_DP && op != SMTLM_OP_SP &&
               op != SMTLM_OP_SPEC && op != SMTLM_OP_TENSOR_CORE;
    case SMTLM_FU_DP: return op == SMTLM_OP_DP;
    case SMTLM_FU_SFU: return op == SMTLM_OP_SFU || op == SMTLM_OP_DP; /* DP on SFU without DP units */
    case SMTLM_FU_TENSOR: return op == SMTLM_OP_TENSOR_CORE;
    case SMTLM_FU_SPEC: return op == SMTLM_OP_SPEC; /* and the unit number: smtlm_fu_accepts */
    default: return 0;
    }
}

int smtlm_fu_init(smtlm_fu *fu, smtlm_fu_kind kind, unsigned spec, unsigned depth,
                  unsigned issue_set, unsigned issue_slot)
{
    if (kind >= SMTLM_FU_KINDS || depth == 0)
        return SMTLM_EINVAL;
    if (depth >= SMTLM_MAX_LATENCY)
        return SMTLM_ERANGE;
    fu->kind = (uint8_t)kind;
    fu->spec = (uint8_t)spec;
    fu->depth = (uint16_t)depth;
    fu->issue_set = (uint8_t)issue_set;
    fu->issue_slot = (uint8_t)issue_slot;
    fu->accept = 0;
    for (unsigned op = 0; op < SMTLM_OP_COUNT; op++)
        fu->accept |= (uint16_t)(kind_accepts(kind, op) << op);
    smtlm_fu_reset(fu);
    return SMTLM_OK;
}

void smtlm_fu_reset(smtlm_fu *fu)
{
    fu->active = 0;
    fu->t = 0;
    fu->dispatch = SMTLM_NO_INST;
    fu->disp_stage = 0;
    fu->ready = 0;
    fu->busy_from = 0;
    for (unsigned i = 0; i < SMTLM_MAX_LATENCY; i++)
        fu->cell[i] = SMTLM_FU_EMPTY;
    fu->busy_done = 0;
    fu->issued = 0;
}

void smtlm_fu_issue(smtlm_fu *fu, smtlm_iref r, unsigned latency, unsigned ii)
{
    smtlm_fu_issue_at(fu, 0, 0, r, latency, ii, fu->t);
}

smtlm_iref smtlm_fu_cycle(smtlm_fu *fu)
{
    fu->t++;
    return smtlm_fu_visit(fu, 0, 0, fu->t);
}

int smtlm_resbus_init(smtlm_resbus *rb, unsigned n)
{
    if (n == 0)
        return SMTLM_EINVAL;
    if (n > SMTLM_MAX_RESULT_BUSES)
        return SMTLM_ERANGE;
    rb->n = n;
    rb->all = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1;
    smtlm_resbus_reset(rb);
    return SMTLM_OK;
}

void smtlm_resbus_reset(smtlm_resbus *rb)
{
    rb->t = 0;
    memset(rb->taken, 0, sizeof rb->taken);
    rb->stalls = 0;
}


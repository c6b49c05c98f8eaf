/* A pipelined SIMD function unit (GPGPU-Sim pipelined_simd_unit) as a ring buffer: O(1) per
 * cycle instead of an O(depth) shift. Semantics per cycle (smtlm_fu_cycle):
 *   1. stage 0 -> result port (EX_WB);
 *   2. all stages shift down by one (ring base advances);
 *   3. the dispatch register counts down its initiation interval; when it reaches 0 the
 *      instruction enters stage latency - II, if that stage is empty;
 *   4. occupied >>= 1.
 * smtlm_fu_can_issue: dispatch register empty and !occupied[latency]; issue sets occupied[latency].
 * Net: held II cycles in the dispatch register, EX_WB at FU issue + latency + 1. */
#ifndef SMTLM_FU_H
#define SMTLM_FU_H

#include "smtlm/common.h"
#include "smtlm/inst.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum smtlm_fu_kind {
    SMTLM_FU_SP = 0, SMTLM_FU_DP, SMTLM_FU_INT, SMTLM_FU_SFU, SMTLM_FU_TENSOR, SMTLM_FU_SPEC,
    SMTLM_FU_KINDS
} smtlm_fu_kind;

#define SMTLM_RING_MASK (SMTLM_MAX_LATENCY - 1)

typedef struct smtlm_fu {
    uint8_t kind;          /* smtlm_fu_kind */
    uint8_t spec;          /* specialized unit number 1..8 (kind SPEC) */
    uint8_t issue_set;     /* OC_EX register set it reads */
    uint8_t issue_slot;    /* its slot in that set under the sub-core model */
    uint16_t depth;        /* pipeline depth (GPGPU-Sim max latency of the unit) */
    uint16_t accept;       /* bit op: the kind accepts that op (set by init) */
    uint16_t active;       /* instructions in the stages */
    uint32_t t;            /* ring base == cycles elapsed */
    smtlm_iref dispatch;   /* dispatch register */
    uint16_t disp_latency, disp_ii;
    uint16_t disp_cycles;  /* remaining initiation-interval countdown */
    uint64_t occupied[SMTLM_MAX_LATENCY / 64];
    smtlm_iref ring[SMTLM_MAX_LATENCY];
    uint64_t busy_cycles;  /* cycles with the dispatch register or a stage occupied */
    uint64_t issued;
} smtlm_fu;

int smtlm_fu_init(smtlm_fu *fu, smtlm_fu_kind kind, unsigned spec, unsigned depth,
                  unsigned issue_set, unsigned issue_slot);
void smtlm_fu_reset(smtlm_fu *fu);

/* Opcode acceptance (sp_unit / int_unit / dp_unit / sfu / tensor_core / specialized_unit). */
static inline int smtlm_fu_accepts(const smtlm_fu *fu, unsigned op, unsigned spec)
{
    return op < SMTLM_OP_COUNT && (fu->accept >> op & 1) && (op != SMTLM_OP_SPEC || spec == fu->spec);
}

static inline int smtlm_fu_occupied(const smtlm_fu *fu, unsigned latency)
{
    unsigned b = (fu->t + latency) & SMTLM_RING_MASK;
    return (int)(fu->occupied[b >> 6] >> (b & 63) & 1);
}

static inline int smtlm_fu_can_issue(const smtlm_fu *fu, unsigned latency)
{
    return fu->dispatch == SMTLM_NO_INST && !smtlm_fu_occupied(fu, latency);
}

/* Accepts an instruction into the dispatch register (caller checked can_issue). Depth must
 * exceed latency and II must not exceed latency (validated when the instruction enters). */
void smtlm_fu_issue(smtlm_fu *fu, smtlm_iref r, unsigned latency, unsigned ii);

/* One cycle. If stage 0 held an instruction it is returned (to be moved to EX_WB), else
 * SMTLM_NO_INST. */
smtlm_iref smtlm_fu_cycle(smtlm_fu *fu);

/* Result buses (GPGPU-Sim m_result_bus: one bit per future cycle per bus, shifted each cycle),
 * stored transposed as a ring of future cycles, each a mask of the buses taken in that cycle:
 * the shift clears one word and a reservation is one find-first-zero. */
typedef struct smtlm_resbus {
    unsigned n;
    uint32_t t;
    uint32_t all;                         /* mask of the n buses */
    uint32_t taken[SMTLM_MAX_LATENCY];    /* ring: bit i = bus i taken in cycle t + k */
    uint64_t stalls;       /* issue attempts refused for lack of a bus */
} smtlm_resbus;

int smtlm_resbus_init(smtlm_resbus *rb, unsigned n);
void smtlm_resbus_reset(smtlm_resbus *rb);
/* Start of execute(): every bus shifts by one cycle. */
void smtlm_resbus_shift(smtlm_resbus *rb);
/* First bus free `latency` cycles ahead, reserved; -1 if none. */
int smtlm_resbus_reserve(smtlm_resbus *rb, unsigned latency);

#ifdef __cplusplus
}
#endif
#endif

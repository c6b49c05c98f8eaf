/* A pipelined SIMD function unit (GPGPU-Sim pipelined_simd_unit) as a ring buffer indexed by
 * absolute cycle: O(1) per cycle instead of an O(depth) shift. Semantics of cycle c (a "visit",
 * pipelined_simd_unit::cycle()):
 *   1. stage 0 (ring slot c-1) -> result port (EX_WB);
 *   2. all stages shift down by one (the ring base is the cycle number);
 *   3. the dispatch register counts down its initiation interval; when it reaches 0 the
 *      instruction enters stage latency - II, if that stage is empty;
 *   4. occupied >>= 1 (bit c-1 is dropped).
 * can_issue: dispatch register empty and !occupied[latency]; issue sets occupied[latency].
 * Net: held II cycles in the dispatch register, EX_WB at FU issue + latency + 1.
 *
 * Visits that change nothing are skipped: a unit only needs one in cycles written in the
 * calendar (an instruction leaves stage 0, an occupied bit is dropped, a blocked dispatch
 * register retries). The stage an instruction will enter is known when it is issued (only this
 * unit's own dispatch register ever writes the ring, and it holds this instruction until then),
 * so issue places it at once and only keeps the dispatch register closed until cycle `ready`;
 * the dispatch register holds it (slow path) only if that stage was taken. Busy cycles are
 * counted per busy interval instead of per cycle (smtlm_fu_busy_cycles). */
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
#define SMTLM_FU_WORDS ((SMTLM_MAX_FUS + 63) / 64)
#define SMTLM_FU_OCC (1u << 16)                     /* occupied bit of a cell */
#define SMTLM_FU_EMPTY ((uint32_t)SMTLM_NO_INST)     /* a cell with no instruction, bit clear */

/* Calendar of unit visits: bit i of at[c & SMTLM_RING_MASK] = unit i needs a visit in cycle c
 * (entries are at most SMTLM_MAX_LATENCY - 1 cycles ahead). */
typedef struct smtlm_fu_cal {
    uint64_t at[SMTLM_MAX_LATENCY][SMTLM_FU_WORDS];
} smtlm_fu_cal;

typedef struct smtlm_fu {
    uint8_t kind;          /* smtlm_fu_kind */
    uint8_t spec;          /* specialized unit number 1..8 (kind SPEC) */
    uint8_t issue_set;     /* OC_EX register set it reads */
    uint8_t issue_slot;    /* its slot in that set under the sub-core model */
    uint16_t depth;        /* pipeline depth (GPGPU-Sim max latency of the unit) */
    uint16_t accept;       /* bit op: the kind accepts that op (set by init) */
    uint16_t active;       /* instructions in the stages (placed by issue or by a late move) */
    smtlm_iref dispatch;   /* dispatch register, only while its start stage was taken (slow path) */
    uint16_t disp_stage;   /* that start stage (latency - II) */
    uint64_t ready;        /* cycle the dispatch register is free again / its move is first tried */
    uint64_t busy_from;    /* first busy cycle of the current busy interval */
    uint64_t t;            /* clock of the every-cycle wrappers (smtlm_fu_cycle etc.) */
    /* By absolute cycle: the stage's instruction (low 16 bits, SMTLM_NO_INST when empty) and
     * GPGPU-Sim's occupied bit (SMTLM_FU_OCC), one word so issue and visit touch one cell. */
    uint32_t cell[SMTLM_MAX_LATENCY];
    uint64_t busy_done;    /* busy cycles of the finished busy intervals */
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

static inline int smtlm_fu_busy(const smtlm_fu *fu)
{
    return fu->active || fu->dispatch != SMTLM_NO_INST;
}

/* Cycles (up to and including cycle `c`, the last one visited or skipped) at whose step 3 the
 * unit held an instruction (dispatch register or a stage): GPGPU-Sim's per-cycle busy count. */
static inline uint64_t smtlm_fu_busy_cycles(const smtlm_fu *fu, uint64_t c)
{
    return fu->busy_done + (smtlm_fu_busy(fu) ? (c + 1 - fu->busy_from) : 0);
}

static inline void smtlm_fu_cal_add(smtlm_fu_cal *cal, unsigned unit, uint64_t c)
{
    if (cal)
        cal->at[c & SMTLM_RING_MASK][unit / 64] |= 1ull << (unit % 64);
}

/* In cycle c (after its visit), occupied[latency]. */
static inline int smtlm_fu_occupied_at(const smtlm_fu *fu, uint64_t c, unsigned latency)
{
    return (int)(fu->cell[(c + latency) & SMTLM_RING_MASK] >> 16 & 1);
}

static inline int smtlm_fu_can_issue_at(const smtlm_fu *fu, uint64_t c, unsigned latency)
{
    return fu->dispatch == SMTLM_NO_INST && c >= fu->ready && !smtlm_fu_occupied_at(fu, c, latency);
}

/* Cycle c's visit (steps 1-4) of unit `unit`; returns the instruction leaving stage 0, or
 * SMTLM_NO_INST. A visit in a cycle the calendar does not list changes nothing. */
static inline smtlm_iref smtlm_fu_visit(smtlm_fu *fu, smtlm_fu_cal *cal, unsigned unit, uint64_t c)
{
    const unsigned s0 = (c - 1) & SMTLM_RING_MASK;
    const smtlm_iref out = (smtlm_iref)fu->cell[s0];
    fu->cell[s0] = SMTLM_FU_EMPTY; /* stage 0 leaves, and step 4 drops its occupied bit */
    if (out != SMTLM_NO_INST)
        fu->active--;
    if (fu->dispatch != SMTLM_NO_INST && c >= fu->ready) { /* slow path: retry (never cell s0) */
        const unsigned idx = (c + fu->disp_stage) & SMTLM_RING_MASK;
        if ((smtlm_iref)fu->cell[idx] == SMTLM_NO_INST) { /* Accel-Sim's GPGPU-Sim: only into an empty stage */
            fu->cell[idx] = (fu->cell[idx] & SMTLM_FU_OCC) | fu->dispatch;
            fu->dispatch = SMTLM_NO_INST;
            fu->active++;
            smtlm_fu_cal_add(cal, unit, c + fu->disp_stage + 1u);
        } else {
            smtlm_fu_cal_add(cal, unit, c + 1);
        }
    }
    if (out != SMTLM_NO_INST && !smtlm_fu_busy(fu)) /* a busy interval ends before cycle c */
        fu->busy_done += c - fu->busy_from;
    return out;
}

/* Accepts an instruction into the dispatch register in cycle c, after c's visit (caller checked
 * can_issue). Depth must exceed latency and II must not exceed latency (validated when the
 * instruction enters). Returns 1 when it was placed in its stage at once (the dispatch register
 * is then closed until `ready`), 0 when the dispatch register holds it. */
static inline int smtlm_fu_issue_at(smtlm_fu *fu, smtlm_fu_cal *cal, unsigned unit, smtlm_iref r,
                                     unsigned latency, unsigned ii, uint64_t c)
{
    if (!smtlm_fu_busy(fu))
        fu->busy_from = c + 1;
    fu->cell[(c + latency) & SMTLM_RING_MASK] |= SMTLM_FU_OCC;
    fu->issued++;
    smtlm_fu_cal_add(cal, unit, c + latency + 1); /* its bit drops (and, II > 0, it leaves) */
    const uint64_t move = c + (ii ? ii : 1u);     /* the countdown ends in this cycle's visit */
    const unsigned stage = latency - ii;
    const unsigned idx = (move + stage) & SMTLM_RING_MASK;
    fu->ready = move;
    if ((smtlm_iref)fu->cell[idx] == SMTLM_NO_INST) {
        fu->cell[idx] = (fu->cell[idx] & SMTLM_FU_OCC) | r;
        fu->active++;
        if (ii == 0)
            smtlm_fu_cal_add(cal, unit, move + stage + 1);
        return 1;
    }
    fu->dispatch = r;
    fu->disp_stage = (uint16_t)stage;
    smtlm_fu_cal_add(cal, unit, move);
    return 0;
}

/* Every-cycle wrappers on the unit's own clock `t` (one call of smtlm_fu_cycle per cycle, issue
 * after it), for driving a unit alone. */
static inline int smtlm_fu_occupied(const smtlm_fu *fu, unsigned latency)
{
    return smtlm_fu_occupied_at(fu, fu->t, latency);
}

static inline int smtlm_fu_can_issue(const smtlm_fu *fu, unsigned latency)
{
    return smtlm_fu_can_issue_at(fu, fu->t, latency);
}

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
static inline void smtlm_resbus_shift(smtlm_resbus *rb)
{
    rb->taken[rb->t & SMTLM_RING_MASK] = 0;
    rb->t++;
}
/* First bus free `latency` cycles ahead, reserved; -1 if none. */
static inline int smtlm_resbus_reserve(smtlm_resbus *rb, unsigned latency)
{
    /* Slot t + latency of the ring is the cycle `latency` ahead (t = shifts so far); the
     * lowest-numbered free bus is taken, as GPGPU-Sim scans its buses in order. */
    uint32_t *slot = &rb->taken[(rb->t + latency) & SMTLM_RING_MASK];
    const uint32_t free = ~*slot & rb->all;
    if (!free) {
        rb->stalls++;
        return -1;
    }
    const unsigned i = (unsigned)smtlm_ctz64(free);
    *slot |= 1u << i;
    return (int)i;
}

#ifdef __cplusplus
}
#endif
#endif

/* The memory behind an SM's LDST port in the C engine: a fixed latency plus a per-SM
 * bandwidth limit. Each cycle the port earns `bytes_per_cycle` bytes of credit (banked up to
 * one cycle's worth); a request is accepted while the credit is positive and costs its size,
 * so a 32-byte sector per cycle needs 32 B/cycle. A request accepted in cycle c is answered
 * from cycle c + latency on, in order, at most one response per cycle into the LDST's response
 * FIFO (as GPGPU-Sim's interconnect delivers); with latency 0 that reproduces GPGPU-Sim's
 * perfect memory for L1-bypassing accesses. Stores are answered with an acknowledgement. */
#ifndef SMTLM_MEM_MODEL_H
#define SMTLM_MEM_MODEL_H

#include "smtlm/ldst.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MEM_INFLIGHT_CAP 4096

/* Where an accepted request goes (bound with smtlm_mem_bind): `access` answers with the
 * request's latency in core cycles, or a negative code for an error response, or
 * SMTLM_MEM_LATER when the answer comes later (smtlm_mem_answer / smtlm_mem_fail, before the
 * port's next cycle that could deliver it; until then the request waits in order). Unbound, the
 * model answers every request after its fixed `latency`. The SystemC model binds a TLM-2.0
 * b_transport to the SoC's memory here; the port's bandwidth credit and in-order, one-per-cycle
 * delivery stay the same either way. */
typedef struct smtlm_mem_ops {
    void *ctx;
    int (*access)(void *ctx, const smtlm_mem_req *req, uint64_t now, uint64_t *latency);
} smtlm_mem_ops;

typedef struct smtlm_mem_model {
    unsigned latency;
    unsigned bytes_per_cycle;
    int64_t credit;
    smtlm_mem_req q[SMTLM_MEM_INFLIGHT_CAP];
    uint64_t ready[SMTLM_MEM_INFLIGHT_CAP];
    unsigned head, len;
    uint64_t accepted, bytes, latency_sum;
    uint64_t last_event;        /* last cycle a request was accepted or a response delivered */
    smtlm_mem_ops ops;
    int error;                  /* SMTLM_EMEMORY after an error response ... */
    smtlm_mem_req error_req;    /* ... to this request */
} smtlm_mem_model;

#define SMTLM_MEM_LATER 1
#define SMTLM_MEM_UNANSWERED UINT64_MAX /* ready cycle of a request answered later */

int smtlm_mem_init(smtlm_mem_model *m, unsigned latency, unsigned bytes_per_cycle);
void smtlm_mem_bind(smtlm_mem_model *m, const smtlm_mem_ops *ops);
void smtlm_mem_reset(smtlm_mem_model *m);
/* One cycle: takes new requests from the LDST within the bandwidth credit, then delivers at
 * most one due response into its FIFO (when the FIFO has room). */
void smtlm_mem_cycle(smtlm_mem_model *m, smtlm_ldst *u, uint64_t now);
static inline int smtlm_mem_busy(const smtlm_mem_model *m) { return m->len != 0; }
/* The in-flight slot of request `req` (a pointer `access` was given). */
static inline unsigned smtlm_mem_slot(const smtlm_mem_model *m, const smtlm_mem_req *req) { return (unsigned)(req - m->q); }
/* A request answered later: its response is due from cycle `ready` on ... */
static inline void smtlm_mem_answer(smtlm_mem_model *m, unsigned slot, uint64_t ready) { m->ready[slot] = ready; }
/* ... or it was an error response: the port accepts nothing more and the run ends. */
static inline void smtlm_mem_fail(smtlm_mem_model *m, unsigned slot)
{
    m->error = SMTLM_EMEMORY;
    m->error_req = m->q[slot];
}
/* The oldest request in flight, or NULL. */
static inline const smtlm_mem_req *smtlm_mem_oldest(const smtlm_mem_model *m) { return m->len ? &m->q[m->head] : 0; }
/* Cycle of the next response, UINT64_MAX if none in flight. */
static inline uint64_t smtlm_mem_next_ready(const smtlm_mem_model *m)
{
    return m->len ? m->ready[m->head] : UINT64_MAX;
}

#ifdef __cplusplus
}
#endif
#endif

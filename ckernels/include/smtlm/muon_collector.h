/* Muon operand collector (muon mode): collector entries that gather the source operands of one
 * instruction each, from a banked physical register file (PRF bank = reg mod N) or from the
 * writeback path (forwarding), under five selectable strategies:
 *
 *   duplicated   one PRF copy per source slot: no read ever conflicts (what the Muon RTL builds)
 *   src_banked   collector banked by source slot (slot mod collector_banks): one operand written
 *                per collector bank per cycle, one read per PRF bank per cycle
 *   inst_banked  collector banked by FU: an instruction's operands are written one per cycle
 *                into its FU's bank; one read per PRF bank per cycle
 *   min_banked   a single entry of flip-flops: only PRF bank conflicts
 *   caching      src_banked whose fields keep their values for later instructions (operand
 *                reuse), invalidated when the register is written
 *
 * The contract follows Muon's readReq / readResp: a request made in cycle t is answered
 * (readResp) in cycle r >= t + 1, and its data is on readData from r + 1, so without conflicts a
 * request in t reaches the execute input in t + 2. Each cycle the caller makes its calls in
 * this order (the cycle number `now` is passed to each and checked):
 *
 *   1. smtlm_muon_coll_writeback   the cycle's writebacks (forwarding, cache invalidation)
 *   2. smtlm_muon_coll_deliver     bank egress of the cycle: forwards (priority over PRF data),
 *                                  reads granted last cycle; returns the cycle's readResp
 *   3. smtlm_muon_coll_release     readData: an issued instruction reads and frees its entry
 *   4. smtlm_muon_coll_request     readReq: an instruction's operands; an entry is allocated
 *   5. smtlm_muon_coll_arbitrate   PRF bank and collector-port arbitration of the cycle
 *
 * deliver and arbitrate must run in every cycle that follows one in which smtlm_muon_coll_busy
 * was 1, and deliver in every cycle with writebacks; other cycles may be skipped. Fixed arrays, no allocation, no I/O; semantics in full: docs/MUON.md. */
#ifndef SMTLM_MUON_COLLECTOR_H
#define SMTLM_MUON_COLLECTOR_H

#include "smtlm/common.h"
#include "smtlm/inst.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MUON_COLL_MAX_ENTRIES 64   /* entry masks are uint64_t */
#define SMTLM_MUON_COLL_MAX_FU_BANKS 8   /* inst_banked collector banks */
#define SMTLM_MUON_COLL_MAX_WB 8         /* writebacks posted for one cycle */
#define SMTLM_MUON_COLL_MAX_REG 65535    /* register numbers (Muon physical registers: 16 bits) */

/* -smtlm_muon_collector (same order as the option's values) */
typedef enum smtlm_muon_coll_kind {
    SMTLM_MUON_COLL_DUPLICATED = 0,
    SMTLM_MUON_COLL_SRC_BANKED,
    SMTLM_MUON_COLL_INST_BANKED,
    SMTLM_MUON_COLL_MIN_BANKED,
    SMTLM_MUON_COLL_CACHING
} smtlm_muon_coll_kind;

typedef struct smtlm_muon_coll_cfg {
    unsigned n_warps;
    smtlm_muon_coll_kind kind;   /* -smtlm_muon_collector */
    unsigned prf_banks;          /* -smtlm_muon_prf_banks: N, 1..SMTLM_MAX_BANKS */
    unsigned entries;            /* -smtlm_muon_collector_entries: C, 1..64 (min_banked: 1) */
    unsigned collector_banks;    /* src_banked, caching: banks by source slot, 1..SMTLM_MAX_SRC;
                                  * inst_banked: FU banks of C / banks entries each,
                                  * 1..SMTLM_MUON_COLL_MAX_FU_BANKS; ignored otherwise */
    int forwarding;              /* -smtlm_muon_forwarding: writebacks fill waiting operands */
    int zero_reg;                /* hardwired-zero register, never read (0: only register 0) */
} smtlm_muon_coll_cfg;

/* One readReq: the operands of one instruction. */
typedef struct smtlm_muon_coll_req {
    uint16_t tag;                /* the caller's id (RS row or instruction-pool index) */
    uint16_t warp;
    uint8_t fu;                  /* inst_banked: the FU bank (0..collector_banks-1); else ignored */
    uint8_t slots;               /* slot bits to collect (slot i = source operand i) */
    uint8_t wait;                /* of those, slots whose value comes with a pending writeback */
    int32_t reg[SMTLM_MAX_SRC];  /* register per slot; 0 or zero_reg: nothing to read */
} smtlm_muon_coll_req;

/* One readResp: every requested operand of an entry is collected; readData from the next cycle. */
typedef struct smtlm_muon_coll_resp {
    uint8_t entry;
    uint8_t slots;               /* the requested slots */
    uint8_t forwarded;           /* slots filled from a writeback */
    uint8_t dropped;             /* slots whose forward was dropped and that read the PRF instead */
    uint16_t tag;
    uint16_t warp;
    uint64_t req_cycle;
} smtlm_muon_coll_resp;

typedef struct smtlm_muon_coll_entry {
    uint64_t seq;                /* request order: the arbitration's age */
    uint64_t req_cycle, resp_cycle;
    uint16_t tag, warp;
    uint8_t fu;
    uint8_t slots;               /* requested */
    uint8_t wait;                /* waiting for a writeback */
    uint8_t woke;                /* written back without a forward: a PRF read from the next cycle */
    uint8_t pending;             /* a read to arbitrate */
    uint8_t flight;              /* read granted last cycle: data at this cycle's bank egress */
    uint8_t flight_copy;         /* of those, copies between caching fields (no PRF bank) */
    uint8_t have;                /* value in the entry */
    uint8_t forwarded, dropped;
    uint8_t responded;
    int32_t reg[SMTLM_MAX_SRC];
    /* What each operand field physically holds, and whether a later instruction may reuse it
     * (caching; kept after the entry is released, cleared by a write of the register). */
    uint16_t field_warp[SMTLM_MAX_SRC];
    int32_t field_reg[SMTLM_MAX_SRC];
    uint8_t field_ok;
} smtlm_muon_coll_entry;

/* Cumulative statistics. */
typedef struct smtlm_muon_coll_stats {
    uint64_t requests, responses;
    uint64_t prf_reads;                      /* reads granted on a PRF bank */
    uint64_t bank_reads[SMTLM_MAX_BANKS];
    uint64_t conflict_waits;                 /* read-cycles a pending read lost arbitration */
    uint64_t conflict_cycles;                /* arbitrated cycles in which a read lost */
    uint64_t cycles, occupancy_sum;          /* arbitrated cycles; sum of allocated entries over them */
    uint64_t lost_to_forward;                /* granted reads whose bank egress a forward took */
    uint64_t forwards;                       /* operands filled from a writeback */
    uint64_t forward_drops;                  /* forwards whose collector port was taken */
    uint64_t cache_hits_in_place;            /* caching: the allocated entry already held it */
    uint64_t cache_hits_copy;                /* caching: copied from another field of its bank */
    uint64_t invalidations;                  /* caching: fields invalidated by a writeback */
    uint64_t zero_reads;                     /* operands with nothing to read */
} smtlm_muon_coll_stats;

typedef struct smtlm_muon_coll {
    smtlm_muon_coll_cfg cfg;
    smtlm_muon_coll_entry entry[SMTLM_MUON_COLL_MAX_ENTRIES];
    uint64_t valid;                          /* allocated entries */
    uint8_t order[SMTLM_MUON_COLL_MAX_ENTRIES]; /* allocated entries, oldest request first */
    unsigned n_valid;
    unsigned per_fu;                         /* inst_banked: entries per FU bank */
    uint64_t next_seq;
    struct {
        uint16_t warp;
        int32_t reg;
    } wb[SMTLM_MUON_COLL_MAX_WB];            /* writebacks posted for the next deliver */
    unsigned n_wb;
    uint64_t wb_cycle;
    /* call-order bookkeeping: last cycle + 1 of each call (0: never) */
    uint64_t delivered, arbitrated;
    smtlm_muon_coll_stats st;
    const char *cfg_error;                   /* why init rejected the configuration */
} smtlm_muon_coll;

/* Validates cfg (SMTLM_EINVAL / SMTLM_ERANGE, cfg_error names the -smtlm_muon_* option) and
 * clears the state. */
int smtlm_muon_coll_init(smtlm_muon_coll *c, const smtlm_muon_coll_cfg *cfg);
void smtlm_muon_coll_reset(smtlm_muon_coll *c);

/* A writeback of (warp, reg) in cycle `now`, before deliver(now). Waiting operands of that
 * register get the value at deliver(now) (with forwarding) or read the PRF from now + 1;
 * caching fields holding it are invalidated. SMTLM_EFULL beyond SMTLM_MUON_COLL_MAX_WB per cycle,
 * SMTLM_EINPUT for a bad warp or register or a cycle already delivered. */
int smtlm_muon_coll_writeback(smtlm_muon_coll *c, uint64_t now, unsigned warp, int reg);

/* The bank egress of cycle `now`: forwards first, then the reads granted in now - 1 (those
 * whose PRF bank egress or collector port a forward took are re-scheduled). Writes the entries
 * whose readResp is asserted in `now` into out (room for SMTLM_MUON_COLL_MAX_ENTRIES) and
 * returns their count, or SMTLM_EINPUT when the call order was broken. */
int smtlm_muon_coll_deliver(smtlm_muon_coll *c, uint64_t now, smtlm_muon_coll_resp *out);

/* readReq.ready: a free entry (for inst_banked, in FU bank `fu`). */
int smtlm_muon_coll_can_accept(const smtlm_muon_coll *c, unsigned fu);

/* readReq in cycle `now` (after deliver(now), before arbitrate(now)): allocates an entry and
 * returns its index, or SMTLM_EFULL, or SMTLM_EINPUT (bad warp, FU, slot mask or register, or
 * the call order). */
int smtlm_muon_coll_request(smtlm_muon_coll *c, uint64_t now, const smtlm_muon_coll_req *req);

/* Arbitration of cycle `now`: the pending reads, oldest request first and slot order within
 * one, are granted while their PRF bank (one read per bank per cycle, except duplicated) and
 * their collector port are free; the rest wait for a later cycle. Granted data reaches the bank
 * egress in now + 1. SMTLM_OK or SMTLM_EINPUT (call order). */
int smtlm_muon_coll_arbitrate(smtlm_muon_coll *c, uint64_t now);

/* readData in cycle `now`: the entry's instruction takes its operands and the entry is freed
 * (a request later in the same cycle may reuse it). SMTLM_EINPUT unless the entry answered
 * readResp in a cycle before `now`. */
int smtlm_muon_coll_release(smtlm_muon_coll *c, uint64_t now, unsigned entry);

/* 1 while an entry has a read to arbitrate or in flight, or is collected and not yet answered:
 * deliver and arbitrate must then run next cycle. An entry whose missing operands all wait for
 * writebacks does not count (deliver runs in the writeback's cycle). */
int smtlm_muon_coll_busy(const smtlm_muon_coll *c);

const char *smtlm_muon_coll_kind_name(smtlm_muon_coll_kind k);

#ifdef __cplusplus
}
#endif
#endif

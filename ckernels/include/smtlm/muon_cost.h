/* Muon storage cost model: the bits of the scoreboard, the reservation station's metadata and
 * data tables, the PRF, the collector entries, and the width of the PRF-to-collector crossbar,
 * derived field by field as the Muon issue-logic design sizes them:
 *
 *   scoreboard   PREG x (1 pendingWrite + P pendingReads)          256 x (1 + 2) = 768
 *     + epochs   PREG x (P pendingReads of the second epoch + 1 epoch bit)   (option2_epoch)
 *     + fences   PREG x 1 Fence bit                                (past-WAW admission)
 *   RS metadata  1 valid + 3 x (preg# + 1 valid + 1 busy)          1 + 3 x (8+1+1) = 31
 *     + seq      log2(entries) + 1 per-warp sequence bits          (in-order per warp)
 *   RS data      warp# + 32 PC + 7 opcode + NT tmask + 3 x NT x XLEN
 *                                                   3 + 32 + 7 + 16 + 3 x 16 x 32 = 1594
 *                (the operand data only when the RS receives forwarded results; without
 *                forwarding the data lives in the collector alone, as in the Muon RTL)
 *   PRF          PREG x NT x XLEN, times 3 for the duplicated collector (one copy per
 *                source-operand slot)
 *   collector    C entries x 3 operands x NT x XLEN (+ a preg# tag and a valid bit per
 *                operand for caching collectors)
 *   crossbar     B x C x NT x XLEN (B PRF banks to C collector entries)
 *
 * preg# = ceil(log2(PREG)), warp# = ceil(log2(warps)). A pure function: no state, no I/O. */
#ifndef SMTLM_MUON_COST_H
#define SMTLM_MUON_COST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMTLM_MUON_COST_PC_BITS 32u     /* RS data field: program counter */
#define SMTLM_MUON_COST_OPCODE_BITS 7u  /* RS data field: RISC-V major opcode */
#define SMTLM_MUON_COST_OPERANDS 3u     /* rs1, rs2, rs3 */
#define SMTLM_MUON_COST_MAX 16384u      /* bound on every count below (B x C x NT x XLEN < 2^57) */

typedef struct smtlm_muon_cost_cfg {
    unsigned phys_regs;          /* PREG: physical registers */
    unsigned pending_read_bits;  /* P: width of one pendingReads counter (1..16) */
    int epochs;                  /* WAR option 2-2: two pendingReads counters and an epoch bit */
    int fences;                  /* past-WAW admission: a Fence bit per register */
    unsigned rs_entries;         /* RS entries */
    unsigned warps;              /* warp slots (width of the RS warp field) */
    int in_order;                /* per-warp in-order issue: a sequence number per RS entry */
    int rs_data;                 /* 1: the RS data table holds the operand data (forwarding) */
    unsigned threads;            /* NT: threads (lanes) per warp: tmask bits, words per operand */
    unsigned xlen;               /* XLEN: bits per lane */
    unsigned prf_banks;          /* B */
    unsigned prf_copies;         /* 3 for the duplicated collector, else 1 */
    unsigned collector_entries;  /* C */
    int collector_tags;          /* caching collector: preg# tag + valid bit per operand */
} smtlm_muon_cost_cfg;

typedef struct smtlm_muon_cost {
    unsigned preg_bits, warp_bits, seq_bits;
    uint64_t scoreboard_bits;       /* PREG x (1 + P) */
    uint64_t scoreboard_epoch_bits; /* PREG x (P + 1) with epochs, else 0 */
    uint64_t scoreboard_fence_bits; /* PREG with fences, else 0 */
    uint64_t scoreboard_total_bits;
    uint64_t rs_meta_entry_bits;    /* per RS entry */
    uint64_t rs_data_entry_bits;
    uint64_t rs_operand_data_bits;  /* the part of rs_data_entry_bits that is operand data */
    uint64_t rs_entry_bits;         /* metadata + data */
    uint64_t rs_meta_table_bits;    /* entries x metadata */
    uint64_t rs_data_table_bits;    /* entries x data */
    uint64_t prf_bits;              /* PREG x NT x XLEN x copies */
    uint64_t collector_data_bits;   /* C x 3 x NT x XLEN */
    uint64_t collector_tag_bits;    /* C x 3 x (preg# + 1) for caching, else 0 */
    uint64_t collector_bits;        /* data + tags */
    uint64_t crossbar_bits;         /* B x C x NT x XLEN */
} smtlm_muon_cost;

/* Fills *out from *cfg. SMTLM_EINVAL (with *why naming the field, when why is not NULL) for a
 * NULL argument, a zero count, a pendingReads width outside 1..16, or prf_copies outside 1..3;
 * SMTLM_ERANGE for a count above SMTLM_MUON_COST_MAX. */
int smtlm_muon_cost_compute(const smtlm_muon_cost_cfg *cfg, smtlm_muon_cost *out, const char **why);

/* ceil(log2(n)) for n >= 1 (0 for n = 1): the bits that number n things. */
unsigned smtlm_muon_index_bits(unsigned n);

#ifdef __cplusplus
}
#endif
#endif

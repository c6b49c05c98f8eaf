/* The Muon SM of the C engine (-smtlm_mode muon): what the Muon composition adds to an
 * smtlm_sm. The front end (fetch, decode, instruction buffers), the execute units, result buses
 * and the LDST are the SM's own; issue (schedulers + scoreboard) and the operand collector are
 * replaced by the Muon issue block (scoreboard + reservation station, muon_issue.h) and the
 * Muon operand collector (muon_collector.h). Cycle order and timing: docs/MUON.md. */
#ifndef SMTLM_SM_MUON_H
#define SMTLM_SM_MUON_H

#include "smtlm/muon_collector.h"
#include "smtlm/muon_issue.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smtlm_sm_muon {
    smtlm_muon_issue iss;
    smtlm_muon_coll coll;
    smtlm_muon_issue_in results;   /* the Muon writeback's port: each EX_WB result to the issue block */
    smtlm_muon_issue_in read_resp; /* the collector's port: its readResp of the cycle to the issue block */
    smtlm_muon_coll_resp resp[SMTLM_MUON_COLL_MAX_ENTRIES]; /* the cycle's readResp */
} smtlm_sm_muon;

#ifdef __cplusplus
}
#endif
#endif

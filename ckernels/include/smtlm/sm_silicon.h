/* The silicon SM of the C engine (-smtlm_core silicon): what the silicon composition adds to an
 * smtlm_sm. The front end (fetch, decode, instruction buffers, CTAs and warps) and the LDST for
 * memory beyond shared memory are the SM's own; issue, register reads, pipes and shared memory
 * are the silicon core (silicon.h). Cycle order: docs/SILICON.md. */
#ifndef SMTLM_SM_SILICON_H
#define SMTLM_SM_SILICON_H

#include "smtlm/silicon.h"

#endif

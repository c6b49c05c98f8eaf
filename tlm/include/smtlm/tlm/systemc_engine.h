// The SystemC/TLM model as an smsim engine (-smtlm_engine systemc): a Gpu module elaborated
// once, each kernel run by sc_start() until the Gpu's thread goes back to sleep.
#ifndef SMTLM_TLM_SYSTEMC_ENGINE_H
#define SMTLM_TLM_SYSTEMC_ENGINE_H

extern "C" {
#include "smtlm/engine.h"
}

extern "C" const smtlm_engine *smtlm_systemc_engine(void);

#endif

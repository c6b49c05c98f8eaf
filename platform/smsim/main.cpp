// smsim as an sc_main: the SystemC/TLM model is the default engine, the C engine is
// -smtlm_engine c. Both give identical cycles, statistics and output.
#include <cstdio>
#include <cstdlib>

#include <systemc>

#include "smtlm/tlm/systemc_engine.h"

extern "C" {
#include "smtlm/smsim.h"
}

int sc_main(int argc, char *argv[])
{
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    return smtlm_smsim_engines(argc, (const char *const *)argv, stdout, stderr, engines, 2);
}

// Our own main, so that SystemC's start-up banner does not land in every run's output
// (SC_COPYRIGHT_MESSAGE set by the user still decides).
int main(int argc, char *argv[])
{
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}

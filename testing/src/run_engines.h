// run() with the engines offered to smsim given: run() offers the C and the SystemC engine;
// the kit's own tests offer engines of their own (one that crashes) to show what a run whose
// process dies gives. Not installed: no user's run needs it.
#ifndef SMTLM_TESTING_RUN_ENGINES_H
#define SMTLM_TESTING_RUN_ENGINES_H

#include "smtlm/testing/run.h"

extern "C" {
#include "smtlm/engine.h"
}

namespace smtlm {
namespace testing {

// spec's -smtlm_engine picks among engines by name, as smsim does.
Result run_with_engines(const Sim &spec, const smtlm_engine *const *engines, unsigned n_engines);

} // namespace testing
} // namespace smtlm

#endif

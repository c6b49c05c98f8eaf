// smtlm::testing: a GoogleTest kit to pin a user's own traces and configs, in either engine.
// One include for all of it; docs/REGRESSION.md shows a whole test.
//   run.h          Sim (trace, configs, options, engine), Result (stats, events), run()
//   matchers.h     Cycles, Instructions, HasStat, SameStatsAs, SameEventsAs, Failed, ...
//   golden.h       EXPECT_MATCHES_GOLDEN, --smtlm_update_goldens
//   engine_test.h  EngineTest (one TEST_P, both engines), project_config()
#ifndef SMTLM_TESTING_REGRESSION_H
#define SMTLM_TESTING_REGRESSION_H

#include "smtlm/testing/engine_test.h"
#include "smtlm/testing/golden.h"
#include "smtlm/testing/matchers.h"
#include "smtlm/testing/run.h"

#endif

// The example's workloads: an Accel-Sim trace on one of the package's configs.
#pragma once

#include <string>

#include <smtlm/testing/regression.h>

inline smtlm::testing::Sim trace_on(const std::string &trace, const std::string &config)
{
    return smtlm::testing::Sim::Trace(std::string(EXAMPLE_TRACES) + "/" + trace + "/kernelslist.g")
        .config(smtlm::testing::project_config(config));
}

// A test fixture over the two engines: each TEST_P runs once on the C engine and once on the
// SystemC engine, with the same expectations.
//   class Pinned : public smtlm::testing::EngineTest {};
//   TEST_P(Pinned, Lud) { EXPECT_THAT(run(Sim::Trace(lud)), Cycles(8952)); }
//   SMTLM_INSTANTIATE_ENGINES(Pinned);          // Engines/Pinned.Lud/c, Engines/Pinned.Lud/systemc
#ifndef SMTLM_TESTING_ENGINE_TEST_H
#define SMTLM_TESTING_ENGINE_TEST_H

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "smtlm/testing/run.h"

namespace smtlm {
namespace testing {

class EngineTest : public ::testing::TestWithParam<Engine> {
protected:
    Engine engine() const { return GetParam(); }
    // r on this test's engine
    Result run(const Sim &r) const { return ::smtlm::testing::run(r.on(GetParam())); }
};

struct EngineName {
    std::string operator()(const ::testing::TestParamInfo<Engine> &i) const { return engine_name(i.param); }
};

// A configuration file of the installed package by name ("qv100" or "qv100.config"): from
// SMTLM_CONFIGS_DIR in the environment, else the SMTLM_CONFIGS_DIR macro that
// smtlm_add_regression defines (the package's share/smtlm/configs).
inline std::string project_config(std::string name)
{
    if (name.find('.') == std::string::npos)
        name += ".config";
    const char *env = std::getenv("SMTLM_CONFIGS_DIR");
#ifdef SMTLM_CONFIGS_DIR
    const std::string dir = env && *env ? env : SMTLM_CONFIGS_DIR;
#else
    const std::string dir = env ? env : "";
#endif
    return dir.empty() ? name : dir + "/" + name;
}

} // namespace testing
} // namespace smtlm

#define SMTLM_INSTANTIATE_ENGINES(suite)                                                                         \
    INSTANTIATE_TEST_SUITE_P(Engines, suite,                                                                     \
                             ::testing::Values(::smtlm::testing::Engine::C, ::smtlm::testing::Engine::SystemC),   \
                             ::smtlm::testing::EngineName())

#endif

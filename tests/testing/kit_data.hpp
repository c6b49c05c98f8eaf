// The real traces and stock configs the kit's own tests run (tests/data).
#pragma once

#include <string>

#include "smtlm/testing/regression.h"

namespace kit {

inline std::string trace(const std::string &dir) { return std::string(SMTLM_TEST_DATA) + "/traces/" + dir + "/kernelslist.g"; }

// lud on Accel-Sim's own QV100 config pair (docs/VALIDATION.md: 8952 cycles, 1027 warp /
// 16080 thread instructions)
inline smtlm::testing::Sim lud_qv100()
{
    const std::string cfg = std::string(SMTLM_TEST_DATA) + "/configs/SM7_QV100/";
    return smtlm::testing::Sim::Trace(trace("lud")).config(cfg + "gpgpusim.config").config(cfg + "trace.config");
}

// The explanation a matcher gives for r (and whether it matched).
inline std::string explain(const smtlm::testing::ResultMatcher &m, const smtlm::testing::Result &r, bool *matched = nullptr)
{
    ::testing::StringMatchResultListener l;
    const bool ok = m.MatchAndExplain(r, &l);
    if (matched)
        *matched = ok;
    return l.str();
}

// Sets an environment variable for one scope and puts the old value back.
class ScopedEnv {
public:
    ScopedEnv(const char *name, const char *value) : name_(name)
    {
        const char *old = std::getenv(name);
        had_ = old != nullptr;
        if (old)
            old_ = old;
        if (value)
            setenv(name, value, 1);
        else
            unsetenv(name);
    }
    ~ScopedEnv()
    {
        if (had_)
            setenv(name_, old_.c_str(), 1);
        else
            unsetenv(name_);
    }

private:
    const char *name_;
    bool had_;
    std::string old_;
};

} // namespace kit

// What the engine-equivalence tests share: a named input (an smsim command line) and the
// helpers that read smsim's outputs for comparison.
#ifndef SMTLM_TESTS_SMSIM_OUTPUTS_HPP
#define SMTLM_TESTS_SMSIM_OUTPUTS_HPP

#include <fstream>
#include <ostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace equiv {

struct Input {
    const char *name;
    std::vector<std::string> args;
};
inline void PrintTo(const Input &i, std::ostream *os) { *os << i.name; }

// stdout without the lines that depend on the host's wall clock.
inline std::string without_wall_clock(const std::string &s)
{
    static const std::regex wall("(^|\\n)(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_silicon_slowdown|smtlm_simulation_time|"
                                 "smtlm_sim_rate)[^\\n]*");
    return std::regex_replace(s, wall, "$1");
}

inline std::string slurp(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// The stats JSON without its one wall-clock field.
inline std::string read_json(const std::string &path)
{
    return std::regex_replace(slurp(path), std::regex("\"wall_seconds\":[0-9.e+-]+"), "\"wall_seconds\":0");
}

} // namespace equiv

#endif

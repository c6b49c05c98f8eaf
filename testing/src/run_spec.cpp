// Sim: smsim's command line built up by value.
#include "smtlm/testing/run.h"

#include <cstdlib>
#include <sstream>

namespace smtlm {
namespace testing {

const char *engine_name(Engine e) { return e == Engine::SystemC ? "systemc" : "c"; }
void PrintTo(Engine e, std::ostream *os) { *os << engine_name(e); }

Sim Sim::Trace(std::string path)
{
    Sim r;
    r.trace_ = std::move(path);
    return r;
}

Sim Sim::Synthetic(const std::vector<std::pair<std::string, std::string>> &settings)
{
    Sim r;
    for (const auto &s : settings)
        r = r.option("smtlm_synth_" + s.first, s.second);
    return r;
}

Sim Sim::config(std::string path) const
{
    Sim r = *this;
    r.configs_.push_back(std::move(path));
    return r;
}

Sim Sim::option(std::string name, std::string value) const
{
    Sim r = *this;
    if (!name.empty() && name[0] == '-')
        name.erase(0, 1);
    r.options_.emplace_back(std::move(name), std::move(value));
    return r;
}

Sim Sim::option(std::string name, long long value) const { return option(std::move(name), std::to_string(value)); }

Sim Sim::on(Engine e) const
{
    Sim r = *this;
    r.engine_ = e;
    return r;
}

Sim Sim::with_events(bool on) const
{
    Sim r = *this;
    r.events_ = on;
    return r;
}

// SMTLM_EXTRA_OPTIONS="-name value ...": what-if options added to every run of a test binary.
static std::vector<std::string> extra_options()
{
    std::vector<std::string> v;
    const char *env = std::getenv("SMTLM_EXTRA_OPTIONS");
    std::istringstream in(env ? env : "");
    for (std::string w; in >> w;)
        v.push_back(w);
    return v;
}

std::vector<std::string> Sim::args() const
{
    std::vector<std::string> a;
    if (!trace_.empty())
        a.insert(a.end(), {"-trace", trace_});
    for (const std::string &c : configs_)
        a.insert(a.end(), {"-config", c});
    for (const auto &o : options_)
        a.insert(a.end(), {"-" + o.first, o.second});
    for (const std::string &w : extra_options())
        a.push_back(w);
    return a;
}

static std::string base_name(const std::string &p)
{
    const size_t slash = p.find_last_of('/');
    return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The trace named by its directory (kernelslist.g says little), configs by file name.
std::string Sim::describe() const
{
    std::ostringstream s;
    if (trace_.empty()) {
        s << "synthetic workload";
    } else {
        const size_t slash = trace_.find_last_of('/');
        const std::string file = base_name(trace_);
        const std::string dir = slash == std::string::npos ? "" : base_name(trace_.substr(0, slash));
        s << "trace " << (file == "kernelslist.g" && !dir.empty() ? dir : file);
    }
    for (const std::string &c : configs_)
        s << ", config " << base_name(c);
    for (const auto &o : options_)
        s << ", -" << o.first << ' ' << o.second;
    const std::vector<std::string> extra = extra_options();
    if (!extra.empty()) {
        s << ", SMTLM_EXTRA_OPTIONS:";
        for (const std::string &w : extra)
            s << ' ' << w;
    }
    s << ", engine " << engine_name(engine_);
    return s.str();
}

} // namespace testing
} // namespace smtlm

// Result: the statistics by path, the event log, and what the run printed.
#include <sstream>
#include <stdexcept>

#include "result_data.h"

namespace smtlm {
namespace testing {

bool Event::operator==(const Event &o) const
{
    return kernel == o.kernel && sm == o.sm && warp == o.warp && pc == o.pc && uid == o.uid && issue == o.issue &&
           cu_alloc == o.cu_alloc && operands == o.operands && oc_ex == o.oc_ex && fu_issue == o.fu_issue &&
           writeback == o.writeback;
}

// A cycle as the log writes it: '-' for an event the core does not have.
static std::string cycle_text(uint64_t c) { return c == UINT64_MAX ? "-" : std::to_string(c); }

std::ostream &operator<<(std::ostream &os, const Event &e)
{
    char pc[16];
    std::snprintf(pc, sizeof pc, "0x%04x", (unsigned)e.pc);
    return os << e.kernel << ' ' << e.sm << ' ' << e.warp << ' ' << pc << ' ' << e.uid << ' ' << cycle_text(e.issue) << ' '
              << cycle_text(e.cu_alloc) << ' ' << cycle_text(e.operands) << ' ' << cycle_text(e.oc_ex) << ' '
              << cycle_text(e.fu_issue) << ' ' << cycle_text(e.writeback);
}

void PrintTo(const Result &r, std::ostream *os)
{
    *os << "the run of " << r.spec().describe() << " (exit status " << r.exit_status();
    if (!r.ok())
        *os << ", did not complete: " << r.error();
    *os << ")";
}

std::string incomplete(const Result &r)
{
    if (r.ok())
        return "";
    std::ostringstream s;
    s << "the run did not complete (exit status " << r.exit_status() << "): " << r.error();
    return s.str();
}

int Result::exit_status() const { return d_->status; }
int Result::term_signal() const { return d_->signal; }
bool Result::ok() const { return d_->complete; }
const std::string &Result::error() const { return d_->error; }
const std::string &Result::out() const { return d_->out; }
const std::string &Result::err() const { return d_->err; }
const Sim &Result::spec() const { return d_->spec; }
const std::vector<Stat> &Result::stats() const { return d_->stats; }
const std::vector<Event> &Result::events() const { return d_->events; }
const std::string &Result::stats_path() const { return d_->stats_path; }

const Stat *Result::find(const std::string &path) const
{
    const auto it = d_->index.find(path);
    return it == d_->index.end() ? nullptr : &d_->stats[it->second];
}

static std::string last_part(const std::string &path)
{
    const size_t dot = path.find_last_of('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string Result::similar(const std::string &path) const
{
    const std::string want = last_part(path);
    std::string s;
    unsigned n = 0;
    for (const Stat &st : d_->stats) {
        if (last_part(st.path) != want)
            continue;
        if (++n <= 4)
            s += (s.empty() ? "" : ", ") + st.path;
    }
    if (n > 4)
        s += ", ... (" + std::to_string(n) + " in all)";
    return s;
}

std::string Result::why_missing(const std::string &path) const
{
    if (!ok())
        return incomplete(*this);
    std::string s = "no stat named \"" + path + "\"";
    const std::string hint = similar(path);
    return hint.empty() ? s : s + " (did you mean " + hint + "?)";
}

double Result::stat(const std::string &path) const
{
    const Stat *s = ok() ? find(path) : nullptr;
    if (!s)
        throw std::out_of_range(why_missing(path));
    if (!s->is_number)
        throw std::out_of_range("stat \"" + path + "\" is not a number: " + s->text);
    return s->number;
}

std::string Result::stat_text(const std::string &path) const
{
    const Stat *s = ok() ? find(path) : nullptr;
    if (!s)
        throw std::out_of_range(why_missing(path));
    return s->text;
}

uint64_t Result::cycles() const { return (uint64_t)stat("gpu_tot_sim_cycle"); }
uint64_t Result::instructions() const { return (uint64_t)stat("gpu_tot_sim_insn"); }

uint64_t Result::warp_instructions() const
{
    if (!ok())
        throw std::out_of_range(why_missing("gpu_sim_warp_insn"));
    uint64_t n = 0;
    for (unsigned k = 0;; k++) {
        const Stat *s = find("kernels[" + std::to_string(k) + "].gpu_sim_warp_insn");
        if (!s)
            return n;
        n += (uint64_t)s->number;
    }
}

} // namespace testing
} // namespace smtlm

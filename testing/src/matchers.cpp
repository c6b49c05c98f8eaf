// The matchers of matchers.h: each reads what it needs from the Result and explains a mismatch.
#include "smtlm/testing/matchers.h"

#include <cstdlib>
#include <sstream>

#include "stats_diff.h"

namespace smtlm {
namespace testing {

using ::testing::MatchResultListener;

namespace {

class StatusMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    explicit StatusMatcher(::testing::Matcher<int> m) : m_(std::move(m)) {}
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        *l << "exit status " << r.exit_status();
        if (!m_.Matches(r.exit_status()) && !r.err().empty())
            *l << ", stderr:\n" << r.err();
        return m_.Matches(r.exit_status());
    }
    void DescribeTo(std::ostream *os) const override
    {
        *os << "has an exit status that ";
        m_.DescribeTo(os);
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "has an exit status that ";
        m_.DescribeNegationTo(os);
    }

private:
    ::testing::Matcher<int> m_;
};

// A counter read exactly from its text (no rounding through double), or the sum over kernels.
class CountMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    CountMatcher(std::string name, ::testing::Matcher<uint64_t> m) : name_(std::move(name)), m_(std::move(m)) {}
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        uint64_t v = 0;
        if (name_ == "gpu_sim_warp_insn") {
            if (r.stats().empty()) {
                *l << r.why_missing(name_);
                return false;
            }
            v = r.warp_instructions();
        } else {
            const Stat *s = r.find(name_);
            if (!s) {
                *l << r.why_missing(name_);
                return false;
            }
            v = std::strtoull(s->text.c_str(), nullptr, 10);
        }
        *l << name_ << " is " << v;
        return m_.Matches(v);
    }
    void DescribeTo(std::ostream *os) const override
    {
        *os << "has " << name_ << " that ";
        m_.DescribeTo(os);
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "has " << name_ << " that ";
        m_.DescribeNegationTo(os);
    }

private:
    std::string name_;
    ::testing::Matcher<uint64_t> m_;
};

template <typename T>
class StatMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    StatMatcher(std::string path, ::testing::Matcher<T> m) : path_(std::move(path)), m_(std::move(m)) {}
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        const Stat *s = r.find(path_);
        if (!s) {
            *l << r.why_missing(path_);
            return false;
        }
        *l << path_ << " is " << s->text;
        if (std::is_arithmetic<T>::value && !s->is_number) {
            *l << ", not a number";
            return false;
        }
        return m_.Matches(value(*s));
    }
    void DescribeTo(std::ostream *os) const override
    {
        *os << "has " << path_ << " that ";
        m_.DescribeTo(os);
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "has " << path_ << " that ";
        m_.DescribeNegationTo(os);
    }

private:
    static double value_of(const Stat &s, double *) { return s.number; }
    static const std::string &value_of(const Stat &s, const std::string *) { return s.text; }
    static decltype(auto) value(const Stat &s) { return value_of(s, static_cast<std::remove_reference_t<T> *>(nullptr)); }
    std::string path_;
    ::testing::Matcher<T> m_;
};

class SameStatsMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    SameStatsMatcher(Result other, std::vector<std::string> paths) : other_(std::move(other)), paths_(std::move(paths)) {}
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        std::string why;
        const std::vector<const Stat *> a = select_stats(other_, paths_, &why);
        if (a.empty()) {
            *l << "the other run (" << other_.spec().describe() << "): " << why;
            return false;
        }
        const std::vector<const Stat *> b = select_stats(r, paths_, &why);
        if (b.empty()) {
            *l << why;
            return false;
        }
        TempFile fa, fb;
        if (!write_file(fa.path(), flat_json(a), &why) || !write_file(fb.path(), flat_json(b), &why)) {
            *l << why;
            return false;
        }
        std::string table;
        const int status = compare_files(fa.path(), other_.spec().describe(), fb.path(),
                                         "this run: " + r.spec().describe(), &table);
        if (status == 0) {
            *l << "the same statistics";
            return true;
        }
        *l << "statistics differ:\n" << table;
        return false;
    }
    void DescribeTo(std::ostream *os) const override
    {
        *os << "has the same statistics as the run of " << other_.spec().describe();
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "has statistics that differ from the run of " << other_.spec().describe();
    }

private:
    Result other_;
    std::vector<std::string> paths_;
};

class SameEventsMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    explicit SameEventsMatcher(Result other) : other_(std::move(other)) {}
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        for (const Result *x : {&other_, &r})
            if (!x->spec().events()) {
                *l << "the run of " << x->spec().describe() << " kept no event log (Sim::with_events())";
                return false;
            }
        const std::vector<Event> &a = other_.events(), &b = r.events();
        size_t first = a.size() < b.size() ? a.size() : b.size(), differ = 0;
        for (size_t i = 0; i < a.size() && i < b.size(); i++)
            if (a[i] != b[i]) {
                if (!differ++)
                    first = i;
            }
        if (!differ && a.size() == b.size()) {
            *l << a.size() << " identical events";
            return true;
        }
        *l << a.size() << " events against " << b.size() << "; " << differ << " of the common ones differ;"
           << " the first difference, event " << first << " (kernel sm warp pc uid issue cu_alloc operands oc_ex"
           << " fu_issue writeback):\n  A " << other_.spec().describe() << ": ";
        if (first < a.size())
            *l << a[first];
        else
            *l << "(no more events)";
        *l << "\n  B this run: ";
        if (first < b.size())
            *l << b[first];
        else
            *l << "(no more events)";
        return false;
    }
    void DescribeTo(std::ostream *os) const override
    {
        *os << "has the same event log as the run of " << other_.spec().describe();
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "has an event log that differs from the run of " << other_.spec().describe();
    }

private:
    Result other_;
};

} // namespace

ResultMatcher Succeeded() { return ::testing::MakeMatcher(new StatusMatcher(::testing::Eq(0))); }
ResultMatcher ExitStatus(::testing::Matcher<int> m) { return ::testing::MakeMatcher(new StatusMatcher(std::move(m))); }
ResultMatcher Cycles(::testing::Matcher<uint64_t> m)
{
    return ::testing::MakeMatcher(new CountMatcher("gpu_tot_sim_cycle", std::move(m)));
}
ResultMatcher Instructions(::testing::Matcher<uint64_t> m)
{
    return ::testing::MakeMatcher(new CountMatcher("gpu_tot_sim_insn", std::move(m)));
}
ResultMatcher WarpInstructions(::testing::Matcher<uint64_t> m)
{
    return ::testing::MakeMatcher(new CountMatcher("gpu_sim_warp_insn", std::move(m)));
}
ResultMatcher HasStat(std::string path, ::testing::Matcher<double> m)
{
    return ::testing::MakeMatcher(new StatMatcher<double>(std::move(path), std::move(m)));
}
ResultMatcher HasStatText(std::string path, ::testing::Matcher<const std::string &> m)
{
    return ::testing::MakeMatcher(new StatMatcher<const std::string &>(std::move(path), std::move(m)));
}
ResultMatcher SameStatsAs(Result other, std::vector<std::string> paths)
{
    return ::testing::MakeMatcher(new SameStatsMatcher(std::move(other), std::move(paths)));
}
ResultMatcher SameEventsAs(Result other) { return ::testing::MakeMatcher(new SameEventsMatcher(std::move(other))); }

} // namespace testing
} // namespace smtlm

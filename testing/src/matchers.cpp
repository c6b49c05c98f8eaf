// The matchers of matchers.h: each reads what it needs from the Result and explains a mismatch.
#include "smtlm/testing/matchers.h"

#include <cstdlib>
#include <sstream>

#include "result_data.h"
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

class SucceededMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        if (r.ok()) {
            *l << "the run completed";
            return true;
        }
        *l << incomplete(r);
        if (!r.err().empty())
            *l << "; stderr:\n" << r.err();
        return false;
    }
    void DescribeTo(std::ostream *os) const override { *os << "completed (exit status 0, statistics complete)"; }
    void DescribeNegationTo(std::ostream *os) const override { *os << "did not complete"; }
};

class FailedMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    FailedMatcher(bool any_status, ::testing::Matcher<int> status, ::testing::Matcher<const std::string &> error)
        : any_status_(any_status), status_(std::move(status)), error_(std::move(error))
    {
    }
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        if (r.ok()) {
            *l << "the run completed";
            return false;
        }
        *l << incomplete(r);
        return status_.Matches(r.exit_status()) && error_.Matches(r.error());
    }
    void DescribeTo(std::ostream *os) const override
    {
        *os << "did not complete";
        if (!any_status_) {
            *os << ", with an exit status that ";
            status_.DescribeTo(os);
        }
        *os << ", with an error that ";
        error_.DescribeTo(os);
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "completed, or did not ";
        DescribeTo(os);
    }

private:
    bool any_status_;
    ::testing::Matcher<int> status_;
    ::testing::Matcher<const std::string &> error_;
};

// "" when r and the runs it is compared with completed; else why there is nothing to match.
std::string refused(const Result &r, const std::vector<Result> &others)
{
    if (!r.ok())
        return incomplete(r);
    for (const Result &o : others)
        if (!o.ok())
            return "the other run (" + o.spec().describe() + "): " + incomplete(o);
    return "";
}

// What every RunMatcher does first: no match unless every run involved completed.
class FiguresMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    explicit FiguresMatcher(std::vector<Result> others = {}) : others_(std::move(others)) {}
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const final
    {
        const std::string why = refused(r, others_);
        if (!why.empty()) {
            *l << why;
            return false;
        }
        return match(r, l);
    }
    const std::vector<Result> &others() const { return others_; }

protected:
    virtual bool match(const Result &r, MatchResultListener *l) const = 0;
    const Result &other() const { return others_.front(); }

private:
    std::vector<Result> others_;
};

RunMatcher make(FiguresMatcher *m) { return RunMatcher(::testing::MakeMatcher(m), m->others()); }

class NotMatcher : public ::testing::MatcherInterface<const Result &> {
public:
    explicit NotMatcher(RunMatcher m) : m_(std::move(m)) {}
    bool MatchAndExplain(const Result &r, MatchResultListener *l) const override
    {
        const std::string why = refused(r, m_.others());
        if (!why.empty()) {
            *l << why;
            return false;
        }
        return !m_.MatchAndExplain(r, l);
    }
    void DescribeTo(std::ostream *os) const override { m_.DescribeNegationTo(os); }
    void DescribeNegationTo(std::ostream *os) const override { m_.DescribeTo(os); }

private:
    RunMatcher m_;
};

// A counter read exactly from its text (no rounding through double), or the sum over kernels.
class CountMatcher : public FiguresMatcher {
public:
    CountMatcher(std::string name, ::testing::Matcher<uint64_t> m) : name_(std::move(name)), m_(std::move(m)) {}
    bool match(const Result &r, MatchResultListener *l) const override
    {
        uint64_t v = 0;
        if (name_ == "gpu_sim_warp_insn") {
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
class StatMatcher : public FiguresMatcher {
public:
    StatMatcher(std::string path, ::testing::Matcher<T> m) : path_(std::move(path)), m_(std::move(m)) {}
    bool match(const Result &r, MatchResultListener *l) const override
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

class SameStatsMatcher : public FiguresMatcher {
public:
    SameStatsMatcher(Result other, std::vector<std::string> paths) : FiguresMatcher({std::move(other)}), paths_(std::move(paths)) {}
    bool match(const Result &r, MatchResultListener *l) const override
    {
        std::string why;
        const std::vector<const Stat *> a = select_stats(other(), paths_, &why);
        if (a.empty()) {
            *l << "the other run (" << other().spec().describe() << "): " << why;
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
        const int status = compare_files(fa.path(), other().spec().describe(), fb.path(),
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
        *os << "has the same statistics as the run of " << other().spec().describe();
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "has statistics that differ from the run of " << other().spec().describe();
    }

private:
    std::vector<std::string> paths_;
};

class SameEventsMatcher : public FiguresMatcher {
public:
    explicit SameEventsMatcher(Result other) : FiguresMatcher({std::move(other)}) {}
    bool match(const Result &r, MatchResultListener *l) const override
    {
        for (const Result *x : {&other(), &r})
            if (!x->spec().events()) {
                *l << "the run of " << x->spec().describe() << " kept no event log (Sim::with_events())";
                return false;
            }
        const std::vector<Event> &a = other().events(), &b = r.events();
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
           << " fu_issue writeback):\n  A " << other().spec().describe() << ": ";
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
        *os << "has the same event log as the run of " << other().spec().describe();
    }
    void DescribeNegationTo(std::ostream *os) const override
    {
        *os << "has an event log that differs from the run of " << other().spec().describe();
    }
};

} // namespace

RunMatcher Not(const RunMatcher &m) { return RunMatcher(::testing::MakeMatcher(new NotMatcher(m)), m.others()); }

ResultMatcher Succeeded() { return ::testing::MakeMatcher(new SucceededMatcher); }
ResultMatcher ExitStatus(::testing::Matcher<int> m) { return ::testing::MakeMatcher(new StatusMatcher(std::move(m))); }
ResultMatcher Failed(::testing::Matcher<const std::string &> error)
{
    return ::testing::MakeMatcher(new FailedMatcher(true, ::testing::_, std::move(error)));
}
ResultMatcher FailedWith(::testing::Matcher<int> exit_status, ::testing::Matcher<const std::string &> error)
{
    return ::testing::MakeMatcher(new FailedMatcher(false, std::move(exit_status), std::move(error)));
}
RunMatcher Cycles(::testing::Matcher<uint64_t> m) { return make(new CountMatcher("gpu_tot_sim_cycle", std::move(m))); }
RunMatcher Instructions(::testing::Matcher<uint64_t> m) { return make(new CountMatcher("gpu_tot_sim_insn", std::move(m))); }
RunMatcher WarpInstructions(::testing::Matcher<uint64_t> m)
{
    return make(new CountMatcher("gpu_sim_warp_insn", std::move(m)));
}
RunMatcher HasStat(std::string path, ::testing::Matcher<double> m)
{
    return make(new StatMatcher<double>(std::move(path), std::move(m)));
}
RunMatcher HasStatText(std::string path, ::testing::Matcher<const std::string &> m)
{
    return make(new StatMatcher<const std::string &>(std::move(path), std::move(m)));
}
RunMatcher SameStatsAs(Result other, std::vector<std::string> paths)
{
    return make(new SameStatsMatcher(std::move(other), std::move(paths)));
}
RunMatcher SameEventsAs(Result other) { return make(new SameEventsMatcher(std::move(other))); }

} // namespace testing
} // namespace smtlm

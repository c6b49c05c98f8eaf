// What a regression test runs: a trace (or the built-in synthetic workload) on configs with
// options, on the C or the SystemC engine; and what comes back: exit status, output, every
// statistic by its JSON path and, on request, the per-instruction event log.
#ifndef SMTLM_TESTING_RUN_H
#define SMTLM_TESTING_RUN_H

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace smtlm {
namespace testing {

enum class Engine { C, SystemC };
const char *engine_name(Engine e); // as -smtlm_engine names it: "c", "systemc"
void PrintTo(Engine e, std::ostream *os);

// A simulation to run (smsim's command line), built up by value: every call returns a changed
// copy, so one base gives its variants (`base.on(Engine::SystemC)`, `base.option("gpgpu_num_reg_banks", 8)`).
class Sim {
public:
    // an Accel-Sim kernelslist.g or one .traceg / .traceg.xz
    static Sim Trace(std::string path);
    // the synthetic workload; each setting names an -smtlm_synth_* option without its prefix:
    // Synthetic({{"mix", "sp=50,ldg=50"}, {"insts", "200"}}); unset ones keep their defaults
    static Sim Synthetic(const std::vector<std::pair<std::string, std::string>> &settings = {});

    Sim config(std::string path) const;                        // -config <path>, in order
    Sim option(std::string name, std::string value) const;     // -<name> <value> ('-' optional)
    Sim option(std::string name, long long value) const;
    Sim on(Engine e) const;
    Sim with_events(bool on = true) const;                     // keep the event log

    const std::string &trace() const { return trace_; }
    const std::vector<std::string> &configs() const { return configs_; }
    const std::vector<std::pair<std::string, std::string>> &options() const { return options_; }
    Engine engine() const { return engine_; }
    bool events() const { return events_; }

    // smsim's arguments for this run (no program name, no output options), with the options
    // of the SMTLM_EXTRA_OPTIONS environment variable last
    std::vector<std::string> args() const;
    // one line for messages: trace, configs, options, engine
    std::string describe() const;

private:
    std::string trace_;
    std::vector<std::string> configs_;
    std::vector<std::pair<std::string, std::string>> options_;
    Engine engine_ = Engine::C;
    bool events_ = false;
};

// One retired instruction of the event log (-smtlm_event_log): the cycle of each pipeline event,
// counted from the kernel's launch as gpu_sim_cycle.
struct Event {
    unsigned kernel, sm, warp;
    uint32_t pc;
    uint64_t uid; // issue order in the SM
    uint64_t issue, cu_alloc, operands, oc_ex, fu_issue, writeback; // UINT64_MAX ('-' in the log): an event
                                                                    // the core does not have (silicon core)
    bool operator==(const Event &o) const;
    bool operator!=(const Event &o) const { return !(*this == o); }
};
std::ostream &operator<<(std::ostream &os, const Event &e); // the log's own line

// One leaf of the stats JSON, named by its path (`kernels[0].warp_stall.scoreboard`).
struct Stat {
    std::string path;
    std::string text; // as written (strings without their quotes)
    bool is_number;
    double number;
};

class Result {
public:
    // smsim's exit status: 0 done (a -gpgpu_max_* limit included), 1 stopped by the watchdog,
    // 2 bad input, a simulation error or an output that could not be written, 128 + the signal
    // when SIGINT or SIGTERM stopped it; -1 the run's process died (term_signal() says of what)
    // or could not be started (error() says why)
    int exit_status() const;
    int term_signal() const; // the signal that killed the run's process; 0 when it exited
    // the run completed: exit status 0 and statistics that say "complete": true
    bool ok() const;
    // why it did not complete, one message ("" when ok()): the stats JSON's "error", else
    // smsim's error line without its "smsim: ", else what became of the run's process
    const std::string &error() const;
    const std::string &out() const; // the GPGPU-Sim style text
    const std::string &err() const;
    const Sim &spec() const;

    // every leaf, in the file's order; for a run that did not complete, what it wrote before it
    // stopped (partial or zero), if anything
    const std::vector<Stat> &stats() const;
    const Stat *find(const std::string &path) const; // nullptr when there is none
    // a number by its path; throws std::out_of_range naming the path and similar names, or,
    // when the run did not complete, its error (a failed run's figures are not results)
    double stat(const std::string &path) const;
    std::string stat_text(const std::string &path) const;
    uint64_t cycles() const;            // gpu_tot_sim_cycle
    uint64_t instructions() const;      // gpu_tot_sim_insn (thread instructions)
    uint64_t warp_instructions() const; // gpu_sim_warp_insn summed over the kernels
    // "did you mean" text: stats whose last name part matches path's
    std::string similar(const std::string &path) const;
    // why stat(path) has no value: the run did not complete (its exit status and error), or no
    // such name
    std::string why_missing(const std::string &path) const;

    const std::vector<Event> &events() const; // empty unless the Sim asked with_events()
    const std::string &stats_path() const;    // the stats JSON, kept as long as any copy lives

    struct Data;
    explicit Result(std::shared_ptr<const Data> d) : d_(std::move(d)) {}

private:
    std::shared_ptr<const Data> d_;
};

// GoogleTest prints a Result as its run and exit status (and error, when it did not complete).
void PrintTo(const Result &r, std::ostream *os);

// Runs it in a child process of its own, on either engine: a crash of the engine fails the
// test that ran it, with the signal, and the test binary goes on; a SystemC run elaborates in
// its child (SystemC elaborates once per process), so a test may run either engine any number
// of times.
Result run(const Sim &r);

} // namespace testing
} // namespace smtlm

#endif

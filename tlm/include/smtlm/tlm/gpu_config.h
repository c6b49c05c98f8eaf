// Configuring smtlm::Gpu in a virtual platform.
//
// GpuConfig: everything a Gpu and the platform around it need, built in one call from smsim's
// options (the same option registry and reader: -config FILE with includes, every -gpgpu_* /
// -smtlm_* option, the same "<file>:<line>:" / "<command line>:N:" messages).
//
// Parameters (param_broker()): process-wide presets "<hierarchical instance name>.<option>" =
// "value", in the spirit of SystemC CCI, e.g. gpu0.gpgpu_n_clusters=4, gpu0.config=qv100.config,
// top.gpu1.smtlm_quantum_cycles=100. A Gpu built with Gpu(name, kernels) takes the presets under
// its full name (`config` first, then the others in the order they were first set); an unknown
// parameter, a bad value, or a preset that nothing took by the start of simulation (under a
// Gpu, another module or no object at all) is SC_REPORT_ERROR("smtlm/config", ...).
#ifndef SMTLM_TLM_GPU_CONFIG_H
#define SMTLM_TLM_GPU_CONFIG_H

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "smtlm/tlm/gpu.h"

extern "C" {
#include "smtlm/engine.h"
#include "smtlm/options.h"
#include "smtlm/trace.h"
}

namespace smtlm {

struct GpuConfig {
    smtlm_gpu_cfg gpu{};          // the machine (Gpu's cfg)
    smtlm_trace_latency lat{};    // opcode latencies (TraceKernels)
    std::string sass;             // -smtlm_sass: the whole-program listing (TraceKernels; silicon core)
    double core_clock_mhz = 0;    // first field of -gpgpu_clock_domains
    sc_core::sc_time period;      // one core cycle (Gpu's clock_period)
    sc_core::sc_time mem_latency; // -smtlm_mem_latency cycles: the latency of the platform's memory
    GpuParams params;             // quantum, real access, stage DMI, address map

    // Each returns "" when done, else one message "<file>:<line>: ..." (nothing printed).
    // Options smsim alone uses (-trace, output files, -smtlm_engine, ...) are read and ignored.
    std::string from_options(const smtlm_options &opts);
    // A command line as smsim takes it (argv[0] skipped): "-config FILE", "-<option> <value>".
    std::string from_argv(int argc, const char *const *argv);
    // Config text (name: in messages, and its directory for relative -config paths).
    std::string from_text(const std::string &text, const std::string &name = "<text>");
    // What the broker's presets under `instance` (a full hierarchical name) give a Gpu built
    // there, without taking them: for what the platform builds before the Gpu (its kernel
    // list's latencies, its memory).
    std::string from_presets(const std::string &instance);
};

// One core cycle at core_clock_mhz (sc_time rounds to the kernel's resolution, 1 ps by
// default: 1132 MHz gives 883 ps); 1 ns when there is no clock.
sc_core::sc_time clock_period(double core_clock_mhz);
// The time of a memory latency given in core cycles (-smtlm_mem_latency) at that period.
inline sc_core::sc_time cycles_time(uint64_t cycles, const sc_core::sc_time &period) { return period * (double)cycles; }
// An engine's parameters as a Gpu's; "" or why the Gpu cannot take them (more than one thread).
std::string gpu_params(const smtlm_engine_params &p, GpuParams *out);

// One parameter of a Gpu.
struct ParamInfo {
    std::string name;        // full hierarchical: "top.gpu0.gpgpu_n_clusters"
    std::string value;       // canonical text (integers in decimal, bools 0/1)
    std::string description; // the option registry's help text
    std::string origin;      // where it was set: "file:line", "<command line>:N", "<api>:0", "<default>"
    bool modelled = true;    // the model uses the value (else accepted for Accel-Sim compatibility)
};
// "name = value  # description [origin]" lines: read back with Parameters::read_file they set
// the same machine.
void print_parameters(std::ostream &os, const std::vector<ParamInfo> &params);

class Parameters {
  public:
    struct Preset {
        std::string name, value;
        std::string where; // "file" / "<command line>" / "<api>"
        int line = 0;      // line, or argv index
        bool consumed = false;
    };
    // Sets (or replaces: the value and origin change, the position stays) a preset. The name
    // is "<instance>.<parameter>", identifiers joined by dots.
    void set_preset(const std::string &name, const std::string &value, const std::string &where = "<api>",
                    int line = 0);
    // Takes the entries "--param NAME=VALUE" and "NAME=VALUE" (NAME as above) out of argv,
    // keeping the others in order (argv[argc] stays null). "" or "<command line>:N: ..." .
    std::string take_args(int *argc, char **argv);
    // "NAME = VALUE" lines; '#' starts a comment; blank lines are skipped. "" or "file:line: ...".
    std::string read_file(const std::string &path);
    // The preset under this name, or null; take() also marks it consumed.
    const Preset *find(const std::string &name) const;
    const Preset *take(const std::string &name);
    // The presets directly under an instance ("<instance>.<parameter>"), in order; take_under()
    // marks them consumed.
    std::vector<const Preset *> under(const std::string &instance) const;
    std::vector<const Preset *> take_under(const std::string &instance);
    const std::vector<Preset> &presets() const { return presets_; }
    // The presets no one took: one line each ("where:line: NAME = VALUE: why"), empty when
    // none. A module of the platform's own takes its presets (find, take) by the end of its
    // end_of_elaboration.
    std::string unconsumed() const;
    // SC_REPORT_ERROR("smtlm/config") listing unconsumed(), if any: once, from the Gpus'
    // start_of_simulation.
    void check_unconsumed();
    void clear()
    {
        presets_.clear();
        checked_ = false;
    }

  private:
    std::vector<Preset> presets_;
    bool checked_ = false;
};

// The process-wide broker.
Parameters &param_broker();

// A Gpu's parameters and configuration built from the broker (used by Gpu(name, kernels)).
struct GpuSetup {
    std::string full_name;
    GpuConfig config;
    std::string error; // empty when the presets built the configuration
    std::vector<ParamInfo> params;
    std::vector<std::unique_ptr<sc_core::sc_attribute<std::string>>> attributes;
    // Built for the instance about to be constructed under the current module as `name`, its
    // SMs given to `sm_hook` (GpuParams::sm_hook).
    static std::shared_ptr<GpuSetup> for_instance(const char *name, SmHook sm_hook = SmHook());
    // Attaches the attributes and checks the name SystemC gave; SC_REPORT_ERROR on a problem.
    void attach(Gpu &gpu);
};

} // namespace smtlm

#endif

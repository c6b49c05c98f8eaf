// Runs that do not complete, one of each kind the kit must never take for a result, their inputs
// made in a scratch directory of the test: their Sim, exit status and the start of their error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "kit_data.hpp"
#include "result_data.h" // the kit's slurp()

namespace kit {

using smtlm::testing::slurp;

inline bool exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

// A directory of this test under GoogleTest's TempDir(), removed with the object.
class ScratchDir {
public:
    ScratchDir()
    {
        path_ = ::testing::TempDir() + "smtlm_failing_XXXXXX";
        if (!mkdtemp(&path_[0]))
            ADD_FAILURE() << "cannot create " << path_;
    }
    ~ScratchDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
    ScratchDir(const ScratchDir &) = delete;
    ScratchDir &operator=(const ScratchDir &) = delete;
    const std::string &path() const { return path_; }
    // its name alone: unique among the tests running at the same time
    std::string name() const { return path_.substr(path_.find_last_of('/') + 1); }
    std::string write(const std::string &file, const std::string &text) const
    {
        std::ofstream(path_ + "/" + file) << text;
        return path_ + "/" + file;
    }

private:
    std::string path_;
};

// Update mode for one scope (the binary may run with --smtlm_update_goldens).
class UpdateMode {
public:
    explicit UpdateMode(bool on) : was_(smtlm::testing::updating_goldens()) { smtlm::testing::set_updating_goldens(on); }
    ~UpdateMode() { smtlm::testing::set_updating_goldens(was_); }

private:
    bool was_;
};

inline std::string vectoradd_kernel() { return std::string(SMTLM_TEST_DATA) + "/traces/vectoradd-100-32-trace/kernel-1.traceg"; }

// vectoradd's kernel as kernel-1.traceg in dir, then the given later kernels (file, text), all
// in dir's kernelslist.g
inline smtlm::testing::Sim vectoradd_then(const std::string &dir,
                                          const std::vector<std::pair<std::string, std::string>> &later)
{
    std::ofstream(dir + "/kernel-1.traceg") << slurp(vectoradd_kernel());
    std::string list = "kernel-1.traceg\n";
    for (const auto &k : later) {
        if (!k.second.empty())
            std::ofstream(dir + "/" + k.first) << k.second;
        list += k.first + "\n";
    }
    std::ofstream(dir + "/kernelslist.g") << list;
    return smtlm::testing::Sim::Trace(dir + "/kernelslist.g");
}

struct FailureKind {
    const char *name;
    int status; // smsim's exit status
    std::function<smtlm::testing::Sim(const std::string &dir)> sim;
    std::function<std::string(const std::string &dir)> error; // the start of the run's error
};

inline void PrintTo(const FailureKind &k, std::ostream *os) { *os << k.name; }

inline std::string no_space() { return "/dev/full: write error: No space left on device"; }

// Every kind of run that does not complete, but a memory error (the SystemC engine's alone) and
// a crash (which needs an engine of the tests' own).
inline const std::vector<FailureKind> &failure_kinds()
{
    using smtlm::testing::Sim;
    static const std::vector<FailureKind> kinds = {
        {"MissingTrace", 2, [](const std::string &d) { return Sim::Trace(d + "/nonexistent/kernelslist.g"); },
         [](const std::string &d) { return d + "/nonexistent/kernelslist.g: cannot open: No such file or directory"; }},
        {"MissingKernelFile", 2, [](const std::string &d) { return vectoradd_then(d, {{"kernel-2.traceg", ""}}); },
         [](const std::string &d) {
             return d + "/kernelslist.g:2: cannot open " + d + "/kernel-2.traceg: No such file or directory";
         }},
        // vectoradd's kernel compressed, then 8 bytes of the compressed data overwritten: the
        // stream's check fails
        {"CorruptXz", 2,
         [](const std::string &d) {
             const std::string xz = d + "/kernel-1.traceg.xz";
             if (std::system(("xz -c '" + vectoradd_kernel() + "' > '" + xz + "'").c_str()) != 0)
                 ADD_FAILURE() << "xz failed";
             std::FILE *f = std::fopen(xz.c_str(), "r+b");
             if (!f || std::fseek(f, 300, SEEK_SET) || std::fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, f) != 8)
                 ADD_FAILURE() << "cannot damage " << xz;
             if (f)
                 std::fclose(f);
             std::ofstream(d + "/kernelslist.g") << "kernel-1.traceg.xz\n";
             return Sim::Trace(d + "/kernelslist.g");
         },
         [](const std::string &d) { return d + "/kernel-1.traceg.xz: corrupt xz stream"; }},
        // 1024 threads of 8 registers on an SM of 1024 registers
        {"BlockTooBigForAnSm", 2,
         [](const std::string &) { return Sim::Trace(trace("vectoradd-100-32-trace")).option("gpgpu_shader_registers", 1024); },
         [](const std::string &) {
             return vectoradd_kernel() + ": a thread block (1024 threads, 0 B shared memory, 8 registers/thread) cannot run "
                                         "on an SM: its registers exceed -gpgpu_shader_registers";
         }},
        // the first kernel runs (real figures in the statistics), the second ends inside a line
        {"LaterKernelTruncated", 2,
         [](const std::string &d) {
             const std::string k = slurp(vectoradd_kernel());
             return vectoradd_then(d, {{"kernel-2.traceg", k.substr(0, k.find(" LDG.E.CG "))}});
         },
         [](const std::string &d) { return d + "/kernel-2.traceg:"; }},
        {"LaterKernelCannotFit", 2,
         [](const std::string &d) {
             std::string k = slurp(vectoradd_kernel());
             k.replace(k.find("-shmem = 0\n"), 11, "-shmem = 100000\n");
             return vectoradd_then(d, {{"kernel-2.traceg", k}});
         },
         [](const std::string &d) {
             return d + "/kernel-2.traceg: a thread block (1024 threads, 100000 B shared memory, 8 registers/thread) "
                        "cannot run on an SM: its shared memory exceeds -gpgpu_shmem_size";
         }},
        // Muon's option2 deadlock (docs/MUON.md): a reader's pending count holds a writer's
        // writeback until the watchdog stops the run
        {"Watchdog", 1,
         [](const std::string &d) {
             std::ofstream(d + "/kernel-1.traceg")
                 << "-kernel name = stuck\n-kernel id = 1\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-shmem = 0\n"
                    "-nregs = 64\n-binary version = 70\n-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n"
                    "-local mem base_addr = 0x00007f1000000000\n-nvbit version = 1.5.5\n-accelsim tracer version = 4\n"
                    "-enable lineinfo = 0\n\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 4\n"
                    "0000 ffffffff 1 R7 LDG.E 1 R5 4 1 0x7f2000000000 4\n0010 ffffffff 1 R5 IADD3 1 R1 0\n"
                    "0020 ffffffff 1 R8 IADD3 1 R5 0\n0030 ffffffff 0 EXIT 0 0\n\n#END_TB\n";
             std::ofstream(d + "/kernelslist.g") << "kernel-1.traceg\n";
             return Sim::Trace(d + "/kernelslist.g")
                 .config(smtlm::testing::project_config("muon-rtl"))
                 .option("smtlm_muon_war", "option2")
                 .option("smtlm_watchdog_cycles", 2000);
         },
         [](const std::string &) { return std::string("deadlock: nothing issued, retired or answered by memory for 2000 cycles"); }},
        {"CsvWriteFails", 2,
         [](const std::string &) { return Sim::Trace(trace("vectoradd-100-32-trace")).option("smtlm_stats_csv", "/dev/full"); },
         [](const std::string &) { return no_space(); }},
        {"ReportWriteFails", 2,
         [](const std::string &) { return Sim::Trace(trace("vectoradd-100-32-trace")).option("smtlm_report", "/dev/full"); },
         [](const std::string &) { return no_space(); }},
        {"EventLogWriteFails", 2,
         [](const std::string &) { return Sim::Trace(trace("vectoradd-100-32-trace")).option("smtlm_event_log", "/dev/full"); },
         [](const std::string &) { return no_space(); }},
    };
    return kinds;
}

inline const FailureKind &failure_kind(const std::string &name)
{
    for (const FailureKind &k : failure_kinds())
        if (name == k.name)
            return k;
    throw std::out_of_range("no failure kind " + name);
}

} // namespace kit

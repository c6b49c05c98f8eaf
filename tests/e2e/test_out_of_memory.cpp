// Memory that runs out at the start (the address space limited, ulimit -v): one message on
// stderr and exit status 2, in both engines, wherever the allocation fails: the libraries'
// start-up before main, the options, the engine's model (SystemC's modules and process stacks
// included). Never an abort, never SystemC's report of an uncaught exception on stdout.
// (Not built under AddressSanitizer: its shadow memory needs far more address space than any
// limit here leaves, so an instrumented smsim cannot start under one.)
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

#include "scratch_files.hpp"
#include "smsim_process.hpp"

namespace {

class OutOfMemory : public ::testing::TestWithParam<const char *> {};

// smsim with its address space limited to `bytes`.
e2e::Ended limited(const std::string &dir, rlim_t bytes, const std::vector<std::string> &args)
{
    e2e::ChildSetup setup;
    setup.before_exec = [bytes] {
        const struct rlimit lim = {bytes, bytes};
        if (setrlimit(RLIMIT_AS, &lim) != 0)
            _exit(126);
    };
    return e2e::wait_smsim(e2e::start_smsim(args, dir, setup));
}

// smsim's own answer to running out: exit 2, nothing on stdout, one line on stderr.
bool said_out_of_memory(const e2e::Ended &e)
{
    return e.exited && e.code == 2 && e.out.empty() && e.err.rfind("smsim: out of memory", 0) == 0 &&
           e.err.find('\n') == e.err.size() - 1;
}

} // namespace

// 1024 SMs in 256 MiB: the engine cannot build them (the C engine's SM array alone is about
// 1 GiB of address space).
TEST_P(OutOfMemory, AMachineTooBigForTheMemoryIsOneMessage)
{
    const std::string dir = e2e::fresh_dir(std::string("oom_big_") + GetParam());
    const e2e::Ended e = limited(dir, rlim_t(256) << 20,
                                 {"-smtlm_engine", GetParam(), "-gpgpu_n_clusters", "1024", "-smtlm_synth_insts", "20"});
    ASSERT_TRUE(e.exited) << "ended by signal " << e.code;
    EXPECT_EQ(e.code, 2);
    EXPECT_EQ(e.err, "smsim: out of memory for 1024 SMs\n");
    EXPECT_EQ(e.out, "");
}

// Every limit from where the program cannot even be loaded (exit 127, the loader's) up to where
// the run completes gives one of: the loader's refusal, smsim's one line and exit 2, or the
// run. Fine steps (64 KiB) where the libraries start up, then 1 MiB steps.
TEST_P(OutOfMemory, EveryAddressSpaceLimitGivesTheRunOrOneMessage)
{
    const std::string dir = e2e::fresh_dir(std::string("oom_sweep_") + GetParam());
    rlim_t first_message = 0;
    bool ran = false;
    for (rlim_t lim = rlim_t(2) << 20; !ran && lim < (rlim_t(1) << 30);) {
        const e2e::Ended e = limited(dir, lim, {"-smtlm_engine", GetParam(), "-smtlm_synth_insts", "20"});
        const bool loader = e.exited && e.code == 127 && e.out.empty();
        ran = e.exited && e.code == 0;
        EXPECT_TRUE(loader || ran || said_out_of_memory(e))
            << "limit " << (lim >> 10) << " KiB: " << (e.exited ? "exit " : "signal ") << e.code << "\nstderr: " << e.err
            << "\nstdout: " << e.out.substr(0, 200);
        if (!first_message && said_out_of_memory(e))
            first_message = lim;
        lim += first_message && lim > first_message + (rlim_t(4) << 20) ? rlim_t(1) << 20 : rlim_t(64) << 10;
    }
    EXPECT_TRUE(ran);
    EXPECT_NE(first_message, 0u);
}

INSTANTIATE_TEST_SUITE_P(Engines, OutOfMemory, ::testing::Values("c", "systemc"),
                         [](const ::testing::TestParamInfo<const char *> &i) { return std::string(i.param); });

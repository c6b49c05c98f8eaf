// The Muon SM (-smtlm_mode muon, C engine): timing points of configs/muon-rtl.config pinned
// through the event log on tiny traces, the WAR options on the option2 deadlock pattern, every
// collector strategy on a real trace, and the views muon mode refuses.
#include <gtest/gtest.h>

#include <algorithm>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "one_warp_trace.hpp"
#include "smsim_run.hpp"

namespace {

const std::string k_configs = SMTLM_CONFIGS_DIR;
const std::string k_lud = std::string(SMTLM_TEST_DATA) + "/traces/lud/kernelslist.g";

using e2e::one_warp_trace;

struct Events {
    unsigned long long issue, cu_alloc, operands, oc_ex, fu_issue, writeback;
};

// The event log by pc: "kernel sm warp pc uid issue cu_alloc operands oc_ex fu_issue writeback".
std::map<unsigned, Events> read_events(const std::string &path)
{
    std::map<unsigned, Events> m;
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream in(line);
        unsigned k, sm, warp, pc;
        unsigned long long uid;
        Events e;
        in >> k >> sm >> warp >> std::hex >> pc >> std::dec >> uid;
        for (unsigned long long *c : {&e.issue, &e.cu_alloc, &e.operands, &e.oc_ex, &e.fu_issue, &e.writeback}) {
            std::string t; // '-': an event this instruction did not have (~0 here)
            in >> t;
            *c = t == "-" ? ~0ull : std::stoull(t);
        }
        m[pc] = e;
    }
    return m;
}

// i0: IADD3 R5 <- R1; i1: IADD3 R8 <- R5 (reads i0's result); EXIT.
const std::vector<std::string> k_raw_pair = {"1 R5 IADD3 1 R1 0", "1 R8 IADD3 1 R5 0"};

TEST(MuonSm, RtlTimingPointsRequestToExecuteAndWritebackToDependent)
{
    const std::string log = e2e::scratch("muon_rtl_timing") + "/events.txt";
    const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon-rtl.config", "-smtlm_engine", "c", "-trace",
                                      one_warp_trace("muon_rtl_timing", k_raw_pair), "-smtlm_event_log", log});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ev = read_events(log);
    ASSERT_EQ(ev.size(), 3u);
    const Events &p = ev.at(0x00), &d = ev.at(0x10);
    // Producer: admitted into the RS in a; the RS requests its operands in a + 1 (cu_alloc);
    // the duplicated collector answers readResp in a + 2 (operands), where the row dispatches
    // into its unit's OC_EX register (oc_ex); the unit takes it in a + 3 (fu_issue): the RTL's
    // "collector request -> execute input 2 cycles".
    EXPECT_EQ(p.cu_alloc, p.issue + 1);
    EXPECT_EQ(p.operands, p.cu_alloc + 1);
    EXPECT_EQ(p.oc_ex, p.cu_alloc + 1);
    EXPECT_EQ(p.fu_issue, p.cu_alloc + 2);
    // Dependent (no forwarding in muon-rtl): admitted in a + 1 with R5 busy; the producer's
    // writeback in w clears busy, the operand is requested in w + 1 (the write is visible to the
    // PRF from then on), answered in w + 2, dispatched in w + 2 and executed in w + 3: the RTL's
    // "producer writeback -> dependent execute 3 cycles".
    EXPECT_EQ(d.issue, p.issue + 1);
    EXPECT_EQ(d.cu_alloc, p.writeback + 1);
    EXPECT_EQ(d.operands, p.writeback + 2);
    EXPECT_EQ(d.oc_ex, p.writeback + 2);
    EXPECT_EQ(d.fu_issue, p.writeback + 3);
}

TEST(MuonSm, ForwardingDispatchesTheDependentInTheWritebackCycle)
{
    const std::string log = e2e::scratch("muon_fwd_timing") + "/events.txt";
    const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon-rtl.config", "-smtlm_engine", "c",
                                      "-smtlm_muon_forwarding", "1", "-trace", one_warp_trace("muon_fwd_timing", k_raw_pair),
                                      "-smtlm_event_log", log});
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ev = read_events(log);
    const Events &p = ev.at(0x00), &d = ev.at(0x10);
    // With forwarding the wake-up takes the value: the dependent's only operand is ready in the
    // producer's writeback cycle w, it dispatches in w without a collector request and its unit
    // takes it in w + 1.
    EXPECT_EQ(d.cu_alloc, ~0ull);
    EXPECT_EQ(d.oc_ex, p.writeback);
    EXPECT_EQ(d.fu_issue, p.writeback + 1);
}

// The option2 deadlock (docs/MUON.md): i0 reads R5, i1 writes R5, i2 reads R5 before i1's
// writeback. Under option2, i2 holds a pendingReads count on R5 that i1's writeback waits for,
// and i2 reads only after that writeback.
const std::vector<std::string> k_war_pattern = {"1 R7 LDG.E 1 R5 4 1 0x7f2000000000 4", "1 R5 IADD3 1 R1 0",
                                                "1 R8 IADD3 1 R5 0"};

TEST(MuonSm, Option2DeadlockIsEndedByTheWatchdogNamingWarpPcAndCountHolders)
{
    const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon-rtl.config", "-smtlm_engine", "c", "-smtlm_muon_war",
                                      "option2", "-smtlm_watchdog_cycles", "2000", "-trace",
                                      one_warp_trace("muon_option2", k_war_pattern)});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("smsim: deadlock"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("sm 0 warp 0"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("in the reservation station: pc 0x0020, waiting for the writeback of R5"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("writeback of pc 0x0010 held by the scoreboard (-smtlm_muon_war option2); pending reads held by: "
                         "pc 0x0020 (warp 0, source 0, R5)"),
              std::string::npos)
        << r.err;
}

TEST(MuonSm, TheOtherWarOptionsCompleteThePattern)
{
    const std::string trace = one_warp_trace("muon_war_ok", k_war_pattern);
    for (const char *war : {"option1", "option2_fwd", "option2_epoch"}) {
        const std::string fwd = std::string(war) == "option2_fwd" ? "1" : "0"; // option2_fwd requires forwarding
        const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon-rtl.config", "-smtlm_engine", "c", "-smtlm_muon_war",
                                          war, "-smtlm_muon_forwarding", fwd, "-smtlm_watchdog_cycles", "2000", "-trace",
                                          trace});
        EXPECT_EQ(r.status, 0) << war << ": " << r.err;
        EXPECT_EQ(r.stat("gpu_sim_insn"), 4 * 32) << war; // the three instructions and EXIT, 32 lanes each
    }
}

// i0 writes R5, X is independent, i1 writes R5 again (WAW on i0), i2 is independent. The
// front end decodes two instructions at a time into the two-entry buffer, so [i1, i2] sit in it
// together once [i0, X] were admitted.
TEST(MuonSm, PastWawAdmitsTheEntryBehindAWawBlockedHead)
{
    const std::string trace = one_warp_trace(
        "muon_past_waw", {"1 R5 IADD3 1 R1 0", "1 R10 IADD3 1 R11 0", "1 R5 IADD3 1 R2 0", "1 R9 IADD3 1 R3 0"});
    std::map<unsigned, Events> ev[2];
    for (int past = 0; past < 2; past++) {
        const std::string log = e2e::scratch("muon_past_waw_" + std::to_string(past)) + "/events.txt";
        const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon-rtl.config", "-smtlm_engine", "c",
                                          "-smtlm_muon_past_waw", std::to_string(past), "-trace", trace,
                                          "-smtlm_event_log", log});
        ASSERT_EQ(r.status, 0) << r.err;
        ev[past] = read_events(log);
        ASSERT_EQ(ev[past].size(), 5u);
        // Either way i1 waits for i0's writeback, and enters in that cycle (writebacks come
        // before admission within a cycle).
        EXPECT_EQ(ev[past].at(0x20).issue, ev[past].at(0x00).writeback) << past;
    }
    // Without past-WAW, i2 follows i1 (one admission per cycle).
    EXPECT_EQ(ev[0].at(0x30).issue, ev[0].at(0x20).issue + 1);
    // With it, i2 is admitted past the blocked head in the cycle after X, before i1.
    EXPECT_EQ(ev[1].at(0x30).issue, ev[1].at(0x10).issue + 1);
    EXPECT_LT(ev[1].at(0x30).issue, ev[1].at(0x20).issue);
}

// [i1, EXIT] in the buffer with i1 WAW-blocked: EXIT retires the warp's lanes at admission, so
// it is never admitted past the head (i1 would be lost from the flushed buffer).
TEST(MuonSm, PastWawNeverAdmitsAnExitPastTheHead)
{
    const std::string log = e2e::scratch("muon_past_waw_exit") + "/events.txt";
    const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon-rtl.config", "-smtlm_engine", "c",
                                      "-smtlm_muon_past_waw", "1", "-trace",
                                      one_warp_trace("muon_past_waw_exit",
                                                     {"1 R5 IADD3 1 R1 0", "1 R10 IADD3 1 R11 0", "1 R5 IADD3 1 R2 0"}),
                                      "-smtlm_event_log", log});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.stat("gpu_sim_insn"), 4 * 32);
    const auto ev = read_events(log);
    ASSERT_EQ(ev.size(), 4u);
    EXPECT_EQ(ev.at(0x30).issue, ev.at(0x20).issue + 1);
}

TEST(MuonSm, EveryCollectorStrategyRunsLudToCompletionWithTheDefaultInstructionCount)
{
    const e2e::Result base = e2e::smsim({"-smtlm_engine", "c", "-trace", k_lud});
    ASSERT_EQ(base.status, 0) << base.err;
    const long long insn = base.stat("gpu_sim_insn");
    ASSERT_GT(insn, 0);
    for (const char *coll : {"duplicated", "src_banked", "inst_banked", "min_banked", "caching"}) {
        for (const char *fwd : {"0", "1"}) {
            const std::string entries = std::string(coll) == "min_banked" ? "1" : "4";
            const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon.config", "-smtlm_engine", "c",
                                              "-smtlm_muon_collector", coll, "-smtlm_muon_collector_entries", entries,
                                              "-smtlm_muon_forwarding", fwd, "-trace", k_lud});
            EXPECT_EQ(r.status, 0) << coll << " forwarding " << fwd << ": " << r.err;
            EXPECT_EQ(r.stat("gpu_sim_insn"), insn) << coll << " forwarding " << fwd;
            EXPECT_GT(r.stat("gpu_sim_cycle"), 0) << coll;
        }
    }
}

// inst_banked FU banks (-smtlm_muon_collector_banks): an instruction takes an entry of its unit
// type's bank only. On SP-only work, 4 entries in 4 FU banks leave SP one entry: exactly the
// cycles of 1 entry in 1 bank, and more than 4 entries in 1 bank.
TEST(MuonSm, InstBankedFuBanksGiveEachUnitTypeItsShareOfTheEntries)
{
    auto cycles = [](const char *entries, const char *banks) {
        const e2e::Result r = e2e::smsim({"-smtlm_mode", "muon", "-smtlm_synth_mix", "sp=100", "-smtlm_synth_insts", "200",
                                          "-smtlm_muon_collector", "inst_banked", "-smtlm_muon_prf_banks", "4",
                                          "-smtlm_muon_collector_entries", entries, "-smtlm_muon_collector_banks", banks});
        EXPECT_EQ(r.status, 0) << r.err;
        return r.stat("gpu_sim_cycle");
    };
    const long long four_in_four = cycles("4", "4");
    EXPECT_EQ(four_in_four, cycles("1", "1"));
    EXPECT_GT(four_in_four, cycles("4", "1"));
}

// -smtlm_muon_collector_banks is refused where it does not apply or cannot split the entries.
TEST(MuonSm, CollectorBanksOutsideTheirStrategyAreRefused)
{
    struct Bad {
        std::vector<std::string> args;
        const char *message;
    };
    const std::vector<Bad> bad = {
        {{"-smtlm_muon_collector", "duplicated", "-smtlm_muon_collector_banks", "2"}, "duplicated has no collector banks"},
        {{"-smtlm_muon_collector", "src_banked", "-smtlm_muon_collector_banks", "5"}, "src_banked banks by source slot, 1..4 banks"},
        {{"-smtlm_muon_collector", "inst_banked", "-smtlm_muon_collector_entries", "4", "-smtlm_muon_collector_banks", "3"},
         "inst_banked splits its 4 entries evenly over its FU banks: not over 3"},
        {{"-smtlm_muon_collector_banks", "9"}, "-smtlm_muon_collector_banks"},
    };
    for (const Bad &b : bad) {
        std::vector<std::string> args = {"-smtlm_mode", "muon"};
        args.insert(args.end(), b.args.begin(), b.args.end());
        const e2e::Result r = e2e::smsim(args);
        EXPECT_EQ(r.status, 2) << b.message;
        EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

// The pipeline log, VCD and HTML report show the gpgpusim collector: muon mode refuses them
// with one message naming the option and where it was given (the Muon counters are in the
// stats JSON).
TEST(MuonSm, ViewsOfTheGpgpusimCollectorAreRefusedWithOneMessage)
{
    for (const char *view : {"-smtlm_pipeline_log", "-smtlm_vcd", "-smtlm_report"}) {
        const e2e::Result r = e2e::smsim({"-config", k_configs + "/muon-rtl.config", "-trace", k_lud, view, "/tmp/x"});
        EXPECT_EQ(r.status, 2) << view;
        EXPECT_EQ(r.err, std::string("smsim: <command line>:5: ") + view +
                             " is not available in muon mode yet (it shows the gpgpusim collector); the stats JSON has "
                             "the Muon counters\n");
        EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos);
    }
}

} // namespace

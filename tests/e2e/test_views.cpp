// The views of the model: -smtlm_pipeline_log (Kanata) and -smtlm_vcd, read back and checked
// against the event log (-smtlm_event_log, the retire hook's cycles) of the same run.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "micro_trace.hpp"
#include "smsim_run.hpp"
#include "views_parse.hpp"

extern "C" {
#include "smtlm/regfile.h"
}

namespace {

struct ViewRun {
    e2e::Result r;
    std::vector<views::Event> events;
    std::string kanata, vcd;
    uint64_t skipped = 0; // cycles the GPU skipped in bulk (the last kernel's)
};

// smsim (C engine) with the event log, the pipeline log and the VCD in `dir`.
ViewRun run_views(const std::string &name, std::vector<std::string> args)
{
    const std::string dir = e2e::scratch("views_" + name);
    args.insert(args.end(), {"-smtlm_engine", "c", "-smtlm_event_log", dir + "/events", "-smtlm_pipeline_log",
                             dir + "/log.kanata", "-smtlm_vcd", dir + "/signals.vcd", "-smtlm_stats_json", dir + "/stats.json"});
    ViewRun run;
    run.r = e2e::smsim(args);
    std::smatch m;
    const std::string json = views::slurp(dir + "/stats.json");
    run.skipped = std::regex_search(json, m, std::regex("\"skipped_cycles\":([0-9]+)")) ? std::stoull(m[1]) : 0;
    run.events = views::read_events(dir + "/events");
    run.kanata = views::slurp(dir + "/log.kanata");
    run.vcd = views::slurp(dir + "/signals.vcd");
    return run;
}

std::vector<std::string> micro(const char *kind, unsigned n, unsigned warps)
{
    std::vector<std::string> a = {"-trace", e2e::write_micro_trace(kind, n, warps)};
    for (const std::string &s : e2e::stock("SM7_QV100"))
        a.push_back(s);
    return a;
}

// ---- the pipeline log ----

// Accel-Sim's dependent-FFMA chain (one warp, FFMA R2 <- R2, R4, R6 four times, then EXIT) on
// the QV100, whole file against tests/data/views/dep_4_w1.kanata. Each FFMA issues 7 cycles
// after the one before: issued at t, it gets a collector unit at t+1 (the operand collector
// runs before issue in a cycle), reads R2 and R4 at t+1 and R6 at t+2 (R2 and R6 share bank 3:
// warp 0's bank of Rn is (n + 1) mod 4 on scheduler 0's four banks), goes to OC_EX at t+2 and
// into the SP unit at t+3; with latency 2 and interval 2 it reaches EX_WB at t+6 and is
// written back at t+7, where the scoreboard releases R2 before the schedulers issue.
TEST(PipelineLog, TheDependentChainIssuesEverySevenCycles)
{
    const ViewRun run = run_views("dep4", micro("dep", 4, 1));
    ASSERT_EQ(run.r.status, 0) << run.r.err;
    EXPECT_EQ(run.kanata, views::slurp(e2e::data("views/dep_4_w1.kanata")));
    const views::Kanata k = views::read_kanata(run.kanata);
    ASSERT_EQ(k.error, "");
    ASSERT_EQ(k.inst.size(), 5u);
    for (size_t i = 1; i < 4; i++) {
        const views::KStage *a = k.stage(k.inst[i - 1], "IS"), *b = k.stage(k.inst[i], "IS");
        ASSERT_TRUE(a && b);
        EXPECT_EQ(b->start - a->start, 7u) << "FFMA " << i;
        // it waited at the head of the buffer for the scoreboard from the cycle after the one
        // before issued, and depends on it (W)
        const views::KStage *sb = k.stage(k.inst[i], "sb", 1);
        ASSERT_TRUE(sb);
        EXPECT_EQ(sb->start, a->start + 1);
        EXPECT_EQ(sb->end, b->start);
        EXPECT_EQ(k.inst[i].producers, std::vector<uint64_t>{i - 1});
    }
}

// Every instruction of the event log is in the pipeline log once, with its stages where the
// retire hook's cycles put them, its operands read between allocation and collection (the
// last one at collection), and each dependency on an earlier instruction of its warp that was
// written back before it issued.
void expect_log_matches_events(const ViewRun &run)
{
    ASSERT_EQ(run.r.status, 0) << run.r.err;
    const views::Kanata k = views::read_kanata(run.kanata);
    ASSERT_EQ(k.error, "");
    ASSERT_EQ(k.inst.size(), run.events.size());
    std::map<std::pair<unsigned, uint64_t>, const views::KInst *> by_key; // (thread, uid)
    for (const views::KInst &i : k.inst)
        EXPECT_TRUE(by_key.emplace(std::make_pair(i.thread, i.sim_id), &i).second) << "twice: " << i.name;
    const std::regex read_at("bank [0-9]+ read at ([0-9]+)");
    for (const views::Event &e : run.events) {
        SCOPED_TRACE("sm " + std::to_string(e.sm) + " warp " + std::to_string(e.warp) + " uid " + std::to_string(e.uid));
        auto it = by_key.find({e.sm * 64 + e.warp, e.uid});
        ASSERT_NE(it, by_key.end());
        const views::KInst &i = *it->second;
        const struct {
            const char *name;
            uint64_t start, end;
        } want[] = {{"IS", e.ev[0], e.ev[1]}, {"OC", e.ev[1], e.ev[3]}, {"DI", e.ev[3], e.ev[4]},
                    {"EX", e.ev[4], e.ev[5]}, {"WB", e.ev[5], e.ev[5] + 1}};
        for (const auto &w : want) {
            const views::KStage *s = k.stage(i, w.name);
            ASSERT_TRUE(s) << w.name;
            EXPECT_EQ(s->start, w.start) << w.name;
            EXPECT_EQ(s->end, w.end) << w.name;
        }
        EXPECT_EQ(i.retire, e.ev[5] + 1);
        const views::KStage *ib = k.stage(i, "IB");
        ASSERT_TRUE(ib);
        EXPECT_EQ(i.start, ib->start);
        EXPECT_EQ(ib->end, e.ev[0]);
        EXPECT_LT(ib->start, ib->end);
        // the stall runs at the head of the buffer tile the cycles it waited there, up to its
        // issue, and the IB label counts them per reason
        uint64_t head = e.ev[0], waited = 0;
        for (const views::KStage &st : i.stages)
            if (st.lane == 1 && std::string("sb busy other bar membar atomic drain empty mixed").find(st.name) != std::string::npos) {
                EXPECT_GE(st.start, ib->start) << st.name;
                head = std::min(head, st.start);
                waited += st.end - st.start;
            }
        EXPECT_EQ(waited, e.ev[0] - head) << "runs with gaps or overlaps";
        uint64_t counted = 0;
        const std::regex count("(sb|busy|other|bar|membar|atomic|drain) ([0-9]+)");
        for (std::sregex_iterator m(ib->label.begin(), ib->label.end(), count), end; m != end; ++m)
            counted += std::stoull((*m)[2]);
        EXPECT_EQ(counted, waited) << ib->label;
        uint64_t last = 0;
        unsigned reads = 0;
        const std::string &ops = k.stage(i, "OC")->label;
        for (std::sregex_iterator m(ops.begin(), ops.end(), read_at), end; m != end; ++m) {
            const uint64_t c = std::stoull((*m)[1]);
            EXPECT_GE(c, e.ev[1]) << ops;
            EXPECT_LE(c, e.ev[2]) << ops;
            last = std::max(last, c);
            reads++;
        }
        if (reads) {
            EXPECT_EQ(last, e.ev[2]) << ops;
        }
        for (uint64_t p : i.producers) {
            const views::KInst &pi = k.inst[p];
            EXPECT_EQ(pi.thread, i.thread);
            EXPECT_LT(pi.sim_id, i.sim_id);
            EXPECT_LE(pi.retire - 1, e.ev[0]) << "producer written back after the consumer issued";
        }
    }
}

TEST(PipelineLog, EveryStageOfLudMatchesTheEventHook)
{
    expect_log_matches_events(run_views("lud", {"-trace", e2e::data("traces/lud/kernelslist.g")}));
}

TEST(PipelineLog, EveryStageOfAnIntegerFloatMixOnEightWarpsMatchesTheEventHook)
{
    const ViewRun run = run_views("imix", micro("imix", 64, 8));
    expect_log_matches_events(run);
    EXPECT_NE(run.kanata.find("\tother\n"), std::string::npos) << "no warp ever lost its turn to another";
}

// Two SMs, global loads waiting for memory (idle skips), shared memory, SFU, sub-core off.
TEST(PipelineLog, EveryStageOfASyntheticMemoryMixMatchesTheEventHook)
{
    const ViewRun run = run_views("synth", {"-gpgpu_n_clusters", "2", "-gpgpu_sub_core_model", "0", "-smtlm_synth_ctas", "4",
                                        "-smtlm_synth_insts", "120", "-smtlm_synth_mix", "sp=30,int=20,sfu=10,ldst=20,ldg=20",
                                        "-smtlm_mem_latency", "600"});
    expect_log_matches_events(run);
    EXPECT_GT(run.skipped, 0u);
    std::set<unsigned> sms;
    for (const views::Event &e : run.events)
        sms.insert(e.sm);
    EXPECT_EQ(sms.size(), 2u);
}

// The filters keep exactly the instructions of the chosen SMs and warps issued in the window.
TEST(PipelineLog, FiltersKeepTheChosenInstructions)
{
    const std::vector<std::string> base = {"-gpgpu_n_clusters", "4", "-smtlm_synth_ctas", "8", "-smtlm_synth_insts", "80"};
    const ViewRun all = run_views("filter_all", base);
    ASSERT_EQ(all.r.status, 0) << all.r.err;
    const uint64_t a = all.events[all.events.size() / 3].ev[0], b = all.events[all.events.size() / 2].ev[0];
    std::vector<std::string> args = base;
    args.insert(args.end(), {"-smtlm_log_cycles", std::to_string(a) + ":" + std::to_string(b), "-smtlm_log_sms", "1,3",
                             "-smtlm_log_warps", "0-4,9"});
    const ViewRun some = run_views("filter_some", args);
    ASSERT_EQ(some.r.status, 0) << some.r.err;
    EXPECT_TRUE(some.events.size() == all.events.size()) << "a filter changed the run";
    std::set<std::pair<unsigned, uint64_t>> want, got;
    for (const views::Event &e : all.events)
        if ((e.sm == 1 || e.sm == 3) && (e.warp <= 4 || e.warp == 9) && e.ev[0] >= a && e.ev[0] <= b)
            want.insert({e.sm * 64 + e.warp, e.uid});
    const views::Kanata k = views::read_kanata(some.kanata);
    ASSERT_EQ(k.error, "");
    for (const views::KInst &i : k.inst)
        got.insert({i.thread, i.sim_id});
    EXPECT_GT(want.size(), 10u);
    EXPECT_EQ(got, want);
}

// ---- the VCD ----

struct Counts {
    std::map<uint64_t, unsigned> n;
    unsigned at(uint64_t t) const
    {
        auto it = n.find(t);
        return it == n.end() ? 0 : it->second;
    }
};

// Every signal of SM 0 at every cycle of the run against what the event log implies, on a
// microbenchmark of four warps (one per scheduler): `unit` is the unit of its body
// instruction (EXIT runs on an INT unit), `src` its source register when it has exactly one.
void expect_vcd_matches_events(const char *kind, const char *unit, int src)
{
    const ViewRun run = run_views(std::string("vcd_") + kind, micro(kind, 64, 4));
    ASSERT_EQ(run.r.status, 0) << run.r.err;
    const views::Vcd v = views::read_vcd(run.vcd);
    ASSERT_EQ(v.error, "");
    ASSERT_TRUE(v.has("sm0.cu_busy") && v.has("sm0.bank15.queue") && v.has("sm0.fu.sp3") && v.has("sm0.warp63.verdict"));
    const smtlm_rf_cfg rf = {16, SMTLM_ALLOC_FIFO, 0}; // QV100: 16 banks, 4 sub-cores
    const smtlm_sm_shape shape = {4, 1};
    std::map<std::string, Counts> want;
    uint64_t first = UINT64_MAX, last = 0;
    for (const views::Event &e : run.events) {
        const unsigned sched = e.warp % 4;
        const bool exit = e.pc == 64 * 16;
        want["sm0.sched" + std::to_string(sched) + ".issued"].n[e.ev[0]]++;
        for (uint64_t t = e.ev[1]; t < e.ev[3]; t++) // in a collector unit to the end of the cycle
            want["sm0.cu_busy"].n[t]++;
        // the result bus is taken `latency` cycles after the unit accepts it; the unit hands the
        // result to EX_WB one cycle later and writeback takes it the cycle after: at wb - 2
        want["sm0.result_buses"].n[e.ev[5] - 2]++;
        // a unit holds it from acceptance until it leaves for EX_WB, at wb - 1
        for (uint64_t t = e.ev[4]; t + 1 < e.ev[5]; t++)
            want[std::string("fu.") + (exit ? "int" : unit)].n[t] = 1;
        if (!exit) { // its destination written back; its single source read when collected
            const unsigned dst = 20 + (e.pc / 16) % 8 + 1; // simulator numbers: trace Rn is n + 1
            want["sm0.bank" + std::to_string(smtlm_rf_cfg_bank(&rf, &shape, dst, e.warp, sched)) + ".wr"].n[e.ev[5]]++;
            if (src >= 0) {
                const std::string bank = "sm0.bank" + std::to_string(smtlm_rf_cfg_bank(&rf, &shape, (unsigned)src + 1, e.warp, sched));
                want[bank + ".rd"].n[e.ev[2]]++;
                for (uint64_t t = e.ev[1]; t < e.ev[2]; t++) // queued from allocation to the read
                    want[bank + ".queue"].n[t]++;
            }
        }
        first = std::min(first, e.ev[0]);
        last = std::max(last, e.ev[5]);
    }
    for (uint64_t t = first - 2; t <= last + 1; t++) {
        SCOPED_TRACE("cycle " + std::to_string(t));
        for (const char *sig : {"sm0.cu_busy", "sm0.result_buses"})
            ASSERT_EQ(v.at(sig, t), want[sig].at(t)) << sig;
        for (unsigned s = 0; s < 4; s++) {
            const std::string sig = "sm0.sched" + std::to_string(s) + ".issued";
            ASSERT_EQ(v.at(sig, t), want[sig].at(t)) << sig;
            // a scheduler that issued says so; one that did not says why
            const uint64_t state = v.at("sm0.sched" + std::to_string(s) + ".state", t);
            ASSERT_EQ(state == 1, want[sig].at(t) > 0) << sig;
        }
        for (unsigned b = 0; b < 16; b++)
            for (const char *what : {".rd", ".wr", ".queue"}) {
                const std::string sig = "sm0.bank" + std::to_string(b) + what;
                if (std::string(what) != ".wr" && src < 0)
                    continue; // reads of several sources: not derived here
                ASSERT_EQ(v.at(sig, t), want[sig].at(t)) << sig;
            }
        for (const char *u : {"sp", "int", "sfu", "dp"}) {
            uint64_t busy = 0;
            for (unsigned k = 0; k < 4; k++)
                busy |= v.at("sm0.fu." + std::string(u) + std::to_string(k), t);
            ASSERT_EQ(busy, want[std::string("fu.") + u].at(t)) << u;
        }
        for (unsigned w = 0; w < 4; w++) { // issued: the warp's verdict says so
            bool issued = false;
            for (const views::Event &e : run.events)
                issued |= e.warp == w && e.ev[0] == t;
            ASSERT_EQ(v.at("sm0.warp" + std::to_string(w) + ".verdict", t) == 1, issued) << "warp " << w;
        }
    }
}

TEST(Vcd, SfuChainSignalsMatchTheEventLog) { expect_vcd_matches_events("sfu", "sfu", 3); }
TEST(Vcd, FloatChainSignalsMatchTheEventLog) { expect_vcd_matches_events("indep", "sp", -1); }

// The window and the filters: the dump starts at A with every value, ends at B + 1, and holds
// only the chosen SMs and warps.
TEST(Vcd, WindowAndFiltersLimitTheDump)
{
    std::vector<std::string> args = micro("imix", 64, 8);
    args.insert(args.end(), {"-smtlm_log_cycles", "5010:5040", "-smtlm_log_sms", "0,2", "-smtlm_log_warps", "1,3"});
    const ViewRun run = run_views("vcd_window", args);
    ASSERT_EQ(run.r.status, 0) << run.r.err;
    const views::Vcd v = views::read_vcd(run.vcd);
    ASSERT_EQ(v.error, "");
    ASSERT_FALSE(v.times.empty());
    EXPECT_EQ(v.times.front(), 5010u);
    EXPECT_EQ(v.times.back(), 5041u);
    EXPECT_TRUE(v.has("sm0.cu_busy") && v.has("sm2.cu_busy") && v.has("sm0.warp1.verdict") && v.has("sm2.warp3.in_flight"));
    EXPECT_FALSE(v.has("sm1.cu_busy") || v.has("sm0.warp0.verdict") || v.has("sm0.warp2.verdict"));
    // the values inside the window are those of the whole dump
    const ViewRun whole = run_views("vcd_whole", micro("imix", 64, 8));
    const views::Vcd w = views::read_vcd(whole.vcd);
    for (uint64_t t = 5010; t <= 5040; t++)
        for (const char *sig : {"sm0.cu_busy", "sm0.sched1.issued", "sm0.bank5.rd", "sm0.warp3.verdict", "sm0.fu.int1"})
            ASSERT_EQ(v.at(sig, t), w.at(sig, t)) << sig << " at " << t;
}

// ---- both files ----

TEST(Views, BadFiltersAndPathsAreOneClearError)
{
    const struct {
        const char *opt, *value, *says;
    } bad[] = {
        {"-smtlm_log_cycles", "50:10", "-smtlm_log_cycles: '50:10' is not a cycle window"},
        {"-smtlm_log_cycles", "x", "-smtlm_log_cycles: 'x' is not a cycle window"},
        {"-smtlm_log_sms", "80", "-smtlm_log_sms: '80' is not a list of SM numbers from 0 to 79"},
        {"-smtlm_log_sms", "1-", "-smtlm_log_sms: '1-' is not a list"},
        {"-smtlm_log_warps", "64", "-smtlm_log_warps: '64' is not a list of warp numbers from 0 to 63"},
        {"-smtlm_pipeline_log", "/no-such-dir/x.kanata", "/no-such-dir/x.kanata: cannot open for writing"},
        {"-smtlm_vcd", "/no-such-dir/x.vcd", "/no-such-dir/x.vcd: cannot open for writing"},
    };
    for (const auto &b : bad) {
        const e2e::Result r = e2e::smsim({"-smtlm_engine", "c", "-smtlm_vcd", "/dev/null", b.opt, b.value});
        EXPECT_EQ(r.status, 2) << b.opt << " " << b.value;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(b.says), std::string::npos) << r.err;
        EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos) << "it ran";
    }
}

// With views, -smtlm_threads N runs the SMs on one thread (the views read every SM after every
// cycle): the same files and statistics as one thread, on a many-CTA run whose tail would
// otherwise run in parallel.
TEST(Views, ThreadsGiveTheSameFiles)
{
    const std::vector<std::string> base = {"-smtlm_synth_ctas", "40", "-smtlm_synth_insts", "40", "-smtlm_synth_mix",
                                           "sp=40,int=20,sfu=10,ldg=30", "-smtlm_log_sms", "0-5"};
    std::vector<std::string> two = base;
    two.insert(two.end(), {"-smtlm_threads", "2"});
    const ViewRun a = run_views("threads1", base), b = run_views("threads2", two);
    ASSERT_EQ(a.r.status, 0) << a.r.err;
    ASSERT_EQ(b.r.status, 0) << b.r.err;
    EXPECT_GT(std::count(a.kanata.begin(), a.kanata.end(), '\n'), 1000);
    EXPECT_TRUE(a.kanata == b.kanata) << "the pipeline logs differ";
    EXPECT_TRUE(a.vcd == b.vcd) << "the VCDs differ";
    EXPECT_EQ(a.events.size(), b.events.size());
}

// Asking for the views changes nothing else: statistics, JSON and the event log are the same.
TEST(Views, ChangeNothingInTheRun)
{
    const std::vector<std::string> lud = {"-trace", e2e::data("traces/lud/kernelslist.g")};
    const std::vector<std::string> slow = {"-smtlm_synth_mix", "sp=50,ldg=50", "-smtlm_mem_latency", "900",
                                           "-smtlm_synth_insts", "150"};
    for (const auto &args : {lud, slow}) {
        const std::string dir = e2e::scratch("views_nothing");
        std::vector<std::string> plain = args, viewed = args;
        plain.insert(plain.end(), {"-smtlm_stats_json", dir + "/a.json", "-smtlm_event_log", dir + "/a.ev"});
        viewed.insert(viewed.end(), {"-smtlm_stats_json", dir + "/b.json", "-smtlm_event_log", dir + "/b.ev",
                                     "-smtlm_pipeline_log", dir + "/b.kanata", "-smtlm_vcd", dir + "/b.vcd"});
        const e2e::Result a = e2e::smsim(plain), b = e2e::smsim(viewed);
        ASSERT_EQ(a.status, 0) << a.err;
        ASSERT_EQ(b.status, 0) << b.err;
        const std::regex wall("(^|\\n)(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_silicon_slowdown|"
                              "smtlm_simulation_time|smtlm_sim_rate)[^\\n]*");
        EXPECT_EQ(std::regex_replace(a.out, wall, "$1"), std::regex_replace(b.out, wall, "$1"));
        const std::regex secs("\"wall_seconds\":[0-9.e+-]+");
        EXPECT_EQ(std::regex_replace(views::slurp(dir + "/a.json"), secs, ""),
                  std::regex_replace(views::slurp(dir + "/b.json"), secs, ""));
        EXPECT_TRUE(views::slurp(dir + "/a.ev") == views::slurp(dir + "/b.ev"));
    }
}

} // namespace

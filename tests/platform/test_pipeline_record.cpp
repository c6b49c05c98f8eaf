// The pipeline log's record of one instruction (white box): stall runs at the head of the
// buffer, their counts, the stages from the event cycles and the waits between them.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "file_text.hpp"

extern "C" {
#include "pipeline_log_internal.h"
#include "smtlm/view_names.h"
}

namespace {

std::string text(FILE *f) { return file_text(f); }

TEST(PipelineRecord, RunsCountEveryCycleAndTheNinthReasonMakesTheLastOneMixed)
{
    pl_side s;
    std::memset(&s, 0, sizeof s);
    pl_add_run(&s, 100, 1, SMTLM_VIEW_OTHER);    // run 0: other
    pl_add_run(&s, 101, 3, SMTLM_WS_SCOREBOARD); // run 1: sb (an idle skip of 3 cycles)
    pl_add_run(&s, 104, 1, SMTLM_VIEW_OTHER);    // continues sb
    pl_add_run(&s, 105, 1, SMTLM_WS_SCOREBOARD); // continues sb
    ASSERT_EQ(s.n_runs, 2u);
    EXPECT_EQ(s.run[0].why, SMTLM_VIEW_OTHER);
    EXPECT_EQ(s.run[1].why, SMTLM_WS_SCOREBOARD);
    EXPECT_EQ(s.run[1].from, 101u);
    // alternate two reasons: runs 2..7, then the ninth reason merges into a mixed last run
    uint64_t t = 106;
    for (unsigned i = 0; i < 8; i++, t++)
        pl_add_run(&s, t, 1, i % 2 ? SMTLM_WS_SCOREBOARD : SMTLM_WS_UNIT_BUSY);
    ASSERT_EQ(s.n_runs, (unsigned)PL_RUNS);
    EXPECT_EQ(s.run[PL_RUNS - 1].why, SMTLM_VIEW_MIXED);
    EXPECT_EQ(s.run[PL_RUNS - 1].from, 111u);
    pl_add_run(&s, t, 2, SMTLM_WS_BARRIER); // stays mixed, still counted
    EXPECT_EQ(s.run[PL_RUNS - 1].why, SMTLM_VIEW_MIXED);
    EXPECT_EQ(s.waited[SMTLM_VIEW_OTHER], 2u);
    EXPECT_EQ(s.waited[SMTLM_WS_SCOREBOARD], 3u + 1 + 4);
    EXPECT_EQ(s.waited[SMTLM_WS_UNIT_BUSY], 4u);
    EXPECT_EQ(s.waited[SMTLM_WS_BARRIER], 2u);
}

// One SP instruction of warp 1 (R4 <- R1, R1, R2): decoded at 10, at the head from 11 (2
// cycles scoreboard, 1 another warp), issued 14, a collector unit at 16 (a wait), R1 read at
// 17 and R2 at 19 (a bank wait), OC_EX at 21 (a wait), its unit at 23 (a wait), written back
// at 27.
TEST(PipelineRecord, StagesWaitsAndLabels)
{
    smtlm_inst in;
    std::memset(&in, 0, sizeof in);
    in.uid = 7;
    in.pc = 0x40;
    in.mask = 0xffff;
    in.warp = 1;
    in.latency = 4;
    in.ii = 2;
    in.n_dst = 1;
    in.dst[0] = 5;
    in.n_src = 3;
    in.src[0] = 2;
    in.src[1] = 2;
    in.src[2] = 3;
    in.op = SMTLM_OP_SP;
    in.unit = SMTLM_UNIT_SP;
    in.line = 12;
    const uint64_t ev[SMTLM_EV_COUNT] = {14, 16, 19, 21, 23, 27};
    std::memcpy(in.ev, ev, sizeof ev);
    pl_side s;
    std::memset(&s, 0, sizeof s);
    s.gen = 1;
    s.seen = 10;
    pl_add_run(&s, 11, 2, SMTLM_WS_SCOREBOARD);
    pl_add_run(&s, 13, 1, SMTLM_VIEW_OTHER);
    s.known = 1; // R1 read at 17; R2 (slot 2) at the collection cycle, 19
    s.opnd[0] = 17;
    EXPECT_EQ(pl_distinct_sources(&in), 0x5u);
    smtlm_rf rf;
    // 4 banks, no sub-cores: bank = (register + warp) mod 4; R1 is register 2 (bank 3), R2 is 3 (bank 0)
    const smtlm_rf_cfg rc = {4, SMTLM_ALLOC_FIFO, 0};
    const smtlm_sm_shape one = {1, 0};
    ASSERT_EQ(smtlm_rf_init(&rf, &rc, &one, 8), SMTLM_OK);
    smtlm_sm_view v;
    std::memset(&v, 0, sizeof v);
    v.rf = &rf;
    FILE *f = std::tmpfile();
    smtlm_kanata *k = smtlm_kanata_new(f);
    ASSERT_EQ(pl_add_record(k, &in, &s, &v, 2, 1, 2 * 64 + 1, 0), 0);
    ASSERT_EQ(smtlm_kanata_close(k), 0);
    EXPECT_EQ(text(f),
              "Kanata\t0004\n"
              "C=\t10\nI\t0\t7\t129\nL\t0\t0\tsm2 w1 0x0040 sp R4 <- R1, R1, R2\n"
              "L\t0\t1\tkernel 1, sm 2, warp 1, uid 7, scheduler 0, trace line 12\\nmask 0x0000ffff (16 lanes)\\n"
              "issue 14, cu_alloc 16, operands 19, oc_ex 21, fu_issue 23, writeback 27\n"
              "S\t0\t0\tIB\nL\t0\t2\tdecoded at cycle 10; waited at the head: sb 2, other 1\n"
              "C\t1\nS\t0\t1\tsb\nL\t0\t2\tscoreboard\n"
              "C\t3\nE\t0\t0\tIB\nS\t0\t0\tIS\nE\t0\t1\tsb\n"
              "C\t1\nS\t0\t1\tcu\nL\t0\t2\tno free collector unit\n"
              "C\t1\nE\t0\t0\tIS\nS\t0\t0\tOC\nL\t0\t2\tR1 bank 3 read at 17; R1 read once, as operand 1; R2 bank 0 read at 19\n"
              "E\t0\t1\tcu\n"
              "C\t1\nS\t0\t1\tbank\nL\t0\t2\treads queued at their banks\n"
              "C\t2\nE\t0\t1\tbank\n"
              "C\t1\nS\t0\t1\tocex\nL\t0\t2\tcollected, OC_EX slot busy\n"
              "C\t1\nE\t0\t0\tOC\nS\t0\t0\tDI\nE\t0\t1\tocex\n"
              "C\t1\nS\t0\t1\tunit\nL\t0\t2\tunit or result bus busy\n"
              "C\t1\nE\t0\t0\tDI\nS\t0\t0\tEX\nL\t0\t2\tunit SP, latency 4, interval 2\nE\t0\t1\tunit\n"
              "C\t4\nE\t0\t0\tEX\nS\t0\t0\tWB\n"
              "C\t1\nE\t0\t0\tWB\nR\t0\t0\t0\n");
}

} // namespace

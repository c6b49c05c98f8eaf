// The SM's writeback port calls the issue block's written-back event directly; with the port
// bound to another function instead (as a socket binding would be), the same drain sends the
// event through it: whole runs must come out the same, in faithful and fix mode.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "micro.hpp"

extern "C" {
#include "smtlm/port_calls.h"
}

namespace {

struct Outcome {
    smtlm_run_status status;
    uint64_t cycles, insn, last_progress, conflicts;
    std::vector<micro::Event> events;
};

void written_back_elsewhere(void *iss, const smtlm_inst *in, unsigned release_mask)
{
    smtlm_issue_written_back(static_cast<smtlm_issue *>(iss), in, release_mask);
}

Outcome run(const std::string &kind, int fix, bool general)
{
    smtlm_gpu_cfg cfg = micro::Runner::qv100();
    cfg.sm.rf.fix_wb_bank_conflict = fix;
    micro::Runner r(cfg);
    EXPECT_EQ(r.init_rc, SMTLM_OK);
    if (general) {
        r.sm()->wb.warps.ctx = &r.sm()->iss; // the same issue block through the ops
        r.sm()->wb.warps.written_back = written_back_elsewhere;
        r.sm()->wb.warps.issue = nullptr;
    }
    Outcome o;
    o.status = r.run(micro::program(kind, 150), 12);
    o.cycles = r.cycles();
    o.insn = r.insn();
    o.last_progress = r.sm()->last_progress;
    o.conflicts = r.sm()->stats.conflict_cycles;
    o.events = r.events;
    return o;
}

} // namespace

TEST(WritebackPaths, DirectDrainMatchesWbCycle)
{
    for (int fix : {0, 1})
        for (const char *kind : {"imix", "sfu", "dep", "dep3", "indep3", "lds4"}) {
            SCOPED_TRACE(std::string(kind) + (fix ? " fix" : ""));
            const Outcome a = run(kind, fix, false), b = run(kind, fix, true);
            EXPECT_EQ(a.status, SMTLM_RUN_DONE);
            EXPECT_EQ(a.status, b.status);
            EXPECT_EQ(a.cycles, b.cycles);
            EXPECT_EQ(a.insn, b.insn);
            EXPECT_EQ(a.last_progress, b.last_progress);
            EXPECT_EQ(a.conflicts, b.conflicts);
            ASSERT_EQ(a.events.size(), b.events.size());
            for (size_t i = 0; i < a.events.size(); i++)
                for (unsigned e = 0; e < SMTLM_EV_COUNT; e++)
                    ASSERT_EQ(a.events[i].ev[e], b.events[i].ev[e]) << i << " event " << e;
        }
}

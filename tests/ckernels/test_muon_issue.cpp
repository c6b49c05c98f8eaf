// The Muon scoreboard and reservation station composed by a tiny cycle model in the test, one
// warp, driving the WAR deadlock sequence
//     i0: lw  r7 <- r5      (writes r7, reads r5)
//     i1: add r5 <- r1      (WAR on i0's read of r5)
//     i2: sub r8 <- r5      (RAW on i1)
// and a variant where i0's read of r5 comes late, so option2's writeback stall shows. Under
// option2 (every admitted reader counts, busy ones included) i1's writeback waits for i2's
// count, and i2 can only read r5 after i1's writeback: nothing moves again, and the
// scoreboard's query names the stuck writer and the reader holding it. The other three options
// complete; every writeback cycle is pinned.
//
// Cycle model, phases in this order within cycle t:
//   A. writeback: the oldest instruction (program order) whose execution finished (done <= t)
//      and whose writeback the scoreboard allows writes back: pendingWrite cleared, the RS
//      wake-up broadcast; with forwarding, forwarded slots count as read (read-done). One per
//      cycle.
//   B. the collection requested at t-1 completes: slots ready, read-done.
//   C. the RS dispatches one eligible row (rr); it finishes at done = t + latency.
//   D. the RS picks the next collection (one outstanding request).
//   E. the warp's instruction-buffer head is admitted if the scoreboard and the RS allow.
// RS: 8 rows, round-robin, out of order; scoreboard counters 2 bits.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "muon_test_util.hpp"

namespace {

using muon::inst;

struct Op {
    int dst;
    std::vector<int> src;
    unsigned latency;
};

struct Machine {
    muon::Sb sb;
    muon::Rs rs;
    std::vector<smtlm_inst> prog; // tag = index, pc = 0x10 * index
    std::vector<unsigned> latency;
    std::vector<int64_t> done, wb;
    size_t next = 0;
    bool coll_busy = false;
    smtlm_muon_rs_pick coll{};
    int64_t last_progress = -1;

    Machine(smtlm_muon_war war, int forwarding, const std::vector<Op> &ops)
        : sb(muon::sb_cfg(war, forwarding)), rs(muon::rs_cfg(8, SMTLM_MUON_RS_RR, 0, forwarding))
    {
        for (size_t i = 0; i < ops.size(); i++) {
            prog.push_back(inst(0, {ops[i].dst}, ops[i].src, (uint32_t)(0x10 * i)));
            latency.push_back(ops[i].latency);
        }
        done.assign(ops.size(), -1);
        wb.assign(ops.size(), -1);
    }

    void cycle(int64_t t)
    {
        bool progress = false;
        for (size_t i = 0; i < prog.size(); i++) { // A
            if (done[i] < 0 || done[i] > t || wb[i] >= 0 || !smtlm_muon_sb_writeback(sb.get(), (smtlm_iref)i))
                continue;
            wb[i] = t;
            smtlm_muon_rs_fwd fwd[SMTLM_MUON_RS_MAX];
            const unsigned n = smtlm_muon_rs_wakeup(rs.get(), 0, prog[i].dst[0], fwd);
            for (unsigned k = 0; k < n; k++)
                smtlm_muon_sb_read_done(sb.get(), fwd[k].tag, fwd[k].slots);
            progress = true;
            break;
        }
        if (coll_busy) { // B
            smtlm_muon_rs_collected(rs.get(), coll.row, coll.slots);
            smtlm_muon_sb_read_done(sb.get(), coll.tag, coll.slots);
            coll_busy = false;
            progress = true;
        }
        smtlm_muon_rs_pick p;
        if (smtlm_muon_rs_dispatch(rs.get(), ~0ull, &p)) { // C
            done[p.tag] = t + latency[p.tag];
            progress = true;
        }
        if (smtlm_muon_rs_collect_pick(rs.get(), &coll)) // D
            coll_busy = progress = true;
        if (next < prog.size()) { // E
            const smtlm_inst *window[] = {&prog[next]};
            unsigned pick;
            smtlm_muon_sb_operands ops;
            if (smtlm_muon_sb_select(sb.get(), window, 1, &pick, nullptr) == 1 && smtlm_muon_rs_room(rs.get(), 0)) {
                EXPECT_EQ(smtlm_muon_sb_admit(sb.get(), (smtlm_iref)next, &prog[next], &ops), SMTLM_MUON_ADMIT);
                EXPECT_GE(smtlm_muon_rs_admit(rs.get(), (smtlm_iref)next, &prog[next], ops.busy, ops.none), 0);
                next++;
                progress = true;
            }
        }
        if (progress)
            last_progress = t;
    }

    bool finished() const
    {
        for (int64_t c : wb)
            if (c < 0)
                return false;
        return true;
    }

    void run(int64_t limit)
    {
        for (int64_t t = 0; t < limit && !finished(); t++)
            cycle(t);
    }

    // What a watchdog would print for each finished instruction whose writeback waits.
    std::string stuck_report() const
    {
        std::string s;
        for (size_t i = 0; i < prog.size(); i++) {
            if (done[i] < 0 || wb[i] >= 0)
                continue;
            smtlm_muon_sb_holder h[8];
            const unsigned n = smtlm_muon_sb_wb_blockers(sb.p.get(), (smtlm_iref)i, h, 8);
            char buf[128];
            std::snprintf(buf, sizeof buf, "warp %u pc 0x%x waits for:", (unsigned)prog[i].warp, (unsigned)prog[i].pc);
            s += buf;
            for (unsigned k = 0; k < n && k < 8; k++) {
                std::snprintf(buf, sizeof buf, " [pc 0x%x src %u r%d]", (unsigned)h[k].pc, (unsigned)h[k].slot,
                              (int)h[k].reg);
                s += buf;
            }
            s += ";";
        }
        return s;
    }
};

const std::vector<Op> kDeadlockSeq = {{7, {5}, 8}, {5, {1}, 2}, {8, {5}, 2}};

// option1, no forwarding (the RTL's scheme):
//   t0 E admit i0 (row 0; pendingReads r5 = 1)   t1 D collect i0; E i1 WAR-gated
//   t2 B i0 read (r5 = 0); C dispatch i0, done 10; E admit i1 (row 0)
//   t3 D collect i1; E admit i2 (row 1, r5 busy, counted)   t4 B; C dispatch i1, done 6
//   t6 A i1 writes back, wakes i2; D collect i2   t7 B; C dispatch i2, done 9
//   t9 A i2   t10 A i0
// option1 with forwarding: i2's busy read is not counted and the wake-up hands it the value:
//   t6 A i1 writes back, i2 ready; C dispatch i2, done 8   t8 A i2   t10 A i0
TEST(MuonIssue, DeadlockSequenceUnderOption1)
{
    Machine m(SMTLM_MUON_WAR_OPTION1, 0, kDeadlockSeq);
    m.run(100);
    EXPECT_EQ(m.wb, (std::vector<int64_t>{10, 6, 9}));
    Machine f(SMTLM_MUON_WAR_OPTION1, 1, kDeadlockSeq);
    f.run(100);
    EXPECT_EQ(f.wb, (std::vector<int64_t>{10, 6, 8}));
}

// option2: t0 E admit i0 (r5 = 1)   t1 D collect i0; E admit i1 (row 1: no WAR gate)
//   t2 B i0 read (r5 = 0); C dispatch i0, done 10; D collect i1; E admit i2 (row 0, r5 busy,
//   counted: r5 = 1)   t3 B; C dispatch i1, done 5
//   t5.. A i1 may not write back while r5 = 1; i2 cannot read r5 before i1 writes back.
//   t10 A i0 writes back: the last progress. Forwarding changes nothing (the count stays).
TEST(MuonIssue, DeadlockSequenceDeadlocksUnderOption2AndTheQueryNamesTheHolder)
{
    for (int fwd = 0; fwd <= 1; fwd++) {
        Machine m(SMTLM_MUON_WAR_OPTION2, fwd, kDeadlockSeq);
        m.run(200);
        EXPECT_FALSE(m.finished());
        EXPECT_EQ(m.last_progress, 10) << "no progress in the 189 cycles after i0's writeback";
        EXPECT_EQ(m.wb, (std::vector<int64_t>{10, -1, -1}));
        EXPECT_EQ(m.done[1], 5) << "i1 finished executing and waits at writeback";
        EXPECT_EQ(m.done[2], -1) << "i2 never dispatched";
        EXPECT_EQ(m.stuck_report(), "warp 0 pc 0x10 waits for: [pc 0x20 src 0 r5];");
        EXPECT_EQ(m.rs->n_valid, 1u);
        EXPECT_EQ(m.rs->row[0].busy, 1) << "i2 still waits for r5";
    }
}

// option2_fwd (forwarding required): as option2 up to t3, but i2's busy read is not counted:
//   t5 A i1 writes back (r5 = 0), i2 gets the value; C dispatch i2, done 7   t7 A i2   t10 A i0
TEST(MuonIssue, DeadlockSequenceCompletesUnderOption2Fwd)
{
    Machine m(SMTLM_MUON_WAR_OPTION2_FWD, 1, kDeadlockSeq);
    m.run(100);
    EXPECT_EQ(m.wb, (std::vector<int64_t>{10, 5, 7}));
}

// option2_epoch: as option2 up to t3, but i1 waits on epoch 0 of r5 (i0's read, done at t2)
// and i2 counts in epoch 1:
//   t5 A i1 writes back, wakes i2; D collect i2   t6 B; C dispatch i2, done 8   t8 A i2
//   t10 A i0. With forwarding: t5 A i1, i2 ready; C dispatch i2, done 7   t7 A i2.
TEST(MuonIssue, DeadlockSequenceCompletesUnderOption2Epoch)
{
    Machine m(SMTLM_MUON_WAR_OPTION2_EPOCH, 0, kDeadlockSeq);
    m.run(100);
    EXPECT_EQ(m.wb, (std::vector<int64_t>{10, 5, 8}));
    Machine f(SMTLM_MUON_WAR_OPTION2_EPOCH, 1, kDeadlockSeq);
    f.run(100);
    EXPECT_EQ(f.wb, (std::vector<int64_t>{10, 5, 7}));
}

// Late-reader variant: p1 (the WAR victim) also waits on p0, so it reads r5 only after p0's
// writeback at t8 and the younger writer p2 finishes first.
//   p0: lw r6 <- r9 (6)   p1: lw r7 <- r5, r6 (8)   p2: add r5 <- r1 (2)   p3: sub r8 <- r5 (2)
const std::vector<Op> kLate = {{6, {9}, 6}, {7, {5, 6}, 8}, {5, {1}, 2}, {8, {5}, 2}};

// option1 (no forwarding): t0 E p0   t1 D collect p0; E p1 (row 1, r6 busy)
//   t2 B; C dispatch p0, done 8; E p2 WAR-gated on r5 until p1 reads it
//   t8 A p0, wakes p1; D collect p1   t9 B (r5 = 0); C dispatch p1, done 17; E admit p2 (row 0)
//   t10 D collect p2; E admit p3 (row 1, r5 busy)   t11 B; C dispatch p2, done 13
//   t13 A p2, wakes p3; D collect p3   t14 B; C dispatch p3, done 16   t16 A p3   t17 A p1
// With forwarding p3 gets r5 at t13 and dispatches then: done 15.
TEST(MuonIssue, LateReaderUnderOption1GatesTheWriter)
{
    Machine m(SMTLM_MUON_WAR_OPTION1, 0, kLate);
    m.run(100);
    EXPECT_EQ(m.wb, (std::vector<int64_t>{8, 17, 13, 16}));
    Machine f(SMTLM_MUON_WAR_OPTION1, 1, kLate);
    f.run(100);
    EXPECT_EQ(f.wb, (std::vector<int64_t>{8, 17, 13, 15}));
}

// option2_fwd: t0 E p0   t1 D collect p0; E p1 (row 1, r6 busy, uncounted)
//   t2 B; C dispatch p0, done 8; E admit p2 (row 0)   t3 D collect p2; E admit p3 (row 2)
//   t4 B; C dispatch p2, done 6   t6..t9 A p2 waits: p1 has not read r5
//   t8 A p0, r6 forwarded to p1; D collect p1 (r5)   t9 B p1 reads r5; C dispatch p1, done 17
//   t10 A p2, r5 forwarded to p3; C dispatch p3, done 12   t12 A p3   t17 A p1
// option2_epoch (no forwarding): the same until t9 (p2 waits on epoch 0 of r5, p3 counts in
// epoch 1), then t10 A p2, wakes p3; D collect p3   t11 B; C dispatch p3, done 13   t13 A p3.
// option2_epoch with forwarding: as option2_fwd.
TEST(MuonIssue, LateReaderUnderOption2StallsTheWritebackInstead)
{
    Machine m(SMTLM_MUON_WAR_OPTION2_FWD, 1, kLate);
    m.run(100);
    EXPECT_EQ(m.wb, (std::vector<int64_t>{8, 17, 10, 12}));
    Machine e(SMTLM_MUON_WAR_OPTION2_EPOCH, 0, kLate);
    e.run(100);
    EXPECT_EQ(e.wb, (std::vector<int64_t>{8, 17, 10, 13}));
    Machine ef(SMTLM_MUON_WAR_OPTION2_EPOCH, 1, kLate);
    ef.run(100);
    EXPECT_EQ(ef.wb, (std::vector<int64_t>{8, 17, 10, 12}));
}

// option2 on the late-reader program: p1's busy read of r6 counts, so p0 cannot write back
// either. t0 E p0   t1 D collect p0; E p1   t2 B; C dispatch p0, done 8; E p2
//   t3 D collect p2; E p3 (r5 = 2)   t4 B; C dispatch p2, done 6: the last progress.
TEST(MuonIssue, LateReaderDeadlocksTwiceUnderOption2)
{
    Machine m(SMTLM_MUON_WAR_OPTION2, 0, kLate);
    m.run(200);
    EXPECT_EQ(m.last_progress, 4);
    EXPECT_EQ(m.wb, (std::vector<int64_t>{-1, -1, -1, -1}));
    EXPECT_EQ(m.stuck_report(), "warp 0 pc 0x0 waits for: [pc 0x10 src 1 r6];"
                                "warp 0 pc 0x20 waits for: [pc 0x10 src 0 r5] [pc 0x30 src 0 r5];");
}

} // namespace

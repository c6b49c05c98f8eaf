// Pipelined function unit (ring buffer) and result buses, called directly
// (GPGPU-Sim pipelined_simd_unit, m_result_bus). A call of smtlm_fu_cycle is one core cycle's
// pipelined_simd_unit::cycle(); smtlm_fu_issue happens after it in the same cycle (execute()
// cycles a unit, then issues into it), so "issued in cycle c" is followed by the calls of cycles
// c+1, c+2, ...
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "kernel_test_util.hpp"

extern "C" {
#include "smtlm/fu.h"
}

namespace {

struct Fu {
    std::unique_ptr<smtlm_fu> fu{new smtlm_fu};
    explicit Fu(smtlm_fu_kind kind = SMTLM_FU_SP, unsigned depth = 13, unsigned spec = 0)
    {
        rc = smtlm_fu_init(fu.get(), kind, spec, depth, 5, 0);
    }
    int rc;
    // Cycles until something leaves stage 0; returns the number of calls it took (0 = never
    // within `max`) and the instruction in *out.
    unsigned cycles_to_exwb(smtlm_iref *out, unsigned max = 600)
    {
        for (unsigned n = 1; n <= max; n++) {
            smtlm_iref r = smtlm_fu_cycle(fu.get());
            if (r != SMTLM_NO_INST) {
                *out = r;
                return n;
            }
        }
        return 0;
    }
};

TEST(FuInit, RejectsBadDepthAndKind)
{
    std::unique_ptr<smtlm_fu> fu(new smtlm_fu);
    EXPECT_EQ(smtlm_fu_init(fu.get(), SMTLM_FU_SP, 0, 0, 5, 0), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_fu_init(fu.get(), SMTLM_FU_SP, 0, SMTLM_MAX_LATENCY, 5, 0), SMTLM_ERANGE);
    EXPECT_EQ(smtlm_fu_init(fu.get(), SMTLM_FU_KINDS, 0, 13, 5, 0), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_fu_init(fu.get(), SMTLM_FU_SFU, 0, SMTLM_MAX_LATENCY - 1, 8, 3), SMTLM_OK);
    EXPECT_EQ(fu->issue_set, 8u);
    EXPECT_EQ(fu->issue_slot, 3u);
    EXPECT_TRUE(smtlm_fu_can_issue(fu.get(), 20));
}

// Issued in cycle c, an instruction reaches EX_WB in cycle c + latency + 1 for every (L, II):
// II cycles in the dispatch register, enters stage L-II at c+II, stage 0 at c+L, out at c+L+1.
TEST(Fu, ExWbExactlyLatencyPlusOneCyclesAfterIssue)
{
    const unsigned cases[][2] = {{1, 1}, {2, 2}, {2, 1}, {4, 1}, {4, 4}, {20, 8}, {12, 1}, {13, 13}};
    for (const auto &lc : cases) {
        Fu f;
        smtlm_fu_issue(f.fu.get(), 42, lc[0], lc[1]);
        smtlm_iref out = SMTLM_NO_INST;
        EXPECT_EQ(f.cycles_to_exwb(&out), lc[0] + 1) << "L " << lc[0] << " II " << lc[1];
        EXPECT_EQ(out, 42);
        EXPECT_EQ(f.fu->active, 0u);
        EXPECT_EQ(f.fu->dispatch, (smtlm_iref)SMTLM_NO_INST);
    }
}

// The dispatch register is held for II cycles: a second instruction can enter only II cycles
// after the first.
TEST(Fu, DispatchRegisterHeldForInitiationInterval)
{
    const unsigned iis[] = {1, 2, 8};
    for (unsigned ii : iis) {
        Fu f(SMTLM_FU_SFU, 330);
        smtlm_fu_issue(f.fu.get(), 1, 20, ii);
        EXPECT_FALSE(smtlm_fu_can_issue(f.fu.get(), 20));
        for (unsigned c = 1; c < ii; c++) {
            smtlm_fu_cycle(f.fu.get());
            EXPECT_FALSE(smtlm_fu_can_issue(f.fu.get(), 20)) << "II " << ii << " after " << c;
        }
        smtlm_fu_cycle(f.fu.get()); // the II-th cycle moves it into stage 20 - II
        EXPECT_EQ(f.fu->dispatch, (smtlm_iref)SMTLM_NO_INST);
        EXPECT_EQ(f.fu->active, 1u);
        EXPECT_TRUE(smtlm_fu_can_issue(f.fu.get(), 20)) << "II " << ii;
    }
}

// Back-to-back instructions of one unit come out II cycles apart, in order.
TEST(Fu, BackToBackIssueAtIiSpacingCompletesIiApart)
{
    Fu f;
    const unsigned L = 4, II = 2;
    unsigned issued = 0;
    std::vector<unsigned> out_cycle(4, 0);
    smtlm_fu_issue(f.fu.get(), 0, L, II); // cycle 0
    issued = 1;
    for (unsigned c = 1; c < 20; c++) {
        smtlm_iref r = smtlm_fu_cycle(f.fu.get());
        if (r != SMTLM_NO_INST)
            out_cycle[r] = c;
        if (issued < 4 && smtlm_fu_can_issue(f.fu.get(), L)) {
            EXPECT_EQ(c, issued * II);
            smtlm_fu_issue(f.fu.get(), (smtlm_iref)issued, L, II);
            issued++;
        }
    }
    for (unsigned i = 0; i < 4; i++)
        EXPECT_EQ(out_cycle[i], i * II + L + 1) << i;
    EXPECT_EQ(f.fu->issued, 4u);
}

// occupied[latency]: no two instructions of one unit may complete in the same cycle.
TEST(Fu, OccupiedBitPreventsTwoCompletionsInOneCycle)
{
    Fu f;
    smtlm_fu_issue(f.fu.get(), 1, 4, 1); // cycle 0: completes (reaches stage 0) at cycle 4
    smtlm_fu_cycle(f.fu.get());          // cycle 1: dispatch register free again
    EXPECT_EQ(f.fu->dispatch, (smtlm_iref)SMTLM_NO_INST);
    EXPECT_TRUE(smtlm_fu_occupied(f.fu.get(), 3));
    EXPECT_FALSE(smtlm_fu_can_issue(f.fu.get(), 3)); // 1 + 3 = 4: same completion cycle
    EXPECT_TRUE(smtlm_fu_can_issue(f.fu.get(), 4));
    EXPECT_TRUE(smtlm_fu_can_issue(f.fu.get(), 2));
    smtlm_fu_cycle(f.fu.get()); // cycle 2
    EXPECT_FALSE(smtlm_fu_can_issue(f.fu.get(), 2));
    smtlm_fu_cycle(f.fu.get()); // cycle 3
    smtlm_fu_cycle(f.fu.get()); // cycle 4: A in stage 0, its bit is bit 0
    EXPECT_TRUE(smtlm_fu_occupied(f.fu.get(), 0));
    EXPECT_TRUE(smtlm_fu_can_issue(f.fu.get(), 1));
    EXPECT_EQ(smtlm_fu_cycle(f.fu.get()), 1); // cycle 5: A leaves, its bit is shifted out
    EXPECT_FALSE(smtlm_fu_occupied(f.fu.get(), 0));
}

// The dispatch register releases into stage L-II only if that stage is empty (as Accel-Sim's GPGPU-Sim does).
// can_issue's occupied check normally makes this unreachable; an issue that bypasses it shows
// the rule: B waits in the dispatch register until its start stage is free.
TEST(Fu, StartStageMustBeEmpty)
{
    Fu f;
    smtlm_fu_issue(f.fu.get(), 1, 4, 1); // cycle 0; after cycle 1 it sits in stage 3
    smtlm_fu_cycle(f.fu.get());          // cycle 1
    smtlm_fu_issue(f.fu.get(), 2, 3, 1); // cycle 1, same completion slot (1 + 3 = 4)
    EXPECT_EQ(smtlm_fu_cycle(f.fu.get()), (smtlm_iref)SMTLM_NO_INST); // cycle 2: stage 2 holds A
    EXPECT_EQ(f.fu->dispatch, 2);
    smtlm_fu_cycle(f.fu.get()); // cycle 3: B enters stage 2
    EXPECT_EQ(f.fu->dispatch, (smtlm_iref)SMTLM_NO_INST);
    EXPECT_EQ(f.fu->active, 2u);
    EXPECT_EQ(smtlm_fu_cycle(f.fu.get()), (smtlm_iref)SMTLM_NO_INST); // cycle 4
    EXPECT_EQ(smtlm_fu_cycle(f.fu.get()), 1);                         // cycle 5 = 0 + 4 + 1
    EXPECT_EQ(smtlm_fu_cycle(f.fu.get()), 2);                         // cycle 6, one late
}

TEST(Fu, BusyCyclesCountDispatchRegisterAndStages)
{
    Fu f;
    smtlm_fu_issue(f.fu.get(), 1, 2, 2);
    smtlm_iref out;
    f.cycles_to_exwb(&out);
    EXPECT_EQ(smtlm_fu_busy_cycles(f.fu.get(), f.fu->t), 2u); // cycles c+1 (dispatch register), c+2 (stage 0)
    smtlm_fu_issue(f.fu.get(), 2, 20, 8);
    f.cycles_to_exwb(&out);
    EXPECT_EQ(smtlm_fu_busy_cycles(f.fu.get(), f.fu->t), 22u); // + 20
    smtlm_fu_cycle(f.fu.get());
    EXPECT_EQ(smtlm_fu_busy_cycles(f.fu.get(), f.fu->t), 22u); // idle cycles do not count
}

TEST(Fu, RingWrapsAroundWithoutStaleBits)
{
    Fu f(SMTLM_FU_SFU, 330);
    smtlm_iref out;
    for (unsigned i = 0; i < 40; i++) { // 40 x 21 cycles > 512: the ring wraps
        smtlm_fu_issue(f.fu.get(), (smtlm_iref)i, 20, 8);
        ASSERT_EQ(f.cycles_to_exwb(&out), 21u) << i;
        ASSERT_EQ(out, (smtlm_iref)i);
        ASSERT_TRUE(smtlm_fu_can_issue(f.fu.get(), 20));
    }
}

// A unit visited only in the cycles its calendar names behaves exactly like one visited every
// cycle (same instructions out in the same cycles, same can_issue answers, same state), and the
// busy count kept per busy interval equals the per-cycle count (a cycle counts when the unit
// holds an instruction after its visit, before that cycle's issue). Random (latency, II) pairs
// with II 0..latency: II 0 lands one stage late, which makes later issues find their start stage
// taken, so the dispatch-register retry path runs too.
TEST(Fu, CalendarVisitsMatchEveryCycleVisits)
{
    unsigned retried_all = 0;
    for (uint32_t seed = 1; seed <= 20; seed++) {
        Fu every, lazy;
        std::unique_ptr<smtlm_fu_cal> cal(new smtlm_fu_cal{});
        uint32_t x = seed;
        auto rnd = [&x](unsigned n) {
            x = x * 1103515245u + 12345u;
            return (x >> 16) % n;
        };
        uint64_t busy_ref = 0;
        unsigned issued = 0, retried = 0;
        for (uint64_t c = 1; c <= 3000; c++) {
            const smtlm_iref a = smtlm_fu_cycle(every.fu.get());
            ASSERT_EQ(every.fu->t, c);
            const bool due = cal->at[c & SMTLM_RING_MASK][0] & 1;
            cal->at[c & SMTLM_RING_MASK][0] = 0;
            const smtlm_iref b = due ? smtlm_fu_visit(lazy.fu.get(), cal.get(), 0, c) : (smtlm_iref)SMTLM_NO_INST;
            ASSERT_EQ(a, b) << "seed " << seed << " cycle " << c;
            ASSERT_EQ(every.fu->active, lazy.fu->active) << c;
            ASSERT_EQ(every.fu->dispatch, lazy.fu->dispatch) << c;
            busy_ref += smtlm_fu_busy(every.fu.get()) ? 1 : 0;
            if (c % 500 < 400 && rnd(3)) { // idle stretches end busy intervals
                const unsigned L = 1 + rnd(12), ii = rnd(L + 1);
                const bool ok = smtlm_fu_can_issue(every.fu.get(), L);
                ASSERT_EQ(ok, (bool)smtlm_fu_can_issue_at(lazy.fu.get(), c, L)) << c;
                if (ok) {
                    smtlm_fu_issue(every.fu.get(), (smtlm_iref)(issued % 1000), L, ii);
                    const int placed = smtlm_fu_issue_at(lazy.fu.get(), cal.get(), 0, (smtlm_iref)(issued % 1000), L, ii, c);
                    retried += placed ? 0 : 1;
                    issued++;
                }
            }
            ASSERT_EQ(smtlm_fu_busy_cycles(every.fu.get(), c), busy_ref) << c;
            ASSERT_EQ(smtlm_fu_busy_cycles(lazy.fu.get(), c), busy_ref) << c;
        }
        EXPECT_GT(issued, 500u) << seed;
        EXPECT_EQ(every.fu->issued, issued);
        EXPECT_EQ(lazy.fu->issued, issued);
        retried_all += retried;
    }
    EXPECT_GT(retried_all, 0u); // the dispatch register's retry path ran
}

TEST(FuAccepts, OpcodeFiltersPerUnitKind)
{
    struct Row {
        smtlm_fu_kind kind;
        unsigned spec;
        const char *accepted; // one character per smtlm_op: 1 accepted, 0 rejected, - not checked
    };
    // op order: SP DP SFU INTP ALU BRANCH TENSOR_CORE LOAD STORE MEMBAR BARRIER EXIT SPEC
    const Row rows[] = {
        // sp_unit: not SFU/LD/ST/MEMBAR/DP. (Tensor and specialized ops never reach an SP unit's
        // OC_EX set, so their filter is unobservable and not pinned.)
        {SMTLM_FU_SP, 0, "100111-00011-"},
        {SMTLM_FU_INT, 0, "000111-00011-"},    // int_unit: also not SP_OP
        {SMTLM_FU_DP, 0, "0100000000000"},     // dp_unit: only DP
        {SMTLM_FU_SFU, 0, "0110000000000"},    // sfu: SFU and DP (no-DP configs)
        {SMTLM_FU_TENSOR, 0, "0000001000000"}, // tensor_core
        {SMTLM_FU_SPEC, 2, "0000000000001"},   // specialized unit 2: its own id
    };
    for (const Row &row : rows) {
        Fu f(row.kind, 13, row.spec);
        for (unsigned op = 0; op < SMTLM_OP_COUNT; op++)
            if (row.accepted[op] != '-') {
                EXPECT_EQ(smtlm_fu_accepts(f.fu.get(), op, op == SMTLM_OP_SPEC ? 2 : 0), row.accepted[op] == '1')
                    << "kind " << row.kind << " op " << op;
            }
    }
    Fu spec2(SMTLM_FU_SPEC, 13, 2);
    EXPECT_FALSE(smtlm_fu_accepts(spec2.fu.get(), SMTLM_OP_SPEC, 1));
    EXPECT_FALSE(smtlm_fu_accepts(spec2.fu.get(), SMTLM_OP_SPEC, 3));
}

TEST(ResultBus, InitRejectsZeroAndTooMany)
{
    std::unique_ptr<smtlm_resbus> rb(new smtlm_resbus);
    EXPECT_EQ(smtlm_resbus_init(rb.get(), 0), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_resbus_init(rb.get(), SMTLM_MAX_RESULT_BUSES + 1), SMTLM_ERANGE);
    EXPECT_EQ(smtlm_resbus_init(rb.get(), SMTLM_MAX_RESULT_BUSES), SMTLM_OK);
}

TEST(ResultBus, FirstFreeBusAtLatencyUntilExhausted)
{
    std::unique_ptr<smtlm_resbus> rb(new smtlm_resbus);
    ASSERT_EQ(smtlm_resbus_init(rb.get(), 2), SMTLM_OK);
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 2), 0);
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 2), 1);
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 2), -1); // both buses hold bit 2
    EXPECT_EQ(rb->stalls, 1u);
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 3), 0);  // bit 3 is a different cycle
    smtlm_resbus_shift(rb.get());
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 1), -1); // old bit 2 is now bit 1
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 2), 1);  // old bit 3: bus 0 taken, bus 1 free
    smtlm_resbus_shift(rb.get());
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 0), -1); // after `latency` shifts: bit 0, still held
    smtlm_resbus_shift(rb.get());                     // ... and shifted out by the next one
    EXPECT_EQ(rb->stalls, 3u);
}

TEST(ResultBus, BitsAreFreedWhenShiftedOutAndTheRingIsReused)
{
    std::unique_ptr<smtlm_resbus> rb(new smtlm_resbus);
    ASSERT_EQ(smtlm_resbus_init(rb.get(), 1), SMTLM_OK);
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), 5), 0); // slot t0 + 5
    for (int i = 0; i < 6; i++)
        smtlm_resbus_shift(rb.get());
    // t0 + 6 + 511 = t0 + 517 maps onto the same ring position as t0 + 5: freed on the way.
    EXPECT_EQ(smtlm_resbus_reserve(rb.get(), SMTLM_MAX_LATENCY - 1), 0);
    EXPECT_EQ(rb->stalls, 0u);
}

} // namespace

// ---- the execute block alone, driven through its ports --------------------------------------

// A consumer of EX_WB that records hand-offs and can refuse them (back-pressure).
struct ExWbSink {
    std::vector<std::pair<smtlm_iref, uint64_t>> got;
    bool refuse = false;
    smtlm_stage_port ops()
    {
        return smtlm_stage_port{nullptr, this,
                               [](void *o, unsigned, int, unsigned) { return static_cast<ExWbSink *>(o)->refuse ? 0 : 1; },
                               [](void *o, unsigned set, int, unsigned, smtlm_iref r, uint64_t uid) {
                                   auto *k = static_cast<ExWbSink *>(o);
                                   if (k->refuse || set != SMTLM_EX_WB)
                                       return -1;
                                   k->got.emplace_back(r, uid);
                                   return 0;
                               },
                               nullptr};
    }
};

// One SP unit of depth 4: an FFMA of latency 2 taken from OC_EX_SP at cycle 1 is handed to
// writeback through the stage port latency + 1 = 3 calls later; a refused hand-off is reported.
TEST(Exec, DrivenAloneThroughItsPorts)
{
    ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8});
    std::unique_ptr<smtlm_exec> ex(new smtlm_exec);
    ASSERT_EQ(smtlm_exec_init(ex.get(), 1, 0), SMTLM_OK);
    ASSERT_EQ(smtlm_exec_add_units(ex.get(), SMTLM_FU_SP, 0, 1, 4, SMTLM_OC_EX_SP), SMTLM_OK);
    smtlm_exec_reset(ex.get()); // (its calendar and clock: a fresh heap object holds garbage)
    ExWbSink sink;
    const smtlm_stage_port out = sink.ops();
    smtlm_exec_bind(ex.get(), k.rs, &out, k.pool.get());
    EXPECT_TRUE(smtlm_exec_idle(ex.get()));
    smtlm_iref r = k.make(SMTLM_OP_SP, 0, 0, {3}, {5}, 2, 1);
    k.put(SMTLM_OC_EX_SP, 0, r);
    EXPECT_FALSE(smtlm_exec_idle(ex.get())); // its own input set holds work
    ASSERT_EQ(smtlm_exec_cycle(ex.get(), 1), SMTLM_OK);
    EXPECT_EQ(k.rs[SMTLM_OC_EX_SP].count, 0);
    EXPECT_EQ(k.get(r)->ev[SMTLM_EV_FU_ISSUE], 1u);
    for (uint64_t now = 2; now <= 3; now++) {
        ASSERT_EQ(smtlm_exec_cycle(ex.get(), now), SMTLM_OK);
        EXPECT_TRUE(sink.got.empty()) << now;
    }
    ASSERT_EQ(smtlm_exec_cycle(ex.get(), 4), SMTLM_OK);
    ASSERT_EQ(sink.got.size(), 1u);
    EXPECT_EQ(sink.got[0].first, r);
    EXPECT_TRUE(smtlm_exec_idle(ex.get()));
    // EX_WB refusing a finished instruction is an error the SM reports (results must not vanish).
    smtlm_iref r2 = k.make(SMTLM_OP_SP, 0, 0, {3}, {6}, 2, 1);
    k.put(SMTLM_OC_EX_SP, 0, r2);
    sink.refuse = true;
    int rc = SMTLM_OK;
    for (uint64_t now = 5; now <= 9 && rc == SMTLM_OK; now++)
        rc = smtlm_exec_cycle(ex.get(), now);
    EXPECT_EQ(rc, SMTLM_EFULL);
    EXPECT_EQ(ex->exwb_overflow, 1u);
}

// EX_WB refusing unit 0's result stops the cycle there: unit 1 does not cycle, so that cycle is
// not in its busy count (kept per busy interval, it must be taken back). Two SP units (not
// sub-core), one result bus: A (latency 2) and B (latency 3) issue in cycle 1 to units 0 and 1;
// A leaves in cycle 1 + 2 + 1 = 4 and is refused. Unit 0 was busy in cycles 2 and 3 (in cycle 4
// it emptied before the refusal); unit 1 in cycles 2 and 3, not 4.
TEST(Exec, RefusedResultStopsTheCycleForLaterUnitsBusyCount)
{
    ktu::KernelCtx k(ktu::RfSetup{{16, SMTLM_ALLOC_FIFO, 0}, {4, 1}, 8});
    std::unique_ptr<smtlm_exec> ex(new smtlm_exec);
    ASSERT_EQ(smtlm_exec_init(ex.get(), 1, 0), SMTLM_OK);
    ASSERT_EQ(smtlm_exec_add_units(ex.get(), SMTLM_FU_SP, 0, 2, 8, SMTLM_OC_EX_SP), SMTLM_OK);
    smtlm_exec_reset(ex.get()); // (its calendar and clock: a fresh heap object holds garbage)
    ExWbSink sink;
    const smtlm_stage_port out = sink.ops();
    smtlm_exec_bind(ex.get(), k.rs, &out, k.pool.get());
    smtlm_iref a = k.make(SMTLM_OP_SP, 0, 0, {3}, {5}, 2, 1);
    smtlm_iref b = k.make(SMTLM_OP_SP, 1, 0, {3}, {6}, 3, 1);
    k.put(SMTLM_OC_EX_SP, 0, a);
    k.put(SMTLM_OC_EX_SP, 1, b);
    ASSERT_EQ(smtlm_exec_cycle(ex.get(), 1), SMTLM_OK);
    EXPECT_EQ(ex->fu[0].issued, 1u);
    EXPECT_EQ(ex->fu[1].issued, 1u);
    for (uint64_t now = 2; now <= 3; now++)
        ASSERT_EQ(smtlm_exec_cycle(ex.get(), now), SMTLM_OK);
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(ex.get(), 0), 2u);
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(ex.get(), 1), 2u);
    sink.refuse = true;
    EXPECT_EQ(smtlm_exec_cycle(ex.get(), 4), SMTLM_EFULL);
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(ex.get(), 0), 2u);
    EXPECT_EQ(smtlm_exec_unit_busy_cycles(ex.get(), 1), 2u);
    EXPECT_TRUE(smtlm_exec_busy(ex.get())); // B is still in unit 1
}

// The scoreboard verdicts cached ahead of examine: issue_warp's for the ibuffer's second
// instruction (issue_sched.c: a warp whose next instruction reads or writes a register the
// issued one just reserved) and decode's for a refilled ibuffer's first instruction
// (warp_ib_filled, issue_internal.h). Such a warp is known stuck from the next cycle on, and the walks count its scoreboard stall in bulk instead
// of examining it. That count is what examine would give only if every cached verdict is true,
// so after every cycle of random traffic (dependent pairs, registers above 63 whose summary bits
// alias low ones, long loads, membars, atomics, barriers, early exits; every policy, single and
// dual issue) each cached "blocked" verdict is checked with the full per-register test, and the
// shortcuts must have fired.
#include <gtest/gtest.h>

#include <ostream>

#include "kernel_test_util.hpp"

namespace {

using ktu::ffma;
using ktu::prog;

// Registers of the random programs: low ones, and high ones aliasing them modulo 64.
int reg(ktu::Lcg &rng)
{
    static const int regs[] = {3, 4, 5, 6, 7, 67, 68, 69, 70};
    return regs[rng(sizeof regs / sizeof regs[0])];
}

// One program per warp: body(rng, w, q) appends warp w's instructions to q.
template <class Body> std::vector<std::vector<smtlm_inst_desc>> programs(uint32_t seed, unsigned warps, Body body)
{
    ktu::Lcg rng{seed};
    std::vector<std::vector<smtlm_inst_desc>> p;
    for (unsigned w = 0; w < warps; w++) {
        std::vector<smtlm_inst_desc> q;
        body(rng, w, q);
        p.push_back(prog(q));
    }
    return p;
}

std::vector<std::vector<smtlm_inst_desc>> random_programs(uint32_t seed, unsigned warps)
{
    return programs(seed, warps, [](ktu::Lcg &rng, unsigned w, std::vector<smtlm_inst_desc> &q) {
        const unsigned n = 20 + rng(20);
        for (unsigned i = 0; i < n; i++) {
            const int d = reg(rng);
            switch (rng(12)) {
            case 0:
                q.push_back(ktu::global(SMTLM_OP_LOAD, d, {reg(rng)}, 0x1000 + 0x100 * w, 4));
                break;
            case 1:
                q.push_back(ktu::alu(SMTLM_OP_MEMBAR, -1, {}, 1, 1));
                break;
            case 2: {
                smtlm_inst_desc a = ktu::global(SMTLM_OP_LOAD, d, {reg(rng)}, 0x2000, 4);
                a.atomic = 1;
                q.push_back(a);
                break;
            }
            case 3:
                q.push_back(ktu::mufu(d, {reg(rng)}));
                break;
            default: // a dependent pair half of the time
                q.push_back(ffma(d, {reg(rng), reg(rng)}));
                q.push_back(ffma(reg(rng), {rng(2) ? d : reg(rng), reg(rng)}));
                break;
            }
            if (i == n / 2)
                q.push_back(ktu::bar());
        }
        if (w % 5 == 3)
            q.push_back(ktu::exit_mask(0x0000FFFFu)); // half the lanes leave early
        q.push_back(ktu::bar());
        q.push_back(ffma(reg(rng), {reg(rng)}));
    });
}

// Dependent chains (each instruction reads the last one's result, as in the dep reference
// input): a refilled ibuffer's first instruction usually waits on the pair issued before it.
std::vector<std::vector<smtlm_inst_desc>> chain_programs(uint32_t seed, unsigned warps)
{
    return programs(seed, warps, [](ktu::Lcg &rng, unsigned, std::vector<smtlm_inst_desc> &q) {
        const unsigned n = 30 + rng(20);
        for (unsigned i = 0; i < n; i++)
            q.push_back(rng(8) ? ffma(2, {2, 4, 6}) : ktu::mufu(2, {reg(rng)}));
    });
}

// Every cached verdict of a live warp with an instruction is a real collision; counts the
// warps cached in the cycle they issued (the shortcut, not examine, set those) in *pre, and
// the warps cached whose ibuffer decode refilled in this cycle (slot 0 now next, while at the
// cycle's start slot 1 was next or the ibuffer was empty; decode runs last and starts by
// dropping the warp's verdict, so decode set those) in *dec.
void check_verdicts(const smtlm_issue &iss, uint64_t now, const uint64_t *issued_before, const uint8_t *next_before,
                    uint64_t empty_before, unsigned *pre, unsigned *dec)
{
    for (unsigned w = 0; w < iss.cfg.max_warps; w++) {
        const smtlm_warp &wp = iss.warp[w];
        if (wp.done_exit || !(iss.sb_blocked & ~iss.sb.dirty & (1ull << w)) || !wp.ib_valid[wp.next])
            continue;
        const smtlm_inst *in = &iss.ports.pool->inst[wp.ib[wp.next]];
        EXPECT_NE(smtlm_sb_collision(&iss.sb, w, in), 0) << "cycle " << now << " warp " << w;
        if (wp.next == 0 && (next_before[w] == 1 || (empty_before >> w & 1)))
            (*dec)++;
        else if (iss.warp_stall[w][SMTLM_WS_ISSUED] != issued_before[w])
            (*pre)++;
    }
}

struct Case {
    smtlm_sched_policy policy;
    bool dual;
};
void PrintTo(const Case &c, std::ostream *os) { *os << "policy " << c.policy << (c.dual ? " dual" : ""); }

class IssuePreVerdict : public ::testing::TestWithParam<Case> {};

TEST_P(IssuePreVerdict, CachedVerdictsAreTrueEveryCycle)
{
    smtlm_sm_cfg cfg = GetParam().dual ? ktu::titanx() : ktu::qv100();
    cfg.issue.policy = GetParam().policy;
    if (cfg.issue.policy == SMTLM_SCHED_TWO_LEVEL)
        cfg.issue.two_level_active = 2;
    unsigned pre = 0, dec = 0;
    for (uint32_t seed = 1; seed <= 9; seed++) {
        ktu::Rig rig(cfg, 15 + seed, 64);
        ASSERT_EQ(rig.init_rc, SMTLM_OK);
        ASSERT_GE(rig.load(seed <= 6 ? random_programs(seed, 8 + 2 * seed) : chain_programs(seed, 4 * seed)), 0);
        uint64_t before[SMTLM_MAX_WARPS] = {}, empty_before = ~0ull;
        uint8_t next_before[SMTLM_MAX_WARPS] = {};
        rig.after_cycle = [&](ktu::Rig &r) {
            const smtlm_issue &iss = r.sm()->iss;
            check_verdicts(iss, r.now(), before, next_before, empty_before, &pre, &dec);
            empty_before = iss.ib_empty;
            for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++)
                next_before[w] = iss.warp[w].next;
            for (unsigned w = 0; w < SMTLM_MAX_WARPS; w++)
                before[w] = iss.warp_stall[w][SMTLM_WS_ISSUED];
        };
        rig.run();
        ASSERT_EQ(rig.last_rc, SMTLM_OK);
        EXPECT_FALSE(rig.active());
    }
    EXPECT_GT(pre, 20u); // the shortcuts ran
    EXPECT_GT(dec, 20u);
}

INSTANTIATE_TEST_SUITE_P(Policies, IssuePreVerdict,
                         ::testing::Values(Case{SMTLM_SCHED_LRR, false}, Case{SMTLM_SCHED_GTO, false},
                                           Case{SMTLM_SCHED_OLDEST, false}, Case{SMTLM_SCHED_RRR, false},
                                           Case{SMTLM_SCHED_TWO_LEVEL, false}, Case{SMTLM_SCHED_LRR, true},
                                           Case{SMTLM_SCHED_GTO, true}));

} // namespace

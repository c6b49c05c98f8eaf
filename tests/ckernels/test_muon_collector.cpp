// Muon operand collector, called directly: each strategy's bank and port conflicts on crafted
// operand sets (exact readResp cycles), writeback forwarding taking the bank egress from a
// granted read (which is re-scheduled), a read that loses arbitration, caching reuse and
// invalidation, the readReq -> execute-input timing with the reservation station, and the
// configuration and call-order checks.
//
// Timing rule used in every derivation (docs/MUON.md): a read granted by arbitrate(g) reaches
// the bank egress in g + 1, so an entry whose last read was granted in g answers readResp in
// g + 1 and its data is on readData (execute input) in g + 2. A forward at writeback cycle w
// lands in w, so readResp in w. Bank = reg mod N.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "muon_test_util.hpp"

extern "C" {
#include "smtlm/muon_collector.h"
}

namespace {

smtlm_muon_coll_cfg cfg(smtlm_muon_coll_kind kind, unsigned banks, unsigned entries, unsigned cbanks = 3,
                        int forwarding = 0, int zero_reg = 0)
{
    smtlm_muon_coll_cfg c{};
    c.n_warps = 8;
    c.kind = kind;
    c.prf_banks = banks;
    c.entries = entries;
    c.collector_banks = cbanks;
    c.forwarding = forwarding;
    c.zero_reg = zero_reg;
    return c;
}

// A request: regs[i] is slot i's register (-1: slot not requested; 0: nothing to read).
smtlm_muon_coll_req req(unsigned tag, std::vector<int> regs, unsigned wait = 0, unsigned warp = 0, unsigned fu = 0)
{
    smtlm_muon_coll_req r{};
    r.tag = (uint16_t)tag;
    r.warp = (uint16_t)warp;
    r.fu = (uint8_t)fu;
    r.wait = (uint8_t)wait;
    for (size_t s = 0; s < regs.size(); s++)
        if (regs[s] >= 0) {
            r.slots |= (uint8_t)(1u << s);
            r.reg[s] = regs[s];
        }
    return r;
}

using Wb = std::pair<unsigned, int>; // (warp, register)

// Drives the collector in the documented call order and records, per tag, the readResp cycle.
// With auto_release an answered entry is released (readData) in the cycle after its readResp.
struct Harness {
    std::unique_ptr<smtlm_muon_coll> c{new smtlm_muon_coll};
    int rc;
    bool auto_release = true;
    std::map<unsigned, uint64_t> resp_cycle;
    std::map<unsigned, smtlm_muon_coll_resp> resp;
    std::set<unsigned> released;

    explicit Harness(const smtlm_muon_coll_cfg &cf) { rc = smtlm_muon_coll_init(c.get(), &cf); }
    smtlm_muon_coll *operator->() { return c.get(); }

    // One cycle t; returns each request's result (entry index or error).
    std::vector<int> cycle(uint64_t t, std::vector<smtlm_muon_coll_req> reqs = {}, std::vector<Wb> wbs = {})
    {
        for (const Wb &w : wbs)
            EXPECT_EQ(smtlm_muon_coll_writeback(c.get(), t, w.first, w.second), SMTLM_OK);
        smtlm_muon_coll_resp out[SMTLM_MUON_COLL_MAX_ENTRIES];
        const int n = smtlm_muon_coll_deliver(c.get(), t, out);
        EXPECT_GE(n, 0) << "cycle " << t;
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(resp_cycle.count(out[i].tag), 0u) << "tag " << out[i].tag << " answered twice";
            resp_cycle[out[i].tag] = t;
            resp[out[i].tag] = out[i];
        }
        if (auto_release)
            for (auto &kv : resp)
                if (resp_cycle[kv.first] < t && !released.count(kv.first)) {
                    EXPECT_EQ(smtlm_muon_coll_release(c.get(), t, kv.second.entry), SMTLM_OK);
                    released.insert(kv.first);
                }
        std::vector<int> got;
        for (const smtlm_muon_coll_req &r : reqs)
            got.push_back(smtlm_muon_coll_request(c.get(), t, &r));
        EXPECT_EQ(smtlm_muon_coll_arbitrate(c.get(), t), SMTLM_OK);
        return got;
    }

    // Cycles from..to (inclusive) with nothing new.
    void idle(uint64_t from, uint64_t to)
    {
        for (uint64_t t = from; t <= to; t++)
            cycle(t);
    }

    uint64_t at(unsigned tag) { return resp_cycle.count(tag) ? resp_cycle[tag] : ~0ull; }
};

bool mentions(const char *msg, const char *what) { return msg && std::string(msg).find(what) != std::string::npos; }

TEST(MuonCollector, InitValidatesTheConfigurationAndNamesTheOption)
{
    std::unique_ptr<smtlm_muon_coll> c(new smtlm_muon_coll);
    smtlm_muon_coll_cfg k = cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2);
    k.n_warps = 0;
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_EINVAL);
    k.n_warps = SMTLM_MAX_WARPS + 1;
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_ERANGE);
    k = cfg((smtlm_muon_coll_kind)5, 4, 2);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_EINVAL);
    EXPECT_TRUE(mentions(c->cfg_error, "-smtlm_muon_collector"));
    for (unsigned banks : {0u, SMTLM_MAX_BANKS + 1u}) {
        k = cfg(SMTLM_MUON_COLL_SRC_BANKED, banks, 2);
        EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_ERANGE);
        EXPECT_TRUE(mentions(c->cfg_error, "-smtlm_muon_prf_banks"));
    }
    for (unsigned entries : {0u, SMTLM_MUON_COLL_MAX_ENTRIES + 1u}) {
        k = cfg(SMTLM_MUON_COLL_DUPLICATED, 1, entries);
        EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_ERANGE);
        EXPECT_TRUE(mentions(c->cfg_error, "-smtlm_muon_collector_entries"));
    }
    k = cfg(SMTLM_MUON_COLL_MIN_BANKED, 8, 2);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_EINVAL) << "minimally banked: a single entry";
    EXPECT_TRUE(mentions(c->cfg_error, "-smtlm_muon_collector_entries"));
    for (smtlm_muon_coll_kind kind : {SMTLM_MUON_COLL_SRC_BANKED, SMTLM_MUON_COLL_CACHING})
        for (unsigned cb : {0u, (unsigned)SMTLM_MAX_SRC + 1}) {
            k = cfg(kind, 4, 2, cb);
            EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_ERANGE);
            EXPECT_TRUE(mentions(c->cfg_error, "-smtlm_muon_collector"));
        }
    k = cfg(SMTLM_MUON_COLL_INST_BANKED, 4, 9, SMTLM_MUON_COLL_MAX_FU_BANKS + 1);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_ERANGE);
    k = cfg(SMTLM_MUON_COLL_INST_BANKED, 4, 6, 4);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_EINVAL) << "6 entries over 4 FU banks";
    EXPECT_TRUE(mentions(c->cfg_error, "-smtlm_muon_collector_entries"));
    k = cfg(SMTLM_MUON_COLL_DUPLICATED, 1, 2, 3, 0, -1);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_ERANGE);

    // Accepted: each strategy at its limits; collector_banks is ignored where it has no meaning.
    k = cfg(SMTLM_MUON_COLL_DUPLICATED, SMTLM_MAX_BANKS, SMTLM_MUON_COLL_MAX_ENTRIES, 0);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_OK);
    EXPECT_EQ(c->cfg_error, nullptr);
    k = cfg(SMTLM_MUON_COLL_MIN_BANKED, 8, 1, 0);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_OK);
    k = cfg(SMTLM_MUON_COLL_INST_BANKED, 4, 32, 4);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_OK);
    EXPECT_EQ(c->per_fu, 8u);
    k = cfg(SMTLM_MUON_COLL_CACHING, 8, 4, 4, 1, 256);
    EXPECT_EQ(smtlm_muon_coll_init(c.get(), &k), SMTLM_OK);
    EXPECT_STREQ(smtlm_muon_coll_kind_name(SMTLM_MUON_COLL_INST_BANKED), "inst_banked");
}

// The RTL's machine: duplicated collector, 1 PRF bank, 2 entries. Two instructions requested in
// cycle 5 read six operands, all in bank 0, yet every read is granted in 5 (a PRF copy per
// slot: no conflicts), so both answer readResp in 6 and read their data in 7. Both entries are
// taken until then: a third request in 6 is refused, and in 7 it reuses an entry released in the
// same cycle.
TEST(MuonCollector, DuplicatedAnswersTheCycleAfterTheRequestWhateverTheBanks)
{
    Harness h(cfg(SMTLM_MUON_COLL_DUPLICATED, 1, 2));
    ASSERT_EQ(h.rc, SMTLM_OK);
    h.auto_release = false;
    EXPECT_EQ(h.cycle(5, {req(1, {1, 2, 3}), req(2, {1, 1, 2})}), (std::vector<int>{0, 1}));
    EXPECT_EQ(h.cycle(6, {req(3, {4})}), (std::vector<int>{SMTLM_EFULL}));
    EXPECT_EQ(h.at(1), 6u);
    EXPECT_EQ(h.at(2), 6u);
    EXPECT_FALSE(smtlm_muon_coll_can_accept(h.c.get(), 0));
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 6, 0), SMTLM_EINPUT) << "readData only from the next cycle";
    // cycle 7: release entry 0 (readData), then the refused request comes back and gets entry 0
    smtlm_muon_coll_resp out[SMTLM_MUON_COLL_MAX_ENTRIES];
    EXPECT_EQ(smtlm_muon_coll_deliver(h.c.get(), 7, out), 0);
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 7, 0), SMTLM_OK);
    smtlm_muon_coll_req r3 = req(3, {4});
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 7, &r3), 0);
    EXPECT_EQ(smtlm_muon_coll_arbitrate(h.c.get(), 7), SMTLM_OK);
    EXPECT_EQ(h->st.prf_reads, 7u);
    EXPECT_EQ(h->st.bank_reads[0], 7u);
    EXPECT_EQ(h->st.conflict_waits, 0u);
}

// The RTL timing point, with the reservation station: the RS picks the row to collect in cycle
// t = 3 and requests it; readResp in 4 marks the row's operands collected, the row dispatches in
// 4 into the issue latch, and readData in 5 hands the operands to execute: request -> execute
// input = 2 cycles.
TEST(MuonCollector, RequestToExecuteInputIsTwoCyclesWithTheReservationStation)
{
    muon::Rs rs(muon::rs_cfg(8));
    Harness h(cfg(SMTLM_MUON_COLL_DUPLICATED, 1, 2));
    h.auto_release = false;
    const smtlm_inst in = muon::inst(0, {9}, {5, 6, 7});
    ASSERT_EQ(smtlm_muon_rs_admit(rs.get(), 42, &in, 0, 0), 0);

    smtlm_muon_rs_pick pick;
    ASSERT_EQ(smtlm_muon_rs_collect_pick(rs.get(), &pick), 1);
    smtlm_muon_coll_req r = req(pick.tag, {in.src[0], in.src[1], in.src[2]});
    EXPECT_EQ(r.slots, pick.slots);
    EXPECT_EQ(h.cycle(3, {r}), (std::vector<int>{0}));
    EXPECT_EQ(smtlm_muon_rs_eligible(rs.get()), 0u);

    h.cycle(4);
    ASSERT_EQ(h.at(42), 4u);
    smtlm_muon_rs_collected(rs.get(), pick.row, h.resp[42].slots);
    smtlm_muon_rs_pick issued;
    ASSERT_EQ(smtlm_muon_rs_dispatch(rs.get(), ~0ull, &issued), 1) << "eligible in the readResp cycle";
    EXPECT_EQ(issued.tag, 42);
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 4, h.resp[42].entry), SMTLM_EINPUT);
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 5, h.resp[42].entry), SMTLM_OK) << "execute input in 3 + 2";
}

// src_banked, N = 4 PRF banks, 3 collector banks (slot mod 3).
//   A (r1, r5, r9): banks 1, 1, 1 on ports 0, 1, 2 -> one read of bank 1 per cycle: grants in 0,
//   1, 2 -> readResp 3. Conflict waits: slots 1, 2 in cycle 0, slot 2 in cycle 1 = 3.
//   B (r1, r2, r3): banks 1, 2, 3, ports 0, 1, 2 -> all granted in 0 -> readResp 1.
TEST(MuonCollector, SrcBankedSerialisesReadsOfOnePrfBank)
{
    Harness a(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2));
    a.cycle(0, {req(1, {1, 5, 9})});
    a.idle(1, 3);
    EXPECT_EQ(a.at(1), 3u);
    EXPECT_EQ(a->st.conflict_waits, 3u);
    EXPECT_EQ(a->st.bank_reads[1], 3u);

    Harness b(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2));
    b.cycle(0, {req(2, {1, 2, 3})});
    b.idle(1, 1);
    EXPECT_EQ(b.at(2), 1u);
    EXPECT_EQ(b->st.conflict_waits, 0u);
}

// src_banked, N = 4, 3 collector banks: operands of different PRF banks still conflict when they
// are written into the same collector bank.
//   I1 (r1) and I2 (r2) both in slot 0 -> port 0 twice: I1 (older) in 0, I2 in 1 -> readResp 1, 2.
//   I3 (r1) and I4 (-, r2): ports 0 and 1 -> both in 0 -> readResp 1, 1.
//   I5 (r1, r2, r3, r4): banks 1, 2, 3, 0 are distinct, but slot 3 -> port 3 mod 3 = 0 as slot 0:
//   slot 3 in cycle 1 -> readResp 2. With 4 collector banks every slot has its own: readResp 1.
TEST(MuonCollector, SrcBankedCollectorBankIsTheSlotModTheBanks)
{
    Harness h(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 4));
    h.cycle(0, {req(1, {1}), req(2, {2})});
    h.idle(1, 2);
    EXPECT_EQ(h.at(1), 1u);
    EXPECT_EQ(h.at(2), 2u);

    h.cycle(3, {req(3, {1}), req(4, {-1, 2})});
    h.idle(4, 4);
    EXPECT_EQ(h.at(3), 4u);
    EXPECT_EQ(h.at(4), 4u);

    Harness three(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2, 3));
    three.cycle(0, {req(5, {1, 2, 3, 4})});
    three.idle(1, 2);
    EXPECT_EQ(three.at(5), 2u);
    Harness four(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2, 4));
    four.cycle(0, {req(5, {1, 2, 3, 4})});
    four.idle(1, 1);
    EXPECT_EQ(four.at(5), 1u);
}

// inst_banked, N = 4, 4 entries over 2 FU banks (entries 0-1: FU 0, entries 2-3: FU 1). Each FU
// bank writes one operand per cycle.
//   cycle 0: I1 (FU 0; r1, r2, r3) s0 bank 1 port 0 granted; its s1, s2 wait for port 0.
//            I2 (FU 1; r4, r8)     s0 bank 0 port 1 granted; s1 waits for port 1.
//            I3 (FU 0; r7)         port 0 taken by I1 -> waits.
//   cycle 1: I1 s1 (bank 2) and I2 s1 (bank 0) granted; I1 s2 and I3 wait for port 0.
//   cycle 2: I1 s2 (bank 3) granted; I3 waits.     cycle 3: I3 granted.
//   readResp: I2 in 2, I1 in 3, I3 in 4: an instruction with n operands takes n cycles at least.
TEST(MuonCollector, InstBankedWritesOneOperandPerFuBankPerCycle)
{
    Harness h(cfg(SMTLM_MUON_COLL_INST_BANKED, 4, 4, 2));
    ASSERT_EQ(h.rc, SMTLM_OK);
    EXPECT_EQ(h.cycle(0, {req(1, {1, 2, 3}, 0, 0, 0), req(2, {4, 8}, 0, 1, 1), req(3, {7}, 0, 2, 0)}),
              (std::vector<int>{0, 2, 1}));
    EXPECT_FALSE(smtlm_muon_coll_can_accept(h.c.get(), 0)) << "FU 0's two entries are taken";
    EXPECT_TRUE(smtlm_muon_coll_can_accept(h.c.get(), 1));
    EXPECT_FALSE(smtlm_muon_coll_can_accept(h.c.get(), 2)) << "no FU bank 2";
    EXPECT_EQ(h.cycle(1, {req(4, {5}, 0, 3, 0), req(5, {5}, 0, 3, 2)}),
              (std::vector<int>{SMTLM_EFULL, SMTLM_EINPUT}));
    h.idle(2, 4);
    EXPECT_EQ(h.at(2), 2u);
    EXPECT_EQ(h.at(1), 3u);
    EXPECT_EQ(h.at(3), 4u);
    EXPECT_EQ(h->st.prf_reads, 6u);
}

// min_banked, N = 8, one entry of flip-flops: only PRF banks conflict.
//   I1 (r1, r9, r2): banks 1, 1, 2 -> s0 and s2 in cycle 0 (no collector port to share), s1 in
//   1 -> readResp 2, released (readData) in 3.
//   I2 asked in 1 and 2 is refused (the entry is held); in 3 it gets the entry released in the
//   same cycle: (r1, r2, r3) all distinct -> readResp 4.
TEST(MuonCollector, MinBankedHoldsOneInstructionAndOnlyPrfBanksConflict)
{
    Harness h(cfg(SMTLM_MUON_COLL_MIN_BANKED, 8, 1));
    ASSERT_EQ(h.rc, SMTLM_OK);
    EXPECT_EQ(h.cycle(0, {req(1, {1, 9, 2})}), (std::vector<int>{0}));
    EXPECT_EQ(h.cycle(1, {req(2, {1, 2, 3})}), (std::vector<int>{SMTLM_EFULL}));
    EXPECT_EQ(h.cycle(2, {req(2, {1, 2, 3})}), (std::vector<int>{SMTLM_EFULL}));
    EXPECT_EQ(h.at(1), 2u);
    EXPECT_EQ(h.cycle(3, {req(2, {1, 2, 3})}), (std::vector<int>{0}));
    h.idle(4, 4);
    EXPECT_EQ(h.at(2), 4u);
    EXPECT_EQ(h->st.conflict_waits, 1u);
}

// Arbitration age: two reads of bank 1 (r1 in slot 0, r5 in slot 1: different ports) requested
// in the same cycle; the older request wins, the other is re-scheduled and granted next cycle.
// Swapping the request order swaps the outcome; the duplicated collector grants both.
TEST(MuonCollector, AReadThatLosesArbitrationIsGrantedInALaterCycle)
{
    Harness h(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2));
    h.cycle(0, {req(1, {1}), req(2, {-1, 5})});
    h.idle(1, 2);
    EXPECT_EQ(h.at(1), 1u);
    EXPECT_EQ(h.at(2), 2u);
    EXPECT_EQ(h->st.conflict_waits, 1u);
    EXPECT_EQ(h->st.bank_reads[1], 2u);

    Harness swapped(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2));
    swapped.cycle(0, {req(2, {-1, 5}), req(1, {1})});
    swapped.idle(1, 2);
    EXPECT_EQ(swapped.at(2), 1u);
    EXPECT_EQ(swapped.at(1), 2u);

    Harness dup(cfg(SMTLM_MUON_COLL_DUPLICATED, 4, 2));
    dup.cycle(0, {req(1, {1}), req(2, {-1, 5})});
    dup.idle(1, 1);
    EXPECT_EQ(dup.at(1), 1u);
    EXPECT_EQ(dup.at(2), 1u);
}

// Forwarding priority at the bank egress (src_banked, N = 4, forwarding on).
//   cycle 0: X (r2, slot 0, bank 2) is granted; its data would reach bank 2's egress in 1.
//            Y (-, r6 waiting) waits for the writeback of r6 (also bank 2, port 1).
//   cycle 1: r6 is written back: the forward takes bank 2's egress -> Y's operand lands in 1,
//            readResp 1 (execute input 2 = writeback + 1). X's read lost the egress and is
//            re-scheduled: granted again in 1 -> readResp 2.
// Without forwarding the writeback only wakes Y: its PRF read is arbitrated from cycle 2 (the
// write of 1 is visible then), granted in 2 -> readResp 3 (execute input 4 = writeback + 3, the
// RTL's RAW chain), and X keeps its egress -> readResp 1.
// The duplicated collector's per-slot copies do not share an egress: X is not re-scheduled.
TEST(MuonCollector, ForwardedWritebackTakesTheBankEgressAndTheLosingReadIsRescheduled)
{
    Harness f(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2, 3, 1));
    f.cycle(0, {req(1, {2}), req(2, {-1, 6}, 2u)});
    f.cycle(1, {}, {{0, 6}});
    f.idle(2, 2);
    EXPECT_EQ(f.at(2), 1u);
    EXPECT_EQ(f.resp[2].forwarded, 2);
    EXPECT_EQ(f.at(1), 2u);
    EXPECT_EQ(f->st.lost_to_forward, 1u);
    EXPECT_EQ(f->st.forwards, 1u);
    EXPECT_EQ(f->st.prf_reads, 2u) << "X read twice";

    Harness n(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2, 3, 0));
    n.cycle(0, {req(1, {2}), req(2, {-1, 6}, 2u)});
    n.cycle(1, {}, {{0, 6}});
    n.idle(2, 3);
    EXPECT_EQ(n.at(1), 1u);
    EXPECT_EQ(n.at(2), 3u);
    EXPECT_EQ(n.resp[2].forwarded, 0);
    EXPECT_EQ(n->st.lost_to_forward, 0u);

    Harness d(cfg(SMTLM_MUON_COLL_DUPLICATED, 4, 2, 3, 1));
    d.cycle(0, {req(1, {2}), req(2, {-1, 6}, 2u)});
    d.cycle(1, {}, {{0, 6}});
    EXPECT_EQ(d.at(1), 1u);
    EXPECT_EQ(d.at(2), 1u);
    EXPECT_EQ(d->st.lost_to_forward, 0u);
}

// A waiting operand is not busy: the collector needs no calls until the writeback's cycle.
// min_banked, N = 8: W (r3 waiting) requested in 0; r3 is written back in 20 -> readResp 20.
TEST(MuonCollector, WaitingOperandsNeedNoCallsUntilTheirWriteback)
{
    Harness h(cfg(SMTLM_MUON_COLL_MIN_BANKED, 8, 1, 0, 1));
    h.cycle(0, {req(1, {3}, 1u)});
    EXPECT_FALSE(smtlm_muon_coll_busy(h.c.get()));
    h.cycle(20, {}, {{1, 3}, {0, 3}}); // warp 1's r3 is another register
    EXPECT_EQ(h.at(1), 20u);
}

// Forwards refused, falling back to a PRF read from the next cycle (src_banked, N = 4, forwarding).
//   Port: E1 and E2 both wait for r6 in slot 0. The writeback in 1 feeds E1 (older) through
//   port 0; E2's port is taken: dropped, read from 2 -> granted 2 -> readResp 3.
//   Bank egress: E3 waits for r2 (slot 0), E4 for r6 (slot 1), both bank 2; r2 and r6 are
//   written back in the same cycle 1: r2 (posted first) owns bank 2's egress, r6's forward is
//   dropped -> E4 reads from 2 -> readResp 3.
TEST(MuonCollector, AForwardWithoutItsPortOrBankEgressFallsBackToAPrfRead)
{
    Harness h(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2, 3, 1));
    h.cycle(0, {req(1, {6}, 1u), req(2, {6}, 1u)});
    h.cycle(1, {}, {{0, 6}});
    h.idle(2, 3);
    EXPECT_EQ(h.at(1), 1u);
    EXPECT_EQ(h.at(2), 3u);
    EXPECT_EQ(h.resp[2].dropped, 1);
    EXPECT_EQ(h.resp[2].forwarded, 0);
    EXPECT_EQ(h->st.forward_drops, 1u);

    Harness e(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2, 3, 1));
    e.cycle(0, {req(3, {2}, 1u), req(4, {-1, 6}, 2u)});
    e.cycle(1, {}, {{0, 2}, {0, 6}});
    e.idle(2, 3);
    EXPECT_EQ(e.at(3), 1u);
    EXPECT_EQ(e.at(4), 3u);
    EXPECT_EQ(e.resp[4].dropped, 2);
}

// Caching (N = 4, 3 collector banks, 2 entries): fields keep their values after release.
//   cycle 0: A (-, -, r4) -> entry 0; B (r1, r2) -> entry 1; all granted in 0 -> readResp 1,
//            released in 2.
//   cycle 2: C (r1, r2, r3): entry 1 already holds r1 and r2 in slots 0, 1 and is chosen over the
//            lower entry 0 (whose field 2 holds r4, not r3): only r3 is read, granted in 2 ->
//            readResp 3.
//   cycle 4: D (r1, r2) of warp 1 finds nothing (other registers): 2 reads.
TEST(MuonCollector, CachingReusesTheOperandsAnEntryStillHolds)
{
    Harness h(cfg(SMTLM_MUON_COLL_CACHING, 4, 2));
    EXPECT_EQ(h.cycle(0, {req(1, {-1, -1, 4}), req(2, {1, 2})}), (std::vector<int>{0, 1}));
    h.idle(1, 1);
    EXPECT_EQ(h.cycle(2, {req(3, {1, 2, 3})}), (std::vector<int>{1}));
    h.idle(3, 3);
    EXPECT_EQ(h.at(3), 3u);
    EXPECT_EQ(h->st.cache_hits_in_place, 2u);
    EXPECT_EQ(h->st.prf_reads, 4u);
    h.cycle(4, {req(4, {1, 2}, 0, 1)});
    h.idle(5, 5);
    EXPECT_EQ(h.at(4), 5u);
    EXPECT_EQ(h->st.cache_hits_in_place, 2u);
    EXPECT_EQ(h->st.prf_reads, 6u);
}

// Caching copies a value held by another entry of the same collector bank without using its PRF
// bank (N = 4, 3 collector banks, 3 entries).
//   cycle 0: A (r1) -> entry 0, readResp 1, kept (not released).
//   cycle 1: B (r1) -> entry 1: entry 0's field 0 holds r1 -> copy through port 0, no PRF read;
//            C (-, r5) reads bank 1 (as r1 would) through port 1 -> both granted in 1 ->
//            readResp 2.
// src_banked has no copies: B reads r1 from bank 1 and C (younger) waits -> readResp 2 and 3.
// A value in slot 1's bank is not reused for slot 0 (different collector banks): E (r5) after C
// reads the PRF.
TEST(MuonCollector, CachingCopiesFromAnotherEntryWithoutAPrfRead)
{
    Harness h(cfg(SMTLM_MUON_COLL_CACHING, 4, 3));
    h.auto_release = false;
    h.cycle(0, {req(1, {1})});
    h.cycle(1, {req(2, {1}), req(3, {-1, 5})});
    h.idle(2, 2);
    EXPECT_EQ(h.at(1), 1u);
    EXPECT_EQ(h.at(2), 2u);
    EXPECT_EQ(h.at(3), 2u);
    EXPECT_EQ(h->st.cache_hits_copy, 1u);
    EXPECT_EQ(h->st.prf_reads, 2u);
    ASSERT_EQ(smtlm_muon_coll_release(h.c.get(), 3, h.resp[1].entry), SMTLM_OK);
    h.cycle(3, {req(5, {5})});
    h.idle(4, 4);
    EXPECT_EQ(h.at(5), 4u);
    EXPECT_EQ(h->st.prf_reads, 3u);
    EXPECT_EQ(h->st.cache_hits_copy, 1u);

    Harness s(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 3));
    s.auto_release = false;
    s.cycle(0, {req(1, {1})});
    s.cycle(1, {req(2, {1}), req(3, {-1, 5})});
    s.idle(2, 3);
    EXPECT_EQ(s.at(2), 2u);
    EXPECT_EQ(s.at(3), 3u);
}

// A writeback invalidates every field holding the register (caching, N = 4, 2 entries).
//   cycle 0: A (r1) -> entry 0, readResp 1, released 2.
//   cycle 3: r1 is written back: B (r1) finds entry 0's field stale (entry 0 is still the lowest
//            free one) and reads bank 1 in 3; X (-, r5), younger, loses bank 1 -> granted 4 ->
//            readResp 5.
// Without the writeback B hits entry 0's field in place (no read, readResp 4) and X reads bank 1
// in 3 -> readResp 4.
// A forwarded value is the new one and may be reused: W waits for r1, the writeback of 7 forwards
// it, and a later (r1) hits in place.
// A read landing in the cycle its register is written holds the old value and is not reused:
// R (r1) granted in 0 lands in 1 together with a writeback of r1; S (r1) in 2 reads the PRF.
TEST(MuonCollector, CachingFieldsAreInvalidatedByAWriteOfTheirRegister)
{
    for (int write : {1, 0}) {
        Harness h(cfg(SMTLM_MUON_COLL_CACHING, 4, 2));
        h.cycle(0, {req(1, {1})});
        h.idle(1, 2);
        std::vector<Wb> wbs;
        if (write)
            wbs.push_back({0, 1});
        EXPECT_EQ(h.cycle(3, {req(2, {1}), req(3, {-1, 5})}, wbs), (std::vector<int>{0, 1}));
        h.idle(4, 5);
        EXPECT_EQ(h.at(2), 4u);
        EXPECT_EQ(h.at(3), write ? 5u : 4u) << "write " << write;
        EXPECT_EQ(h->st.invalidations, write ? 1u : 0u);
        EXPECT_EQ(h->st.cache_hits_in_place, write ? 0u : 1u);
        EXPECT_EQ(h->st.prf_reads, write ? 3u : 2u);
    }

    Harness f(cfg(SMTLM_MUON_COLL_CACHING, 4, 1, 3, 1));
    f.cycle(0, {req(1, {1}, 1u)});
    f.cycle(7, {}, {{0, 1}});
    EXPECT_EQ(f.at(1), 7u);
    f.idle(8, 8); // released
    f.cycle(9, {req(2, {1})});
    f.idle(10, 10);
    EXPECT_EQ(f.at(2), 10u);
    EXPECT_EQ(f->st.cache_hits_in_place, 1u);
    EXPECT_EQ(f->st.prf_reads, 0u);

    Harness r(cfg(SMTLM_MUON_COLL_CACHING, 4, 1));
    r.cycle(0, {req(1, {1})});
    r.cycle(1, {}, {{0, 1}});
    EXPECT_EQ(r.at(1), 1u);
    EXPECT_EQ(r.cycle(2, {req(2, {1})}), (std::vector<int>{0}));
    r.idle(3, 3);
    EXPECT_EQ(r.at(2), 3u);
    EXPECT_EQ(r->st.cache_hits_in_place, 0u);
    EXPECT_EQ(r->st.prf_reads, 2u);
}

// Register 0 and the zero register are never read: (r0, RZ = 256, r3) reads only r3; a request
// with nothing to read still answers in the next cycle.
TEST(MuonCollector, TheZeroRegisterIsNeverRead)
{
    Harness h(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2, 3, 0, 256));
    h.cycle(0, {req(1, {0, 256, 3}), req(2, {256})});
    h.idle(1, 1);
    EXPECT_EQ(h.at(1), 1u);
    EXPECT_EQ(h.at(2), 1u);
    EXPECT_EQ(h->st.prf_reads, 1u);
    EXPECT_EQ(h->st.zero_reads, 3u);
}

TEST(MuonCollector, BadRequestsAndABrokenCallOrderAreRefused)
{
    Harness h(cfg(SMTLM_MUON_COLL_SRC_BANKED, 4, 2));
    smtlm_muon_coll_resp out[SMTLM_MUON_COLL_MAX_ENTRIES];
    smtlm_muon_coll_req r = req(1, {1, 2});
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &r), SMTLM_EINPUT) << "before deliver(0)";
    EXPECT_EQ(smtlm_muon_coll_arbitrate(h.c.get(), 0), SMTLM_EINPUT) << "before deliver(0)";
    ASSERT_EQ(smtlm_muon_coll_deliver(h.c.get(), 0, out), 0);
    EXPECT_EQ(smtlm_muon_coll_deliver(h.c.get(), 0, out), SMTLM_EINPUT) << "twice in a cycle";
    EXPECT_EQ(smtlm_muon_coll_writeback(h.c.get(), 0, 0, 1), SMTLM_EINPUT) << "after deliver(0)";

    smtlm_muon_coll_req bad = req(1, {1}, 0, 8);
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &bad), SMTLM_EINPUT) << "warp";
    bad = req(1, {});
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &bad), SMTLM_EINPUT) << "no slot";
    bad = req(1, {1}, 2u);
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &bad), SMTLM_EINPUT) << "wait outside the slots";
    bad = req(1, {1});
    bad.reg[0] = SMTLM_MUON_COLL_MAX_REG + 1;
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &bad), SMTLM_EINPUT) << "register";
    bad = req(1, {1});
    bad.slots = 1u << SMTLM_MAX_SRC;
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &bad), SMTLM_EINPUT) << "slot beyond the sources";
    EXPECT_EQ(h->st.requests, 0u);

    ASSERT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &r), 0);
    ASSERT_EQ(smtlm_muon_coll_arbitrate(h.c.get(), 0), SMTLM_OK);
    EXPECT_EQ(smtlm_muon_coll_request(h.c.get(), 0, &r), SMTLM_EINPUT) << "after arbitrate(0)";
    EXPECT_EQ(smtlm_muon_coll_arbitrate(h.c.get(), 0), SMTLM_EINPUT) << "twice in a cycle";
    EXPECT_TRUE(smtlm_muon_coll_busy(h.c.get()));
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 1, 0), SMTLM_EINPUT) << "not answered";
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 1, 1), SMTLM_EINPUT) << "not allocated";
    EXPECT_EQ(smtlm_muon_coll_deliver(h.c.get(), 2, out), SMTLM_EINPUT) << "cycle 1 skipped with reads in flight";
    EXPECT_EQ(smtlm_muon_coll_deliver(h.c.get(), 1, out), 1);

    for (int i = 0; i < SMTLM_MUON_COLL_MAX_WB; i++)
        EXPECT_EQ(smtlm_muon_coll_writeback(h.c.get(), 2, 0, 10 + i), SMTLM_OK);
    EXPECT_EQ(smtlm_muon_coll_writeback(h.c.get(), 2, 0, 30), SMTLM_EFULL);
    EXPECT_EQ(smtlm_muon_coll_writeback(h.c.get(), 2, 0, 0), SMTLM_OK) << "register 0: nothing to do";
    EXPECT_EQ(smtlm_muon_coll_writeback(h.c.get(), 3, 0, 5), SMTLM_EINPUT) << "cycle 2 not delivered yet";
    EXPECT_EQ(smtlm_muon_coll_writeback(h.c.get(), 2, 8, 5), SMTLM_EINPUT) << "warp";
    EXPECT_EQ(smtlm_muon_coll_deliver(h.c.get(), 3, out), SMTLM_EINPUT) << "cycle 2's writebacks pending";
    EXPECT_EQ(smtlm_muon_coll_deliver(h.c.get(), 2, out), 0);
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 2, 0), SMTLM_OK);
    EXPECT_EQ(smtlm_muon_coll_release(h.c.get(), 2, 0), SMTLM_EINPUT) << "already free";
}

} // namespace

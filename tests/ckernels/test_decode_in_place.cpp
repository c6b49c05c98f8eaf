// Decoding in place (smtlm_inst_source.next_into, smtlm_pool_commit): a source that writes the
// instruction straight into the pool gives the same entry, the same payload bookkeeping, the
// same run and the same errors as one that hands a descriptor.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "kernel_test_util.hpp"

namespace {

using micro::alu;
using micro::shared;

struct Pool {
    std::unique_ptr<smtlm_inst_pool> p{new smtlm_inst_pool()}; // zeroed: entries compare bytewise
    Pool() { smtlm_pool_init(p.get()); }
};

// The descriptor fields through smtlm_pool_fill_from_desc and a commit, as a source's next_into.
smtlm_iref fill_and_commit(smtlm_inst_pool *p, const smtlm_inst_desc &d, uint16_t warp)
{
    smtlm_pool_fill_from_desc(smtlm_pool_next_entry(p), smtlm_pool_next_addr(p), &d);
    return smtlm_pool_commit(p, warp);
}

// A descriptor source (WarpPrograms) seen through next_into only, as the trace source is.
struct InPlace {
    ktu::WarpPrograms *inner;
    unsigned calls = 0;
    static int next_into(void *ctx, unsigned sm, unsigned w, smtlm_inst *in, uint64_t *addr)
    {
        InPlace *s = static_cast<InPlace *>(ctx);
        s->calls++;
        smtlm_inst_desc d;
        const int got = ktu::WarpPrograms::next(s->inner, sm, w, &d);
        if (got > 0) {
            smtlm_pool_fill_from_desc(in, addr, &d);
            in->left_ldst = 0; // never marked SMTLM_FIELDS_OK
        }
        return got;
    }
    static int never(void *, unsigned, unsigned, smtlm_inst_desc *) { return -100; } // must not be asked
    static int more(void *ctx, unsigned sm, unsigned w) { return ktu::WarpPrograms::more(static_cast<InPlace *>(ctx)->inner, sm, w); }
    smtlm_inst_source source() { return smtlm_inst_source{this, &InPlace::never, &InPlace::more, &InPlace::next_into, 0, 0, nullptr, nullptr, nullptr}; }
};

} // namespace

TEST(DecodeInPlace, CommitTakesTheSameEntryAsAllocAndAPayloadOnlyForMemory)
{
    const smtlm_inst_desc ops[] = {alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1), shared(SMTLM_OP_LOAD, 6, {7}, 0x100, 4),
                                   micro::exit_inst(), shared(SMTLM_OP_STORE, -1, {8, 9}, 0x40, 8)};
    Pool a, b;
    for (const smtlm_inst_desc &d : ops) {
        const smtlm_iref ra = smtlm_pool_alloc(a.p.get(), &d, 5);
        const smtlm_iref rb = fill_and_commit(b.p.get(), d, 5);
        ASSERT_EQ(ra, rb);
        EXPECT_EQ(std::memcmp(&a.p->inst[ra], &b.p->inst[rb], sizeof(smtlm_inst)), 0);
        EXPECT_EQ(a.p->used, b.p->used);
        EXPECT_EQ(a.p->mem_used, b.p->mem_used);
        EXPECT_EQ(a.p->mem_free_head, b.p->mem_free_head);
        const bool mem = d.mem_space != SMTLM_MEM_NONE;
        ASSERT_EQ(b.p->inst[rb].mem != SMTLM_NO_INST, mem);
        if (mem) {
            EXPECT_EQ(std::memcmp(b.p->mem[b.p->inst[rb].mem].addr, d.addr, sizeof d.addr), 0);
        }
    }
    EXPECT_EQ(b.p->used, 4u);
    EXPECT_EQ(b.p->mem_used, 2u); // the load and the store; the SP op and the EXIT took none
}

TEST(DecodeInPlace, AFillWithoutCommitTakesNothing)
{
    Pool b;
    const smtlm_inst_desc ld = shared(SMTLM_OP_LOAD, 6, {7}, 0x100, 4);
    const uint16_t head = b.p->free_head, mem_head = b.p->mem_free_head;
    smtlm_pool_fill_from_desc(smtlm_pool_next_entry(b.p.get()), smtlm_pool_next_addr(b.p.get()), &ld); // refused
    EXPECT_EQ(b.p->used, 0u);
    EXPECT_EQ(b.p->mem_used, 0u);
    EXPECT_EQ(b.p->free_head, head);
    EXPECT_EQ(b.p->mem_free_head, mem_head);
    const smtlm_inst_desc sp = alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1);
    EXPECT_EQ(fill_and_commit(b.p.get(), sp, 0), head);
    EXPECT_EQ(b.p->mem_used, 0u);
    EXPECT_EQ(b.p->inst[head].mem, SMTLM_NO_INST);
    EXPECT_EQ(b.p->free_head, head + 1); // the free list is intact
    EXPECT_EQ(b.p->mem_free_head, mem_head);
}

// A reset pool writes none of its entries (their memory is brought in only as instructions reach
// it): over entries full of garbage it hands out every one exactly once, in index order, then
// the freed ones last in first out before the rest, and refuses the one past its size.
TEST(DecodeInPlace, AResetPoolTakesEachEntryOnceWithoutReadingWhatItHeld)
{
    std::unique_ptr<smtlm_inst_pool> p(new smtlm_inst_pool);
    std::memset(static_cast<void *>(p.get()), 0xA5, sizeof *p);
    smtlm_pool_init(p.get());
    const std::vector<unsigned char> entries(sizeof p->inst + sizeof p->mem, 0xA5);
    EXPECT_EQ(std::memcmp(p->inst, entries.data(), sizeof p->inst), 0); // not one byte written
    EXPECT_EQ(std::memcmp(p->mem, entries.data(), sizeof p->mem), 0);
    const smtlm_inst_desc sp = alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1), ld = shared(SMTLM_OP_LOAD, 6, {7}, 0x100, 4);
    ASSERT_EQ(smtlm_pool_alloc(p.get(), &sp, 0), 0);
    ASSERT_EQ(smtlm_pool_alloc(p.get(), &ld, 0), 1);
    ASSERT_EQ(smtlm_pool_alloc(p.get(), &sp, 0), 2);
    EXPECT_EQ(p->inst[1].mem, 0);
    smtlm_pool_free(p.get(), 1);
    smtlm_pool_free(p.get(), 0);
    EXPECT_EQ(smtlm_pool_alloc(p.get(), &ld, 0), 0); // last freed, first taken; its payload too
    EXPECT_EQ(p->inst[0].mem, 0);
    EXPECT_EQ(smtlm_pool_alloc(p.get(), &ld, 0), 1);
    EXPECT_EQ(p->inst[1].mem, 1); // then the payloads never taken
    for (unsigned i = 3; i < SMTLM_POOL_SIZE; i++)
        ASSERT_EQ(smtlm_pool_alloc(p.get(), &sp, 0), i);
    EXPECT_EQ(smtlm_pool_alloc(p.get(), &sp, 0), SMTLM_NO_INST);
    EXPECT_EQ(p->used, (unsigned)SMTLM_POOL_SIZE);
    for (unsigned i = 2; i < SMTLM_MEM_POOL_SIZE; i++) { // the payloads run out at their own size
        smtlm_pool_free(p.get(), (smtlm_iref)i);
        ASSERT_EQ(smtlm_pool_alloc(p.get(), &ld, 0), i);
        ASSERT_EQ(p->inst[i].mem, i);
    }
    smtlm_pool_free(p.get(), SMTLM_MEM_POOL_SIZE);
    EXPECT_EQ(smtlm_pool_alloc(p.get(), &ld, 0), SMTLM_NO_INST);
    EXPECT_EQ(smtlm_pool_alloc(p.get(), &sp, 0), SMTLM_MEM_POOL_SIZE);
}

// The same CTA through a descriptor source and through next_into: the same retire events.
TEST(DecodeInPlace, ARunIsTheSameAsThroughDescriptors)
{
    const std::vector<std::vector<smtlm_inst_desc>> progs = {
        {alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1), shared(SMTLM_OP_LOAD, 6, {3}, 0x100, 4), alu(SMTLM_OP_SFU, 7, {6}, 20, 8),
         shared(SMTLM_OP_STORE, -1, {7, 3}, 0x200, 4), micro::exit_inst()},
        {alu(SMTLM_OP_INTP, 2, {2}, 2, 2), alu(SMTLM_OP_SP, 9, {2, 2}, 4, 1), micro::exit_inst()}};
    auto pcs = [](std::vector<std::vector<smtlm_inst_desc>> p) {
        for (auto &w : p)
            for (size_t i = 0; i < w.size(); i++)
                w[i].pc = (uint32_t)(16 * i);
        return p;
    };
    ktu::Rig ref(ktu::qv100());
    ASSERT_GE(ref.load(pcs(progs)), 0);
    ref.run();
    ASSERT_EQ(ref.last_rc, SMTLM_OK);

    ktu::Rig rig(ktu::qv100());
    ASSERT_GE(rig.load(pcs(progs)), 0);
    ktu::WarpPrograms inner;
    inner.set(pcs(progs));
    InPlace src{&inner};
    const smtlm_inst_source s = src.source();
    smtlm_sm_set_source(rig.sm(), &s);
    EXPECT_EQ(rig.run(), ref.now());
    ASSERT_EQ(rig.last_rc, SMTLM_OK);
    EXPECT_GE(src.calls, 8u); // every instruction came in place
    ASSERT_EQ(rig.events.size(), ref.events.size());
    for (size_t i = 0; i < ref.events.size(); i++) {
        EXPECT_EQ(rig.events[i].warp, ref.events[i].warp);
        EXPECT_EQ(rig.events[i].pc, ref.events[i].pc);
        EXPECT_EQ(std::memcmp(rig.events[i].ev, ref.events[i].ev, sizeof ref.events[i].ev), 0) << i;
    }
}

// A refused instruction stops the SM with the same verdict and line whichever way it came; a
// source's own error stays a source error even when its number is SMTLM_EINPUT's.
TEST(DecodeInPlace, ErrorsAreTheSameAsThroughDescriptors)
{
    smtlm_inst_desc bad = alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1);
    bad.src[1] = SMTLM_MAX_REG + 1;
    bad.line = 42;
    for (bool in_place : {false, true}) {
        SCOPED_TRACE(in_place ? "next_into" : "next");
        ktu::Rig rig(ktu::qv100());
        ASSERT_GE(rig.load({{alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1), bad, micro::exit_inst()}}), 0);
        ktu::WarpPrograms inner;
        inner.set({{alu(SMTLM_OP_SP, 3, {4, 5}, 4, 1), bad, micro::exit_inst()}});
        InPlace src{&inner};
        const smtlm_inst_source s = src.source();
        if (in_place)
            smtlm_sm_set_source(rig.sm(), &s);
        rig.run();
        EXPECT_EQ(rig.last_rc, SMTLM_EINPUT);
        EXPECT_EQ(rig.sm()->error, SMTLM_EINPUT);
        EXPECT_EQ(rig.sm()->error_line, 42u);
        EXPECT_EQ(rig.sm()->reject, SMTLM_REJECT_REGISTER);
        EXPECT_EQ(rig.sm()->pool.used, 1u); // the valid first instruction only
    }
    struct Failing {
        static int next_into(void *, unsigned, unsigned, smtlm_inst *, uint64_t *) { return SMTLM_EINPUT; }
        static int more(void *, unsigned, unsigned) { return 1; }
    };
    ktu::Rig rig(ktu::qv100());
    ASSERT_GE(rig.load({{micro::exit_inst()}}), 0);
    const smtlm_inst_source s = {nullptr, &InPlace::never, &Failing::more, &Failing::next_into, 0, 0, nullptr, nullptr, nullptr};
    smtlm_sm_set_source(rig.sm(), &s);
    rig.run();
    EXPECT_EQ(rig.last_rc, SMTLM_ESOURCE);
    EXPECT_EQ(rig.sm()->reject, SMTLM_REJECT_NONE);
}

// The issue block's intake with the shape memo applied inline (ports memo, check_miss) against
// every instruction through the SM's full check (a source marking none as passing the fields'
// checks, so that the memo passes none): random instructions, some refused (bad registers past
// and within the counts, bad shapes), give the same run, verdict, line and detail.
TEST(DecodeInPlace, InlineMemoCheckMatchesTheCheckedSource)
{
    std::mt19937 rng(7);
    auto reg = [&rng]() -> int16_t {
        switch (rng() % 16) {
        case 0: return (int16_t)(SMTLM_MAX_REG + 1 + rng() % 1000);
        case 1: return (int16_t)-(int)(1 + rng() % 600);
        default: return (int16_t)(1 + rng() % 40);
        }
    };
    int refused = 0;
    for (int round = 0; round < 60; round++) {
        std::vector<std::vector<smtlm_inst_desc>> progs(4);
        for (auto &w : progs) {
            for (int i = 0; i < 60; i++) {
                static const smtlm_op ops[] = {SMTLM_OP_SP, SMTLM_OP_INTP, SMTLM_OP_SFU, SMTLM_OP_DP};
                smtlm_inst_desc d = alu(ops[rng() % 4], 1 + (int)(rng() % 30), {1, 2}, 4, 1);
                // few shapes, so that most instructions meet a remembered one
                d.n_src = (uint8_t)(rng() % 8 == 0 ? rng() % 5 : 2);
                d.n_dst = (uint8_t)(rng() % 8 == 0 ? rng() % 3 : 1);
                for (auto &s : d.src)
                    s = rng() % 300 == 0 ? reg() : (int16_t)(1 + rng() % 40);
                for (auto &s : d.dst)
                    s = rng() % 300 == 0 ? reg() : (int16_t)(1 + rng() % 40);
                d.latency = (uint16_t)(rng() % 8 == 0 ? 1 + rng() % 12 : 4);
                d.ii = (uint16_t)(rng() % 8 == 0 ? 1 + rng() % 4 : 1);
                if (rng() % 400 == 0)
                    d.ii = (uint16_t)(d.latency + 1); // a bad shape
                d.pc = (uint32_t)(16 * i);
                d.line = (uint32_t)(1000 * round + i + 1);
                w.push_back(d);
            }
            w.push_back(micro::exit_inst());
        }
        struct Result {
            uint64_t now;
            int rc, error;
            uint32_t line;
            smtlm_reject why;
            unsigned detail;
            size_t events;
        } res[2];
        for (int inline_check = 0; inline_check < 2; inline_check++) {
            ktu::Rig rig(ktu::qv100());
            ASSERT_GE(rig.load(progs), 0);
            ktu::WarpPrograms inner;
            inner.set(progs);
            InPlace src{&inner};
            smtlm_inst_source s = src.source();
            s.marks_fields_ok = !inline_check;
            smtlm_sm_set_source(rig.sm(), &s);
            res[inline_check] = {rig.run(), rig.last_rc, rig.sm()->error, rig.sm()->error_line,
                                 rig.sm()->reject, rig.sm()->reject_detail, rig.events.size()};
        }
        SCOPED_TRACE(round);
        refused += res[1].error == SMTLM_EINPUT;
        EXPECT_EQ(res[0].now, res[1].now);
        EXPECT_EQ(res[0].rc, res[1].rc);
        EXPECT_EQ(res[0].error, res[1].error);
        EXPECT_EQ(res[0].line, res[1].line);
        EXPECT_EQ(res[0].why, res[1].why);
        EXPECT_EQ(res[0].detail, res[1].detail);
        EXPECT_EQ(res[0].events, res[1].events);
    }
    EXPECT_GT(refused, 10);  // both verdicts are met
    EXPECT_LT(refused, 50);
}

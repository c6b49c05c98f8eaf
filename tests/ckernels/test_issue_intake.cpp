// Decode's intake (issue_frontend.c): whatever a source offers, descriptors only (next), decoding
// in place (next_into), in place with its register summary and the fields' mark (sets_summary,
// marks_fields_ok), a batch take (take_ready) or its windows taken inline (windows), the same
// stream enters the ibuffer and the pool as the same entries, and a refused instruction stops the
// SM with the same error at its line. Each source is held to what the program itself says (the
// entry a descriptor makes, the instructions decoded, the line), not only to the other sources.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "kernel_test_util.hpp"
#include "sm_compare.hpp"

namespace {

using ktu::ffma;
using ktu::iadd;
using ktu::mufu;
using micro::exit_inst;
using micro::shared;

enum class Cap { Desc, InPlace, Marked, TakeReady, Windows, WindowsOne };
const Cap kCaps[] = {Cap::Desc, Cap::InPlace, Cap::Marked, Cap::TakeReady, Cap::Windows, Cap::WindowsOne};
const char *name(Cap c)
{
    switch (c) {
    case Cap::Desc: return "next";
    case Cap::InPlace: return "next_into";
    case Cap::Marked: return "next_into+summary+mark";
    case Cap::TakeReady: return "take_ready";
    case Cap::Windows: return "windows";
    default: return "windows, one record at hand";
    }
}

// The entry the pool should hold for descriptor d of warp w: its fields, its register summary
// and read slots, nothing taken by issue yet.
smtlm_inst entry_of(const smtlm_inst_desc &d)
{
    smtlm_inst e;
    std::memset(&e, 0, sizeof e);
    uint64_t addr[SMTLM_WARP_SIZE];
    smtlm_pool_fill_from_desc(&e, addr, &d);
    e.left_ldst = 0;
    smtlm_pool_reg_summary(&e);
    return e;
}

// Per-warp programs offered with one capability. The record-holding forms keep each warp's
// remaining records in a window (all of them, or one at a time); next_into reads from where
// the window stands, so that both feed one stream.
struct Source {
    Cap cap;
    std::vector<std::vector<smtlm_inst_desc>> progs;
    std::vector<std::vector<smtlm_inst_rec>> recs; // per warp: each instruction's own shape
    std::vector<std::vector<smtlm_inst_ref>> refs; // and its ref, naming it
    std::vector<std::vector<uint64_t>> addrs;      // per warp: the active lanes' addresses
    std::vector<size_t> pos;
    smtlm_rec_window win[SMTLM_MAX_WARPS] = {};
    smtlm_rec_window *winp[SMTLM_MAX_WARPS] = {};
    size_t fail_warp = 0, fail_at = SIZE_MAX; // where the source itself reports an error
    unsigned n_next = 0, n_into = 0, n_ready_calls = 0; // instructions handed by next / next_into, take_ready calls

    Source(Cap c, std::vector<std::vector<smtlm_inst_desc>> p) : cap(c), progs(std::move(p)), pos(progs.size(), 0)
    {
        recs.resize(progs.size());
        refs.resize(progs.size());
        addrs.resize(progs.size());
        for (size_t w = 0; w < progs.size(); w++) {
            for (const smtlm_inst_desc &d : progs[w]) {
                const smtlm_inst e = entry_of(d);
                smtlm_inst_rec r;
                std::memset(&r, 0, sizeof r);
                std::memcpy(&r.pc, &e.pc, offsetof(smtlm_inst_rec, addr) - offsetof(smtlm_inst_rec, pc));
                r.fields_ok = smtlm_fields_ok(d.dst, d.n_dst, d.src, d.n_src, d.mem_space) ? SMTLM_FIELDS_OK : 0;
                r.rd_ops = e.rd_ops;
                r.addr = SMTLM_REC_NO_ADDR;
                smtlm_inst_ref ref = {(uint32_t)recs[w].size(), r.mask, r.line, 0};
                if (d.mem_space != SMTLM_MEM_NONE) {
                    r.addr = 0;
                    ref.addr = (uint32_t)addrs[w].size();
                    for (unsigned k = 0; k < SMTLM_WARP_SIZE; k++)
                        if (d.mask & (1u << k))
                            addrs[w].push_back(d.addr[k]);
                }
                recs[w].push_back(r);
                refs[w].push_back(ref);
            }
            win[w].shapes = recs[w].data();
            win[w].pool = addrs[w].data();
            win[w].count = (uint32_t)recs[w].size();
            winp[w] = &win[w];
            refresh((unsigned)w);
        }
    }
    bool records() const { return cap == Cap::Marked || cap == Cap::TakeReady || cap == Cap::Windows || cap == Cap::WindowsOne; }
    // The window from the warp's position: what is at hand, never the source's own error.
    void refresh(unsigned w)
    {
        size_t lim = recs[w].size();
        if (w == fail_warp && fail_at < lim)
            lim = fail_at;
        if (cap == Cap::WindowsOne && pos[w] + 1 < lim)
            lim = pos[w] + 1;
        win[w].cur = refs[w].data() + pos[w];
        win[w].lim = refs[w].data() + (lim < pos[w] ? pos[w] : lim);
        win[w].pos = (uint32_t)pos[w];
    }
    void sync(unsigned w) { pos[w] = (size_t)(win[w].cur - refs[w].data()); }

    static int next(void *ctx, unsigned, unsigned w, smtlm_inst_desc *d)
    {
        Source *s = static_cast<Source *>(ctx);
        if (w >= s->progs.size() || s->pos[w] >= s->progs[w].size())
            return 0;
        if (w == s->fail_warp && s->pos[w] == s->fail_at)
            return -7;
        *d = s->progs[w][s->pos[w]++];
        s->n_next++;
        return 1;
    }
    static int next_into(void *ctx, unsigned sm, unsigned w, smtlm_inst *in, uint64_t *addr)
    {
        Source *s = static_cast<Source *>(ctx);
        if (!s->records()) { // in place from the descriptor, unmarked, without its summary
            smtlm_inst_desc d;
            const int got = next(ctx, sm, w, &d);
            if (got > 0) {
                smtlm_pool_fill_from_desc(in, addr, &d);
                in->left_ldst = 0;
            }
            return got;
        }
        if (w >= s->progs.size())
            return 0;
        s->sync(w);
        if (s->pos[w] >= s->recs[w].size())
            return 0;
        if (w == s->fail_warp && s->pos[w] == s->fail_at)
            return -7;
        const smtlm_inst_ref &ref = s->refs[w][s->pos[w]++];
        smtlm_rec_fill(&s->recs[w][ref.shape], &ref, s->addrs[w].data(), in, addr);
        s->n_into++;
        s->refresh(w);
        return 1;
    }
    static int more(void *ctx, unsigned, unsigned w)
    {
        Source *s = static_cast<Source *>(ctx);
        if (w >= s->progs.size())
            return 0;
        if (s->records())
            s->sync(w);
        return s->pos[w] < s->progs[w].size();
    }
    static unsigned take_ready(void *ctx, unsigned, unsigned w, smtlm_inst_pool *pool, const uint64_t *memo,
                               smtlm_iref *out, unsigned max)
    {
        Source *s = static_cast<Source *>(ctx);
        s->n_ready_calls++;
        return w < s->progs.size() ? smtlm_pool_take_window(pool, memo, &s->win[w], (uint16_t)w, out, max) : 0;
    }
    static smtlm_rec_window *const *windows(void *ctx, unsigned) { return static_cast<Source *>(ctx)->winp; }

    smtlm_inst_source iface()
    {
        smtlm_inst_source src = {this, &Source::next, &Source::more, nullptr, 0, 0, nullptr, nullptr, nullptr};
        if (cap != Cap::Desc)
            src.next_into = &Source::next_into;
        if (records())
            src.sets_summary = src.marks_fields_ok = 1;
        if (cap == Cap::TakeReady || cap == Cap::Windows || cap == Cap::WindowsOne)
            src.take_ready = &Source::take_ready;
        if (cap == Cap::Windows || cap == Cap::WindowsOne)
            src.windows = &Source::windows;
        return src;
    }
};

// What the ibuffers held after one cycle: per valid slot the warp, the slot and its entry.
struct Held {
    unsigned warp, slot;
    smtlm_inst entry;
    std::vector<uint64_t> addr; // the payload's lanes, for a memory instruction
    bool operator==(const Held &o) const
    {
        return warp == o.warp && slot == o.slot && std::memcmp(&entry, &o.entry, sizeof entry) == 0 && addr == o.addr;
    }
};

struct Outcome {
    std::vector<std::vector<Held>> cycles;
    int rc, sm_error, iss_error;
    uint32_t line;
    smtlm_reject why;
    unsigned detail;
    uint64_t decoded, now;
    uint32_t used, mem_used;
    std::vector<ktu::Ev> events;
};

Outcome run_with(Source &src, unsigned n_warps)
{
    ktu::Rig rig(ktu::qv100());
    EXPECT_EQ(rig.init_rc, SMTLM_OK);
    std::vector<std::vector<smtlm_inst_desc>> unused(n_warps, std::vector<smtlm_inst_desc>{exit_inst()});
    EXPECT_GE(rig.load(unused), 0); // the CTA; its stream is src's
    const smtlm_inst_source s = src.iface();
    smtlm_sm_set_source(rig.sm(), &s);
    Outcome r{};
    smtlm_sm *sm = rig.sm();
    while (rig.active() && rig.now() < 20000) {
        r.rc = rig.step();
        std::vector<Held> held;
        for (unsigned w = 0; w < n_warps; w++)
            for (unsigned k = 0; k < 2; k++)
                if (sm->iss.warp[w].ib_valid[k]) {
                    const smtlm_inst *in = &sm->pool.inst[sm->iss.warp[w].ib[k]];
                    Held h{w, k, {}, {}};
                    std::memcpy(&h.entry, in, sizeof *in); // bytes, padding too: compared as bytes
                    if (in->mem != SMTLM_NO_INST)
                        h.addr.assign(sm->pool.mem[in->mem].addr, sm->pool.mem[in->mem].addr + SMTLM_WARP_SIZE);
                    held.push_back(h);
                }
        r.cycles.push_back(held);
        if (r.rc)
            break;
    }
    r.sm_error = sm->error;
    r.iss_error = sm->iss.error;
    r.line = sm->error_line;
    r.why = sm->reject;
    r.detail = sm->reject_detail;
    r.decoded = sm->iss.decoded;
    r.now = rig.now();
    r.used = sm->pool.used;
    r.mem_used = sm->pool.mem_used;
    r.events = rig.events;
    return r;
}

// Every entry seen in an ibuffer is the program's instruction at its pc (fields, summary, read
// slots, warp, payload), and each of warp w's first `upto[w]` instructions is seen.
void expect_program(const Outcome &r, const std::vector<std::vector<smtlm_inst_desc>> &progs, const std::vector<size_t> &upto)
{
    std::vector<std::vector<bool>> seen(progs.size());
    for (size_t w = 0; w < progs.size(); w++)
        seen[w].assign(progs[w].size(), false);
    for (const auto &cycle : r.cycles)
        for (const Held &h : cycle) {
            const size_t i = h.entry.pc / 16;
            ASSERT_LT(i, progs[h.warp].size());
            const smtlm_inst want = entry_of(progs[h.warp][i]);
            const size_t block = offsetof(smtlm_inst, warp) - offsetof(smtlm_inst, pc); // pc .. sb_dsts
            EXPECT_EQ(std::memcmp(&h.entry.pc, &want.pc, block), 0) << "warp " << h.warp << " pc " << h.entry.pc;
            EXPECT_EQ(h.entry.rd_ops, want.rd_ops) << "warp " << h.warp << " pc " << h.entry.pc;
            EXPECT_EQ(h.entry.warp, h.warp);
            const bool mem = progs[h.warp][i].mem_space != SMTLM_MEM_NONE;
            EXPECT_EQ(h.entry.mem != SMTLM_NO_INST, mem);
            if (mem) {
                EXPECT_EQ(h.addr, std::vector<uint64_t>(progs[h.warp][i].addr, progs[h.warp][i].addr + SMTLM_WARP_SIZE));
            }
            seen[h.warp][i] = true;
        }
    for (size_t w = 0; w < progs.size(); w++)
        for (size_t i = 0; i < upto[w]; i++)
            EXPECT_TRUE(seen[w][i]) << "warp " << w << " instruction " << i << " never decoded";
}

void expect_same(const Outcome &a, const Outcome &b)
{
    // (rc, SM error, issue error, line, verdict, detail, decoded, cycles, pool entries, payloads)
    auto counts = [](const Outcome &o) {
        return std::make_tuple(o.rc, o.sm_error, o.iss_error, o.line, (int)o.why, o.detail, o.decoded, o.now, o.used,
                               o.mem_used);
    };
    EXPECT_EQ(counts(a), counts(b));
    ASSERT_EQ(a.cycles.size(), b.cycles.size());
    for (size_t c = 0; c < a.cycles.size(); c++)
        EXPECT_TRUE(a.cycles[c] == b.cycles[c]) << "ibuffers differ after cycle " << c;
    ktu::expect_same_retired(a.events, b.events, "retired");
}

// Runs progs through every source form (the source's own error at warp 0's instruction fail_at),
// each checked by check(outcome, source, form) and held to the first, descriptor-only, form.
template <typename CHECK>
void each_form(const std::vector<std::vector<smtlm_inst_desc>> &progs, size_t fail_at, CHECK check)
{
    std::vector<Outcome> runs;
    for (Cap c : kCaps) {
        SCOPED_TRACE(name(c));
        Source src(c, progs);
        src.fail_at = fail_at;
        src.refresh(0);
        runs.push_back(run_with(src, (unsigned)progs.size()));
        check(runs.back(), src, c);
        if (c != kCaps[0])
            expect_same(runs.back(), runs.front());
    }
}

std::vector<std::vector<smtlm_inst_desc>> numbered(std::vector<std::vector<smtlm_inst_desc>> progs)
{
    for (auto &p : progs)
        for (size_t i = 0; i < p.size(); i++) {
            p[i].pc = (uint32_t)(16 * i);
            p[i].line = (uint32_t)(100 * (i + 1));
        }
    return progs;
}

// Shapes met again (memo passes), new shapes (full check), memory instructions (payloads), a
// source register named twice (read slots), an empty stream and one that ends without EXIT.
std::vector<std::vector<smtlm_inst_desc>> mixed()
{
    return numbered({
        {ffma(3, {4, 5}), ffma(6, {3, 5}), iadd(7, {6, 6}), shared(SMTLM_OP_LOAD, 8, {7}, 0x100, 4), ffma(9, {8, 8, 2}),
         shared(SMTLM_OP_STORE, -1, {9, 3}, 0x400, 8), mufu(10, {9}), ffma(11, {10, 4}), exit_inst()},
        {iadd(2, {2}), iadd(3, {2}), iadd(4, {3}), ffma(5, {4, 4}), ffma(6, {5, 5}), exit_inst()},
        {},
        {ffma(3, {4, 5}), shared(SMTLM_OP_LOAD, 6, {3}, 0x80, 4), ffma(7, {6, 6}), mufu(8, {7})},
    });
}

} // namespace

TEST(IssueIntake, EverySourceFormDecodesTheSameEntries)
{
    const auto progs = mixed();
    uint64_t total = 0;
    std::vector<size_t> all;
    for (const auto &p : progs) {
        total += p.size();
        all.push_back(p.size());
    }
    each_form(progs, SIZE_MAX, [&](const Outcome &r, const Source &src, Cap c) {
        EXPECT_EQ(r.rc, SMTLM_OK);
        EXPECT_EQ(r.decoded, total); // every instruction once (the implicit EXITs take none)
        EXPECT_EQ(r.used, 0u);
        EXPECT_EQ(r.mem_used, 0u);
        expect_program(r, progs, all);
        // the form offered is the form used: records in one step, the rest one by one
        const bool windows = c == Cap::Windows || c == Cap::WindowsOne;
        EXPECT_EQ(src.n_ready_calls > 0, c == Cap::TakeReady);
        EXPECT_EQ(src.n_next > 0, c == Cap::Desc || c == Cap::InPlace);
        if (c == Cap::Marked) {
            EXPECT_EQ(src.n_into, total);
        }
        if (c == Cap::TakeReady || windows) {
            EXPECT_GT(src.n_into, 0u);    // each shape's first instruction (the memo does not know it)
            EXPECT_LT(src.n_into, total); // the others taken as records
        }
    });
}

// A refused instruction in the middle of a decode's two (its first taken, whichever way) stops
// the SM at its line; nothing after it is taken. Also a refusal in the first slot, and a bad
// shape (a new key: the full check) next to a bad register (a known key: the memo's verdict).
TEST(IssueIntake, ARefusalMidBatchIsTheSameErrorAtItsLine)
{
    struct Case {
        const char *what;
        size_t at;
        smtlm_reject why;
    } cases[] = {{"bad register, second of a decode", 3, SMTLM_REJECT_REGISTER},
                 {"bad shape, second of a decode", 1, SMTLM_REJECT_FIELDS},
                 {"bad register, first of a decode", 2, SMTLM_REJECT_REGISTER}};
    for (const Case &k : cases) {
        SCOPED_TRACE(k.what);
        auto progs = numbered({{ffma(3, {4, 5}), ffma(6, {4, 5}), ffma(7, {4, 5}), ffma(8, {4, 5}), ffma(9, {4, 5}), exit_inst()}});
        smtlm_inst_desc &bad = progs[0][k.at];
        if (k.why == SMTLM_REJECT_REGISTER)
            bad.src[1] = SMTLM_MAX_REG + 1;
        else
            bad.ii = (uint16_t)(bad.latency + 1);
        bad.line = 42;
        each_form(progs, SIZE_MAX, [&](const Outcome &r, const Source &, Cap) {
            EXPECT_EQ(r.rc, SMTLM_EINPUT);
            EXPECT_EQ(r.sm_error, SMTLM_EINPUT);
            EXPECT_EQ(r.iss_error, SMTLM_ESOURCE);
            EXPECT_EQ(r.line, 42u);
            EXPECT_EQ(r.why, k.why);
            EXPECT_EQ(r.detail, 0u);
            EXPECT_EQ(r.decoded, k.at); // the ones before it
            expect_program(r, progs, {k.at});
            // the one before it in the same decode is in the ibuffer; the refused one is not
            ASSERT_FALSE(r.cycles.empty());
            size_t in_ib = 0;
            for (const Held &h : r.cycles.back()) {
                in_ib++;
                EXPECT_EQ(h.entry.pc, 16u * (k.at - 1));
            }
            EXPECT_EQ(in_ib, k.at % 2);
        });
    }
}

// The source's own error in the middle of a decode's two: SMTLM_ESOURCE, no input error, the
// first of the two taken.
TEST(IssueIntake, ASourceErrorMidBatchIsTheSame)
{
    const auto progs = numbered({{ffma(3, {4, 5}), ffma(6, {4, 5}), ffma(7, {4, 5}), ffma(8, {4, 5}), exit_inst()}});
    each_form(progs, 3, [&](const Outcome &r, const Source &, Cap) {
        EXPECT_EQ(r.rc, SMTLM_ESOURCE);
        EXPECT_EQ(r.sm_error, SMTLM_ESOURCE);
        EXPECT_EQ(r.why, SMTLM_REJECT_NONE);
        EXPECT_EQ(r.decoded, 3u);
        expect_program(r, progs, {3});
    });
}

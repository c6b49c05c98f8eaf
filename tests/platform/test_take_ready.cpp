// The trace source's take_ready (fill, shape memo test on the parse-time mark, commit: one call)
// against what the SM does without it: next_into, the full memo test (smtlm_sm_memo_pass) or the
// full check, and the commit that recomputes the register summary. Both runs take the same real
// traces instruction by instruction (decodes of one and two), and every entry, payload and the
// reader's mark (the entry's left_ldst before the commit: smtlm_fields_ok) must agree.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "smtlm/trace_source.h"
#include "test_trace_util.h"

namespace {

struct Source {
    smtlm_trace_source *s = nullptr;
    smtlm_inst_source src{};
    std::unique_ptr<smtlm_inst_pool> pool{new smtlm_inst_pool()};
    explicit Source(const std::string &path)
    {
        char err[512] = "";
        EXPECT_EQ(smtlm_trace_source_open(&s, path.c_str(), nullptr, 1, SMTLM_MAX_WARPS, err, sizeof err), 0) << err;
        src = smtlm_trace_source_iface(s);
        smtlm_pool_init(pool.get());
    }
    ~Source() { smtlm_trace_source_close(s); }
    unsigned warps() const { return (smtlm_trace_source_kernel(s).threads_per_cta + 31) / 32; }
    void bind(uint32_t cta)
    {
        const smtlm_cta_binder b = smtlm_trace_source_binder(s);
        ASSERT_EQ(b.cta_start(b.ctx, 0, 0, 0, warps(), cta), 0) << smtlm_trace_source_error(s);
    }
};

// Three real traces: ALU-only (vectoradd), a QV100 kernel (lud), memory-heavy (matrixmul).
const char *const kTraces[] = {"vectoradd-100-32-trace/kernel-1.traceg", "lud/kernel-8.traceg",
                               "matrixmul-32-32-trace/kernel-1.traceg"};

TEST(TakeReady, AsNextIntoMemoAndCommit)
{
    for (const char *p : kTraces) {
        SCOPED_TRACE(p);
        const std::string path = trace_test::data_path(p);
        Source a(path), b(path);
        ASSERT_NE(a.src.take_ready, nullptr);
        ASSERT_TRUE(a.src.marks_fields_ok);
        a.bind(0);
        b.bind(0);
        std::mt19937 g(5);
        uint64_t memo[SMTLM_SHAPE_MEMO];
        smtlm_sm_memo_clear(memo);
        unsigned taken_ready = 0, n = 0;
        for (unsigned w = 0; w < a.warps(); w++) {
            for (bool more = true; more;) {
                const unsigned max = 1 + g() % 2;
                smtlm_iref ra[2];
                unsigned k = a.src.take_ready(a.src.ctx, 0, w, a.pool.get(), memo, ra, max);
                taken_ready += k;
                for (unsigned i = k; i < max; i++) { // the SM's path for the rest
                    smtlm_inst *in = smtlm_pool_next_entry(a.pool.get());
                    const int got = a.src.next_into(a.src.ctx, 0, w, in, smtlm_pool_next_addr(a.pool.get()));
                    ASSERT_GE(got, 0);
                    if (got == 0) {
                        more = false;
                        break;
                    }
                    if (!smtlm_sm_memo_pass(memo, in) && in->left_ldst == SMTLM_FIELDS_OK) // as if checked and passed
                        smtlm_sm_memo_store_(memo, in->op, smtlm_sm_shape_key_(&in->op, &in->latency), in->n_src, in->n_dst);
                    ra[k++] = smtlm_pool_commit_summarized(a.pool.get(), (uint16_t)w);
                }
                smtlm_iref rb[2];
                for (unsigned i = 0; i < k; i++) {
                    smtlm_inst *in = smtlm_pool_next_entry(b.pool.get());
                    ASSERT_EQ(b.src.next_into(b.src.ctx, 0, w, in, smtlm_pool_next_addr(b.pool.get())), 1);
                    const int ok = smtlm_fields_ok(in->dst, in->n_dst, in->src, in->n_src, in->mem_space);
                    ASSERT_EQ(in->left_ldst, ok ? SMTLM_FIELDS_OK : 0) << "the reader's mark, line " << in->line;
                    rb[i] = smtlm_pool_commit(b.pool.get(), (uint16_t)w);
                }
                for (unsigned i = 0; i < k; i++) {
                    ASSERT_EQ(ra[i], rb[i]);
                    const smtlm_inst &ea = a.pool->inst[ra[i]], &eb = b.pool->inst[rb[i]];
                    ASSERT_EQ(std::memcmp(&ea, &eb, sizeof ea), 0) << "warp " << w << " line " << eb.line;
                    if (ea.mem != SMTLM_NO_INST) {
                        ASSERT_EQ(std::memcmp(a.pool->mem[ea.mem].addr, b.pool->mem[eb.mem].addr, sizeof a.pool->mem[0].addr), 0);
                    }
                    n++;
                }
                for (unsigned i = 0; i < k; i++) {
                    smtlm_pool_free(a.pool.get(), ra[i]);
                    smtlm_pool_free(b.pool.get(), rb[i]);
                }
            }
            smtlm_inst *in = smtlm_pool_next_entry(b.pool.get());
            EXPECT_EQ(b.src.next_into(b.src.ctx, 0, w, in, smtlm_pool_next_addr(b.pool.get())), 0) << "both at the end";
        }
        EXPECT_GT(n, 0u);
        EXPECT_GT(taken_ready, 0u) << "take_ready was used, not only the other path";
    }
}

// Decode's direct take (smtlm_pool_take_window on the source's windows array) against the
// take_ready call, across a rebinding of the slot (the array must follow the new CTA's windows).
TEST(TakeReady, WindowsAsTakeReady)
{
    for (const char *p : kTraces) {
        SCOPED_TRACE(p);
        const std::string path = trace_test::data_path(p);
        Source a(path), b(path);
        ASSERT_NE(a.src.windows, nullptr);
        smtlm_rec_window *const *win = a.src.windows(a.src.ctx, 0);
        uint64_t memo[SMTLM_SHAPE_MEMO];
        smtlm_sm_memo_clear(memo);
        std::mt19937 g(7);
        unsigned n = 0;
        for (uint32_t cta = 0; cta < 2 && cta < smtlm_trace_source_kernel(a.s).n_ctas; cta++) {
            a.bind(cta);
            b.bind(cta);
            ASSERT_EQ(a.src.windows(a.src.ctx, 0), win) << "the array stays put";
            for (unsigned w = 0; w < a.warps(); w++) {
                for (;;) {
                    const unsigned max = 1 + g() % 2;
                    smtlm_iref ra[2], rb[2];
                    const unsigned ka = smtlm_pool_take_window(a.pool.get(), memo, win[w], (uint16_t)w, ra, max);
                    const unsigned kb = b.src.take_ready(b.src.ctx, 0, w, b.pool.get(), memo, rb, max);
                    ASSERT_EQ(ka, kb);
                    for (unsigned i = 0; i < ka; i++) {
                        ASSERT_EQ(ra[i], rb[i]);
                        const smtlm_inst &ea = a.pool->inst[ra[i]], &eb = b.pool->inst[rb[i]];
                        ASSERT_EQ(std::memcmp(&ea, &eb, sizeof ea), 0) << "warp " << w << " line " << eb.line;
                        if (ea.mem != SMTLM_NO_INST) {
                            ASSERT_EQ(std::memcmp(a.pool->mem[ea.mem].addr, b.pool->mem[eb.mem].addr, sizeof a.pool->mem[0].addr), 0);
                        }
                        smtlm_pool_free(a.pool.get(), ra[i]);
                        smtlm_pool_free(b.pool.get(), rb[i]);
                        n++;
                    }
                    if (ka == max)
                        continue;
                    // not at hand or not passed: as the SM, pass the shape through the general path
                    smtlm_inst *in = smtlm_pool_next_entry(a.pool.get());
                    const int ga = a.src.next_into(a.src.ctx, 0, w, in, smtlm_pool_next_addr(a.pool.get()));
                    smtlm_inst *jn = smtlm_pool_next_entry(b.pool.get());
                    const int gb = b.src.next_into(b.src.ctx, 0, w, jn, smtlm_pool_next_addr(b.pool.get()));
                    ASSERT_EQ(ga, gb);
                    if (ga <= 0)
                        break;
                    if (in->left_ldst == SMTLM_FIELDS_OK)
                        smtlm_sm_memo_store_(memo, in->op, smtlm_sm_shape_key_(&in->op, &in->latency), in->n_src, in->n_dst);
                }
            }
        }
        EXPECT_GT(n, 0u);
    }
}

} // namespace

// Synthetic workload generator: determinism, mix, dependencies, stream shape, mix-string
// errors, and runs through the C engine.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include "smtlm/synth.h"
}

namespace {

struct Synth {
    smtlm_synth s;
    explicit Synth(const smtlm_synth_cfg &c) { rc = smtlm_synth_init(&s, &c); }
    ~Synth() { smtlm_synth_free(&s); }
    int rc;
};

smtlm_synth_cfg base_cfg()
{
    smtlm_synth_cfg c;
    smtlm_synth_cfg_default(&c);
    return c;
}

std::vector<smtlm_inst_desc> stream(const smtlm_synth &s, uint32_t gwarp)
{
    smtlm_synth_stream st;
    smtlm_synth_stream_init(&s, &st, gwarp);
    std::vector<smtlm_inst_desc> v;
    smtlm_inst_desc d;
    while (smtlm_synth_stream_next(&s, &st, &d) == 1) {
        if (d.mem_space == SMTLM_MEM_NONE) // addresses are only meaningful for memory ops
            std::memset(d.addr, 0, sizeof d.addr);
        v.push_back(d);
    }
    return v;
}

bool same(const smtlm_inst_desc &a, const smtlm_inst_desc &b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same(const std::vector<smtlm_inst_desc> &a, const std::vector<smtlm_inst_desc> &b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); i++)
        if (!same(a[i], b[i]))
            return false;
    return true;
}

smtlm_synth_mix mix_of(const char *str)
{
    smtlm_synth_mix m;
    char err[256];
    EXPECT_EQ(smtlm_synth_parse_mix(str, &m, err, sizeof err), SMTLM_OK) << err;
    return m;
}

} // namespace

TEST(Synth, DefaultsAreValid)
{
    smtlm_synth_cfg c = base_cfg();
    char err[256] = "";
    EXPECT_EQ(smtlm_synth_check(&c, err, sizeof err), SMTLM_OK) << err;
    Synth s(c);
    ASSERT_EQ(s.rc, SMTLM_OK);
    EXPECT_EQ(s.s.warps_per_cta, 32u);
    EXPECT_EQ(s.s.threads_per_cta, 1024u);
    EXPECT_EQ(smtlm_synth_total_warp_insts(&s.s), 32u * 2001u);
    EXPECT_EQ(smtlm_synth_total_thread_insts(&s.s), 1024u * 2001u);
    smtlm_kernel_desc k = smtlm_synth_kernel(&s.s);
    EXPECT_EQ(k.n_ctas, 1u);
    EXPECT_EQ(k.threads_per_cta, 1024u);
    EXPECT_EQ(k.regs_per_thread, 32u);
    EXPECT_EQ(k.shmem_per_cta, 4u * 32u * 8u);
    // QV100 trace.config latencies
    EXPECT_EQ(c.lat[SMTLM_SYNTH_SFU].latency, 20);
    EXPECT_EQ(c.lat[SMTLM_SYNTH_SFU].ii, 8);
    EXPECT_EQ(c.lat[SMTLM_SYNTH_DP].latency, 8);
    EXPECT_EQ(c.lat[SMTLM_SYNTH_DP].ii, 4);
}

TEST(Synth, SameSeedSameStreamDifferentSeedDifferent)
{
    smtlm_synth_cfg c = base_cfg();
    c.mix = mix_of("sp=40,int=20,sfu=10,dp=10,ldst=15,ldg=5");
    c.insts_per_warp = 3000;
    Synth a(c), b(c);
    ASSERT_EQ(a.rc, SMTLM_OK);
    for (uint32_t w : {0u, 1u, 31u})
        EXPECT_TRUE(same(stream(a.s, w), stream(b.s, w))) << "warp " << w;
    EXPECT_FALSE(same(stream(a.s, 0), stream(a.s, 1))) << "warps must differ";
    c.seed = 2;
    Synth d(c);
    EXPECT_FALSE(same(stream(a.s, 0), stream(d.s, 0))) << "seeds must differ";
}

TEST(Synth, PinnedPrefixIsHostIndependent)
{
    // The first instructions of warp 0 for seed 1: guards the PRNG and the draw order.
    smtlm_synth_cfg c = base_cfg();
    Synth s(c);
    std::vector<smtlm_inst_desc> v = stream(s.s, 0);
    std::string got;
    for (size_t i = 0; i < 6; i++) {
        got += std::to_string(v[i].op) + ":" + std::to_string(v[i].dst[0]);
        for (unsigned j = 0; j < v[i].n_src; j++)
            got += "," + std::to_string(v[i].src[j]);
        got += " ";
    }
    // Recorded from this implementation (splitmix64, op:dst,srcs); a change here changes every run.
    EXPECT_EQ(got, "0:3,19,2,6 0:13,4,4,22 0:3,5,30,1 3:9,26,9,5 3:1,3,1,31 2:20,20 ");
}

TEST(Synth, MixProportionsOverALongStream)
{
    smtlm_synth_cfg c = base_cfg();
    c.mix = mix_of("sp=40,int=20,sfu=10,dp=10,ldst=15,ldg=5");
    c.insts_per_warp = 200000;
    Synth s(c);
    ASSERT_EQ(s.rc, SMTLM_OK);
    std::vector<smtlm_inst_desc> v = stream(s.s, 3);
    ASSERT_EQ(v.size(), 200001u);
    unsigned n[SMTLM_OP_COUNT] = {}, sts = 0, lds = 0, ldg = 0;
    for (size_t i = 0; i + 1 < v.size(); i++) {
        n[v[i].op]++;
        if (v[i].mem_space == SMTLM_MEM_SHARED)
            (v[i].op == SMTLM_OP_STORE ? sts : lds)++;
        if (v[i].mem_space == SMTLM_MEM_GLOBAL)
            ldg++;
    }
    auto pct = [](unsigned x) { return 100.0 * x / 200000.0; };
    EXPECT_NEAR(pct(n[SMTLM_OP_SP]), 40, 0.5);
    EXPECT_NEAR(pct(n[SMTLM_OP_INTP]), 20, 0.5);
    EXPECT_NEAR(pct(n[SMTLM_OP_SFU]), 10, 0.5);
    EXPECT_NEAR(pct(n[SMTLM_OP_DP]), 10, 0.5);
    EXPECT_NEAR(pct(lds + sts), 15, 0.5);
    EXPECT_NEAR(pct(ldg), 5, 0.5);
    EXPECT_NEAR(100.0 * sts / (lds + sts), 25, 1.5); // store_pct of the shared accesses
    EXPECT_EQ(n[SMTLM_OP_EXIT], 0u);
}

TEST(Synth, ZeroPercentClassesNeverAppear)
{
    smtlm_synth_cfg c = base_cfg();
    c.mix = mix_of("sp=100");
    c.insts_per_warp = 5000;
    Synth s(c);
    for (const smtlm_inst_desc &d : stream(s.s, 0))
        ASSERT_TRUE(d.op == SMTLM_OP_SP || d.op == SMTLM_OP_EXIT);
}

TEST(Synth, DependencyDistanceHonoured)
{
    smtlm_synth_cfg c = base_cfg();
    c.mix = mix_of("sp=50,int=20,sfu=10,ldst=20");
    c.insts_per_warp = 20000;
    c.dep_distance = 7;
    c.dep_pct = 100;
    {
        Synth s(c);
        std::vector<smtlm_inst_desc> v = stream(s.s, 5);
        unsigned checked = 0;
        for (size_t i = 7; i + 1 < v.size(); i++) {
            const smtlm_inst_desc &p = v[i - 7];
            if (p.n_dst == 0)
                continue; // a store produced nothing to depend on
            ASSERT_EQ(v[i].src[0], p.dst[0]) << "instruction " << i;
            checked++;
        }
        EXPECT_GT(checked, 15000u);
    }
    c.dep_pct = 50;
    c.n_regs = 255; // large register space: accidental matches become rare
    c.reg_skew = 1;
    Synth s(c);
    std::vector<smtlm_inst_desc> v = stream(s.s, 5);
    unsigned hit = 0, total = 0;
    for (size_t i = 7; i + 1 < v.size(); i++) {
        if (v[i - 7].n_dst == 0)
            continue;
        total++;
        hit += v[i].src[0] == v[i - 7].dst[0];
    }
    EXPECT_NEAR(100.0 * hit / total, 50.0 + 50.0 / 255, 1.5);
}

TEST(Synth, NoDependencyDistanceMeansUniformSources)
{
    smtlm_synth_cfg c = base_cfg();
    c.dep_distance = 0;
    c.n_regs = 255;
    c.reg_skew = 1;
    c.insts_per_warp = 20000;
    Synth s(c);
    std::vector<smtlm_inst_desc> v = stream(s.s, 0);
    unsigned hit = 0, total = 0;
    for (size_t i = 4; i + 1 < v.size(); i++)
        if (v[i - 4].n_dst && v[i].n_src) {
            total++;
            hit += v[i].src[0] == v[i - 4].dst[0];
        }
    EXPECT_LT(100.0 * hit / total, 1.5);
}

TEST(Synth, RegistersAreSimulatorNumbersAndSkewedLow)
{
    smtlm_synth_cfg c = base_cfg();
    c.insts_per_warp = 50000;
    c.n_regs = 16;
    Synth s(c);
    std::vector<unsigned> hist(17, 0);
    for (const smtlm_inst_desc &d : stream(s.s, 2)) {
        for (unsigned j = 0; j < d.n_dst; j++) {
            ASSERT_GE(d.dst[j], 1);
            ASSERT_LE(d.dst[j], 16);
            hist[d.dst[j]]++;
        }
        for (unsigned j = 0; j < d.n_src; j++) {
            ASSERT_GE(d.src[j], 1);
            ASSERT_LE(d.src[j], 16);
            hist[d.src[j]]++;
        }
    }
    // R = floor(16 u^2): P(R0) = sqrt(1/16) = 0.25, P(R15) = 1 - sqrt(15/16) = 0.032
    EXPECT_GT(hist[1], 6 * hist[16]);
    EXPECT_GT(hist[16], 0u);
    for (unsigned r = 2; r <= 16; r++)
        EXPECT_GE(hist[r - 1] * 1.1, hist[r]) << "R" << r - 1;
}

TEST(Synth, EveryStreamEndsWithExit)
{
    smtlm_synth_cfg c = base_cfg();
    c.n_ctas = 3;
    c.warps_per_cta = 0;
    c.threads_per_cta = 80; // 3 warps, the last with 16 lanes
    c.insts_per_warp = 100;
    Synth s(c);
    ASSERT_EQ(s.rc, SMTLM_OK);
    EXPECT_EQ(s.s.warps_per_cta, 3u);
    EXPECT_EQ(smtlm_synth_total_warp_insts(&s.s), 9u * 101u);
    EXPECT_EQ(smtlm_synth_total_thread_insts(&s.s), 240u * 101u);
    for (uint32_t w = 0; w < 9; w++) {
        smtlm_synth_stream st;
        smtlm_synth_stream_init(&s.s, &st, w);
        std::vector<smtlm_inst_desc> v;
        smtlm_inst_desc d;
        while (smtlm_synth_stream_more(&s.s, &st)) {
            ASSERT_EQ(smtlm_synth_stream_next(&s.s, &st, &d), 1);
            v.push_back(d);
        }
        EXPECT_EQ(smtlm_synth_stream_next(&s.s, &st, &d), 0);
        ASSERT_EQ(v.size(), 101u);
        EXPECT_EQ(v.back().op, SMTLM_OP_EXIT);
        const uint32_t mask = w % 3 == 2 ? 0xFFFFu : 0xFFFFFFFFu;
        for (size_t i = 0; i < v.size(); i++) {
            EXPECT_EQ(v[i].pc, 16u * i);
            EXPECT_EQ(v[i].mask, mask);
            EXPECT_EQ(v[i].op == SMTLM_OP_EXIT, i == 100u);
            EXPECT_GE(v[i].latency, v[i].ii);
            EXPECT_GE(v[i].ii, 1);
        }
    }
}

TEST(Synth, MemoryAddresses)
{
    smtlm_synth_cfg c = base_cfg();
    c.mix = mix_of("ldst=50,ldg=50");
    c.smem_stride = 12;
    c.insts_per_warp = 2000;
    Synth s(c);
    ASSERT_EQ(s.rc, SMTLM_OK);
    const uint32_t shmem = smtlm_synth_kernel(&s.s).shmem_per_cta;
    EXPECT_EQ(shmem, 4u * 32u * 12u);
    for (const smtlm_inst_desc &d : stream(s.s, 7)) {
        if (d.op == SMTLM_OP_EXIT)
            continue;
        ASSERT_EQ(d.mem_width, 4);
        if (d.mem_space == SMTLM_MEM_SHARED) {
            for (unsigned k = 0; k < 32; k++) {
                ASSERT_EQ(d.addr[k], d.addr[0] + 12u * k);
                ASSERT_LE(d.addr[k] + 4, shmem);
            }
            ASSERT_EQ(d.addr[0] % (32 * 12), 0u);
            ASSERT_EQ(d.n_dst, d.op == SMTLM_OP_LOAD ? 1 : 0);
            ASSERT_EQ(d.n_src, d.op == SMTLM_OP_LOAD ? 1 : 2);
        } else {
            ASSERT_EQ(d.mem_space, SMTLM_MEM_GLOBAL);
            ASSERT_EQ(d.op, SMTLM_OP_LOAD);
            ASSERT_EQ(d.addr[0] % 128, 0u);
            ASSERT_GE(d.addr[0], c.global_base);
            for (unsigned k = 0; k < 32; k++)
                ASSERT_EQ(d.addr[k], d.addr[0] + 4u * k);
        }
    }
}

TEST(Synth, ParseMixAcceptsGoodStrings)
{
    smtlm_synth_mix m = mix_of(" sp = 60 , int=30,sfu=5,ldst=5 ");
    EXPECT_EQ(m.pct[SMTLM_SYNTH_SP], 60);
    EXPECT_EQ(m.pct[SMTLM_SYNTH_INT], 30);
    EXPECT_EQ(m.pct[SMTLM_SYNTH_SFU], 5);
    EXPECT_EQ(m.pct[SMTLM_SYNTH_DP], 0);
    EXPECT_EQ(m.pct[SMTLM_SYNTH_LDST], 5);
    EXPECT_EQ(m.pct[SMTLM_SYNTH_LDG], 0);
    char buf[128];
    smtlm_synth_mix_str(&m, buf, sizeof buf);
    EXPECT_STREQ(buf, "sp=60,int=30,sfu=5,ldst=5");
    m = mix_of("dp=100");
    EXPECT_EQ(m.pct[SMTLM_SYNTH_DP], 100);
    m = mix_of("ldg=1,sp=0,int=99");
    EXPECT_EQ(m.pct[SMTLM_SYNTH_LDG], 1);
}

TEST(Synth, ParseMixRejectsBadStrings)
{
    const struct {
        const char *in, *msg;
    } cases[] = {
        {"", "op mix is empty"},
        {"   ", "op mix is empty"},
        {"sp=60,,int=40", "empty entry"},
        {"sp=60,int=40,", "empty entry"},
        {"sp60,int=40", "entry \"sp60\" needs '=<percent>'"},
        {"fp=60,int=40", "unknown class \"fp\""},
        {"SP=60,int=40", "unknown class \"SP\""},
        {"sp=60,sp=40", "class \"sp\" given twice"},
        {"sp=6x,int=40", "bad percent \"6x\" for \"sp\""},
        {"sp=-5,int=105", "bad percent \"-5\""},
        {"sp=101", "bad percent \"101\""},
        {"sp=", "bad percent \"\" for \"sp\""},
        {"sp=60,int=30", "percentages sum to 90, must be 100"},
        {"sp=60,int=50", "percentages sum to 110, must be 100"},
        {"sp=0000000000000000000000000000000000000000000000000000000000000000000100", "too long"},
    };
    for (const auto &t : cases) {
        smtlm_synth_mix m;
        std::memset(&m, 0x5A, sizeof m);
        char err[256] = "";
        EXPECT_EQ(smtlm_synth_parse_mix(t.in, &m, err, sizeof err), SMTLM_EINVAL) << t.in;
        EXPECT_NE(std::string(err).find(t.msg), std::string::npos) << "input \"" << t.in << "\" gave: " << err;
        EXPECT_EQ(m.pct[0], 0x5A) << "output touched on error";
    }
    smtlm_synth_mix m;
    EXPECT_EQ(smtlm_synth_parse_mix(nullptr, &m, nullptr, 0), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_synth_parse_mix("sp=1", &m, nullptr, 0), SMTLM_EINVAL); // no message buffer: no crash
}

TEST(Synth, CheckRejectsBadConfigs)
{
    struct Case {
        void (*edit)(smtlm_synth_cfg &);
        const char *msg;
    };
    const Case cases[] = {
        {[](smtlm_synth_cfg &c) { c.n_ctas = 0; }, "n_ctas"},
        {[](smtlm_synth_cfg &c) { c.warps_per_cta = 65; }, "at most 64 warps"},
        {[](smtlm_synth_cfg &c) { c.threads_per_cta = 100; }, "disagrees"},
        {[](smtlm_synth_cfg &c) { c.mix.pct[0] = 10; }, "sum to 100"},
        {[](smtlm_synth_cfg &c) { c.dep_distance = 65; }, "dep_distance"},
        {[](smtlm_synth_cfg &c) { c.dep_pct = 101; }, "percents"},
        {[](smtlm_synth_cfg &c) { c.n_regs = 0; }, "n_regs"},
        {[](smtlm_synth_cfg &c) { c.n_regs = 256; }, "n_regs"},
        {[](smtlm_synth_cfg &c) { c.reg_skew = 0; }, "reg_skew"},
        {[](smtlm_synth_cfg &c) { c.smem_stride = 6; }, "smem_stride"},
        {[](smtlm_synth_cfg &c) { c.shmem_per_cta = 128; }, "shmem_per_cta"},
        {[](smtlm_synth_cfg &c) { c.lat[SMTLM_SYNTH_SFU].ii = 21; }, "latency table"},
        {[](smtlm_synth_cfg &c) { c.lat[SMTLM_SYNTH_SP].latency = 512; }, "latency table"},
    };
    for (const Case &t : cases) {
        smtlm_synth_cfg c = base_cfg();
        t.edit(c);
        char err[256] = "";
        EXPECT_LT(smtlm_synth_check(&c, err, sizeof err), 0) << t.msg;
        EXPECT_NE(std::string(err).find(t.msg), std::string::npos) << err;
        smtlm_synth s;
        EXPECT_LT(smtlm_synth_init(&s, &c), 0) << t.msg;
        smtlm_synth_free(&s);
    }
}

TEST(Synth, SourceNeedsABoundCta)
{
    smtlm_synth_cfg c = base_cfg();
    c.warps_per_cta = 4;
    c.n_ctas = 2;
    Synth s(c);
    smtlm_inst_source src = smtlm_synth_source(&s.s);
    smtlm_cta_binder b = smtlm_synth_binder(&s.s);
    smtlm_inst_desc d;
    EXPECT_LT(src.next(src.ctx, 0, 0, &d), 0);
    EXPECT_EQ(src.has_more(src.ctx, 0, 0), 0);
    EXPECT_LT(b.cta_start(b.ctx, 0, 0, 0, 3, 0), 0) << "wrong warp count";
    EXPECT_LT(b.cta_start(b.ctx, 0, 0, 0, 4, 2), 0) << "CTA id beyond the grid";
    EXPECT_LT(b.cta_start(b.ctx, 0, 0, 62, 4, 0), 0) << "beyond the SM's warp slots";
    // CTA 1 on SM 5, hardware warps 8..11: warp 9 serves global warp 5.
    ASSERT_EQ(b.cta_start(b.ctx, 5, 2, 8, 4, 1), SMTLM_OK);
    std::vector<smtlm_inst_desc> want = stream(s.s, 5);
    for (size_t i = 0; i < want.size(); i++) {
        ASSERT_EQ(src.has_more(src.ctx, 5, 9), 1);
        ASSERT_EQ(src.next(src.ctx, 5, 9, &d), 1);
        if (d.mem_space == SMTLM_MEM_NONE)
            std::memset(d.addr, 0, sizeof d.addr);
        ASSERT_TRUE(same(d, want[i])) << i;
    }
    EXPECT_EQ(src.has_more(src.ctx, 5, 9), 0);
    EXPECT_EQ(src.next(src.ctx, 5, 9, &d), 0);
    EXPECT_LT(src.next(src.ctx, 4, 9, &d), 0);
}

namespace {

struct Engine {
    explicit Engine(unsigned clusters, bool lazy = false)
    {
        smtlm_gpu_cfg_qv100(&cfg);
        cfg.n_clusters = clusters;
        n = smtlm_gpu_num_sms(&cfg);
        sms.reset(new smtlm_sm[n + 1]);
        mems.reset(new smtlm_mem_model[n]);
        gpu.reset(new smtlm_gpu);
        rc = lazy ? smtlm_gpu_init_lazy(gpu.get(), &cfg, sms.get(), mems.get())
                  : smtlm_gpu_init(gpu.get(), &cfg, sms.get(), mems.get());
    }
    smtlm_run_status run(smtlm_synth &s)
    {
        smtlm_inst_source src = smtlm_synth_source(&s);
        smtlm_cta_binder b = smtlm_synth_binder(&s);
        smtlm_gpu_set_source(gpu.get(), &src, &b);
        smtlm_kernel_desc k = smtlm_synth_kernel(&s);
        if (smtlm_gpu_launch(gpu.get(), &k) != SMTLM_OK)
            return SMTLM_RUN_ERROR;
        return smtlm_gpu_run(gpu.get());
    }
    smtlm_gpu_cfg cfg;
    unsigned n;
    std::unique_ptr<smtlm_sm[]> sms;
    std::unique_ptr<smtlm_mem_model[]> mems;
    std::unique_ptr<smtlm_gpu> gpu;
    int rc;
};

} // namespace

// Lazy SM construction: 3 CTAs on 80 SMs build 3 SMs, and every SM's view (the never-built
// ones included) says what an eagerly built GPU's says.
TEST(SynthEngine, LazySmsMatchEagerSms)
{
    smtlm_synth_cfg c = base_cfg();
    c.n_ctas = 3;
    c.insts_per_warp = 100;
    Synth s1(c), s2(c);
    ASSERT_EQ(s1.rc, SMTLM_OK);
    Engine eager(80), lazy(80, true);
    ASSERT_EQ(eager.rc, SMTLM_OK);
    ASSERT_EQ(lazy.rc, SMTLM_OK);
    EXPECT_EQ(lazy.gpu->sm_built[0], 0);
    ASSERT_EQ(eager.run(s1.s), SMTLM_RUN_DONE);
    ASSERT_EQ(lazy.run(s2.s), SMTLM_RUN_DONE);
    unsigned built = 0;
    for (unsigned i = 0; i < 80; i++) {
        built += lazy.gpu->sm_built[i];
        smtlm_sm_view a, b;
        smtlm_gpu_sm_view(eager.gpu.get(), i, &a);
        smtlm_gpu_sm_view(lazy.gpu.get(), i, &b);
        EXPECT_EQ(std::memcmp(&a.stats, &b.stats, sizeof a.stats), 0) << i;
        EXPECT_EQ(std::memcmp(a.cfg, b.cfg, sizeof *a.cfg), 0) << i;
        EXPECT_EQ(a.last_progress, b.last_progress) << i;
        EXPECT_EQ(a.iss->n_active_ctas, b.iss->n_active_ctas) << i;
    }
    EXPECT_EQ(built, 3u);
    EXPECT_EQ(eager.gpu->sim_cycle, lazy.gpu->sim_cycle);
    EXPECT_EQ(smtlm_gpu_sim_insn(eager.gpu.get()), smtlm_gpu_sim_insn(lazy.gpu.get()));
}

TEST(SynthEngine, OneSmRunCompletesWithPinnedCycles)
{
    smtlm_synth_cfg c = base_cfg();
    c.warps_per_cta = 8;
    c.insts_per_warp = 300;
    c.mix = mix_of("sp=50,int=25,sfu=10,dp=5,ldst=10");
    c.seed = 7;
    Synth s(c);
    ASSERT_EQ(s.rc, SMTLM_OK);
    Engine e(1);
    ASSERT_EQ(e.rc, SMTLM_OK);
    ASSERT_EQ(e.run(s.s), SMTLM_RUN_DONE);
    EXPECT_EQ(smtlm_gpu_sim_warp_insn(e.gpu.get()), smtlm_synth_total_warp_insts(&s.s));
    EXPECT_EQ(smtlm_gpu_sim_insn(e.gpu.get()), smtlm_synth_total_thread_insts(&s.s));
    // Regression value of this model (C engine, QV100-like config, one SM) for this fixed
    // synthetic kernel: NOT an Accel-Sim measurement. It changes only when the model's timing
    // or the generator's stream changes; 5000 of it is the kernel launch latency.
    EXPECT_EQ(e.gpu->sim_cycle, 6668u);
}

TEST(SynthEngine, ManyCtasOverSeveralSmsWithPartialWarpsAndGlobalLoads)
{
    smtlm_synth_cfg c = base_cfg();
    c.n_ctas = 7;
    c.warps_per_cta = 0;
    c.threads_per_cta = 200; // 7 warps, the last with 8 lanes
    c.insts_per_warp = 150;
    c.mix = mix_of("sp=40,int=30,sfu=5,dp=5,ldst=10,ldg=10");
    Synth s(c);
    ASSERT_EQ(s.rc, SMTLM_OK);
    Engine e(2);
    ASSERT_EQ(e.rc, SMTLM_OK);
    ASSERT_EQ(e.run(s.s), SMTLM_RUN_DONE);
    EXPECT_EQ(smtlm_gpu_sim_warp_insn(e.gpu.get()), smtlm_synth_total_warp_insts(&s.s));
    EXPECT_EQ(smtlm_gpu_sim_insn(e.gpu.get()), smtlm_synth_total_thread_insts(&s.s));
    EXPECT_GT(e.sms[0].stats.warp_insts, 0u);
    EXPECT_GT(e.sms[1].stats.warp_insts, 0u);
}

TEST(SynthEngine, RunsAreDeterministic)
{
    smtlm_synth_cfg c = base_cfg();
    c.warps_per_cta = 16;
    c.insts_per_warp = 200;
    uint64_t cycles[2];
    for (int r = 0; r < 2; r++) {
        Synth s(c);
        Engine e(1);
        ASSERT_EQ(e.run(s.s), SMTLM_RUN_DONE);
        cycles[r] = e.gpu->sim_cycle;
    }
    EXPECT_EQ(cycles[0], cycles[1]);
}

// The poll hook sees the kernel at the first step at or past each multiple of SMTLM_POLL_CYCLES
// (from the stop checks; the launch latency passes in one jump, so its multiples make one call
// at its end), and while it returns 0 its presence changes nothing.
TEST(SynthEngine, PollHookEverySoManyCyclesChangesNothing)
{
    smtlm_synth_cfg c = base_cfg();
    c.insts_per_warp = 3000;
    Synth s1(c), s2(c);
    ASSERT_EQ(s1.rc, SMTLM_OK);
    Engine plain(1), hooked(1);
    ASSERT_EQ(hooked.rc, SMTLM_OK);
    std::vector<uint64_t> seen;
    smtlm_gpu_set_poll_hook(hooked.gpu.get(), [](void *ctx, const smtlm_gpu *g) {
        static_cast<std::vector<uint64_t> *>(ctx)->push_back(g->sim_cycle);
        return 0;
    }, &seen);
    ASSERT_EQ(plain.run(s1.s), SMTLM_RUN_DONE);
    ASSERT_EQ(hooked.run(s2.s), SMTLM_RUN_DONE);
    EXPECT_EQ(hooked.gpu->sim_cycle, plain.gpu->sim_cycle);
    EXPECT_EQ(smtlm_gpu_sim_insn(hooked.gpu.get()), smtlm_gpu_sim_insn(plain.gpu.get()));
    const uint64_t cycles = plain.gpu->sim_cycle, launch = plain.cfg.kernel_launch_latency;
    ASSERT_GT(cycles, launch + 2u * SMTLM_POLL_CYCLES);
    // the launch latency's last cycle is stepped (sim_cycle launch), the multiples after it one by one
    std::vector<uint64_t> want = {launch};
    for (uint64_t m = (launch / SMTLM_POLL_CYCLES + 1) * SMTLM_POLL_CYCLES; m <= cycles; m += SMTLM_POLL_CYCLES)
        want.push_back(m);
    EXPECT_EQ(seen, want);
}

// A poll that asks to stop ends the kernel at that poll's cycle with SMTLM_RUN_STOPPED: the
// run is then exactly the one -gpgpu_max_cycle of that many cycles gives (both stop after the
// same step), through the general loop and through run_until's batches.
TEST(SynthEngine, PollHookStopsTheKernelAtItsCycle)
{
    smtlm_synth_cfg c = base_cfg();
    c.insts_per_warp = 3000;
    const uint64_t stop_at = 7 * SMTLM_POLL_CYCLES; // after the 5000-cycle launch latency
    for (int batches = 0; batches < 2; batches++) {
        Synth s1(c), s2(c);
        ASSERT_EQ(s1.rc, SMTLM_OK);
        Engine limited(1), stopped(1);
        limited.gpu->cfg.max_cycle = stop_at;
        int polls = 0;
        smtlm_gpu_set_poll_hook(stopped.gpu.get(), [](void *ctx, const smtlm_gpu *g) {
            ++*static_cast<int *>(ctx);
            return g->sim_cycle >= 7 * SMTLM_POLL_CYCLES ? 1 : 0;
        }, &polls);
        ASSERT_EQ(limited.run(s1.s), SMTLM_RUN_MAX_CYCLE);
        smtlm_run_status st;
        if (batches) {
            const smtlm_inst_source src = smtlm_synth_source(&s2.s);
            const smtlm_cta_binder b = smtlm_synth_binder(&s2.s);
            smtlm_gpu_set_source(stopped.gpu.get(), &src, &b);
            const smtlm_kernel_desc k = smtlm_synth_kernel(&s2.s);
            ASSERT_EQ(smtlm_gpu_launch(stopped.gpu.get(), &k), SMTLM_OK);
            do
                st = smtlm_gpu_run_until(stopped.gpu.get(), stopped.gpu->sim_cycle + 333);
            while (st == SMTLM_RUN_RUNNING);
        } else {
            st = stopped.run(s2.s);
        }
        EXPECT_EQ(st, SMTLM_RUN_STOPPED);
        EXPECT_EQ(polls, 4); // the launch latency's end (5000), then 5120, 6144 and 7168
        EXPECT_EQ(stopped.gpu->sim_cycle, stop_at);
        EXPECT_EQ(limited.gpu->sim_cycle, stop_at);
        EXPECT_EQ(smtlm_gpu_sim_insn(stopped.gpu.get()), smtlm_gpu_sim_insn(limited.gpu.get()));
        EXPECT_GT(smtlm_gpu_sim_insn(stopped.gpu.get()), 0u);
    }
}

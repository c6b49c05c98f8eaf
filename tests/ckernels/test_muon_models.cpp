// Muon's analytic bank-conflict model, its measurement through the register-file arbiter, and
// the storage cost model (docs/MUON-MODELS.md), called directly.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

extern "C" {
#include "smtlm/muon_analytic.h"
#include "smtlm/muon_bank_probe.h"
#include "smtlm/muon_cost.h"
}

namespace {

double analytic(unsigned n, unsigned c)
{
    double p = -1;
    EXPECT_EQ(smtlm_muon_analytic_p(n, c, &p), SMTLM_OK);
    return p;
}

// P(>= 3 distinct banks) by enumerating all N^k bank sequences.
double brute_force(unsigned n, unsigned k)
{
    unsigned long total = 1, hits = 0;
    for (unsigned i = 0; i < k; i++)
        total *= n;
    for (unsigned long s = 0; s < total; s++) {
        unsigned long used = 0, x = s;
        for (unsigned i = 0; i < k; i++, x /= n)
            used |= 1ul << (x % n);
        hits += __builtin_popcountl(used) >= 3;
    }
    return (double)hits / (double)total;
}

// ---------------------------------------------------------------- analytic formula

// The design's table, printed to one decimal: N=4: 37.5 / 90.8 / 98.8 / 99.9 %,
// N=8: 65.6 / 99.3 / 100.0 / 100.0 % for C = 1..4.
TEST(MuonAnalytic, ReproducesTheDesignTable)
{
    const double want4[] = {37.5, 90.8, 98.8, 99.9}, want8[] = {65.6, 99.3, 100.0, 100.0};
    for (unsigned c = 1; c <= 4; c++) {
        EXPECT_DOUBLE_EQ(std::round(analytic(4, c) * 1000.0) / 10.0, want4[c - 1]) << "N=4 C=" << c;
        EXPECT_DOUBLE_EQ(std::round(analytic(8, c) * 1000.0) / 10.0, want8[c - 1]) << "N=8 C=" << c;
    }
    // exact values: N=4, C=1: 1 - (4 + 6 x 6)/64 = 24/64; N=8, C=1: 1 - (8 + 28 x 6)/512 = 336/512;
    // N=4, C=2: 1 - (4 + 6 x 62)/4096 = 3720/4096
    EXPECT_DOUBLE_EQ(analytic(4, 1), 24.0 / 64.0);
    EXPECT_DOUBLE_EQ(analytic(8, 1), 336.0 / 512.0);
    EXPECT_DOUBLE_EQ(analytic(4, 2), 3720.0 / 4096.0);
}

TEST(MuonAnalytic, MatchesExhaustiveEnumeration)
{
    for (unsigned n : {3u, 4u, 5u, 8u})
        for (unsigned k = 1; k <= 6; k++) {
            double p = -1;
            ASSERT_EQ(smtlm_muon_p_distinct3(n, k, &p), SMTLM_OK);
            EXPECT_NEAR(p, brute_force(n, k), 1e-12) << "N=" << n << " k=" << k;
        }
}

TEST(MuonAnalytic, EdgesAndErrors)
{
    double p = -1;
    EXPECT_EQ(smtlm_muon_p_distinct3(2, 300, &p), SMTLM_OK); // two banks never give three
    EXPECT_EQ(p, 0.0);
    EXPECT_EQ(smtlm_muon_p_distinct3(1, 3, &p), SMTLM_OK);
    EXPECT_EQ(p, 0.0);
    EXPECT_EQ(smtlm_muon_p_distinct3(64, 2, &p), SMTLM_OK); // two draws never give three
    EXPECT_EQ(p, 0.0);
    EXPECT_EQ(smtlm_muon_p_distinct3(3, 3, &p), SMTLM_OK); // 3!/27
    EXPECT_DOUBLE_EQ(p, 6.0 / 27.0);
    // N^k would overflow a double here; the result is still a probability
    EXPECT_EQ(smtlm_muon_analytic_p(64, 64, &p), SMTLM_OK);
    EXPECT_TRUE(p > 0.999999 && p <= 1.0) << p;
    EXPECT_EQ(smtlm_muon_p_distinct3(0, 3, &p), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_muon_p_distinct3(4, 0, &p), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_muon_p_distinct3(4, 3, nullptr), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_muon_analytic_p(4, 0, &p), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_muon_p_distinct3(4, SMTLM_MUON_ANALYTIC_MAX_DRAWS + 1, &p), SMTLM_ERANGE);
    EXPECT_EQ(smtlm_muon_analytic_p(4, SMTLM_MUON_ANALYTIC_MAX_DRAWS, &p), SMTLM_ERANGE);
}

TEST(MuonAnalytic, GrowsWithBanksAndEntries)
{
    for (unsigned n = 3; n < 16; n++)
        for (unsigned c = 1; c < 6; c++) {
            EXPECT_GT(analytic(n, c + 1), analytic(n, c)) << n << " " << c;
            EXPECT_GT(analytic(n + 1, c), analytic(n, c)) << n << " " << c;
        }
}

// ---------------------------------------------------------------- measurement through the arbiter

struct Probe {
    std::unique_ptr<smtlm_rf> rf{new smtlm_rf};
    smtlm_muon_probe_result r{};
    const char *why = nullptr;
    int run(smtlm_muon_probe_cfg c, uint64_t cycles) { return smtlm_muon_probe_run(rf.get(), &c, cycles, &r, &why); }
    double p() const { return (double)r.hits / (double)r.cycles; }
};

smtlm_muon_probe_cfg fresh(unsigned n, unsigned c, unsigned regs = 256)
{
    smtlm_muon_probe_cfg cfg = {n, c, regs, 0, 0, 0, 1};
    return cfg;
}

// 1,000,000 cycles per point: the standard error of a fraction is at most 0.05 pp, so the
// measurement's 95% interval is within +-0.1 pp; the formula must lie within 0.5 pp.
constexpr uint64_t kCycles = 1000000;

TEST(MuonBankProbe, ArbiterAgreesWithTheFormulaOverTheDesignGrid)
{
    for (unsigned n : {4u, 8u})
        for (unsigned c = 1; c <= 4; c++) {
            Probe pr;
            ASSERT_EQ(pr.run(fresh(n, c), kCycles), SMTLM_OK) << pr.why;
            ASSERT_EQ(pr.r.cycles, kCycles);
            EXPECT_NEAR(100.0 * pr.p(), 100.0 * analytic(n, c), 0.5) << "N=" << n << " C=" << c;
        }
}

// The arbiter grants one read per bank that has one, so the mean grants per cycle is the
// expected number of distinct banks among 3C uniform draws, N (1 - (1 - 1/N)^(3C)).
TEST(MuonBankProbe, GrantsOneReadPerDistinctBank)
{
    for (unsigned n : {2u, 4u, 8u})
        for (unsigned c : {1u, 3u}) {
            Probe pr;
            ASSERT_EQ(pr.run(fresh(n, c), 200000), SMTLM_OK) << pr.why;
            const double want = n * (1.0 - std::pow(1.0 - 1.0 / n, 3.0 * c));
            EXPECT_NEAR((double)pr.r.grants / (double)pr.r.cycles, want, 0.01) << "N=" << n << " C=" << c;
            if (n < 3) {
                EXPECT_EQ(pr.r.hits, 0u);
            }
        }
}

TEST(MuonBankProbe, SameSeedSameResultOtherSeedOtherDraws)
{
    Probe a, b, c;
    smtlm_muon_probe_cfg cfg = fresh(4, 1);
    ASSERT_EQ(a.run(cfg, 10000), SMTLM_OK);
    ASSERT_EQ(b.run(cfg, 10000), SMTLM_OK);
    EXPECT_EQ(a.r.hits, b.r.hits);
    EXPECT_EQ(a.r.grants, b.r.grants);
    cfg.seed = 2;
    ASSERT_EQ(c.run(cfg, 10000), SMTLM_OK);
    EXPECT_NE(a.r.grants, c.r.grants);
}

// Departure 1: x0 is never read from the PRF. Registers 1..7 over 4 banks: bank 0 holds only
// R4 (p = 1/7), banks 1..3 two registers each (2/7). P(3 distinct banks in 3 draws) =
// 3! x [3 x (1/7)(2/7)(2/7) + (2/7)^3] = 6 x 20/343 = 120/343 = 34.99% (formula: 37.5%).
TEST(MuonBankProbe, LeavingOutX0SkewsTheBanks)
{
    Probe pr;
    smtlm_muon_probe_cfg cfg = fresh(4, 1, 8);
    cfg.first_reg = 1;
    ASSERT_EQ(pr.run(cfg, kCycles), SMTLM_OK) << pr.why;
    EXPECT_NEAR(pr.p(), 120.0 / 343.0, 0.005);
}

// Departure 2: the operands of one instruction name different registers. 8 registers over 4
// banks (2 each): of the C(8,3) = 56 register triples, C(4,3) x 2^3 = 32 hit 3 banks: 57.14%
// (formula: 37.5%). With 256 registers the effect is small but still upward.
TEST(MuonBankProbe, DistinctRegistersPerInstructionRaiseTheProbability)
{
    Probe small, large;
    smtlm_muon_probe_cfg cfg = fresh(4, 1, 8);
    cfg.distinct_regs = 1;
    ASSERT_EQ(small.run(cfg, kCycles), SMTLM_OK) << small.why;
    EXPECT_NEAR(small.p(), 32.0 / 56.0, 0.005);
    // 256 registers, 64 per bank: P = 4 x 64^3 / C(256,3) = 1048576 / 2763520 = 37.94%
    cfg = fresh(4, 1, 256);
    cfg.distinct_regs = 1;
    ASSERT_EQ(large.run(cfg, kCycles), SMTLM_OK) << large.why;
    EXPECT_NEAR(large.p(), 1048576.0 / 2763520.0, 0.005);
}

// Departure 3: in steady state an entry keeps the operands that lost a bank conflict, and
// those cluster in the banks that conflict, so fewer cycles find 3 distinct banks than the
// formula's fresh draws promise.
TEST(MuonBankProbe, SteadyStateFindsThreeBanksLessOftenThanTheFormula)
{
    for (unsigned n : {4u, 8u})
        for (unsigned c = 1; c <= 4; c++) {
            Probe pr;
            smtlm_muon_probe_cfg cfg = fresh(n, c);
            cfg.steady = 1;
            ASSERT_EQ(pr.run(cfg, 200000), SMTLM_OK) << pr.why;
            EXPECT_EQ(pr.r.cycles, 200000u);
            EXPECT_LT(pr.p(), analytic(n, c) - 0.01) << "N=" << n << " C=" << c;
        }
}

TEST(MuonBankProbe, RejectsBadConfigurations)
{
    Probe pr;
    EXPECT_EQ(pr.run(fresh(0, 1), 10), SMTLM_EINVAL);
    EXPECT_NE(pr.why, nullptr);
    EXPECT_EQ(pr.run(fresh(SMTLM_MAX_BANKS + 1, 1), 10), SMTLM_EINVAL);
    EXPECT_EQ(pr.run(fresh(4, 0), 10), SMTLM_EINVAL);
    EXPECT_EQ(pr.run(fresh(4, SMTLM_MUON_PROBE_MAX_ENTRIES + 1), 10), SMTLM_EINVAL);
    EXPECT_EQ(pr.run(fresh(4, 1, SMTLM_MUON_PROBE_MAX_REGS + 1), 10), SMTLM_ERANGE);
    EXPECT_EQ(pr.run(fresh(4, 1, 0), 10), SMTLM_EINVAL);
    smtlm_muon_probe_cfg cfg = fresh(4, 1, 3);
    cfg.first_reg = 1;
    cfg.distinct_regs = 1; // registers 1 and 2 cannot make 3 different operands
    EXPECT_EQ(pr.run(cfg, 10), SMTLM_EINVAL);
    cfg.first_reg = 2;
    EXPECT_EQ(pr.run(cfg, 10), SMTLM_EINVAL);
    EXPECT_EQ(pr.run(fresh(4, SMTLM_MUON_PROBE_MAX_ENTRIES), 1000), SMTLM_OK) << pr.why; // the largest fits
}

// ---------------------------------------------------------------- cost model

// The design's machine: 256 physical registers, 2-bit pendingReads, a 16-entry RS (2 per warp,
// 8 warps), 16 threads x 32 bit, operand data in the RS, and the crossbar example B=8, C=4.
smtlm_muon_cost_cfg design()
{
    smtlm_muon_cost_cfg c = {};
    c.phys_regs = 256;
    c.pending_read_bits = 2;
    c.rs_entries = 16;
    c.warps = 8;
    c.rs_data = 1;
    c.threads = 16;
    c.xlen = 32;
    c.prf_banks = 8;
    c.prf_copies = 1;
    c.collector_entries = 4;
    return c;
}

smtlm_muon_cost cost(const smtlm_muon_cost_cfg &c)
{
    smtlm_muon_cost o;
    const char *why = nullptr;
    EXPECT_EQ(smtlm_muon_cost_compute(&c, &o, &why), SMTLM_OK) << (why ? why : "");
    return o;
}

TEST(MuonCost, ReproducesTheDesignFigures)
{
    smtlm_muon_cost o = cost(design());
    EXPECT_EQ(o.preg_bits, 8u);
    EXPECT_EQ(o.warp_bits, 3u);
    EXPECT_EQ(o.scoreboard_bits, 768u);          // 256 x (1 + 2)
    EXPECT_EQ(o.scoreboard_total_bits, 768u);    // no epochs, no fences
    EXPECT_EQ(o.rs_meta_entry_bits, 31u);        // 1 + 3 x (8 + 1 + 1)
    EXPECT_EQ(o.rs_data_entry_bits, 1594u);      // 3 + 32 + 7 + 16 + 3 x 16 x 32
    EXPECT_EQ(o.rs_operand_data_bits, 1536u);
    EXPECT_EQ(o.rs_entry_bits, 1625u);
    EXPECT_EQ(o.rs_meta_table_bits, 496u);       // 16 x 31
    EXPECT_EQ(o.rs_data_table_bits, 25504u);     // 16 x 1594
    EXPECT_EQ(o.prf_bits, 131072u);              // 16 KiB
    EXPECT_EQ(o.crossbar_bits, 16384u);          // 8 x 4 x (16 x 32)
    EXPECT_EQ(o.collector_bits, 6144u);          // 4 x 3 x 512
    EXPECT_EQ(o.collector_tag_bits, 0u);
}

// The design's collector sizes: instruction-banked 4 banks x 3 x 8-deep x 512b = 49152b
// (32 entries); minimally-banked one entry, 512b x 3 = 1536b.
TEST(MuonCost, CollectorSizesOfTheDesignsStrategies)
{
    smtlm_muon_cost_cfg c = design();
    c.collector_entries = 32;
    EXPECT_EQ(cost(c).collector_bits, 49152u);
    c.collector_entries = 1;
    EXPECT_EQ(cost(c).collector_bits, 1536u);
    c.collector_tags = 1; // caching: + 3 x (8-bit tag + valid)
    EXPECT_EQ(cost(c).collector_tag_bits, 27u);
    EXPECT_EQ(cost(c).collector_bits, 1563u);
}

// What the RTL builds: 3-bit pendingReads (maxPendingReads 7), 8 RS entries without operand
// data, the duplicated collector (3 PRF copies, 2 entries), 1 bank.
TEST(MuonCost, TheRtlMachine)
{
    smtlm_muon_cost_cfg c = design();
    c.pending_read_bits = 3;
    c.rs_entries = 8;
    c.rs_data = 0;
    c.prf_banks = 1;
    c.prf_copies = 3;
    c.collector_entries = 2;
    smtlm_muon_cost o = cost(c);
    EXPECT_EQ(o.scoreboard_bits, 1024u);     // 256 x (1 + 3)
    EXPECT_EQ(o.rs_data_entry_bits, 58u);    // 3 + 32 + 7 + 16, no operand data
    EXPECT_EQ(o.rs_entry_bits, 89u);
    EXPECT_EQ(o.rs_data_table_bits, 464u);
    EXPECT_EQ(o.prf_bits, 393216u);          // three copies of 16 KiB
    EXPECT_EQ(o.collector_bits, 3072u);      // 3 x 2 vectors of 16 x 32 bit
    EXPECT_EQ(o.crossbar_bits, 1024u);       // 1 x 2 x 512
}

TEST(MuonCost, EpochsFencesAndInOrderAddTheirBits)
{
    smtlm_muon_cost_cfg c = design();
    c.epochs = 1;  // + 256 x (2 + 1)
    c.fences = 1;  // + 256
    c.in_order = 1; // + log2(16) + 1 = 5 per entry
    smtlm_muon_cost o = cost(c);
    EXPECT_EQ(o.scoreboard_bits, 768u);
    EXPECT_EQ(o.scoreboard_epoch_bits, 768u);
    EXPECT_EQ(o.scoreboard_fence_bits, 256u);
    EXPECT_EQ(o.scoreboard_total_bits, 1792u);
    EXPECT_EQ(o.seq_bits, 5u);
    EXPECT_EQ(o.rs_meta_entry_bits, 36u);
    EXPECT_EQ(o.rs_meta_table_bits, 576u);
}

TEST(MuonCost, IndexBitsAndOddSizes)
{
    EXPECT_EQ(smtlm_muon_index_bits(1), 0u);
    EXPECT_EQ(smtlm_muon_index_bits(2), 1u);
    EXPECT_EQ(smtlm_muon_index_bits(8), 3u);
    EXPECT_EQ(smtlm_muon_index_bits(9), 4u);
    EXPECT_EQ(smtlm_muon_index_bits(256), 8u);
    EXPECT_EQ(smtlm_muon_index_bits(257), 9u);
    smtlm_muon_cost_cfg c = design();
    c.phys_regs = 200; // 8-bit register numbers still
    c.warps = 5;       // 3-bit warp numbers
    smtlm_muon_cost o = cost(c);
    EXPECT_EQ(o.scoreboard_bits, 600u);
    EXPECT_EQ(o.rs_meta_entry_bits, 31u);
    EXPECT_EQ(o.rs_data_entry_bits, 1594u);
}

TEST(MuonCost, RejectsBadConfigurations)
{
    smtlm_muon_cost o;
    const char *why = nullptr;
    smtlm_muon_cost_cfg c = design();
    c.phys_regs = 0;
    EXPECT_EQ(smtlm_muon_cost_compute(&c, &o, &why), SMTLM_EINVAL);
    ASSERT_NE(why, nullptr);
    EXPECT_NE(std::string(why).find("phys_regs"), std::string::npos);
    c = design();
    c.xlen = SMTLM_MUON_COST_MAX + 1;
    EXPECT_EQ(smtlm_muon_cost_compute(&c, &o, &why), SMTLM_ERANGE);
    c = design();
    c.pending_read_bits = 0;
    EXPECT_EQ(smtlm_muon_cost_compute(&c, &o, &why), SMTLM_EINVAL);
    c.pending_read_bits = 17;
    EXPECT_EQ(smtlm_muon_cost_compute(&c, &o, &why), SMTLM_EINVAL);
    c = design();
    c.prf_copies = 4;
    EXPECT_EQ(smtlm_muon_cost_compute(&c, &o, &why), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_muon_cost_compute(nullptr, &o, &why), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_muon_cost_compute(&c, nullptr, nullptr), SMTLM_EINVAL);
    // the largest counts stay exact in 64 bits
    c = design();
    c.prf_banks = c.collector_entries = c.threads = c.xlen = SMTLM_MUON_COST_MAX;
    o = cost(c);
    EXPECT_EQ(o.crossbar_bits, (uint64_t)1 << 56);
}

} // namespace

// WaitBounds (the accesses a Gpu has handed to processes of their own) against the rule written
// out directly over every outstanding access: over long random runs with thousands of accesses
// outstanding (added in cycle order, sent a random lag after their cycle's time, answered in
// random order, sent again as a target that refused byte enables makes them), the least bound and
// the time to wait for a cycle are the direct rule's at every step.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "smtlm/tlm/wait_bounds.h"

namespace {

struct Access {
    uint64_t cycle = 0, sent = 0;
    bool is_sent = false;
    smtlm::WaitBounds::Entry entry;
};

// The rule, access by access (what MemWaits computed before it kept them ordered).
uint64_t cycles_between(uint64_t from, uint64_t to, uint64_t p) { return to > from ? (to - from + p - 1) / p : 0; }

uint64_t bound_of(const Access &a, uint64_t now, uint64_t p)
{
    return a.is_sent ? a.cycle + std::max<uint64_t>(1, cycles_between(a.sent, now, p)) : a.cycle + 1;
}

uint64_t direct_bound(const std::map<uint64_t, std::unique_ptr<Access>> &out, uint64_t now, uint64_t p)
{
    uint64_t b = UINT64_MAX;
    for (const auto &a : out)
        b = std::min(b, bound_of(*a.second, now, p));
    return b;
}

uint64_t direct_wait(const std::map<uint64_t, std::unique_ptr<Access>> &out, uint64_t cycle, uint64_t now, uint64_t p)
{
    uint64_t until = now;
    for (const auto &e : out) {
        const Access &a = *e.second;
        if (bound_of(a, now, p) > cycle)
            continue;
        if (!a.is_sent)
            return 0;
        until = std::max(until, a.sent + p * (cycle - a.cycle) + 1);
    }
    return until > now ? until - now : 1;
}

void run(uint64_t period, unsigned seed, unsigned steps, unsigned keep)
{
    std::mt19937_64 rng(seed);
    smtlm::WaitBounds wb;
    wb.set_period(period);
    std::map<uint64_t, std::unique_ptr<Access>> out; // by a serial number
    std::vector<std::unique_ptr<Access>> answered;  // alive as long as wb, as MemWaits's workers are
    uint64_t serial = 0, now = 0, cycle = 0;
    unsigned checked = 0;
    for (unsigned step = 0; step < steps; step++) {
        const unsigned what = rng() % 8;
        if (what < 3 || out.size() < keep / 2) { // an access of this cycle (several per cycle)
            cycle += rng() % 3 == 0;
            std::unique_ptr<Access> a(new Access);
            a->cycle = cycle;
            wb.add(&a->entry, cycle);
            out.emplace(serial++, std::move(a));
        } else if (what < 5) { // an unsent access leaves, a lag after its cycle's time
            for (auto &e : out)
                if (!e.second->is_sent) {
                    Access &a = *e.second;
                    a.sent = std::max(now, a.cycle * period + rng() % (3 * period));
                    a.is_sent = true;
                    wb.sent(&a.entry, a.sent);
                    break;
                }
        } else if (what < 7 && out.size() > keep) { // one is answered, any one
            auto it = out.begin();
            std::advance(it, rng() % out.size());
            wb.remove(&it->second->entry);
            answered.push_back(std::move(it->second));
            out.erase(it);
        } else if (what == 7) { // time passes; now and then a sent access is sent again later
            now += rng() % (2 * period);
            if (rng() % 16 == 0 && !out.empty()) {
                Access &a = *out.begin()->second;
                if (a.is_sent) {
                    a.sent = std::max(a.sent, now);
                    wb.sent(&a.entry, a.sent);
                }
            }
        }
        cycle = std::max(cycle, now / period);
        const uint64_t b = direct_bound(out, now, period);
        ASSERT_EQ(wb.bound(now), b) << "step " << step;
        ASSERT_EQ(wb.size(), out.size());
        if (b != UINT64_MAX) {
            for (uint64_t c = b; c < b + 3; c++)
                ASSERT_EQ(wb.wait_ticks(c, now), direct_wait(out, c, now, period)) << "step " << step << " cycle " << c;
        }
        checked++;
    }
    EXPECT_EQ(checked, steps);
    wb.clear();
    EXPECT_TRUE(wb.empty());
    EXPECT_EQ(wb.bound(now), UINT64_MAX);
}

// 883 ticks a cycle (1132 MHz at 1 ps), about 2,000 accesses outstanding.
TEST(WaitBounds, MatchesTheRuleWithThousandsOutstanding) { run(883, 1, 20000, 2000); }

// A period of one tick (every access old after one tick) and a few outstanding.
TEST(WaitBounds, MatchesTheRuleAtAOneTickPeriod) { run(1, 2, 20000, 8); }

} // namespace

#include "smtlm/tlm/wait_bounds.h"

#include <algorithm>

namespace smtlm {

void WaitBounds::add(Entry *e, uint64_t cycle)
{
    e->cycle = cycle;
    e->sent = 0;
    e->k = 0;
    e->seq = seq_++;
    e->state = Entry::Unsent;
    unsent_.insert(e);
}

// Again for the same access when it is sent again (a target that refused byte enables).
void WaitBounds::sent(Entry *e, uint64_t sent)
{
    if (e->state == Entry::Out) // dropped (a reset) while its call went on
        return;
    remove(e);
    e->sent = sent;
    // k orders the old; in ticks of a simulated time below 2^63 (106 days at 1 ps)
    e->k = (int64_t)(e->cycle * period_) - (int64_t)sent;
    e->state = Entry::Young;
    young_.insert(e);
    young_by_sent_.insert(e);
}

void WaitBounds::remove(Entry *e)
{
    switch (e->state) {
    case Entry::Unsent: unsent_.erase(e); break;
    case Entry::Young:
        young_.erase(e);
        young_by_sent_.erase(e);
        break;
    case Entry::Old: old_.erase(e); break;
    case Entry::Out: break;
    }
    e->state = Entry::Out;
}

void WaitBounds::clear()
{
    for (auto *set : {&unsent_, &young_})
        for (Entry *e : *set)
            e->state = Entry::Out;
    for (Entry *e : old_)
        e->state = Entry::Out;
    unsent_.clear();
    young_.clear();
    young_by_sent_.clear();
    old_.clear();
}

void WaitBounds::age(uint64_t now)
{
    while (!young_by_sent_.empty()) {
        Entry *e = *young_by_sent_.begin();
        if (now <= e->sent + period_)
            break;
        young_by_sent_.erase(young_by_sent_.begin());
        young_.erase(e);
        e->state = Entry::Old;
        old_.insert(e);
    }
}

// c + ceil((now - sent) / P), for an access sent more than a period before now.
uint64_t WaitBounds::bound_of_old(const Entry *e, uint64_t now) const
{
    return e->cycle + (now - e->sent + period_ - 1) / period_;
}

uint64_t WaitBounds::bound(uint64_t now)
{
    age(now);
    uint64_t b = UINT64_MAX;
    if (!unsent_.empty())
        b = (*unsent_.begin())->cycle + 1;
    if (!young_.empty())
        b = std::min(b, (*young_.begin())->cycle + 1);
    if (!old_.empty())
        b = std::min(b, bound_of_old(*old_.begin(), now));
    return b;
}

// An access whose bound is at most `cycle` passes it once now exceeds sent + (cycle - c) P: the
// latest such time, plus one tick. Among the young of one cycle the latest sent is first; among
// the old the least k is both the least bound and the latest time.
uint64_t WaitBounds::wait_ticks(uint64_t cycle, uint64_t now)
{
    age(now);
    if (!unsent_.empty() && (*unsent_.begin())->cycle + 1 <= cycle)
        return 0;
    uint64_t until = now;
    auto passes = [&](const Entry *e) { until = std::max(until, e->sent + (cycle - e->cycle) * period_ + 1); };
    for (auto it = young_.begin(); it != young_.end() && (*it)->cycle + 1 <= cycle;) {
        passes(*it);
        Entry next; // the first of the next cycle: the latest sent comes first
        next.cycle = (*it)->cycle + 1;
        next.sent = UINT64_MAX;
        next.seq = 0;
        it = young_.lower_bound(&next);
    }
    if (!old_.empty() && bound_of_old(*old_.begin(), now) <= cycle)
        passes(*old_.begin());
    return until > now ? until - now : 1;
}

} // namespace smtlm

#include "smtlm/tlm/wait_bounds.h"

#include <algorithm>

namespace smtlm {

void WaitBounds::add(Entry *e, uint64_t cycle)
{
    e->cycle = cycle;
    e->sent = 0;
    e->k = 0;
    e->seq = ++seq_; // what the heap still holds of the entry's last access is stale now
    e->state = Entry::Unsent;
    e->pos = near_.size();
    near_.push_back(e);
}

void WaitBounds::sent(Entry *e, uint64_t sent)
{
    if (e->state == Entry::Out) // dropped (a reset) while its call went on
        return;
    if (e->state == Entry::Old) { // sent again after it aged: near again
        old_live_--;
        e->seq = ++seq_;
        e->pos = near_.size();
        near_.push_back(e);
    }
    e->sent = sent;
    // k orders the old; in ticks of a simulated time below 2^63 (106 days at 1 ps)
    e->k = (int64_t)(e->cycle * period_) - (int64_t)sent;
    e->state = Entry::Young;
}

void WaitBounds::take_near(Entry *e)
{
    Entry *last = near_.back();
    near_[e->pos] = last;
    last->pos = e->pos;
    near_.pop_back();
}

void WaitBounds::remove(Entry *e)
{
    if (e->state == Entry::Unsent || e->state == Entry::Young)
        take_near(e);
    else if (e->state == Entry::Old)
        old_live_--;
    e->state = Entry::Out;
    if (old_.size() > 2 * old_live_ + 1024) { // mostly answered: rebuilt without them (amortised)
        old_.erase(std::remove_if(old_.begin(), old_.end(),
                                  [](const Old &o) { return o.e->state != Entry::Old || o.e->seq != o.seq; }),
                   old_.end());
        std::make_heap(old_.begin(), old_.end());
    }
}

void WaitBounds::clear()
{
    for (Entry *e : near_)
        e->state = Entry::Out;
    for (const Old &o : old_)
        if (o.e->seq == o.seq)
            o.e->state = Entry::Out;
    near_.clear();
    old_.clear();
    old_live_ = 0;
}

void WaitBounds::age(uint64_t now)
{
    for (size_t i = 0; i < near_.size();) {
        Entry *e = near_[i];
        if (e->state != Entry::Young || now <= e->sent + period_) {
            i++;
            continue;
        }
        take_near(e); // the last one comes to i: look at it next
        e->state = Entry::Old;
        old_.push_back({e->k, e->seq, e});
        std::push_heap(old_.begin(), old_.end());
        old_live_++;
    }
}

const WaitBounds::Entry *WaitBounds::old_top()
{
    while (!old_.empty() && (old_.front().e->state != Entry::Old || old_.front().e->seq != old_.front().seq)) {
        std::pop_heap(old_.begin(), old_.end());
        old_.pop_back();
    }
    return old_.empty() ? nullptr : old_.front().e;
}

// c + ceil((now - sent) / P), for an access sent more than a period before now.
uint64_t WaitBounds::bound_of_old(const Entry *e, uint64_t now) const
{
    return e->cycle + (now - e->sent + period_ - 1) / period_;
}

uint64_t WaitBounds::bound_of(const Entry *e, uint64_t now) const
{
    if (e->state == Entry::Unsent || now <= e->sent + period_)
        return e->cycle + 1;
    return bound_of_old(e, now);
}

uint64_t WaitBounds::bound(uint64_t now)
{
    age(now);
    uint64_t b = UINT64_MAX;
    for (const Entry *e : near_)
        b = std::min(b, e->cycle + 1);
    if (const Entry *e = old_top())
        b = std::min(b, bound_of_old(e, now));
    return b;
}

// An access whose bound is at most `cycle` passes it once now exceeds sent + (cycle - c) P: the
// latest such time, plus one tick. Among the old the least k is both the least bound and the
// latest time.
uint64_t WaitBounds::wait_ticks(uint64_t cycle, uint64_t now)
{
    age(now);
    uint64_t until = now;
    auto passes = [&](const Entry *e) { until = std::max(until, e->sent + (cycle - e->cycle) * period_ + 1); };
    for (const Entry *e : near_) {
        if (e->cycle + 1 > cycle)
            continue;
        if (e->state == Entry::Unsent)
            return 0;
        passes(e);
    }
    const Entry *e = old_top();
    if (e && bound_of_old(e, now) <= cycle)
        passes(e);
    return until > now ? until - now : 1;
}

} // namespace smtlm

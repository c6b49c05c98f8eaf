// WaitBounds: the memory accesses a Gpu has handed to processes of their own (MemWaits) and not
// yet seen answered, kept so that the Gpu's thread learns in O(log n) how far it may run.
//
// All times are in time-resolution ticks; P is the clock period. An access of cycle c sent at
// time s (at or after c's time) that is still unanswered at time t has consumed t - s, so its
// answer is due no earlier than cycle
//     bound = c + max(1, ceil((t - s) / P))          (c + 1 while it has not been sent)
// and the thread may run every cycle before the least bound. While t <= s + P an access's bound
// is c + 1 ("young"); after that it is ceil((t + k) / P) with k = c P - s, which grows with k
// ("old"). An access turns old once, when t passes s + P, so the young are also kept in the
// order of their sending time and moved over as time passes: the least bound is the least young
// cycle + 1 or the bound of the old access with the least k.
#ifndef SMTLM_TLM_WAIT_BOUNDS_H
#define SMTLM_TLM_WAIT_BOUNDS_H

#include <cstddef>
#include <cstdint>
#include <set>

namespace smtlm {

class WaitBounds {
  public:
    // One access; it belongs to the caller (a worker) and is in at most one WaitBounds.
    struct Entry {
        uint64_t cycle = 0, sent = 0, seq = 0;
        int64_t k = 0; // cycle P - sent: orders the old
        enum State { Out, Unsent, Young, Old } state = Out;
    };

    WaitBounds() = default;
    // The clock period in ticks; set while empty (the period of a Gpu is fixed at construction).
    void set_period(uint64_t period) { period_ = period ? period : 1; }
    WaitBounds(const WaitBounds &) = delete;
    WaitBounds &operator=(const WaitBounds &) = delete;

    // An access of `cycle`, not sent yet.
    void add(Entry *e, uint64_t cycle);
    // It left at time `sent` (no earlier than its cycle's time).
    void sent(Entry *e, uint64_t sent);
    // It was answered (or dropped).
    void remove(Entry *e);
    void clear();
    bool empty() const { return unsent_.empty() && young_.empty() && old_.empty(); }
    size_t size() const { return unsent_.size() + young_.size() + old_.size(); }

    // The first cycle an access still unanswered at `now` could be answered for (UINT64_MAX: none).
    uint64_t bound(uint64_t now);
    // How long after `now` bound() first exceeds `cycle` if no access is answered meanwhile: 0
    // when an access of an earlier cycle has not been sent (it leaves in the next delta cycle),
    // at least one tick otherwise.
    uint64_t wait_ticks(uint64_t cycle, uint64_t now);

  private:
    struct ByCycle { // the unsent, and the young: the least cycle first, the latest sent first among equals
        bool operator()(const Entry *a, const Entry *b) const
        {
            if (a->cycle != b->cycle)
                return a->cycle < b->cycle;
            if (a->sent != b->sent)
                return a->sent > b->sent;
            return a->seq < b->seq;
        }
    };
    struct BySent {
        bool operator()(const Entry *a, const Entry *b) const
        {
            return a->sent != b->sent ? a->sent < b->sent : a->seq < b->seq;
        }
    };
    struct ByK {
        bool operator()(const Entry *a, const Entry *b) const { return a->k != b->k ? a->k < b->k : a->seq < b->seq; }
    };
    void age(uint64_t now); // moves the young sent more than one period before `now` to the old
    uint64_t bound_of_old(const Entry *e, uint64_t now) const;

    uint64_t period_ = 1;
    uint64_t seq_ = 0;
    std::set<Entry *, ByCycle> unsent_, young_;
    std::set<Entry *, BySent> young_by_sent_;
    std::set<Entry *, ByK> old_;
};

} // namespace smtlm

#endif

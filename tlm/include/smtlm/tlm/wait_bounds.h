// WaitBounds: the memory accesses a Gpu has handed to processes of their own (MemWaits) and not
// yet seen answered, kept so that the Gpu's thread learns how far it may run in O(log n) per
// access, with no allocation per access.
//
// All times are in time-resolution ticks; P is the clock period. An access of cycle c sent at
// time s (at or after c's time) that is still unanswered at time t has consumed t - s, so its
// answer is due no earlier than cycle
//     bound = c + max(1, ceil((t - s) / P))          (c + 1 while it has not been sent)
// and the thread may run every cycle before the least bound. While t <= s + P an access's bound
// is c + 1 ("near": the accesses of about the last cycle, few); after that it is
// ceil((t + k) / P) with k = c P - s, which grows with k ("old": kept in a heap by k, an answered
// one dropped when it comes to the top). An access turns old once, when t passes s + P.
#ifndef SMTLM_TLM_WAIT_BOUNDS_H
#define SMTLM_TLM_WAIT_BOUNDS_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace smtlm {

class WaitBounds {
  public:
    // One access; it belongs to the caller (a worker) and is in at most one WaitBounds. It must
    // live as long as that WaitBounds, answered or not: the heap drops an answered entry only
    // when it comes to the top, and reads the entry to know it is stale.
    struct Entry {
        uint64_t cycle = 0, sent = 0, seq = 0;
        int64_t k = 0;  // cycle P - sent: orders the old
        size_t pos = 0; // in near_
        enum State { Out, Unsent, Young, Old } state = Out;
    };

    WaitBounds() = default;
    // The clock period in ticks; set while empty (the period of a Gpu is fixed at construction).
    void set_period(uint64_t period) { period_ = period ? period : 1; }
    WaitBounds(const WaitBounds &) = delete;
    WaitBounds &operator=(const WaitBounds &) = delete;

    // An access of `cycle`, not sent yet.
    void add(Entry *e, uint64_t cycle);
    // It left (again, for a target that refused byte enables) at time `sent`, no earlier than
    // its cycle's time.
    void sent(Entry *e, uint64_t sent);
    // It was answered (or dropped).
    void remove(Entry *e);
    void clear();
    bool empty() const { return near_.empty() && old_live_ == 0; }
    size_t size() const { return near_.size() + old_live_; }

    // The first cycle an access still unanswered at `now` could be answered for (UINT64_MAX: none).
    uint64_t bound(uint64_t now);
    // The same for one access (in this WaitBounds).
    uint64_t bound_of(const Entry *e, uint64_t now) const;
    // How long after `now` bound() first exceeds `cycle` if no access is answered meanwhile: 0
    // when an access of an earlier cycle has not been sent (it leaves in the next delta cycle),
    // at least one tick otherwise.
    uint64_t wait_ticks(uint64_t cycle, uint64_t now);

  private:
    struct Old {
        int64_t k;
        uint64_t seq;
        Entry *e;
        bool operator<(const Old &o) const { return k > o.k; } // a heap with the least k on top
    };
    void take_near(Entry *e); // out of near_
    void age(uint64_t now);   // the near sent more than one period before `now` become old
    const Entry *old_top();   // the old access with the least k (answered ones dropped), or null
    uint64_t bound_of_old(const Entry *e, uint64_t now) const;

    uint64_t period_ = 1;
    uint64_t seq_ = 0;
    std::vector<Entry *> near_; // unsent, and sent no more than a period ago
    std::vector<Old> old_;      // a heap; entries whose access was answered are skipped
    size_t old_live_ = 0;
};

} // namespace smtlm

#endif

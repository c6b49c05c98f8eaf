// sc_spawn for the workers: SystemC declares it only when asked before its headers
#define SC_INCLUDE_DYNAMIC_PROCESSES

#include "smtlm/tlm/mem_waits.h"

#include <algorithm>

namespace smtlm {

struct MemWaits::Worker {
    MemPayload p;
    smtlm_mem_req req;
    LdSt *port = nullptr;
    smtlm_mem_model *m = nullptr;
    unsigned slot = 0;
    uint64_t cycle = 0, generation = 0;
    bool started = false;
    sc_core::sc_time sent; // the request's time (written before the call)
    sc_core::sc_event go;
};

MemWaits::MemWaits(std::string owner, const TimeBase &time, uint64_t *horizon)
    : owner_(std::move(owner)), time_(time), horizon_(horizon)
{
}

MemWaits::~MemWaits() = default;

void MemWaits::noticed(const LdSt &port, uint64_t cycle)
{
    if (held_)
        noticed_held_ = true;
    else
        on_ = true;
    if (warned_)
        return;
    warned_ = true;
    const std::string msg = owner_ + ": the memory target of " + port.mem.name() + " waited in b_transport (cycle " +
                            std::to_string(cycle) +
                            "): from now on each access runs in a process of its own so that waits overlap; "
                            "GpuParams::memory_waits (-smtlm_mem_waits 1) does so from the first access";
    SC_REPORT_WARNING("smtlm/memory", msg.c_str());
}

void MemWaits::issue(LdSt &port, smtlm_mem_model *m, unsigned slot, const smtlm_mem_req &req, uint64_t cycle)
{
    Worker *w;
    if (idle_.empty()) { // a new worker: a thread that serves one access at a time
        workers_.emplace_back(new Worker);
        w = workers_.back().get();
        sc_core::sc_spawn_options o;
        sc_core::sc_spawn([this, w] { serve(w); }, sc_core::sc_gen_unique_name("mem_wait"), &o);
    } else {
        w = idle_.back();
        idle_.pop_back();
    }
    w->req = req;
    w->port = &port;
    w->m = m;
    w->slot = slot;
    w->cycle = cycle;
    w->generation = generation_;
    w->started = false;
    out_.push_back(w);
    if (*horizon_ > cycle + 1)
        *horizon_ = cycle + 1; // the batch ends after this cycle: the next needs the bound
    w->go.notify(sc_core::SC_ZERO_TIME);
}

void MemWaits::serve(Worker *w)
{
    for (;;) {
        sc_core::wait(w->go);
        const uint64_t generation = w->generation;
        w->started = true;
        uint64_t latency = 0;
        const int rc = w->port->transact(w->p, w->req, w->cycle, &w->sent, &latency);
        if (generation == generation_) {
            out_.erase(std::find(out_.begin(), out_.end(), w));
            if (rc)
                smtlm_mem_fail(w->m, w->slot);
            else
                smtlm_mem_answer(w->m, w->slot, w->cycle + std::max<uint64_t>(1, latency));
            answered_.notify();
        }
        idle_.push_back(w);
    }
}

// An access that has waited since its request's time `sent` consumes at least that long: its
// answer is due no earlier than that many cycles (rounded up, as latencies are) after its cycle.
uint64_t MemWaits::bound_of(const Worker &w) const
{
    if (!w.started)
        return w.cycle + 1;
    return w.cycle + std::max<uint64_t>(1, cycles_between(w.sent, sc_core::sc_time_stamp(), time_.period()));
}

uint64_t MemWaits::bound() const
{
    uint64_t b = UINT64_MAX;
    for (const Worker *w : out_)
        b = std::min(b, bound_of(*w));
    return b;
}

sc_core::sc_time MemWaits::wait_for(uint64_t cycle) const
{
    const sc_core::sc_time now = sc_core::sc_time_stamp(), res = sc_core::sc_get_time_resolution();
    sc_core::sc_time until = now;
    for (const Worker *w : out_) {
        if (bound_of(*w) > cycle)
            continue;
        if (!w->started)
            return sc_core::SC_ZERO_TIME; // it starts in the next delta cycle
        // bound_of passes `cycle` once now - sent > (cycle - w->cycle) periods
        const sc_core::sc_time t = w->sent + time_.period() * (double)(cycle - w->cycle) + res;
        until = std::max(until, t);
    }
    return until > now ? until - now : res;
}

void MemWaits::drop()
{
    generation_++;
    out_.clear();
}

} // namespace smtlm

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
    WaitBounds::Entry entry; // in bounds_ until answered
    sc_core::sc_event go;
    Worker() { p.wait = &entry; }
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

int MemWaits::issue(LdSt &port, smtlm_mem_model *m, unsigned slot, const smtlm_mem_req &req, uint64_t cycle)
{
    if (dropping_)
        return SMTLM_EMEMORY;
    Worker *w;
    if (idle_.empty()) { // a new worker: a thread that serves one access at a time
        workers_.emplace_back(new Worker);
        w = workers_.back().get();
        sc_core::sc_spawn_options o;
        o.set_sensitivity(&w->go); // static: waking it costs no sensitivity set up per access
        o.dont_initialize();
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
    if (bounds_.empty())
        bounds_.set_period(time_.period().value());
    bounds_.add(&w->entry, cycle);
    if (*horizon_ > cycle + 1)
        *horizon_ = cycle + 1; // the batch ends after this cycle: the next needs the bound
    w->go.notify(); // it runs once the thread yields, at this time
    return SMTLM_MEM_LATER;
}

// A worker's process: first run by its first access's `go` (dont_initialize), then by each next.
void MemWaits::serve(Worker *w)
{
    for (;; sc_core::wait()) {
        const uint64_t generation = w->generation;
        uint64_t latency = 0;
        sc_core::sc_time sent;
        const int rc = w->port->transact(w->p, w->req, w->cycle, &sent, &latency); // tells sending()
        if (generation == generation_) {
            // only an access that held the thread back can let it run earlier
            const bool held_back = bounds_.bound_of(&w->entry, sc_core::sc_time_stamp().value()) <= waiting_for_;
            bounds_.remove(&w->entry);
            if (rc)
                smtlm_mem_fail(w->m, w->slot);
            else
                smtlm_mem_answer(w->m, w->slot, w->cycle + std::max<uint64_t>(1, latency));
            if (held_back)
                answered_.notify();
        }
        idle_.push_back(w);
    }
}

uint64_t MemWaits::bound() { return bounds_.bound(sc_core::sc_time_stamp().value()); }

sc_core::sc_time MemWaits::wait_for(uint64_t cycle)
{
    waiting_for_ = cycle;
    return sc_core::sc_time::from_value(bounds_.wait_ticks(cycle, sc_core::sc_time_stamp().value()));
}

void MemWaits::drop(bool dropping)
{
    generation_++;
    bounds_.clear();
    dropping_ = dropping;
}

} // namespace smtlm

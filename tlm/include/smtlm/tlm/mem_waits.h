// MemWaits: memory accesses of a Gpu whose SoC memory waits in b_transport, each in a process
// of its own so that the waits overlap as the requests do in the GPU.
//
// A target may call wait() in b_transport (legal LT: one that synchronises, a bridge, a model
// with its own timing). Called from the Gpu's thread, each wait would stop every SM until it
// ends, and the accesses' waits would add up instead of overlapping. Here each access is handed
// to a worker process; the SM's memory port keeps it in order as "answered later", and the
// Gpu's thread runs no cycle for which an unanswered access could still be answered: a worker
// that has waited w since its request's time answers no earlier than w (in cycles, rounded
// up) after the request's cycle, so cycles before that run freely, and the thread lets
// simulated time pass (to just after that cycle's time) when it reaches that bound. The latency
// is what the call consumed, as for an access made in the thread; an access is answered at
// least one cycle after its request. A request made while the thread waits on such a bound
// leaves one time-resolution tick (1 ps by default) after its cycle's time, so a chain of
// dependent accesses lags by a tick per access; the interrupt still comes at the kernel's
// cycle time while that lag stays under one cycle. The outstanding accesses are kept in a
// WaitBounds (O(log n) per access and per look at the bound).
#ifndef SMTLM_TLM_MEM_WAITS_H
#define SMTLM_TLM_MEM_WAITS_H

#include <memory>
#include <string>
#include <vector>

#include "smtlm/tlm/ldst.h"
#include "smtlm/tlm/wait_bounds.h"

namespace smtlm {

class MemWaits {
  public:
    // owner: the Gpu's name, for the report; horizon: the C GPU's batch end, brought to the cycle
    // after each request handed over (the thread must look at it before running on).
    MemWaits(std::string owner, const TimeBase &time, uint64_t *horizon);
    ~MemWaits();
    MemWaits(const MemWaits &) = delete;
    MemWaits &operator=(const MemWaits &) = delete;

    // On: every access goes to a worker (GpuParams::memory_waits, or since a target waited), or
    // is dropped (see drop).
    bool on() const { return on_ || dropping_; }
    void turn_on() { on_ = true; }
    // An access made in the thread waited: on from now (from the end of a hold), and one
    // warning saying so.
    void noticed(const LdSt &port, uint64_t cycle);
    // Held, every access stays in the thread (an SM's window: its accesses must be answered in
    // it); a wait noticed meanwhile turns them on when the hold ends.
    void hold() { held_ = true; }
    void release()
    {
        held_ = false;
        on_ = on_ || noticed_held_;
        noticed_held_ = false;
    }
    // Hands the request in slot `slot` of port memory `m`, made in `cycle`, to a worker:
    // SMTLM_MEM_LATER, or SMTLM_EMEMORY while accesses are dropped (see drop).
    int issue(LdSt &port, smtlm_mem_model *m, unsigned slot, const smtlm_mem_req &req, uint64_t cycle);
    // A worker's access leaves at time `sent` (LdSt::transact, before each b_transport call).
    void sending(WaitBounds::Entry &e, const sc_core::sc_time &sent) { bounds_.sent(&e, sent.value()); }
    bool outstanding() const { return !bounds_.empty(); }
    // The first cycle that may not run yet: an unanswered access could be answered for it
    // (UINT64_MAX when none is outstanding).
    uint64_t bound();
    // How long to let time pass before bound() may exceed `cycle` without an answer.
    sc_core::sc_time wait_for(uint64_t cycle);
    // Notified when an access that kept bound() at or below that cycle is answered.
    const sc_core::sc_event &answered() const { return answered_; }
    // A reset: every outstanding access is forgotten (a worker still in its call drops its answer).
    // With `dropping`, until the next drop(false) every access is dropped as it is made (its
    // SM's memory port answers an error: the batch the reset came in ends at once).
    void drop(bool dropping);
    bool dropping() const { return dropping_; }

  private:
    struct Worker;
    void serve(Worker *w);

    std::string owner_;
    const TimeBase &time_;
    uint64_t *horizon_;
    bool on_ = false, warned_ = false, held_ = false, noticed_held_ = false, dropping_ = false;
    uint64_t generation_ = 0;
    uint64_t waiting_for_ = 0; // the cycle the thread waits to be able to run (wait_for)
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<Worker *> idle_;
    WaitBounds bounds_;
    sc_core::sc_event answered_;
};

} // namespace smtlm

#endif

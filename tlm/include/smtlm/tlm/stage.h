// Pipeline register sets between modules. The sets are channel objects owned by the Sm (one
// row, as in the C engine); each set is read and emptied only by the module it feeds. A
// producer may look at a set's room (like sc_fifo::num_free) but puts an instruction in only by
// a StagePut transaction to the reader, which answers SMTLM_EFULL when it has no room, or, when
// the reader grants direct access (TLM-2.0 DMI: its handler only moves the instruction in),
// moves it in itself exactly as the reader's handler would.
#ifndef SMTLM_TLM_STAGE_H
#define SMTLM_TLM_STAGE_H

#include "smtlm/tlm/transaction.h"

extern "C" {
#include "smtlm/regset.h"
}

namespace smtlm {

// The reader's side of a StagePut into its set t.set of `row`: result = the slot taken, or -1
// with status SMTLM_EFULL.
inline void stage_accept(smtlm_regset *row, SmTransaction &t)
{
    const int slot = smtlm_regset_move_in(&row[t.set], t.sub_core, t.slot, t.inst, t.uid);
    t.result = slot;
    t.status = slot < 0 ? SMTLM_EFULL : SMTLM_OK;
}

// The producer's side: C-kernel stage ops whose room check reads the row and whose put is a
// transaction on the socket of the set's reader.
class StageOut {
  public:
    // Every set goes to `to`, except `other_set`, which goes to `other` (if given).
    void bind(const smtlm_regset *row, SmInitiatorSocket *to, unsigned other_set = ~0u, SmInitiatorSocket *other = nullptr)
    {
        row_ = row;
        to_ = to;
        other_set_ = other_set;
        other_ = other;
    }
    // Asks each reader for direct access to its sets (TLM-2.0 DMI, once the model is built),
    // each socket for itself: a put to a reader that grants this row needs no transaction, one
    // to a reader that grants none (a probe, a module of the VP's own) stays a transaction.
    // `kernel_ops` (the kernel's bound copy of ops(), if given) is rebound to ops(). Returns
    // whether every reader granted (then ops() are the row's own, the C engine's).
    bool try_dmi(smtlm_stage_port *kernel_ops = nullptr)
    {
        SmTransaction t{SmCommand::StagePut};
        const unsigned char *row = reinterpret_cast<const unsigned char *>(row_);
        to_direct_ = to_ && to_->dmi(t) == row;
        other_direct_ = other_ && other_->dmi(t) == row;
        if (kernel_ops)
            *kernel_ops = ops();
        return direct();
    }
    bool direct() const { return to_direct_ && (!other_ || other_direct_); }
    // The room check reads the row directly (as sc_fifo::num_free would); puts are transactions
    // (straight into the row for a reader that granted direct access), or, when every reader
    // granted it, the row's own stage ops (the C engine's).
    smtlm_stage_port ops()
    {
        if (!direct())
            return smtlm_stage_port{nullptr, this, &StageOut::has_free, &StageOut::put, row_};
        smtlm_stage_port o;
        smtlm_regset_stage_port(const_cast<smtlm_regset *>(row_), &o);
        return o;
    }

  private:
    static int has_free(void *ctx, unsigned set, int sub_core, unsigned s)
    {
        return smtlm_regset_has_free(&static_cast<StageOut *>(ctx)->row_[set], sub_core, s);
    }
    static int put(void *ctx, unsigned set, int sub_core, unsigned s, smtlm_iref r, uint64_t uid)
    {
        StageOut *o = static_cast<StageOut *>(ctx);
        const bool other = set == o->other_set_;
        if (other ? o->other_direct_ : o->to_direct_)
            return smtlm_regset_move_in(const_cast<smtlm_regset *>(&o->row_[set]), sub_core, s, r, uid); // as stage_accept
        SmTransaction &t = o->t_; // one payload object reused (a put never nests in another)
        t.set = set;
        t.sub_core = sub_core;
        t.slot = s;
        t.inst = r;
        t.uid = uid;
        (other ? o->other_ : o->to_)->call(t);
        return (int)t.result; // the slot, or -1 when refused (stage_accept)
    }
    const smtlm_regset *row_ = nullptr;
    SmInitiatorSocket *to_ = nullptr, *other_ = nullptr;
    unsigned other_set_ = ~0u;
    bool to_direct_ = false, other_direct_ = false;
    SmTransaction t_{SmCommand::StagePut};
};

// C-kernel warp ops whose every event is a transaction on `sock` (to the issue stage).
class WarpEventsOut {
  public:
    explicit WarpEventsOut(SmInitiatorSocket &sock) : sock_(sock) {}
    smtlm_warp_port ops()
    {
        return smtlm_warp_port{nullptr, this, &release, &completed, &retired, &store_sent, &store_acked, &atomic_done,
                              &written_back};
    }

  private:
    static void send(void *ctx, SmCommand c, unsigned warp, const smtlm_inst *in = nullptr, unsigned reg = 0, long n = 0)
    {
        WarpEventsOut *o = static_cast<WarpEventsOut *>(ctx);
        SmTransaction &t = o->t_; // reused: the issue stage's handler sends no warp event back
        t.cmd = c;
        t.status = SMTLM_OK;
        t.warp = warp;
        t.in = in;
        t.reg = reg;
        t.result = n;
        o->sock_.call(t);
    }
    static void release(void *c, unsigned w, unsigned reg) { send(c, SmCommand::WarpRelease, w, nullptr, reg); }
    static void completed(void *c, const smtlm_inst *in) { send(c, SmCommand::WarpCompleted, in->warp, in); }
    static void retired(void *c, unsigned w) { send(c, SmCommand::WarpRetired, w); }
    static void store_sent(void *c, unsigned w) { send(c, SmCommand::StoreSent, w); }
    static void store_acked(void *c, unsigned w) { send(c, SmCommand::StoreAcked, w); }
    static void atomic_done(void *c, unsigned w, unsigned lanes) { send(c, SmCommand::AtomicDone, w, nullptr, 0, lanes); }
    static void written_back(void *c, const smtlm_inst *in, unsigned mask) // one per ALU instruction
    {
        SmTransaction &t = static_cast<WarpEventsOut *>(c)->t_;
        t.cmd = SmCommand::WarpWrittenBack;
        t.warp = in->warp;
        t.in = in;
        t.result = (long)mask;
        static_cast<WarpEventsOut *>(c)->sock_.call(t); // the issue stage answers SMTLM_OK
    }
    SmInitiatorSocket &sock_;
    SmTransaction t_{SmCommand::WarpRelease};
};

// C-kernel register-file write ops as transactions on `sock`.
class RfWriteOut {
  public:
    explicit RfWriteOut(SmInitiatorSocket &sock) : sock_(sock) {}
    smtlm_write_port ops() { return smtlm_write_port{nullptr, this, &try_write, &can_write, &write}; }

  private:
    static long send(void *ctx, SmCommand c, unsigned warp, unsigned sched, unsigned reg)
    {
        RfWriteOut *o = static_cast<RfWriteOut *>(ctx);
        SmTransaction &t = o->t_; // reused: a write never nests in another (the answer is in result)
        t.cmd = c;
        t.warp = warp;
        t.sched = sched;
        t.reg = reg;
        o->sock_.call(t);
        return t.result;
    }
    static smtlm_rf_write_result try_write(void *c, unsigned w, unsigned s, unsigned r)
    {
        return (smtlm_rf_write_result)send(c, SmCommand::RfTryWrite, w, s, r);
    }
    static int can_write(void *c, unsigned w, unsigned s, unsigned r) { return (int)send(c, SmCommand::RfCanWrite, w, s, r); }
    static void write(void *c, unsigned w, unsigned s, unsigned r) { send(c, SmCommand::RfWrite, w, s, r); }
    SmInitiatorSocket &sock_;
    SmTransaction t_{SmCommand::RfWrite};
};

// The target side of a register-file write socket whose block answers through C-kernel write
// ops `w` (e.g. smtlm_rf_free_write_port: a composition without write conflicts): the
// transaction's command is the call, its result the answer.
inline void serve_rf_write(const smtlm_write_port &w, SmTransaction &t)
{
    switch (t.cmd) {
    case SmCommand::RfTryWrite: t.result = w.try_write(w.ctx, t.warp, t.sched, t.reg); break;
    case SmCommand::RfCanWrite: t.result = w.can_write(w.ctx, t.warp, t.sched, t.reg); break;
    case SmCommand::RfWrite: w.write(w.ctx, t.warp, t.sched, t.reg); break;
    default: t.status = SMTLM_EINVAL; break;
    }
}

} // namespace smtlm

#endif

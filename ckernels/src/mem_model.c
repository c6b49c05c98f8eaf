/* Fixed-latency, bandwidth-limited memory for the C engine. */
#include "smtlm/mem_model.h"

int smtlm_mem_init(smtlm_mem_model *m, unsigned latency, unsigned bytes_per_cycle)
{
    if (bytes_per_cycle == 0)
        return SMTLM_EINVAL;
    m->latency = latency;
    m->bytes_per_cycle = bytes_per_cycle;
    m->ops.ctx = 0;
    m->ops.access = 0;
    smtlm_mem_reset(m);
    return SMTLM_OK;
}

void smtlm_mem_bind(smtlm_mem_model *m, const smtlm_mem_ops *ops) { m->ops = *ops; }

void smtlm_mem_reset(smtlm_mem_model *m)
{
    m->credit = 0;
    m->head = m->len = 0;
    m->accepted = m->bytes = m->latency_sum = 0;
    m->last_event = 0;
    m->error = SMTLM_OK;
}

void smtlm_mem_cycle(smtlm_mem_model *m, smtlm_ldst *u, uint64_t now)
{
    m->credit += m->bytes_per_cycle;
    if (m->credit > (int64_t)m->bytes_per_cycle)
        m->credit = m->bytes_per_cycle;
    while (!m->error && m->credit > 0 && m->len < SMTLM_MEM_INFLIGHT_CAP && smtlm_ldst_pending_requests(u)) {
        unsigned tail = (m->head + m->len) % SMTLM_MEM_INFLIGHT_CAP;
        smtlm_ldst_pop_request(u, &m->q[tail]);
        uint64_t latency = m->latency;
        const int rc = m->ops.access ? m->ops.access(m->ops.ctx, &m->q[tail], now, &latency) : SMTLM_OK;
        if (rc < 0) {
            smtlm_mem_fail(m, tail); /* the run ends with this request as the reason */
            return;
        }
        m->ready[tail] = rc == SMTLM_MEM_LATER ? SMTLM_MEM_UNANSWERED : now + latency;
        m->len++;
        m->credit -= m->q[tail].size;
        m->accepted++;
        m->bytes += m->q[tail].size;
        m->last_event = now;
    }
    /* One response per cycle into the LDST's FIFO, as GPGPU-Sim's interconnect delivers. */
    if (m->len && m->ready[m->head] <= now && smtlm_ldst_can_respond(u)) {
        smtlm_ldst_respond(u, &m->q[m->head]);
        m->latency_sum += now - m->q[m->head].sent_cycle;
        m->head = (m->head + 1) % SMTLM_MEM_INFLIGHT_CAP;
        m->len--;
        m->last_event = now;
    }
}

#include "smtlm/tlm/mem_order.h"

namespace smtlm {

bool order_independent(tlm::tlm_fw_transport_if<> &target)
{
    MemOrderQuery q;
    unsigned char none = 0; // a valid buffer for a target that looks at it, of length 0
    tlm::tlm_generic_payload gp;
    gp.set_command(tlm::TLM_IGNORE_COMMAND);
    gp.set_address(0);
    gp.set_data_ptr(&none);
    gp.set_data_length(0);
    gp.set_streaming_width(0);
    gp.set_extension(&q);
    target.transport_dbg(gp);
    gp.clear_extension(&q);
    return q.independent && q.answered_through == &target;
}

bool answer_order_query(tlm::tlm_generic_payload &gp, const tlm::tlm_fw_transport_if<> *through, bool independent)
{
    MemOrderQuery *q = nullptr;
    gp.get_extension(q);
    if (!q)
        return false;
    q->answered_through = through;
    q->independent = independent;
    return true;
}

} // namespace smtlm

/* Names shown by the pipeline log and the VCD. */
#include "smtlm/view_names.h"

#include <stdio.h>

const char *smtlm_view_op_name(unsigned op, unsigned spec, char *buf, size_t n)
{
    static const char *name[SMTLM_OP_COUNT] = {"sp", "dp", "sfu", "int", "alu", "branch", "tensor", "load", "store",
                                               "membar", "bar", "exit", "spec"};
    if (op == SMTLM_OP_SPEC)
        snprintf(buf, n, "spec%u", spec);
    else
        snprintf(buf, n, "%s", op < SMTLM_OP_COUNT ? name[op] : "?");
    return buf;
}

const char *smtlm_view_unit_name(unsigned unit)
{
    static const char *name[] = {"none", "SP", "SFU", "LDST", "DP", "INT", "TENSOR", "SPEC"};
    return unit < sizeof name / sizeof name[0] ? name[unit] : "?";
}

const char *smtlm_view_fu_name(unsigned kind)
{
    static const char *name[SMTLM_FU_KINDS] = {"sp", "dp", "int", "sfu", "tensor", "spec"};
    return kind < SMTLM_FU_KINDS ? name[kind] : "fu";
}

const char *smtlm_view_reg_name(int reg, char *buf, size_t n)
{
    if (reg == 256)
        snprintf(buf, n, "RZ");
    else
        snprintf(buf, n, "R%d", reg - 1);
    return buf;
}

static const char *const stall_short[SMTLM_VIEW_MIXED + 1] = {
    "issued", "empty", "bar", "membar", "atomic", "drain", "sb", "busy", "other", "mixed"};
static const char *const stall_text[SMTLM_VIEW_MIXED + 1] = {
    "issued", "ibuffer empty", "barrier", "membar: own stores pending", "atomics pending",
    "draining: lanes exited, results pending", "scoreboard", "no ID_OC slot or unit", "another warp issued",
    "several reasons: the IB stage counts them"};

const char *smtlm_view_stall_short(unsigned why) { return why <= SMTLM_VIEW_MIXED ? stall_short[why] : "?"; }
const char *smtlm_view_stall_text(unsigned why) { return why <= SMTLM_VIEW_MIXED ? stall_text[why] : "?"; }

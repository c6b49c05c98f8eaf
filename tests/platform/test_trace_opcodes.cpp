// Accel-Sim's SASS opcode maps (ISA_Def/*_opcode.h) as the trace front end uses them.
#include <gtest/gtest.h>

#include <string>

#include "smtlm/opcodes.h"

namespace {

const smtlm_opcode *find(const smtlm_opcode_map *m, const char *sass)
{
    return smtlm_opcode_find_sass(m, sass);
}

smtlm_op op_of(const smtlm_opcode_map *m, const char *sass, uint8_t *spec = nullptr)
{
    const smtlm_opcode *o = find(m, sass);
    EXPECT_NE(o, nullptr) << sass;
    uint8_t s = 0;
    smtlm_op op = o ? smtlm_opcat_to_op((smtlm_opcat)o->cat, &s) : SMTLM_OP_COUNT;
    if (spec)
        *spec = s;
    return op;
}

} // namespace

TEST(OpcodeMap, SelectedByBinaryVersion)
{
    EXPECT_EQ(smtlm_opcode_map_for_binary(60), &smtlm_opcode_map_pascal);
    EXPECT_EQ(smtlm_opcode_map_for_binary(61), &smtlm_opcode_map_pascal);
    EXPECT_EQ(smtlm_opcode_map_for_binary(70), &smtlm_opcode_map_volta);
    EXPECT_EQ(smtlm_opcode_map_for_binary(75), &smtlm_opcode_map_turing);
    EXPECT_EQ(smtlm_opcode_map_for_binary(80), &smtlm_opcode_map_ampere);
    EXPECT_EQ(smtlm_opcode_map_for_binary(86), &smtlm_opcode_map_ampere);
    EXPECT_EQ(smtlm_opcode_map_for_binary(35), nullptr);
    EXPECT_EQ(smtlm_opcode_map_for_binary(72), nullptr);
    EXPECT_EQ(smtlm_opcode_map_for_binary(90), nullptr);
}

TEST(OpcodeMap, TablesSortedAndSizedLikeAccelSim)
{
    // Entry counts of Accel-Sim's unordered_maps (pascal/volta/turing/ampere_opcode.h).
    struct { const smtlm_opcode_map *m; size_t n; } maps[] = {
        {&smtlm_opcode_map_pascal, 152}, {&smtlm_opcode_map_volta, 127},
        {&smtlm_opcode_map_turing, 164}, {&smtlm_opcode_map_ampere, 174}};
    for (auto &e : maps) {
        EXPECT_TRUE(smtlm_opcode_map_is_sorted(e.m)) << e.m->arch;
        EXPECT_EQ(e.m->n, e.n) << e.m->arch;
        // Every entry is found by its own name.
        for (size_t i = 0; i < e.m->n; i++)
            EXPECT_EQ(find(e.m, e.m->ops[i].name), &e.m->ops[i]) << e.m->ops[i].name;
    }
}

TEST(OpcodeMap, CommonCategories)
{
    for (const smtlm_opcode_map *m : {&smtlm_opcode_map_pascal, &smtlm_opcode_map_volta,
                                      &smtlm_opcode_map_turing, &smtlm_opcode_map_ampere}) {
        EXPECT_EQ(op_of(m, "FFMA"), SMTLM_OP_SP) << m->arch;
        EXPECT_EQ(op_of(m, "FFMA.FTZ"), SMTLM_OP_SP) << m->arch;
        EXPECT_EQ(op_of(m, "IADD3"), SMTLM_OP_INTP) << m->arch;
        EXPECT_EQ(op_of(m, "MUFU.RCP"), SMTLM_OP_SFU) << m->arch;
        EXPECT_EQ(op_of(m, "DFMA"), SMTLM_OP_DP) << m->arch;
        EXPECT_EQ(op_of(m, "LDC.64"), SMTLM_OP_ALU) << m->arch;
        EXPECT_EQ(op_of(m, "S2R"), SMTLM_OP_ALU) << m->arch;
        EXPECT_EQ(op_of(m, "LDG.E.128.SYS"), SMTLM_OP_LOAD) << m->arch;
        EXPECT_EQ(op_of(m, "STS.128"), SMTLM_OP_STORE) << m->arch;
        EXPECT_EQ(op_of(m, "MEMBAR.GPU"), SMTLM_OP_MEMBAR) << m->arch;
        EXPECT_EQ(op_of(m, "BAR.SYNC"), SMTLM_OP_BARRIER) << m->arch;
        EXPECT_EQ(op_of(m, "EXIT"), SMTLM_OP_EXIT) << m->arch;
        EXPECT_EQ(find(m, "NOTANOP"), nullptr) << m->arch;
        EXPECT_EQ(find(m, "FFM"), nullptr) << m->arch;   // prefix of FFMA
        EXPECT_EQ(find(m, "FFMAX"), nullptr) << m->arch; // FFMA + suffix
        EXPECT_EQ(find(m, ""), nullptr) << m->arch;
        EXPECT_EQ(find(m, "..."), nullptr) << m->arch;
        const smtlm_opcode *ldc = find(m, "LDC");
        ASSERT_NE(ldc, nullptr);
        EXPECT_EQ(ldc->mem, SMTLM_OPMEM_NONE) << m->arch;
    }
}

TEST(OpcodeMap, VoltaSpecialisedUnits)
{
    const smtlm_opcode_map *v = &smtlm_opcode_map_volta;
    uint8_t spec = 0;
    EXPECT_EQ(op_of(v, "BRA", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 1);
    EXPECT_EQ(op_of(v, "KILL", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 1); // SPEC_1 on Volta
    EXPECT_EQ(op_of(v, "TEX.LL", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 2);
    EXPECT_EQ(op_of(v, "HMMA.884.F32.F32.STEP0", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 3);
    EXPECT_EQ(op_of(v, "IMMA"), SMTLM_OP_INTP); // Volta only
    EXPECT_EQ(op_of(v, "CALL.REL.NOINC", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 1);
    EXPECT_EQ(find(v, "LDSM"), nullptr);
    EXPECT_EQ(find(v, "UMOV"), nullptr);
    EXPECT_EQ(find(v, "XMAD"), nullptr);
}

TEST(OpcodeMap, TuringAndAmpereAdditions)
{
    for (const smtlm_opcode_map *m : {&smtlm_opcode_map_turing, &smtlm_opcode_map_ampere}) {
        uint8_t spec = 0;
        EXPECT_EQ(op_of(m, "KILL", &spec), SMTLM_OP_SPEC) << m->arch;
        EXPECT_EQ(spec, 3) << m->arch; // Accel-Sim's table puts KILL on the tensor unit
        EXPECT_EQ(op_of(m, "IMMA.8816", &spec), SMTLM_OP_SPEC);
        EXPECT_EQ(spec, 3);
        EXPECT_EQ(op_of(m, "HMMA.1688.F32", &spec), SMTLM_OP_SPEC);
        EXPECT_EQ(spec, 3);
        EXPECT_EQ(op_of(m, "UMOV", &spec), SMTLM_OP_SPEC);
        EXPECT_EQ(spec, 4);
        EXPECT_EQ(op_of(m, "ULDC.64", &spec), SMTLM_OP_SPEC);
        EXPECT_EQ(spec, 4);
        EXPECT_EQ(op_of(m, "SHL"), SMTLM_OP_INTP);
        EXPECT_EQ(op_of(m, "MOVM"), SMTLM_OP_ALU);
        EXPECT_EQ(op_of(m, "SULD"), SMTLM_OP_ALU);
        EXPECT_EQ(op_of(m, "LDSM.16.M88.4"), SMTLM_OP_LOAD);
        EXPECT_EQ(find(m, "LDSM")->mem, SMTLM_OPMEM_SHARED);
        EXPECT_EQ(op_of(m, "BRXU", &spec), SMTLM_OP_SPEC);
        EXPECT_EQ(spec, 1);
    }
    const smtlm_opcode_map *a = &smtlm_opcode_map_ampere;
    uint8_t spec = 0;
    EXPECT_EQ(op_of(a, "DMMA", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 3);
    EXPECT_EQ(op_of(a, "REDUX.SUM", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 4);
    EXPECT_EQ(op_of(a, "LDGSTS.E.BYPASS.128"), SMTLM_OP_LOAD);
    EXPECT_EQ(find(a, "LDGSTS")->mem, SMTLM_OPMEM_GLOBAL);
    EXPECT_EQ(op_of(a, "LDGDEPBAR"), SMTLM_OP_ALU);
    EXPECT_EQ(op_of(a, "F2FP.PACK_AB"), SMTLM_OP_ALU);
    EXPECT_EQ(op_of(a, "HMNMX2"), SMTLM_OP_SP);
    EXPECT_EQ(find(&smtlm_opcode_map_turing, "LDGSTS"), nullptr);
    EXPECT_EQ(find(&smtlm_opcode_map_turing, "DMMA"), nullptr);
}

TEST(OpcodeMap, PascalHasNoSpecialisedUnits)
{
    const smtlm_opcode_map *p = &smtlm_opcode_map_pascal;
    EXPECT_EQ(op_of(p, "XMAD.MRG"), SMTLM_OP_INTP);
    EXPECT_EQ(op_of(p, "TEX"), SMTLM_OP_ALU);
    EXPECT_EQ(op_of(p, "TLDS.LZ"), SMTLM_OP_ALU);
    EXPECT_EQ(op_of(p, "BRA"), SMTLM_OP_BRANCH);
    EXPECT_EQ(op_of(p, "SSY"), SMTLM_OP_BRANCH);
    EXPECT_EQ(op_of(p, "CAL"), SMTLM_OP_BRANCH);
    EXPECT_EQ(find(p, "CAL")->cat, SMTLM_OPCAT_CALL);
    EXPECT_EQ(find(p, "RET")->cat, SMTLM_OPCAT_RET);
    EXPECT_EQ(find(p, "PBK")->cat, SMTLM_OPCAT_CALL);
    EXPECT_EQ(op_of(p, "KILL"), SMTLM_OP_BRANCH);
    EXPECT_EQ(op_of(p, "DMNMX"), SMTLM_OP_DP);
    EXPECT_EQ(op_of(p, "RRO"), SMTLM_OP_SP);
    EXPECT_EQ(find(p, "HADD2_32I"), nullptr); // not in Accel-Sim's Pascal map
    for (size_t i = 0; i < p->n; i++)
        EXPECT_LT(p->ops[i].cat, SMTLM_OPCAT_SPEC_1) << p->ops[i].name;
}

TEST(OpcodeMap, MemoryAndAtomicFlags)
{
    const smtlm_opcode_map *v = &smtlm_opcode_map_volta;
    EXPECT_EQ(find(v, "LDS")->mem, SMTLM_OPMEM_SHARED);
    EXPECT_EQ(find(v, "STS")->mem, SMTLM_OPMEM_SHARED);
    EXPECT_EQ(find(v, "LDL")->mem, SMTLM_OPMEM_LOCAL);
    EXPECT_EQ(find(v, "STL")->mem, SMTLM_OPMEM_LOCAL);
    EXPECT_EQ(find(v, "LD")->mem, SMTLM_OPMEM_GENERIC);
    EXPECT_EQ(find(v, "ST")->mem, SMTLM_OPMEM_GENERIC);
    EXPECT_EQ(find(v, "ATOMS")->mem, SMTLM_OPMEM_SHARED);
    EXPECT_EQ(find(v, "ATOMS")->flags, (unsigned)SMTLM_OPF_ATOMIC);
    for (const char *a : {"ATOM", "ATOMG", "RED"}) {
        EXPECT_EQ(find(v, a)->cat, SMTLM_OPCAT_STORE) << a; // map says STORE ...
        EXPECT_EQ(find(v, a)->flags, (unsigned)(SMTLM_OPF_ATOMIC | SMTLM_OPF_ATOM_AS_LOAD)) << a;
        EXPECT_EQ(find(v, a)->mem, SMTLM_OPMEM_GLOBAL) << a;
    }
    for (const char *h : {"HADD2", "HADD2_32I", "HFMA2", "HFMA2_32I", "HMUL2_32I", "HSET2", "HSETP2"})
        EXPECT_EQ(find(v, h)->flags, (unsigned)SMTLM_OPF_FP16_HALF_II) << h;
    EXPECT_EQ(find(v, "HMUL2")->flags, 0u);
    EXPECT_EQ(find(&smtlm_opcode_map_pascal, "HFMA2")->flags, (unsigned)SMTLM_OPF_FP16_HALF_II);
}

TEST(OpcodeMap, CategoryToDescriptorOp)
{
    uint8_t spec = 9;
    EXPECT_EQ(smtlm_opcat_to_op(SMTLM_OPCAT_TENSOR_CORE, &spec), SMTLM_OP_TENSOR_CORE);
    EXPECT_EQ(spec, 0);
    EXPECT_EQ(smtlm_opcat_to_op(SMTLM_OPCAT_RET, &spec), SMTLM_OP_BRANCH);
    EXPECT_EQ(smtlm_opcat_to_op(SMTLM_OPCAT_SPEC_8, &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 8);
    EXPECT_EQ(smtlm_opcat_to_op(SMTLM_OPCAT_SPEC_1, nullptr), SMTLM_OP_SPEC);
    const char *tok = nullptr;
    EXPECT_EQ(smtlm_opcode_first_token("..LDG.E", 7, &tok), 3u);
    EXPECT_EQ(std::string(tok, 3), "LDG");
}

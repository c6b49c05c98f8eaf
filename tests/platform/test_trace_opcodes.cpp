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
    EXPECT_EQ(smtlm_opcode_map_for_binary(90), &smtlm_opcode_map_hopper);
    EXPECT_STREQ(smtlm_opcode_map_hopper.arch, "hopper");
    EXPECT_EQ(smtlm_opcode_map_for_binary(35), nullptr);
    EXPECT_EQ(smtlm_opcode_map_for_binary(72), nullptr);
    EXPECT_EQ(smtlm_opcode_map_for_binary(89), nullptr);
    EXPECT_EQ(smtlm_opcode_map_for_binary(100), nullptr);
}

TEST(OpcodeMap, TablesSortedAndSizedLikeAccelSim)
{
    // Entry counts of Accel-Sim's unordered_maps (pascal/volta/turing/ampere_opcode.h); Hopper's
    // is Ampere's plus the 37 opcodes Hopper adds (with Accel-Sim 2.0's VIMNMX3, USETSHMSZ and
    // replay markers).
    struct { const smtlm_opcode_map *m; size_t n; } maps[] = {
        {&smtlm_opcode_map_pascal, 152}, {&smtlm_opcode_map_volta, 127},
        {&smtlm_opcode_map_turing, 164}, {&smtlm_opcode_map_ampere, 174},
        {&smtlm_opcode_map_hopper, 174 + 37}};
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
    for (const smtlm_opcode_map *m : {&smtlm_opcode_map_pascal, &smtlm_opcode_map_volta, &smtlm_opcode_map_turing,
                                      &smtlm_opcode_map_ampere, &smtlm_opcode_map_hopper}) {
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

TEST(OpcodeMap, HopperIsAmperePlusItsNewOpcodes)
{
    const smtlm_opcode_map *a = &smtlm_opcode_map_ampere, *h = &smtlm_opcode_map_hopper;
    for (size_t i = 0; i < a->n; i++) { // every Ampere row, unchanged
        const smtlm_opcode *o = find(h, a->ops[i].name);
        ASSERT_NE(o, nullptr) << a->ops[i].name;
        EXPECT_EQ(o->cat, a->ops[i].cat) << a->ops[i].name;
        EXPECT_EQ(o->mem, a->ops[i].mem) << a->ops[i].name;
        EXPECT_EQ(o->flags, a->ops[i].flags) << a->ops[i].name;
    }
    uint8_t spec = 0;
    for (const char *mma : {"HGMMA.64x128x16.F32", "IGMMA.64x64x32.S8.S8", "QGMMA.64x64x32.F32.E4M3.E4M3", "BGMMA"}) {
        EXPECT_EQ(op_of(h, mma, &spec), SMTLM_OP_SPEC) << mma;
        EXPECT_EQ(spec, 3) << mma; // the tensor unit, as HMMA
        EXPECT_EQ(find(a, mma), nullptr) << mma;
    }
    for (const char *alu : {"UTMALDG.2D", "UTMASTG.2D", "UTMAPF.2D", "UTMAREDG.2D.ADD", "UTMACCTL.PF", "UTMACMDFLUSH",
                            "UBLKCP.S.G", "UBLKRED.G.S.ADD", "UBLKPF.L2", "SYNCS.ARRIVE.TRANS64.A1T0", "ARRIVES.LDGSTSBAR.64",
                            "ACQBULK", "PREEXIT", "WARPGROUP.ARRIVE", "WARPGROUP.DEPBAR.LE", "CGAERRBAR",
                            "USETMAXREG.DEALLOC.CTAPOOL", "UCGABAR_ARV", "UCGABAR_WAIT"}) { // NOPs to Accel-Sim 2.0
        EXPECT_EQ(op_of(h, alu), SMTLM_OP_ALU) << alu;
        EXPECT_EQ(find(h, alu)->mem, SMTLM_OPMEM_NONE) << alu; // no lane addresses in the trace
        EXPECT_EQ(find(a, alu), nullptr) << alu;
    }
    for (const char *b : {"ENDCOLLECTIVE", "ELECT"}) {
        EXPECT_EQ(op_of(h, b, &spec), SMTLM_OP_SPEC) << b;
        EXPECT_EQ(spec, 1) << b; // control flow, as BSYNC (ELECT: Accel-Sim 2.0's branch unit)
    }
    EXPECT_EQ(op_of(h, "FENCE.VIEW.ASYNC.S"), SMTLM_OP_MEMBAR);
    EXPECT_EQ(op_of(h, "MEMBAR.ALL.GPU"), SMTLM_OP_MEMBAR);
    EXPECT_EQ(op_of(h, "STSM.16.M88.4"), SMTLM_OP_STORE);
    EXPECT_EQ(find(h, "STSM")->mem, SMTLM_OPMEM_SHARED);
    EXPECT_EQ(op_of(h, "STAS.64"), SMTLM_OP_STORE);
    EXPECT_EQ(find(h, "STAS")->mem, SMTLM_OPMEM_SHARED);
    EXPECT_EQ(find(h, "REDAS")->mem, SMTLM_OPMEM_SHARED);
    EXPECT_EQ(find(h, "REDAS")->flags, (unsigned)SMTLM_OPF_ATOMIC); // as ATOMS
    EXPECT_EQ(find(h, "REDG")->mem, SMTLM_OPMEM_GLOBAL);
    EXPECT_EQ(find(h, "REDG")->flags, find(h, "RED")->flags); // as RED
    for (const char *dpx : {"VIADD", "VIADDMNMX.U32"})
        EXPECT_EQ(op_of(h, dpx), SMTLM_OP_INTP) << dpx;
    for (const char *dpx : {"VIMNMX.S32", "VIMNMX3.U32", "VHMNMX"}) // the SP, as Accel-Sim 2.0 has VIMNMX
        EXPECT_EQ(op_of(h, dpx), SMTLM_OP_SP) << dpx;
    EXPECT_EQ(op_of(h, "WARPSYNC.ALL", &spec), SMTLM_OP_SPEC);
    EXPECT_EQ(spec, 1);
}

// The opcodes of the H100 silicon measurement kit's traces.
TEST(OpcodeMap, HopperKitOpcodes)
{
    const smtlm_opcode_map *h = &smtlm_opcode_map_hopper;
    for (const char *sp : {"FFMA", "FADD", "FMUL"})
        EXPECT_EQ(op_of(h, sp), SMTLM_OP_SP) << sp;
    for (const char *ip : {"IMAD", "IADD3", "LOP3.LUT", "SHF.L.W.U32.HI"})
        EXPECT_EQ(op_of(h, ip), SMTLM_OP_INTP) << ip; // as Ampere
    for (const char *half : {"HFMA2", "HFMA2.MMA"}) {
        EXPECT_EQ(op_of(h, half), SMTLM_OP_SP) << half;
        EXPECT_EQ(find(h, half)->flags, (unsigned)SMTLM_OPF_FP16_HALF_II) << half;
    }
    EXPECT_EQ(op_of(h, "DFMA"), SMTLM_OP_DP);
    for (const char *mufu : {"MUFU.EX2", "MUFU.LG2", "MUFU.RCP", "MUFU.RSQ", "MUFU.SQRT"})
        EXPECT_EQ(op_of(h, mufu), SMTLM_OP_SFU) << mufu;
    EXPECT_EQ(op_of(h, "LDS"), SMTLM_OP_LOAD);
    EXPECT_EQ(find(h, "LDS")->mem, SMTLM_OPMEM_SHARED);
    EXPECT_EQ(op_of(h, "EXIT"), SMTLM_OP_EXIT);
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

// Every opcode of Accel-Sim 2.0's Hopper map (gpu-simulator/ISA_Def/hopper_opcode.h) is known to
// the binary-90 map, on the unit that map gives it, except the rows where the model keeps more
// (opcodes_ampere_hopper.inc): the warpgroup MMAs on the tensor unit (SPEC_3), the sync unit,
// fences, TMA and bulk copies (2.0's TMA engine and mbarriers, which the model lacks) on the ALU
// or as MEMBAR, and the new shared-memory stores with their addresses.
TEST(TraceOpcodes, EveryOpcodeOfAccelSim2HopperMapIsKnownWithItsUnit)
{
    const struct {
        const char *name;
        smtlm_opcat cat;
    } rows[] = {
        {"FADD", SMTLM_OPCAT_SP}, {"FADD32I", SMTLM_OPCAT_SP}, {"FCHK", SMTLM_OPCAT_SP}, {"FFMA32I", SMTLM_OPCAT_SP},
        {"FFMA", SMTLM_OPCAT_SP}, {"FMNMX", SMTLM_OPCAT_SP}, {"FMUL", SMTLM_OPCAT_SP}, {"FMUL32I", SMTLM_OPCAT_SP},
        {"FSEL", SMTLM_OPCAT_SP}, {"FSET", SMTLM_OPCAT_SP}, {"FSETP", SMTLM_OPCAT_SP}, {"FSWZADD", SMTLM_OPCAT_SP},
        {"MUFU", SMTLM_OPCAT_SFU}, {"HADD2", SMTLM_OPCAT_SP}, {"HADD2_32I", SMTLM_OPCAT_SP}, {"HFMA2", SMTLM_OPCAT_SP},
        {"HFMA2_32I", SMTLM_OPCAT_SP}, {"HMUL2", SMTLM_OPCAT_SP}, {"HMUL2_32I", SMTLM_OPCAT_SP}, {"HSET2", SMTLM_OPCAT_SP},
        {"HSETP2", SMTLM_OPCAT_SP}, {"HMNMX2", SMTLM_OPCAT_SP}, {"HMMA", SMTLM_OPCAT_SPEC_3}, {"DMMA", SMTLM_OPCAT_SPEC_3},
        {"BMMA", SMTLM_OPCAT_SPEC_3}, {"IMMA", SMTLM_OPCAT_SPEC_3}, {"DADD", SMTLM_OPCAT_DP}, {"DFMA", SMTLM_OPCAT_DP},
        {"DMUL", SMTLM_OPCAT_DP}, {"DSETP", SMTLM_OPCAT_DP}, {"BMSK", SMTLM_OPCAT_INTP}, {"BREV", SMTLM_OPCAT_INTP},
        {"FLO", SMTLM_OPCAT_INTP}, {"IABS", SMTLM_OPCAT_INTP}, {"IADD", SMTLM_OPCAT_INTP}, {"IADD3", SMTLM_OPCAT_INTP},
        {"IADD32I", SMTLM_OPCAT_INTP}, {"IDP", SMTLM_OPCAT_INTP}, {"IDP4A", SMTLM_OPCAT_INTP}, {"IMAD", SMTLM_OPCAT_INTP},
        {"IMNMX", SMTLM_OPCAT_INTP}, {"IMUL", SMTLM_OPCAT_INTP}, {"IMUL32I", SMTLM_OPCAT_INTP}, {"ISCADD", SMTLM_OPCAT_INTP},
        {"ISCADD32I", SMTLM_OPCAT_INTP}, {"ISETP", SMTLM_OPCAT_INTP}, {"LEA", SMTLM_OPCAT_INTP}, {"LOP", SMTLM_OPCAT_INTP},
        {"LOP3", SMTLM_OPCAT_INTP}, {"LOP32I", SMTLM_OPCAT_INTP}, {"POPC", SMTLM_OPCAT_INTP}, {"SHF", SMTLM_OPCAT_INTP},
        {"SHL", SMTLM_OPCAT_INTP}, {"SHR", SMTLM_OPCAT_INTP}, {"VABSDIFF", SMTLM_OPCAT_INTP}, {"VABSDIFF4", SMTLM_OPCAT_INTP},
        {"F2F", SMTLM_OPCAT_ALU}, {"F2FP", SMTLM_OPCAT_ALU}, {"F2I", SMTLM_OPCAT_ALU}, {"I2F", SMTLM_OPCAT_ALU},
        {"I2I", SMTLM_OPCAT_ALU}, {"I2IP", SMTLM_OPCAT_ALU}, {"I2FP", SMTLM_OPCAT_ALU}, {"F2IP", SMTLM_OPCAT_ALU},
        {"FRND", SMTLM_OPCAT_ALU}, {"MOV", SMTLM_OPCAT_ALU}, {"MOV32I", SMTLM_OPCAT_ALU}, {"MOVM", SMTLM_OPCAT_ALU},
        {"PRMT", SMTLM_OPCAT_ALU}, {"SEL", SMTLM_OPCAT_ALU}, {"SGXT", SMTLM_OPCAT_ALU}, {"SHFL", SMTLM_OPCAT_ALU},
        {"PLOP3", SMTLM_OPCAT_ALU}, {"PSETP", SMTLM_OPCAT_ALU}, {"P2R", SMTLM_OPCAT_ALU}, {"R2P", SMTLM_OPCAT_ALU},
        {"LD", SMTLM_OPCAT_LOAD}, {"LDC", SMTLM_OPCAT_ALU}, {"LDG", SMTLM_OPCAT_LOAD}, {"LDL", SMTLM_OPCAT_LOAD},
        {"LDS", SMTLM_OPCAT_LOAD}, {"LDSM", SMTLM_OPCAT_LOAD}, {"ST", SMTLM_OPCAT_STORE}, {"STG", SMTLM_OPCAT_STORE},
        {"STL", SMTLM_OPCAT_STORE}, {"STS", SMTLM_OPCAT_STORE}, {"MATCH", SMTLM_OPCAT_ALU}, {"QSPC", SMTLM_OPCAT_ALU},
        {"ATOM", SMTLM_OPCAT_STORE}, {"ATOMS", SMTLM_OPCAT_STORE}, {"ATOMG", SMTLM_OPCAT_STORE}, {"RED", SMTLM_OPCAT_STORE},
        {"REDG", SMTLM_OPCAT_STORE}, {"CCTL", SMTLM_OPCAT_ALU}, {"CCTLL", SMTLM_OPCAT_ALU}, {"ERRBAR", SMTLM_OPCAT_ALU},
        {"MEMBAR", SMTLM_OPCAT_MEMBAR}, {"CCTLT", SMTLM_OPCAT_ALU}, {"LDGDEPBAR", SMTLM_OPCAT_ALU},
        {"LDGSTS", SMTLM_OPCAT_LOAD}, {"VIADD", SMTLM_OPCAT_INTP}, {"VIADDMNMX", SMTLM_OPCAT_INTP},
        {"VIMNMX", SMTLM_OPCAT_SP}, {"VIMNMX3", SMTLM_OPCAT_SP}, {"CGAERRBAR", SMTLM_OPCAT_ALU}, {"ACQBULK", SMTLM_OPCAT_ALU},
        {"STSM", SMTLM_OPCAT_STORE}, {"R2UR", SMTLM_OPCAT_SPEC_4}, {"REDUX", SMTLM_OPCAT_SPEC_4},
        {"S2UR", SMTLM_OPCAT_SPEC_4}, {"UBMSK", SMTLM_OPCAT_SPEC_4}, {"UBREV", SMTLM_OPCAT_SPEC_4},
        {"UCLEA", SMTLM_OPCAT_SPEC_4}, {"UF2FP", SMTLM_OPCAT_SPEC_4}, {"UFLO", SMTLM_OPCAT_SPEC_4},
        {"UIADD3", SMTLM_OPCAT_SPEC_4}, {"UIMAD", SMTLM_OPCAT_SPEC_4}, {"UISETP", SMTLM_OPCAT_SPEC_4},
        {"ULDC", SMTLM_OPCAT_SPEC_4}, {"ULEA", SMTLM_OPCAT_SPEC_4}, {"ULOP", SMTLM_OPCAT_SPEC_4},
        {"ULOP3", SMTLM_OPCAT_SPEC_4}, {"ULOP32I", SMTLM_OPCAT_SPEC_4}, {"UMOV", SMTLM_OPCAT_SPEC_4},
        {"UP2UR", SMTLM_OPCAT_SPEC_4}, {"UPLOP3", SMTLM_OPCAT_SPEC_4}, {"UPOPC", SMTLM_OPCAT_SPEC_4},
        {"UPRMT", SMTLM_OPCAT_SPEC_4}, {"UPSETP", SMTLM_OPCAT_SPEC_4}, {"UR2UP", SMTLM_OPCAT_SPEC_4},
        {"USEL", SMTLM_OPCAT_SPEC_4}, {"USGXT", SMTLM_OPCAT_SPEC_4}, {"USHF", SMTLM_OPCAT_SPEC_4},
        {"USHL", SMTLM_OPCAT_SPEC_4}, {"USHR", SMTLM_OPCAT_SPEC_4}, {"VOTEU", SMTLM_OPCAT_SPEC_4},
        {"UBLKCP", SMTLM_OPCAT_ALU}, {"UBLKPF", SMTLM_OPCAT_ALU}, {"UBLKRED", SMTLM_OPCAT_ALU}, {"UTMALDG", SMTLM_OPCAT_ALU},
        {"UTMAPF", SMTLM_OPCAT_ALU}, {"UTMAREDG", SMTLM_OPCAT_ALU}, {"UTMASTG", SMTLM_OPCAT_ALU},
        {"UTMACCTL", SMTLM_OPCAT_ALU}, {"UTMACMDFLUSH", SMTLM_OPCAT_ALU}, {"STAS", SMTLM_OPCAT_STORE},
        {"FENCE", SMTLM_OPCAT_MEMBAR}, {"SYNCS", SMTLM_OPCAT_ALU}, {"ARRIVES", SMTLM_OPCAT_ALU},
        {"UCGABAR_ARV", SMTLM_OPCAT_ALU}, {"UCGABAR_WAIT", SMTLM_OPCAT_ALU}, {"WARPGROUP", SMTLM_OPCAT_ALU},
        {"QGMMA", SMTLM_OPCAT_SPEC_3}, {"HGMMA", SMTLM_OPCAT_SPEC_3}, {"IGMMA", SMTLM_OPCAT_SPEC_3},
        {"TEX", SMTLM_OPCAT_SPEC_2}, {"TLD", SMTLM_OPCAT_SPEC_2}, {"TLD4", SMTLM_OPCAT_SPEC_2}, {"TMML", SMTLM_OPCAT_SPEC_2},
        {"TXD", SMTLM_OPCAT_SPEC_2}, {"TXQ", SMTLM_OPCAT_SPEC_2}, {"SUATOM", SMTLM_OPCAT_ALU}, {"SULD", SMTLM_OPCAT_ALU},
        {"SUQUERY", SMTLM_OPCAT_ALU}, {"SURED", SMTLM_OPCAT_ALU}, {"SUST", SMTLM_OPCAT_ALU}, {"BMOV", SMTLM_OPCAT_SPEC_1},
        {"BPT", SMTLM_OPCAT_SPEC_1}, {"BRA", SMTLM_OPCAT_SPEC_1}, {"BREAK", SMTLM_OPCAT_SPEC_1}, {"BRX", SMTLM_OPCAT_SPEC_1},
        {"BRXU", SMTLM_OPCAT_SPEC_1}, {"BSSY", SMTLM_OPCAT_SPEC_1}, {"BSYNC", SMTLM_OPCAT_SPEC_1}, {"CALL", SMTLM_OPCAT_SPEC_1},
        {"EXIT", SMTLM_OPCAT_EXIT}, {"JMP", SMTLM_OPCAT_SPEC_1}, {"JMX", SMTLM_OPCAT_SPEC_1}, {"JMXU", SMTLM_OPCAT_SPEC_1},
        {"KILL", SMTLM_OPCAT_SPEC_3}, {"NANOSLEEP", SMTLM_OPCAT_SPEC_1}, {"RET", SMTLM_OPCAT_SPEC_1},
        {"RPCMOV", SMTLM_OPCAT_SPEC_1}, {"RTT", SMTLM_OPCAT_SPEC_1}, {"WARPSYNC", SMTLM_OPCAT_SPEC_1},
        {"YIELD", SMTLM_OPCAT_SPEC_1}, {"ELECT", SMTLM_OPCAT_SPEC_1}, {"REPLAY_START", SMTLM_OPCAT_ALU},
        {"REPLAY_END", SMTLM_OPCAT_ALU}, {"B2R", SMTLM_OPCAT_ALU}, {"BAR", SMTLM_OPCAT_BARRIER}, {"CS2R", SMTLM_OPCAT_ALU},
        {"CSMTEST", SMTLM_OPCAT_ALU}, {"DEPBAR", SMTLM_OPCAT_ALU}, {"GETLMEMBASE", SMTLM_OPCAT_ALU}, {"LEPC", SMTLM_OPCAT_ALU},
        {"NOP", SMTLM_OPCAT_ALU}, {"PMTRIG", SMTLM_OPCAT_ALU}, {"R2B", SMTLM_OPCAT_ALU}, {"S2R", SMTLM_OPCAT_ALU},
        {"SETCTAID", SMTLM_OPCAT_ALU}, {"SETLMEMBASE", SMTLM_OPCAT_ALU}, {"VOTE", SMTLM_OPCAT_ALU},
        {"VOTE_VTG", SMTLM_OPCAT_ALU}, {"USETMAXREG", SMTLM_OPCAT_ALU}, {"PREEXIT", SMTLM_OPCAT_ALU},
        {"USETSHMSZ", SMTLM_OPCAT_ALU},
    };
    for (const auto &row : rows) {
        const smtlm_opcode *o = find(&smtlm_opcode_map_hopper, row.name);
        ASSERT_NE(o, nullptr) << row.name;
        EXPECT_EQ(o->cat, row.cat) << row.name;
    }
}

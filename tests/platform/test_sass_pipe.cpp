// smtlm_sass_pipe / smtlm_sass_wide_sources: the Hopper pipe of a SASS mnemonic and whether its
// register sources are 64-bit pairs (platform/lib/src/opcodes_pipe.c).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "smtlm/opcodes.h"

namespace {

smtlm_pipe pipe_of(const std::string &m)
{
    return smtlm_sass_pipe(m.data(), m.size());
}

unsigned wide(const std::string &m)
{
    return smtlm_sass_wide_sources(m.data(), m.size());
}

void expect_pipe(smtlm_pipe p, std::initializer_list<const char *> mnemonics)
{
    for (const char *m : mnemonics)
        EXPECT_EQ(pipe_of(m), p) << m;
}

} // namespace

TEST(SassPipe, KitOpcodes)
{
    // Every mnemonic of the H100 silicon measurement kit's traces.
    expect_pipe(SMTLM_PIPE_FMA, {"FFMA", "FADD", "FMUL"});
    expect_pipe(SMTLM_PIPE_FMA_HEAVY, {"IMAD", "IMUL", "IDP.4A.S8.S8"});
    expect_pipe(SMTLM_PIPE_ALU, {"IADD3", "LOP3.LUT", "SHF.L.W.U32.HI"});
    expect_pipe(SMTLM_PIPE_FP16, {"HFMA2"});
    expect_pipe(SMTLM_PIPE_MMA16, {"HFMA2.MMA"});
    expect_pipe(SMTLM_PIPE_FP64, {"DFMA"});
    expect_pipe(SMTLM_PIPE_MUFU, {"MUFU.EX2", "MUFU.LG2", "MUFU.RCP", "MUFU.RSQ", "MUFU.SQRT"});
    expect_pipe(SMTLM_PIPE_LSU, {"LDS"});
    expect_pipe(SMTLM_PIPE_NONE, {"EXIT"});
}

TEST(SassPipe, EveryPipe)
{
    expect_pipe(SMTLM_PIPE_FMA, {"FFMA.FTZ", "FFMA32I", "FADD.FTZ", "FADD32I", "FMUL.RZ", "FMUL32I", "FMNMX",
                                 "FSET.BF.LT.AND", "FSETP.GEU.AND", "FSWZADD"});
    expect_pipe(SMTLM_PIPE_FMA_HEAVY, {"IMAD.WIDE.U32", "IMAD.MOV.U32", "IMAD.SHL.U32", "IMAD.HI", "IMUL", "IMUL32I",
                                        "IDP.4A.S8.S8", "IDP4A"});
    expect_pipe(SMTLM_PIPE_ALU, {"IADD3.X", "LEA.HI",
                                 "ISETP.GE.U32.AND", "IMNMX.U32", "IABS", "MOV", "MOV32I", "SEL", "FSEL", "PRMT",
                                 "SHL", "SHR.U32", "SHF.R.S32.HI", "POPC", "FLO.U32", "BREV", "BMSK", "SGXT.U32",
                                 "P2R", "R2P", "PLOP3.LUT", "PSETP", "LOP3.LUT", "LOP32I.AND",
                                 "VIADD", "VIMNMX.S32", "VIADDMNMX"});
    expect_pipe(SMTLM_PIPE_FP16, {"HFMA2", "HFMA2.RELU", "HADD2.F32", "HMUL2", "HSET2.BF.LT.AND", "HSETP2.GT.AND",
                                  "HMNMX2", "HFMA2_32I", "VHMNMX"});
    expect_pipe(SMTLM_PIPE_MMA16, {"HFMA2.MMA", "HFMA2.MMA.RELU", "HADD2.MMA"});
    expect_pipe(SMTLM_PIPE_FP64, {"DFMA", "DFMA.RM", "DADD", "DMUL.RP", "DSETP.GT.AND"});
    expect_pipe(SMTLM_PIPE_MUFU, {"MUFU", "MUFU.SIN", "MUFU.TANH"});
    expect_pipe(SMTLM_PIPE_LSU, {"LDS.64", "LDS.U.128", "STS.128", "LDG.E.128.SYS", "STG.E", "LDL", "STL.64", "LD.E",
                                 "ST.E", "LDSM.16.M88.4", "STSM.16.M88.4", "ATOM.E.ADD", "ATOMG.E.CAS", "ATOMS.ADD",
                                 "RED.E.ADD", "REDG.E.ADD.F32", "LDGSTS.E.BYPASS.128", "STAS.64", "REDAS.ADD"});
    expect_pipe(SMTLM_PIPE_TENSOR, {"HMMA.16816.F32", "HGMMA.64x128x16.F32", "IMMA.16832.S8.S8", "IGMMA.64x64x32.S8.S8",
                                    "DMMA.884", "BMMA.88128", "QGMMA.64x64x32.F32.E4M3.E4M3", "BGMMA"});
    expect_pipe(SMTLM_PIPE_NONE, {"EXIT", "BAR.SYNC.DEFER_BLOCKING", "BRA", "BRA.U", "BSSY", "BSYNC", "RET.REL.NODEC",
                                  "CALL.REL.NOINC", "NOP", "WARPSYNC.ALL", "YIELD", "BREAK", "BMOV.32", "KILL",
                                  "NANOSLEEP", "DEPBAR.LE", "WARPGROUP.ARRIVE", "WARPGROUP.DEPBAR.LE", "ENDCOLLECTIVE",
                                  "ACQBULK", "PREEXIT"});
    expect_pipe(SMTLM_PIPE_OTHER, {"F2F.F16.F32", "F2I.TRUNC", "I2F.U32", "I2FP.F32.S32", "F2FP.BF16.F32.PACK_AB", "FRND",
                                   "FCHK", "S2R", "CS2R.32", "LDC.64", "ULDC", "SHFL.BFLY", "VOTE.ANY", "MATCH.ANY",
                                   "MEMBAR.ALL.GPU", "FENCE.VIEW.ASYNC.S", "SYNCS.ARRIVE.TRANS64.A1T0", "UTMALDG.2D",
                                   "UBLKCP.S.G", "UIADD3", "R2UR", "ELECT", "LDGDEPBAR", "TEX"});
}

TEST(SassPipe, UnknownEmptyAndCountedNames)
{
    expect_pipe(SMTLM_PIPE_OTHER, {"", ".", "NOTANOP", "FFM", "FFMAX", "DFMAA", "HFMA", "HFMA22.MMA", "ffma"});
    EXPECT_EQ(smtlm_sass_pipe(nullptr, 0), SMTLM_PIPE_OTHER);
    // Counted: only the first len bytes are read.
    const char *s = "DFMA.RM garbage";
    EXPECT_EQ(smtlm_sass_pipe(s, 7), SMTLM_PIPE_FP64);
    EXPECT_EQ(smtlm_sass_pipe("HFMA2.MMA", 5), SMTLM_PIPE_FP16); // the suffix lies past len
    EXPECT_EQ(smtlm_sass_pipe("FFMAX", 4), SMTLM_PIPE_FMA);
    // The MMA suffix must be a whole token after the first.
    expect_pipe(SMTLM_PIPE_FP16, {"HFMA2.MMAX", "HFMA2.XMMA", "HFMA2.MM", "HFMA2..MM"});
    expect_pipe(SMTLM_PIPE_MMA16, {"HFMA2.RELU.MMA", "HFMA2..MMA"});
}

TEST(SassPipe, WideSources)
{
    for (const char *m : {"DFMA", "DFMA.RM", "DADD", "DADD.RZ", "DMUL", "DMUL.RP", "DSETP.GT.AND", "DSETP"})
        EXPECT_EQ(wide(m), 1u) << m;
    for (const char *m : {"FFMA", "IMAD.WIDE.U32", "HFMA2.MMA", "LDS.64", "LDG.E.64", "DMMA.884", "F2F.F64.F32", "MUFU.RCP64H",
                          "EXIT", "", "DFM", "DFMAX"})
        EXPECT_EQ(wide(m), 0u) << m;
    EXPECT_EQ(smtlm_sass_wide_sources(nullptr, 0), 0u);
    EXPECT_EQ(smtlm_sass_wide_sources("DADD", 3), 0u); // "DAD"
}

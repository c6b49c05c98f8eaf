// cuobjdump -sass listings: control bits of real sm_90a listings (H100 kit), register sources as
// Accel-Sim traces list them, slots and reuse flags, whole-program listings, every error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "smtlm/sass_listing.h"
#include "smtlm/trace.h"

namespace {

const std::string kData = std::string(SMTLM_TEST_DATA) + "/sass/";

std::string slurp(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// A listing read from a file or from memory, freed at the end of the test.
struct Listing {
    smtlm_sass_listing l{};
    int rc = 0;
    char err[512] = "";
    static Listing file(const std::string &path)
    {
        Listing x;
        x.rc = smtlm_sass_listing_read(path.c_str(), &x.l, x.err, sizeof x.err);
        return x;
    }
    static Listing text(const std::string &t)
    {
        Listing x;
        x.rc = smtlm_sass_listing_parse(t.data(), t.size(), "mem.sass", &x.l, x.err, sizeof x.err);
        return x;
    }
    Listing() = default;
    Listing(Listing &&o) noexcept : l(o.l), rc(o.rc)
    {
        std::snprintf(err, sizeof err, "%s", o.err);
        o.l = smtlm_sass_listing{};
    }
    ~Listing() { smtlm_sass_listing_free(&l); }
    const smtlm_sass_inst &at(const char *func, uint32_t pc) const
    {
        const smtlm_sass_func *f = smtlm_sass_func_find(&l, func, 0);
        EXPECT_NE(f, nullptr) << func;
        const smtlm_sass_inst *in = smtlm_sass_inst_at(f, pc);
        EXPECT_NE(in, nullptr) << func << " pc 0x" << std::hex << pc;
        static const smtlm_sass_inst none{};
        return in != nullptr ? *in : none;
    }
};

// One function around the given instruction lines (each "text ; /* lo */" + hi line made here).
struct Inst {
    uint32_t pc;
    std::string text;
    std::string lo = "0x0000000b04067223", hi = "0x020fc80000000005";
};

std::string lines_of(const std::vector<Inst> &v)
{
    std::string s;
    for (const Inst &i : v) {
        char pc[16];
        std::snprintf(pc, sizeof pc, "%04x", i.pc);
        s += "        /*" + std::string(pc) + "*/                   " + i.text + " ;    /* " + i.lo + " */\n";
        s += "                                                        /* " + i.hi + " */\n";
    }
    return s;
}

std::string function(const std::string &name, const std::vector<Inst> &v)
{
    return "\t\tFunction : " + name + "\n\t.headerflags\t@\"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)\"\n" + lines_of(v);
}

std::string listing(const std::vector<Inst> &v)
{
    return "\n\tcode for sm_90a\n\t.target\tsm_90a\n\n" + function("k", v) + "\t\t..........\n\n";
}

// One instruction's decoded sources: {reg, slot, reuse} each.
struct Src {
    unsigned reg, slot, reuse;
    bool operator==(const Src &o) const { return reg == o.reg && slot == o.slot && reuse == o.reuse; }
};
std::ostream &operator<<(std::ostream &os, const Src &s)
{
    return os << "{R" << s.reg << " slot " << s.slot << " reuse " << s.reuse << "}";
}

std::vector<Src> srcs(const smtlm_sass_inst &in)
{
    std::vector<Src> v;
    for (unsigned i = 0; i < in.n_src; i++)
        v.push_back({in.src[i].reg, in.src[i].slot, in.src[i].reuse});
    return v;
}

std::vector<Src> srcs_of(const std::string &text)
{
    Listing x = Listing::text(listing({{0x10, text}}));
    EXPECT_EQ(x.rc, SMTLM_OK) << x.err;
    return x.rc == SMTLM_OK ? srcs(x.at("k", 0x10)) : std::vector<Src>{};
}

const unsigned RZ = SMTLM_SASS_RZ, OTHER = SMTLM_SASS_SLOT_OTHER;

void expect_ctrl(const smtlm_sass_inst &in, unsigned stall, bool yield, unsigned wbar, unsigned rbar, unsigned wait)
{
    EXPECT_EQ(in.ctrl.stall, stall);
    EXPECT_EQ(in.ctrl.flags, SMTLM_CTRL_VALID | (yield ? SMTLM_CTRL_YIELD : 0));
    EXPECT_EQ(in.ctrl.wbar, wbar);
    EXPECT_EQ(in.ctrl.rbar, rbar);
    EXPECT_EQ(in.ctrl.wait, wait);
    EXPECT_EQ(in.ctrl.reuse, 0);
    EXPECT_EQ(in.ctrl.slots, 0);
    EXPECT_EQ(in.ctrl.wide, 0);
    EXPECT_EQ(in.ctrl.pipe, 0);
}

// The error: negative status, and the message "mem.sass:<line>: " followed by text containing what.
void expect_error(const std::string &text, unsigned line, const std::string &what)
{
    Listing x = Listing::text(text);
    EXPECT_EQ(x.rc, SMTLM_TRACE_ERR_FORMAT);
    const std::string want = "mem.sass:" + std::to_string(line) + ": ";
    EXPECT_EQ(std::string(x.err).substr(0, want.size()), want) << x.err;
    EXPECT_NE(std::string(x.err).find(what), std::string::npos) << x.err;
    EXPECT_EQ(x.l.n, 0u);
    EXPECT_EQ(x.l.func, nullptr);
}

TEST(SassListing, DepFfmaControlBits)
{
    Listing x = Listing::file(kData + "dep_ffma_n128.sass");
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    ASSERT_EQ(x.l.n, 1u);
    EXPECT_EQ(std::string(x.l.path), kData + "dep_ffma_n128.sass");
    const smtlm_sass_func &f = x.l.func[0];
    EXPECT_STREQ(f.name, "dep_ffma_n128");
    EXPECT_EQ(f.line, 5u);
    EXPECT_EQ(f.n, 168u); // 0x0000..0x0a70, one every 16 bytes
    EXPECT_EQ(f.inst[0].pc, 0u);
    EXPECT_EQ(f.inst[f.n - 1].pc, 0xa70u);

    const smtlm_sass_inst &ffma = x.at("dep_ffma_n128", 0x100);
    EXPECT_STREQ(ffma.op, "FFMA");
    EXPECT_EQ(ffma.line, 39u);
    EXPECT_EQ(ffma.lo, 0x0000000b04067223ull);
    EXPECT_EQ(ffma.hi, 0x020fc80000000005ull);
    expect_ctrl(ffma, 4, false, 7, 7, 1u << 5); // waits on the loads' barrier 5
    EXPECT_EQ(srcs(ffma), (std::vector<Src>{{4, 0, 0}, {11, 1, 0}, {5, 2, 0}}));

    // LDG.E.CONSTANT R4, desc[UR4][R2.64+0x8000]: sets write barrier 5, read barrier 0, waits on 1
    const smtlm_sass_inst &ldg = x.at("dep_ffma_n128", 0x90);
    EXPECT_STREQ(ldg.op, "LDG.E.CONSTANT");
    expect_ctrl(ldg, 4, true, 5, 0, 1u << 1);
    EXPECT_EQ(srcs(ldg), (std::vector<Src>{{2, 0, 0}}));

    expect_ctrl(x.at("dep_ffma_n128", 0x10), 7, true, 0, 7, 0); // S2R R0, SR_TID.X
    EXPECT_EQ(x.at("dep_ffma_n128", 0x10).n_src, 0u);
    expect_ctrl(x.at("dep_ffma_n128", 0xc0), 11, false, 7, 7, 0); // UPLOP3.LUT
    expect_ctrl(x.at("dep_ffma_n128", 0xf0), 1, true, 7, 7, 1u << 0); // CS2R R2, SR_CLOCKLO
    expect_ctrl(x.at("dep_ffma_n128", 0x9f0), 0, false, 7, 7, 0); // BRA 0x9f0
    EXPECT_EQ(x.at("dep_ffma_n128", 0x9f0).n_src, 0u);
    EXPECT_STREQ(x.at("dep_ffma_n128", 0xa00).op, "NOP"); // "NOP;" with no space

    // @!P0 STG.E.64 desc[UR4][R4.64], R2: the predicate is no part of op; operand 0 is a source
    const smtlm_sass_inst &stg = x.at("dep_ffma_n128", 0x9b0);
    EXPECT_STREQ(stg.op, "STG.E.64");
    expect_ctrl(stg, 4, true, 7, 7, 0);
    EXPECT_EQ(srcs(stg), (std::vector<Src>{{4, OTHER, 0}, {2, 0, 0}}));

    EXPECT_EQ(smtlm_sass_inst_at(&f, 0x108), nullptr);
    EXPECT_EQ(smtlm_sass_inst_at(&f, 0xa80), nullptr);
    EXPECT_EQ(smtlm_sass_func_find(&x.l, "dep_ffma", 0), nullptr);
}

TEST(SassListing, IndFfmaReuseFlags)
{
    Listing x = Listing::file(kData + "ind_ffma_n128.sass");
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    // FFMA R5, R15.reuse, R6, R16.reuse: encoding reuse bits 0b0101 = slots a and c
    const smtlm_sass_inst &f = x.at("ind_ffma_n128", 0x360);
    expect_ctrl(f, 1, true, 7, 7, 1u << 5);
    EXPECT_EQ((f.hi >> 58) & 0xf, 0x5u);
    EXPECT_EQ(srcs(f), (std::vector<Src>{{15, 0, 1}, {6, 1, 0}, {16, 2, 1}}));
    // the last FFMA of the chain drops the reuse flags
    const smtlm_sass_inst &last = x.at("ind_ffma_n128", 0xb50);
    EXPECT_EQ((last.hi >> 58) & 0xf, 0u);
    EXPECT_EQ(srcs(last), (std::vector<Src>{{15, 0, 0}, {23, 1, 0}, {16, 2, 0}}));
    // IADD3 R2, R16.reuse, 0x4, RZ: an immediate keeps its slot; RZ is 255
    EXPECT_EQ(srcs(x.at("ind_ffma_n128", 0x50)), (std::vector<Src>{{16, 0, 1}, {RZ, 2, 0}}));
    // LDG with read barrier 2
    expect_ctrl(x.at("ind_ffma_n128", 0x1d0), 1, true, 5, 2, 0);
    // ISETP.NE.AND P0, PT, R17, RZ, PT: two predicate destinations, then R17 in slot a
    EXPECT_EQ(srcs(x.at("ind_ffma_n128", 0xb90)), (std::vector<Src>{{17, 0, 0}, {RZ, 1, 0}}));
    // STG.E desc[UR4][R16.64+0x1c], R14
    EXPECT_EQ(srcs(x.at("ind_ffma_n128", 0xca0)), (std::vector<Src>{{16, OTHER, 0}, {14, 0, 0}}));
}

TEST(SassListing, DepMufuWaitMasks)
{
    Listing x = Listing::file(kData + "dep_mufu_rcp_n256_stall1.sass");
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    // MUFU.RCP R11, |R11|: write barrier 0, waits on barriers 2 and 5
    const smtlm_sass_inst &m = x.at("dep_mufu_rcp_n256", 0xd0);
    EXPECT_STREQ(m.op, "MUFU.RCP");
    expect_ctrl(m, 1, true, 0, 7, (1u << 2) | (1u << 5));
    EXPECT_EQ(srcs(m), (std::vector<Src>{{11, 0, 0}}));
    expect_ctrl(x.at("dep_mufu_rcp_n256", 0xe0), 1, true, 0, 7, (1u << 0) | (1u << 1));
    expect_ctrl(x.at("dep_mufu_rcp_n256", 0x10c0), 1, true, 2, 1, 1u << 0);
    expect_ctrl(x.at("dep_mufu_rcp_n256", 0x1130), 1, true, 1, 7, 1u << 1); // @!P0 LDC.64
    expect_ctrl(x.at("dep_mufu_rcp_n256", 0x11b0), 5, true, 7, 7, 0);       // EXIT
    // IMAD.X R3, RZ, RZ, UR5, P0
    EXPECT_EQ(srcs(x.at("dep_mufu_rcp_n256", 0x60)), (std::vector<Src>{{RZ, 0, 0}, {RZ, 1, 0}}));
}

TEST(SassListing, OperandForms)
{
    // FFMA R0, R0, 1.5, R0: the immediate keeps slot b
    EXPECT_EQ(srcs_of("FFMA R0, R0, 1.5, R0"), (std::vector<Src>{{0, 0, 0}, {0, 2, 0}}));
    EXPECT_EQ(srcs_of("FFMA R5, R15.reuse, R6, R16.reuse"),
              (std::vector<Src>{{15, 0, 1}, {6, 1, 0}, {16, 2, 1}}));
    EXPECT_EQ(srcs_of("FFMA R0, -R4.reuse, |R11|, -|R2|"),
              (std::vector<Src>{{4, 0, 1}, {11, 1, 0}, {2, 2, 0}}));
    EXPECT_EQ(srcs_of("FFMA R0, RZ, c[0x0][0x160], RZ"), (std::vector<Src>{{RZ, 0, 0}, {RZ, 2, 0}}));
    EXPECT_EQ(srcs_of("DFMA R8, R2.64, R8.64, R4.64"), (std::vector<Src>{{2, 0, 0}, {8, 1, 0}, {4, 2, 0}}));
    // memory operands: the base register, RZ without one
    EXPECT_EQ(srcs_of("LDS R4, [R11]"), (std::vector<Src>{{11, 0, 0}}));
    EXPECT_EQ(srcs_of("LDS R4, [R6+UR4+0x10]"), (std::vector<Src>{{6, 0, 0}}));
    EXPECT_EQ(srcs_of("LDS R4, [UR4]"), (std::vector<Src>{{RZ, 0, 0}}));
    EXPECT_EQ(srcs_of("LDS R4, [0x10]"), (std::vector<Src>{{RZ, 0, 0}}));
    EXPECT_EQ(srcs_of("LDG.E R4, desc[UR4][R2.64+0x8000]"), (std::vector<Src>{{2, 0, 0}}));
    EXPECT_EQ(srcs_of("STS [R2], R5"), (std::vector<Src>{{2, OTHER, 0}, {5, 0, 0}}));
    EXPECT_EQ(srcs_of("STS [R2+-0x4], RZ"), (std::vector<Src>{{2, OTHER, 0}, {RZ, 0, 0}}));
    // uniform, predicate, special registers and constants are not listed; RZ destination is not
    EXPECT_EQ(srcs_of("IADD3 RZ, P0, R4, UR4, RZ"), (std::vector<Src>{{4, 0, 0}, {RZ, 2, 0}}));
    // the slots count from the first source, after the destinations: predicates after operand
    // 0, and the register after a predicate destination (listed, as the traces list it), as
    // the encoding's reuse flags number them (all 22,530 reuse operands of the H100 kit's
    // listings sit on their encoded slot)
    EXPECT_EQ(srcs_of("IADD3 R2, P0, PT, R4.reuse, R5, RZ"), (std::vector<Src>{{4, 0, 1}, {5, 1, 0}, {RZ, 2, 0}}));
    EXPECT_EQ(srcs_of("ISETP.GE.AND P0, PT, R2, R3.reuse, PT"), (std::vector<Src>{{2, 0, 0}, {3, 1, 1}}));
    EXPECT_EQ(srcs_of("LOP3.LUT P0, RZ, R0.reuse, 0x7, RZ, 0xc0, !PT"),
              (std::vector<Src>{{RZ, OTHER, 0}, {0, 0, 1}, {RZ, 2, 0}}));
    EXPECT_EQ(srcs_of("SEL R1, R2, R3, P0"), (std::vector<Src>{{2, 0, 0}, {3, 1, 0}}));
    EXPECT_EQ(srcs_of("@!PT LDC R1, c[0x0][R4]"), std::vector<Src>{});
    EXPECT_EQ(srcs_of("S2R R0, SR_TID.X"), std::vector<Src>{});
    EXPECT_EQ(srcs_of("CS2R R2, SR_CLOCKLO"), std::vector<Src>{});
    EXPECT_EQ(srcs_of("LOP3.LUT R4, R4, 0x3ffc, RZ, 0xc0, !PT"), (std::vector<Src>{{4, 0, 0}, {RZ, 2, 0}}));
    // beyond operand 3 the slot is "other"; duplicates kept
    EXPECT_EQ(srcs_of("LOP3.LUT R15, R15, R6, R7, R8, !PT"),
              (std::vector<Src>{{15, 0, 0}, {6, 1, 0}, {7, 2, 0}, {8, OTHER, 0}}));
    EXPECT_EQ(srcs_of("EXIT"), std::vector<Src>{});
    EXPECT_EQ(srcs_of("BRA `(.L_x_0)"), std::vector<Src>{});
    // R254 is the last numbered register
    EXPECT_EQ(srcs_of("MOV R1, R254"), (std::vector<Src>{{254, 0, 0}}));

    Listing p = Listing::text(listing({{0x10, "@P0 HFMA2.MMA R5, R1, R2, R3"},
                                       {0x20, "@!P1 AVERYLONGMNEMONIC.WITH.MANY.MODIFIERS.X R1, R2"}}));
    ASSERT_EQ(p.rc, SMTLM_OK) << p.err;
    EXPECT_STREQ(p.at("k", 0x10).op, "HFMA2.MMA");
    EXPECT_STREQ(p.at("k", 0x20).op, "AVERYLONGMNEMONIC.WITH.MANY.MOD"); // cut at 31 bytes
}

TEST(SassListing, WholeProgramTwoFunctions)
{
    // two kit listings concatenated, with the noise of a whole-program dump between them
    const std::string a = slurp(kData + "dep_ffma_n128.sass"), b = slurp(kData + "ind_ffma_n128.sass");
    ASSERT_FALSE(a.empty());
    ASSERT_FALSE(b.empty());
    const std::string text = "\nFatbin elf code:\n================\narch = sm_90a\n" + a +
                             "\n.section .nv.info\n/* a comment */\nFatbin ptx code:\n" + b;
    Listing x = Listing::text(text);
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    ASSERT_EQ(x.l.n, 2u);
    EXPECT_STREQ(x.l.func[0].name, "dep_ffma_n128");
    EXPECT_STREQ(x.l.func[1].name, "ind_ffma_n128");
    const unsigned a_lines = 4 + (unsigned)std::count(a.begin(), a.end(), '\n');
    EXPECT_EQ(x.l.func[0].line, 4u + 5u);
    EXPECT_EQ(x.l.func[1].line, a_lines + 4u + 5u);
    EXPECT_EQ(x.l.func[0].n, 168u);
    EXPECT_EQ(x.l.func[1].n, 216u);
    EXPECT_EQ(x.at("ind_ffma_n128", 0x360).line, a_lines + 4u + 115u);
    EXPECT_EQ(srcs(x.at("ind_ffma_n128", 0x360)), (std::vector<Src>{{15, 0, 1}, {6, 1, 0}, {16, 2, 1}}));
    EXPECT_EQ(srcs(x.at("dep_ffma_n128", 0x100)), (std::vector<Src>{{4, 0, 0}, {11, 1, 0}, {5, 2, 0}}));
    // the same PC in each function is its own instruction
    EXPECT_STREQ(x.at("dep_ffma_n128", 0x360).op, "FFMA");
    EXPECT_EQ(x.at("dep_ffma_n128", 0x360).line, 4u + 115u);
    // a PC may start over in the next function
    Listing y = Listing::text(function("f", {{0x10, "NOP"}, {0x20, "NOP"}}) + function("g", {{0x0, "EXIT"}}));
    ASSERT_EQ(y.rc, SMTLM_OK) << y.err;
    EXPECT_EQ(y.l.func[1].n, 1u);
}

TEST(SassListing, AFatbinHasTheKernelOncePerArchitecture)
{
    // `cuobjdump -sass` of a fatbin built for sm_80 and sm_90a: the same kernel in each `code
    // for` block, each block's own encodings; a kernel is found for its trace's binary version
    const std::string text = "Fatbin elf code:\n================\narch = sm_80\n\n\tcode for sm_80\n" +
                             function("k", {{0x10, "FFMA R1, R2, R3, R4"}}) +
                             "\nFatbin elf code:\n================\narch = sm_90a\n\n\tcode for sm_90a\n" +
                             function("k", {{0x10, "IMAD R1, R2, R3, R4"}});
    Listing x = Listing::text(text);
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    ASSERT_EQ(x.l.n, 2u);
    EXPECT_EQ(x.l.func[0].arch, 80u);
    EXPECT_EQ(x.l.func[1].arch, 90u);
    EXPECT_STREQ(smtlm_sass_inst_at(smtlm_sass_func_find(&x.l, "k", 80), 0x10)->op, "FFMA");
    EXPECT_STREQ(smtlm_sass_inst_at(smtlm_sass_func_find(&x.l, "k", 90), 0x10)->op, "IMAD");
    EXPECT_EQ(smtlm_sass_func_find(&x.l, "k", 86), nullptr);
    // a listing that names no architecture serves any
    Listing y = Listing::text(function("k", {{0x10, "NOP"}}));
    ASSERT_EQ(y.rc, SMTLM_OK) << y.err;
    EXPECT_NE(smtlm_sass_func_find(&y.l, "k", 90), nullptr);
    // a function outside any block and one of sm_90a with its name: each is found for itself,
    // the sm_90a one first for binary version 90, the other for any other (a fuzzed listing)
    Listing z = Listing::text(function("k", {{0x10, "NOP"}}) + "\tcode for sm_90a\n" + function("k", {{0x10, "EXIT"}}));
    ASSERT_EQ(z.rc, SMTLM_OK) << z.err;
    ASSERT_EQ(z.l.n, 2u);
    EXPECT_EQ(smtlm_sass_func_find(&z.l, "k", 90), &z.l.func[1]);
    EXPECT_EQ(smtlm_sass_func_find(&z.l, "k", 0), &z.l.func[0]);
    EXPECT_EQ(smtlm_sass_func_find(&z.l, "k", 80), &z.l.func[0]);
}

// `cuobjdump -sass` of a fatbin built for sm_90 and sm_90a: both blocks hold the kernel, and
// neither is "listed twice". A trace says binary version 90 for both; the arch-specific sm_90a
// code is what an H100 runs when the fatbin has it, so it serves; the generic sm_90 block serves
// when it is alone.
TEST(SassListing, Sm90AndSm90aAreTwoBlocks)
{
    const std::string both = "\tcode for sm_90\n" + function("k", {{0x10, "FFMA R1, R2, R3, R4"}}) + "\tcode for sm_90a\n" +
                             function("k", {{0x10, "IMAD R1, R2, R3, R4"}});
    Listing x = Listing::text(both);
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    ASSERT_EQ(x.l.n, 2u);
    EXPECT_EQ(x.l.func[0].arch, 90u);
    EXPECT_EQ(x.l.func[0].variant, 0);
    EXPECT_EQ(x.l.func[1].variant, 'a');
    EXPECT_EQ(smtlm_sass_func_find(&x.l, "k", 90), &x.l.func[1]);
    // in either order
    Listing y = Listing::text("\tcode for sm_90a\n" + function("k", {{0x10, "IMAD R1, R2, R3, R4"}}) + "\tcode for sm_90\n" +
                              function("k", {{0x10, "FFMA R1, R2, R3, R4"}}));
    ASSERT_EQ(y.rc, SMTLM_OK) << y.err;
    EXPECT_EQ(smtlm_sass_func_find(&y.l, "k", 90), &y.l.func[0]);
    Listing alone = Listing::text("\tcode for sm_90\n" + function("k", {{0x10, "FFMA R1, R2, R3, R4"}}));
    ASSERT_EQ(alone.rc, SMTLM_OK) << alone.err;
    EXPECT_EQ(smtlm_sass_func_find(&alone.l, "k", 90), &alone.l.func[0]);
}

// Reading a listing of n functions takes O(n log n) comparisons of functions, whatever their
// names (it took O(n^2): 80,000 functions 15 s). Counted, not timed: 20,000 functions, where
// the quadratic check made n(n-1)/2 = 2e8.
TEST(SassListing, ReadingIsNotQuadraticInTheFunctionCount)
{
    const size_t n = 20000;
    std::string text = "\tcode for sm_90a\n";
    for (size_t i = 0; i < n; i++)
        text += "\t\tFunction : kernel_with_a_long_common_prefix_" + std::to_string(n - i) + "\n";
    Listing x = Listing::text(text);
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    ASSERT_EQ(x.l.n, n);
    const size_t log2n = 15; // ceil(log2(20000))
    EXPECT_LE(x.l.compares, 2 * n * log2n) << "comparisons for " << n << " functions";
    EXPECT_EQ(smtlm_sass_func_find(&x.l, "kernel_with_a_long_common_prefix_7", 90), &x.l.func[n - 7]);
    // a duplicate among them is still found, at the second one's line
    Listing d = Listing::text(text + "\t\tFunction : kernel_with_a_long_common_prefix_7\n");
    EXPECT_EQ(d.rc, SMTLM_TRACE_ERR_FORMAT);
    EXPECT_EQ(std::string(d.err), "mem.sass:" + std::to_string(n + 2) +
                                      ": function \"kernel_with_a_long_common_prefix_7\" listed twice (first at line " +
                                      std::to_string(n - 7 + 2) + ")");
}

TEST(SassListing, CrlfAndEmptyFunction)
{
    std::string t = listing({{0x10, "FFMA R1, R2, R3, R4"}});
    std::string crlf;
    for (char c : t)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    Listing x = Listing::text(crlf + "\t\tFunction : empty\r\n");
    ASSERT_EQ(x.rc, SMTLM_OK) << x.err;
    EXPECT_EQ(x.at("k", 0x10).hi, 0x020fc80000000005ull);
    ASSERT_NE(smtlm_sass_func_find(&x.l, "empty", 0), nullptr);
    EXPECT_EQ(smtlm_sass_func_find(&x.l, "empty", 0)->n, 0u);
    EXPECT_EQ(smtlm_sass_inst_at(smtlm_sass_func_find(&x.l, "empty", 0), 0), nullptr);
}

TEST(SassListing, Errors)
{
    const std::string head = "\n\tcode for sm_90a\n\t.target\tsm_90a\n\n\t\tFunction : k\n\t.headerflags\t@\"x\"\n";
    // head is 6 lines: the first instruction is line 7, its high word line 8
    const std::string ffma = "        /*0010*/   FFMA R6, R4, R11, R5 ;   /* 0x0000000b04067223 */\n";
    const std::string hi = "                                           /* 0x020fc80000000005 */\n";
    expect_error(head + ffma, 7, "without its high-word line");
    expect_error(head + ffma + "\n" + hi, 7, "without its high-word line");
    expect_error(head + ffma + ffma + hi, 7, "without its high-word line");
    expect_error(head + ffma + "                /* 0x020fc8000000000g */\n", 8, "malformed hex word");
    expect_error(head + ffma + "                /* 0x */\n", 8, "malformed hex word");
    expect_error(head + ffma + "                /* 0x1020fc80000000005 */\n", 8, "malformed hex word");
    expect_error(head + "  /*0010*/ FFMA R6, R4, R11, R5 ;   /* 0xzz00000b04067223 */\n" + hi, 7, "malformed hex word");
    expect_error(head + "  /*0010*/ FFMA R6, R4, R11, R5 ;\n" + hi, 7, "without its low word");
    expect_error(head + "  /*0010*/ FFMA R6, R4, R11, R5    /* 0x0000000b04067223 */\n" + hi, 7, "does not end in ';'");
    expect_error(head + "  /*0010*/ @P0 ;    /* 0x0000000b04067223 */\n" + hi, 7, "without a mnemonic");
    expect_error(head + "  /*00zz*/ FFMA R6, R4, R11, R5 ;   /* 0x0000000b04067223 */\n" + hi, 7, "malformed PC");
    expect_error(head + "  /*100000000*/ NOP ;   /* 0x0000000b04067223 */\n" + hi, 7, "malformed PC");
    expect_error(head + ffma + hi + ffma + hi, 9, "PC 0x10 does not follow 0x10");
    expect_error(head + lines_of({{0x20, "NOP"}, {0x10, "NOP"}}), 9, "PC 0x10 does not follow 0x20");
    expect_error(head + hi, 7, "high word without an instruction");
    expect_error("\tcode for sm_90a\n" + ffma + hi, 2, "instruction before any `Function :`");
    expect_error(function("k", {{0x10, "NOP"}}) + function("j", {}) + function("k", {}), 7,
                 "function \"k\" listed twice (first at line 1)");
    expect_error("\tcode for sm_90a\n" + function("k", {}) + "\tcode for sm_80\n" + function("k", {}) +
                     "\tcode for sm_90a\n" + function("k", {}),
                 8, "function \"k\" listed twice (first at line 2)");
    // a PC beyond 16 MiB of code: refused at its line, not a table of 268 million entries
    expect_error(head + lines_of({{0xfffffff0u, "NOP"}}), 7, "PC 0xfffffff0 beyond 0xfffff0, the largest a function of a listing may have");
    expect_error(head + lines_of({{0x1000000u, "NOP"}}), 7, "PC 0x1000000 beyond 0xfffff0");
    expect_error("", 1, "no `Function :` section");
    expect_error("\n\tcode for sm_90a\n\t.target\tsm_90a\n\n", 4, "no `Function :` section");
    expect_error(head + "\t\tFunction :   \n", 7, "`Function :` without a name");
    expect_error(head + lines_of({{0x10, "MOV R1, R255"}}), 7, "out of range");
    expect_error(head + lines_of({{0x10, "LDS R1, [R300]"}}), 7, "out of range");
    expect_error(head + lines_of({{0x10, "MOV R1, R12345678901234567890"}}), 7, "out of range");
    expect_error(head + lines_of({{0x10, "LDS R1, [R3"}}), 7, "unbalanced brackets");
    expect_error(head + lines_of({{0x10, "LDS R1, R3]"}}), 7, "unbalanced brackets");
    expect_error(head + lines_of({{0x10, "LDG.E R1, desc[UR4]["}}), 7, "unbalanced brackets");
    expect_error(head + lines_of({{0x10, "FFMA R1, , R3, R4"}}), 7, "empty operand 1");
    expect_error(head + lines_of({{0x10, "X R0, R1, R2, R3, R4, R5, R6, R7, R8, R9"}}), 7,
                 "more than 8 register sources");
    expect_error(head + ffma + hi + "  /* 0x020fc80000000005 */ junk\n", 9, "text after the high word");
    expect_error(head + "  /*0010*/ NOP ;   /* 0x0000000b04067223 */ junk\n" + hi, 7, "text after the low word");
    // code before sm_70 is one word per instruction: refused, not misread
    expect_error("\tcode for sm_52\n\t\tFunction : k\n        /*0008*/  MOV R1, c[0x0][0x20] ;  /* 0x4c98078000870001 */\n",
                 3, "sm_52 code: only sm_70 and later");
    expect_error("\tcode for sm_61\n\t\tFunction : k\n                                    /* 0x001c4400fe0007f6 */\n"
                 "        /*0008*/  MOV R1, c[0x0][0x20] ;  /* 0x4c98078000870001 */\n",
                 3, "sm_61 code: only sm_70 and later");
}

TEST(SassListing, FileErrors)
{
    smtlm_sass_listing l{};
    char err[256] = "";
    EXPECT_EQ(smtlm_sass_listing_read("/nonexistent/dir/k.sass", &l, err, sizeof err), SMTLM_TRACE_ERR_IO);
    EXPECT_EQ(std::string(err).rfind("/nonexistent/dir/k.sass: cannot open", 0), 0u) << err;
    EXPECT_EQ(l.n, 0u);
    // a NUL byte inside a line is malformed, not a cut line
    const std::string nul = listing({{0x10, "NOP"}}) + std::string("\t\tFunction : a\0b\n", 17);
    EXPECT_EQ(smtlm_sass_listing_parse(nul.data(), nul.size(), "mem.sass", &l, err, sizeof err), SMTLM_TRACE_ERR_FORMAT);
    EXPECT_EQ(std::string(err).rfind("mem.sass:", 0), 0u) << err;
    EXPECT_EQ(smtlm_sass_listing_read(nullptr, &l, err, sizeof err), SMTLM_TRACE_ERR_ARG);
    EXPECT_EQ(smtlm_sass_listing_parse("x", 1, "mem.sass", nullptr, err, sizeof err), SMTLM_TRACE_ERR_ARG);
    // no message buffer: the status alone
    EXPECT_EQ(smtlm_sass_listing_parse("", 0, nullptr, &l, nullptr, 0), SMTLM_TRACE_ERR_FORMAT);
    smtlm_sass_listing_free(&l);
    smtlm_sass_listing_free(nullptr);
}

} // namespace

// The Gpu on the SoC side: every global access is one LT transaction per 32-byte sector with
// byte enables, the ignorable MemAccessExtension and TLM_IGNORE_COMMAND by default; the
// target's added delay is the latency; addresses can be remapped; an error response is
// reported through SC_REPORT_ERROR and ends the kernel with an error. One SM, one warp.
#include <gtest/gtest.h>

#include <tlm_utils/simple_target_socket.h>

#include "kernel_test_util.hpp"
#include "soc_test_util.hpp"
#include "smtlm/tlm/gpu.h"

namespace {

using Seen = soc::Access;

// A target that records what it gets, answers after `latency` and refuses one address.
struct Recorder : sc_core::sc_module {
    tlm_utils::simple_target_socket<Recorder> socket;
    std::vector<Seen> seen;
    sc_core::sc_time latency;
    uint64_t bad = ~0ull;
    Recorder(sc_core::sc_module_name n, sc_core::sc_time lat) : sc_core::sc_module(n), socket("socket"), latency(lat)
    {
        socket.register_b_transport(this, &Recorder::b_transport);
    }
    void b_transport(tlm::tlm_generic_payload &gp, sc_core::sc_time &delay)
    {
        seen.push_back(soc::record(gp));
        if (gp.get_address() == bad) {
            gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        delay += latency;
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

// One warp running `prog` on a 1-SM QV100 Gpu (1 ns cycles, no launch latency).
struct Bench {
    std::vector<smtlm_inst_desc> prog;
    size_t pos = 0;
    smtlm::Gpu gpu;
    Recorder mem;
    Bench(std::vector<smtlm_inst_desc> p, const smtlm::GpuParams &params = smtlm::GpuParams(), unsigned latency = 100)
        : prog(std::move(p)), gpu("gpu", soc::qv100_gpu(1), sc_core::sc_time(1, sc_core::SC_NS), params),
          mem("mem", sc_core::sc_time(latency, sc_core::SC_NS))
    {
        gpu.mem_socket(0).bind(mem.socket);
        gpu.set_source(smtlm_inst_source{this, &Bench::next, &Bench::more, nullptr, 0, 0, nullptr, nullptr, nullptr}, nullptr);
    }
    static int next(void *ctx, unsigned, unsigned, smtlm_inst_desc *d)
    {
        Bench *b = static_cast<Bench *>(ctx);
        if (b->pos >= b->prog.size())
            return 0;
        *d = b->prog[b->pos++];
        return 1;
    }
    static int more(void *ctx, unsigned, unsigned) { return static_cast<Bench *>(ctx)->pos < static_cast<Bench *>(ctx)->prog.size(); }
    smtlm_run_status run()
    {
        EXPECT_EQ(gpu.run_kernel(smtlm_kernel_desc{1, 32, 0, 32}), SMTLM_OK);
        sc_core::sc_start();
        return gpu.run_status();
    }
};

// A store of lanes 0-7 (4 bytes each, stride 4) at 0x1000: one sector, bytes 0-31 enabled; a
// load of lanes 0-3 at 0x2010: one sector 0x2000, bytes 16-31.
TEST(GpuSoc, OneTransactionPerSectorWithByteEnablesAndTheExtension)
{
    Bench b(ktu::prog({ktu::with_mask(ktu::global(SMTLM_OP_STORE, -1, {3, 4}, 0x1000, 4), 0xff),
                       ktu::with_mask(ktu::global(SMTLM_OP_LOAD, 5, {3}, 0x2010, 4), 0xf)}));
    ASSERT_EQ(b.run(), SMTLM_RUN_DONE);
    ASSERT_EQ(b.mem.seen.size(), 2u);
    const Seen &st = b.mem.seen[0], &ld = b.mem.seen[1];
    EXPECT_EQ(st.cmd, tlm::TLM_IGNORE_COMMAND); // timing only by default
    EXPECT_EQ(st.addr, 0x1000u);
    EXPECT_EQ(st.len, 32u);
    EXPECT_EQ(st.be, std::string(32, '1'));
    EXPECT_EQ(ld.addr, 0x2000u);
    EXPECT_EQ(ld.be, std::string(16, '0') + std::string(16, '1'));
    ASSERT_TRUE(ld.has_ext);
    EXPECT_EQ(ld.ext.sm, 0u);
    EXPECT_EQ(ld.ext.warp, 0u);
    EXPECT_EQ(ld.ext.pc, 0x10u);
    EXPECT_EQ(ld.ext.space, (unsigned)SMTLM_MEM_GLOBAL);
    EXPECT_EQ(ld.ext.lanes, 0xfu);
}

// The load's result waits for the target's latency: with 100 ns (100 cycles) more latency the
// kernel takes exactly 100 more cycles (the load is the critical path), and SystemC time ends
// where the cycles say.
TEST(GpuSoc, TheTargetsDelayIsTheLatency)
{
    const std::vector<smtlm_inst_desc> p = ktu::prog({ktu::global(SMTLM_OP_LOAD, 5, {3}, 0x3000, 4), ktu::ffma(6, {5, 5, 5})});
    Bench fast(p, smtlm::GpuParams(), 10);
    ASSERT_EQ(fast.run(), SMTLM_RUN_DONE);
    const uint64_t c10 = fast.gpu.engine().sim_cycle;
    // the reference: the C engine's fixed-latency memory with latency 110 gives 100 more cycles
    ktu::Rig rig(ktu::qv100(), 10, 64);
    rig.load({p});
    const uint64_t rig10 = rig.run();
    ktu::Rig rig110(ktu::qv100(), 110, 64);
    rig110.load({p});
    EXPECT_EQ(rig110.run() - rig10, 100u);
    EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time((double)c10, sc_core::SC_NS));
}

TEST(GpuSoc, RealAccessesAndRemappedAddresses)
{
    smtlm::GpuParams p;
    p.real_access = true;
    p.addr_map.push_back({0x7f0000000000ull, 0x100000, 0x80000000ull});
    Bench b(ktu::prog({ktu::global(SMTLM_OP_LOAD, 5, {3}, 0x7f0000000040ull, 4), ktu::global(SMTLM_OP_STORE, -1, {3, 4}, 0x5000, 4)}),
            p);
    ASSERT_EQ(b.run(), SMTLM_RUN_DONE);
    ASSERT_EQ(b.mem.seen.size(), 8u); // 4 sectors each
    EXPECT_EQ(b.mem.seen[0].cmd, tlm::TLM_READ_COMMAND);
    EXPECT_EQ(b.mem.seen[0].addr, 0x80000040u); // inside the window: moved
    EXPECT_EQ(b.mem.seen[4].cmd, tlm::TLM_IGNORE_COMMAND); // a store never writes: no data
    EXPECT_EQ(b.mem.seen[4].addr, 0x5000u); // outside: unchanged
}

std::string g_last_error; // what the report handler saw
void keep_error(const sc_core::sc_report &r, const sc_core::sc_actions &)
{
    if (r.get_severity() == sc_core::SC_ERROR)
        g_last_error = std::string(r.get_msg_type()) + ": " + r.get_msg();
}

TEST(GpuSoc, AnErrorResponseIsReportedAndEndsTheKernel)
{
    sc_core::sc_report_handler::set_handler(keep_error);
    Bench b(ktu::prog({ktu::global(SMTLM_OP_LOAD, 5, {3}, 0x6000, 4), ktu::ffma(6, {5, 5, 5})}));
    b.mem.bad = 0x6020; // the second sector
    EXPECT_EQ(b.run(), SMTLM_RUN_ERROR);
    EXPECT_EQ(b.gpu.engine().error, SMTLM_EMEMORY);
    EXPECT_EQ(b.gpu.engine().mem[0].error_req.addr, 0x6020u);
    EXPECT_EQ(sc_core::sc_report_handler::get_count("smtlm/memory"), 1);
    const std::string &m = g_last_error;
    EXPECT_EQ(m.rfind("smtlm/memory: ", 0), 0u) << m;
    EXPECT_NE(m.find("address 0x6020 (SM 0, warp 0, pc 0x0"), std::string::npos) << m;
    EXPECT_NE(m.find("ADDRESS_ERROR"), std::string::npos) << m;
}

} // namespace

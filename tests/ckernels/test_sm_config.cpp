// Configuration validation: smtlm_sm_init / smtlm_gpu_init return codes (GPGPU-Sim's asserts on
// banks, collector units, widths and unit counts under the sub-core model) and per-instruction input
// validation reported through the run status (SMTLM_RUN_ERROR, error code and trace line).
#include <gtest/gtest.h>

#include <functional>

#include "kernel_test_util.hpp"

namespace {

int sm_init(const std::function<void(smtlm_sm_cfg &)> &edit)
{
    smtlm_sm_cfg c = ktu::qv100();
    edit(c);
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    return smtlm_sm_init(sm.get(), &c, 0);
}

TEST(SmConfig, PresetsAreValid)
{
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &) {}), SMTLM_OK);
    smtlm_sm_cfg t = ktu::titanx(); // zero DP/INT widths are fine when there are no such units
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    EXPECT_EQ(smtlm_sm_init(sm.get(), &t, 0), SMTLM_OK);
    EXPECT_EQ(sm->ex.n_fu, 8u); // 4 SP + 4 SFU
    smtlm_sm_cfg q = ktu::qv100();
    EXPECT_EQ(smtlm_sm_init(sm.get(), &q, 0), SMTLM_OK);
    EXPECT_EQ(sm->ex.n_fu, 4u * 5 + 4 * 3); // SP DP INT SFU tensor + BRA TEX TENSOR
    EXPECT_EQ(sm->oc.n_cus, 8u);
    EXPECT_EQ(sm->rf.bps, 4u);
    EXPECT_EQ(sm->ex.rb.n, 8u); // result buses = EX_WB width
}

// The SM's configuration is the blocks' own, composed: each block holds exactly the part the
// SM was given for it, and the shape and units it follows are the SM's one copy of them.
TEST(SmConfig, EachBlockGetsItsOwnPartAndTheSmsShape)
{
    smtlm_sm_cfg c = ktu::qv100();
    c.issue.policy = SMTLM_SCHED_GTO; // values away from the preset's, so a copy of the wrong field shows
    c.oc.fix_optype_priority = 1;
    c.rf.n_banks = 8;
    c.rf.fix_wb_bank_conflict = 1;
    c.ldst.smem_latency = 7;
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    ASSERT_EQ(smtlm_sm_init(sm.get(), &c, 0), SMTLM_OK);
    EXPECT_EQ(0, std::memcmp(&sm->iss.cfg, &c.issue, sizeof c.issue));
    EXPECT_EQ(0, std::memcmp(&sm->oc.cfg, &c.oc, sizeof c.oc));
    EXPECT_EQ(0, std::memcmp(&sm->rf.cfg, &c.rf, sizeof c.rf));
    EXPECT_EQ(0, std::memcmp(&sm->ldst.cfg, &c.ldst, sizeof c.ldst));
    for (const smtlm_sm_shape *s : {&sm->iss.shape, &sm->oc.shape, &sm->rf.shape}) {
        EXPECT_EQ(s->n_sched, c.shape.n_sched);
        EXPECT_EQ(s->sub_core, c.shape.sub_core);
    }
    EXPECT_EQ(0, std::memcmp(&sm->iss.units, &c.units, sizeof c.units));
    EXPECT_EQ(sm->rf.n_cus, sm->oc.n_cus); // the register file serves the collector's units
    EXPECT_EQ(sm->rf.bps, 2u);             // 8 banks over 4 sub-cores
    EXPECT_EQ(sm->wb.oldest_first, 1);     // the writeback follows the register file's quirk
}

TEST(SmConfig, BanksNotDivisibleBySchedulersUnderSubCore)
{
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.rf.n_banks = 18; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.rf.n_banks = 6; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.rf.n_banks = 8; }), SMTLM_OK);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.rf.n_banks = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.rf.n_banks = SMTLM_MAX_BANKS + 4; }), SMTLM_ERANGE);
}

TEST(SmConfig, CollectorUnits)
{
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.oc.num_units[SMTLM_CUS_GEN] = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.oc.num_units[SMTLM_CUS_GEN] = 6; }), SMTLM_EINVAL); // 6 % 4
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.oc.num_units[SMTLM_CUS_GEN] = 12; }), SMTLM_OK);
}

TEST(SmConfig, IdOcWidthMustEqualSchedulersUnderSubCore)
{
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_ID_OC_SP] = 2; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_ID_OC_MEM] = 8; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_ID_OC_INT] = 1; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_ID_OC_TENSOR_CORE] = 1; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.units.spec[0].id_oc_width = 2; }), SMTLM_EINVAL);
    // Not asserted without the unit (INT absent), nor without the sub-core model.
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) {
                  c.units.n_int = 0;
                  c.width[SMTLM_ID_OC_INT] = 0;
              }),
              SMTLM_OK);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) {
                  c.shape.sub_core = 0;
                  c.width[SMTLM_ID_OC_SP] = 2;
              }),
              SMTLM_OK);
    // A unit k reads OC_EX slot k: every sub-core needs its slot.
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_OC_EX_SP] = 2; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_OC_EX_SFU] = SMTLM_MAX_REGSET_WIDTH + 1; }),
              SMTLM_ERANGE);
}

TEST(SmConfig, PipelineDepths)
{
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.units.depth_sfu = SMTLM_MAX_LATENCY; }), SMTLM_ERANGE);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.units.depth_sp = 600; }), SMTLM_ERANGE);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.units.spec[1].max_latency = SMTLM_MAX_LATENCY; }), SMTLM_ERANGE);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.units.depth_sfu = SMTLM_MAX_LATENCY - 1; }), SMTLM_OK);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.units.depth_int = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.ldst.smem_latency = 1; }), SMTLM_EINVAL);
}

TEST(SmConfig, OtherLimits)
{
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.reg_file_port_throughput = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.reg_file_port_throughput = 1; }), SMTLM_OK);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.issue.fetch_throughput = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.shape.n_sched = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.units.n_sp = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_EX_WB] = 0; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.width[SMTLM_EX_WB] = SMTLM_MAX_RESULT_BUSES + 1; }), SMTLM_ERANGE);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.issue.max_warps = SMTLM_MAX_WARPS + 1; }), SMTLM_ERANGE);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.issue.max_issue_per_warp = 3; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.issue.dual_issue_diff_units = 2; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.issue.policy = (smtlm_sched_policy)9; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.rf.policy = (smtlm_alloc_policy)5; }), SMTLM_EINVAL);
    EXPECT_EQ(sm_init([](smtlm_sm_cfg &c) { c.rf.policy = SMTLM_ALLOC_WAVEFRONT; }), SMTLM_OK);
}

TEST(GpuConfig, InitReturnCodes)
{
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    std::unique_ptr<smtlm_mem_model> mem(new smtlm_mem_model);
    std::unique_ptr<smtlm_gpu> gpu(new smtlm_gpu);
    smtlm_gpu_cfg c = micro::Runner::qv100();
    c.n_clusters = 1;
    EXPECT_EQ(smtlm_gpu_init(gpu.get(), &c, sm.get(), mem.get()), SMTLM_OK);
    c.n_clusters = 0;
    EXPECT_EQ(smtlm_gpu_init(gpu.get(), &c, sm.get(), mem.get()), SMTLM_EINVAL);
    c = micro::Runner::qv100();
    c.n_clusters = 1;
    c.threads_per_sm = 1024; // 32 warp slots but the SM has 64
    EXPECT_EQ(smtlm_gpu_init(gpu.get(), &c, sm.get(), mem.get()), SMTLM_EINVAL);
    c = micro::Runner::qv100();
    c.n_clusters = 1;
    c.sm.rf.n_banks = 18; // the SM's own validation surfaces through the GPU
    EXPECT_EQ(smtlm_gpu_init(gpu.get(), &c, sm.get(), mem.get()), SMTLM_EINVAL);
    c = micro::Runner::qv100();
    c.n_clusters = 1;
    c.mem_bytes_per_cycle = 0;
    EXPECT_EQ(smtlm_gpu_init(gpu.get(), &c, sm.get(), mem.get()), SMTLM_EINVAL);
}

// latency - II must name an existing stage of the instruction's unit (GPGPU-Sim indexes
// m_pipeline_reg[latency - II] with the PTX-derived depth: SP 13 in QV100).
smtlm_run_status run_one(smtlm_inst_desc d, smtlm_gpu **gpu_out, micro::Runner &r)
{
    d.line = 77;
    smtlm_run_status st = r.run(ktu::prog({d}), 1);
    *gpu_out = r.gpu();
    return st;
}

TEST(InputValidation, LatencyMinusIiBeyondPipelineDepthIsAnInputError)
{
    smtlm_gpu *gpu;
    {
        micro::Runner r(micro::Runner::qv100());
        EXPECT_EQ(run_one(ktu::alu(SMTLM_OP_SP, 20, {3}, 14, 2), &gpu, r), SMTLM_RUN_DONE); // stage 12 of 13
    }
    {
        micro::Runner r(micro::Runner::qv100());
        EXPECT_EQ(run_one(ktu::alu(SMTLM_OP_SP, 20, {3}, 15, 2), &gpu, r), SMTLM_RUN_ERROR); // stage 13
        EXPECT_EQ(gpu->error, SMTLM_EINPUT);
        EXPECT_EQ(gpu->error_line, 77u);
        EXPECT_EQ(gpu->error_sm, 0u);
    }
    {
        micro::Runner r(micro::Runner::qv100()); // INT depth 21
        EXPECT_EQ(run_one(ktu::alu(SMTLM_OP_INTP, 20, {3}, 22, 1), &gpu, r), SMTLM_RUN_ERROR);
        EXPECT_EQ(gpu->error, SMTLM_EINPUT);
    }
    {
        micro::Runner r(micro::Runner::qv100()); // SFU depth 330: MUFU 20,8 fits
        EXPECT_EQ(run_one(ktu::alu(SMTLM_OP_SFU, 20, {3}, 20, 8), &gpu, r), SMTLM_RUN_DONE);
    }
}

TEST(InputValidation, MalformedInstructionsReportTheirLine)
{
    smtlm_inst_desc bad[5];
    bad[0] = ktu::alu(SMTLM_OP_SP, 20, {3}, 2, 3);   // II > latency
    bad[1] = ktu::alu(SMTLM_OP_SP, 20, {3}, 0, 0);   // zero latency
    bad[2] = ktu::alu(SMTLM_OP_SP, 20, {600}, 2, 2); // register beyond SMTLM_MAX_REG
    bad[3] = ktu::alu(SMTLM_OP_SPEC, 20, {3}, 2, 2); // specialized unit 0 does not exist
    bad[4] = ktu::alu((smtlm_op)SMTLM_OP_COUNT, 20, {3}, 2, 2);
    for (int i = 0; i < 5; i++) {
        micro::Runner r(micro::Runner::qv100());
        smtlm_gpu *gpu;
        EXPECT_EQ(run_one(bad[i], &gpu, r), SMTLM_RUN_ERROR) << i;
        EXPECT_EQ(gpu->error, SMTLM_EINPUT) << i;
        EXPECT_EQ(gpu->error_line, 77u) << i;
    }
}

} // namespace

namespace {

// A source that reports an error stops the SM with SMTLM_ESOURCE (decode of cycle 0).
TEST(InputValidation, SourceErrorStopsTheSm)
{
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    const smtlm_sm_cfg c = ktu::qv100();
    ASSERT_EQ(smtlm_sm_init(sm.get(), &c, 0), SMTLM_OK);
    const smtlm_inst_source src = {nullptr, [](void *, unsigned, unsigned, smtlm_inst_desc *) { return -1; },
                                   nullptr, nullptr, 0, 0, nullptr, nullptr, nullptr};
    smtlm_sm_set_source(sm.get(), &src);
    ASSERT_EQ(smtlm_sm_launch_cta(sm.get(), 32, 0), 0);
    EXPECT_EQ(smtlm_sm_cycle(sm.get(), 0), SMTLM_ESOURCE);
    EXPECT_EQ(sm->error, SMTLM_ESOURCE);
    EXPECT_EQ(smtlm_sm_cycle(sm.get(), 1), SMTLM_ESOURCE); // sticky
}

} // namespace

// Every refusal names its field (and the GPGPU-Sim option), from the SM's own checks and from
// each block's init, so a front end never has to print a bare "invalid configuration".
namespace {

std::string sm_reason(const std::function<void(smtlm_sm_cfg &)> &edit)
{
    smtlm_sm_cfg c = ktu::qv100();
    edit(c);
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    EXPECT_NE(smtlm_sm_init(sm.get(), &c, 0), SMTLM_OK);
    return sm->cfg_error ? sm->cfg_error : "";
}

TEST(SmConfig, EveryRefusalNamesItsField)
{
    EXPECT_NE(sm_reason([](smtlm_sm_cfg &c) { c.rf.n_banks = 18; }).find("n_banks (-gpgpu_num_reg_banks) must be a multiple of n_sched"),
              std::string::npos);
    EXPECT_NE(sm_reason([](smtlm_sm_cfg &c) { c.units.n_sp = 0; }).find("n_sp (-gpgpu_num_sp_units)"), std::string::npos);
    EXPECT_NE(sm_reason([](smtlm_sm_cfg &c) { c.width[SMTLM_ID_OC_SP] = 2; }).find("ID_OC width"), std::string::npos);
    // block inits: the LDST, the collector, the issue stage and the units each say why
    EXPECT_EQ(sm_reason([](smtlm_sm_cfg &c) { c.ldst.smem_latency = 1; }).rfind("LDST: smem_latency (-gpgpu_smem_latency)", 0), 0u);
    EXPECT_EQ(sm_reason([](smtlm_sm_cfg &c) { c.oc.num_units[SMTLM_CUS_GEN] = 6; }).rfind("operand collector: num_units", 0), 0u);
    EXPECT_EQ(sm_reason([](smtlm_sm_cfg &c) { c.issue.max_issue_per_warp = 3; }).rfind("issue: max_issue_per_warp", 0), 0u);
    EXPECT_EQ(sm_reason([](smtlm_sm_cfg &c) { c.ldst.shmem_warp_parts = 3; }).rfind("LDST: shmem_warp_parts", 0), 0u);
    // a valid configuration leaves no reason behind
    smtlm_sm_cfg ok = ktu::qv100();
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    ASSERT_EQ(smtlm_sm_init(sm.get(), &ok, 0), SMTLM_OK);
    EXPECT_EQ(sm->cfg_error, nullptr);
}

TEST(SmConfig, TheGpuPassesTheBlocksReasonOn)
{
    smtlm_gpu_cfg g;
    smtlm_gpu_cfg_qv100(&g);
    g.n_clusters = 1;
    g.sm.ldst.smem_latency = 1;
    std::unique_ptr<smtlm_gpu> gpu(new smtlm_gpu);
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    std::unique_ptr<smtlm_mem_model> mem(new smtlm_mem_model);
    EXPECT_EQ(smtlm_gpu_init(gpu.get(), &g, sm.get(), mem.get()), SMTLM_EINVAL);
    ASSERT_NE(gpu->cfg_error, nullptr);
    EXPECT_EQ(std::string(gpu->cfg_error).rfind("LDST: smem_latency", 0), 0u);
    g.sm.ldst.smem_latency = 20;
    g.max_cta_per_sm = 0;
    EXPECT_EQ(smtlm_gpu_init(gpu.get(), &g, sm.get(), mem.get()), SMTLM_EINVAL);
    EXPECT_NE(std::string(gpu->cfg_error).find("-gpgpu_shader_cta"), std::string::npos);
}

} // namespace

namespace {

// smtlm_gpu_kernel_fits answers what smtlm_gpu_launch would do, without starting anything
// (smsim -smtlm_check_options relies on it). QV100: 2048 threads, 98304 B shared memory and
// 65536 registers per SM.
TEST(GpuConfig, KernelFitsAgreesWithLaunch)
{
    std::unique_ptr<smtlm_sm> sm(new smtlm_sm);
    std::unique_ptr<smtlm_mem_model> mem(new smtlm_mem_model);
    std::unique_ptr<smtlm_gpu> gpu(new smtlm_gpu);
    smtlm_gpu_cfg c = micro::Runner::qv100();
    c.n_clusters = 1;
    ASSERT_EQ(smtlm_gpu_init(gpu.get(), &c, sm.get(), mem.get()), SMTLM_OK);
    const smtlm_kernel_desc fits = {4, 256, 1024, 32};
    const smtlm_kernel_desc no_threads = {4, 0, 0, 32};
    const smtlm_kernel_desc too_wide = {4, 2048 + 32, 0, 32};
    const smtlm_kernel_desc too_much_shmem = {4, 32, 98304 + 1, 32};
    const smtlm_kernel_desc empty_grid = {0, 32, 98304 + 1, 32}; // no CTA: nothing has to fit
    EXPECT_EQ(smtlm_gpu_kernel_fits(gpu.get(), &fits), 1);
    EXPECT_EQ(gpu->kernel_active, 0); // asking changed nothing
    EXPECT_EQ(smtlm_gpu_kernel_fits(gpu.get(), &no_threads), 0);
    EXPECT_EQ(smtlm_gpu_kernel_fits(gpu.get(), &too_wide), 0);
    EXPECT_EQ(smtlm_gpu_kernel_fits(gpu.get(), &too_much_shmem), 0);
    EXPECT_EQ(smtlm_gpu_kernel_fits(gpu.get(), &empty_grid), 1);
    for (const smtlm_kernel_desc &k : {no_threads, too_wide, too_much_shmem})
        EXPECT_EQ(smtlm_gpu_launch(gpu.get(), &k), SMTLM_EINVAL);
    EXPECT_EQ(smtlm_gpu_launch(gpu.get(), &fits), SMTLM_OK);
}

} // namespace

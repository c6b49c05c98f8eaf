/* The table of every option smtlm accepts. Defaults are GPGPU-Sim's / Accel-Sim's
 * (gpu-sim.cc reg_options, cuda-sim.cc, ptx_loader.cc, addrdec.cc, icnt_wrapper.cc,
 * trace_driven.cc) so a real config means the same thing here. To add an option, add a row;
 * "modelled" = 1 only when the model reads the value (others are accepted and, when set to
 * a non-default value, named in one warning). */
#include "smtlm/options.h"

#include <string.h>

#define B(n, d, m, s) {n, SMTLM_OPT_BOOL, d, s, m, NULL}
#define I(n, d, m, s) {n, SMTLM_OPT_INT32, d, s, m, NULL}
#define U(n, d, m, s) {n, SMTLM_OPT_UINT32, d, s, m, NULL}
#define I64(n, d, m, s) {n, SMTLM_OPT_INT64, d, s, m, NULL}
#define U64(n, d, m, s) {n, SMTLM_OPT_UINT64, d, s, m, NULL}
#define S(n, d, m, s) {n, SMTLM_OPT_STRING, d, s, m, NULL}
#define SC(n, d, m, c, s) {n, SMTLM_OPT_STRING, d, s, m, c}

#define OC_UNITS(t, d) I("gpgpu_operand_collector_num_units_" t, d, 1, "number of " t " collector units")
#define OC_IN(t, d) I("gpgpu_operand_collector_num_in_ports_" t, d, 1, "number of " t " collector in ports")
#define OC_OUT(t, d) I("gpgpu_operand_collector_num_out_ports_" t, d, 1, "number of " t " collector out ports (dispatch units)")
#define SPEC_UNIT(k) S("specialized_unit_" #k, "0,4,4,4,4,BRA", 1, \
    "specialized unit " #k ": <enabled>,<num_units>,<max_latency>,<ID_OC width>,<OC_EX width>,<NAME>")
#define SPEC_LAT(k) S("trace_opcode_latency_initiation_spec_op_" #k, "4,4", 1, \
    "trace mode: <latency>,<initiation> of specialized unit " #k)

static const smtlm_option_def k_options[] = {
    /* ---- functional simulator / PTX front end (cuda-sim.cc, ptx_loader.cc) ---- */
    B("gpgpu_ptx_use_cuobjdump", "1", 0, "use cuobjdump to extract ptx and sass from binaries"),
    B("gpgpu_experimental_lib_support", "0", 0, "try to extract code from cuda libraries"),
    B("gpgpu_ptx_convert_to_ptxplus", "0", 0, "convert SASS to ptxplus and run ptxplus"),
    U("gpgpu_ptx_force_max_capability", "0", 0, "force maximum compute capability"),
    B("gpgpu_ptx_inst_debug_to_file", "0", 0, "dump executed instructions' debug information to file"),
    S("gpgpu_ptx_inst_debug_file", "inst_debug.txt", 0, "executed instructions' debug output file"),
    I("gpgpu_ptx_inst_debug_thread_uid", "1", 0, "thread UID for executed instructions' debug output"),
    B("save_embedded_ptx", "0", 0, "save ptx files embedded in the binary as <n>.ptx"),
    B("keep", "0", 0, "keep intermediate files created when calling external programs"),
    B("gpgpu_ptx_save_converted_ptxplus", "0", 0, "save converted ptxplus to a file"),
    I("gpgpu_occupancy_sm_number", "0", 0, "SM number passed to ptxas for register usage"),
    I("gpgpu_ptx_instruction_classification", "0", 0, "classify ptx instruction types per kernel"),
    I("gpgpu_ptx_sim_mode", "0", 0, "0 = performance simulation, 1 = functional only"),
    B("enable_ptx_file_line_stats", "1", 0, "PTX source line statistic profiling"),
    S("ptx_line_stats_filename", "gpgpu_inst_stats.txt", 0, "output file for PTX source line statistics"),

    /* ---- PTX-mode latencies; also set the FU pipeline depths in trace mode ---- */
    S("ptx_opcode_latency_int", "1,1,19,25,145,32", 1, "integer latencies <ADD,MAX,MUL,MAD,DIV,SHFL>"),
    S("ptx_opcode_latency_fp", "1,1,1,1,30", 1, "single-precision latencies <ADD,MAX,MUL,MAD,DIV>"),
    S("ptx_opcode_latency_dp", "8,8,8,8,335", 1, "double-precision latencies <ADD,MAX,MUL,MAD,DIV>"),
    S("ptx_opcode_latency_sfu", "8", 1, "SFU latency"),
    S("ptx_opcode_latency_tesnor", "64", 1, "tensor latency (GPGPU-Sim's spelling)"),
    S("ptx_opcode_initiation_int", "1,1,4,4,32,4", 0, "integer initiation intervals <ADD,MAX,MUL,MAD,DIV,SHFL>"),
    S("ptx_opcode_initiation_fp", "1,1,1,1,5", 0, "single-precision initiation intervals <ADD,MAX,MUL,MAD,DIV>"),
    S("ptx_opcode_initiation_dp", "8,8,8,8,130", 0, "double-precision initiation intervals <ADD,MAX,MUL,MAD,DIV>"),
    S("ptx_opcode_initiation_sfu", "8", 0, "SFU initiation interval"),
    S("ptx_opcode_initiation_tensor", "64", 0, "tensor initiation interval"),
    S("cdp_latency", "7200,8000,100,12000,1600", 0, "CUDA dynamic parallelism API latencies"),

    /* ---- shader core (gpu-sim.cc shader_core_config::reg_options) ---- */
    I("gpgpu_simd_model", "1", 0, "1 = post-dominator reconvergence"),
    S("gpgpu_shader_core_pipeline", "1024:32", 1, "<threads per SM>:<warp size>"),
    S("gpgpu_tex_cache:l1", "8:128:5,L:R:m:N,F:128:4,128:2", 0, "per-SM L1 texture cache config"),
    S("gpgpu_const_cache:l1", "64:64:2,L:R:f:N,A:2:32,4", 0, "per-SM L1 constant cache config"),
    S("gpgpu_cache:il1", "N:64:128:16,L:R:f:N:L,S:2:48,4", 0, "per-SM L1 instruction cache config"),
    S("gpgpu_cache:dl1", "none", 0, "per-SM L1 data cache config"),
    S("gpgpu_cache:dl1PrefL1", "none", 0, "L1 data cache config when the kernel prefers L1"),
    S("gpgpu_cache:dl1PrefShared", "none", 0, "L1 data cache config when the kernel prefers shared memory"),
    U("gpgpu_l1_cache_write_ratio", "0", 0, "L1D write ratio"),
    U("gpgpu_l1_banks", "1", 0, "number of L1 cache banks"),
    U("gpgpu_l1_banks_byte_interleaving", "32", 0, "L1 bank byte interleaving granularity"),
    U("gpgpu_l1_banks_hashing_function", "0", 0, "L1 bank hashing function"),
    U("gpgpu_l1_latency", "1", 0, "L1 hit latency"),
    U("gpgpu_smem_latency", "3", 1, "shared memory latency (LDST pipeline depth)"),
    B("gpgpu_gmem_skip_L1D", "0", 0, "global memory accesses skip the L1D cache"),
    B("gpgpu_perfect_mem", "0", 1, "perfect memory mode (no cache misses)"),
    U("n_regfile_gating_group", "4", 0, "group of lanes read/written together (power)"),
    B("gpgpu_clock_gated_reg_file", "0", 0, "clock gated register file (power)"),
    B("gpgpu_clock_gated_lanes", "0", 0, "clock gated lanes (power)"),
    U("gpgpu_shader_registers", "8192", 1, "registers per SM; limits concurrent CTAs"),
    U("gpgpu_registers_per_block", "8192", 0, "maximum registers per CTA"),
    B("gpgpu_ignore_resources_limitation", "0", 1, "ignore register/shared memory limits on occupancy"),
    U("gpgpu_shader_cta", "32", 1, "maximum concurrent CTAs per SM"),
    U("gpgpu_num_cta_barriers", "16", 0, "maximum named barriers per CTA"),
    U("gpgpu_n_clusters", "10", 1, "number of processing clusters"),
    U("gpgpu_n_cores_per_cluster", "3", 1, "number of SMs per cluster"),
    U("gpgpu_n_cluster_ejection_buffer_size", "8", 0, "packets in the cluster ejection buffer"),
    U("gpgpu_n_ldst_response_buffer_size", "2", 0, "response packets in the LDST ejection buffer"),
    U("gpgpu_shmem_per_block", "49152", 0, "shared memory per CTA (bytes)"),
    U("gpgpu_shmem_size", "16384", 1, "shared memory per SM (bytes)"),
    S("gpgpu_shmem_option", "0", 0, "list of selectable shared memory sizes (KB)"),
    U("gpgpu_unified_l1d_size", "0", 0, "unified L1D + shared memory size (KB)"),
    B("gpgpu_adaptive_cache_config", "0", 0, "adapt the L1/shared split per kernel"),
    U("gpgpu_shmem_sizeDefault", "16384", 0, "default shared memory per SM (bytes)"),
    U("gpgpu_shmem_size_PrefL1", "16384", 0, "shared memory per SM when preferring L1 (bytes)"),
    U("gpgpu_shmem_size_PrefShared", "16384", 0, "shared memory per SM when preferring shared (bytes)"),
    U("gpgpu_shmem_num_banks", "16", 1, "shared memory banks per SM"),
    B("gpgpu_shmem_limited_broadcast", "1", 0, "shared memory does one broadcast per cycle"),
    I("gpgpu_shmem_warp_parts", "2", 1, "portions of a warp for shared memory bank conflict checks"),
    I("gpgpu_mem_unit_ports", "1", 1, "memory transactions per core cycle (LDST clock multiplier)"),
    I("gpgpu_warpdistro_shader", "-1", 0, "SM whose warp size distribution is collected"),
    I("gpgpu_warp_issue_shader", "0", 0, "SM whose warp issue distribution is collected"),
    B("gpgpu_local_mem_map", "1", 0, "map local memory to the simulated physical address space"),
    I("gpgpu_num_reg_banks", "8", 1, "register file banks per SM"),
    B("gpgpu_reg_bank_use_warp_id", "0", 0, "use the warp id in the register-to-bank map (unused)"),
    B("gpgpu_sub_core_model", "0", 1, "sub-core model: each scheduler owns its banks, CUs and units"),
    B("gpgpu_enable_specialized_operand_collector", "1", 1, "per-unit-type collector sets besides the generic one"),
    OC_UNITS("sp", "4"), OC_UNITS("dp", "0"), OC_UNITS("sfu", "4"), OC_UNITS("int", "0"),
    OC_UNITS("tensor_core", "4"), OC_UNITS("mem", "2"), OC_UNITS("gen", "0"),
    OC_IN("sp", "1"), OC_IN("dp", "0"), OC_IN("sfu", "1"), OC_IN("int", "0"),
    OC_IN("tensor_core", "1"), OC_IN("mem", "1"), OC_IN("gen", "0"),
    OC_OUT("sp", "1"), OC_OUT("dp", "0"), OC_OUT("sfu", "1"), OC_OUT("int", "0"),
    OC_OUT("tensor_core", "1"), OC_OUT("mem", "1"), OC_OUT("gen", "0"),
    I("gpgpu_coalesce_arch", "13", 0, "coalescing architecture (GT200 = 13, Fermi = 20)"),
    I("gpgpu_num_sched_per_core", "1", 1, "warp schedulers per SM"),
    I("gpgpu_max_insn_issue_per_warp", "2", 1, "instructions a scheduler may issue per warp per cycle"),
    B("gpgpu_dual_issue_diff_exec_units", "1", 1, "dual issue must use two different execution units"),
    I("gpgpu_simt_core_sim_order", "1", 0, "simulation order of SMs in a cluster (0 = fixed, 1 = round robin)"),
    S("gpgpu_pipeline_widths", "1,1,1,1,1,1,1,1,1,1,1,1,1", 1,
      "ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_DP,OC_EX_INT,OC_EX_SFU,OC_EX_MEM,EX_WB,"
      "ID_OC_TENSOR_CORE,OC_EX_TENSOR_CORE"),
    U("gpgpu_tensor_core_avail", "0", 1, "tensor cores available"),
    U("gpgpu_num_sp_units", "1", 1, "SP units per SM"),
    U("gpgpu_num_dp_units", "0", 1, "DP units per SM"),
    U("gpgpu_num_int_units", "0", 1, "INT units per SM"),
    U("gpgpu_num_sfu_units", "1", 1, "SFU units per SM"),
    U("gpgpu_num_tensor_core_units", "0", 1, "tensor core units per SM"),
    U("gpgpu_num_mem_units", "1", 0, "LDST units (not hooked up in GPGPU-Sim either)"),
    S("gpgpu_scheduler", "gto", 1, "warp scheduler: lrr | gto | two_level_active:..."),
    B("gpgpu_concurrent_kernel_sm", "0", 0, "concurrent kernels on one SM"),
    B("gpgpu_perfect_inst_const_cache", "0", 1, "every instruction and constant cache access hits"),
    I("gpgpu_inst_fetch_throughput", "1", 1, "instructions fetched/decoded per cycle"),
    I("gpgpu_reg_file_port_throughput", "1", 1, "operand collector steps per cycle"),
    SPEC_UNIT(1), SPEC_UNIT(2), SPEC_UNIT(3), SPEC_UNIT(4),
    SPEC_UNIT(5), SPEC_UNIT(6), SPEC_UNIT(7), SPEC_UNIT(8),
    /* Accel-Sim 2.0 (gpgpu-sim_distribution's Hopper release): the SIMPLE operand collector,
     * mbarrier try-wait retries and the two-chiplet H100; the model keeps GPGPU-Sim's detailed
     * collector and has no mbarriers or chiplets. */
    U("gpgpu_opndcoll_model", "0", 0, "operand collector model (0 = detailed, 1 = simple); the model is the detailed one"),
    U("gpgpu_trywait_max_retries", "5", 0, "mbarrier try-wait retries before giving up"),
    U("gpgpu_trywait_retry_cycles", "200", 0, "stall cycles between mbarrier try-wait retries"),
    I("gpgpu_n_chiplet_partition", "1", 0, "chiplet partitions of the GPU"),
    U("gpgpu_chiplet_interleave", "0", 0, "chiplet TPC mapping (0 = contiguous halves, 1 = even/odd TPC)"),
    I("chiplet_mem_stride", "8192", 0, "memory stride of the chiplet partitioning"),

    /* ---- memory system (gpu-sim.cc memory_config, addrdec.cc) ---- */
    B("gpgpu_perf_sim_memcpy", "1", 0, "fill the L2 cache on memcpy"),
    B("gpgpu_simple_dram_model", "0", 0, "simple DRAM model with fixed latency and bandwidth"),
    U("gpgpu_simple_dram_clock_multiplier", "1", 0, "clock multiplier of the simple DRAM model"),
    I("gpgpu_dram_scheduler", "1", 0, "0 = fifo, 1 = FR-FCFS"),
    S("gpgpu_dram_partition_queues", "8:8:8:8", 0, "i2$:$2d:d2$:$2i queue sizes"),
    B("l2_ideal", "0", 0, "ideal L2 cache that always hits"),
    S("gpgpu_cache:dl2", "S:32:128:24,L:B:m:L:P,A:192:4,32:0,32", 0, "L2 data cache config"),
    B("gpgpu_cache:dl2_texture_only", "1", 0, "L2 cache used for texture only"),
    U("gpgpu_n_mem", "8", 0, "memory controllers"),
    U("gpgpu_n_sub_partition_per_mchannel", "1", 0, "memory sub-partitions per channel"),
    U("chiplet_partition_stride", "8192", 0, "stride of the chiplet partition indexing"),
    U("inter_chiplet_queue_size", "128", 0, "entries of the inter-chiplet request and reply queues"),
    U("inter_chiplet_queue_latency", "100", 0, "cycles through the inter-chiplet queue"),
    U("gpgpu_n_mem_per_ctrlr", "1", 0, "memory chips per controller"),
    I("gpgpu_memlatency_stat", "0", 0, "memory latency statistics flags"),
    I("gpgpu_frfcfs_dram_sched_queue_size", "0", 0, "DRAM scheduler queue entries per chip (0 = unlimited)"),
    I("gpgpu_dram_return_queue_size", "0", 0, "DRAM return queue entries per chip (0 = unlimited)"),
    U("gpgpu_dram_buswidth", "4", 0, "DRAM bus width (bytes)"),
    U("gpgpu_dram_burst_length", "4", 0, "DRAM burst length (data bus cycles)"),
    U("dram_data_command_freq_ratio", "2", 0, "DRAM data bus / command bus frequency ratio"),
    S("gpgpu_dram_timing_opt", "4:2:8:12:21:13:34:9:4:5:13:1:0:0", 0, "DRAM timing parameters"),
    U("gpgpu_l2_rop_latency", "85", 0, "ROP queue latency"),
    U("dram_latency", "30", 0, "DRAM latency"),
    U("dram_dual_bus_interface", "0", 0, "DRAM dual bus interface"),
    U("dram_bnk_indexing_policy", "0", 0, "DRAM bank indexing policy"),
    U("dram_bnkgrp_indexing_policy", "0", 0, "DRAM bank group indexing policy"),
    B("dram_seperate_write_queue_enable", "0", 0, "separate DRAM write queue (GPGPU-Sim's spelling)"),
    S("dram_write_queue_size", "32:28:16", 0, "DRAM write queue size"),
    B("dram_elimnate_rw_turnaround", "0", 0, "set tWTR and tRTW to 0 (GPGPU-Sim's spelling)"),
    U("icnt_flit_size", "32", 0, "interconnect flit size"),
    B("SST_mode", "0", 0, "run as an SST component"),
    B("gpgpu_lrc_enabled", "0", 0, "L2 load request coalescer"),
    U("gpgpu_lrc_max_entries", "256", 0, "entries of the L2 load request coalescer queue"),
    U("gpgpu_lrc_max_merged", "32", 0, "requests merged into one coalescer entry"),
    S("gpgpu_mem_addr_mapping", "", 0, "memory address to DRAM mapping dramid@<bit>;<map>"),
    B("gpgpu_mem_addr_test", "0", 0, "sweep test of the address mapping"),
    I("gpgpu_mem_address_mask", "0", 0, "address mask variant"),
    U("gpgpu_memory_partition_indexing", "0", 0, "memory partition indexing (0 none, 1 xor, 2 IPoly, 3 custom)"),

    /* ---- power model (gpu-sim.cc power_config) ---- */
    S("accelwattch_xml_file", "accelwattch_sass_sim.xml", 0, "AccelWattch XML file"),
    B("power_simulation_enabled", "0", 0, "power simulation"),
    B("power_per_cycle_dump", "0", 0, "dump detailed power output each cycle"),
    I("power_simulation_mode", "0", 0, "power counters input (0 = sim, 1 = HW, 2 = hybrid)"),
    B("dvfs_enabled", "0", 0, "DVFS for the power model"),
    B("aggregate_power_stats", "0", 0, "accumulate power across all kernels"),
    B("power_trace_enabled", "0", 0, "write a power trace file"),
    I("power_trace_zlevel", "6", 0, "power trace compression level"),
    B("steady_power_levels_enabled", "0", 0, "write a steady power levels file"),
    S("steady_state_definition", "8:4", 0, "allowed deviation:number of samples"),

    /* ---- whole GPU (gpu-sim.cc gpgpu_sim_config) ---- */
    I64("gpgpu_max_cycle", "0", 1, "end the simulation after this many cycles (0 = no limit)"),
    I64("gpgpu_max_insn", "0", 1, "end the simulation after this many instructions (0 = no limit)"),
    I("gpgpu_max_cta", "0", 1, "end the simulation after this many CTAs (0 = no limit)"),
    I("gpgpu_max_completed_cta", "0", 0, "end the simulation after this many completed CTAs (0 = no limit)"),
    S("gpgpu_runtime_stat", "10000:0", 0, "runtime statistics <freq>:<flag>"),
    I64("liveness_message_freq", "1", 0, "minimum seconds between liveness messages"),
    U("gpgpu_compute_capability_major", "7", 0, "major compute capability"),
    U("gpgpu_compute_capability_minor", "0", 0, "minor compute capability"),
    B("gpgpu_flush_l1_cache", "0", 0, "flush L1 at the end of each kernel"),
    B("gpgpu_flush_l2_cache", "0", 0, "flush L2 at the end of each kernel"),
    B("gpgpu_deadlock_detect", "1", 0, "stop the simulation at a deadlock"),
    S("gpgpu_clock_domains", "500.0:2000.0:2000.0:2000.0", 1, "<core>:<icnt>:<L2>:<DRAM> clocks in MHz"),
    I("gpgpu_max_concurrent_kernel", "32", 0, "maximum concurrently running kernels"),
    I("gpgpu_cflog_interval", "0", 0, "control flow logger snapshot interval"),
    B("visualizer_enabled", "1", 0, "visualizer output"),
    S("visualizer_outputfile", "", 0, "visualizer output log file"),
    I("visualizer_zlevel", "6", 0, "visualizer log compression level"),
    I("gpgpu_stack_size_limit", "1024", 0, "GPU thread stack size"),
    I("gpgpu_heap_size_limit", "8388608", 0, "GPU malloc heap size"),
    I("gpgpu_runtime_sync_depth_limit", "2", 0, "device runtime synchronize depth"),
    I("gpgpu_runtime_pending_launch_count_limit", "2048", 0, "device runtime pending launch count"),
    B("trace_enabled", "0", 0, "GPGPU-Sim debug traces"),
    S("trace_components", "none", 0, "GPGPU-Sim debug trace components"),
    I("trace_sampling_core", "0", 0, "core printed by CORE_DPRINTF"),
    I("trace_sampling_memory_partition", "-1", 0, "memory partition printed by MEMPART_DPRINTF"),
    I("gpgpu_kernel_launch_latency", "0", 1, "kernel launch latency (cycles)"),
    B("gpgpu_cdp_enabled", "0", 0, "CUDA dynamic parallelism"),
    I("gpgpu_TB_launch_latency", "0", 1, "thread block launch latency (cycles)"),

    /* ---- interconnect (icnt_wrapper.cc) ---- */
    I("network_mode", "1", 0, "interconnect mode (1 = intersim, 2 = local xbar)"),
    S("inter_config_file", "mesh", 0, "interconnect config file"),
    U("icnt_in_buffer_limit", "64", 0, "local xbar input buffer limit"),
    U("icnt_out_buffer_limit", "64", 0, "local xbar output buffer limit"),
    U("icnt_subnets", "2", 0, "local xbar subnets"),
    U("icnt_arbiter_algo", "1", 0, "local xbar arbiter (0 = round robin, 1 = iSLIP)"),
    U("icnt_verbose", "0", 0, "local xbar verbose output"),
    U("icnt_grant_cycles", "1", 0, "local xbar grant cycles"),

    /* ---- Accel-Sim trace mode (trace_driven.cc trace_config) ---- */
    S("trace", "", 1, "kernelslist.g or .traceg to run (empty = synthetic workload; Accel-Sim: ./traces/kernelslist.g)"),
    S("trace_opcode_latency_initiation_int", "4,1", 1, "trace mode: <latency>,<initiation> of integer/ALU ops"),
    S("trace_opcode_latency_initiation_sp", "4,1", 1, "trace mode: <latency>,<initiation> of SP ops"),
    S("trace_opcode_latency_initiation_dp", "4,1", 1, "trace mode: <latency>,<initiation> of DP ops"),
    S("trace_opcode_latency_initiation_sfu", "4,1", 1, "trace mode: <latency>,<initiation> of SFU ops"),
    S("trace_opcode_latency_initiation_tensor", "4,1", 1, "trace mode: <latency>,<initiation> of tensor ops"),
    SPEC_LAT(1), SPEC_LAT(2), SPEC_LAT(3), SPEC_LAT(4),
    SPEC_LAT(5), SPEC_LAT(6), SPEC_LAT(7), SPEC_LAT(8),

    /* ---- smtlm's own ---- */
    SC("smtlm_mode", "gpgpusim", 1, NULL, "model: gpgpusim (Accel-Sim exact) or a muon variant"),
    SC("smtlm_core", "gpgpusim", 1, "gpgpusim|silicon",
       "core: gpgpusim (the Accel-Sim compositions, -smtlm_mode) or silicon (H100 timing from measured hardware, docs/SILICON.md)"),
    /* silicon core (docs/SILICON.md): the H100 figures */
    S("smtlm_sass", "", 1, "silicon core: a cuobjdump -sass listing holding every kernel's control bits (default: kernel-N.sass beside each kernel-N.traceg)"),
    S("smtlm_silicon_pipe_interval", "2,2,2,2,2,2,8,1,1,1", 1,
      "silicon core: cycles per warp instruction of a sub-core's pipe <FMA,FMA_HEAVY,ALU,FP16,MMA16,FP64,MUFU,LSU,TENSOR,OTHER> (FMA: each of its two halves)"),
    S("smtlm_silicon_pipe_latency", "4,4,4,6,8,8,17,0,0,0", 1,
      "silicon core: issue to result of each pipe <FMA,...,OTHER> as above; 0 = the trace latency (-trace_opcode_latency_initiation_*)"),
    U("smtlm_silicon_rf_banks", "2", 1, "silicon core: register banks per sub-core (register mod banks, 1..8)"),
    U("smtlm_silicon_rf_window", "3", 1, "silicon core: cycles after issue an instruction's register reads must fit in (1..16)"),
    U("smtlm_silicon_barrier_delay", "2", 1, "silicon core: cycles from a dependency barrier's set to when a waiting instruction sees it (0..15)"),
    U("smtlm_silicon_no_yield_gap", "2", 1, "silicon core: least cycles to the warp's next issue after an instruction whose yield bit is 0 (1..15)"),
    U("smtlm_silicon_lds_latency", "23", 1, "silicon core: cycles from a shared load's last wavefront to its result (1..511)"),
    U("smtlm_silicon_lds_warp_gap", "2", 1, "silicon core: least cycles between one warp's shared-memory wavefronts (1..16)"),
    U("smtlm_silicon_shmem_banks", "32", 1, "silicon core: shared-memory banks of 4-byte words (1..64)"),
    B("smtlm_silicon_other_arch", "0", 1, "silicon core: 1 times traces of other architectures than sm_90 too, as H100 silicon would run their instructions; 0 refuses them"),
    /* Muon machine (docs/MUON-MODELS.md); defaults are what the Muon RTL builds */
    SC("smtlm_muon_war", "option1", 1, "option1|option2|option2_fwd|option2_epoch",
       "Muon WAR hazards: option1 gates RS admission; option2* stall the writer's writeback (_fwd: forwarded readers do not count; _epoch: two pendingReads epochs)"),
    U("smtlm_muon_pending_read_bits", "3", 1, "Muon: bits of a scoreboard pendingReads counter (1..8)"),
    B("smtlm_muon_past_waw", "0", 1, "Muon: Fence bits let RS admission look past an IBUF head blocked by a WAW"),
    U("smtlm_muon_rs_entries", "8", 1, "Muon: reservation-station entries (1..64)"),
    U("smtlm_muon_rs_per_warp", "0", 1, "Muon: RS entries one warp may hold (0 = no limit)"),
    SC("smtlm_muon_rs_policy", "rr", 1, "rr|oldest|gto", "Muon: RS dispatch among eligible entries: rr (round robin over rows) | oldest | gto"),
    B("smtlm_muon_in_order", "0", 1, "Muon: each warp issues in program order (needs an RS entry per warp)"),
    B("smtlm_muon_forwarding", "0", 1, "Muon: results are forwarded from writeback to waiting operands (the RS holds operand data)"),
    U("smtlm_muon_phys_regs", "256", 1, "Muon: physical registers (a multiple of -smtlm_muon_prf_banks)"),
    U("smtlm_muon_threads", "16", 1, "Muon: threads (lanes) per warp, NT (1..64)"),
    U("smtlm_muon_xlen", "32", 1, "Muon: bits per lane, XLEN (32 or 64)"),
    SC("smtlm_muon_collector", "duplicated", 1, "duplicated|src_banked|inst_banked|min_banked|caching",
       "Muon operand collector: duplicated (a PRF copy per source slot) | src_banked | inst_banked | min_banked | caching"),
    U("smtlm_muon_prf_banks", "1", 1, "Muon: PRF banks, bank = reg mod banks (1..64)"),
    U("smtlm_muon_collector_entries", "2", 1, "Muon: collector entries, each holding one instruction's operands (1..64)"),
    U("smtlm_muon_collector_banks", "0", 1, "Muon: collector banks; src_banked/caching: by source slot (1..4, 0 = 3); inst_banked: by unit type (sp, int, sfu, mem, dp, tensor, spec), splitting the entries (1..8, 0 = 1)"),
    U("smtlm_analytic_banks", "0", 1, "print Muon's analytic bank-conflict model for this many banks with its measurement through the register-file arbiter, and exit (0 = off)"),
    U("smtlm_analytic_entries", "0", 1, "collector entries C for -smtlm_analytic_banks (0 = C from 1 to 4)"),
    B("smtlm_cost_report", "0", 1, "print the storage cost of the configured Muon machine and exit"),
    B("smtlm_fix_subcore_hol", "0", 1, "each sub-core allocates its own oldest ready instruction"),
    B("smtlm_fix_optype_priority", "0", 1, "oldest instruction across unit types gets a collector first"),
    B("smtlm_fix_wb_bank_conflict", "0", 1, "one register write per bank per cycle (buffered)"),
    SC("smtlm_oc_allocator", "fifo", 1, "fifo|wavefront", "register read arbitration: fifo | wavefront"),
    S("smtlm_stats_json", "", 1, "write all statistics as JSON to this path"),
    S("smtlm_report", "", 1, "write a self-contained HTML page of charts (IPC over time, bank-conflict heat map, stalls, collector occupancy, unit utilisation) to this path"),
    S("smtlm_stats_csv", "", 1, "write one CSV row per kernel (every per-kernel counter of the JSON) to this path"),
    S("smtlm_event_log", "", 1, "write one line per retired instruction with its pipeline event cycles to this path"),
    S("smtlm_pipeline_log", "", 1, "write every instruction's way through the pipeline as a Kanata log (the Konata viewer's format) to this path"),
    S("smtlm_vcd", "", 1, "write the pipeline's per-cycle signals (collectors, banks, units, result buses, issue) as a VCD (GTKWave) to this path"),
    S("smtlm_log_cycles", "", 1, "-smtlm_pipeline_log and -smtlm_vcd show only the cycles A:B (inclusive; A: or :B leave an end open)"),
    S("smtlm_log_sms", "", 1, "-smtlm_pipeline_log and -smtlm_vcd show only these SMs (e.g. 0,2-3; default all)"),
    S("smtlm_log_warps", "", 1, "-smtlm_pipeline_log and -smtlm_vcd show only these hardware warps of each SM (e.g. 0-3; default all)"),
    B("smtlm_list_options", "0", 1, "print every option with its value and exit"),
    B("smtlm_check_options", "0", 1, "check every option, config file, output path and the workload as a run would, without simulating: print nothing, exit 0 (or 2 with the usual file:line message)"),
    S("smtlm_engine", "", 1, "c (the C engine) or systemc (the SystemC/TLM model); identical results. Empty (smsim's default): c, or systemc when an option only the SystemC engine reads is set"),
    B("smtlm_mem_real_access", "0", 1, "SystemC engine: loads as real TLM reads (default: TLM_IGNORE_COMMAND); stores never write"),
    B("smtlm_tlm_dmi", "1", 1, "SystemC engine: a block hands instructions into the next block's pipeline register sets by TLM-2.0 direct access when the reader grants it (0: every hand-off is a b_transport call); identical results"),
    B("smtlm_mem_single_port", "0", 1, "SystemC engine: every SM's memory requests leave through the Gpu's one memory socket (0: one socket per SM); identical results"),
    B("smtlm_mem_waits", "0", 1, "SystemC engine: every memory access runs in a process of its own from the first, for a memory target that waits in b_transport (0: from the first access seen to wait); identical cycles"),
    S("smtlm_addr_map", "", 1, "SystemC engine: <trace_base>:<size>:<soc_base>[,...] moves trace address windows into the SoC's map"),
    I("smtlm_reader_thread", "-1", 1, "1: parse the trace on a second thread ahead of the engine; 0: on the engine's thread; -1 (default): 1 when more than one core is available. Same results either way"),
    I("smtlm_trace_stream_mib", "-1", 1, "stream thread blocks whose parsed records would take more than this many MiB (one cursor per warp, memory independent of the trace's length); -1 (default): more than max(4 MiB, warps x a cursor's memory), 24 MiB for an xz file in one block; 0: every thread block. Same results either way"),
    I("smtlm_threads", "-1", 1, "C engine: host threads that step the SMs of the GPU (1 to 64; -1: every core the process may use, 1 for the SystemC engine or without SM windows); results are identical for every value"),
    SC("smtlm_sm_windows", "auto", 1, "auto|1|0", "Once no CTA is left to issue, step each SM alone for up to 1,024 cycles at a time (its state stays in the host's cache; needed for -smtlm_threads above 1) rather than every SM each cycle; identical results where the memory's answers do not depend on the order of the accesses. auto: windows where the memory says so (the C engine's own model; in the SystemC engine a memory target that declares itself order-independent, as smsim's does), else every SM each cycle; 1: always (the SystemC engine's memory is vouched for); 0: never"),
    U64("smtlm_quantum_cycles", "0", 1, "SystemC engine: cycles run between synchronisations (0 = the TLM global quantum, else 10000)"),
    B("smtlm_quiet", "0", 1, "1: no progress line (shown on stderr only when it is a terminal and the run lasts over a second)"),
    B("smtlm_verbose", "0", 1, "name every not-modelled option set to a non-default value (default: only their count)"),
    B("smtlm_skip_idle", "1", 1, "jump over cycles in which every SM only waits for memory (counters stay exact)"),
    U("smtlm_watchdog_cycles", "100000", 1, "end the run after this many cycles with no issue and no retire"),
    U("smtlm_mem_latency", "240", 1, "latency of the SM-external memory model (core cycles; 240 fits Accel-Sim on the tested traces)"),
    U("smtlm_mem_bytes_per_cycle", "64", 1, "per-SM bandwidth of the SM-external memory model"),
    U("smtlm_synth_warps", "32", 1, "synthetic workload: warps"),
    U("smtlm_synth_insts", "2000", 1, "synthetic workload: instructions per warp"),
    S("smtlm_synth_mix", "sp=60,int=30,sfu=5,ldst=5", 1, "synthetic workload: instruction mix (percent)"),
    U("smtlm_synth_dep_distance", "4", 1, "synthetic workload: distance to the producing instruction"),
    U("smtlm_synth_regs", "32", 1, "synthetic workload: distinct registers"),
    U64("smtlm_synth_seed", "1", 1, "synthetic workload: random seed"),
    U("smtlm_synth_reg_skew", "2", 1, "synthetic workload: register skew (1 = uniform, larger = low registers hotter)"),
    U("smtlm_synth_ctas", "1", 1, "synthetic workload: thread blocks in the grid"),
};

const smtlm_option_def *smtlm_option_table(size_t *count)
{
    if (count)
        *count = sizeof k_options / sizeof k_options[0];
    return k_options;
}

const smtlm_option_def *smtlm_option_lookup(const char *name)
{
    size_t i, n = sizeof k_options / sizeof k_options[0];
    if (!name)
        return NULL;
    for (i = 0; i < n; i++)
        if (strcmp(k_options[i].name, name) == 0)
            return &k_options[i];
    return NULL;
}

const char *smtlm_opt_type_name(smtlm_opt_type type)
{
    switch (type) {
    case SMTLM_OPT_BOOL: return "bool";
    case SMTLM_OPT_INT32: return "int32";
    case SMTLM_OPT_UINT32: return "uint32";
    case SMTLM_OPT_INT64: return "int64";
    case SMTLM_OPT_UINT64: return "uint64";
    case SMTLM_OPT_DOUBLE: return "double";
    case SMTLM_OPT_STRING: return "string";
    }
    return "?";
}

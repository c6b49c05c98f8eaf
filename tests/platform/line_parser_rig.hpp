// One instruction line through the trace parser as the reader runs it (trace_inst_parse, then
// trace_inst_store into a one-warp thread block), with the general parser alone or with the
// fast path and, optionally, a memo of line tails. Shared by the parser tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "trace_internal.h"
}

namespace tpr {

struct Parsed {
    int rc;
    std::string err;
    trace_rec rec; // all zero unless rc == 0
    std::vector<uint64_t> pool;
};

// A parser for binary version 70, tracer version 4 (memory windows at fixed bases).
class LineParser {
public:
    LineParser()
    {
        std::memset(&hdr_, 0, sizeof hdr_);
        hdr_.binary_version = 70;
        hdr_.tracer_version = 4;
        hdr_.shmem_base = 0x7f0000000000ull;
        hdr_.local_base = 0x7f1000000000ull;
        map_ = smtlm_opcode_map_for_binary(70);
        trace_opindex_build(&ix_, map_);
        lat_ = smtlm_trace_latency_defaults();
        for (size_t j = 0; j < map_->n; j++)
            trace_opinfo_of(&map_->ops[j], &lat_, &info_[j]);
        trace_memo_reset(&memo);
    }

    // fast: the fast path (and `tails`, when given); else the general parser alone.
    Parsed parse(const std::string &line, int fast, trace_memo *tails = nullptr)
    {
        trace_ctx c = {};
        c.file = "t.traceg";
        c.hdr = &hdr_;
        c.map = map_;
        c.ops = &ix_;
        c.lat = &lat_;
        c.info = fast ? info_ : nullptr; // the table is part of the fast path too
        c.plain_fields = fast;
        smtlm_trace_tb *tb = smtlm_trace_tb_new();
        EXPECT_EQ(trace_tb_reset(tb, 1), 0);
        char err[256] = "";
        Parsed p;
        std::memset(&p.rec, 0, sizeof p.rec);
        trace_rec r;
        uint64_t addrs[SMTLM_WARP_SIZE];
        p.rc = trace_inst_parse(&c, tails, line.c_str(), line.size(), 7, &r, addrs, err, sizeof err);
        if (p.rc == 0)
            p.rc = trace_inst_store(&c, tb, 0, &r, addrs, 7, err, sizeof err);
        p.err = err;
        if (p.rc == 0) {
            EXPECT_EQ(tb->warps[0].n, 1u);
            p.rec = trace_ref_record(tb->shapes, &tb->warps[0].refs[0]);
            p.pool.assign(tb->pool, tb->pool + tb->pool_len);
        }
        smtlm_trace_tb_free(tb);
        return p;
    }

    trace_memo memo; // a memo the caller may pass to parse

private:
    smtlm_trace_header hdr_;
    const smtlm_opcode_map *map_ = nullptr;
    trace_opindex ix_;
    smtlm_trace_latency lat_;
    trace_opinfo info_[TRACE_OPINFO_MAX];
};

} // namespace tpr

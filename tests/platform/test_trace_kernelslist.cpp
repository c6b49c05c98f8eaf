// kernelslist.g: commands in order, paths relative to the list, errors with list file:line.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "smtlm/trace.h"
#include "test_trace_util.h"

using namespace trace_test;

namespace {

bool ends_with(const std::string &s, const std::string &suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

TEST(TraceKernelslist, RealListsInFileOrder)
{
    smtlm_kernelslist l;
    char err[512] = "";
    ASSERT_EQ(smtlm_kernelslist_load(data_path("vectoradd-100-32-trace/kernelslist.g").c_str(), &l, err,
                                     sizeof err),
              0)
        << err;
    ASSERT_EQ(l.n, 4u);
    const uint64_t addr[3] = {0x00007f2b2d500000ull, 0x00007f2b2d500200ull, 0x00007f2b2d500400ull};
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(l.cmds[i].kind, SMTLM_TRACE_CMD_MEMCPY_HTOD);
        EXPECT_EQ(l.cmds[i].addr, addr[i]);
        EXPECT_EQ(l.cmds[i].size, 400u);
        EXPECT_EQ(l.cmds[i].path, nullptr);
        EXPECT_EQ(l.cmds[i].line, (unsigned long)i + 1);
    }
    EXPECT_EQ(l.cmds[3].kind, SMTLM_TRACE_CMD_KERNEL);
    EXPECT_EQ(std::string(l.cmds[3].path), data_path("vectoradd-100-32-trace/kernel-1.traceg"));
    EXPECT_EQ(l.cmds[3].line, 4u);
    // The named trace opens and has Accel-Sim's count.
    smtlm_trace *t = nullptr;
    ASSERT_EQ(smtlm_trace_open(l.cmds[3].path, nullptr, &t, err, sizeof err), 0) << err;
    EXPECT_EQ(count_all(t).warp_insts, 344u);
    smtlm_trace_close(t);
    smtlm_kernelslist_free(&l);
    EXPECT_EQ(l.n, 0u);
    EXPECT_EQ(l.cmds, nullptr);

    ASSERT_EQ(smtlm_kernelslist_load(data_path("lud/kernelslist.g").c_str(), &l, err, sizeof err), 0) << err;
    ASSERT_EQ(l.n, 1u);
    EXPECT_TRUE(ends_with(l.cmds[0].path, "/lud/kernel-8.traceg"));
    smtlm_kernelslist_free(&l);

    ASSERT_EQ(smtlm_kernelslist_load(data_path("matrixmul-32-32-trace/kernelslist.g").c_str(), &l, err,
                                     sizeof err),
              0)
        << err;
    ASSERT_EQ(l.n, 3u);
    EXPECT_EQ(l.cmds[1].size, 4096u);
    EXPECT_EQ(l.cmds[2].kind, SMTLM_TRACE_CMD_KERNEL);
    smtlm_kernelslist_free(&l);
}

TEST(TraceKernelslist, SingleTraceIsAOneKernelList)
{
    smtlm_kernelslist l;
    char err[512] = "";
    std::string path = data_path("lud/kernel-8.traceg");
    ASSERT_EQ(smtlm_kernelslist_load(path.c_str(), &l, err, sizeof err), 0) << err;
    ASSERT_EQ(l.n, 1u);
    EXPECT_EQ(l.cmds[0].kind, SMTLM_TRACE_CMD_KERNEL);
    EXPECT_EQ(std::string(l.cmds[0].path), path);
    EXPECT_EQ(l.cmds[0].line, 0u);
    smtlm_kernelslist_free(&l);

    std::string missing = testing::TempDir() + "smtlm_none/kernel-3.traceg.xz";
    EXPECT_EQ(smtlm_kernelslist_load(missing.c_str(), &l, err, sizeof err), SMTLM_TRACE_ERR_IO);
    EXPECT_EQ(std::string(err), missing + ": cannot open: No such file or directory");
    EXPECT_EQ(l.n, 0u);
}

TEST(TraceKernelslist, IgnoredAndEmptyLinesAndXzNames)
{
    std::string tmpl = testing::TempDir() + "smtlm_klXXXXXX";
    ASSERT_NE(mkdtemp(&tmpl[0]), nullptr);
    std::string dir = tmpl + "/";
    {
        std::ofstream(dir + "kernel-2.traceg.xz") << "not read here";
        std::ofstream(dir + "kernelslist.g")
            << "\nMemcpyHtoD,0x10,64\r\n\nMemcpyDtoH,0x10,64\nsomething else\n  kernel-2.traceg.xz  \n";
    }
    smtlm_kernelslist l;
    char err[512] = "";
    ASSERT_EQ(smtlm_kernelslist_load((dir + "kernelslist.g").c_str(), &l, err, sizeof err), 0) << err;
    ASSERT_EQ(l.n, 2u);
    EXPECT_EQ(l.cmds[0].kind, SMTLM_TRACE_CMD_MEMCPY_HTOD);
    EXPECT_EQ(l.cmds[0].addr, 0x10u);
    EXPECT_EQ(l.cmds[0].size, 64u);
    EXPECT_EQ(l.cmds[0].line, 2u);
    EXPECT_EQ(l.cmds[1].kind, SMTLM_TRACE_CMD_KERNEL);
    EXPECT_EQ(std::string(l.cmds[1].path), dir + "kernel-2.traceg.xz");
    EXPECT_EQ(l.cmds[1].line, 6u);
    smtlm_kernelslist_free(&l);
    std::remove((dir + "kernel-2.traceg.xz").c_str());
    std::remove((dir + "kernelslist.g").c_str());
    rmdir(tmpl.c_str());
}

TEST(TraceKernelslist, MissingTraceNamedByTheList)
{
    TempFile list("kernelslist.g", "MemcpyHtoD,0x7f0000000000,400\n\nkernel-9.traceg\n");
    smtlm_kernelslist l;
    char err[512] = "";
    EXPECT_EQ(smtlm_kernelslist_load(list.path.c_str(), &l, err, sizeof err), SMTLM_TRACE_ERR_IO);
    std::string dir = list.path.substr(0, list.path.rfind('/') + 1);
    EXPECT_EQ(std::string(err),
              list.path + ":3: cannot open " + dir + "kernel-9.traceg: No such file or directory");
    EXPECT_EQ(l.n, 0u);
    EXPECT_EQ(l.cmds, nullptr);
}

TEST(TraceKernelslist, MalformedMemcpyAndMissingList)
{
    for (const char *bad : {"MemcpyHtoD,0x10", "MemcpyHtoD,zz,4", "MemcpyHtoD,0x10,4,5", "MemcpyHtoD,0x10,-4"}) {
        TempFile list("kernelslist.g", std::string("\n") + bad + "\n");
        smtlm_kernelslist l;
        char err[512] = "";
        EXPECT_EQ(smtlm_kernelslist_load(list.path.c_str(), &l, err, sizeof err), SMTLM_TRACE_ERR_FORMAT) << bad;
        EXPECT_EQ(std::string(err), list.path + ":2: malformed line: expected MemcpyHtoD,0x<address>,<bytes>");
    }
    std::string none = testing::TempDir() + "smtlm_none/kernelslist.g";
    smtlm_kernelslist l;
    char err[512] = "";
    EXPECT_EQ(smtlm_kernelslist_load(none.c_str(), &l, err, sizeof err), SMTLM_TRACE_ERR_IO);
    EXPECT_EQ(std::string(err), none + ": cannot open: No such file or directory");
}

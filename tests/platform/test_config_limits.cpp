// The config reader's limits: a file holds at most SMTLM_OPT_MAX_FILE_BYTES (1 MiB) and no NUL
// byte, one options object reads at most SMTLM_OPT_MAX_CONFIG_FILES (1024) files, and what is
// not a regular file (/dev/zero, a pipe, a FIFO) is read under the same limits and never waited
// for: each ends at once with one message naming the file, never with memory exhausted or a
// reader blocked.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern "C" {
#include "smtlm/options.h"
#include "pipe_writer.hpp"
}

namespace {

constexpr size_t kMiB = 1u << 20; // the documented cap

std::string scratch(const std::string &name)
{
    const std::string dir = ::testing::TempDir() + "smtlm_cfg_limits_" + name + "_" + std::to_string((long)getpid());
    mkdir(dir.c_str(), 0755);
    return dir;
}

void write(const std::string &path, const std::string &text)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
}

struct Reader {
    smtlm_options *o = smtlm_options_new();
    char err[1024] = "";
    Reader() = default;
    Reader(const Reader &) = delete;
    Reader &operator=(const Reader &) = delete;
    ~Reader() { smtlm_options_free(o); }
    int file(const std::string &path)
    {
        err[0] = '\0';
        return smtlm_options_parse_file(o, path.c_str(), err, sizeof err);
    }
    unsigned clusters() const
    {
        uint32_t v = 0;
        EXPECT_EQ(smtlm_options_get_u32(o, "gpgpu_n_clusters", &v), SMTLM_OPT_OK);
        return v;
    }
};

// A config of exactly `size` bytes that sets -gpgpu_n_clusters 7 and is otherwise one comment.
std::string config_of_size(size_t size)
{
    std::string text = "-gpgpu_n_clusters 7\n#";
    text += std::string(size - text.size() - 1, 'x');
    return text + "\n";
}


} // namespace

TEST(ConfigLimits, AFileIsReadUpToOneMebibyte)
{
    const std::string dir = scratch("size");
    Reader at_cap;
    write(dir + "/at_cap.config", config_of_size(kMiB));
    EXPECT_EQ(at_cap.file(dir + "/at_cap.config"), SMTLM_OPT_OK) << at_cap.err;
    EXPECT_EQ(at_cap.clusters(), 7u);

    Reader over;
    const std::string big = dir + "/over_cap.config";
    write(big, config_of_size(kMiB + 1));
    EXPECT_EQ(over.file(big), SMTLM_OPT_E_LIMIT);
    EXPECT_EQ(std::string(over.err), big + ": larger than 1048576 bytes, the limit for a config file");

    Reader included; // named with the -config that asked for it
    write(dir + "/top.config", "# machine\n-config " + big + "\n");
    EXPECT_EQ(included.file(dir + "/top.config"), SMTLM_OPT_E_LIMIT);
    EXPECT_EQ(std::string(included.err),
              big + ": larger than 1048576 bytes, the limit for a config file (-config at " + dir + "/top.config:2)");
}

TEST(ConfigLimits, DevZeroIsANulByteOnItsFirstLine)
{
    Reader r;
    EXPECT_EQ(r.file("/dev/zero"), SMTLM_OPT_E_SYNTAX);
    EXPECT_EQ(std::string(r.err), "/dev/zero:1: NUL byte in config text");
}

TEST(ConfigLimits, APipeIsReadLikeAFileUpToTheCap)
{
    {
        PipeWriter small(64, "-gpgpu_n_clusters 3\n");
        Reader r;
        EXPECT_EQ(r.file(small.path()), SMTLM_OPT_OK) << r.err;
        EXPECT_EQ(r.clusters(), 3u);
    }
    PipeWriter endless(4 * kMiB); // more than the cap, with no NUL byte to stop at
    Reader r;
    EXPECT_EQ(r.file(endless.path()), SMTLM_OPT_E_LIMIT);
    EXPECT_EQ(std::string(r.err), endless.path() + ": larger than 1048576 bytes, the limit for a config file");
}

// A FIFO that no one writes to is an error at once, without waiting for a writer. (A writer
// comes only if the reader has not returned within a minute, so that a reader that waits for
// one still returns; the test then fails, whatever the reader says.)
TEST(ConfigLimits, AFifoWithoutWriterIsNotWaitedFor)
{
    const std::string fifo = scratch("fifo") + "/config.fifo";
    unlink(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::promise<void> returned;
    std::future<void> reader_done = returned.get_future();
    bool writer_came = false;
    std::thread late_writer([&] {
        if (reader_done.wait_for(std::chrono::minutes(1)) == std::future_status::ready)
            return;
        writer_came = true;
        const int fd = open(fifo.c_str(), O_WRONLY | O_NONBLOCK); // fails without a reader
        if (fd >= 0)
            close(fd);
    });
    Reader r;
    EXPECT_EQ(r.file(fifo), SMTLM_OPT_E_OPEN);
    returned.set_value();
    late_writer.join();
    EXPECT_FALSE(writer_came) << "the reader waited for a writer";
    EXPECT_EQ(std::string(r.err), fifo + ": a FIFO or pipe that nothing was written to (no writer?)");
    unlink(fifo.c_str());
}

TEST(ConfigLimits, AtMost1024ConfigFilesPerRun)
{
    const std::string dir = scratch("count");
    const std::string leaf = dir + "/leaf.config";
    write(leaf, "-gpgpu_n_clusters 5\n");
    std::string includes;
    for (int i = 0; i < 1023; i++)
        includes += "-config " + leaf + "\n";
    write(dir + "/1024.config", includes); // itself and 1023 leaves
    write(dir + "/1025.config", includes + "-config " + leaf + "\n");
    Reader ok;
    EXPECT_EQ(ok.file(dir + "/1024.config"), SMTLM_OPT_OK) << ok.err;
    EXPECT_EQ(ok.clusters(), 5u);
    Reader over;
    EXPECT_EQ(over.file(dir + "/1025.config"), SMTLM_OPT_E_LIMIT);
    EXPECT_EQ(std::string(over.err), dir + "/1025.config:1024: -config " + leaf +
                                         ": more than 1024 config files in one run (an include loop, or includes that "
                                         "multiply?)");
}

// Each level includes the next one twice: 13 levels would be 8191 files.
TEST(ConfigLimits, IncludesThatMultiplyStopAtTheCap)
{
    const std::string dir = scratch("tree");
    const int levels = 13;
    for (int i = 0; i + 1 < levels; i++) {
        const std::string next = dir + "/level" + std::to_string(i + 1) + ".config";
        write(dir + "/level" + std::to_string(i) + ".config", "-config " + next + "\n-config " + next + "\n");
    }
    write(dir + "/level" + std::to_string(levels - 1) + ".config", "-gpgpu_n_clusters 2\n");
    Reader r;
    EXPECT_EQ(r.file(dir + "/level0.config"), SMTLM_OPT_E_LIMIT);
    EXPECT_NE(std::string(r.err).find(": more than 1024 config files in one run"), std::string::npos) << r.err;
    EXPECT_EQ(std::string(r.err).rfind(dir + "/level", 0), 0u) << r.err; // at the -config that passed the cap
}

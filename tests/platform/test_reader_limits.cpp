// Every input reader has a documented size limit and says so at once, as the config reader does
// (test_config_limits.cpp): "<path>: larger than N bytes, the limit for a <what>". None waits
// for a FIFO's writer ("a FIFO or pipe that nothing was written to (no writer?)"), none grows
// without bound on /dev/zero or a pipe that never ends, and a file one byte over is refused
// before it is read. The readers: JSON stats files and goldens (json_flat), SASS listings,
// kernel lists, trace headers.
#include <gtest/gtest.h>

#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

extern "C" {
#include "smtlm/json_flat.h"
#include "smtlm/sass_listing.h"
#include "smtlm/trace.h"
}

#include "pipe_writer.hpp"
#include "test_trace_util.h"

namespace {

std::string scratch(const std::string &name)
{
    const std::string dir = ::testing::TempDir() + "smtlm_reader_limits_" + name + "_" + std::to_string((long)getpid());
    mkdir(dir.c_str(), 0755);
    return dir;
}

void write(const std::string &path, const std::string &text) { std::ofstream(path, std::ios::binary) << text; }

// A file of `size` bytes that holds nothing (sparse): the size check must refuse it unread.
std::string sparse(const std::string &path, uint64_t size)
{
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(ftruncate(fd, (off_t)size), 0);
    close(fd);
    return path;
}

// A FIFO that nothing writes to.
struct Fifo {
    std::string path;
    explicit Fifo(const std::string &name) : path(scratch("fifo") + "/" + name)
    {
        unlink(path.c_str());
        EXPECT_EQ(mkfifo(path.c_str(), 0600), 0);
    }
    ~Fifo() { unlink(path.c_str()); }
};

std::string json_error(const std::string &path)
{
    smtlm_json_flat f;
    char msg[512] = "";
    EXPECT_NE(smtlm_json_flatten_file(path.c_str(), &f, msg, sizeof msg), 0) << path;
    return msg;
}

std::string listing_error(const std::string &path)
{
    smtlm_sass_listing l{};
    char err[512] = "";
    EXPECT_LT(smtlm_sass_listing_read(path.c_str(), &l, err, sizeof err), 0) << path;
    smtlm_sass_listing_free(&l);
    return err;
}

std::string list_error(const std::string &path)
{
    smtlm_kernelslist l{};
    char err[512] = "";
    EXPECT_LT(smtlm_kernelslist_load(path.c_str(), &l, err, sizeof err), 0) << path;
    smtlm_kernelslist_free(&l);
    return err;
}

std::string trace_error(const std::string &path)
{
    smtlm_trace *t = nullptr;
    char err[512] = "";
    EXPECT_LT(smtlm_trace_open(path.c_str(), nullptr, &t, err, sizeof err), 0) << path;
    if (t)
        smtlm_trace_close(t);
    return err;
}

const char kNoWriter[] = ": a FIFO or pipe that nothing was written to (no writer?)";

} // namespace

TEST(ReaderLimits, AJsonFileHoldsAtMost256MiB)
{
    EXPECT_EQ(SMTLM_JSON_MAX_BYTES, (size_t)256 << 20);
    const std::string dir = scratch("json");
    const std::string over = sparse(dir + "/over.json", SMTLM_JSON_MAX_BYTES + 1);
    EXPECT_EQ(json_error(over), over + ": larger than 268435456 bytes, the limit for a JSON file");
    // at the limit it is read (and its first byte, NUL, is what is wrong with it)
    const std::string at = sparse(dir + "/at.json", SMTLM_JSON_MAX_BYTES);
    EXPECT_EQ(json_error(at), at + ":1: NUL byte (not JSON text)");
    EXPECT_EQ(json_error("/dev/zero"), "/dev/zero:1: NUL byte (not JSON text)");
    PipeWriter endless(PipeWriter::endless, "", "{\"a\":1}\n");
    EXPECT_EQ(json_error(endless.path()), endless.path() + ": larger than 268435456 bytes, the limit for a JSON file");
    Fifo fifo("stats.json");
    EXPECT_EQ(json_error(fifo.path), fifo.path + kNoWriter);
}

TEST(ReaderLimits, ASassListingHoldsAtMost512MiB)
{
    EXPECT_EQ(SMTLM_SASS_MAX_BYTES, (uint64_t)512 << 20);
    const std::string dir = scratch("sass");
    const std::string over = sparse(dir + "/over.sass", SMTLM_SASS_MAX_BYTES + 1);
    EXPECT_EQ(listing_error(over), over + ": larger than 536870912 bytes, the limit for a SASS listing");
    const std::string at = sparse(dir + "/at.sass", SMTLM_SASS_MAX_BYTES);
    EXPECT_EQ(listing_error(at), at + ":1: line longer than 1048576 bytes");
    EXPECT_EQ(listing_error("/dev/zero"), "/dev/zero:1: line longer than 1048576 bytes");
    PipeWriter endless(PipeWriter::endless, "", std::string(4000, '.') + "\n"); // lines a listing skips, without end
    EXPECT_EQ(listing_error(endless.path()), endless.path() + ": larger than 536870912 bytes, the limit for a SASS listing");
    Fifo fifo("kernel-1.sass");
    EXPECT_EQ(listing_error(fifo.path), fifo.path + kNoWriter);
}

TEST(ReaderLimits, AKernelListHoldsAtMost16MiBDecoded)
{
    EXPECT_EQ(SMTLM_KERNELSLIST_MAX_BYTES, (uint64_t)16 << 20);
    const std::string dir = scratch("list");
    const std::string over = sparse(dir + "/over.g", SMTLM_KERNELSLIST_MAX_BYTES + 1);
    EXPECT_EQ(list_error(over), over + ": larger than 16777216 bytes, the limit for a kernel list");
    PipeWriter endless(PipeWriter::endless, "", "MemcpyHtoD,0x00007f0000000000,4096\n");
    EXPECT_EQ(list_error(endless.path()), endless.path() + ": larger than 16777216 bytes, the limit for a kernel list");
    // xz: the decoded bytes count (a small file that unpacks past the limit)
    std::string text;
    while (text.size() <= SMTLM_KERNELSLIST_MAX_BYTES)
        text += "MemcpyDtoH,0x00007f0000000000,4096\n";
    write(dir + "/big.g", trace_test::xz_compress(text, 1));
    EXPECT_EQ(list_error(dir + "/big.g"), dir + "/big.g: larger than 16777216 bytes decoded, the limit for a kernel list");
    Fifo fifo("kernelslist.g");
    EXPECT_EQ(list_error(fifo.path), fifo.path + kNoWriter);
}

TEST(ReaderLimits, ATraceHeaderHoldsAtMost1MiB)
{
    PipeWriter endless(PipeWriter::endless, "-kernel name = k\n", "junk that is no header line\n");
    const std::string e = trace_error(endless.path());
    EXPECT_EQ(e.rfind(endless.path() + ":", 0), 0u) << e;
    EXPECT_NE(e.find(": the header runs past 1048576 bytes, the limit for a trace header"), std::string::npos) << e;
    EXPECT_EQ(trace_error("/dev/zero"), "/dev/zero:1: line longer than 1048576 bytes");
    Fifo fifo("kernel-1.traceg");
    EXPECT_EQ(trace_error(fifo.path), fifo.path + kNoWriter);
}

// A compressed file of another format is named for what it is, not read as text with a NUL byte
// on line 1; so is a file named .xz that is no xz file.
TEST(ReaderLimits, OtherCompressionFormatsAreNamed)
{
    const std::string dir = scratch("formats");
    // an LZMA-alone stream (xz --format=lzma), named .xz
    std::string text = "\t\tFunction : k\n";
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_options_lzma opt;
    ASSERT_FALSE(lzma_lzma_preset(&opt, 6));
    ASSERT_EQ(lzma_alone_encoder(&s, &opt), LZMA_OK);
    std::vector<uint8_t> out(4096);
    s.next_in = reinterpret_cast<const uint8_t *>(text.data());
    s.avail_in = text.size();
    s.next_out = out.data();
    s.avail_out = out.size();
    ASSERT_EQ(lzma_code(&s, LZMA_FINISH), LZMA_STREAM_END);
    out.resize(out.size() - s.avail_out);
    lzma_end(&s);
    write(dir + "/k.sass.xz", std::string(out.begin(), out.end()));
    EXPECT_EQ(listing_error(dir + "/k.sass.xz"),
              dir + "/k.sass.xz: an LZMA-alone (.lzma) file, not an xz file: smtlm reads plain text and xz (decompress it, "
                    "or recompress it with xz)");
    write(dir + "/k.traceg.gz", std::string("\x1f\x8b\x08\x00", 4));
    EXPECT_EQ(trace_error(dir + "/k.traceg.gz"),
              dir + "/k.traceg.gz: a gzip file: smtlm reads plain text and xz (decompress it, or recompress it with xz)");
    write(dir + "/plain.xz", "-kernel name = k\n");
    EXPECT_EQ(listing_error(dir + "/plain.xz"),
              dir + "/plain.xz: named .xz but not an xz file (it does not start with the xz magic bytes FD 37 7A 58 5A 00)");
}

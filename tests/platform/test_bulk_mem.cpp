// Bulk memory (smtlm/bulk_mem.h): zeroed buffers, kept across realloc within a size class, and
// a freed buffer handed out again for its class, so a run that reads block after block touches
// the same pages again rather than new ones (its page faults do not grow with the blocks).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <sys/resource.h>

extern "C" {
#include "smtlm/bulk_mem.h"
}

namespace {

long minor_faults()
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

bool all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

} // namespace

TEST(BulkMem, BuffersAreZeroedAndAFreedOneIsHandedOutAgainZeroed)
{
    const size_t n = 300 * 1024; // class 512 KiB
    auto *a = static_cast<unsigned char *>(smtlm_bulk_alloc(n));
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(all_zero(a, n));
    memset(a, 0xab, n);
    smtlm_bulk_free(a, n);
    auto *b = static_cast<unsigned char *>(smtlm_bulk_alloc(400 * 1024)); // same class
    EXPECT_EQ(b, a);
    EXPECT_TRUE(all_zero(b, 400 * 1024));
    smtlm_bulk_free(b, 400 * 1024);
}

TEST(BulkMem, ReallocKeepsTheContentsWithinAndAcrossClasses)
{
    auto *p = static_cast<unsigned char *>(smtlm_bulk_realloc(nullptr, 0, 5000));
    ASSERT_NE(p, nullptr);
    for (size_t i = 0; i < 5000; i++)
        p[i] = (unsigned char)i;
    auto *q = static_cast<unsigned char *>(smtlm_bulk_realloc(p, 5000, 8000)); // both in 8 KiB
    EXPECT_EQ(q, p);
    auto *r = static_cast<unsigned char *>(smtlm_bulk_realloc(q, 8000, 3u << 20)); // 4 MiB class
    ASSERT_NE(r, nullptr);
    for (size_t i = 0; i < 5000; i++)
        ASSERT_EQ(r[i], (unsigned char)i) << i;
    auto *big = static_cast<unsigned char *>(smtlm_bulk_realloc(r, 3u << 20, 40u << 20)); // mapped alone
    ASSERT_NE(big, nullptr);
    EXPECT_EQ((uintptr_t)big % (2u << 20), 0u); // on a huge page's boundary
    for (size_t i = 0; i < 5000; i++)
        ASSERT_EQ(big[i], (unsigned char)i) << i;
    EXPECT_TRUE(all_zero(big + (8u << 20), 1 << 20)); // a fresh mapping: untouched pages read zero
    smtlm_bulk_free(big, 40u << 20);
}

// The pages of a freed buffer serve the next: 64 blocks of 1 MiB, each written whole and freed,
// fault no more than the first (one 4 KiB page at most per fault: 256 faults for 1 MiB).
TEST(BulkMem, BlockAfterBlockTouchesNoNewPages)
{
    const size_t n = 1u << 20;
    void *first = smtlm_bulk_alloc(n);
    ASSERT_NE(first, nullptr);
    memset(first, 1, n);
    smtlm_bulk_free(first, n);
    const long before = minor_faults();
    for (int i = 0; i < 64; i++) {
        void *p = smtlm_bulk_alloc(n);
        ASSERT_EQ(p, first);
        memset(p, 1, n);
        smtlm_bulk_free(p, n);
    }
    EXPECT_LT(minor_faults() - before, 16) << "64 MiB written through one reused 1 MiB buffer";
}

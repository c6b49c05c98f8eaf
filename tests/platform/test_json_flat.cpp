// The JSON reader behind smsim -smtlm_compare: leaves named by their paths, errors by line.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

extern "C" {
#include "smtlm/json_flat.h"
}

namespace {

struct Flat {
    smtlm_json_flat f{};
    int rc;
    char msg[256] = "";
    explicit Flat(const std::string &text) { rc = smtlm_json_flatten(text.data(), text.size(), &f, msg, sizeof msg); }
    ~Flat() { smtlm_json_flat_free(&f); }
    std::string leaf(size_t i) const { return std::string(f.leaf[i].path) + "=" + f.leaf[i].text; }
};

} // namespace

TEST(JsonFlat, LeavesAreNamedByTheirPaths)
{
    Flat j(R"({"kernels":[{"gpu_sim_cycle":29631,"warp_stall":{"issued":12}},{"name":"b\"x"}],
              "ipc":1.5e2, "ok":true, "none":null, "empty":[], "nested":[[7]]})");
    ASSERT_EQ(j.rc, 0) << j.msg;
    ASSERT_EQ(j.f.n, 7u);
    EXPECT_EQ(j.leaf(0), "kernels[0].gpu_sim_cycle=29631");
    EXPECT_TRUE(j.f.leaf[0].is_number);
    EXPECT_EQ(j.f.leaf[0].number, 29631.0);
    EXPECT_EQ(j.leaf(1), "kernels[0].warp_stall.issued=12");
    EXPECT_EQ(j.leaf(2), "kernels[1].name=b\\\"x"); // escapes kept as written
    EXPECT_FALSE(j.f.leaf[2].is_number);
    EXPECT_EQ(j.leaf(3), "ipc=1.5e2");
    EXPECT_EQ(j.f.leaf[3].number, 150.0);
    EXPECT_EQ(j.leaf(4), "ok=true");
    EXPECT_EQ(j.leaf(5), "none=null");
    EXPECT_EQ(j.leaf(6), "nested[0][0]=7");
}

TEST(JsonFlat, ErrorsNameTheLine)
{
    const struct {
        const char *text, *msg;
    } bad[] = {
        {"{\"a\":1,\n\"b\":}", "line 2: expected a value"},
        {"{\"a\" 1}", "line 1: expected ':' after a member name"},
        {"[1,2\n\n", "line 3: expected ',' or ']' in an array"},
        {"{\"a\":1 \"b\":2}", "line 1: expected ',' or '}' in an object"},
        {"{\"a\":\"x", "line 1: unterminated string"},
        {"{\"a\":1}\n{}", "line 2: text after the document"},
        {"", "line 1: unexpected end of the document"},
        {"{\"a\":1e999}", "line 1: expected a value"},
    };
    for (const auto &b : bad) {
        Flat j(b.text);
        EXPECT_EQ(j.rc, -1) << b.text;
        EXPECT_STREQ(j.msg, b.msg) << b.text;
        EXPECT_EQ(j.f.n, 0u);
    }
    std::string deep(100, '[');
    Flat j(deep);
    EXPECT_STREQ(j.msg, "line 1: nested too deeply");
}

TEST(JsonFlat, AFileErrorIsFileColonLine)
{
    const std::string path = ::testing::TempDir() + "json_flat_bad.json";
    FILE *f = std::fopen(path.c_str(), "w");
    ASSERT_TRUE(f);
    std::fputs("{\"a\": 1,\n \"b\": [1,\n x]}\n", f);
    std::fclose(f);
    smtlm_json_flat flat;
    char msg[512];
    EXPECT_EQ(smtlm_json_flatten_file(path.c_str(), &flat, msg, sizeof msg), -1);
    EXPECT_EQ(std::string(msg), path + ":3: expected a value");
    EXPECT_EQ(smtlm_json_flatten_file("/nonexistent/x.json", &flat, msg, sizeof msg), -1);
    EXPECT_NE(std::strstr(msg, "/nonexistent/x.json: cannot open"), nullptr);
}

// Accel-Sim 2.0 input: a .tracez runs exactly as the text trace it was written from (every
// sub-chunk size, with and without a dictionary, every way of reading); each kind of damage to
// one is its own message and exit status 2 with nothing run; kernel lists mix the three forms;
// cluster lines are read and change nothing in the run; a block the tracer omitted runs as an
// empty block with one note, as Accel-Sim runs it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "trace_files.hpp"
#include "tracez_writer.hpp"

using namespace e2e;

namespace {

std::string read_text(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// stdout without the wall-clock lines; the file names of a .tracez run as those of the text run.
std::string same_form(std::string s)
{
    static const std::regex wall("(^|\\n)(gpgpu_simulation_time|gpgpu_simulation_rate|gpgpu_silicon_slowdown|"
                                 "smtlm_simulation_time|smtlm_sim_rate)[^\\n]*");
    static const std::regex secs("\"wall_seconds\":[0-9.e+-]+");
    s = std::regex_replace(std::regex_replace(s, wall, "$1"), secs, "");
    s = std::regex_replace(s, std::regex("\\.tracez"), ".traceg");
    return std::regex_replace(s, std::regex("kernelslist-z\\.g"), "kernelslist-t.g");
}

// One kernel's text trace and its .tracez side by side in one directory, with a list for each.
struct Pair {
    std::string text_list, z_list, z_file;
};
Pair write_pair(const std::string &name, const std::string &text, const std::string &z)
{
    const std::string dir = scratch("tracez_" + name);
    write_file(dir + "/kernel-1.traceg", text);
    write_file(dir + "/kernel-1.tracez", z);
    write_file(dir + "/kernelslist-t.g", "kernel-1.traceg\n");
    write_file(dir + "/kernelslist-z.g", "kernel-1.tracez\n");
    return {dir + "/kernelslist-t.g", dir + "/kernelslist-z.g", dir + "/kernel-1.tracez"};
}

struct Outputs {
    e2e::Result r;
    std::string json, events;
};
Outputs run(const std::string &list, const std::vector<std::string> &extra)
{
    const std::string base = list + ".out";
    std::vector<std::string> a = {"-trace", list, "-smtlm_stats_json", base + ".json", "-smtlm_event_log", base + ".ev"};
    a.insert(a.end(), extra.begin(), extra.end());
    Outputs o;
    o.r = e2e::smsim(a);
    o.json = read_text(base + ".json");
    o.events = read_text(base + ".ev");
    return o;
}

// The real traces as .tracez: sub-chunks of 1, 7 and 4,096 instructions, a dictionary, frames
// whose last line has no '\n'; read with and without the reader thread, held whole and
// streamed: the statistics, JSON and event log of the text trace.
TEST(TracezInput, RunsExactlyAsTheTextTrace)
{
    struct Case {
        const char *trace, *file;
    };
    for (const Case &c : {Case{"lud", "kernel-8.traceg"}, Case{"vectoradd-100-32-trace", "kernel-1.traceg"}}) {
        const std::string text = read_text(data(std::string("traces/") + c.trace + "/" + c.file));
        ASSERT_FALSE(text.empty());
        std::vector<tracez::Options> forms;
        for (unsigned sc : {1u, 7u, 4096u}) {
            tracez::Options o;
            o.subchunk = sc;
            forms.push_back(o);
        }
        tracez::Options d;
        d.subchunk = 7;
        d.dict = true;
        d.last_newline = false;
        forms.push_back(d);
        for (const tracez::Options &o : forms) {
            const std::string tag = std::string(c.trace) + "_" + std::to_string(o.subchunk) + (o.dict ? "_dict" : "");
            SCOPED_TRACE(tag);
            const Pair p = write_pair(tag, text, tracez::write(text, o));
            const Outputs t = run(p.text_list, {});
            ASSERT_EQ(t.r.status, 0) << t.r.err;
            EXPECT_GT(std::count(t.events.begin(), t.events.end(), '\n'), 100);
            for (const char *reader : {"0", "1"})
                for (const char *mib : {"-1", "0"}) {
                    SCOPED_TRACE(std::string("-smtlm_reader_thread ") + reader + " -smtlm_trace_stream_mib " + mib);
                    const Outputs z = run(p.z_list, {"-smtlm_reader_thread", reader, "-smtlm_trace_stream_mib", mib});
                    EXPECT_EQ(z.r.status, 0) << z.r.err;
                    EXPECT_EQ(z.r.err, t.r.err);
                    EXPECT_EQ(same_form(z.r.out), same_form(t.r.out));
                    EXPECT_EQ(same_form(z.json), same_form(t.json));
                    EXPECT_TRUE(z.events == t.events) << "the event logs differ";
                }
        }
    }
}

// A kernel list may name .traceg, .traceg.xz and .tracez files in any mix: the three kernels
// run as the same trace thrice.
TEST(TracezInput, KernelListMixesTheThreeForms)
{
    const std::string text = header("(2,1,1)", "(64,1,1)") + block("0,0,0", 2) + block("1,0,0", 2);
    const std::string dir = scratch("tracez_mixed");
    write_file(dir + "/kernel-1.traceg", text);
    write_file(dir + "/kernel-2.traceg.xz", xz(text));
    write_file(dir + "/kernel-3.tracez", tracez::write(text));
    write_file(dir + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg.xz\nkernel-3.tracez\n");
    const e2e::Result r = e2e::smsim({"-trace", dir + "/kernelslist.g"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::regex cyc("\\ngpu_sim_cycle = ([0-9]+)");
    std::vector<std::string> cycles;
    for (std::sregex_iterator it(r.out.begin(), r.out.end(), cyc), end; it != end; ++it)
        cycles.push_back((*it)[1]);
    ASSERT_EQ(cycles.size(), 3u) << r.out;
    EXPECT_EQ(cycles[0], cycles[1]);
    EXPECT_EQ(cycles[0], cycles[2]);
    EXPECT_EQ(r.stat("gpu_tot_sim_insn"), 3 * 2 * 2 * 2 * 32); // 3 kernels x 2 blocks x 2 warps x 2 insts x 32 lanes
}

// Damaged .tracez files: exit status 2, one message naming the file and what is wrong, and
// nothing run (no statistics), whether blocks are held whole or streamed.
TEST(TracezInput, DamageIsNamed)
{
    const std::string text = header("(2,1,1)", "(64,1,1)") + block("0,0,0", 2) + block("1,0,0", 2);
    tracez::Layout l;
    tracez::Options one;
    one.subchunk = 1;
    const std::string good = tracez::write(text, one, &l);
    struct Variant {
        const char *name;
        std::string bytes, what;
    };
    std::vector<Variant> v;
    auto with32 = [&](size_t at, uint32_t val) {
        std::string s = good;
        tracez::set32(s, at, val);
        return s;
    };
    v.push_back({"cut_in_index", good.substr(0, good.size() - 3), "index offset"});
    v.push_back({"cut_header", good.substr(0, l.dict_size_at - 1), "no NUL byte ends the kernel header"});
    v.push_back({"index_offset_past_end", good.substr(0, good.size() - 8) + std::string("\xff\xff\xff\x00\x00\x00\x00\x00", 8),
                 "the index offset in the last 8 bytes, 16777215, is not between"});
    v.push_back({"dictionary_past_end", with32(l.dict_size_at, 1u << 30), "a dictionary of 1073741824 bytes"});
    v.push_back({"warp_count_disagrees", with32(l.first_warp_at, 3),
                 "thread block 0,0,0, warp 0: the index gives 2 instructions in 2 sub-chunks, its data at offset " +
                     std::to_string(l.first_warp_at) + " 3 in 2"});
    v.push_back({"index_count_disagrees", with32(l.first_warp_rec + 16, 2),
                 "thread block 0,0,0, warp 0, sub-chunk 0: its frame holds 1 instruction lines, the index says 2"});
    v.push_back({"warp_offset_past_end", with32(l.first_warp_rec + 8, 0x7fffffff),
                 "thread block 0,0,0, warp 0: its data offset 2147483647 lies outside the warp data"});
    v.push_back({"frame_size_past_end", with32(l.first_frame_at, 0x7fffffff),
                 "thread block 0,0,0, warp 0, sub-chunk 0: its 2147483647 compressed bytes at offset"});
    {
        std::string s = good;
        s[l.first_frame_at + 4] ^= 0x55; // the frame's magic number
        v.push_back({"not_a_frame", s, "thread block 0,0,0, warp 0, sub-chunk 0: not a zstd frame"});
    }
    {
        std::string s = good;
        const uint32_t n = tracez::get32(s, l.first_frame_at);
        s[l.first_frame_at + 4 + n - 2] ^= 0x5a; // inside the compressed block
        v.push_back({"corrupt_frame", s, "thread block 0,0,0, warp 0, sub-chunk 0: corrupt zstd frame"});
    }
    {
        tracez::Options o = one;
        o.content_size = false;
        v.push_back({"no_content_size", tracez::write(text, o),
                     "thread block 0,0,0, warp 0, sub-chunk 0: its zstd frame does not declare its content size"});
    }
    {
        std::string s = good; // a frame cut short: its compressed size one less, the byte after it 0
        const uint32_t n = tracez::get32(s, l.first_frame_at);
        tracez::set32(s, l.first_frame_at, n - 1);
        v.push_back({"cut_frame", s, "thread block 0,0,0, warp 0, sub-chunk 0: "});
    }
    v.push_back({"more_blocks_in_index", with32(l.index_at, 3), "index: the index ends before its last thread block"});
    v.push_back({"fewer_blocks_in_index", with32(l.index_at, 1), "index: "});
    {
        // an instruction line that is a structure keyword: refused, never taken for structure
        const std::string odd = header("(1,1,1)", "(32,1,1)") + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                                "0000 ffffffff 1 R2 IADD3 2 R2 R3 0\n!warp = 0\n#END_TB\n";
        v.push_back({"keyword_in_frame", tracez::write(odd),
                     "thread block 0,0,0, warp 0, sub-chunk 0: line 2 of its frame is not an instruction line"});
    }
    for (const Variant &x : v)
        for (const char *mib : {"-1", "0"}) {
            SCOPED_TRACE(std::string(x.name) + " -smtlm_trace_stream_mib " + mib);
            const std::string dir = scratch(std::string("tracez_bad_") + x.name);
            write_file(dir + "/kernel-1.tracez", x.bytes);
            write_file(dir + "/kernelslist.g", "kernel-1.tracez\n");
            const e2e::Result r = e2e::smsim({"-trace", dir + "/kernelslist.g", "-smtlm_trace_stream_mib", mib});
            EXPECT_EQ(r.status, 2);
            EXPECT_EQ(r.err.rfind("smsim: " + dir + "/kernel-1.tracez:", 0), 0u) << r.err;
            EXPECT_NE(r.err.find(x.what), std::string::npos) << r.err << "\nwanted " << x.what;
            EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            EXPECT_EQ(r.out.find("gpu_sim_cycle"), std::string::npos) << "a partial run";
        }
    // a pipe: the index at the end cannot be read first
    const e2e::Result r = e2e::smsim({"-trace", "/dev/stdin.tracez"});
    EXPECT_EQ(r.status, 2);
}

// Accel-Sim 2.0's cluster lines after `thread block =` are read (and kept with the block, which
// the model does not use): the run is the one without them; malformed ones are errors.
TEST(TracezInput, ClusterLinesAreReadAndChangeNothing)
{
    const std::string plain = header("(2,1,1)", "(64,1,1)") + block("0,0,0", 2) + block("1,0,0", 2);
    std::string clustered = plain;
    for (const char *label : {"0,0,0", "1,0,0"}) {
        const std::string line = std::string("thread block = ") + label + "\n";
        const size_t at = clustered.find(line) + line.size();
        clustered.insert(at, std::string("cluster id = 0,0,0\ncluster cta = ") + label + "\ncluster rank = " +
                                 (label[0] == '0' ? "0" : "1") + "\n");
    }
    const Pair p = write_pair("cluster", clustered, tracez::write(clustered));
    const std::string dir = scratch("tracez_cluster_plain");
    write_file(dir + "/kernel-1.traceg", plain);
    write_file(dir + "/kernelslist-t.g", "kernel-1.traceg\n");
    const Outputs a = run(dir + "/kernelslist-t.g", {}), b = run(p.text_list, {"-smtlm_trace_stream_mib", "0"}),
                  c = run(p.z_list, {});
    ASSERT_EQ(a.r.status, 0) << a.r.err;
    EXPECT_EQ(b.r.status, 0) << b.r.err;
    EXPECT_EQ(c.r.status, 0) << c.r.err;
    EXPECT_EQ(same_form(a.r.out).substr(same_form(a.r.out).find("gpu_sim_cycle")),
              same_form(b.r.out).substr(same_form(b.r.out).find("gpu_sim_cycle")));
    EXPECT_TRUE(a.events == b.events && a.events == c.events);
    std::string bad = clustered;
    bad.replace(bad.find("cluster rank = 1"), 16, "cluster rank = x");
    const std::string list = write_list("cluster_bad", {bad}, false);
    const e2e::Result r = e2e::smsim({"-trace", list});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(":" + std::to_string(line_of(bad, "cluster rank = x")) +
                         ": malformed line: expected 'cluster rank = <n>'"),
              std::string::npos)
        << r.err;
}

// A block the tracer omitted (it traced nothing) runs as an empty block after the file's blocks,
// as Accel-Sim takes the grid's remaining blocks once the file is read: the same run as the
// trace with that block written last with every warp `insts = 0`, and one note on stderr. A
// cut inside a block, or a block twice, stay errors (test_trace_input.cpp).
TEST(TracezInput, OmittedBlocksRunEmpty)
{
    const std::string hdr = header("(4,1,1)", "(64,1,1)");
    const std::string empty1 = "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 0\nwarp = 1\ninsts = 0\n#END_TB\n";
    const std::string empty3 = "#BEGIN_TB\nthread block = 3,0,0\nwarp = 0\ninsts = 0\nwarp = 1\ninsts = 0\n#END_TB\n";
    const std::string omitted = hdr + block("0,0,0", 2) + block("2,0,0", 2);
    const std::string explicit_empty = omitted + empty1 + empty3;
    const Pair p = write_pair("omitted", omitted, tracez::write(omitted));
    const std::string list = write_list("omitted_explicit", {explicit_empty}, false);
    const Outputs want = run(list, {});
    ASSERT_EQ(want.r.status, 0) << want.r.err;
    EXPECT_EQ(want.r.err, "");
    const std::string note = "smsim: note: " + dir_of(p.text_list) +
                             "/kernel-1.traceg: 2 of the grid's 4 thread blocks are absent from the trace";
    for (const std::string &l : {p.text_list, p.z_list})
        for (const char *reader : {"0", "1"}) {
            SCOPED_TRACE(l + " -smtlm_reader_thread " + reader);
            const Outputs o = run(l, {"-smtlm_reader_thread", reader});
            EXPECT_EQ(o.r.status, 0) << o.r.err;
            EXPECT_EQ(same_form(o.r.err).rfind(note, 0), 0u) << o.r.err;
            EXPECT_EQ(std::count(o.r.err.begin(), o.r.err.end(), '\n'), 1) << o.r.err;
            const std::string out = same_form(o.r.out), w = same_form(want.r.out);
            EXPECT_EQ(out.substr(out.find("gpu_sim_cycle")), w.substr(w.find("gpu_sim_cycle")));
            EXPECT_TRUE(o.events == want.events);
        }
    EXPECT_EQ(want.r.stat("gpu_sim_insn"), 2 * 2 * 2 * 32); // the two traced blocks only
}

} // namespace

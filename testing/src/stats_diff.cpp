// Flat stats files and their comparison (see stats_diff.h).
#include "stats_diff.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "result_data.h"

extern "C" {
#include "smtlm/stats_compare.h"
}

namespace smtlm {
namespace testing {

// Host time differs between any two runs, and how the run ended is not a statistic (the
// comparer skips both too).
static bool host_dependent(const std::string &path)
{
    const size_t dot = path.find_last_of('.');
    return (dot == std::string::npos ? path : path.substr(dot + 1)) == "wall_seconds" || path == "complete" ||
           path == "exit_status" || path == "error";
}

// Members and elements between the top and the leaf: 0 for gpu_tot_sim_cycle, 2 for
// kernels[0].stall, 4 for kernels[0].sms[0].rf_banks[1].reads.
static long depth(const std::string &path)
{
    return std::count(path.begin(), path.end(), '.') + std::count(path.begin(), path.end(), '[');
}

std::vector<const Stat *> select_stats(const Result &r, const std::vector<std::string> &paths, std::string *why)
{
    std::vector<const Stat *> v;
    if (!r.ok()) { // a run that did not complete has no figures to compare or pin
        *why = incomplete(r);
        return v;
    }
    if (paths.empty()) {
        for (const Stat &s : r.stats())
            if (!host_dependent(s.path))
                v.push_back(&s);
        // the run's totals first, then each kernel's own figures, then the finer ones (per SM,
        // per bank, ...): a table of changes cut short still shows the headline numbers
        std::stable_sort(v.begin(), v.end(),
                         [](const Stat *a, const Stat *b) { return depth(a->path) < depth(b->path); });
        return v;
    }
    for (const std::string &p : paths) {
        const Stat *s = r.find(p);
        if (!s) {
            *why = r.why_missing(p);
            return {};
        }
        v.push_back(s);
    }
    return v;
}

std::string flat_json(const std::vector<const Stat *> &leaves)
{
    std::string s = "{\n";
    for (size_t i = 0; i < leaves.size(); i++) {
        const Stat &l = *leaves[i];
        s += "  \"" + l.path + "\": ";
        s += l.is_number ? l.text : "\"" + l.text + "\""; // a string's escapes are kept as written
        s += i + 1 < leaves.size() ? ",\n" : "\n";
    }
    return s + "}\n";
}

bool write_file(const std::string &path, const std::string &text, std::string *why)
{
    const std::string tmp = path + ".tmp" + std::to_string((long)getpid());
    FILE *f = std::fopen(tmp.c_str(), "w");
    if (!f) {
        *why = tmp + ": cannot write: " + std::strerror(errno);
        return false;
    }
    // a full disk may fail the write or only the close: either way the temporary file goes
    const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
    const int err = errno;
    if (std::fclose(f) != 0 || !written) {
        *why = tmp + ": cannot write: " + std::strerror(written ? errno : err);
        std::remove(tmp.c_str());
        return false;
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        *why = path + ": cannot write: " + std::strerror(errno);
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

int compare_files(const std::string &a, const std::string &a_label, const std::string &b, const std::string &b_label,
                  std::string *text, const std::string &more_hint, unsigned max_rows)
{
    FILE *out = std::tmpfile();
    if (!out) {
        *text = std::string("cannot compare: no temporary file: ") + std::strerror(errno);
        return 2;
    }
    const int status = smtlm_stats_compare(a.c_str(), b.c_str(), 0, out, out);
    std::fflush(out);
    std::rewind(out);
    std::string raw;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, out)) > 0)
        raw.append(buf, n);
    std::fclose(out);
    if (status == 2) {
        *text = raw;
        return 2;
    }
    // the comparer's lines: "A: <file>", "B: <file>", the column header, one row per counter,
    // the summary; the file names give way to the labels
    std::vector<std::string> lines;
    std::istringstream in(raw);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    std::ostringstream s;
    s << "A = " << a_label << "\nB = " << b_label << "\n";
    const size_t rows = lines.size() >= 4 ? lines.size() - 4 : 0;
    for (size_t i = 2; i < lines.size(); i++) {
        const bool row = i >= 3 && i + 1 < lines.size();
        if (row && i - 3 == max_rows) {
            s << "... " << rows - max_rows << " more" << (more_hint.empty() ? "" : " (" + more_hint + ")") << "\n";
            i = lines.size() - 2;
            continue;
        }
        s << lines[i] << "\n";
    }
    *text = s.str();
    return status;
}

TempFile::TempFile()
{
    std::string t = ::testing::TempDir() + "smtlm_cmp_XXXXXX.json";
    const int fd = mkstemps(&t[0], 5);
    if (fd >= 0) {
        close(fd);
        path_ = t;
    }
}

TempFile::~TempFile()
{
    if (!path_.empty())
        std::remove(path_.c_str());
}

} // namespace testing
} // namespace smtlm

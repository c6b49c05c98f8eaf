// Golden files (see golden.h): compare a run's statistics with a stored flat JSON file, or
// write them there in update mode.
#include "smtlm/testing/golden.h"

#include <set>

extern "C" {
#include "smtlm/json_flat.h"
}

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <sys/stat.h>
#include <unistd.h>

#include "result_data.h"
#include "stats_diff.h"

namespace smtlm {
namespace testing {

static std::string resolve(const char *default_dir, const std::string &path)
{
    if (!path.empty() && path[0] == '/')
        return path;
    const char *env = std::getenv("SMTLM_GOLDEN_DIR");
    const std::string dir = env && *env ? env : default_dir ? default_dir : "";
    return dir.empty() ? path : dir + "/" + path;
}

// mkdir -p of the directories above path.
static bool make_parents(const std::string &path, std::string *why)
{
    for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        const std::string dir = path.substr(0, slash);
        if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
            *why = dir + ": cannot create: " + std::strerror(errno);
            return false;
        }
    }
    return true;
}

// This run's side of the comparison, kept after the test for a look (or a manual copy):
// <TempDir>/smtlm_actual/<golden name as the test gives it, '/' as '_'; an absolute one by its
// file name>.<engine>.json
static std::string actual_path(const std::string &golden, Engine e)
{
    std::string name = !golden.empty() && golden[0] == '/' ? golden.substr(golden.find_last_of('/') + 1) : golden;
    for (char &c : name)
        if (c == '/')
            c = '_';
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0)
        name.resize(name.size() - 5);
    return ::testing::TempDir() + "smtlm_actual/" + name + "." + engine_name(e) + ".json";
}

static std::string last_line(const std::string &s)
{
    const size_t end = s.find_last_not_of('\n');
    if (end == std::string::npos)
        return "";
    const size_t begin = s.find_last_of('\n', end);
    return s.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

// The counters a golden file holds into *keys, or why it is no golden: it cannot be read or is
// cut (file:line), pins nothing, or is not an object of statistics by name.
static std::string read_golden(const std::string &golden, std::set<std::string> *keys)
{
    smtlm_json_flat g;
    char msg[512];
    if (smtlm_json_flatten_file(golden.c_str(), &g, msg, sizeof msg))
        return msg;
    std::string problem;
    for (size_t i = 0; i < g.n && problem.empty(); i++) {
        const char *path = g.leaf[i].path;
        if (!*path || *path == '[')
            problem = "not a golden: a JSON object of statistics by name expected";
        keys->insert(path);
    }
    smtlm_json_flat_free(&g);
    if (problem.empty() && keys->empty())
        problem = "pins nothing (no counter)";
    return problem;
}

// The leaves whose paths the golden holds.
static std::vector<const Stat *> held_by(const std::set<std::string> &keys, const std::vector<const Stat *> &leaves)
{
    std::vector<const Stat *> held;
    for (const Stat *l : leaves)
        if (keys.count(l->path))
            held.push_back(l);
    return held;
}

static const char kHowToUpdate[] =
    "to accept this run's values: run the test binary with --smtlm_update_goldens (or SMTLM_UPDATE_GOLDENS=1)";
static const char kHowToRewrite[] =
    "to write it from this run: run the test binary with --smtlm_update_goldens (or SMTLM_UPDATE_GOLDENS=1)";

::testing::AssertionResult matches_golden(const char *default_dir, const Result &r, const std::string &path,
                                          const std::vector<std::string> &stats)
{
    const std::string golden = resolve(default_dir, path);
    // a run that did not complete has no figures to pin: nothing is compared, nothing written
    // (the golden file, this run's copy), in update mode too
    if (!r.ok())
        return ::testing::AssertionFailure() << "golden " << golden << ": " << r.spec().describe() << ": "
                                             << incomplete(r) << (updating_goldens() ? "; the golden file is not updated from it" : "");
    std::string why;
    const std::vector<const Stat *> leaves = select_stats(r, stats, &why);
    if (leaves.empty())
        return ::testing::AssertionFailure() << "golden " << golden << ": " << r.spec().describe() << ": " << why;
    const std::string text = flat_json(leaves);
    const bool exists = access(golden.c_str(), F_OK) == 0;
    // A golden of the whole statistics pins the counters it holds: a counter a later smtlm
    // adds (the stats layout grows without a new schema_version) is not a difference, one it
    // holds and the run lacks is. A golden that pins nothing this run has (none, or only names
    // of another schema or tool) or cannot be read is no golden: it fails, naming the file, and
    // update mode rewrites it.
    std::set<std::string> keys;
    std::string problem = exists ? read_golden(golden, &keys) : "";
    std::vector<const Stat *> pinned = leaves;
    if (exists && problem.empty() && stats.empty()) {
        pinned = held_by(keys, leaves);
        if (pinned.empty())
            problem = "none of its " + std::to_string(keys.size()) + " counters is a statistic of this run (a file of "
                      "another schema or tool?)";
    }
    // compared from a file of this process; the copy for people may be shared with another
    // test process running the same golden on the same engine
    const TempFile mine;
    const std::string actual = actual_path(path, r.spec().engine());
    if (!write_file(mine.path(), flat_json(pinned), &why) || !make_parents(actual, &why) ||
        !write_file(actual, text, &why))
        return ::testing::AssertionFailure() << "golden " << golden << ": " << why;
    if (!problem.empty()) {
        if (!updating_goldens())
            return ::testing::AssertionFailure() << "golden " << golden << ": " << problem << " (this run's statistics: " << actual << ");\n" << kHowToRewrite;
        if (!write_file(golden, text, &why))
            return ::testing::AssertionFailure() << "golden " << golden << ": " << why;
        std::cout << "[smtlm] golden rewritten: " << golden << " (it was no golden: " << problem << ")" << std::endl;
        return ::testing::AssertionSuccess();
    }
    std::string table;
    const int status =
        exists ? compare_files(golden, "golden " + golden, mine.path(), "this run: " + r.spec().describe() + " (" + actual + ")",
                               &table, "all of them: smsim -smtlm_compare " + golden + " " + actual)
               : 1;
    if (status == 0)
        return ::testing::AssertionSuccess();
    if (updating_goldens()) {
        if (!make_parents(golden, &why) || !write_file(golden, text, &why))
            return ::testing::AssertionFailure() << "golden " << golden << ": " << why;
        std::cout << "[smtlm] golden " << (exists ? "updated" : "created") << ": " << golden;
        if (status == 1 && exists)
            std::cout << " (" << last_line(table) << ")";
        std::cout << std::endl;
        return ::testing::AssertionSuccess();
    }
    if (!exists)
        return ::testing::AssertionFailure() << "golden file " << golden << " does not exist (this run's statistics: "
                                             << actual << ");\n" << kHowToRewrite;
    if (status == 2)
        return ::testing::AssertionFailure() << "golden " << golden << ": " << table;
    return ::testing::AssertionFailure() << "statistics differ from the golden file:\n" << table << kHowToUpdate;
}

} // namespace testing
} // namespace smtlm

// Statistics written as flat JSON files ({"kernels[0].gpu_sim_cycle": 8952, ...}: one member per
// leaf, named by its path, so the platform's flattener reads the names back unchanged) and two
// such files compared by smsim's comparer (-smtlm_compare) into a readable table.
#ifndef SMTLM_TESTING_STATS_DIFF_H
#define SMTLM_TESTING_STATS_DIFF_H

#include <string>
#include <vector>

#include "smtlm/testing/run.h"

namespace smtlm {
namespace testing {

// The leaves named in paths, in that order; when paths is empty all but host time and how the
// run ended, the shallowest first (totals, then per kernel, then per SM and finer). A run that
// did not complete, or a name the run does not have, is reported in *why and the result is empty.
std::vector<const Stat *> select_stats(const Result &r, const std::vector<std::string> &paths, std::string *why);

std::string flat_json(const std::vector<const Stat *> &leaves);

// Writes whole or not at all (a temporary file renamed over path); false with the reason.
bool write_file(const std::string &path, const std::string &text, std::string *why);

// Compares two flat (or stats) JSON files. Returns 0 same, 1 differ, 2 unreadable file; *text
// is the comparer's table with A and B explained by their labels, at most max_rows rows (then
// "... N more", and more_hint when it is not empty).
int compare_files(const std::string &a, const std::string &a_label, const std::string &b, const std::string &b_label,
                  std::string *text, const std::string &more_hint = "", unsigned max_rows = 40);

// A file of this process under GoogleTest's TempDir(), removed with the object.
class TempFile {
public:
    TempFile();
    ~TempFile();
    TempFile(const TempFile &) = delete;
    TempFile &operator=(const TempFile &) = delete;
    const std::string &path() const { return path_; } // "" if none could be made
private:
    std::string path_;
};

} // namespace testing
} // namespace smtlm

#endif

// What a Result holds (shared by its copies): the run's outputs, read once, and the temporary
// directory smsim wrote them to, removed with the last copy.
#ifndef SMTLM_TESTING_RESULT_DATA_H
#define SMTLM_TESTING_RESULT_DATA_H

#include <string>
#include <unordered_map>
#include <vector>

#include "smtlm/testing/run.h"

namespace smtlm {
namespace testing {

struct Result::Data {
    Sim spec;
    int status = -1;
    int signal = 0;        // what killed the run's process, if anything
    bool complete = false; // ok(): exit status 0 and "complete": true in the statistics
    std::string error;     // error(): "" when complete
    std::string out, err;
    std::vector<Stat> stats;
    std::unordered_map<std::string, size_t> index; // path -> stats[i]
    std::vector<Event> events;
    std::string dir;        // the run's temporary directory ("" if none could be made)
    std::string stats_path; // dir/stats.json

    Data() = default;
    Data(const Data &) = delete;
    Data &operator=(const Data &) = delete;
    ~Data();
};

// The files smsim writes in a run's directory.
extern const char *const kRunFiles[4]; // stdout, stderr, stats.json, events.log

// Reads a whole file; "" when it cannot be read.
std::string slurp(const std::string &path);

// "" when r completed; else what every check on its figures reports instead of a value:
// "the run did not complete (exit status 2): <its error>".
std::string incomplete(const Result &r);

} // namespace testing
} // namespace smtlm

#endif

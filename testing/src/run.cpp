// Running smsim's logic for a test: the C engine in this process, the SystemC engine in a
// forked child (a process elaborates SystemC modules once; the child's run is its only one).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result_data.h"
#include "smtlm/tlm/systemc_engine.h"

extern "C" {
#include "smtlm/json_flat.h"
#include "smtlm/smsim.h"
}

namespace smtlm {
namespace testing {

const char *const kRunFiles[4] = {"stdout", "stderr", "stats.json", "events.log"};

Result::Data::~Data()
{
    if (dir.empty())
        return;
    for (const char *f : kRunFiles)
        std::remove((dir + "/" + f).c_str());
    rmdir(dir.c_str());
}

std::string slurp(const std::string &path)
{
    std::string s;
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f)
        return s;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    std::fclose(f);
    return s;
}

// smsim's logic with both engines on offer; stdout and stderr to files. -1 if they cannot open.
static int smsim_here(const std::vector<std::string> &args, const std::string &dir)
{
    std::vector<const char *> argv;
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    FILE *out = std::fopen((dir + "/stdout").c_str(), "w");
    FILE *err = std::fopen((dir + "/stderr").c_str(), "w");
    int status = -1;
    if (out && err) {
        const smtlm_engine *const engines[] = {smtlm_c_engine(), smtlm_systemc_engine()};
        status = smtlm_smsim_engines((int)argv.size(), argv.data(), out, err, engines, 2);
    }
    if (out)
        std::fclose(out);
    if (err)
        std::fclose(err);
    return status;
}

// The same in a child process; its exit status, or -1 with the reason in why.
static int smsim_in_child(const std::vector<std::string> &args, const std::string &dir, std::string *why)
{
    std::fflush(nullptr); // nothing buffered here may be written twice
    const pid_t pid = fork();
    if (pid < 0) {
        *why = std::string("cannot start the run's process: ") + std::strerror(errno);
        return -1;
    }
    if (pid == 0) {
        const int status = smsim_here(args, dir);
        _exit(status < 0 ? 125 : status); // no exit handlers: they belong to the parent
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            *why = std::string("lost the run's process: ") + std::strerror(errno);
            return -1;
        }
    }
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 125) {
        *why = "the run's process could not open its output files in " + dir;
        return -1;
    }
    if (WIFEXITED(ws))
        return WEXITSTATUS(ws);
    std::ostringstream s;
    s << "the run's process ended by signal " << WTERMSIG(ws) << " (" << strsignal(WTERMSIG(ws)) << ")";
    *why = s.str();
    return -1;
}

static void read_stats(Result::Data &d)
{
    smtlm_json_flat flat;
    char msg[1024];
    if (smtlm_json_flatten_file(d.stats_path.c_str(), &flat, msg, sizeof msg))
        return; // no statistics (bad input before the run): the status and err say why
    d.stats.reserve(flat.n);
    for (size_t i = 0; i < flat.n; i++) {
        const smtlm_json_leaf &l = flat.leaf[i];
        d.index.emplace(l.path, d.stats.size());
        d.stats.push_back({l.path, l.text, l.is_number != 0, l.number});
    }
    smtlm_json_flat_free(&flat);
}

static void read_events(Result::Data &d)
{
    std::istringstream in(slurp(d.dir + "/events.log"));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        Event e;
        unsigned long long v[7];
        if (std::sscanf(line.c_str(), "%u %u %u %x %llu %llu %llu %llu %llu %llu %llu", &e.kernel, &e.sm, &e.warp, &e.pc,
                        &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) != 11) {
            d.err += "smtlm::testing: unreadable event log line: " + line + "\n";
            continue;
        }
        e.uid = v[0], e.issue = v[1], e.cu_alloc = v[2], e.operands = v[3];
        e.oc_ex = v[4], e.fu_issue = v[5], e.writeback = v[6];
        d.events.push_back(e);
    }
}

Result run(const Sim &spec)
{
    auto d = std::make_shared<Result::Data>();
    d->spec = spec;
    std::string tmpl = ::testing::TempDir() + "smtlm_run_XXXXXX";
    if (!mkdtemp(&tmpl[0])) {
        d->err = "smtlm::testing: cannot create a directory like " + tmpl + ": " + std::strerror(errno) + "\n";
        return Result(d);
    }
    d->dir = tmpl;
    d->stats_path = d->dir + "/stats.json";
    std::vector<std::string> args = {"smsim"};
    for (const std::string &a : spec.args())
        args.push_back(a);
    args.insert(args.end(), {"-smtlm_engine", engine_name(spec.engine()), "-smtlm_stats_json", d->stats_path,
                             "-smtlm_quiet", "1"});
    if (spec.events())
        args.insert(args.end(), {"-smtlm_event_log", d->dir + "/events.log"});
    std::string why;
    if (spec.engine() == Engine::SystemC) {
        d->status = smsim_in_child(args, d->dir, &why);
    } else {
        d->status = smsim_here(args, d->dir);
        if (d->status < 0)
            why = "cannot open the run's output files in " + d->dir;
    }
    d->out = slurp(d->dir + "/stdout");
    d->err = slurp(d->dir + "/stderr");
    if (!why.empty())
        d->err += "smtlm::testing: " + why + "\n";
    read_stats(*d);
    if (spec.events())
        read_events(*d);
    return Result(d);
}

} // namespace testing
} // namespace smtlm

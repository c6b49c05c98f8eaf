// Running smsim's logic for a test, on either engine, in a forked child: a crash ends the child
// only, and a process elaborates SystemC modules once (the child's run is its only one).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result_data.h"
#include "run_engines.h"
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

// smsim's logic on the engines offered; stdout and stderr to files. -1 if they cannot open.
static int smsim_here(const std::vector<std::string> &args, const std::string &dir, const smtlm_engine *const *engines,
                      unsigned n_engines)
{
    std::vector<const char *> argv;
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    FILE *out = std::fopen((dir + "/stdout").c_str(), "w");
    FILE *err = std::fopen((dir + "/stderr").c_str(), "w");
    int status = -1;
    if (out && err)
        status = smtlm_smsim_engines((int)argv.size(), argv.data(), out, err, engines, n_engines);
    if (out)
        std::fclose(out);
    if (err)
        std::fclose(err);
    return status;
}

// The same in a child process, whatever the engine: a crash ends the child only, and smsim's
// signal handlers, SystemC's elaboration and any host threads stay there. Returns its exit
// status, or -1 with the reason in why (and the signal in *sig when one killed it).
static int smsim_in_child(const std::vector<std::string> &args, const std::string &dir, const smtlm_engine *const *engines,
                          unsigned n_engines, int *sig, std::string *why)
{
    std::fflush(nullptr); // nothing buffered here may be written twice
    const pid_t pid = fork();
    if (pid < 0) {
        *why = std::string("cannot start the run's process: ") + std::strerror(errno);
        return -1;
    }
    if (pid == 0) {
        const int status = smsim_here(args, dir, engines, n_engines);
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
    *sig = WTERMSIG(ws);
    s << "the run's process was killed by signal " << *sig << " (" << strsignal(*sig) << ")";
    if (WCOREDUMP(ws))
        s << ", core dumped";
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

// A JSON string's text as written by smsim's stats writer (\" \\ and \u00XX escapes) read back.
static std::string json_unescape(const std::string &s)
{
    std::string r;
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] != '\\' || i + 1 == s.size()) {
            r += s[i];
            continue;
        }
        const char c = s[++i];
        const char *const plain = "\"\\/bfnrt", *const meant = "\"\\/\b\f\n\r\t";
        if (const char *p = std::strchr(plain, c)) {
            r += meant[p - plain];
        } else if (c == 'u' && i + 4 < s.size() && std::strtoul(s.substr(i + 1, 4).c_str(), nullptr, 16) < 0x80) {
            r += (char)std::strtoul(s.substr(i + 1, 4).c_str(), nullptr, 16);
            i += 4;
        } else {
            r += '\\';
            r += c;
        }
    }
    return r;
}

// smsim's error line ("smsim: <message>") on stderr, without its prefix; "" when there is none.
static std::string smsim_error_line(const std::string &err)
{
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);)
        if (line.compare(0, 7, "smsim: ") == 0)
            return line.substr(7);
    return "";
}

// Whether the run completed, and if not, why: the process's fate, the statistics' own word
// ("complete", "error"), smsim's message.
static void judge(Result::Data &d, const std::string &why)
{
    const auto leaf = [&d](const char *path) -> const Stat * {
        const auto it = d.index.find(path);
        return it == d.index.end() ? nullptr : &d.stats[it->second];
    };
    const Stat *complete = leaf("complete"), *error = leaf("error");
    d.complete = d.status == 0 && complete && complete->text == "true";
    if (d.complete)
        return;
    if (!why.empty())
        d.error = why;
    else if (error && !error->text.empty())
        d.error = json_unescape(error->text);
    else
        d.error = smsim_error_line(d.err);
    if (d.error.empty())
        d.error = d.status != 0     ? "smsim gave no error message"
                  : d.stats.empty() ? "smsim wrote no statistics"
                                    : "the statistics do not say that the run completed";
}

// One event's cycle: a number, or '-' for an event the core does not have (UINT64_MAX).
static bool event_cycle(std::istream &in, unsigned long long *v)
{
    std::string t;
    if (!(in >> t))
        return false;
    if (t == "-") {
        *v = UINT64_MAX;
        return true;
    }
    char *end = nullptr;
    *v = std::strtoull(t.c_str(), &end, 10);
    return !t.empty() && *end == '\0';
}

static void read_events(Result::Data &d)
{
    std::istringstream in(slurp(d.dir + "/events.log"));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        Event e;
        unsigned long long v[7];
        std::istringstream f(line);
        bool ok = static_cast<bool>(f >> e.kernel >> e.sm >> e.warp >> std::hex >> e.pc >> std::dec);
        for (unsigned k = 0; k < 7 && ok; k++)
            ok = event_cycle(f, &v[k]);
        std::string rest;
        if (!ok || (f >> rest)) {
            d.err += "smtlm::testing: unreadable event log line: " + line + "\n";
            continue;
        }
        e.uid = v[0], e.issue = v[1], e.cu_alloc = v[2], e.operands = v[3];
        e.oc_ex = v[4], e.fu_issue = v[5], e.writeback = v[6];
        d.events.push_back(e);
    }
}

Result run_with_engines(const Sim &spec, const smtlm_engine *const *engines, unsigned n_engines)
{
    auto d = std::make_shared<Result::Data>();
    d->spec = spec;
    std::string tmpl = ::testing::TempDir() + "smtlm_run_XXXXXX";
    if (!mkdtemp(&tmpl[0])) {
        d->error = "cannot create a directory like " + tmpl + ": " + std::strerror(errno);
        d->err = "smtlm::testing: " + d->error + "\n";
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
    d->status = smsim_in_child(args, d->dir, engines, n_engines, &d->signal, &why);
    d->out = slurp(d->dir + "/stdout");
    d->err = slurp(d->dir + "/stderr");
    if (!why.empty())
        d->err += "smtlm::testing: " + why + "\n";
    read_stats(*d);
    if (spec.events())
        read_events(*d);
    judge(*d, why);
    return Result(d);
}

Result run(const Sim &spec)
{
    const smtlm_engine *const engines[] = {smtlm_c_engine(), smtlm_systemc_engine()};
    return run_with_engines(spec, engines, 2);
}

} // namespace testing
} // namespace smtlm

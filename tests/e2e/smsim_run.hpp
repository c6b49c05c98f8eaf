// Runs smsim's logic in-process and captures its output.
#pragma once

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" {
#include "smtlm/smsim.h"
}

namespace e2e {

struct Result {
    int status;
    std::string out, err;
    // Last "<name> = <number>" on stdout, or -1.
    long long stat(const std::string &name) const
    {
        std::regex re("(^|\\n)" + name + " = ([0-9]+)");
        long long v = -1;
        for (std::sregex_iterator it(out.begin(), out.end(), re), end; it != end; ++it)
            v = std::stoll((*it)[2]);
        return v;
    }
};

inline std::string slurp(FILE *f)
{
    std::string s;
    std::rewind(f);
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        s.append(buf, n);
    return s;
}

// smsim's logic in-process with a choice of engines (default: the C engine only).
inline Result smsim(std::vector<std::string> args, const smtlm_engine *const *engines = nullptr, unsigned n_engines = 0)
{
    args.insert(args.begin(), "smsim");
    std::vector<const char *> argv;
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    FILE *out = std::tmpfile(), *err = std::tmpfile();
    Result r;
    r.status = engines ? smtlm_smsim_engines((int)argv.size(), argv.data(), out, err, engines, n_engines)
                       : smtlm_smsim((int)argv.size(), argv.data(), out, err);
    r.out = slurp(out);
    r.err = slurp(err);
    std::fclose(out);
    std::fclose(err);
    return r;
}

inline std::string data(const std::string &rel) { return std::string(SMTLM_TEST_DATA) + "/" + rel; }
inline std::string project_config(const std::string &name) { return std::string(SMTLM_CONFIGS_DIR) + "/" + name; }

// The stock Accel-Sim config pair of a tested GPU (tests/data/configs/<dir>).
inline std::vector<std::string> stock(const std::string &dir)
{
    return {"-config", data("configs/" + dir + "/gpgpusim.config"), "-config", data("configs/" + dir + "/trace.config")};
}

// A scratch directory for generated traces.
inline std::string scratch(const std::string &name)
{
    std::string dir = std::string(::testing::TempDir()) + "smtlm_" + name;
    std::string cmd = "mkdir -p '" + dir + "'";
    if (std::system(cmd.c_str()) != 0)
        return "";
    return dir;
}

// Writes whole or not at all: ctest runs test processes in parallel and several of them
// generate the same scratch files, so a reader must never see one half written. The text goes
// to a file of this process's own, renamed over `path` (atomic on POSIX). A file that already
// holds the text is left alone: the streaming trace reader reopens a trace by its path and
// reports a file replaced under it (a new inode) as changed, so another test process must not
// swap an identical file in while one reads it.
inline void write_file(const std::string &path, const std::string &text)
{
    {
        std::ifstream old(path, std::ios::binary);
        if (old) {
            std::string have((std::istreambuf_iterator<char>(old)), std::istreambuf_iterator<char>());
            if (have == text)
                return;
        }
    }
    const std::string tmp = path + ".tmp" + std::to_string((long)::getpid());
    {
        std::ofstream f(tmp);
        f << text;
    }
    std::rename(tmp.c_str(), path.c_str());
}

} // namespace e2e

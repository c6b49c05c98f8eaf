// Runs the real smsim program as a child process, for what only a whole process shows: its
// exit status and signals.
#pragma once

#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scratch_files.hpp"

namespace e2e {

struct Process {
    pid_t pid = -1;
    std::string out_path, err_path;
};

// Starts smsim with args, stdout and stderr to files in dir, SIGINT and SIGTERM at their
// default dispositions whatever the test runner's are (but `ignored`, when given, ignored).
inline Process start_smsim(const std::vector<std::string> &args, const std::string &dir, int ignored = 0)
{
    Process p;
    p.out_path = dir + "/stdout";
    p.err_path = dir + "/stderr";
    std::vector<const char *> argv = {SMTLM_SMSIM};
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    argv.push_back(nullptr);
    p.pid = fork();
    if (p.pid == 0) {
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        if (ignored)
            std::signal(ignored, SIG_IGN);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        const int out = open(p.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(p.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(126);
        execv(argv[0], const_cast<char *const *>(argv.data()));
        _exit(127);
    }
    return p;
}

struct Ended {
    bool exited = false; // else ended by a signal
    int code = -1;       // exit status, or the signal
    std::string out, err;
};

inline Ended wait_smsim(const Process &p)
{
    Ended e;
    int ws = 0;
    while (waitpid(p.pid, &ws, 0) < 0 && errno == EINTR) {
    }
    e.exited = WIFEXITED(ws);
    e.code = e.exited ? WEXITSTATUS(ws) : WTERMSIG(ws);
    e.out = read(p.out_path);
    e.err = read(p.err_path);
    return e;
}

// Waits until pred() holds; false if it never did within the bound, which only keeps a broken
// run from hanging the test (minutes: a loaded machine gets there, however slowly).
template <class Pred> bool wait_until(Pred pred)
{
    for (int i = 0; i < 24000; i++) {
        if (pred())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

// The process handles sig (smsim installs its SIGINT and SIGTERM handlers once its outputs are
// open; from then on a signal stops the run with the statistics so far).
inline bool catches(pid_t pid, int sig)
{
    const std::string status = read("/proc/" + std::to_string(pid) + "/status");
    const size_t at = status.find("\nSigCgt:");
    if (at == std::string::npos)
        return false;
    const unsigned long long mask = std::stoull(status.substr(at + 8), nullptr, 16);
    return (mask >> (sig - 1)) & 1;
}

} // namespace e2e

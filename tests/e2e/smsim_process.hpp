// Runs the real smsim program as a child process, for what only a whole process shows: its
// exit status and signals.
#pragma once

#include <chrono>
#include <csignal>
#include <functional>
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

// How the child starts besides its arguments.
struct ChildSetup {
    int ignored = 0;                    // a signal it starts with ignored (nohup, a script's job)
    bool append = false;                // stdout and stderr appended to, as the shell's >> does
    std::function<void()> before_exec;  // last, with stdout and stderr in place (a limit, a redirect)
};

// Starts smsim with args, stdout and stderr to files in dir, the signals that stop it at their
// default dispositions whatever the test runner's are.
inline Process start_smsim(const std::vector<std::string> &args, const std::string &dir, const ChildSetup &setup)
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
        for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ})
            std::signal(sig, SIG_DFL);
        if (setup.ignored)
            std::signal(setup.ignored, SIG_IGN);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        const int how = O_WRONLY | O_CREAT | (setup.append ? O_APPEND : O_TRUNC);
        const int out = open(p.out_path.c_str(), how, 0644);
        const int err = open(p.err_path.c_str(), how, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(126);
        for (int fd : {out, err})
            if (fd > 2)
                close(fd);
        if (setup.before_exec)
            setup.before_exec();
        execv(argv[0], const_cast<char *const *>(argv.data()));
        _exit(127);
    }
    return p;
}

// As above, `ignored` (when given) ignored.
inline Process start_smsim(const std::vector<std::string> &args, const std::string &dir, int ignored = 0)
{
    ChildSetup setup;
    setup.ignored = ignored;
    return start_smsim(args, dir, setup);
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

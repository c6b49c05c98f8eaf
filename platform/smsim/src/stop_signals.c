/* The stop signals for smsim (see stop_signals.h). Signal dispositions belong to the process,
 * so this state is too. */
#include "smtlm/stop_signals.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "smtlm/out_file.h"

static volatile sig_atomic_t requested;
static const volatile sig_atomic_t *line;
static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
#define N_STOP_SIGS (sizeof stop_sigs / sizeof stop_sigs[0])
static struct sigaction old[N_STOP_SIGS];
static int installed;

/* SIGPIPE and SIGXFSZ come from a write that failed, and come again with every later write:
 * the write's own error says what happened; they are never the second signal. */
static int from_a_write(int sig) { return sig == SIGPIPE || sig == SIGXFSZ; }

static void on_signal(int sig)
{
    if (!requested) {
        requested = sig;
        return;
    }
    if (from_a_write(sig))
        return;
    const int saved = errno;
    smtlm_out_remove_temps();
    static const char end_line[] = "\r\033[K";
    static const char msg[] = "smsim: a second signal: stopped at once, nothing more written\n";
    ssize_t w = 0;
    if (line && *line)
        w += write(STDERR_FILENO, end_line, sizeof end_line - 1);
    w += write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    signal(sig, SIG_DFL); /* delivered as soon as this handler returns: the process ends by it */
    raise(sig);
    errno = saved;
}

void smtlm_stop_signals_install(const volatile sig_atomic_t *line_shown)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* reads and writes in progress go on: the run stops at its own pace */
    requested = 0;
    line = line_shown;
    for (size_t i = 0; i < N_STOP_SIGS; i++) {
        sigaction(stop_sigs[i], &sa, &old[i]);
        /* a signal the caller ignores (nohup, a background job) stays ignored */
        if (old[i].sa_handler == SIG_IGN)
            sigaction(stop_sigs[i], &old[i], NULL);
    }
    installed = 1;
}

void smtlm_stop_signals_restore(void)
{
    if (!installed)
        return;
    for (size_t i = 0; i < N_STOP_SIGS; i++)
        sigaction(stop_sigs[i], &old[i], NULL);
    installed = 0;
    line = NULL;
    requested = 0;
}

int smtlm_stop_signal(void) { return requested; }

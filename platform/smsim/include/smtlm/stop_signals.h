/* The signals that stop smsim: SIGINT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ. The first asks the
 * run to stop: the engine ends the kernel at its next poll (a cycle step boundary, at most
 * SMTLM_POLL_CYCLES cycles on) and smsim writes what it has, marked incomplete. The second ends
 * the process at once: the temporary files of unfinished outputs are removed
 * (smtlm_out_remove_temps), a progress line is ended, one line says so, and the signal's
 * default action ends the process. SIGPIPE and SIGXFSZ come from a write that failed (standard
 * output to a closed pipe, a file over the size limit), again at every later write: they ask
 * to stop when first, and are never the second signal. */
#ifndef SMTLM_STOP_SIGNALS_H
#define SMTLM_STOP_SIGNALS_H

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Installs the handlers (the previous ones are kept for smtlm_stop_signals_restore).
 * line_shown, when not NULL, is 1 while a progress line stands unfinished on stderr. */
void smtlm_stop_signals_install(const volatile sig_atomic_t *line_shown);
/* The previous handlers back; a stop request is forgotten. */
void smtlm_stop_signals_restore(void);
/* The signal that asked to stop, 0 while none did. */
int smtlm_stop_signal(void);

#ifdef __cplusplus
}
#endif
#endif

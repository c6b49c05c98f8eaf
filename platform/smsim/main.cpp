// smsim as an sc_main: the C engine by default, the SystemC/TLM model with -smtlm_engine systemc
// (or an option only it reads). Both give identical cycles, statistics and output.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include <unistd.h>

#include <systemc>

#include "smtlm/tlm/systemc_engine.h"

extern "C" {
#include "smtlm/smsim.h"
}

namespace {

std::terminate_handler default_terminate;
bool in_main; // main has started: the libraries' static objects are built

// An allocation that fails where nothing catches it (a library's static objects before main,
// SystemC's start-up) is smsim's out-of-memory error like any other: one line on stderr and
// exit 2, never an abort. Before main, a terminate without an exception is one too: the
// exception for a failed allocation could not be allocated either. Any other uncaught
// exception keeps the default handler.
[[noreturn]] void on_terminate()
{
    bool no_memory = !in_main;
    try {
        if (std::exception_ptr e = std::current_exception())
            std::rethrow_exception(e);
    } catch (const std::bad_alloc &) {
        no_memory = true;
    } catch (...) {
        no_memory = false;
    }
    if (no_memory) {
        static const char msg[] = "smsim: out of memory\n";
        const ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        _exit(2);
    }
    default_terminate();
    std::abort();
}

// Before the libraries' static objects are built (the program's preinit functions run first).
void install_terminate(int, char **, char **) { default_terminate = std::set_terminate(on_terminate); }
__attribute__((section(".preinit_array"), used)) void (*const preinit)(int, char **, char **) = install_terminate;

} // namespace

int sc_main(int argc, char *argv[])
{
    const smtlm_engine *const engines[] = {smtlm_systemc_engine(), smtlm_c_engine()};
    return smtlm_smsim_engines(argc, (const char *const *)argv, stdout, stderr, engines, 2);
}

// Our own main, so that SystemC's start-up banner does not land in every run's output
// (SC_COPYRIGHT_MESSAGE set by the user still decides).
int main(int argc, char *argv[])
{
    in_main = true;
    setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}

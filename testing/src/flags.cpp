// Update mode for golden files: the command-line flag or the environment variable.
#include <cstdlib>
#include <cstring>
#include <string>

#include "smtlm/testing/golden.h"

namespace smtlm {
namespace testing {

static bool g_updating = false;

bool updating_goldens() { return g_updating; }
void set_updating_goldens(bool on) { g_updating = on; }

static bool env_true(const char *name)
{
    const char *v = std::getenv(name);
    if (!v)
        return false;
    const std::string s = v;
    return s == "1" || s == "yes" || s == "on" || s == "true";
}

void init(int *argc, char **argv)
{
    if (env_true("SMTLM_UPDATE_GOLDENS"))
        g_updating = true;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (!std::strcmp(argv[i], "--smtlm_update_goldens"))
            g_updating = true;
        else
            argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = nullptr;
}

} // namespace testing
} // namespace smtlm

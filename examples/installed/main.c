/* Uses the installed library: runs smsim's built-in default workload in-process. */
#include <stdio.h>

#include "smtlm/smsim.h"

int main(void)
{
    const char *argv[] = {"run_default", "-smtlm_synth_insts", "200"};
    return smtlm_smsim(3, argv, stdout, stderr);
}

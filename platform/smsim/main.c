/* smsim: see smtlm/smsim.h. */
#include <stdio.h>

#include "smtlm/smsim.h"

int main(int argc, char **argv)
{
    return smtlm_smsim(argc, (const char *const *)argv, stdout, stderr);
}

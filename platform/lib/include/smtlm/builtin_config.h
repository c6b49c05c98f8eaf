/* The built-in default machine (a compiled-in copy of configs/qv100.config): the option
 * registry's defaults (smtlm_options), over which every -config and option applies, so that
 * options alone, as smsim with no -config, always form a valid machine. */
#ifndef SMTLM_BUILTIN_CONFIG_H
#define SMTLM_BUILTIN_CONFIG_H

#ifdef __cplusplus
extern "C" {
#endif

const char *smtlm_builtin_config_text(void);
unsigned long smtlm_builtin_config_len(void);

#ifdef __cplusplus
}
#endif
#endif

/* smtlm's version and the git commit it was built from. */
#ifndef SMTLM_VERSION_H
#define SMTLM_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* "<major.minor.patch> (git <hash>)"; the hash is "unknown" outside a git checkout and ends
 * in "-dirty" when tracked files had changes at build time. */
const char *smtlm_version_text(void);

#ifdef __cplusplus
}
#endif
#endif

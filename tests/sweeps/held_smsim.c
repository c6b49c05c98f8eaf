/* held_smsim: smsim as smsweep's tests run it, so that a test can hold one point still while
 * it looks at it, whatever else the machine is doing. smsweep runs it through a link named
 * smsim in a gate directory (the directory of argv[0]), which holds:
 *   match  text that only the point to hold has in its command line (its directory's name)
 *   hold   when it exists, the next run of that point is held: it takes the file (a rerun is
 *          not held) and writes its pid to `held`; the file's lines, when it has any, are
 *          arguments added at the end of the held run's command line, where later options win
 *          (a workload too long to end while the test looks, for a test that signals smsim)
 *   go     created by the test: the held run goes on
 * The run then, and every other run (a dry run too), becomes the real smsim with the same
 * arguments and argv[0]: the process keeps its pid, and its command line is still the point's
 * when nothing was added.
 * A held run whose gate directory is removed (the test has ended) exits with status 125. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef SMTLM_SMSIM
#error "SMTLM_SMSIM (the real smsim) must be defined"
#endif

/* The gate directory and its files' paths. */
static char gate[4096], match_path[4200], hold_path[4200], held_path[4200], held_tmp_path[4200], go_path[4200];

static void find_gate(const char *argv0)
{
    snprintf(gate, sizeof gate, "%s", argv0);
    char *slash = strrchr(gate, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(gate, sizeof gate, ".");
    snprintf(match_path, sizeof match_path, "%s/match", gate);
    snprintf(hold_path, sizeof hold_path, "%s/hold", gate);
    snprintf(held_path, sizeof held_path, "%s/held", gate);
    snprintf(held_tmp_path, sizeof held_tmp_path, "%s/held.tmp", gate);
    snprintf(go_path, sizeof go_path, "%s/go", gate);
}

/* The file's text ("" when it is absent or empty). */
static void read_text(const char *path, char *buf, size_t size)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    const size_t n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = 0;
}

/* The match file's text without its trailing newlines. */
static void read_line(const char *path, char *buf, size_t size)
{
    read_text(path, buf, size);
    size_t len = strlen(buf);
    while (len && buf[len - 1] == '\n')
        buf[--len] = 0;
}

static int is_the_point(int argc, char **argv)
{
    char match[4096];
    read_line(match_path, match, sizeof match);
    if (!match[0])
        return 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-smtlm_check_options"))
            return 0; /* smsweep's dry run: never held */
    }
    for (int i = 1; i < argc; i++) {
        if (strstr(argv[i], match))
            return 1;
    }
    return 0;
}

static void run_real(char **argv)
{
    execv(SMTLM_SMSIM, argv);
    fprintf(stderr, "held_smsim: cannot run %s: %s\n", SMTLM_SMSIM, strerror(errno));
    exit(127);
}

int main(int argc, char **argv)
{
    find_gate(argv[0]);
    if (argc > 256 || !is_the_point(argc, argv))
        run_real(argv);
    char taken[sizeof hold_path + 24]; /* hold_path, a dot and a pid */
    snprintf(taken, sizeof taken, "%s.%ld", hold_path, (long)getpid());
    if (rename(hold_path, taken) != 0)
        run_real(argv); /* not armed, or another run took it */
    static char added[16384];
    read_text(taken, added, sizeof added);
    FILE *held = fopen(held_tmp_path, "w");
    if (!held || fprintf(held, "%ld\n", (long)getpid()) < 0 || fclose(held) != 0 ||
        rename(held_tmp_path, held_path) != 0) {
        fprintf(stderr, "held_smsim: cannot write %s\n", held_path);
        return 126;
    }
    struct stat st;
    const struct timespec step = {0, 5 * 1000 * 1000};
    while (stat(go_path, &st) != 0) {
        if (stat(gate, &st) != 0)
            return 125;
        nanosleep(&step, NULL);
    }
    char *args[256 + 64];
    int n = 0;
    for (int i = 0; i < argc && n < 256; i++)
        args[n++] = argv[i];
    for (char *line = strtok(added, "\n"); line && n < 256 + 63; line = strtok(NULL, "\n"))
        args[n++] = line;
    args[n] = NULL;
    run_real(args);
}

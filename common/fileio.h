/* fileio.h -- guards for the tools that read the user's files and write a file of their own
 * (plain C, header-only).  Each fault is ONE line on stderr and exit 2 (bad input,
 * common/README.md, "Exit codes"), found before any work is done:
 *
 *   fileio_check_out(out, ins, n)   the output must not be one of the inputs (same inode,
 *                                   also through ./, ../, symlinks and hard links; a not yet
 *                                   existing output whose resolved directory + name equals an
 *                                   input's), nor may out.tmp (the house convention writes
 *                                   out.tmp, then renames it; a leftover out.tmp must be a
 *                                   regular file, not a link, FIFO or directory), must not be an existing directory
 *                                   or device, nor an existing file this process may not write
 *                                   (read-only; for root, immutable), and its directory must
 *                                   exist and be writable;
 *   fileio_check_size(in, max)      the input exists, is not a directory, and a regular input
 *                                   holds at most max bytes (a pipe or device cannot be bounded
 *                                   by its size: read it with fileio_read_line);
 *   fileio_read_line(f, buf, size, &line_no, path)
 *                                   one line into buf without its "\n" (and "\r\n"), NULL at the
 *                                   end of the file; a line of more than size - 1 bytes or a NUL
 *                                   byte (binary data, e.g. --in=/dev/zero) is refused naming
 *                                   path:line, after reading at most size bytes -- never an
 *                                   unbounded getline.
 *
 *   const char *ins[] = {in};
 *   fileio_check_size(in, max_bytes);
 *   fileio_check_out(out, ins, 1);
 *   FILE *f = fopen(in, "r");  long long ln = 0;  char buf[4096];
 *   while (fileio_read_line(f, buf, sizeof buf, &ln, in)) parse(buf, ln);
 */
#ifndef COMMON_FILEIO_H
#define COMMON_FILEIO_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* dir = the directory part of path ("." when there is none), base = the rest. */
static inline void fileio_split(const char *path, char *dir, size_t dsize, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(dir, dsize, ".");
        *base = path;
    } else if (slash == path) {
        snprintf(dir, dsize, "/");
        *base = slash + 1;
    } else {
        snprintf(dir, dsize, "%.*s", (int)(slash - path), path);
        *base = slash + 1;
    }
}

/* The resolved name of a file that may not exist yet: realpath(directory) + "/" + name.
 * Returns 0, or -1 when the directory cannot be resolved. */
static inline int fileio_canonical(const char *path, char *buf, size_t size)
{
    char dir[PATH_MAX], rdir[PATH_MAX];
    const char *base;
    fileio_split(path, dir, sizeof dir, &base);
    if (!realpath(dir, rdir)) return -1;
    if (!strcmp(base, "") || !strcmp(base, ".") || !strcmp(base, ".."))
        return snprintf(buf, size, "%s/%s", rdir, base) < (int)size ? 0 : -1;
    return snprintf(buf, size, "%s%s%s", rdir, strcmp(rdir, "/") ? "/" : "", base) < (int)size ? 0 : -1;
}

/* 1 when path names the same file as one of the inputs (inode, or resolved name); *which = it. */
static inline int fileio_is_input(const char *path, const char *const *in_paths, int n_in, const char **which)
{
    struct stat so, si;
    int exists = stat(path, &so) == 0;
    char cout[PATH_MAX + 2], cin[PATH_MAX + 2];
    int have_cout = fileio_canonical(path, cout, sizeof cout) == 0;
    for (int k = 0; k < n_in; k++) {
        if (!in_paths[k]) continue;
        int same = exists && stat(in_paths[k], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
        if (!same && have_cout && fileio_canonical(in_paths[k], cin, sizeof cin) == 0) same = !strcmp(cout, cin);
        if (same) {
            *which = in_paths[k];
            return 1;
        }
    }
    return 0;
}

static inline void fileio_check_out(const char *out_path, const char *const *in_paths, int n_in)
{
    if (!out_path || !*out_path) DIE_USAGE("no output file named");
    struct stat so;
    int exists = stat(out_path, &so) == 0;
    if (exists && S_ISDIR(so.st_mode)) DIE_USAGE("cannot write %s: it is a directory", out_path);
    if (exists && !S_ISREG(so.st_mode)) DIE_USAGE("cannot write %s: it exists and is not a regular file", out_path);
    /* read-only (or, for root, immutable): refused now, not a failed rename after the work */
    if (exists && access(out_path, W_OK))
        DIE_USAGE("cannot write %s: %s (an existing output is replaced only when writable)", out_path, strerror(errno));
    const char *in;
    if (fileio_is_input(out_path, in_paths, n_in, &in))
        DIE_USAGE("output %s is the same file as the input %s (refused: it would overwrite the input)", out_path, in);
    char tmp[PATH_MAX + 8];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", out_path) >= (int)sizeof tmp) DIE_USAGE("cannot write %s: path too long", out_path);
    if (fileio_is_input(tmp, in_paths, n_in, &in))
        DIE_USAGE("output %s would be written as %s, the input %s (refused: it would overwrite the input)", out_path,
                  tmp, in);
    /* a leftover out.tmp is replaced only when it is a plain file: through a symbolic link the
     * write would truncate the file it points to, on a FIFO it would wait forever */
    struct stat st;
    if (lstat(tmp, &st) == 0 && !S_ISREG(st.st_mode))
        DIE_USAGE("cannot write %s: %s exists and is not a regular file (remove it)", out_path, tmp);
    char dir[PATH_MAX];
    const char *base;
    fileio_split(out_path, dir, sizeof dir, &base);
    if (!*base) DIE_USAGE("cannot write %s: it names a directory", out_path);
    struct stat sd;
    if (stat(dir, &sd)) DIE_USAGE("cannot write %s: directory %s: %s", out_path, dir, strerror(errno));
    if (!S_ISDIR(sd.st_mode)) DIE_USAGE("cannot write %s: %s is not a directory", out_path, dir);
    if (access(dir, W_OK | X_OK)) DIE_USAGE("cannot write %s: directory %s is not writable", out_path, dir);
}

static inline void fileio_check_size(const char *path, long long max_bytes)
{
    struct stat s;
    if (!path || !*path) DIE_USAGE("no input file named");
    if (stat(path, &s)) DIE_USAGE("cannot read %s: %s", path, strerror(errno));
    if (S_ISDIR(s.st_mode)) DIE_USAGE("cannot read %s: it is a directory", path);
    if (S_ISREG(s.st_mode) && (long long)s.st_size > max_bytes)
        DIE_USAGE("%s has %lld bytes, more than the limit of %lld bytes", path, (long long)s.st_size, max_bytes);
}

static inline char *fileio_read_line(FILE *f, char *buf, size_t size, long long *line_no, const char *path)
{
    size_t len = 0;
    int c;
    if (size < 2) DIE("fileio_read_line: buffer of %zu bytes", size);
    while ((c = getc(f)) != EOF) {
        if (c == '\n') break;
        if (c == '\0') DIE_USAGE("%s:%lld: NUL byte (binary data, not a text file)", path, *line_no + 1);
        if (len == size - 1) DIE_USAGE("%s:%lld: line too long (> %zu bytes)", path, *line_no + 1, size - 1);
        buf[len++] = (char)c;
    }
    if (c == EOF && ferror(f)) DIE("%s:%lld: read error: %s", path, *line_no + 1, strerror(errno));
    if (c == EOF && len == 0) return NULL;
    if (len > 0 && buf[len - 1] == '\r') len--;
    buf[len] = '\0';
    ++*line_no;
    return buf;
}

#endif

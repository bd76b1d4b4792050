/* test_common_fileio.c -- common/fileio.h: an output that is an input (by name, ./, ../,
 * symlink, hard link) or a directory/device is refused with exit 2, a fine output passes; a
 * leftover out.tmp is replaced when a plain file and refused (exit 2) as a link, FIFO or directory;
 * inputs over the size bound or directories are refused; the line reader returns the lines
 * (CRLF, no final newline), and refuses over-long lines, NUL bytes and /dev/zero with exit 2
 * after a bounded read.  The refusals exit, so each runs in a child process. */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "../../common/testlib.h"
#include "../../common/fileio.h"

typedef enum { OUT, SIZE, READ_ALL } what;

/* Runs one guard in a child; returns its exit status (42: returned normally). */
static int child(what w, const char *a, const char *b, long long bound)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) _exit(3);
        if (w == OUT) {
            const char *ins[] = {"/nonexistent-input-of-test", b};
            fileio_check_out(a, ins, 2);
        } else if (w == SIZE) {
            fileio_check_size(a, bound);
        } else {
            FILE *f = fopen(a, "r");
            if (!f) _exit(4);
            char buf[64];
            long long ln = 0;
            while (fileio_read_line(f, buf, (size_t)bound, &ln, a)) {}
        }
        _exit(42);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    fwrite(text, 1, len, f);
    fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/test_common_fileio_XXXXXX";
    T_CHECK(mkdtemp(dir) != NULL);
    char in[256], out[256], dot[256], dotdot[256], lnk[256], hard[256], sub[256], rel[256];
    snprintf(in, sizeof in, "%s/m.txt", dir);
    snprintf(out, sizeof out, "%s/o.txt", dir);
    snprintf(dot, sizeof dot, "%s/./m.txt", dir);
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(dotdot, sizeof dotdot, "%s/sub/../m.txt", dir);
    snprintf(lnk, sizeof lnk, "%s/link.txt", dir);
    snprintf(hard, sizeof hard, "%s/hard.txt", dir);
    write_file(in, "amr2d 1 1 0\r\n0 0 0\n\n# c\nlast", 28);
    T_CHECK(mkdir(sub, 0755) == 0);
    T_CHECK(symlink(in, lnk) == 0);
    T_CHECK(link(in, hard) == 0);

    /* the output guard */
    T_EQ_INT(child(OUT, out, in, 0), 42);     /* a new file beside the input */
    { /* a leftover out.tmp: replaced when a plain file; a link to another file (the write would
       * truncate it), a FIFO (the write would wait forever) or a directory is refused, exit 2 */
        char tmp[300], victim[300];
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        snprintf(victim, sizeof victim, "%s/victim.txt", dir);
        write_file(victim, "keep", 4);
        write_file(tmp, "old", 3);
        T_EQ_INT(child(OUT, out, in, 0), 42);
        unlink(tmp);
        T_CHECK(symlink(victim, tmp) == 0);
        T_EQ_INT(child(OUT, out, in, 0), 2);
        unlink(tmp);
        T_CHECK(mkfifo(tmp, 0600) == 0);
        T_EQ_INT(child(OUT, out, in, 0), 2);
        unlink(tmp);
        T_CHECK(mkdir(tmp, 0700) == 0);
        T_EQ_INT(child(OUT, out, in, 0), 2);
        rmdir(tmp);
        FILE *f = fopen(victim, "r");
        char got[8] = "";
        T_CHECK(f && fgets(got, sizeof got, f) && !strcmp(got, "keep"));
        if (f) fclose(f);
        unlink(victim);
    }
    T_EQ_INT(child(OUT, in, in, 0), 2);       /* the input itself */
    T_EQ_INT(child(OUT, dot, in, 0), 2);      /* through ./ */
    T_EQ_INT(child(OUT, dotdot, in, 0), 2);   /* through ../ */
    T_EQ_INT(child(OUT, lnk, in, 0), 2);     /* a symlink to the input */
    T_EQ_INT(child(OUT, in, lnk, 0), 2);     /* the input given as a symlink */
    T_EQ_INT(child(OUT, hard, in, 0), 2);     /* a hard link */
    T_EQ_INT(child(OUT, sub, in, 0), 2);      /* a directory */
    T_EQ_INT(child(OUT, "/dev/null", in, 0), 2); /* a device */
    snprintf(rel, sizeof rel, "%s/nodir/o.txt", dir);
    T_EQ_INT(child(OUT, rel, in, 0), 2);      /* a directory that does not exist */
    snprintf(rel, sizeof rel, "%s/m.txt/o.txt", dir);
    T_EQ_INT(child(OUT, rel, in, 0), 2);      /* a "directory" that is a file */
    snprintf(rel, sizeof rel, "%s/new.txt", dir); /* not existing, named twice */
    T_EQ_INT(child(OUT, rel, rel, 0), 2);
    T_EQ_INT(child(OUT, "", in, 0), 2);
    snprintf(rel, sizeof rel, "%s/m", dir); /* m and m.tmp: neither is the input */
    T_EQ_INT(child(OUT, rel, in, 0), 42);
    snprintf(rel, sizeof rel, "%s/m.txt.tmp", dir);
    write_file(rel, "x", 1);
    T_EQ_INT(child(OUT, in, rel, 0), 2); /* --in=m.txt.tmp --out=m.txt: m.txt.tmp is written first */
    remove(rel);
    /* relative names: cwd = dir */
    char cwd[4096];
    T_CHECK(getcwd(cwd, sizeof cwd) != NULL);
    T_CHECK(chdir(dir) == 0);
    T_EQ_INT(child(OUT, "./m.txt", "m.txt", 0), 2);
    T_EQ_INT(child(OUT, "m.txt", in, 0), 2);
    T_EQ_INT(child(OUT, "o.txt", "m.txt", 0), 42);
    T_CHECK(chdir(cwd) == 0);

    /* the size guard */
    T_EQ_INT(child(SIZE, in, NULL, 28), 42);
    T_EQ_INT(child(SIZE, in, NULL, 27), 2);
    T_EQ_INT(child(SIZE, sub, NULL, 1000), 2);
    T_EQ_INT(child(SIZE, rel, NULL, 1000), 2);          /* missing */
    T_EQ_INT(child(SIZE, "/dev/zero", NULL, 1000), 42); /* not bounded by size: by the reader */

    /* the line reader: the lines, without their endings */
    FILE *f = fopen(in, "r");
    char buf[64];
    long long ln = 0;
    T_CHECK(fileio_read_line(f, buf, sizeof buf, &ln, in) && !strcmp(buf, "amr2d 1 1 0") && ln == 1);
    T_CHECK(fileio_read_line(f, buf, sizeof buf, &ln, in) && !strcmp(buf, "0 0 0") && ln == 2);
    T_CHECK(fileio_read_line(f, buf, sizeof buf, &ln, in) && !strcmp(buf, "") && ln == 3);
    T_CHECK(fileio_read_line(f, buf, sizeof buf, &ln, in) && !strcmp(buf, "# c") && ln == 4);
    T_CHECK(fileio_read_line(f, buf, sizeof buf, &ln, in) && !strcmp(buf, "last") && ln == 5);
    T_CHECK(fileio_read_line(f, buf, sizeof buf, &ln, in) == NULL && ln == 5);
    fclose(f);
    /* the longest line "amr2d 1 1 0\r" is 12 bytes: a 13-byte buffer holds it, 12 does not */
    T_EQ_INT(child(READ_ALL, in, NULL, 13), 42);
    T_EQ_INT(child(READ_ALL, in, NULL, 12), 2);
    write_file(out, "0 0 0\n\0junk\n", 12);
    T_EQ_INT(child(READ_ALL, out, NULL, 64), 2);
    T_EQ_INT(child(READ_ALL, "/dev/zero", NULL, 64), 2);
    write_file(out, "", 0);
    T_EQ_INT(child(READ_ALL, out, NULL, 64), 42);

    remove(in); remove(out); remove(lnk); remove(hard); rmdir(sub); rmdir(dir);
    return T_DONE();
}

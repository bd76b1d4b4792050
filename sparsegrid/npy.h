/* sparsegrid/npy.h -- numpy's .npy format (version 1.0 / 2.0 / 3.0), read and written in plain C
 * for the hierarchize tool.  The format (numpy.lib.format): the magic "\x93NUMPY", two
 * version bytes, the header length (2 bytes little-endian in version 1, 4 bytes in 2 and 3),
 * then an ASCII Python dict, padded with spaces to a multiple of 64 bytes and ended by '\n':
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (2, 33, 33), }
 * then the raw values.  We accept little-endian float32 / float64 ('<f4', '<f8'), C order
 * only; everything else is refused with a message (the tool prints it and exits 2). */
#ifndef SPARSEGRID_NPY_H
#define SPARSEGRID_NPY_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPY_MAX_DIMS 16
#define NPY_MAX_HEADER 65536 /* longer headers are refused (numpy writes < 200 bytes) */

typedef struct {
    int elem;                      /* 4 (float32) or 8 (float64) */
    int ndim;
    long long shape[NPY_MAX_DIMS];
    long long count;               /* product of the shape */
    long long data_offset;         /* bytes before the values */
} npy_info;

/* Does the file name end in ".npy"? */
static inline int npy_is_npy_name(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && !strcmp(path + n - 4, ".npy");
}

/* The value of key in the header dict (after "'key':" and blanks), or NULL. */
static inline const char *npy_find_key(const char *hdr, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *p = strstr(hdr, pat);
    if (!p) {
        snprintf(pat, sizeof pat, "\"%s\"", key);
        p = strstr(hdr, pat);
    }
    if (!p) return NULL;
    p += strlen(pat);
    while (*p == ' ') p++;
    if (*p != ':') return NULL;
    p++;
    while (*p == ' ') p++;
    return p;
}

/* Reads and checks the header of an open .npy file of file_size bytes.  Returns 0, or -1
 * with a one-line message in err. */
static inline int npy_read_header(FILE *f, long long file_size, npy_info *h, char *err, size_t errsz)
{
    unsigned char pre[12];
    memset(h, 0, sizeof *h);
    if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6)) {
        snprintf(err, errsz, "not a .npy file (no \\x93NUMPY magic)");
        return -1;
    }
    int major = pre[6];
    long long hlen;
    if (major == 1) {
        hlen = pre[8] | (pre[9] << 8);
        h->data_offset = 10 + hlen;
    } else if (major == 2 || major == 3) {
        if (fread(pre + 10, 1, 2, f) != 2) { snprintf(err, errsz, ".npy header truncated"); return -1; }
        hlen = (long long)pre[8] | ((long long)pre[9] << 8) | ((long long)pre[10] << 16) | ((long long)pre[11] << 24);
        h->data_offset = 12 + hlen;
    } else {
        snprintf(err, errsz, ".npy version %d.%d is not supported (1.0, 2.0, 3.0 are)", major, pre[7]);
        return -1;
    }
    if (hlen > NPY_MAX_HEADER) { snprintf(err, errsz, ".npy header of %lld bytes (at most %d accepted)", hlen, NPY_MAX_HEADER); return -1; }
    if (h->data_offset > file_size) { snprintf(err, errsz, ".npy header of %lld bytes runs past the end of the file", hlen); return -1; }
    char *hdr = (char *)malloc(hlen + 1);
    if (!hdr) { snprintf(err, errsz, "out of memory"); return -1; }
    if (fread(hdr, 1, hlen, f) != (size_t)hlen) { free(hdr); snprintf(err, errsz, ".npy header truncated"); return -1; }
    hdr[hlen] = '\0';
    if (memchr(hdr, '\0', hlen)) { free(hdr); snprintf(err, errsz, ".npy header holds a NUL byte"); return -1; }
    int rc = -1;
    const char *d = npy_find_key(hdr, "descr"), *fo = npy_find_key(hdr, "fortran_order"), *sh = npy_find_key(hdr, "shape");
    if (!d || !fo || !sh) {
        snprintf(err, errsz, ".npy header lacks %s", !d ? "'descr'" : !fo ? "'fortran_order'" : "'shape'");
    } else if (!strncmp(d, "'<f4'", 5) || !strncmp(d, "'<f8'", 5) || !strncmp(d, "\"<f4\"", 5) || !strncmp(d, "\"<f8\"", 5)) {
        h->elem = d[3] == '4' ? 4 : 8;
        if (strncmp(fo, "False", 5)) {
            snprintf(err, errsz, ".npy data in Fortran order (fortran_order must be False: use numpy.ascontiguousarray)");
        } else if (*sh != '(') {
            snprintf(err, errsz, ".npy 'shape' is not a tuple");
        } else {
            const char *p = sh + 1;
            h->count = 1;
            rc = 0;
            for (;;) {
                while (*p == ' ') p++;
                if (*p == ')') break;
                char *end;
                long long v = strtoll(p, &end, 10);
                if (end == p || v < 0 || h->ndim == NPY_MAX_DIMS || (v > 0 && h->count > (1LL << 62) / v)) {
                    snprintf(err, errsz, ".npy 'shape' malformed or too large");
                    rc = -1;
                    break;
                }
                h->shape[h->ndim++] = v;
                h->count *= v;
                p = end;
                while (*p == ' ') p++;
                if (*p == ',') p++;
                else if (*p != ')') { snprintf(err, errsz, ".npy 'shape' malformed"); rc = -1; break; }
            }
            /* count * elem may pass 2^63 (count <= 2^62): compare the count with the data's */
            if (!rc && (h->count > (file_size - h->data_offset) / h->elem ||
                        h->data_offset + h->count * h->elem != file_size)) {
                snprintf(err, errsz, ".npy shape holds %lld values (%lld bytes each) but the file has %lld bytes of data",
                         h->count, (long long)h->elem, file_size - h->data_offset);
                rc = -1;
            }
        }
    } else {
        int n = 0;
        while (d[n] && d[n] != ',' && n < 16) n++;
        snprintf(err, errsz, ".npy dtype %.*s is not supported (little-endian float32 '<f4' or float64 '<f8')", n, d);
    }
    free(hdr);
    return rc;
}

/* Writes a version 1.0 header for ndim-dimensional C-order data of elem-byte floats.
 * Returns 0, or -1 on a write error. */
static inline int npy_write_header(FILE *f, int elem, int ndim, const long long *shape)
{
    char dict[1024];
    int n = snprintf(dict, sizeof dict, "{'descr': '<f%d', 'fortran_order': False, 'shape': (", elem);
    for (int i = 0; i < ndim; i++) /* as numpy writes it: (2, 33, 33) and (5,) */
        n += snprintf(dict + n, sizeof dict - n, "%lld%s", shape[i], i + 1 < ndim ? ", " : ndim == 1 ? "," : "");
    n += snprintf(dict + n, sizeof dict - n, "), }");
    int total = (10 + n + 1 + 63) / 64 * 64; /* magic + version + length + dict + '\n', padded to 64 */
    int hlen = total - 10;
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xFF), (unsigned char)(hlen >> 8)};
    if (fwrite(pre, 1, 10, f) != 10 || fwrite(dict, 1, n, f) != (size_t)n) return -1;
    for (int i = n; i < hlen - 1; i++)
        if (fputc(' ', f) == EOF) return -1;
    return fputc('\n', f) == EOF ? -1 : 0;
}

#endif

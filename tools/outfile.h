/* outfile.h - how the tool writes its output files without ever destroying
 * the path it was given. A regular file, or a path that does not exist yet,
 * is written to a temporary file in the same folder (".NAME.XXXXXX") that
 * replaces it by rename only once everything was written, so a failed run
 * leaves the old file as it was. Anything else (a device such as /dev/full,
 * a FIFO, standard output) is written directly, since renaming over it
 * would replace the device or pipe itself. Symbolic links are followed: the
 * file at the end of the chain is replaced and the link stays a link. On
 * failure only the temporary file is removed. Details in docs/cli.md.
 *
 *   outfile out;
 *   int err = outfile_open(&out, path);
 *   if (!err)
 *       err = write_it(out.f) ? outfile_abort(&out, errno) : outfile_commit(&out);
 *   if (err)
 *       fprintf(stderr, "gjkbatch: %s\n", out.message);
 */
#ifndef GJKB_TOOLS_OUTFILE_H
#define GJKB_TOOLS_OUTFILE_H

#include <stdio.h>

typedef struct outfile {
    FILE *f;                /* where to write, between open and commit or abort */
    const char *path;       /* as given, for messages */
    char *target;           /* the file the temporary replaces; NULL when direct */
    char *tmp;              /* the temporary file; NULL when direct */
    int is_stdout;
    char message[4400];     /* why the last call failed (a path fits) */
} outfile;

/* Opens path for writing as described above. Returns 0, or -1 with
 * out->message set (nothing was created). */
int outfile_open(outfile *out, const char *path);

/* Standard output, written directly (commit flushes it, never closes it). */
void outfile_stdout(outfile *out);

/* Finishes a complete write: closes the file and, for a temporary file,
 * renames it over the target. Returns 0, or -1 with out->message set and the
 * temporary file removed. */
int outfile_commit(outfile *out);

/* Gives up after a failed write (err: its errno, named in out->message):
 * closes the file and removes the temporary file, nothing else. Returns -1
 * so that a caller can pass on its result. */
int outfile_abort(outfile *out, int err);

#endif

/* out_file.c: a report to stdout, to a device or FIFO in place, or to a
 * file written whole; see out_file.h. */
#include "output/out_file.h"
#include "output/output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A character device or FIFO, reached directly or through a symbolic
 * link (/dev/stdout): written where it is. */
static int in_place(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

int sb_out_check(const char *path, char *err, size_t errlen)
{
	if (sb_safe_file_path_ok(path, err, errlen) != 0)
		return -1;
	if (in_place(path))
		return 0;
	return sb_safe_file_check(path, err, errlen);
}

int sb_out_open(struct sb_out *o, const char *path, const char *tool)
{
	memset(o, 0, sizeof(*o));
	o->tool = tool;
	o->f = stdout;
	o->sf.slot = -1;
	if (!path)
		return 0;
	char err[SB_SAFE_FILE_PATH_MAX + 256];
	if (sb_safe_file_path_ok(path, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --output: %s\n", tool, err);
		return -1;
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	if (in_place(path)) {
		o->kind = 1;
		o->f = fopen(path, "w");
		if (!o->f) {
			fprintf(stderr, "%s: --output: cannot write '%s': %s\n", tool, path, strerror(errno));
			return -1;
		}
		return 0;
	}
	o->kind = 2;
	if (sb_safe_file_open(&o->sf, path, 0, err, sizeof(err)) != 0) {
		o->f = NULL;
		fprintf(stderr, "%s: --output: %s\n", tool, err);
		return -1;
	}
	o->f = o->sf.f;
	return 0;
}

int sb_out_close(struct sb_out *o)
{
	if (!o->f)
		return 0;
	FILE *f = o->f;
	o->f = NULL;
	if (o->kind == 0) {
		if (fflush(stdout) == 0 && !ferror(stdout))
			return 0;
		sb_output_write_failed(stdout, o->tool, sb_stream_errno(stdout));
		return -1;
	}
	if (o->kind == 1) {
		errno = 0;
		int bad = fflush(f) != 0 || ferror(f);
		int err = bad ? sb_stream_errno(f) : 0;
		if (fclose(f) != 0 && !bad) {
			bad = 1;
			err = errno;
		}
		if (bad)
			fprintf(stderr, "%s: --output: cannot write '%s': %s\n", o->tool, o->path, strerror(err));
		return bad ? -1 : 0;
	}
	char err[SB_SAFE_FILE_PATH_MAX + 256];
	if (sb_safe_file_commit(&o->sf, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --output: %s\n", o->tool, err);
		return -1;
	}
	return 0;
}

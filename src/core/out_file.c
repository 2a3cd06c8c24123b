/* out_file.c: a report to stdout or to a file written whole; see out_file.h. */
#include "stubbench/out_file.h"
#include "stubbench/output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sb_out_open(struct sb_out *o, const char *path, const char *tool)
{
	memset(o, 0, sizeof(*o));
	o->tool = tool;
	o->f = stdout;
	if (!path)
		return 0;
	if (strlen(path) >= sizeof(o->path)) {
		fprintf(stderr, "%s: --output: file name too long\n", tool);
		return -1;
	}
	snprintf(o->path, sizeof(o->path), "%s", path);
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp", path);
	o->f = fopen(o->tmp, "w");
	if (!o->f) {
		fprintf(stderr, "%s: --output: cannot write %s: %s\n", tool, o->tmp, strerror(errno));
		return -1;
	}
	return 0;
}

int sb_out_close(struct sb_out *o)
{
	if (!o->f)
		return 0;
	if (!o->path[0]) {
		o->f = NULL;
		if (fflush(stdout) == 0 && !ferror(stdout))
			return 0;
		sb_output_write_failed(stdout, o->tool, errno ? errno : EIO);
		return -1;
	}
	int bad = fflush(o->f) != 0 || ferror(o->f);
	int err = errno;
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path) != 0) {
		bad = 1;
		err = errno;
	}
	if (bad) {
		fprintf(stderr, "%s: --output: cannot write %s: %s\n", o->tool, o->path, strerror(err));
		unlink(o->tmp);
		return -1;
	}
	return 0;
}

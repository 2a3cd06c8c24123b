/* The perf map (/tmp/perf-PID.map) in a directory everyone can write: a
 * symbolic link, a FIFO or a second hard link planted at its name is
 * refused with a line naming the map, and what it points to keeps its
 * bytes; a regular file left at the name is emptied and written. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "slurp.h"
#include "base/perf_map.h"

static char dir[] = "/tmp/perf_map_XXXXXX";

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	const char *map = sb_perf_map_path();
	char target[256], err[512], buf[4096];
	snprintf(target, sizeof(target), "%s/victim", dir);
	put(target, "keep\n");
	unlink(map);

	CHECK(symlink(target, map) == 0, "cannot plant the link");
	CHECK(sb_perf_map_add(0x1000, 16, "f", err, sizeof(err)) == -1, "a symbolic link was followed");
	CHECK(strstr(err, map) && strstr(err, "symbolic link"), "err: %s", err);
	CHECK(strcmp(slurp(target, buf, sizeof(buf)), "keep\n") == 0, "the link's target was written: %s", buf);
	unlink(map);

	CHECK(mkfifo(map, 0600) == 0, "cannot plant the FIFO");
	CHECK(sb_perf_map_add(0x1000, 16, "f", err, sizeof(err)) == -1, "a FIFO was taken");
	CHECK(strstr(err, map) != NULL, "err: %s", err);
	unlink(map);

	CHECK(link(target, map) == 0, "cannot plant the hard link");
	CHECK(sb_perf_map_add(0x1000, 16, "f", err, sizeof(err)) == -1, "a second link was written");
	CHECK(strstr(err, "more than one link") != NULL, "err: %s", err);
	CHECK(strcmp(slurp(target, buf, sizeof(buf)), "keep\n") == 0, "the linked file was written: %s", buf);
	unlink(map);

	put(map, "old line of an earlier process\n");
	CHECK(sb_perf_map_add(0x1000, 16, "f", err, sizeof(err)) == 0, "err: %s", err);
	CHECK(sb_perf_map_add(0x2000, 32, "g", err, sizeof(err)) == 0, "err: %s", err);
	CHECK(strcmp(slurp(map, buf, sizeof(buf)), "1000 10 f\n2000 20 g\n") == 0, "map: %s", buf);
	unlink(map);
	unlink(target);
	rmdir(dir);
	return check_report("perf_map");
}

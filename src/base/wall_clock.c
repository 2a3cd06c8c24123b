/* wall_clock.c: this process's age; see wall_clock.h. */
#include "base/wall_clock.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double sb_process_age_s(void)
{
	char buf[1024];
	FILE *f = fopen("/proc/self/stat", "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* Field 22, starttime, counted after the command name's closing ')'. */
	const char *p = strrchr(buf, ')');
	unsigned long long start = 0;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
			 &start) != 1)
		return 0;
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec now;
	if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0)
		return 0;
	double age = (double)now.tv_sec + (double)now.tv_nsec / 1e9 - (double)start / (double)hz;
	return age > 0 ? age : 0;
}

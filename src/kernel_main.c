/* kernel_main.c: `stubbench kernel` (temporary: dump only). */
#include "stubbench/jit.h"
#include "stubbench/kernel.h"

#include <stdio.h>
#include <string.h>

int sb_kernel_main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp/jitdump";
	char err[512];
	enum sb_kernel_status st;
	struct sb_kernel_obj *o = sb_kernel_load(4, &st, err, sizeof(err));
	if (!o) {
		fprintf(stderr, "%s\n", err);
		return st;
	}
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++) {
			int fd = sb_kernel_prog_fd(o, s, v);
			uint64_t before = sb_kernel_hits(o, s, v);
			int rc = sb_kernel_test_run(fd, 0);
			printf("%s rc=%d hits +%llu\n", sb_kernel_prog_name(s, v), rc,
			       (unsigned long long)(sb_kernel_hits(o, s, v) - before));
			struct sb_jit_image img;
			if (sb_jit_read(fd, &img, err, sizeof(err))) {
				fprintf(stderr, "%s\n", err);
				continue;
			}
			if (sb_jit_dump(dir, &img, err, sizeof(err)))
				fprintf(stderr, "%s\n", err);
			sb_jit_image_free(&img);
		}
	sb_kernel_unload(o);
	return 0;
}

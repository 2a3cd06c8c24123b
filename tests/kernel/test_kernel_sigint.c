/* Ctrl-C during `stubbench kernel`: the run stops, exits 130 and leaves no
 * BPF program loaded. The child prints the ids of every program it loaded
 * (--verbose); once it is measuring, it gets SIGINT, and afterwards none of
 * those ids may still exist. SKIPs (77) where BPF cannot be used.
 * usage: test_kernel_sigint PATH/TO/stubbench (runs `stubbench kernel`) */
#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "prog_loaded.h"
#include "kernel/loader.h"
#include "kernel/probe.h"

#define MAX_IDS 64

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s STUBBENCH\n", argv[0]);
		return 2;
	}
	char why[512];
	if (sb_kernel_probe(why, sizeof(why)) != SB_KERNEL_OK) {
		printf("SKIP: %s\n", why);
		return 77;
	}
	int errp[2];
	if (pipe(errp) != 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		close(errp[0]);
		execl(argv[1], argv[1], "kernel", "--verbose", "--shape=in-loop", "--batch=4096,64", "--time=120", (char *)NULL);
		_exit(127);
	}
	close(errp[1]);
	FILE *err = fdopen(errp[0], "r");
	uint32_t ids[MAX_IDS];
	size_t n_ids = 0, loaded_lines = 0;
	char line[2048];
	char all[65536] = ""; /* eight loads print many verbose lines */
	while (loaded_lines < 2 && fgets(line, sizeof(line), err)) {
		strncat(all, line, sizeof(all) - strlen(all) - 1);
		if (!strstr(line, "loaded batch_iters="))
			continue;
		loaded_lines++;
		for (char *p = strstr(line, "id="); p && n_ids < MAX_IDS; p = strstr(p + 3, "id="))
			ids[n_ids++] = (uint32_t)strtoul(p + 3, NULL, 10);
	}
	if (loaded_lines < 2) {
		int status;
		waitpid(pid, &status, 0);
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		if (code >= SB_KERNEL_NO_CAP && code <= SB_KERNEL_NO_PRIV_STACK) {
			printf("SKIP: stubbench kernel exited %d: %s", code, all);
			return 77;
		}
		CHECK(0, "child exited %d before loading: %s", code, all);
		return check_report("kernel_sigint");
	}
	CHECK(n_ids == 2 * 7, "%zu program ids in the verbose lines", n_ids);
	for (size_t i = 0; i < n_ids; i++)
		CHECK(prog_exists(ids[i]), "program id %u not loaded while the child runs", ids[i]);
	/* Let it reach the measurement, then interrupt. */
	nanosleep(&(struct timespec){1, 500 * 1000 * 1000}, NULL);
	kill(pid, SIGINT);
	while (fgets(line, sizeof(line), err))
		strncat(all, line, sizeof(all) - strlen(all) - 1);
	int status;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == SB_KERNEL_INTERRUPTED, "child status %#x, stderr: %s",
	      status, all);
	CHECK(strstr(all, "interrupted; every BPF program unloaded") != NULL, "no interruption message: %s", all);
	for (size_t i = 0; i < n_ids; i++) {
		int gone = 0;
		for (int tries = 0; tries < 100 && !gone; tries++) {
			gone = !prog_exists(ids[i]);
			if (!gone)
				nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
		}
		CHECK(gone, "program id %u still loaded after the interrupted run", ids[i]);
	}
	return check_report("kernel_sigint");
}

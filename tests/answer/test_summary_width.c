/* test_summary_width.c: every summary line within SB_ANSWER_MAX_COLUMNS
 * whatever the CPU's model string: recorded runs (the sweep, the kernel
 * run, kernel --obj) read back, their machine replaced by long real model
 * strings, under each command's name and the longest return thunk name
 * (stubbench diff's recorded runs with its own lines too);
 * and the CPU's name as an engineer writes it.
 * usage: test_summary_width DATA_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "answer/answer.h"
#include "answer/kernel_obj_answer.h"
#include "answer/kernel_verdict.h"
#include "saved/run_diff.h"

static const char *const models[] = {
	"Intel(R) Xeon(R) Platinum 8592+, 2 cores / 2 PUs, Linux 6.18.44-fc-v1252",
	"Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz, 2 cores / 2 PUs, Linux 6.18.44",
	"AMD EPYC 9654P 96-Core Processor, 2 cores / 2 PUs, Linux 6.18.44",
	"Intel(R) Xeon(R) Processor, 2 cores / 2 PUs, Linux 6.18.44-fc-v1252",
	/* No commas and longer than any real one. */
	"Vendor(R) Very Long Marketing Name Processor With Many Words Model 123456789 v9 Edition",
};
static const char *const tools[] = {"stubbench", "stubbench kernel", "stubbench kernel --obj", "stubbench diff",
				    "stubbench lab"};

static void names(void)
{
	static const char *const want[][2] = {
		{"Intel(R) Xeon(R) Platinum 8592+", "Intel Xeon Platinum 8592+"},
		{"Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz", "Intel Xeon E5-2699 v4"},
		{"AMD EPYC 9654P 96-Core Processor", "AMD EPYC 9654P"},
		{"Intel(R) Xeon(R) Processor, 2 cores", "Intel Xeon"},
		{"Intel(R) Core(TM) i7-8565U CPU @ 1.80GHz", "Intel Core i7-8565U"},
		{"", "unknown CPU"},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char buf[128];
		sb_answer_cpu_name(want[i][0], buf, sizeof(buf));
		CHECK(strcmp(buf, want[i][1]) == 0, "%s: '%s', want '%s'", want[i][0], buf, want[i][1]);
	}
}

/* Every line of the summary of rf within the columns; the header names the CPU. */
static void widths(const char *path, sb_answer_fn own)
{
	struct sb_run_file rf;
	char err[512];
	if (sb_run_file_load(path, &rf, err, sizeof(err)) != 0) {
		CHECK(0, "%s", err);
		return;
	}
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); m++)
		for (size_t t = 0; t < sizeof(tools) / sizeof(tools[0]); t++) {
			snprintf(rf.machine, sizeof(rf.machine), "%s", models[m]);
			rf.id.known = 0; /* named by the model string, as a run saved before its CPUID */
			snprintf(rf.tool, sizeof(rf.tool), "%s", tools[t]);
			snprintf(rf.thunk, sizeof(rf.thunk), "srso_alias_return_thunk");
			rf.cpu = 127;
			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);
			if (!f) {
				CHECK(0, "open_memstream");
				continue;
			}
			sb_answer_write(f, &rf, own);
			fclose(f);
			int n = 0, widest = 0;
			for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"), n++)
				if ((int)strlen(line) > widest)
					widest = (int)strlen(line);
			CHECK(n >= 2 && widest <= SB_ANSWER_MAX_COLUMNS, "%s as '%s' under '%s': %d lines, widest %d",
			      path, models[m], tools[t], n, widest);
			CHECK(strstr(text, m == 2 ? "AMD EPYC 9654P" : m == 4 ? "Vendor" : "Intel Xeon"),
			      "%s: the header names the CPU: %.100s", path, text);
			free(text);
		}
	sb_run_file_free(&rf);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_summary_width DATA_DIR\n");
		return 2;
	}
	char path[1024];
	names();
	snprintf(path, sizeof(path), "%s/answer_sweep.json", argv[1]);
	widths(path, NULL);
	snprintf(path, sizeof(path), "%s/answer_kernel.json", argv[1]);
	widths(path, sb_kernel_answer);
	snprintf(path, sizeof(path), "%s/answer_kernel_obj.json", argv[1]);
	widths(path, sb_kernel_obj_answer);
	snprintf(path, sizeof(path), "%s/answer_diff.json", argv[1]);
	widths(path, sb_diff_answer);
	snprintf(path, sizeof(path), "%s/answer_diff_no_parts.json", argv[1]);
	widths(path, sb_diff_answer);
	return check_report("test_summary_width");
}

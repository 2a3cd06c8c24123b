/* deprivatize_command.c: "stubbench deprivatize FILE": its options and
 * the twin made and printed in the library (deprivatize_run.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "twins/deprivatize_run.h"

/* The twin group's values (--func, --stack-depth, --privatize, --frame-ptr,
 * --gs-disp, --against); the operand FILE goes in when the command runs. */
static struct sb_deprivatize_run_opts twin = {.stack_depth = -1};

enum { K_FUNC, K_DEPTH, K_PRIVATIZE, K_FRAME, K_GS, K_AGAINST };

static int parse_number(const char *opt, const char *arg, uint64_t max, uint64_t *v, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(arg, &end, 0);
	if (!*arg || *arg == '-' || *end || errno || x > max) {
		snprintf(err, errlen, "--%s: '%s' is not a number up to %#" PRIx64 " (decimal or 0x hex)", opt, arg,
			 max);
		return -1;
	}
	*v = x;
	return 0;
}

static int parse_twin(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	uint64_t v = 0;
	switch (key) {
	case K_FUNC:
	case K_AGAINST:
		if (!*arg) {
			snprintf(err, errlen, "--%s: empty", key == K_FUNC ? "func" : "against");
			return -1;
		}
		*(key == K_FUNC ? &twin.func : &twin.against) = arg;
		return 0;
	case K_PRIVATIZE:
		twin.privatize = 1;
		return 0;
	case K_DEPTH:
		if (parse_number("stack-depth", arg, 512, &v, err, errlen))
			return -1;
		twin.stack_depth = (long)v;
		return 0;
	case K_FRAME:
		return parse_number("frame-ptr", arg, UINT64_MAX, &twin.frame_ptr, err, errlen);
	default:
		if (parse_number("gs-disp", arg, UINT32_MAX, &v, err, errlen))
			return -1;
		twin.gs_disp = (uint32_t)v;
		return 0;
	}
}

static const struct sb_cli_group twin_group = {
	.title = "Twin",
	.options = (const struct sb_cli_option[]){
		{"func", "NAME", K_FUNC, "the function of FILE (default: the first with a private stack, or\n"
					 "with --privatize the first without)"},
		{"stack-depth", "N", K_DEPTH, "sub rsp of the twin, rounded up to 8 (default: the deepest\n"
					      "r9 frame offset the code reaches)"},
		{"privatize", NULL, K_PRIVATIZE, "the reverse: give a function without a private stack one"},
		{"frame-ptr", "ADDR", K_FRAME, "with --privatize: the per-CPU frame pointer r9 is loaded with\n"
					       "(default 0: xor r9d, r9d; the kernel's lie above 4 GiB: movabs)"},
		{"gs-disp", "DISP", K_GS, "with --privatize: the add r9, gs:[DISP] displacement (default 0)"},
		{"against", "FILE", K_AGAINST, "compare the twin with the kernel's JIT of the same function\n"
					       "the other way, instruction by instruction, addresses masked"},
		{NULL},
	},
	.parse = parse_twin,
};

static int run_deprivatize(struct sb_cli *cli)
{
	if (cli->n_operands != 1) {
		fprintf(stderr, "stubbench deprivatize: needs one FILE (see --help)\n");
		return EXIT_USAGE;
	}
	twin.path = cli->operands[0];
	return sb_deprivatize_run(&twin);
}

const struct sb_subcommand sb_deprivatize_command = {
	.name = "deprivatize",
	.summary = "Prints the twin of a JITed function with the other frame: a function with a private\n"
		   "stack as the kernel's JIT emits it without one (with --privatize, the reverse).\n"
		   "FILE: --dump-jit's .bin or .lst, a listing like the seeds', or the text of\n"
		   "bpftool prog dump jited PROG opcodes. docs/auto-twins.md says what a twin stands for.",
	.operands = "FILE",
	.groups = {&twin_group},
	.epilog = "exit status: 0 printed (and equal with --against), 1 differs from --against,\n"
		  "2 bad option, or a file that cannot be read or rewritten\n",
	.run = run_deprivatize,
};

/* cli_dump.h: a program's whole command line as JSON (PROGRAM
 * --dump-options), from which the build writes the man page and the bash
 * completion (cmake/cli_docs.py). docs/command-line.md describes the
 * document. */
#ifndef STUBBENCH_BENCH_CLI_DUMP_H
#define STUBBENCH_BENCH_CLI_DUMP_H

#include <stdio.h>

#include "cli.h"

#define SB_CLI_DUMP_OPTION "--dump-options"

/* Writes p's commands, their groups and options to f. Returns 0, or 1
 * (with one line on stderr) when f could not be written. */
int sb_cli_dump(FILE *f, const struct sb_program *p);

#endif

/* answer.h: the summary every measuring command prints first, in the table
 * format: at most SB_ANSWER_MAX_LINES lines within SB_ANSWER_MAX_COLUMNS
 * that say what the code costs per call on this machine, with CIs, and
 * stop (the full table follows with --table or --verbose).
 *
 *   stubbench: AMD EPYC (CPU 1), Linux 6.18.44, returns: srso_alias_return_thunk
 *   added cost per call at batch 4096 (95 % CI), as a randomly placed load pays it (flavour, return):
 *   host-private   +2.38 [+0.64, +4.07] cycles, +2.33 [+0.62, +3.98] % (host, rethunk)
 *     host-private ran 1.02 ± 0.02 times as long as host-baseline; codegen alone +2.91 [+0.66, +4.77]
 *
 * It reads a run's rows (run_file.h), so that a live run and a saved JSON
 * document print the same summary. The header line and the per-variant
 * lines are common; a command adds lines of its own (the kernel's figures
 * and verdicts, the lab's ranking) through an sb_answer_fn. */
#ifndef STUBBENCH_ANSWER_H
#define STUBBENCH_ANSWER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "saved/run_file.h"

#define SB_ANSWER_MAX_LINES 10
#define SB_ANSWER_MAX_COLUMNS 100

/* Prints a command's own lines of the summary, at most max_lines of them,
 * each within SB_ANSWER_MAX_COLUMNS. Returns how many it printed. */
typedef int (*sb_answer_fn)(FILE *f, const struct sb_run_file *rf, int max_lines);

/* The summary of rf: the header line (machine, CPU, kernel, rf->thunk),
 * then own's lines, or (own NULL) the per-variant lines. Returns the lines
 * printed. */
int sb_answer_write(FILE *f, const struct sb_run_file *rf, sb_answer_fn own);

/* The summary lines of the command whose runs tool names (a run's "tool":
 * "stubbench kernel", "stubbench kernel --obj", "stubbench lab", "stubbench
 * diff"; src/answer/answer_kinds.c), or NULL:
 * the per-variant lines. */
sb_answer_fn sb_answer_of_tool(const char *tool);
/* The codegen of the rows that answer what a run of tool measured ("new"
 * for stubbench diff: the change, not its parts' ablations), or NULL:
 * every variant's row. */
const char *sb_answer_lead_codegen(const char *tool);
/* The command whose summary a run of tool is, as the summary's header
 * names it: "stubbench kernel" for "stubbench kernel --obj", else tool. */
const char *sb_answer_command_of(const char *tool);

/* What sb_answer_write prints after the header without own lines: the
 * batch and what the figures are, the per-variant lines, where the rest
 * is. At most max_lines; returns the lines printed. */
int sb_answer_costs(FILE *f, const struct sb_run_file *rf, int max_lines);

/* The core states a sweep saw (rf->states; none: nothing): one line
 * naming the one state, or with two, one naming them and one with the
 * first variant's codegen per state, each with its CI. At most max_lines
 * (2); returns the lines printed. */
int sb_answer_core_states(FILE *f, const struct sb_run_file *rf, int max_lines);
/* The lines sb_answer_core_states prints with room enough: 0, 1 or 2. */
int sb_answer_core_states_lines(const struct sb_run_file *rf);

/* The header line alone: the command (sb_answer_command_of(rf->tool)),
 * machine, CPU, kernel, rf->thunk, within SB_ANSWER_MAX_COLUMNS whatever
 * the CPU's model string. */
void sb_answer_header(FILE *f, const struct sb_run_file *rf);
/* The kernel's release, uname's second word ("Linux 6.18.44-fc-v1147 #1
 * ..."), whole (full = 1) or its version alone ("Linux 6.18.44"). */
void sb_answer_kernel_release(const char *kernel, int full, char *buf, size_t len);
/* A CPU model string as an engineer writes it: up to its first comma,
 * without (R), (TM), "CPU", "Processor", the clock and the core count
 * ("Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz" -> "Intel Xeon E5-2699 v4"). */
void sb_answer_cpu_name(const char *model, char *buf, size_t len);

/* The per-variant lines: every variant with a delta to its baseline
 * (first its own flavour's, reference flavours after), at the largest batch
 * where it has one: its added cost in cycles and % (random placement: the
 * delta over the re-rolled states), the ratio to its baseline, and its
 * cost in a matched steady state ("codegen alone"). At most max_lines. */
int sb_answer_variants(FILE *f, const struct sb_run_file *rf, int max_lines);

/* The variant row the per-variant lines show first (at its largest
 * batch), or NULL. */
const struct sb_run_row *sb_answer_first_variant(const struct sb_run_file *rf);

/* An estimate as "+2.94 [+1.08, +4.83]" with as many decimals (2 to 4) as
 * its CI needs not to read as ±0.00 (1 for a CI that spans tens); "n/a" without a figure, and the
 * value alone without a CI. sign: print a + on positive values. */
void sb_answer_estimate(char *buf, size_t len, const struct sb_estimate *e, int sign);
/* What a signed cost's sign means, for the line that carries it:
 * "faster" where its CI lies below zero, "maybe faster" where only its
 * value does (the CI holds zero), "" where it is not negative. */
const char *sb_answer_faster(const struct sb_estimate *e);
/* Prints line to f with " (WORD)" after it, WORD sb_answer_faster(e),
 * where that fits within SB_ANSWER_MAX_COLUMNS, else the line alone; then
 * a newline. */
void sb_answer_line_faster(FILE *f, const char *line, const struct sb_estimate *e);
/* A delta in % as hyperfine's ratio: "1.03 ± 0.02" (half the CI's width,
 * decimals as sb_answer_estimate); "1.03 (no CI)" without a CI, "n/a"
 * without a figure. */
void sb_answer_ratio(char *buf, size_t len, const struct sb_estimate *delta_pct);

/* A row's codegen cost at identical layout: "+0.12 [-0.01, +0.30] next run"
 * (the range for the next run, where the record of past runs gives one),
 * else its CI, "... this run"; "none (why)" without a figure. */
void sb_answer_codegen(char *buf, size_t len, const struct sb_run_row *r);
/* The figure sb_answer_codegen prints of r: the next-run range or the codegen. */
const struct sb_estimate *sb_answer_codegen_figure(const struct sb_run_row *r);
/* 1 when r's codegen figure is against a padded baseline (a layout figure
 * beside it): the instructions' own cost; 0 when its pairs differ in
 * layout too (copy j against copy j of code of other lengths). */
int sb_answer_codegen_apart(const struct sb_run_row *r);
/* 1 when a codegen cost and what a placed load pays (placed) have
 * opposite signs and at least one of their CIs lies clear of zero. */
int sb_answer_signs_differ(const struct sb_estimate *codegen, const struct sb_estimate *placed);
/* The line that says so in words, after indent: "signs differ: codegen
 * +0.45, layout -6.41 (108 % of placed): the placement makes it faster". */
void sb_answer_signs_line(char *buf, size_t len, const char *indent, const struct sb_estimate *codegen,
			  const struct sb_estimate *placed, const struct sb_estimate *layout);
/* The line that says which figure answers which question. */
#define SB_ANSWER_QUOTE_LINE "quote codegen for what this JIT change costs, placed for what a loaded program pays here"
/* The parts of an attribution (attribution.h) by their cost, as the
 * summaries list them: order[0 .. t->n_parts) the parts' indexes, the
 * largest NOP-form cost (in magnitude) first. */
struct sb_attribution;
void sb_answer_parts_by_cost(const struct sb_attribution *t, size_t *order);
/* The summary's lines for an attribution whose cost is a state of the loop
 * (s: sb_attribution_state_of(t), verdict SB_ATTRIBUTION_STATE; else none):
 * which parts each NOPed alone cost about all of it (names[k]: part k's
 * name), that their figures do not add, the interaction and the layout, and
 * with room for a fifth line the range of the other parts. 4 or 5 lines;
 * none with room under 4. Returns the lines printed. */
struct sb_attribution_state;
int sb_answer_state_lines(FILE *f, const struct sb_attribution *t, const struct sb_attribution_state *s,
			  const char *const *names, int room);
/* The row of rf on side with codegen, shape (NULL: any) at batch, at no
 * placement; family NULL: any. NULL when there is none. */
const struct sb_run_row *sb_answer_find(const struct sb_run_file *rf, enum sb_cell_side side, const char *family,
					const char *codegen, const char *shape, uint64_t batch);
/* 1: r is a variant's figure: keyed, at no placement, not a baseline,
 * with a delta to its baseline. */
int sb_answer_variant_row(const struct sb_run_row *r);
/* The baseline row r's delta is against (same side, family, shape and
 * batch), or NULL. */
const struct sb_run_row *sb_answer_baseline_of(const struct sb_run_file *rf, const struct sb_run_row *r);
/* What r adds per call, cycles: its delta (%) of its baseline's cycles;
 * where no row is its baseline by key (diff's old side), the run's own
 * cycles figure; else absent. */
struct sb_estimate sb_answer_added_cycles(const struct sb_run_file *rf, const struct sb_run_row *r);
/* As sb_answer_variant_row, and in a run written before results had keys
 * (schema < 3) a row with a delta whose name this build's registry knows
 * as a variant, not a baseline: saved runs side by side (across_runs.h)
 * and the atlas (atlas.h) read old runs too. */
int sb_run_variant_row(const struct sb_run_row *r);
/* As sb_answer_added_cycles, with an old run's baseline the one the
 * registry gives its variant. */
struct sb_estimate sb_run_added_cycles(const struct sb_run_file *rf, const struct sb_run_row *r);
/* The largest batch size of rf's rows (0 without rows). */
uint64_t sb_answer_largest_batch(const struct sb_run_file *rf);

#endif

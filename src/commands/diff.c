/* diff.c: `stubbench diff OLD NEW`: the cost of a change to a JIT image
 * (docs/diff.md). Both sides are read (image_diff.h), their functions
 * paired and mapped old -> new, made into twins (diff_twin.h), measured
 * with OLD as the baseline (each side also in a group of its own at one
 * table of placements, as --padded measures; the parts interleaved at
 * identical layout, as annotate measures them), and reported through the
 * session (diff_report.c): the summary gives the cost per run and the
 * changed instructions, --table the full listing, JSON every row. See
 * diff.h. */
#include "commands/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_context.h"
#include "jit/code_variant.h"
#include "twins/deprivatize.h"
#include "twins/diff_twin.h"
#include "base/mitigations.h"
#include "variants/percpu.h"
#include "base/error.h"
#include "harness/variant_arms.h"
#include "output/out_file.h"
#include "session/command.h"

/* One measurement of OLD against NEW: the twins, the padded baseline, the
 * parts and their results. */
struct diff_run {
	struct sb_diff_context *c;
	enum sb_thunk thunk;           /* where the twins return */
	/* tw[0] OLD, tw[1] NEW for the total; tw[2], tw[3] the same code for
	 * the parts' group. */
	struct sb_diff_twin tw[4];
	size_t n_twins;
	struct sb_annotate an;         /* NEW's parts against OLD (of tw[3], tw[2]) */
	int parts;                     /* an made: the parts are measured */
	/* The padded baseline: NEW with every part NOPed (an_total's parts,
	 * of tw[1] and tw[0], give its layout arm), or NEW de-privatized at
	 * its layout (tw_pad); padded NULL: none. */
	struct sb_annotate an_total;
	struct sb_code_variant padded_cv;
	struct sb_diff_twin tw_pad;
	int layout_parts, have_padded, have_pad_twin;
	const struct sb_variant *padded;
	struct sb_return_thunk host;
	/* The total's group: its one other arm (NEW) and its padded baseline. */
	const struct sb_variant *new_arm[1], *padded_arm[1];
	struct sb_variant_arms arms;
	struct sb_results res, res_parts;
	int total_rc; /* the total's status (sb_measure_groups) */
};

/* A side read and its calls placed; 0, or SB_STATUS_USAGE said on stderr. */
static int read_side(const char *files, struct sb_jit_image *img, char *how, size_t howlen)
{
	char err[768];
	if (sb_jit_image_read_files(files, img, err, sizeof(err)) ||
	    sb_jit_image_place_calls(img, how, howlen, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", SB_DIFF_TOOL, err);
		return SB_STATUS_USAGE;
	}
	return 0;
}

/* Where the twins return: through the host's thunk (sysfs); without a
 * replica of it, with ret, said in one line. */
static enum sb_thunk twin_thunk(const struct sb_return_thunk *host)
{
	if (host->thunk != SB_THUNK_UNKNOWN && host->thunk != SB_THUNK_X86)
		return host->thunk;
	fprintf(stderr, "%s: this kernel's return thunk is %s (%s): the twins' thunk returns are ret\n", SB_DIFF_TOOL,
		sb_thunk_name(host->thunk), host->how);
	return SB_THUNK_RET;
}

/* NEW's parts against OLD (ablation.h), function i of each twin with
 * function i of the other. Returns 0, or -1 said in one line (the total
 * alone is measured then). */
static int parts_of(struct sb_annotate *an, struct sb_diff_twin *tw, size_t n_pairs)
{
	char err[512];
	/* Parts are cut function by function, twin against twin, and a twin
	 * holds its main prog and what it calls: where NEW's main reaches
	 * another number of functions than OLD's, the listings' pairs do not
	 * carry over, said so in those words. */
	size_t nn = tw[1].t.cv.n_funcs, no = tw[0].t.cv.n_funcs;
	if (nn != no) {
		fprintf(stderr, "%s: no cost per part, the total alone: NEW's main prog calls %zu other function%s, "
			"OLD's %zu\n  of the %zu paired; the parts compare the functions both main progs run, one with "
			"one\n", SB_DIFF_TOOL, nn - 1, nn == 2 ? "" : "s", no - 1, n_pairs);
		return -1;
	}
	if (sb_annotate_parts_of_code(an, &tw[1].t.cv, &tw[0].t.cv, err, sizeof(err))) {
		fprintf(stderr, "%s: no cost per part (%s): the total alone\n", SB_DIFF_TOOL, err);
		return -1;
	}
	return 0;
}

/* r's twins, r->n_twins of them (diff_run's tw). Returns 0, or
 * SB_STATUS_USAGE said. */
static int make_twins(struct diff_run *r)
{
	static const char *const names[4] = {"old", "new", "parts-old", "parts-new"};
	const struct sb_diff_context *c = r->c;
	char err[768];
	for (size_t s = 0; s < r->n_twins; s++)
		if (sb_diff_twin_make(s % 2 ? c->new_img : c->old, names[s], r->thunk, c->sets[s % 2], c->n_sets, &r->tw[s],
				      err, sizeof(err))) {
			fprintf(stderr, "%s: %s (%s): no twin: %s\n", SB_DIFF_TOOL, s % 2 ? "NEW" : "OLD",
				s % 2 ? c->new_files : c->old_files, err);
			while (s-- > 0)
				sb_diff_twin_free(&r->tw[s]);
			return SB_STATUS_USAGE;
		}
	for (size_t i = 0; i < c->n_sets; i++)
		if (!r->tw[0].held[i] && !r->tw[1].held[i]) {
			fprintf(stderr, "%s: --global=%s: no movabs of OLD or NEW points at %#llx or within %u bytes "
				"below it\n", SB_DIFF_TOOL, c->sets[0][i].what, (unsigned long long)c->sets[0][i].kaddr,
				SB_DIFF_TWIN_VALUES);
			for (size_t s = r->n_twins; s-- > 0;)
				sb_diff_twin_free(&r->tw[s]);
			return SB_STATUS_USAGE;
		}
	for (int s = 0; s < 2; s++) {
		if (!r->tw[s].counted)
			fprintf(stderr, "%s: %s: no counter the main prog increments: its calls are not counted\n",
				SB_DIFF_TOOL, s ? "new" : "old");
		sb_diff_twin_zeroed(&r->tw[s], &r->c->zeroed[s]);
		if (!r->c->zeroed[s].traced)
			fprintf(stderr, "%s: %s: its path could not be traced (%s)\n", SB_DIFF_TOOL, s ? "new" : "old",
				r->c->zeroed[s].why);
	}
	return 0;
}

/* Where NEW is OLD with a private stack (NEW de-privatized equals OLD,
 * addresses masked): NEW de-privatized at its own layout
 * (sb_deprivatize_padded) as a twin into *pad, OLD's code at NEW's length.
 * Returns 1 made, 0 not (NEW has no private stack, or is more than OLD
 * with one). */
static int padded_deprivatized(const struct sb_diff_context *c, enum sb_thunk th, struct sb_diff_twin *pad)
{
	const struct sb_jit_image *old = c->old, *nw = c->new_img;
	struct sb_jit_image dep, padded;
	struct sb_image_diff dd;
	char err[300];
	if (sb_deprivatize_image(nw, 0, &dep, err, sizeof(err)) <= 0) {
		sb_jit_image_free(&dep); /* none de-privatized: the copies it made */
		return 0;
	}
	int same = 0;
	if (sb_image_diff_make(old, &dep, &dd, err, sizeof(err)) == 0) {
		same = sb_image_diff_identical(&dd);
		sb_image_diff_free(&dd);
	}
	sb_jit_image_free(&dep);
	if (!same)
		return 0;
	if (sb_deprivatize_image(nw, 1, &padded, err, sizeof(err)) <= 0) {
		sb_jit_image_free(&padded);
		return 0;
	}
	int made = sb_diff_twin_make(&padded, "new-padded", th, c->sets[1], c->n_sets, pad, err, sizeof(err)) == 0;
	sb_jit_image_free(&padded);
	return made;
}

/* NEW's padded baseline into r->padded, or none. The padded baseline is
 * NEW with every part NOPed (annotate's layout arm, at NEW's length): NEW
 * against it is the codegen, it against OLD the layout. That is OLD's code
 * only where NEW adds instructions and changes or removes none (a changed
 * frame access NOPed is no access at all). Where NEW is OLD with a private
 * stack whose frame is r9-based, NEW de-privatized at its layout is; else
 * none. */
static void padded_baseline(struct diff_run *r)
{
	const struct sb_image_diff *d = r->c->d;
	char err[768];
	int only_added = sb_image_diff_count(d, SB_INSN_CHANGED) == 0 && sb_image_diff_count(d, SB_INSN_REMOVED) == 0;
	/* NEW's own parts (an's are of the parts' twins, whose bytes address
	 * their own buffers and counter): what its layout arm NOPs. */
	r->layout_parts = r->parts && only_added &&
			  sb_annotate_parts_of_code(&r->an_total, &r->tw[1].t.cv, &r->tw[0].t.cv, err, sizeof(err)) == 0;
	r->have_padded = r->layout_parts &&
			 sb_annotate_make_layout(SB_DIFF_TOOL, &r->tw[1].t.cv.v, &r->an_total, &r->padded_cv) == 0;
	r->padded = r->have_padded ? &r->padded_cv.v : NULL;
	r->have_pad_twin = !only_added && padded_deprivatized(r->c, r->thunk, &r->tw_pad);
	if (r->have_pad_twin)
		r->padded = &r->tw_pad.t.cv.v;
}

/* The total's group: OLD against NEW with NEW's padded baseline, each in
 * a group of its own at one table of placements (identical layout, not
 * interleaved: session.h). */
static struct sb_group total_group(struct diff_run *r)
{
	r->padded_arm[0] = r->padded;
	r->new_arm[0] = &r->tw[1].t.cv.v;
	return (struct sb_group){.baseline = &r->tw[0].t.cv.v, .others = r->new_arm, .n_others = 1,
				 .padded = r->padded_arm, .arms = &r->arms, .res = &r->res};
}

/* What diff measures: r's twins (the parts' too, unless total_only), NEW's
 * parts against OLD and its padded baseline; the total's group into g[0].
 * Returns 1, or -1 said (SB_STATUS_USAGE: no twin). */
static int diff_setup(const struct sb_config *cfg, void *vctx, struct sb_group *g)
{
	(void)cfg;
	struct diff_run *r = vctx;
	sb_return_thunk_from_sysfs(&r->host);
	r->thunk = twin_thunk(&r->host);
	if (make_twins(r)) {
		r->n_twins = 0; /* freed */
		return -1;
	}
	r->parts = r->n_twins == 4 && parts_of(&r->an, r->tw + 2, r->c->d ? r->c->d->n : 0) == 0;
	padded_baseline(r);
	g[0] = total_group(r);
	return 1;
}

/* OLD against NEW alone (g[0]), in half of --time when the parts take the
 * rest, then NEW's parts by ablation (annotate) in the rest of --time: the
 * total's arms run apart from the ablations, whose many arms of similar
 * code at identical layout slow each other down at small batch sizes
 * (results/amd-epyc-zen3-vm.md). --time bounds the process's age
 * (wall_clock.h): the parts' share leaves what their statistics take
 * beyond the harness's reserve (session/budget.c). Returns the total's
 * status, else the parts' (their SB_STATUS_USAGE, more parts than a run
 * holds, as SB_STATUS_FAILED: the total is reported all the same). */
static int diff_measure(const struct sb_config *run_cfg, void *vctx, struct sb_group *g, size_t n)
{
	struct diff_run *r = vctx;
	struct sb_config cfg = *run_cfg;
	cfg.measure.share = r->parts ? SB_SHARE_DIFF_TOTAL : SB_SHARE_ALL;
	cfg.measure.padded = 1;
	cfg.measure.contain = 1; /* the twins run code read from files */
	r->total_rc = sb_measure_groups(&cfg, SB_DIFF_TOOL, g, n);
	int prc = 0;
	if (r->total_rc == 0 && r->parts) {
		struct sb_config parts_cfg = *run_cfg;
		parts_cfg.measure.share = SB_SHARE_DIFF_PARTS;
		prc = sb_annotate_measure(&parts_cfg, SB_DIFF_TOOL, &r->an, &r->tw[3].t.cv.v, &r->tw[2].t.cv.v,
					  &r->res_parts);
	}
	r->c->an = r->parts && r->an.n_att ? &r->an : NULL;
	return r->total_rc ? r->total_rc : prc == SB_STATUS_USAGE ? SB_STATUS_FAILED : prc;
}

/* diff's report: both sides, their map and the parts' costs beside the
 * total's results, and the parts' where the total was measured. */
static void diff_report(struct sb_session *s, struct sb_group *g, size_t n, void *vctx, int rc)
{
	(void)g, (void)n, (void)rc;
	struct diff_run *r = vctx;
	snprintf(s->measurement_extra, sizeof(s->measurement_extra), "diff%s %.360s %.360s",
		 r->parts ? "" : " --no-parts", r->c->old_files, r->c->new_files);
	s->meta.thunk = &r->host;
	sb_diff_report_on(s, r->c);
	sb_session_add(s, &r->res, NULL);
	if (r->total_rc == 0 && r->parts)
		sb_session_add(s, &r->res_parts, "parts");
}

static void diff_cleanup(void *vctx)
{
	struct diff_run *r = vctx;
	if (r->parts)
		sb_ablation_free(&r->an.ab);
	if (r->have_padded)
		sb_code_variant_free(&r->padded_cv);
	if (r->layout_parts)
		sb_ablation_free(&r->an_total.ab);
	if (r->have_pad_twin)
		sb_diff_twin_free(&r->tw_pad);
	for (size_t s = r->n_twins; s-- > 0;)
		sb_diff_twin_free(&r->tw[s]);
	r->c->an = NULL;
}

static const struct sb_command diff_command = {
	.tool = SB_DIFF_TOOL,
	.max_groups = 1,
	.setup = diff_setup,
	.measure = diff_measure,
	.report_final = diff_report,
	.cleanup = diff_cleanup,
};

/* OLD against NEW, then (unless total_only) NEW's parts, run by the
 * session (command.h). The private stacks are set up first: a twin's path
 * is traced by running it (diff_twin.h); sb_command_run ends them. */
static int run_measured(const struct sb_config *cfg, struct sb_diff_context *c, int total_only)
{
	static struct diff_run r;
	char err[768];
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.n_twins = total_only ? 2 : 4;
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", SB_DIFF_TOOL, err);
		return SB_STATUS_FAILED;
	}
	return sb_command_run(&diff_command, cfg, &r);
}

/* o's --global values for each side into c->sets (names through each
 * side's "# global" lines). Returns 0, or SB_STATUS_USAGE said in one
 * line. */
static int resolve_globals(struct sb_diff_context *c, const struct sb_diff_options *o)
{
	_Static_assert(SB_DIFF_MAX_GLOBALS <= SB_TWIN_MAX_GLOBALS, "every --global fits a twin");
	struct sb_diff_global_arg args[SB_DIFF_MAX_GLOBALS];
	char err[512];
	int rc = 0;
	c->n_sets = o->n_globals < SB_DIFF_MAX_GLOBALS ? o->n_globals : SB_DIFF_MAX_GLOBALS;
	for (size_t i = 0; i < c->n_sets && rc == 0; i++)
		rc = sb_diff_global_parse(o->globals[i], &args[i], err, sizeof(err));
	for (int s = 0; s < 2 && rc == 0; s++)
		rc = sb_image_globals_read(s ? c->new_files : c->old_files, &c->globals[s], err, sizeof(err)) ||
		     sb_diff_globals_resolve(args, o->globals, c->n_sets, &c->globals[s], s ? "NEW" : "OLD", c->sets[s],
					     err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s: %s\n", SB_DIFF_TOOL, err);
	return rc ? SB_STATUS_USAGE : 0;
}

int sb_diff_run(const struct sb_config *cfg, const struct sb_diff_options *o)
{
	static struct sb_jit_image old, nw;
	static struct sb_image_diff d;
	static struct sb_diff_context c;
	c = (struct sb_diff_context){.old_files = o->old_files, .new_files = o->new_files, .old = &old,
				     .new_img = &nw, .d = &d};
	char err[768];
	int rc = read_side(c.old_files, &old, c.how[0], sizeof(c.how[0]));
	if (rc == 0)
		rc = read_side(c.new_files, &nw, c.how[1], sizeof(c.how[1]));
	if (rc == 0)
		rc = resolve_globals(&c, o);
	if (rc == 0 && sb_image_diff_make(&old, &nw, &d, err, sizeof(err))) {
		fprintf(stderr, "%s: %s against %s: %s\n", SB_DIFF_TOOL, c.old_files, c.new_files, err);
		rc = SB_STATUS_USAGE;
	}
	if (rc == 0 && sb_image_diff_identical(&d) && !o->measure_identical) {
		size_t n = sb_image_diff_count(&d, SB_INSN_SAME);
		/* The answer goes where --output says, as a measured one does. */
		struct sb_out out;
		if (sb_out_open(&out, cfg->out.output, SB_DIFF_TOOL) != 0)
			rc = SB_STATUS_FAILED;
		else {
			fprintf(out.f, "%s: no change: %s and %s hold the same code (%zu function%s, %zu instructions, "
				"addresses masked); --measure measures them anyway\n", SB_DIFF_TOOL, c.old_files,
				c.new_files, d.n, d.n == 1 ? "" : "s", n);
			if (sb_out_close(&out) != 0)
				rc = SB_STATUS_FAILED;
		}
	} else if (rc == 0)
		rc = run_measured(cfg, &c, o->total_only);
	sb_image_diff_free(&d);
	sb_jit_image_free(&old);
	sb_jit_image_free(&nw);
	return rc;
}

/* perf_counters.c: --counters=LIST through libpfm4 and perf_event_open. */
#include "harness/harness.h"
#include "counters/perf_counters.h"
#include "base/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

/* The listed events plus the two the set keeps for itself. */
#define MAX_EVENTS (SB_MAX_COUNTERS + 2)

struct event {
	char name[SB_COUNTER_NAME_MAX];  /* as listed */
	char pfm_name[160];              /* libpfm4's fully qualified name */
	struct perf_event_attr attr;
	int is_software;
	int listed;                      /* 0: opened for disturbance only */
	int fd;                          /* -1: not open */
	int open_errno;                  /* why not */
	uint64_t start_value, start_enabled, start_running;
	uint64_t last_delta;
};

/* Sums for one arm x batch. */
struct cell_sums {
	uint64_t samples, clean_samples;
	uint64_t iters, clean_iters;
	double all[MAX_EVENTS];    /* over every sample */
	double clean[MAX_EVENTS];  /* over samples without switch or migration */
};

struct sb_counter_set {
	struct event ev[MAX_EVENTS];
	size_t n_ev;
	size_t n_listed;
	int cs_idx, mig_idx;       /* disturbance events, -1 if not open */
	char note[512];
	/* binding */
	const struct sb_arm *arms;
	size_t n_arms;
	uint64_t *batches;
	size_t n_batches;
	struct cell_sums *cells;   /* n_arms x n_batches */
	/* last sample and totals */
	int in_sample;
	struct sb_sample_disturbance last, total;
	uint64_t n_samples, n_disturbed;
};

static int pfm_ready(char *err, size_t errlen)
{
	static int state; /* 0 not tried, 1 ok, -1 failed */
	static int rc;
	if (state == 0) {
		rc = pfm_initialize();
		state = rc == PFM_SUCCESS ? 1 : -1;
	}
	if (state < 0)
		sb_set_err(err, errlen, "--counters: libpfm4 does not initialise: %s", pfm_strerror(rc));
	return state > 0 ? 0 : -1;
}

/* Encodes one name; user level only for hardware events, every level for
 * software events, unless the name sets its own modifiers. */
static int encode(const char *name, struct event *e, char *err, size_t errlen)
{
	for (int pass = 0; pass < 2; pass++) {
		char *fstr = NULL;
		pfm_perf_encode_arg_t arg;
		memset(&arg, 0, sizeof(arg));
		memset(&e->attr, 0, sizeof(e->attr));
		arg.attr = &e->attr;
		arg.fstr = &fstr;
		arg.size = sizeof(arg);
		int plm = pass == 0 ? PFM_PLM3 : PFM_PLM0 | PFM_PLM3;
		int rc = pfm_get_os_event_encoding(name, plm, PFM_OS_PERF_EVENT, &arg);
		if (rc != PFM_SUCCESS) {
			sb_set_err(err, errlen,
				"--counters: unknown event '%s' (libpfm4: %s); try cycles, instructions, "
				"branches, branch-misses, L1-icache-load-misses, iTLB-load-misses, "
				"task-clock, context-switches, cpu-migrations",
				name, pfm_strerror(rc));
			free(fstr);
			return -1;
		}
		snprintf(e->pfm_name, sizeof(e->pfm_name), "%s", fstr ? fstr : name);
		free(fstr);
		e->is_software = e->attr.type == PERF_TYPE_SOFTWARE;
		if (!e->is_software)
			break;
	}
	e->attr.size = sizeof(e->attr);
	e->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	e->attr.disabled = 0;
	e->attr.inherit = 0;
	return 0;
}

static int same_event(const struct event *a, const struct event *b)
{
	return a->attr.type == b->attr.type && a->attr.config == b->attr.config &&
	       a->attr.config1 == b->attr.config1 && a->attr.exclude_user == b->attr.exclude_user &&
	       a->attr.exclude_kernel == b->attr.exclude_kernel;
}

/* Splits list into trimmed, checked names and encodes them into ev. */
static int parse_into(const char *list, struct event *ev, size_t max, char *err, size_t errlen)
{
	size_t n = 0;
	if (!list)
		return 0;
	if (pfm_ready(err, errlen))
		return -1;
	const char *p = list;
	while (1) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		while (len && isspace((unsigned char)*p)) {
			p++;
			len--;
		}
		while (len && isspace((unsigned char)p[len - 1]))
			len--;
		if (len == 0) {
			if (!comma && n == 0 && *list == '\0')
				return 0; /* "" lists nothing */
			sb_set_err(err, errlen, "--counters: empty event name in '%s'", list);
			return -1;
		}
		if (len >= SB_COUNTER_NAME_MAX) {
			sb_set_err(err, errlen, "--counters: event name '%.*s' is longer than %d characters",
				(int)len, p, SB_COUNTER_NAME_MAX - 1);
			return -1;
		}
		if (n == max) {
			sb_set_err(err, errlen, "--counters: more than %zu events in '%s'", max, list);
			return -1;
		}
		struct event *e = &ev[n];
		memset(e, 0, sizeof(*e));
		memcpy(e->name, p, len);
		e->name[len] = '\0';
		e->fd = -1;
		e->listed = 1;
		if (encode(e->name, e, err, errlen))
			return -1;
		for (size_t i = 0; i < n; i++) {
			if (same_event(&ev[i], e)) {
				sb_set_err(err, errlen, "--counters: '%s' is listed twice (same event as '%s')",
					e->name, ev[i].name);
				return -1;
			}
		}
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)n;
}

int sb_counters_parse(const char *list, char names[][SB_COUNTER_NAME_MAX], size_t max,
		      char *err, size_t errlen)
{
	struct event *ev = calloc(max ? max : 1, sizeof(*ev));
	if (!ev) {
		sb_set_err(err, errlen, "--counters: out of memory");
		return -1;
	}
	int n = parse_into(list, ev, max, err, errlen);
	for (int i = 0; i < n; i++)
		memcpy(names[i], ev[i].name, SB_COUNTER_NAME_MAX);
	free(ev);
	return n;
}

/* Why perf_event_open refused, in words a user can act on. */
static const char *open_reason(int e)
{
	switch (e) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return "not supported here (the kernel exposes no PMU for it";
	case EACCES:
	case EPERM:
		return "not permitted (needs root or CAP_PERFMON, or a lower "
		       "/proc/sys/kernel/perf_event_paranoid";
	case EMFILE:
		return "not opened (too many open files";
	default:
		return "refused by perf_event_open (";
	}
}

static void build_note(struct sb_counter_set *s)
{
	char bad[256] = "", good[256] = "";
	size_t nbad = 0, ngood = 0;
	int reason_errno = 0;
	for (size_t i = 0; i < s->n_ev; i++) {
		struct event *e = &s->ev[i];
		if (!e->listed)
			continue;
		char *dst = e->fd >= 0 ? good : bad;
		size_t *cnt = e->fd >= 0 ? &ngood : &nbad;
		size_t used = strlen(dst);
		snprintf(dst + used, 256 - used, "%s%s", *cnt ? ", " : "", e->name);
		(*cnt)++;
		if (e->fd < 0 && !reason_errno)
			reason_errno = e->open_errno;
	}
	if (!nbad) {
		s->note[0] = '\0';
		return;
	}
	/* What still counts where the kernel exposes no PMU: the software
	 * events, and annotate's timed ablations (docs/annotate.md). */
	int no_pmu = reason_errno == ENOENT || reason_errno == EOPNOTSUPP || reason_errno == ENODEV;
	snprintf(s->note, sizeof(s->note), "counters: %s %s: %s); carrying on %s%s%s", bad,
		 open_reason(reason_errno), strerror(reason_errno),
		 ngood ? "with " : "without counters", good,
		 !no_pmu ? ""
		 : ngood ? "; without a PMU, stubbench annotate times what each instruction costs"
			 : " (without a PMU: --counters=task-clock,context-switches; stubbench annotate "
			   "times what each instruction costs)");
}

static int open_event(struct event *e)
{
	int fd = perf_event_open(&e->attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		e->open_errno = errno;
		e->fd = -1;
		return -1;
	}
	e->fd = fd;
	return 0;
}

struct sb_counter_set *sb_counters_open(const char *list, char *err, size_t errlen)
{
	struct sb_counter_set *s = calloc(1, sizeof(*s));
	if (!s) {
		sb_set_err(err, errlen, "--counters: out of memory");
		return NULL;
	}
	int n = parse_into(list, s->ev, SB_MAX_COUNTERS, err, errlen);
	if (n < 0) {
		free(s);
		return NULL;
	}
	s->n_ev = s->n_listed = (size_t)n;
	s->cs_idx = s->mig_idx = -1;
	/* The disturbance events, unless listed already: set up by hand, so
	 * they work even where libpfm4 does not. */
	static const struct {
		const char *name;
		uint64_t config;
	} watch[] = {
		{"context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES},
		{"cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
	};
	for (size_t w = 0; w < 2; w++) {
		struct event probe;
		memset(&probe, 0, sizeof(probe));
		snprintf(probe.name, sizeof(probe.name), "%s", watch[w].name);
		snprintf(probe.pfm_name, sizeof(probe.pfm_name), "%s", watch[w].name);
		probe.fd = -1;
		probe.is_software = 1;
		probe.attr.type = PERF_TYPE_SOFTWARE;
		probe.attr.config = watch[w].config;
		probe.attr.size = sizeof(probe.attr);
		probe.attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		size_t at = s->n_ev;
		for (size_t i = 0; i < s->n_ev; i++)
			if (same_event(&s->ev[i], &probe))
				at = i;
		if (at == s->n_ev)
			s->ev[s->n_ev++] = probe;
		if (w == 0)
			s->cs_idx = (int)at;
		else
			s->mig_idx = (int)at;
	}
	for (size_t i = 0; i < s->n_ev; i++)
		open_event(&s->ev[i]);
	if (s->cs_idx >= 0 && s->ev[s->cs_idx].fd < 0)
		s->cs_idx = -1;
	if (s->mig_idx >= 0 && s->ev[s->mig_idx].fd < 0)
		s->mig_idx = -1;
	build_note(s);
	return s;
}

const char *sb_counters_note(const struct sb_counter_set *s)
{
	return s && s->note[0] ? s->note : NULL;
}

size_t sb_counters_n_listed(const struct sb_counter_set *s)
{
	return s ? s->n_listed : 0;
}

/* The index in ev of the i-th listed, opened event, or -1. */
static long open_column(const struct sb_counter_set *s, size_t i)
{
	for (size_t k = 0; k < s->n_ev; k++)
		if (s->ev[k].listed && s->ev[k].fd >= 0 && i-- == 0)
			return (long)k;
	return -1;
}

size_t sb_counters_n_open(const struct sb_counter_set *s)
{
	size_t n = 0;
	for (size_t k = 0; s && k < s->n_ev; k++)
		n += s->ev[k].listed && s->ev[k].fd >= 0;
	return n;
}

const char *sb_counters_name(const struct sb_counter_set *s, size_t i)
{
	long k = s ? open_column(s, i) : -1;
	return k < 0 ? NULL : s->ev[k].name;
}

const char *sb_counters_pfm_name(const struct sb_counter_set *s, size_t i)
{
	long k = s ? open_column(s, i) : -1;
	return k < 0 ? NULL : s->ev[k].pfm_name;
}

int sb_counters_bind(struct sb_counter_set *s, const struct sb_arm *arms, size_t n_arms,
		     const uint64_t *batches, size_t n_batches, char *err, size_t errlen)
{
	free(s->cells);
	free(s->batches);
	s->cells = calloc(n_arms * n_batches > 0 ? n_arms * n_batches : 1, sizeof(*s->cells));
	s->batches = calloc(n_batches ? n_batches : 1, sizeof(*s->batches));
	if (!s->cells || !s->batches) {
		free(s->cells);
		free(s->batches);
		s->cells = NULL;
		s->batches = NULL;
		sb_set_err(err, errlen, "counters: out of memory for %zu arms x %zu batches", n_arms,
			n_batches);
		return -1;
	}
	if (n_batches)
		memcpy(s->batches, batches, n_batches * sizeof(*batches));
	s->arms = arms;
	s->n_arms = n_arms;
	s->n_batches = n_batches;
	return 0;
}

/* value, time enabled, time running */
static int read_event(const struct event *e, uint64_t v[3])
{
	ssize_t got = read(e->fd, v, 3 * sizeof(uint64_t));
	return got == (ssize_t)(3 * sizeof(uint64_t)) ? 0 : -1;
}

void sb_counters_before_sample(void *ctx, size_t arm, size_t batch_idx)
{
	struct sb_counter_set *s = ctx;
	(void)arm;
	(void)batch_idx;
	/* Disturbance events first, hardware events last: nearest the sample. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < s->n_ev; i++) {
			struct event *e = &s->ev[i];
			uint64_t v[3];
			if (e->fd < 0 || e->is_software != !pass)
				continue;
			if (read_event(e, v) == 0) {
				e->start_value = v[0];
				e->start_enabled = v[1];
				e->start_running = v[2];
			}
		}
	}
	s->in_sample = 1;
}

void sb_counters_after_sample(void *ctx, size_t arm, size_t batch_idx)
{
	struct sb_counter_set *s = ctx;
	if (!s->in_sample)
		return;
	s->in_sample = 0;
	int multiplexed = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < s->n_ev; i++) {
			struct event *e = &s->ev[i];
			uint64_t v[3];
			if (e->fd < 0 || e->is_software != pass)
				continue;
			if (read_event(e, v) != 0) {
				e->last_delta = 0;
				continue;
			}
			uint64_t d = v[0] - e->start_value;
			uint64_t d_en = v[1] - e->start_enabled, d_run = v[2] - e->start_running;
			if (d_run < d_en) {
				multiplexed = 1;
				d = d_run ? (uint64_t)((double)d * (double)d_en / (double)d_run) : 0;
			}
			e->last_delta = d;
		}
	}
	s->last.context_switches = s->cs_idx >= 0 ? s->ev[s->cs_idx].last_delta : 0;
	s->last.cpu_migrations = s->mig_idx >= 0 ? s->ev[s->mig_idx].last_delta : 0;
	s->last.multiplexed = multiplexed;
	int disturbed = s->last.context_switches || s->last.cpu_migrations;
	s->total.context_switches += s->last.context_switches;
	s->total.cpu_migrations += s->last.cpu_migrations;
	s->total.multiplexed |= multiplexed;
	s->n_samples++;
	s->n_disturbed += disturbed;

	if (!s->cells || arm >= s->n_arms || batch_idx >= s->n_batches)
		return;
	struct cell_sums *c = &s->cells[arm * s->n_batches + batch_idx];
	uint64_t iters = s->batches[batch_idx];
	c->samples++;
	c->iters += iters;
	if (!disturbed) {
		c->clean_samples++;
		c->clean_iters += iters;
	}
	for (size_t i = 0; i < s->n_ev; i++) {
		if (s->ev[i].fd < 0)
			continue;
		c->all[i] += (double)s->ev[i].last_delta;
		if (!disturbed)
			c->clean[i] += (double)s->ev[i].last_delta;
	}
}

int sb_counters_last_sample(const struct sb_counter_set *s, struct sb_sample_disturbance *out)
{
	*out = s->last;
	if (s->cs_idx < 0 && s->mig_idx < 0)
		return -1;
	return s->last.context_switches || s->last.cpu_migrations;
}

void sb_counters_totals(const struct sb_counter_set *s, struct sb_sample_disturbance *out,
			uint64_t *samples, uint64_t *disturbed_samples)
{
	if (out)
		*out = s->total;
	if (samples)
		*samples = s->n_samples;
	if (disturbed_samples)
		*disturbed_samples = s->n_disturbed;
}

uint64_t sb_counters_disturbances_now(void *ctx)
{
	const struct sb_counter_set *s = ctx;
	uint64_t sum = 0;
	const int idx[2] = {s->cs_idx, s->mig_idx};
	for (int i = 0; i < 2; i++) {
		uint64_t v[3];
		if (idx[i] >= 0 && read_event(&s->ev[idx[i]], v) == 0)
			sum += v[0];
	}
	return sum;
}

/* Per-iteration value of event k in a cell. */
static double cell_value(const struct sb_counter_set *s, const struct cell_sums *cs, long k)
{
	if (!s->ev[k].is_software && cs->clean_iters)
		return cs->clean[k] / (double)cs->clean_iters;
	return cs->iters ? cs->all[k] / (double)cs->iters : 0.0;
}

size_t sb_counters_cell(const struct sb_counter_set *s, size_t arm, size_t batch_idx,
			double *per_iter, size_t max)
{
	if (!s->cells || arm >= s->n_arms || batch_idx >= s->n_batches)
		return 0;
	const struct cell_sums *cs = &s->cells[arm * s->n_batches + batch_idx];
	size_t cols = 0;
	for (long k; (k = open_column(s, cols)) >= 0; cols++)
		if (cols < max)
			per_iter[cols] = cell_value(s, cs, k);
	return cols;
}

void sb_counters_fill(const struct sb_counter_set *s, struct sb_results *r)
{
	size_t cols = 0;
	for (long k; cols < SB_MAX_COUNTERS && (k = open_column(s, cols)) >= 0; cols++)
		snprintf(r->counter_names[cols], sizeof(r->counter_names[cols]), "%s", s->ev[k].name);
	r->n_counters = cols;
	for (size_t c = 0; c < r->n_cells; c++) {
		struct sb_cell *cell = &r->cells[c];
		for (size_t j = 0; j < SB_MAX_COUNTERS; j++)
			cell->counters[j] = 0.0;
		if (!s->cells || !s->arms || !cell->arm || cell->arm < s->arms ||
		    cell->arm >= s->arms + s->n_arms)
			continue;
		long b = sb_batch_index(s->batches, s->n_batches, cell->batch);
		if (b >= 0)
			sb_counters_cell(s, (size_t)(cell->arm - s->arms), (size_t)b, cell->counters,
					 SB_MAX_COUNTERS);
	}
}

void sb_counters_close(struct sb_counter_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_ev; i++)
		if (s->ev[i].fd >= 0)
			close(s->ev[i].fd);
	free(s->cells);
	free(s->batches);
	free(s);
}

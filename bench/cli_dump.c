/* cli_dump.c: see cli_dump.h. The document:
 *   {"program": "stubbench", "version": "0.1.0",
 *    "groups": [{"title": "Sweep", "options": [{"name": "format", "arg": "FMT",
 *                "help": "...", "values": ["table", ...] or null}, ...]}, ...],
 *    "commands": [{"name": null (the program's own) or "lab", "built": true,
 *                  "part": null or "STUBBENCH_KERNEL", "summary": "...",
 *                  "epilog": ..., "operands": ..., "passthrough_prefix": ...,
 *                  "markers": {"B": "1,8,...", "T": "...", "F": "...", "P": "128", "S": "1024"},
 *                  "groups": [indices into groups]}, ...]}
 * help is the table's text: '\n' between lines, and the %X markers that
 * --help replaces with the command's markers["X"]. An option's values are
 * the words it takes, where the code that parses it can list them. A
 * command that was not built has only name, built and part. */
#include "cli_dump.h"

#include <errno.h>
#include <string.h>

#include "stubbench/format.h"
#include "output/json_doc.h"
#include "base/mitigations.h"
#include "harness/harness.h"
#include "output/reporter.h"

#define MAX_DUMP_GROUPS 64

/* The program's distinct groups, in the order its commands list them. */
struct group_list {
	const struct sb_cli_group *g[MAX_DUMP_GROUPS];
	size_t n;
};

/* g's index in l, added when new; -1 when l is full. */
static long group_index(struct group_list *l, const struct sb_cli_group *g)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->g[i] == g)
			return (long)i;
	if (l->n == MAX_DUMP_GROUPS)
		return -1;
	l->g[l->n++] = g;
	return (long)l->n - 1;
}

/* Each of the ", "-separated words of list, a string of array a. */
static void put_words(struct sb_doc *a, const char *list)
{
	while (*list) {
		size_t len = strcspn(list, ",");
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)len, list);
		sb_doc_string(a, NULL, word);
		list += len;
		list += strspn(list, ", ");
	}
}

/* s as o's member key, or null. */
static void put_string_or_null(struct sb_doc *o, const char *key, const char *s)
{
	if (s)
		sb_doc_string(o, key, s);
	else
		sb_doc_null(o, key);
}

/* The words an option takes, where the parser's own list is public:
 * --format's formats, the group's own lists (values), and the return
 * thunks of an option whose help lists them (%T); null otherwise. */
static void put_values(struct sb_doc *opt, const struct sb_cli_group *g, const struct sb_cli_option *o)
{
	if (g == &sb_cli_sweep_group && strcmp(o->name, "format") == 0) {
		struct sb_doc *a = sb_doc_array(opt, "values");
		for (size_t i = 0; sb_format_at(i); i++)
			sb_doc_string(a, NULL, sb_format_name(sb_format_at(i)));
	} else if (g->values && g->values(o->name)) {
		put_words(sb_doc_array(opt, "values"), g->values(o->name));
	} else if (strstr(o->help, "%T")) {
		put_words(sb_doc_array(opt, "values"), sb_thunk_choices());
	} else {
		sb_doc_null(opt, "values");
	}
}

static void put_group(struct sb_doc *groups, const struct sb_cli_group *g)
{
	sb_doc_break(groups, "\n  ");
	struct sb_doc *o = sb_doc_object(groups, NULL);
	sb_doc_string(o, "title", g->title);
	struct sb_doc *opts = sb_doc_array(o, "options");
	for (const struct sb_cli_option *opt = g->options; opt->name; opt++) {
		sb_doc_break(opts, "\n    ");
		struct sb_doc *x = sb_doc_object(opts, NULL);
		sb_doc_string(x, "name", opt->name);
		put_string_or_null(x, "arg", opt->arg);
		sb_doc_string(x, "help", opt->help);
		put_values(x, g, opt);
	}
}

/* The values --help puts in place of the command's %X markers. */
static void put_markers(struct sb_doc *c, const struct sb_subcommand *cmd)
{
	struct sb_config d;
	sb_config_defaults(&d);
	char buf[256] = "";
	struct sb_doc *m = sb_doc_object(c, "markers");
	for (size_t i = 0, n = 0; i < d.measure.n_batches && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%llu", i ? "," : "", (unsigned long long)d.measure.batches[i]);
	sb_doc_string(m, "B", buf);
	sb_doc_string(m, "T", sb_thunk_choices());
	char formats[512];
	sb_doc_string(m, "F", sb_format_choices(formats, sizeof(formats)));
	snprintf(buf, sizeof(buf), "%llu",
		 (unsigned long long)(cmd->default_processes ? cmd->default_processes : SB_DEFAULT_PROCESSES));
	sb_doc_string(m, "P", buf);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(cmd->default_states ? cmd->default_states : SB_DEFAULT_STATES));
	sb_doc_string(m, "S", buf);
	snprintf(buf, sizeof(buf), "%g", cmd->default_time_s > 0 ? cmd->default_time_s : d.measure.time_s);
	sb_doc_string(m, "W", buf);
}

static void put_command(struct sb_doc *commands, const char *name, const char *part,
			const struct sb_subcommand *cmd, struct group_list *groups)
{
	sb_doc_break(commands, "\n  ");
	struct sb_doc *c = sb_doc_object(commands, NULL);
	put_string_or_null(c, "name", name);
	sb_doc_bool(c, "built", cmd != NULL);
	put_string_or_null(c, "part", part);
	if (cmd) {
		put_string_or_null(c, "summary", cmd->summary);
		put_string_or_null(c, "epilog", cmd->epilog);
		put_string_or_null(c, "operands", cmd->operands);
		put_string_or_null(c, "passthrough_prefix", cmd->passthrough_prefix);
		put_markers(c, cmd);
		struct sb_doc *g = sb_doc_array(c, "groups");
		for (size_t i = 0; cmd->groups[i]; i++)
			sb_doc_int(g, NULL, group_index(groups, cmd->groups[i]));
	}
}

int sb_cli_dump(FILE *f, const struct sb_program *p)
{
	struct group_list groups = {.n = 0};
	struct sb_doc *doc = sb_doc_new();
	sb_doc_string(doc, "program", p->name);
	sb_doc_string(doc, "version", SB_VERSION);
	sb_doc_break(doc, "\n ");
	struct sb_doc *commands = sb_doc_array(doc, "commands");
	put_command(commands, NULL, NULL, p->own, &groups);
	for (const struct sb_cli_slot *s = p->subs; s && s->name; s++)
		put_command(commands, s->name, s->part, s->cmd, &groups);
	sb_doc_break(doc, "\n ");
	struct sb_doc *all = sb_doc_array(doc, "groups");
	for (size_t i = 0; i < groups.n; i++)
		put_group(all, groups.g[i]);
	int failed = sb_reporter_json_doc(f, doc) != 0;
	sb_doc_free(doc);
	if (failed) {
		fprintf(stderr, "%s: out of memory\n", p->name);
		return 1;
	}
	if (groups.n == MAX_DUMP_GROUPS)
		fprintf(stderr, "%s: more than %d option groups: the dump is incomplete\n", p->name,
			MAX_DUMP_GROUPS);
	if (fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "%s: cannot write the options: %s\n", p->name, strerror(errno));
		return 1;
	}
	return groups.n == MAX_DUMP_GROUPS ? 1 : 0;
}

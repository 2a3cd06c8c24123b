/* cli_dump.c: see cli_dump.h. The document:
 *   {"program": "stubbench", "version": "0.1.0",
 *    "groups": [{"title": "Sweep", "options": [{"name": "format", "arg": "FMT",
 *                "help": "...", "values": ["table", ...] or null}, ...]}, ...],
 *    "commands": [{"name": null (the program's own) or "lab", "built": true,
 *                  "part": null or "STUBBENCH_KERNEL", "summary": "...",
 *                  "epilog": ..., "operands": ..., "passthrough_prefix": ...,
 *                  "markers": {"B": "1,8,...", "T": "...", "P": "128", "S": "1024"},
 *                  "groups": [indices into groups]}, ...]}
 * help is the table's text: '\n' between lines, and the %X markers that
 * --help replaces with the command's markers["X"]. An option's values are
 * the words it takes, where the code that parses it can list them. A
 * command that was not built has only name, built and part. */
#include "cli_dump.h"

#include <errno.h>
#include <string.h>

#include "stubbench/format.h"
#include "stubbench/json_writer.h"
#include "stubbench/mitigations.h"

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

/* Each of the ", "-separated words of list as a JSON string. */
static void put_words(FILE *f, const char *list)
{
	for (int first = 1; *list; first = 0) {
		size_t len = strcspn(list, ",");
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)len, list);
		fprintf(f, "%s", first ? "" : ", ");
		sb_json_string(f, word);
		list += len;
		list += strspn(list, ", ");
	}
}

/* The words an option takes, where the parser's own list is public:
 * --format's formats, and the return thunks of an option whose help
 * lists them (%T). */
static void put_values(FILE *f, const struct sb_cli_group *g, const struct sb_cli_option *o)
{
	if (g == &sb_cli_sweep_group && strcmp(o->name, "format") == 0) {
		fprintf(f, "[");
		for (int i = 0; strcmp(sb_format_name((enum sb_format)i), "?") != 0; i++) {
			fprintf(f, "%s", i ? ", " : "");
			sb_json_string(f, sb_format_name((enum sb_format)i));
		}
		fprintf(f, "]");
	} else if (g->values && g->values(o->name)) {
		fprintf(f, "[");
		put_words(f, g->values(o->name));
		fprintf(f, "]");
	} else if (strstr(o->help, "%T")) {
		fprintf(f, "[");
		put_words(f, sb_thunk_choices());
		fprintf(f, "]");
	} else {
		fprintf(f, "null");
	}
}

/* s as a JSON string, or null. */
static void put_string_or_null(FILE *f, const char *s)
{
	if (s)
		sb_json_string(f, s);
	else
		fprintf(f, "null");
}

static void put_group(FILE *f, const struct sb_cli_group *g)
{
	fprintf(f, "  {\"title\": ");
	sb_json_string(f, g->title);
	fprintf(f, ", \"options\": [");
	for (const struct sb_cli_option *o = g->options; o->name; o++) {
		fprintf(f, "%s\n    {\"name\": ", o == g->options ? "" : ",");
		sb_json_string(f, o->name);
		fprintf(f, ", \"arg\": ");
		put_string_or_null(f, o->arg);
		fprintf(f, ", \"help\": ");
		sb_json_string(f, o->help);
		fprintf(f, ", \"values\": ");
		put_values(f, g, o);
		fprintf(f, "}");
	}
	fprintf(f, "]}");
}

/* `, "key": s` (null when s is NULL). */
static void put_member(FILE *f, const char *key, const char *s)
{
	fprintf(f, ", \"%s\": ", key);
	put_string_or_null(f, s);
}

/* The values --help puts in place of the command's %X markers. */
static void put_markers(FILE *f, const struct sb_subcommand *cmd)
{
	struct sb_config d;
	sb_config_defaults(&d);
	fprintf(f, ", \"markers\": {\"B\": \"");
	for (size_t i = 0; i < d.n_batches; i++)
		fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)d.batches[i]);
	fprintf(f, "\", \"T\": ");
	sb_json_string(f, sb_thunk_choices());
	fprintf(f, ", \"P\": \"%llu\", \"S\": \"%llu\", \"W\": \"%g\"}",
		(unsigned long long)(cmd->default_processes ? cmd->default_processes : SB_DEFAULT_PROCESSES),
		(unsigned long long)(cmd->default_states ? cmd->default_states : SB_DEFAULT_STATES),
		cmd->default_time_s > 0 ? cmd->default_time_s : d.time_s);
}

static void put_command(FILE *f, const char *name, const char *part,
			const struct sb_subcommand *cmd, struct group_list *groups)
{
	fprintf(f, "  {\"name\": ");
	put_string_or_null(f, name);
	fprintf(f, ", \"built\": %s", cmd ? "true" : "false");
	put_member(f, "part", part);
	if (cmd) {
		put_member(f, "summary", cmd->summary);
		put_member(f, "epilog", cmd->epilog);
		put_member(f, "operands", cmd->operands);
		put_member(f, "passthrough_prefix", cmd->passthrough_prefix);
		put_markers(f, cmd);
		fprintf(f, ", \"groups\": [");
		for (size_t g = 0; cmd->groups[g]; g++)
			fprintf(f, "%s%ld", g ? ", " : "", group_index(groups, cmd->groups[g]));
		fprintf(f, "]");
	}
	fprintf(f, "}");
}

int sb_cli_dump(FILE *f, const struct sb_program *p)
{
	struct group_list groups = {.n = 0};
	fprintf(f, "{\"program\": ");
	sb_json_string(f, p->name);
	fprintf(f, ", \"version\": ");
	sb_json_string(f, SB_VERSION);
	fprintf(f, ",\n \"commands\": [\n");
	put_command(f, NULL, NULL, p->own, &groups);
	for (const struct sb_cli_slot *s = p->subs; s && s->name; s++) {
		fprintf(f, ",\n");
		put_command(f, s->name, s->part, s->cmd, &groups);
	}
	fprintf(f, "],\n \"groups\": [\n");
	for (size_t i = 0; i < groups.n; i++) {
		fprintf(f, "%s", i ? ",\n" : "");
		put_group(f, groups.g[i]);
	}
	fprintf(f, "]}\n");
	if (groups.n == MAX_DUMP_GROUPS)
		fprintf(stderr, "%s: more than %d option groups: the dump is incomplete\n", p->name,
			MAX_DUMP_GROUPS);
	if (fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "%s: cannot write the options: %s\n", p->name, strerror(errno));
		return 1;
	}
	return groups.n == MAX_DUMP_GROUPS ? 1 : 0;
}

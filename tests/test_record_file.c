/* The record files (record_file.h) on a scratch directory: appending makes
 * the file with its header and the directories that hold it, adds lines in
 * order, and cuts a file of max_lines lines to its newest half (comments
 * dropped, header kept) before adding; a missing file reads as an empty
 * record, a directory is an error naming it; the default place follows
 * XDG_STATE_HOME, then HOME. Run as root, what it creates in a directory
 * owned by someone else (a user's home under `sudo -E`) becomes theirs, the
 * cut file too; not as root, that part is skipped and says so. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "stubbench/record_file.h"

static char dir[] = "/tmp/record_file_XXXXXX";

static const char header[] = "# test record\n";

static int owned_by(const char *path, uid_t uid)
{
	struct stat st;
	return stat(path, &st) == 0 && st.st_uid == uid;
}

int main(void)
{
	char path[512], err[1024], *text = NULL;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/a/b/rec", dir);
	CHECK(sb_record_file_read(path, 1 << 20, &text, err, sizeof(err)) == 0 && text == NULL, "missing: %s", err);
	CHECK(sb_record_file_append(path, header, "1\n", 4, 1 << 20, err, sizeof(err)) == 0, "first: %s", err);
	CHECK(sb_record_file_append(path, header, "2\n3\n", 4, 1 << 20, err, sizeof(err)) == 0, "second: %s", err);
	CHECK(sb_record_file_read(path, 1 << 20, &text, err, sizeof(err)) == 0 && text &&
		      strcmp(text, "# test record\n1\n2\n3\n") == 0,
	      "text '%s'", text ? text : "(none)");
	free(text);
	/* Four lines: cut to the newest two (the header is a comment) before adding. */
	CHECK(sb_record_file_append(path, header, "4\n", 4, 1 << 20, err, sizeof(err)) == 0, "cut: %s", err);
	text = NULL;
	CHECK(sb_record_file_read(path, 1 << 20, &text, err, sizeof(err)) == 0 && text &&
		      strcmp(text, "# test record\n2\n3\n4\n") == 0,
	      "after the cut '%s'", text ? text : "(none)");
	free(text);
	text = NULL;
	CHECK(sb_record_file_read(dir, 1 << 20, &text, err, sizeof(err)) == -1 && strstr(err, dir),
	      "a directory: '%s'", err);
	snprintf(path, sizeof(path), "%s/a/b/rec/x", dir);
	CHECK(sb_record_file_append(path, header, "1\n", 4, 1 << 20, err, sizeof(err)) == -1 && strstr(err, "b/rec"),
	      "under a file: '%s'", err);

	/* Lines, cut in place: an empty one in the middle, none after the last. */
	char lines[] = "a\n\nb";
	char *at = lines, *l1 = sb_record_file_line(&at), *l2 = sb_record_file_line(&at),
	     *l3 = sb_record_file_line(&at), *l4 = sb_record_file_line(&at);
	CHECK(l1 && !strcmp(l1, "a") && l2 && !*l2 && l3 && !strcmp(l3, "b") && !l4, "lines of 'a\\n\\nb'");

	/* Fields: exactly as many as asked for. */
	char three[] = "x\t\tz", two[] = "x\ty", *f[3];
	CHECK(sb_record_file_fields(three, f, 3) == 0 && !strcmp(f[0], "x") && !*f[1] && !strcmp(f[2], "z"),
	      "three fields");
	CHECK(sb_record_file_fields(two, f, 3) == -1, "two fields taken for three");
	char four[] = "a\tb\tc\td";
	CHECK(sb_record_file_fields(four, f, 3) == -1, "four fields taken for three");

	/* The default place. */
	char buf[256];
	setenv("XDG_STATE_HOME", "/x/state", 1);
	CHECK(sb_record_file_default("past-runs", buf, sizeof(buf)) == 0 && !strcmp(buf, "/x/state/stubbench/past-runs"),
	      "XDG_STATE_HOME: '%s'", buf);
	setenv("XDG_STATE_HOME", "", 1);
	setenv("HOME", "/home/u", 1);
	CHECK(sb_record_file_default("quiet-levels", buf, sizeof(buf)) == 0 &&
		      !strcmp(buf, "/home/u/.local/state/stubbench/quiet-levels"),
	      "HOME: '%s'", buf);
	unsetenv("HOME");
	CHECK(sb_record_file_default("x", buf, sizeof(buf)) == -1, "no home: '%s'", buf);

	/* Root in a user's directory: the new directories and file are the user's. */
	if (geteuid() == 0) {
		const uid_t user = 65534;
		char home[256];
		snprintf(home, sizeof(home), "%s/home", dir);
		CHECK(mkdir(home, 0755) == 0 && chown(home, user, user) == 0, "a user's home");
		snprintf(path, sizeof(path), "%s/.local/state/rec", home);
		CHECK(sb_record_file_append(path, header, "1\n2\n3\n", 4, 1 << 20, err, sizeof(err)) == 0, "add: %s", err);
		char sub[300];
		snprintf(sub, sizeof(sub), "%s/.local", home);
		CHECK(owned_by(sub, user) && owned_by(path, user), "made by root in the user's home: not the user's");
		CHECK(sb_record_file_append(path, header, "4\n", 4, 1 << 20, err, sizeof(err)) == 0 &&
			      owned_by(path, user),
		      "the cut record is not the user's: %s", err);
		snprintf(path, sizeof(path), "%s/rootrec", dir);
		CHECK(chown(dir, 0, 0) == 0 && sb_record_file_append(path, header, "1\n", 4, 1 << 20, err, sizeof(err)) == 0 &&
			      owned_by(path, 0),
		      "made in root's directory: not root's");
	} else {
		printf("record_file: not root, so the ownership of records made under sudo is not checked\n");
	}

	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_report("record_file");
}

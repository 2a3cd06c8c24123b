/* The record files (record_file.h) on a scratch directory: appending makes
 * the file with its header and the directories that hold it, adds lines in
 * order, and cuts a file of max_lines lines to its newest half (comments
 * dropped, header kept) before adding; a missing file reads as an empty
 * record, a directory is an error naming it; the default place follows
 * XDG_STATE_HOME, then HOME. A file that is not a record (a saved JSON run)
 * is refused and left byte for byte; a half line at the end is not read
 * and is gone after the next append; a record larger than max_bytes is
 * read from its end and cut into bounds; eight processes cutting the same
 * record at once lose none of their lines (flock); a FIFO is refused at
 * once; a path longer than the limit is an error naming it. Run as root,
 * what it creates in a directory owned by someone else becomes theirs, the
 * cut file too, and the default place in another user's directory is
 * refused (sudo -E); not as root, that part is skipped and says so. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <errno.h>

#include "check.h"
#include "slurp.h"
#include "records/record_file.h"
#include "base/safe_file.h"

static char dir[] = "/tmp/record_file_XXXXXX";

static const char header[] = "# test record\n";

static int owned_by(const char *path, uid_t uid)
{
	struct stat st;
	return stat(path, &st) == 0 && st.st_uid == uid;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Refusals and repairs: not a record, half lines, oversize, FIFO, long path. */
static void hostile_records(void)
{
	char path[512], err[1024], *text = NULL, buf[65536];
	snprintf(path, sizeof(path), "%s/run.json", dir);
	const char json[] = "{\n  \"tool\": \"stubbench\", \"results\": []\n}\n";
	put(path, json);
	CHECK(sb_record_file_append(path, header, "1\t2\n", 4, 1 << 20, err, sizeof(err)) == -1 &&
		      strstr(err, "not a record") && strstr(err, "run.json"),
	      "a JSON file taken as a record: '%s'", err);
	CHECK(!strcmp(slurp(path, buf, sizeof(buf)), json), "the JSON file was changed: '%s'", buf);

	/* A binary file: a NUL at its start (read as an empty string, it
	 * looked like an empty record), and one past the byte limit whose
	 * first line is no record line (its newest bytes were judged alone). */
	snprintf(path, sizeof(path), "%s/nul", dir);
	static const char nul[] = "\0\0\0\1core\n";
	FILE *b = fopen(path, "w");
	if (b) {
		fwrite(nul, 1, sizeof(nul) - 1, b);
		fclose(b);
	}
	CHECK(sb_record_file_append(path, header, "1\t2\n", 4, 1 << 20, err, sizeof(err)) == -1 &&
		      strstr(err, "not a record (it holds a NUL byte"),
	      "a file with a NUL at its start taken as a record: '%s'", err);
	struct stat nst;
	CHECK(stat(path, &nst) == 0 && nst.st_size == (off_t)sizeof(nul) - 1, "the NUL file was changed");
	text = NULL;
	CHECK(sb_record_file_read(path, 1 << 20, &text, err, sizeof(err)) == -1 && !text && strstr(err, "NUL byte"),
	      "a file with a NUL read as a record: '%s'", err);
	snprintf(path, sizeof(path), "%s/image", dir);
	b = fopen(path, "w");
	for (int i = 0; b && i < 200; i++)
		fprintf(b, i ? "pixels\t%04d\n" : "GIF89a image %04d\n", i);
	if (b)
		fclose(b);
	CHECK(stat(path, &nst) == 0 && nst.st_size > 1000, "the image");
	off_t image_size = nst.st_size;
	CHECK(sb_record_file_append(path, header, "1\t2\n", 100000, 1000, err, sizeof(err)) == -1 &&
		      strstr(err, "not a record (its first line"),
	      "a file past the byte limit replaced as a record: '%s'", err);
	CHECK(stat(path, &nst) == 0 && nst.st_size == image_size, "the image past the limit was changed");

	snprintf(path, sizeof(path), "%s/half", dir);
	put(path, "# test record\na\t1\nb\t2\nc\t");
	CHECK(sb_record_file_read(path, 1 << 20, &text, err, sizeof(err)) == 0 && text &&
		      !strcmp(text, "# test record\na\t1\nb\t2\n"),
	      "half line read: '%s'", text ? text : err);
	free(text);
	CHECK(sb_record_file_append(path, header, "d\t4\n", 100, 1 << 20, err, sizeof(err)) == 0 &&
		      !strcmp(slurp(path, buf, sizeof(buf)), "# test record\na\t1\nb\t2\nd\t4\n"),
	      "after the half line: '%s' (%s)", buf, err);

	/* 60 lines of 40 bytes, 1000 bytes allowed: cut to the newest 500 bytes. */
	snprintf(path, sizeof(path), "%s/big", dir);
	FILE *f = fopen(path, "w");
	for (int i = 0; f && i < 60; i++)
		fprintf(f, "line %02d\t%031d\n", i, i);
	if (f)
		fclose(f);
	struct stat st;
	CHECK(sb_record_file_append(path, header, "new\t1\n", 1000, 1000, err, sizeof(err)) == 0 &&
		      stat(path, &st) == 0 && st.st_size <= 1000 && strstr(slurp(path, buf, sizeof(buf)), "line 59\t") &&
		      strstr(buf, "\nnew\t1\n") && !strncmp(buf, header, strlen(header)),
	      "oversize record: %lld bytes '%.80s' (%s)", (long long)st.st_size, buf, err);
	text = NULL;
	CHECK(sb_record_file_read(path, 200, &text, err, sizeof(err)) == 0 && text && strlen(text) <= 200 &&
		      !strcmp(text + strlen(text) - 6, "new\t1\n") && !strncmp(text, "line ", 5),
	      "oversize read: the newest whole lines '%s'", text ? text : err);
	free(text);

	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0644) == 0, "mkfifo");
	text = NULL;
	CHECK(sb_record_file_read(path, 1 << 20, &text, err, sizeof(err)) == -1 && strstr(err, "FIFO"),
	      "a FIFO read: '%s'", err);
	CHECK(sb_record_file_append(path, header, "1\t2\n", 4, 1 << 20, err, sizeof(err)) == -1 && strstr(err, "FIFO"),
	      "a FIFO appended to: '%s'", err);

	char *lpath = malloc(5000);
	memset(lpath, 'a', 4999);
	lpath[4999] = '\0';
	memcpy(lpath, dir, strlen(dir));
	lpath[strlen(dir)] = '/';
	CHECK(sb_record_file_append(lpath, header, "1\t2\n", 4, 1 << 20, err, sizeof(err)) == -1 &&
		      strstr(err, "path longer than") && strstr(err, dir),
	      "a path of 4999 characters: '%s'", err);
	free(lpath);
}

/* A stream whose failed write errno no longer names: the cause found
 * again (ENOSPC on /dev/full), never "Input/output error". */
static void stream_errors(void)
{
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		return;
	char big[8192];
	memset(big, 'x', sizeof(big));
	fwrite(big, 1, sizeof(big), f);
	fflush(f);
	errno = 0;
	CHECK(ferror(f) && sb_stream_errno(f) == ENOSPC, "a full device's stream: %s", strerror(sb_stream_errno(f)));
	errno = EFBIG;
	CHECK(sb_stream_errno(f) == EFBIG, "errno set is the cause");
	fclose(f);
}

/* Eight processes append at once to a record at its line limit, each
 * cutting it: every one of their lines is in it afterwards. */
static void concurrent_cuts(void)
{
	char path[512], err[1024], buf[65536];
	snprintf(path, sizeof(path), "%s/shared", dir);
	for (int round = 0; round < 20; round++) {
		FILE *f = fopen(path, "w");
		fputs(header, f);
		for (int i = 0; i < 99; i++)
			fprintf(f, "old\t%d\n", i);
		fclose(f);
		pid_t kids[8];
		for (int k = 0; k < 8; k++) {
			kids[k] = fork();
			if (kids[k] == 0) {
				char line[32];
				snprintf(line, sizeof(line), "kid\t%d\n", k);
				_exit(sb_record_file_append(path, header, line, 100, 1 << 20, err, sizeof(err)) == 0 ? 0 : 1);
			}
		}
		int ok = 1;
		for (int k = 0; k < 8; k++) {
			int st;
			ok &= waitpid(kids[k], &st, 0) == kids[k] && WIFEXITED(st) && WEXITSTATUS(st) == 0;
		}
		slurp(path, buf, sizeof(buf));
		int found = 0;
		for (int k = 0; k < 8; k++) {
			char line[32];
			snprintf(line, sizeof(line), "\nkid\t%d\n", k);
			found += strstr(buf, line) != NULL;
		}
		CHECK(ok && found == 8, "round %d: %d of 8 lines kept (every append returned 0: %d)", round, found, ok);
		if (!ok || found != 8)
			break;
	}
}

int main(void)
{
	stream_errors();
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
	char buf[512];
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

	hostile_records();
	concurrent_cuts();

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
		/* sudo -E: HOME is the user's, so the default place is not used. */
		unsetenv("XDG_STATE_HOME");
		setenv("HOME", home, 1);
		CHECK(sb_record_file_default("past-runs", buf, sizeof(buf)) == -2 && strstr(buf, "belongs to uid 65534"),
		      "the default place in a user's home, as root: '%s'", buf);
		unsetenv("HOME");
	} else {
		printf("record_file: not root, so the ownership of records made under sudo is not checked\n");
	}

	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_report("record_file");
}

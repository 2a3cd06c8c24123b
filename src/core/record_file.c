/* record_file.c: see record_file.h. */
#include "stubbench/record_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stubbench/read_file.h"

int sb_record_file_default(const char *name, char *buf, size_t len)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (state && *state)
		snprintf(buf, len, "%s/stubbench/%s", state, name);
	else if (home && *home)
		snprintf(buf, len, "%s/.local/state/stubbench/%s", home, name);
	else
		return -1;
	return 0;
}

int sb_record_file_read(const char *path, size_t max_bytes, char **text, char *err, size_t errlen)
{
	struct stat st;
	*text = NULL;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return 0;
	char why[256];
	*text = sb_read_file(path, max_bytes, NULL, why, sizeof(why));
	if (!*text) {
		snprintf(err, errlen, "cannot read '%s': %s", path, why);
		return -1;
	}
	return 0;
}

char *sb_record_file_line(char **at)
{
	char *line = *at;
	if (!*line)
		return NULL;
	char *end = strchr(line, '\n');
	if (end)
		*end++ = '\0';
	else
		end = line + strlen(line);
	*at = end;
	return line;
}

int sb_record_file_fields(char *line, char **f, int n)
{
	for (int i = 0; i < n; i++) {
		f[i] = line;
		line = strchr(line, '\t');
		if ((i < n - 1) != (line != NULL))
			return -1;
		if (line)
			*line++ = '\0';
	}
	return 0;
}

/* A new entry made by root in someone else's directory (a record under
 * `sudo -E`, whose HOME is the user's) becomes that directory owner's, so
 * the user's own runs can still add to it. */
static void give_to_owner_of_dir(const char *path)
{
	if (geteuid() != 0)
		return;
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	struct stat st;
	if (stat(dir, &st) == 0 && (st.st_uid != 0 || st.st_gid != 0) && chown(path, st.st_uid, st.st_gid) != 0)
		return; /* still root's: the user's next run says it cannot write it */
}

/* Creates the directories that hold path, when missing (mkdir -p). */
static int make_dir_of(const char *path, char *err, size_t errlen)
{
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0755) == 0)
			give_to_owner_of_dir(dir);
		else if (errno != EEXIST) {
			snprintf(err, errlen, "cannot create the directory '%s': %s", dir, strerror(errno));
			return -1;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

/* Rewrites path, whose text holds total lines, with header, its newest keep
 * lines (comments dropped) and lines. */
static int cut(const char *path, const char *header, const char *text, size_t total, size_t keep,
	       const char *lines, char *err, size_t errlen)
{
	const char *from = text;
	for (size_t skip = total > keep ? total - keep : 0; skip && *from; from++)
		skip -= *from == '\n';
	char tmp[1100];
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
		return -1;
	}
	fputs(header, f);
	for (const char *p = from; *p;) {
		size_t l = strcspn(p, "\n");
		if (*p != '#')
			fprintf(f, "%.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
	fputs(lines, f);
	give_to_owner_of_dir(tmp);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int sb_record_file_append(const char *path, const char *header, const char *lines, size_t max_lines,
			  size_t max_bytes, char *err, size_t errlen)
{
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (!exists && make_dir_of(path, err, errlen) != 0)
		return -1;
	if (exists) {
		char why[256];
		char *text = sb_read_file(path, max_bytes, NULL, why, sizeof(why));
		if (!text) {
			snprintf(err, errlen, "cannot read '%s': %s", path, why);
			return -1;
		}
		size_t n = 0;
		for (const char *p = text; *p; p++)
			n += *p == '\n';
		int rc = 0, cutting = n >= max_lines;
		if (cutting)
			rc = cut(path, header, text, n, max_lines / 2, lines, err, errlen);
		free(text);
		if (cutting)
			return rc;
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!exists)
		give_to_owner_of_dir(path);
	/* Header and lines in one write. */
	size_t hl = exists ? 0 : strlen(header), ll = strlen(lines);
	char *buf = malloc(hl + ll + 1);
	if (!buf) {
		close(fd);
		snprintf(err, errlen, "cannot write '%s': out of memory", path);
		return -1;
	}
	memcpy(buf, header, hl);
	memcpy(buf + hl, lines, ll);
	ssize_t w = write(fd, buf, hl + ll);
	int saved = errno;
	free(buf);
	close(fd);
	if (w != (ssize_t)(hl + ll)) {
		snprintf(err, errlen, "cannot write '%s': %s", path, w < 0 ? strerror(saved) : "short write");
		return -1;
	}
	return 0;
}

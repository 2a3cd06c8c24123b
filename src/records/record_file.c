/* record_file.c: see record_file.h. */
#include "records/record_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/safe_file.h"

/* The owner of path or, when it is missing, of its nearest existing
 * parent; 0 with *uid, or -1 when nothing on the way exists. */
static int owner_of_nearest(const char *path, uid_t *uid)
{
	char p[SB_SAFE_FILE_PATH_MAX + 1];
	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		struct stat st;
		if (stat(p, &st) == 0) {
			*uid = st.st_uid;
			return 0;
		}
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			return stat(slash ? "/" : ".", &st) == 0 ? (*uid = st.st_uid, 0) : -1;
		*slash = '\0';
	}
}

int sb_record_file_default(const char *name, char *buf, size_t len)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	const char *base = state && *state ? state : home && *home ? home : NULL;
	if (!base) {
		if (len)
			buf[0] = '\0';
		return -1;
	}
	int n = base == state ? snprintf(buf, len, "%s/stubbench/%s", state, name)
			      : snprintf(buf, len, "%s/.local/state/stubbench/%s", home, name);
	if (n < 0 || (size_t)n >= len || (size_t)n > SB_SAFE_FILE_PATH_MAX) {
		snprintf(buf, len, "the default place under '%.60s%s' is a path longer than %zu characters", base,
			 strlen(base) > 60 ? "..." : "", len - 1 < SB_SAFE_FILE_PATH_MAX ? len - 1 : SB_SAFE_FILE_PATH_MAX);
		return -2;
	}
	/* Under sudo (-E keeps the user's HOME), root would write into a
	 * directory of the user's, which the user can fill with symbolic
	 * links: not done; an explicit path still is. (A plain user writes
	 * only where the permissions let it: nothing to check.) */
	uid_t owner, me = geteuid();
	if (getuid() != me || (me == 0 && owner_of_nearest(base, &owner) == 0 && owner != me)) {
		const char *var = base == state ? "XDG_STATE_HOME" : "HOME";
		if (getuid() != me)
			snprintf(buf, len, "this run's real and effective users differ (uid %u, %u), so nothing is "
				 "written under %s", (unsigned)getuid(), (unsigned)me, var);
		else
			snprintf(buf, len, "%s ('%.60s') belongs to uid %u, not to this run's uid %u (sudo?), so "
				 "nothing is written there", var, base, (unsigned)owner, (unsigned)me);
		return -2;
	}
	return 0;
}

/* Reads the newest bytes of the regular file fd (at most max_bytes; a
 * longer file: its last max_bytes from the start of a line, *cut_short
 * set) into a NUL-ended buffer; *len its bytes. NULL with err. */
static char *read_newest(int fd, const char *path, size_t max_bytes, size_t *len, int *cut_short, char *err,
			 size_t errlen)
{
	struct stat st;
	*cut_short = 0;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	size_t size = (size_t)st.st_size, n = size > max_bytes ? max_bytes : size;
	off_t from = (off_t)(size - n);
	char *text = malloc(n + 1);
	if (!text) {
		snprintf(err, errlen, "cannot read '%s': out of memory", path);
		return NULL;
	}
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, text + got, n - got, from + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "cannot read '%s': %s", path, r < 0 ? strerror(errno) : "it shrank");
			free(text);
			return NULL;
		}
		got += (size_t)r;
	}
	text[n] = '\0';
	if (from > 0) {
		/* The first line read is part of an older one: dropped. */
		char *nl = strchr(text, '\n');
		size_t skip = nl ? (size_t)(nl + 1 - text) : n;
		memmove(text, text + skip, n - skip + 1);
		n -= skip;
		*cut_short = 1;
	}
	*len = n;
	return text;
}

/* Waits for the lock on fd (LOCK_SH or LOCK_EX). */
static int lock(int fd, int how)
{
	while (flock(fd, how) != 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

int sb_record_file_read(const char *path, size_t max_bytes, char **text, char *err, size_t errlen)
{
	struct stat st;
	*text = NULL;
	if (sb_safe_file_path_ok(path, err, errlen) != 0)
		return -1;
	if (lstat(path, &st) != 0 && errno == ENOENT)
		return 0;
	char why[256];
	int fd = sb_safe_file_open_input(path, why, sizeof(why));
	if (fd < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, why);
		return -1;
	}
	size_t len;
	int cut_short;
	if (lock(fd, LOCK_SH) == 0)
		*text = read_newest(fd, path, max_bytes, &len, &cut_short, err, errlen);
	else
		snprintf(err, errlen, "cannot lock '%s': %s", path, strerror(errno));
	if (*text && memchr(*text, '\0', len)) {
		snprintf(err, errlen, "'%s' is not a record (it holds a NUL byte: a binary file)", path);
		free(*text);
		*text = NULL;
	}
	close(fd);
	if (!*text)
		return -1;
	/* A half line at the end (a write cut short by a full disk): not read. */
	char *last = strrchr(*text, '\n');
	*(last ? last + 1 : *text) = '\0';
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

/* The directory that holds path ("." for a bare name) into buf. */
static void parent_of(const char *path, char *buf)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		strcpy(buf, ".");
	else
		snprintf(buf, SB_SAFE_FILE_PATH_MAX + 1, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* Run as root, what fd names (made just now in dir) becomes the owner's of
 * dir when that is not root: changed on the descriptor, never by path. */
static void give_to_owner_of(int fd, const char *dir)
{
	struct stat st;
	if (geteuid() != 0 || stat(dir, &st) != 0 || (st.st_uid == 0 && st.st_gid == 0))
		return;
	if (fchown(fd, st.st_uid, st.st_gid) != 0) {
		/* stays root's: the user's next run says it cannot write it */
	}
}

/* Creates the directories that hold path, when missing (mkdir -p). */
static int make_dir_of(const char *path, char *err, size_t errlen)
{
	char dir[SB_SAFE_FILE_PATH_MAX + 1];
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
		if (mkdir(dir, 0755) == 0) {
			char parent[SB_SAFE_FILE_PATH_MAX + 1];
			parent_of(dir, parent);
			int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0) {
				give_to_owner_of(fd, parent);
				close(fd);
			}
		} else if (errno != EEXIST) {
			snprintf(err, errlen, "cannot create the directory '%s': %s", dir, strerror(errno));
			return -1;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

/* The record at path opened for appending and locked (LOCK_EX), created
 * (empty) when missing; the file locked is the one at path now (a run that
 * cut it meanwhile renamed a new one there). The descriptor, or -1. */
static int open_locked(const char *path, char *err, size_t errlen)
{
	for (int tries = 0; tries < 50; tries++) {
		struct stat st, now;
		int fd;
		if (lstat(path, &st) != 0) {
			if (errno != ENOENT && errno != ENOTDIR) {
				snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
				return -1;
			}
			if (make_dir_of(path, err, errlen) != 0)
				return -1;
			fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (fd < 0 && errno == EEXIST)
				continue;
			if (fd >= 0) {
				/* Made by root in a user's directory (an explicit path): the user's. */
				char dir[SB_SAFE_FILE_PATH_MAX + 1];
				parent_of(path, dir);
				give_to_owner_of(fd, dir);
			}
		} else if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "'%s' is %s, not a regular file: not a record", path,
				 sb_safe_file_kind(st.st_mode));
			return -1;
		} else {
			fd = open(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		}
		if (fd < 0) {
			snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
			return -1;
		}
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || lock(fd, LOCK_EX) != 0) {
			snprintf(err, errlen, "cannot write '%s': not a regular file, or it cannot be locked", path);
			close(fd);
			return -1;
		}
		if (lstat(path, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
			return fd;
		close(fd); /* replaced while this run waited: the new one */
	}
	snprintf(err, errlen, "cannot write '%s': it keeps being replaced", path);
	return -1;
}

/* The record's first line: header's, a header of this tool's ("#
 * stubbench ...") or a record line (tab-separated, not a comment). */
static int starts_as_record(const char *text, const char *header)
{
	size_t l = strcspn(text, "\n");
	if (!*text || strncmp(text, "# stubbench ", 12) == 0)
		return 1;
	if (l == strcspn(header, "\n") && strncmp(text, header, l) == 0)
		return 1;
	return text[0] != '#' && memchr(text, '\t', l) && !memchr(text, '{', l) && !memchr(text, '\0', l);
}

/* Why the file at fd (its newest bytes text[0 .. len), cut_short when it
 * is longer) is no record, or NULL: a NUL byte (a binary file: an image,
 * a core dump), or a first line that is neither a header nor a record
 * line. A file past the byte limit is judged by its own first line, read
 * from its start. */
static const char *not_a_record(int fd, const char *text, size_t len, int cut_short, const char *header)
{
	if (memchr(text, '\0', len))
		return "it holds a NUL byte: a binary file";
	if (!cut_short)
		return starts_as_record(text, header) ? NULL : "its first line is neither a stubbench header nor a "
							       "record line";
	char head[1024];
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
	if (n <= 0)
		return "its start cannot be read";
	if (memchr(head, '\0', (size_t)n))
		return "it holds a NUL byte: a binary file";
	head[n] = '\0';
	return starts_as_record(head, header) ? NULL : "its first line is neither a stubbench header nor a "
						       "record line";
}

/* Writes path anew (a temporary renamed over it): header, the newest keep
 * whole lines of text (comments dropped, at most max_bytes / 2 of them)
 * and lines. */
static int cut(const char *path, const char *header, const char *text, size_t total, size_t keep,
	       size_t max_bytes, const char *lines, char *err, size_t errlen)
{
	const char *from = text, *end = strrchr(text, '\n');
	end = end ? end + 1 : text;
	for (size_t skip = total > keep ? total - keep : 0; skip && from < end; from++)
		skip -= *from == '\n';
	while ((size_t)(end - from) > max_bytes / 2 && from < end)
		from += strcspn(from, "\n") + 1;
	struct sb_safe_file sf;
	if (sb_safe_file_open(&sf, path, SB_SAFE_FILE_DIR_OWNER, err, errlen) != 0)
		return -1;
	fputs(header, sf.f);
	for (const char *p = from; p < end;) {
		size_t l = strcspn(p, "\n");
		if (*p != '#')
			fprintf(sf.f, "%.*s\n", (int)l, p);
		p += l + 1;
	}
	fputs(lines, sf.f);
	return sb_safe_file_commit(&sf, err, errlen);
}

/* header (when the file is empty) and lines in one write at the end of
 * fd; a short write is taken back. */
static int add(int fd, const char *path, const char *header, const char *lines, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	size_t hl = st.st_size ? 0 : strlen(header), ll = strlen(lines);
	char *buf = malloc(hl + ll + 1);
	if (!buf) {
		snprintf(err, errlen, "cannot write '%s': out of memory", path);
		return -1;
	}
	memcpy(buf, header, hl);
	memcpy(buf + hl, lines, ll);
	ssize_t w = write(fd, buf, hl + ll);
	int saved = errno;
	/* A short write: the rest tried once, for the reason (ENOSPC, EDQUOT, EFBIG). */
	if (w >= 0 && w < (ssize_t)(hl + ll)) {
		errno = 0;
		ssize_t more = write(fd, buf + w, hl + ll - (size_t)w);
		saved = more < 0 && errno ? errno : ENOSPC;
		w = more < 0 ? w : w + more;
	}
	free(buf);
	if (w != (ssize_t)(hl + ll)) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(saved));
		/* Taken back; if that fails, the next run drops the half line. */
		(void)!ftruncate(fd, st.st_size);
		return -1;
	}
	return 0;
}

int sb_record_file_append(const char *path, const char *header, const char *lines, size_t max_lines,
			  size_t max_bytes, char *err, size_t errlen)
{
	if (sb_safe_file_path_ok(path, err, errlen) != 0)
		return -1;
	int fd = open_locked(path, err, errlen);
	if (fd < 0)
		return -1;
	size_t len;
	int cut_short, rc = -1;
	char *text = read_newest(fd, path, max_bytes, &len, &cut_short, err, errlen);
	if (!text)
		goto out;
	const char *why = not_a_record(fd, text, len, cut_short, header);
	if (why) {
		snprintf(err, errlen, "'%s' is not a record (%s): left as it is", path, why);
		goto out;
	}
	size_t n = 0;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	int half_line = len && text[len - 1] != '\n';
	if (n >= max_lines || cut_short || half_line)
		rc = cut(path, header, text, n, n >= max_lines ? max_lines / 2 : n, max_bytes, lines, err, errlen);
	else
		rc = add(fd, path, header, lines, err, errlen);
out:
	free(text);
	close(fd); /* the lock goes with it */
	return rc;
}

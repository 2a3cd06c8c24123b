/* safe_file.c: see safe_file.h. */
#include "base/safe_file.h"

#include <errno.h>
#include <sys/statvfs.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"

/* The temporaries open now, removed by sb_safe_file_remove_temps. */
#define MAX_TEMPS 8
static char temps[MAX_TEMPS][SB_SAFE_FILE_PATH_MAX + 1];
static volatile sig_atomic_t temp_used[MAX_TEMPS];

static int remember_temp(const char *tmp)
{
	for (int i = 0; i < MAX_TEMPS; i++)
		if (!temp_used[i]) {
			memcpy(temps[i], tmp, strlen(tmp) + 1);
			temp_used[i] = 1;
			return i;
		}
	return -1;
}

static void forget_temp(struct sb_safe_file *sf)
{
	if (sf->slot >= 0)
		temp_used[sf->slot] = 0;
	sf->slot = -1;
}

void sb_safe_file_remove_temps(void)
{
	for (int i = 0; i < MAX_TEMPS; i++)
		if (temp_used[i])
			unlink(temps[i]);
}

const char *sb_safe_file_kind(mode_t mode)
{
	return S_ISFIFO(mode)  ? "a FIFO"
	       : S_ISDIR(mode) ? "a directory"
	       : S_ISLNK(mode) ? "a symbolic link"
	       : S_ISCHR(mode) ? "a character device"
	       : S_ISBLK(mode) ? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "not a plain file";
}

int sb_safe_file_path_ok(const char *path, char *err, size_t errlen)
{
	if (strlen(path) <= SB_SAFE_FILE_PATH_MAX)
		return 0;
	sb_set_err(err, errlen, "'%.60s...': path longer than %d characters", path, SB_SAFE_FILE_PATH_MAX);
	return -1;
}

/* The directory of path ("." for a bare name) into buf (PATH_MAX + 1). */
static void dir_of(const char *path, char *buf)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		strcpy(buf, ".");
	else if (slash == path)
		strcpy(buf, "/");
	else {
		memcpy(buf, path, (size_t)(slash - path));
		buf[slash - path] = '\0';
	}
}

/* The target as it is now: 0 missing (*exists 0) or a regular file (*st),
 * else -1 with err. */
static int look_at_target(const char *path, struct stat *st, int *exists, char *err, size_t errlen)
{
	*exists = 0;
	if (sb_safe_file_path_ok(path, err, errlen) != 0)
		return -1;
	if (lstat(path, st) != 0) {
		if (errno == ENOENT)
			return 0;
		sb_set_err(err, errlen, "cannot write '%s': %s", path, sb_errno_cause(errno));
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		sb_set_err(err, errlen, "'%s' is %s, not a regular file: not written", path,
			   sb_safe_file_kind(st->st_mode));
		return -1;
	}
	*exists = 1;
	return 0;
}

/* A new temporary beside path (in dir): its descriptor, its name in tmp;
 * -1 with err naming path. */
static int make_temp(const char *path, const char *dir, char *tmp, char *err, size_t errlen)
{
	static unsigned counter;
	for (int tries = 0; tries < 100; tries++) {
		int n = snprintf(tmp, SB_SAFE_FILE_PATH_MAX + 1, "%s/.stubbench-%ld-%u.tmp", dir, (long)getpid(),
				 counter++);
		if (n < 0 || n > SB_SAFE_FILE_PATH_MAX) {
			sb_set_err(err, errlen, "'%.60s...': path longer than %d characters with its temporary",
				   path, SB_SAFE_FILE_PATH_MAX);
			return -1;
		}
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			sb_set_err(err, errlen, "cannot write '%s': %s", path, sb_errno_cause(errno));
			return -1;
		}
	}
	sb_set_err(err, errlen, "cannot write '%s': no free temporary name in '%s'", path, dir);
	return -1;
}

int sb_safe_file_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int exists;
	if (look_at_target(path, &st, &exists, err, errlen) != 0)
		return -1;
	char dir[SB_SAFE_FILE_PATH_MAX + 1], tmp[SB_SAFE_FILE_PATH_MAX + 1];
	dir_of(path, dir);
	int fd = make_temp(path, dir, tmp, err, errlen);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(tmp);
	return 0;
}

/* The new file's owner and mode: the old target's, or (flags) the
 * directory owner's; only root changes owners, and only on fd. */
static void set_owner(int fd, const char *dir, const struct stat *old, int exists, int flags)
{
	if (exists) {
		/* A failed fchown leaves it root's, a failed fchmod 0644: both safe. */
		if (geteuid() == 0 && (old->st_uid != 0 || old->st_gid != 0) && fchown(fd, old->st_uid, old->st_gid))
			return;
		(void)!fchmod(fd, old->st_mode & 0777);
		return;
	}
	struct stat d;
	if ((flags & SB_SAFE_FILE_DIR_OWNER) && geteuid() == 0 && stat(dir, &d) == 0 &&
	    (d.st_uid != 0 || d.st_gid != 0) && fchown(fd, d.st_uid, d.st_gid) != 0)
		return; /* stays root's: the user's next run says it cannot write it */
}

int sb_safe_file_open(struct sb_safe_file *sf, const char *path, int flags, char *err, size_t errlen)
{
	memset(sf, 0, sizeof(*sf));
	sf->slot = -1;
	struct stat st;
	int exists;
	if (look_at_target(path, &st, &exists, err, errlen) != 0)
		return -1;
	memcpy(sf->path, path, strlen(path) + 1);
	char dir[SB_SAFE_FILE_PATH_MAX + 1];
	dir_of(path, dir);
	int fd = make_temp(path, dir, sf->tmp, err, errlen);
	if (fd < 0)
		return -1;
	sf->slot = remember_temp(sf->tmp);
	set_owner(fd, dir, &st, exists, flags);
	sf->f = fdopen(fd, "w");
	if (!sf->f) {
		sb_set_err(err, errlen, "cannot write '%s': %s", path, sb_errno_cause(errno));
		close(fd);
		unlink(sf->tmp);
		forget_temp(sf);
		return -1;
	}
	return 0;
}

int sb_stream_errno(FILE *f)
{
	if (errno)
		return errno;
	struct statvfs vfs;
	if (f && fstatvfs(fileno(f), &vfs) == 0) {
		if (vfs.f_bavail == 0)
			return ENOSPC;
		if (vfs.f_favail == 0 && vfs.f_files)
			return ENOSPC;
	}
	/* One byte more says why, where the file system still has room for
	 * others (a quota, a file size limit); a failed write leaves nothing. */
	int fd = f ? fileno(f) : -1;
	if (fd >= 0) {
		off_t end = lseek(fd, 0, SEEK_END);
		errno = 0;
		if (end >= 0 && pwrite(fd, "", 1, end) < 0 && errno)
			return errno;
		if (end >= 0)
			(void)!ftruncate(fd, end);
	}
	return EIO;
}

/* Flushes and closes the stream; the errno of the first failure, or 0. */
static int close_stream(struct sb_safe_file *sf)
{
	if (!sf->f)
		return 0;
	errno = 0;
	int e = 0;
	if (fflush(sf->f) != 0 || ferror(sf->f))
		e = sb_stream_errno(sf->f);
	else if (fsync(fileno(sf->f)) != 0)
		e = errno;
	errno = 0;
	if (fclose(sf->f) != 0 && !e)
		e = errno ? errno : EIO;
	sf->f = NULL;
	return e;
}

int sb_safe_file_detach(struct sb_safe_file *sf, char *err, size_t errlen)
{
	int e = close_stream(sf);
	if (e)
		sb_set_err(err, errlen, "cannot write '%s': %s", sf->path, sb_errno_cause(e));
	return e ? -1 : 0;
}

int sb_safe_file_commit(struct sb_safe_file *sf, char *err, size_t errlen)
{
	int e = sf->f ? close_stream(sf) : 0;
	if (!e) {
		/* Written by another program: its bytes to the disk as well. */
		int fd = open(sf->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fsync(fd) != 0)
			e = errno;
		if (fd >= 0)
			close(fd);
	}
	if (!e && rename(sf->tmp, sf->path) != 0)
		e = errno;
	if (e) {
		sb_set_err(err, errlen, "cannot write '%s': %s", sf->path, sb_errno_cause(e));
		unlink(sf->tmp);
	}
	forget_temp(sf);
	return e ? -1 : 0;
}

void sb_safe_file_abort(struct sb_safe_file *sf)
{
	if (sf->f)
		fclose(sf->f);
	sf->f = NULL;
	if (sf->tmp[0])
		unlink(sf->tmp);
	forget_temp(sf);
}

int sb_safe_file_write(const char *path, const void *buf, size_t len, int flags, char *err, size_t errlen)
{
	struct sb_safe_file sf;
	if (sb_safe_file_open(&sf, path, flags, err, errlen) != 0)
		return -1;
	if (len && fwrite(buf, 1, len, sf.f) != len) {
		sb_set_err(err, errlen, "cannot write '%s': %s", path, sb_errno_cause(sb_stream_errno(sf.f)));
		sb_safe_file_abort(&sf);
		return -1;
	}
	return sb_safe_file_commit(&sf, err, errlen);
}

int sb_safe_file_open_input(const char *path, char *err, size_t errlen)
{
	if (sb_safe_file_path_ok(path, err, errlen) != 0)
		return -1;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		sb_set_err(err, errlen, "%s", sb_errno_cause(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		sb_set_err(err, errlen, "%s", sb_errno_cause(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			sb_set_err(err, errlen, "it is a directory");
		else
			sb_set_err(err, errlen, "it is %s, not a regular file", sb_safe_file_kind(st.st_mode));
		close(fd);
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int sb_safe_file_check_input(const char *path, char *err, size_t errlen)
{
	int fd = sb_safe_file_open_input(path, err, errlen);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

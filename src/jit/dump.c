/* dump.c: --dump-jit: raw bytes and an objdump-style listing of every
 * JITed function, the listing in the format listing.h parses (so a dump
 * can become test data as it is). */
#include "jit/dump.h"
#include "jit/decode.h"
#include "base/error.h"
#include "base/safe_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sb_jit_write_listing(FILE *f, const struct sb_listing *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct sb_insn *in = &l->insns[i];
		for (size_t start = 0; start < in->len; start += 7) {
			char hex[32];
			size_t o = 0;
			for (size_t b = start; b < in->len && b < start + 7; b++)
				o += (size_t)snprintf(hex + o, sizeof(hex) - o, "%s%02x", b > start ? " " : "",
						      in->bytes[b]);
			char off[16];
			snprintf(off, sizeof(off), "%zx:", in->off + start);
			if (start == 0)
				fprintf(f, "%-4s %-23s %s\n", off, hex, in->text);
			else
				fprintf(f, "%-4s %s\n", off, hex);
		}
	}
	return ferror(f) ? -1 : 0;
}

static int mkdir_p(const char *dir)
{
	char tmp[SB_SAFE_FILE_PATH_MAX + 1];
	if (strlen(dir) > SB_SAFE_FILE_PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (char *p = tmp + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0755) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

int sb_jit_dump_prepare(const char *dir, char *err, size_t errlen)
{
	if (mkdir_p(dir)) {
		sb_set_err(err, errlen, "--dump-jit: cannot create directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	char probe[SB_SAFE_FILE_PATH_MAX + 32];
	snprintf(probe, sizeof(probe), "%s/.stubbench-XXXXXX", dir);
	int fd = mkstemp(probe);
	if (fd < 0) {
		sb_set_err(err, errlen, "--dump-jit: cannot write in '%s': %s", dir, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

int sb_jit_dump(const char *dir, const struct sb_jit_image *img, char *err, size_t errlen)
{
	return sb_jit_dump_noted(dir, img, NULL, err, errlen);
}

int sb_jit_dump_noted(const char *dir, const struct sb_jit_image *img, const char *notes, char *err, size_t errlen)
{
	if (mkdir_p(dir)) {
		sb_set_err(err, errlen, "--dump-jit: cannot create directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < img->n; i++) {
		const struct sb_jit_func *fn = &img->funcs[i];
		char path[SB_SAFE_FILE_PATH_MAX + 2], why[SB_SAFE_FILE_PATH_MAX + 200];
		int n = snprintf(path, sizeof(path), "%s/%s.%s.bin", dir, img->prog_name, fn->name);
		if (n < 0 || n > SB_SAFE_FILE_PATH_MAX) {
			sb_set_err(err, errlen, "--dump-jit: '%.60s...': path longer than %d characters", path,
				   SB_SAFE_FILE_PATH_MAX);
			return -1;
		}
		if (sb_safe_file_write(path, fn->bytes, fn->len, 0, why, sizeof(why)) != 0) {
			sb_set_err(err, errlen, "--dump-jit: %s", why);
			return -1;
		}
		struct sb_listing l;
		char derr[256];
		if (sb_jit_decode(fn->bytes, fn->len, fn->name, &l, derr, sizeof(derr))) {
			sb_set_err(err, errlen, "--dump-jit: %s", derr);
			return -1;
		}
		memcpy(path + n - 3, "lst", 4);
		struct sb_safe_file sf;
		int bad = sb_safe_file_open(&sf, path, 0, why, sizeof(why)) != 0;
		if (!bad) {
			fprintf(sf.f, "# %s: function %zu of BPF program %s, %zu bytes, JITed at %#llx\n",
				fn->name, i, img->prog_name, fn->len, (unsigned long long)fn->ksym);
			if (notes)
				fputs(notes, sf.f);
			if (sb_jit_write_listing(sf.f, &l) != 0) {
				snprintf(why, sizeof(why), "cannot write '%s': %s", path, strerror(sb_stream_errno(sf.f)));
				sb_safe_file_abort(&sf);
				bad = 1;
			} else {
				bad = sb_safe_file_commit(&sf, why, sizeof(why)) != 0;
			}
		}
		sb_listing_free(&l);
		if (bad) {
			sb_set_err(err, errlen, "--dump-jit: %s", why);
			return -1;
		}
	}
	return 0;
}

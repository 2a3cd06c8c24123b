/* code_symbols.c: function symbols of the running program; see code_symbols.h. */
#include "base/code_symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fsym {
	uintptr_t addr;
	size_t size;
	char *name;
};

static struct fsym *syms;
static size_t n_syms;
static int syms_loaded;

static int cmp_fsym(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

static void load_symbols(void)
{
	syms_loaded = 1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		return;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	size_t cap = 0;
	while (e && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; d && i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_size)
				continue;
			if (n_syms == cap) {
				cap = cap ? cap * 2 : 1024;
				struct fsym *ns = realloc(syms, cap * sizeof(*ns));
				if (!ns)
					break;
				syms = ns;
			}
			const char *nm = elf_strptr(e, sh.sh_link, s.st_name);
			syms[n_syms].addr = s.st_value;
			syms[n_syms].size = s.st_size;
			syms[n_syms].name = strdup(nm ? nm : "?");
			n_syms++;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	qsort(syms, n_syms, sizeof(*syms), cmp_fsym);
}

size_t sb_code_function_size(uintptr_t addr, const char **name)
{
	if (!syms_loaded)
		load_symbols();
	size_t lo = 0, hi = n_syms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n_syms && syms[lo].addr == addr) {
		if (name)
			*name = syms[lo].name;
		return syms[lo].size;
	}
	return 0;
}

/* Inserted in address order, so the binary search above finds it. */
int sb_code_symbols_add(uintptr_t addr, size_t size, const char *name)
{
	if (!syms_loaded)
		load_symbols();
	struct fsym *ns = realloc(syms, (n_syms + 1) * sizeof(*ns));
	if (!ns)
		return -1;
	syms = ns;
	char *copy = strdup(name ? name : "?");
	if (!copy)
		return -1;
	size_t at = 0;
	while (at < n_syms && syms[at].addr < addr)
		at++;
	if (at < n_syms && syms[at].addr == addr) {
		free(copy);
		return -1;
	}
	memmove(syms + at + 1, syms + at, (n_syms - at) * sizeof(*syms));
	syms[at] = (struct fsym){addr, size, copy};
	n_syms++;
	return 0;
}

void sb_code_symbols_remove(uintptr_t addr)
{
	for (size_t i = 0; i < n_syms; i++)
		if (syms[i].addr == addr) {
			free(syms[i].name);
			memmove(syms + i, syms + i + 1, (n_syms - i - 1) * sizeof(*syms));
			n_syms--;
			return;
		}
}

int sb_code_function_by_name(const char *name, uintptr_t *addr, size_t *size)
{
	if (!syms_loaded)
		load_symbols();
	for (size_t i = 0; i < n_syms; i++)
		if (strcmp(syms[i].name, name) == 0) {
			*addr = syms[i].addr;
			*size = syms[i].size;
			return 0;
		}
	return -1;
}

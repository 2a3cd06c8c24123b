#include "elf_symbols.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "stubbench/listing.h"

int elf_symbol(const char *path, const char *name, uint64_t *value, uint64_t *size, int *type)
{
	int rc = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	while (e && rc != 0 && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; d && i < n; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s))
				continue;
			const char *nm = elf_strptr(e, sh.sh_link, s.st_name);
			if (nm && strcmp(nm, name) == 0) {
				*value = s.st_value;
				*size = s.st_size;
				*type = GELF_ST_TYPE(s.st_info);
				rc = 0;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

int golden_check(const char *data_dir, const char *sym, const void *addr, const char *file,
		 struct sb_listing *l, char *why, size_t whylen)
{
	char path[1024], where[256];
	snprintf(path, sizeof(path), "%s/%s", data_dir, file);
	if (sb_listing_parse_file(path, l, why, whylen) != 0)
		return -1;
	uint64_t value, size;
	int type;
	if (elf_symbol("/proc/self/exe", sym, &value, &size, &type) != 0) {
		snprintf(why, whylen, "symbol %s not in the program", sym);
		return -1;
	}
	if (type != STT_FUNC) {
		snprintf(why, whylen, "%s is not an ELF function symbol (type %d)", sym, type);
		return -1;
	}
	if (value != (uintptr_t)addr) {
		snprintf(why, whylen, "%s: symbol value %#" PRIx64 " != %p", sym, value, addr);
		return -1;
	}
	if (size != l->size) {
		snprintf(why, whylen, "%s: symbol size %" PRIu64 ", listing %zu bytes", sym, size, l->size);
		return -1;
	}
	if (sb_listing_compare(l, addr, size, where, sizeof(where)) >= 0) {
		snprintf(why, whylen, "%s vs %s: %s", sym, file, where);
		return -1;
	}
	return 0;
}

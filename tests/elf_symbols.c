#include "elf_symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

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

/* busy_note.h: the busy-core note as a test reads it: what
 * sb_output_busy_line prints, checked to be folded within 100 columns and
 * joined back into its one line. */
#ifndef STUBBENCH_TEST_BUSY_NOTE_H
#define STUBBENCH_TEST_BUSY_NOTE_H

#include <stdio.h>

#include "check.h"
#include "folded.h"
#include "output/output.h"

/* What sb_output_busy_line prints for r against machine (NULL: no record),
 * joined, in buf (empty when nothing); returns its value. */
static inline int busy_note(const struct sb_results *r, const struct sb_quiet_reference *machine, char *buf,
			    size_t len)
{
	buf[0] = '\0';
	FILE *f = fmemopen(buf, len, "w");
	int rc = sb_output_busy_line(f, "stubbench", r, machine);
	fclose(f);
	CHECK(!buf[0] || folded_within(buf, 100), "not folded within 100 columns: '%s'", buf);
	unfold(buf);
	return rc;
}

#endif

/* fuzz_listing: a JIT listing or dump (diff, annotate, deprivatize) read
 * as text by sb_listing_parse_text and as a file by
 * sb_jit_image_read_file. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "jit/listing.h"
#include "jit/image_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char err[512];
	char *text = malloc(n + 1);
	if (!text)
		return 0;
	memcpy(text, data, n);
	text[n] = 0;
	struct sb_listing l;
	if (sb_listing_parse_text(text, "fuzz", &l, err, sizeof(err)) == 0)
		sb_listing_free(&l);
	free(text);
	struct sb_jit_image img;
	if (sb_jit_image_read_file(fuzz_path(data, n), &img, err, sizeof(err)) == 0)
		sb_jit_image_free(&img);
	return 0;
}

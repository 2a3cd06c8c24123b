/* func_frame.c: whether a JITed function of an image has a private stack
 * (decode.h), from its decoded flavour (flavour.h). */
#include "jit/decode.h"
#include "jit/flavour.h"

int sb_jit_func_private_stack(const struct sb_jit_image *img, const char *name)
{
	const struct sb_jit_func *fn = sb_jit_find(img, name);
	struct sb_listing l;
	char err[256];
	if (!fn || sb_jit_decode(fn->bytes, fn->len, name, &l, err, sizeof(err)))
		return -1;
	struct sb_jit_flavour fl;
	sb_jit_detect_flavour(&l, &fl);
	sb_listing_free(&l);
	return fl.private_stack;
}

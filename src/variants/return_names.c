/* return_names.c: the return a variant's code executes; see
 * return_names.h. */
#include "variants/return_names.h"

#include <stddef.h>

#include "stubbench/registry.h"

/* How the code returns, from the thunk its record's returns jump to. */
const char *sb_variant_return_name(const struct sb_variant *v)
{
	static const struct {
		void (*thunk)(void);
		const char *name;
	} thunks[] = {
		{sb_its_return_thunk, "rethunk"},
		{sb_call_depth_return_thunk, "calldepth"},
		{sb_srso_return_thunk, "srso"},
		{sb_srso_alias_return_thunk, "srso-alias"},
	};
	if (!v->return_thunk)
		return "ret";
	for (size_t i = 0; i < sizeof(thunks) / sizeof(thunks[0]); i++)
		if (v->return_thunk == (const void *)thunks[i].thunk)
			return thunks[i].name;
	return "rethunk";
}


/* return_names.h: the return thunk replicas' entry points
 * (asm/return_thunks.asm), and the name of the return a variant's code
 * executes, as cell keys carry it (results.h). */
#ifndef STUBBENCH_RETURN_NAMES_H
#define STUBBENCH_RETURN_NAMES_H

struct sb_variant;

/* The replicas (asm/return_thunks.asm). */
void sb_its_return_thunk(void);
void sb_srso_return_thunk(void);
void sb_srso_safe_ret(void);
void sb_srso_untrain_ret(void);
void sb_srso_alias_return_thunk(void);
void sb_srso_alias_safe_ret(void);
void sb_srso_alias_untrain_ret(void);
void sb_retbleed_return_thunk(void);
void sb_retbleed_untrain_ret(void);
void sb_call_depth_return_thunk(void);

/* "ret" (a plain return), or the thunk v's record says its returns jump
 * to: "rethunk" (its_return_thunk, the default the run may re-aim),
 * "calldepth", "srso", "srso-alias". */
const char *sb_variant_return_name(const struct sb_variant *v);

#endif

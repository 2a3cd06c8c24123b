/* answer_kinds.c: the kinds of saved run by the tool that wrote them:
 * which command's summary lines each gets; see answer.h. */
#include "answer/answer.h"

#include <string.h>

#include "answer/footprint_answer.h"
#include "answer/kernel_obj_answer.h"
#include "answer/kernel_verdict.h"
#include "answer/lab_rank.h"
#include "saved/run_diff.h"

static const struct {
	const char *tool;       /* the run's "tool" (run_file.h) */
	sb_answer_fn answer;
	const char *lead;       /* the codegen of the rows that are its answer (NULL: every variant's) */
} answer_kinds[] = {
	/* A mode of stubbench kernel, whose summary the command heads. */
	{"stubbench kernel --obj", sb_kernel_obj_answer, NULL},
	{"stubbench kernel", sb_kernel_answer, NULL},
	/* The change; the parts' ablations are how it is attributed. */
	{"stubbench diff", sb_diff_answer, "new"},
	{"stubbench lab", sb_lab_answer, NULL},
	{"stubbench footprint", sb_footprint_answer, NULL},
};
#define N_KINDS (sizeof(answer_kinds) / sizeof(answer_kinds[0]))

sb_answer_fn sb_answer_of_tool(const char *tool)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (strcmp(tool, answer_kinds[i].tool) == 0)
			return answer_kinds[i].answer;
	return NULL;
}

const char *sb_answer_lead_codegen(const char *tool)
{
	for (size_t i = 0; i < N_KINDS; i++)
		if (strcmp(tool, answer_kinds[i].tool) == 0)
			return answer_kinds[i].lead;
	return NULL;
}

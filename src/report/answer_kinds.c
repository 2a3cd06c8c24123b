/* answer_kinds.c: which command's summary lines a saved run gets, by the
 * tool that wrote it; see answer.h. */
#include "stubbench/answer.h"

#include <string.h>

#include "stubbench/kernel_obj_answer.h"
#include "stubbench/kernel_verdict.h"
#include "stubbench/lab_rank.h"

static const struct {
	const char *tool;       /* the run's "tool" (run_file.h) */
	sb_answer_fn answer;
} answer_kinds[] = {
	{"stubbench kernel --obj", sb_kernel_obj_answer},
	{"stubbench kernel", sb_kernel_answer},
	{"stubbench lab", sb_lab_answer},
};

sb_answer_fn sb_answer_of_tool(const char *tool)
{
	for (size_t i = 0; i < sizeof(answer_kinds) / sizeof(answer_kinds[0]); i++)
		if (strcmp(tool, answer_kinds[i].tool) == 0)
			return answer_kinds[i].answer;
	return NULL;
}

/* answer_table.c: the commands' own summary lines by the tool that wrote
 * a run; see answer.h (sb_answer_of). */
#include "stubbench/answer.h"

#include <string.h>

#include "stubbench/kernel_verdict.h"
#include "stubbench/lab_rank.h"
#include "stubbench/run_diff.h"

static const struct {
	const char *tool;
	sb_answer_fn answer;
} answers[] = {
	{"stubbench diff", sb_diff_answer},
	{"stubbench kernel", sb_kernel_answer},
	{"stubbench lab", sb_lab_answer},
};

sb_answer_fn sb_answer_of(const char *tool)
{
	for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
		if (strcmp(tool, answers[i].tool) == 0)
			return answers[i].answer;
	return NULL;
}

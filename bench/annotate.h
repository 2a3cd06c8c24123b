/* annotate.h: the names bench/kernel_obj_command.c still uses for the
 * library's annotate API (include/stubbench/annotate.h, where every name
 * has the sb_ prefix). Goes when that front end includes the library
 * header itself. */
#ifndef STUBBENCH_BENCH_ANNOTATE_H
#define STUBBENCH_BENCH_ANNOTATE_H

#include "stubbench/annotate.h"

#define annotate sb_annotate
#define annotate_measure sb_annotate_measure
#define annotate_parts_of_code sb_annotate_parts_of_code
#define annotate_summary sb_annotate_summary
#define annotate_listing sb_annotate_listing
#define annotate_json sb_annotate_json

#endif

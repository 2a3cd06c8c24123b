# report.cmake: saved runs read back (json-c) to compare and plot them.
sb_require_pkg(JSONC json-c libjson-c-dev "it reads saved runs for compare and plot")
add_library(stubbench_report STATIC
  src/saved/run_file.c
  src/saved/run_text.c
  # a recorded sweep estimated again per core state from its blocks log.
  src/saved/state_figures.c
  src/answer/state_figures_report.c
  # a kernel run's figures load by load, from its blocks (live or its log).
  src/saved/kernel_by_load.c
  src/answer/kernel_from_blocks.c
  src/saved/run_states.c
  src/answer/states_answer.c
  src/saved/run_match.c
  src/compare/compare.c
  src/compare/compare_change.c
  src/compare/compare_states.c
  src/plot/run_plot.c
  src/plot/plot_script.c
  src/plot/plot_lines.c
  src/plot/plot_bars.c
  src/plot/plot_results.c
  src/answer/answer.c
  src/compare/across_runs.c
  src/answer/atlas.c
  src/answer/summary.c
  src/answer/kernel_verdict.c
  src/answer/lab_rank.c
  src/answer/kernel_obj_answer.c
  src/answer/answer_kinds.c
  src/answer/footprint_answer.c
  # stubbench diff's saved members and its summary from them.
  src/saved/run_diff.c
  src/answer/diff_answer.c
  # the lines of an attribution that is a state of the loop (annotate, diff).
  src/answer/answer_state.c
)
target_include_directories(stubbench_report PUBLIC ${CMAKE_SOURCE_DIR}/include
  PRIVATE ${JSONC_INCLUDE_DIRS})
target_link_libraries(stubbench_report PUBLIC stubbench_core ${JSONC_LINK_LIBRARIES} m)
target_sources(stubbench PRIVATE bench/compare_command.c bench/plot_command.c bench/report_command.c)
target_link_libraries(stubbench PRIVATE stubbench_report)

function(sb_report_add_tests)
  if(NOT BUILD_TESTING)
    return()
  endif()
  add_executable(test_compare ${CMAKE_SOURCE_DIR}/tests/compare/test_compare.c)
  target_include_directories(test_compare PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_compare PRIVATE stubbench_report)
  add_test(NAME compare COMMAND test_compare ${CMAKE_SOURCE_DIR}/tests/data)
  # Every figure of the figure table reaches the table, JSON, CSV, compare and the plot.
  add_executable(test_figures ${CMAKE_SOURCE_DIR}/tests/output/test_figures.c)
  target_include_directories(test_figures PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_figures PRIVATE stubbench_report)
  add_test(NAME figures COMMAND test_figures)
  # A run's core states in the table, CSV and JSON.
  add_executable(test_state_outputs ${CMAKE_SOURCE_DIR}/tests/output/test_state_outputs.c)
  target_include_directories(test_state_outputs PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_state_outputs PRIVATE stubbench_report)
  add_test(NAME state_outputs COMMAND test_state_outputs)
  # The table grid folds within a width; "#" lines fold at spaces.
  add_executable(test_text_grid ${CMAKE_SOURCE_DIR}/tests/output/test_text_grid.c)
  target_include_directories(test_text_grid PRIVATE ${CMAKE_SOURCE_DIR}/tests/common ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(test_text_grid PRIVATE stubbench_report)
  add_test(NAME text_grid COMMAND test_text_grid)
  # The summary's pieces: the kernel verdict, the figures' format, the lab's
  # ranking, on made-up and recorded figures; the summary of recorded runs.
  add_executable(test_answer ${CMAKE_SOURCE_DIR}/tests/answer/test_answer.c)
  target_include_directories(test_answer PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_answer PRIVATE stubbench_report)
  add_test(NAME answer COMMAND test_answer ${CMAKE_SOURCE_DIR}/tests/data)
  # The placed twin paired by load, cell by cell, on runs recorded with their logs.
  add_executable(test_kernel_paired ${CMAKE_SOURCE_DIR}/tests/answer/test_kernel_paired.c)
  target_include_directories(test_kernel_paired PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_kernel_paired PRIVATE stubbench_report)
  add_test(NAME kernel_paired COMMAND test_kernel_paired ${CMAKE_SOURCE_DIR}/tests/data)
  # A kernel run judged again from its blocks log: paired verdicts, the
  # source of a spread named only where the log shows it.
  add_test(NAME kernel_by_load COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/answer/kernel_by_load.py
    $<TARGET_FILE:stubbench> ${CMAKE_SOURCE_DIR}/tests/data)
  # No kernel figure that is the driver's spread printed as a cost, on
  # recorded kernel runs (and copies of them made wider).
  add_test(NAME kernel_noise COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/answer/kernel_noise.py $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # A differing verdict named in one line with its size: never a bare "differ".
  add_test(NAME kernel_gap_line COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/answer/kernel_gap_line.py $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # kernel --obj's summary: every program with a private stack keeps its
  # figures; the lines that may yield do; no quote line for no program shown.
  add_test(NAME kernel_obj_answer COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/answer/kernel_obj_answer.py
    $<TARGET_FILE:stubbench> ${CMAKE_SOURCE_DIR}/tests/data)
  # Every summary line within 100 columns whatever the CPU's model string.
  # Saved runs of two machines side by side: every cell as the files hold it.
  add_test(NAME across_runs COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/compare/across_runs.py $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)

  # The atlas: entries made by bench/atlas.py, the line placing a run among them.
  add_test(NAME atlas COMMAND sh ${CMAKE_SOURCE_DIR}/tests/answer/atlas.sh $<TARGET_FILE:stubbench> ${CMAKE_SOURCE_DIR})

  # The machine named by its microarchitecture, from CPUID or a saved run.
  add_executable(test_machine_name ${CMAKE_SOURCE_DIR}/tests/base/test_machine_name.c)
  target_include_directories(test_machine_name PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_machine_name PRIVATE stubbench_report)
  add_test(NAME machine_name COMMAND test_machine_name ${CMAKE_SOURCE_DIR}/tests/data)

  add_executable(test_summary_width ${CMAKE_SOURCE_DIR}/tests/answer/test_summary_width.c)
  target_include_directories(test_summary_width PRIVATE ${CMAKE_SOURCE_DIR}/tests/common)
  target_link_libraries(test_summary_width PRIVATE stubbench_report)
  add_test(NAME summary_width COMMAND test_summary_width ${CMAKE_SOURCE_DIR}/tests/data)
  add_test(NAME answer_report COMMAND sh ${CMAKE_SOURCE_DIR}/tests/answer/answer_report.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data sweep padded_two_state lab kernel kernel_thunk_ret kernel_obj)
  # The summary's line on placements where the loop took two states.
  add_test(NAME two_state_line COMMAND sh ${CMAKE_SOURCE_DIR}/tests/answer/two_state_line.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # A kernel --obj run recorded here (with_frame,no_frame of tests/data/user_prog.bpf.c, --samples=64
  # --batch=8 --format=json) and the summary that run printed: stubbench report of it prints the same.
  add_test(NAME report_kernel_obj COMMAND sh ${CMAKE_SOURCE_DIR}/tests/answer/report_kernel_obj.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # stubbench report of a saved diff prints what the live diff printed.
  add_test(NAME diff_report COMMAND sh ${CMAKE_SOURCE_DIR}/tests/commands/diff_report.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # compare's bad input: a file that cannot be read or parsed, a metric it
  # does not know, one run, runs of different kinds: one line, status 2.
  add_test(NAME compare_cli COMMAND sh ${CMAKE_SOURCE_DIR}/tests/compare/compare_cli.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # stubbench plot: image, script and data of main, kernel and lab runs.
  add_test(NAME plot_cli COMMAND sh ${CMAKE_SOURCE_DIR}/tests/plot/plot_cli.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # The kernel plot and the kernel table: one estimate per cell, on a recorded run.
  add_test(NAME kernel_plot_table COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/plot/kernel_plot_table.py
    $<TARGET_FILE:stubbench> ${CMAKE_SOURCE_DIR}/tests/data)
  # The plots of docs/plots.md, drawn again from their recorded runs: script and data as expected.
  add_test(NAME plot_reference COMMAND sh ${CMAKE_SOURCE_DIR}/tests/plot/plot_reference.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # stubbench plot: no text of a run and no file name runs as gnuplot code.
  add_test(NAME plot_injection COMMAND sh ${CMAKE_SOURCE_DIR}/tests/plot/plot_injection.sh $<TARGET_FILE:stubbench>)
  # Files read back, crafted: every case its status and one line, never a crash or a wait.
  add_test(NAME hostile_reports COMMAND sh ${CMAKE_SOURCE_DIR}/tests/security/hostile_reports.sh $<TARGET_FILE:stubbench>
    ${CMAKE_SOURCE_DIR}/tests/data)
  # --format=gbench: Google Benchmark's JSON schema, field by field.
  add_test(NAME gbench_schema COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/gbench/gbench_schema.py
    $<TARGET_FILE:stubbench>)
  # Structure only: every block kept, so a busy host leaves samples.
  set_tests_properties(gbench_schema PROPERTIES ENVIRONMENT STUBBENCH_TEST_DISTURB_NONE=1)
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL sb_report_add_tests)

# cli_docs.cmake: the man page and the bash completion, written at every
# build where a program's option table changed: cmake/cli_docs.py reads
# `PROGRAM --dump-options` and fills share/man/stubbench.1.in and
# share/completion/stubbench.bash.in. Without python3 neither is written
# nor installed, and configure says so. Sets SB_CLI_DOCS (ON when written),
# SB_MAN_PAGE and SB_COMPLETION (the outputs).
find_package(Python3 COMPONENTS Interpreter)
set(SB_CLI_DOCS OFF)
if(NOT Python3_FOUND)
  message(STATUS "python3 not found: no man page or bash completion (apt-get install python3)")
  return()
endif()
set(SB_CLI_DOCS ON)
set(SB_MAN_PAGE ${CMAKE_BINARY_DIR}/stubbench.1)
set(SB_COMPLETION ${CMAKE_BINARY_DIR}/stubbench.bash)
set(sb_cli_programs stubbench)
if(STUBBENCH_GBENCH)
  list(APPEND sb_cli_programs stubbench-gbench)
endif()
set(sb_cli_program_files)
foreach(p IN LISTS sb_cli_programs)
  list(APPEND sb_cli_program_files $<TARGET_FILE:${p}>)
endforeach()
add_custom_command(OUTPUT ${SB_MAN_PAGE} ${SB_COMPLETION}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/cmake/cli_docs.py
          --man-template ${CMAKE_SOURCE_DIR}/share/man/stubbench.1.in --man ${SB_MAN_PAGE}
          --completion-template ${CMAKE_SOURCE_DIR}/share/completion/stubbench.bash.in
          --completion ${SB_COMPLETION} ${sb_cli_program_files}
  DEPENDS ${sb_cli_programs} ${CMAKE_SOURCE_DIR}/cmake/cli_docs.py
          ${CMAKE_SOURCE_DIR}/share/man/stubbench.1.in
          ${CMAKE_SOURCE_DIR}/share/completion/stubbench.bash.in
  COMMENT "Man page and bash completion from the option tables"
  VERBATIM)
add_custom_target(cli_docs ALL DEPENDS ${SB_MAN_PAGE} ${SB_COMPLETION})

# counters.cmake: hardware and software counters and Google Benchmark:
# likwid marker regions, perf_event_open through libpfm4 event names (the
# counters part, STUBBENCH_COUNTERS), and the C shim over libbenchmark with
# the stubbench-gbench program (STUBBENCH_GBENCH). Each part is on by
# default and switched off, with one line, when what it needs is missing;
# without the counters part, --counters says it was not built
# (src/counters/counters_off.c) and the marker regions compile to nothing.

if(STUBBENCH_COUNTERS)
  # libpfm4 has no pkg-config file on Debian.
  find_path(SB_PFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h)
  find_library(SB_PFM_LIBRARY pfm)
  if(NOT SB_PFM_INCLUDE_DIR OR NOT SB_PFM_LIBRARY)
    sb_part_off(STUBBENCH_COUNTERS "libpfm4 not found (event names for --counters): apt-get install libpfm4-dev")
  endif()
endif()

# likwid, within the counters part: its package ships likwid-config.cmake;
# the "marker" component adds -DLIKWID_PERFMON.
option(STUBBENCH_LIKWID "likwid marker regions around every sample (likwid-marker.h, -llikwid)" ON)
if(NOT STUBBENCH_COUNTERS)
  set(STUBBENCH_LIKWID OFF)
elseif(STUBBENCH_LIKWID)
  find_package(likwid CONFIG QUIET COMPONENTS marker)
  if(NOT likwid_FOUND OR NOT TARGET likwid::likwid)
    message(STATUS "STUBBENCH_LIKWID off: likwid not found, no marker regions: apt-get install likwid")
    set(STUBBENCH_LIKWID OFF)
  endif()
endif()

if(STUBBENCH_GBENCH)
  # Google Benchmark, only for the shim; nothing else is C++.
  find_package(benchmark 1.7 CONFIG QUIET)
  include(CheckLanguage)
  check_language(CXX)
  if(NOT benchmark_FOUND)
    sb_part_off(STUBBENCH_GBENCH "Google Benchmark not found: apt-get install libbenchmark-dev")
  elseif(NOT CMAKE_CXX_COMPILER)
    sb_part_off(STUBBENCH_GBENCH "no C++ compiler for the Google Benchmark shim: apt-get install g++")
  else()
    enable_language(CXX)
    # The replicas need a non-PIE link (see CMakeLists.txt); the C++ link
    # of stubbench-gbench must get -no-pie too.
    check_pie_supported(LANGUAGES CXX)
  endif()
endif()

# Markers and perf counters: the harness hooks. Without the counters part
# the markers compile to nothing and --counters is refused.
if(STUBBENCH_COUNTERS)
  add_library(stubbench_counters STATIC src/counters/markers.c src/counters/perf_counters.c)
  target_include_directories(stubbench_counters PUBLIC ${SB_PFM_INCLUDE_DIR})
  target_link_libraries(stubbench_counters PUBLIC ${SB_PFM_LIBRARY})
else()
  add_library(stubbench_counters STATIC src/counters/markers.c src/counters/counters_off.c)
endif()
target_include_directories(stubbench_counters PUBLIC ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(stubbench_counters PUBLIC stubbench_core)
if(STUBBENCH_LIKWID)
  target_link_libraries(stubbench_counters PUBLIC likwid::likwid)
else()
  target_include_directories(stubbench_counters PRIVATE ${CMAKE_SOURCE_DIR}/src/counters/no_likwid ${SB_TESTS}/common)
endif()

if(STUBBENCH_GBENCH)
  # The C API over libbenchmark, and stubbench-gbench's benchmarks over it
  # (gbench_variants.h); json-c, which checks --benchmark_out, is linked
  # where report.cmake has found it (CMakeLists.txt).
  add_library(stubbench_gbench_shim STATIC src/gbench/gbench_shim.cpp src/gbench/gbench_variants.c
    src/gbench/gbench_out.c)
  set_target_properties(stubbench_gbench_shim PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON
    CXX_EXTENSIONS OFF)
  target_compile_options(stubbench_gbench_shim PRIVATE -Wall -Wextra)
  target_include_directories(stubbench_gbench_shim PUBLIC ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(stubbench_gbench_shim PUBLIC benchmark::benchmark stubbench_counters)
endif()

# The tests. This file is included before include(CTest), so on the first
# configure BUILD_TESTING is not defined yet: define them at the end of the
# directory instead.
function(sb_counters_tests)
  if(BUILD_TESTING AND STUBBENCH_COUNTERS)
    set(SB_TESTS ${CMAKE_SOURCE_DIR}/tests)

    # --counters=LIST: names through libpfm4, bad lists rejected.
    add_executable(test_counters_parse ${SB_TESTS}/counters/test_counters_parse.c)
    target_include_directories(test_counters_parse PRIVATE ${SB_TESTS}/common)
    target_link_libraries(test_counters_parse PRIVATE stubbench_counters)
    add_test(NAME counters_parse COMMAND test_counters_parse)

    # perf_event_open: hardware events "not supported" without a PMU, software
    # events read, disturbances seen, columns filled.
    add_executable(test_counters_perf ${SB_TESTS}/counters/test_counters_perf.c)
    target_include_directories(test_counters_perf PRIVATE ${SB_TESTS}/common)
    target_link_libraries(test_counters_perf PRIVATE stubbench_counters)
    add_test(NAME counters_perf COMMAND test_counters_perf)

    # Marker regions, built as configured (likwid or not) and without likwid.
    add_executable(test_counters_markers ${SB_TESTS}/counters/test_counters_markers.c)
    target_include_directories(test_counters_markers PRIVATE ${SB_TESTS}/common)
    target_link_libraries(test_counters_markers PRIVATE stubbench_counters)
    add_test(NAME counters_markers COMMAND test_counters_markers)
    add_executable(test_counters_markers_off ${SB_TESTS}/counters/test_counters_markers.c
      ${CMAKE_SOURCE_DIR}/src/counters/markers.c ${CMAKE_SOURCE_DIR}/src/base/error.c)
    target_include_directories(test_counters_markers_off PRIVATE ${CMAKE_SOURCE_DIR}/include
      ${CMAKE_SOURCE_DIR}/src/counters/no_likwid ${SB_TESTS}/common)
    add_test(NAME counters_markers_without_likwid COMMAND test_counters_markers_off)

    # stubbench-gbench: JSON with one benchmark per variant x batch and the
    # cycles counters; bad flags exit 2.
    if(STUBBENCH_GBENCH)
      # The defaults stubbench-gbench adds where the user gave none.
      add_executable(test_gbench_defaults ${SB_TESTS}/gbench/test_gbench_defaults.c)
      target_include_directories(test_gbench_defaults PRIVATE ${SB_TESTS}/common)
      target_link_libraries(test_gbench_defaults PRIVATE stubbench_gbench_shim)
      add_test(NAME gbench_defaults COMMAND test_gbench_defaults)
    endif()
    find_package(Python3 COMPONENTS Interpreter)
    if(Python3_FOUND AND STUBBENCH_GBENCH)
      add_test(NAME counters_gbench_json
        COMMAND ${Python3_EXECUTABLE} ${SB_TESTS}/gbench/counters_gbench_json.py
                $<TARGET_FILE:stubbench-gbench> $<TARGET_FILE:stubbench>)
    endif()
    if(Python3_FOUND)
      # stubbench --counters end to end: "not supported" without a PMU,
      # software events in the JSON, an unknown event exits 2.
      add_test(NAME counters_cli
        COMMAND ${Python3_EXECUTABLE} ${SB_TESTS}/counters/counters_cli.py $<TARGET_FILE:stubbench>)
      # Structure only: every block kept, so a busy host leaves samples.
      set_tests_properties(counters_cli PROPERTIES ENVIRONMENT STUBBENCH_TEST_DISTURB_NONE=1)
    else()
      message(STATUS "python3 not found: counters_gbench_json and counters_cli tests not added (apt-get install python3)")
    endif()
  endif()
endfunction()
cmake_language(DEFER CALL sb_counters_tests)

# counters.cmake: hardware and software counters and Google Benchmark:
# likwid marker regions, perf_event_open through libpfm4 event
# names, the C shim over libbenchmark and the stubbench-gbench program.

# likwid: optional, on by default. Its package ships likwid-config.cmake;
# the "marker" component adds -DLIKWID_PERFMON.
option(STUBBENCH_LIKWID "likwid marker regions around every sample (likwid-marker.h, -llikwid)" ON)
if(STUBBENCH_LIKWID)
  find_package(likwid CONFIG QUIET COMPONENTS marker)
  if(NOT likwid_FOUND OR NOT TARGET likwid::likwid)
    message(FATAL_ERROR "likwid not found: install it with 'apt-get install likwid', "
                        "or configure with -DSTUBBENCH_LIKWID=OFF")
  endif()
endif()

# libpfm4 has no pkg-config file on Debian.
find_path(SB_PFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h)
find_library(SB_PFM_LIBRARY pfm)
if(NOT SB_PFM_INCLUDE_DIR OR NOT SB_PFM_LIBRARY)
  message(FATAL_ERROR "libpfm4 not found (event names for --counters): install it with 'apt-get install libpfm4-dev'")
endif()

# Google Benchmark, only for the shim; nothing else is C++.
find_package(benchmark 1.7 CONFIG QUIET)
if(NOT benchmark_FOUND)
  message(FATAL_ERROR "Google Benchmark not found: install it with 'apt-get install libbenchmark-dev'")
endif()
include(CheckLanguage)
check_language(CXX)
if(NOT CMAKE_CXX_COMPILER)
  message(FATAL_ERROR "no C++ compiler for the Google Benchmark shim: install it with 'apt-get install g++'")
endif()
enable_language(CXX)
# The replicas need a non-PIE link (see CMakeLists.txt); the C++ link of
# stubbench-gbench must get -no-pie too.
check_pie_supported(LANGUAGES CXX)

# Markers and perf counters: the harness hooks.
add_library(stubbench_counters STATIC
  src/counters/markers.c
  src/counters/perf_counters.c
)
target_include_directories(stubbench_counters PUBLIC ${CMAKE_SOURCE_DIR}/include ${SB_PFM_INCLUDE_DIR})
target_link_libraries(stubbench_counters PUBLIC stubbench_core ${SB_PFM_LIBRARY})
if(STUBBENCH_LIKWID)
  target_link_libraries(stubbench_counters PUBLIC likwid::likwid)
endif()

# The C API over libbenchmark.
add_library(stubbench_gbench_shim STATIC src/counters/gbench_shim.cpp)
set_target_properties(stubbench_gbench_shim PROPERTIES CXX_STANDARD 11 CXX_STANDARD_REQUIRED ON
  CXX_EXTENSIONS OFF)
target_compile_options(stubbench_gbench_shim PRIVATE -Wall -Wextra)
target_include_directories(stubbench_gbench_shim PUBLIC ${CMAKE_SOURCE_DIR}/include)
target_link_libraries(stubbench_gbench_shim PUBLIC benchmark::benchmark)

add_executable(stubbench-gbench bench/stubbench_gbench.c)
target_link_libraries(stubbench-gbench PRIVATE stubbench_core stubbench_counters stubbench_gbench_shim)

# The tests. This file is included before include(CTest), so on the first
# configure BUILD_TESTING is not defined yet: define them at the end of the
# directory instead.
function(sb_counters_tests)
  if(BUILD_TESTING)
    set(SB_TESTS ${CMAKE_SOURCE_DIR}/tests)

    # --counters=LIST: names through libpfm4, bad lists rejected.
    add_executable(test_counters_parse ${SB_TESTS}/test_counters_parse.c)
    target_link_libraries(test_counters_parse PRIVATE stubbench_counters)
    add_test(NAME counters_parse COMMAND test_counters_parse)

    # perf_event_open: hardware events "not supported" without a PMU, software
    # events read, disturbances seen, columns filled.
    add_executable(test_counters_perf ${SB_TESTS}/test_counters_perf.c)
    target_link_libraries(test_counters_perf PRIVATE stubbench_counters)
    add_test(NAME counters_perf_event COMMAND test_counters_perf)

    # Marker regions, built as configured (likwid or not) and without likwid.
    add_executable(test_counters_markers ${SB_TESTS}/test_counters_markers.c)
    target_link_libraries(test_counters_markers PRIVATE stubbench_counters)
    add_test(NAME counters_markers COMMAND test_counters_markers)
    add_executable(test_counters_markers_off ${SB_TESTS}/test_counters_markers.c
      ${CMAKE_SOURCE_DIR}/src/counters/markers.c ${CMAKE_SOURCE_DIR}/src/core/error.c)
    target_include_directories(test_counters_markers_off PRIVATE ${CMAKE_SOURCE_DIR}/include)
    add_test(NAME counters_markers_without_likwid COMMAND test_counters_markers_off)

    # stubbench-gbench: JSON with one benchmark per variant x batch and the
    # cycles counters; bad flags exit 2.
    find_package(Python3 COMPONENTS Interpreter)
    if(Python3_FOUND)
      add_test(NAME counters_gbench_json
        COMMAND ${Python3_EXECUTABLE} ${SB_TESTS}/counters_gbench_json.py
                $<TARGET_FILE:stubbench-gbench> $<TARGET_FILE:stubbench>)
      # stubbench --counters end to end: "not supported" without a PMU,
      # software events in the JSON, an unknown event exits 2.
      add_test(NAME counters_cli
        COMMAND ${Python3_EXECUTABLE} ${SB_TESTS}/counters_cli.py $<TARGET_FILE:stubbench>)
    else()
      message(STATUS "python3 not found: counters_gbench_json and counters_cli tests not added (apt-get install python3)")
    endif()
  endif()
endfunction()
cmake_language(DEFER CALL sb_counters_tests)

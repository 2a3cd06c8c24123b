/* likwid-marker.h for builds without the likwid package: the marker macros
 * are empty, as likwid's own header makes them without LIKWID_PERFMON, so
 * markers.c compiles to its no-likwid path. Used only when CMake finds no
 * likwid (cmake/counters.cmake). */
#ifndef LIKWID_MARKER_H
#define LIKWID_MARKER_H
#define LIKWID_MARKER_INIT
#define LIKWID_MARKER_THREADINIT
#define LIKWID_MARKER_SWITCH
#define LIKWID_MARKER_REGISTER(regionTag)
#define LIKWID_MARKER_START(regionTag)
#define LIKWID_MARKER_STOP(regionTag)
#define LIKWID_MARKER_CLOSE
#define LIKWID_MARKER_GET(regionTag, nevents, events, time, count)
#define LIKWID_MARKER_RESET(regionTag)
#endif

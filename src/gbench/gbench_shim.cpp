// gbench_shim.cpp: the C API of gbench_shim.h over libbenchmark. The only
// C++ source of the project; nothing here knows about stubs.
#include "gbench/gbench_shim.h"

#include <benchmark/benchmark.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <regex>
#include <unistd.h>

namespace {

benchmark::State &state_of(struct sb_gbench_state *st)
{
	return *reinterpret_cast<benchmark::State *>(st);
}

const benchmark::State &state_of(const struct sb_gbench_state *st)
{
	return *reinterpret_cast<const benchmark::State *>(st);
}

benchmark::Counter::Flags counter_flags(int flags)
{
	int f = benchmark::Counter::kDefaults;
	if (flags & SB_GBENCH_COUNTER_RATE)
		f |= benchmark::Counter::kIsRate;
	if (flags & SB_GBENCH_COUNTER_AVG_ITERATIONS)
		f |= benchmark::Counter::kAvgIterations;
	if (flags & SB_GBENCH_COUNTER_AVG_THREADS)
		f |= benchmark::Counter::kAvgThreads;
	return static_cast<benchmark::Counter::Flags>(f);
}

/* The value of "--NAME=VALUE" in arg, or nullptr when arg is not that flag. */
const char *flag_value(const char *arg, const char *name)
{
	size_t n = std::strlen(name);
	if (std::strncmp(arg, "--", 2) != 0 || std::strncmp(arg + 2, name, n) != 0 || arg[2 + n] != '=')
		return nullptr;
	return arg + 3 + n;
}

/* The flags libbenchmark 1.7.1 takes on trust, checked first: a negative
 * repetition count aborts it (std::length_error), a regex that does not
 * compile or an unknown format only prints a line and runs nothing with
 * status 0, and a number it cannot parse gets a second, wrong line. */
int check_flag(const char *arg, char *err, size_t errlen)
{
	const char *v;
	if ((v = flag_value(arg, "benchmark_repetitions"))) {
		char *end;
		errno = 0;
		long r = std::strtol(v, &end, 10);
		if (!*v || *end || errno || r < 0 || r > SB_GBENCH_MAX_REPETITIONS) {
			std::snprintf(err, errlen, "--benchmark_repetitions: '%s' is not a whole number from 0 to %d",
				      v, SB_GBENCH_MAX_REPETITIONS);
			return -1;
		}
	} else if ((v = flag_value(arg, "benchmark_min_time"))) {
		char *end;
		errno = 0;
		double t = std::strtod(v, &end);
		if (!*v || *end || errno || !std::isfinite(t) || t < 0 || t > SB_GBENCH_MAX_MIN_TIME_S) {
			std::snprintf(err, errlen, "--benchmark_min_time: '%s' is not a number of seconds from 0 to %g "
				      "(this libbenchmark takes a plain number: 0.5, not 0.5s)",
				      v, SB_GBENCH_MAX_MIN_TIME_S);
			return -1;
		}
	} else if ((v = flag_value(arg, "benchmark_format")) || (v = flag_value(arg, "benchmark_out_format"))) {
		if (std::strcmp(v, "console") && std::strcmp(v, "json") && std::strcmp(v, "csv")) {
			std::snprintf(err, errlen, "%.*s: unknown format '%s' (console, json, csv)",
				      (int)(std::strchr(arg, '=') - arg), arg, v);
			return -1;
		}
	} else if ((v = flag_value(arg, "benchmark_filter"))) {
		/* As the library compiles it: a leading '-' negates, extended syntax. */
		const char *re = *v == '-' ? v + 1 : v;
		try {
			std::regex compiled(re, std::regex::extended);
			(void)compiled;
		} catch (const std::regex_error &e) {
			std::snprintf(err, errlen, "--benchmark_filter: '%s' is not a regular expression: %s", v, e.what());
			return -1;
		}
	} else if ((v = flag_value(arg, "benchmark_out"))) {
		/* Written only after every benchmark ran: check it now, leave no file. */
		int existed = access(v, F_OK) == 0;
		int fd = *v ? open(v, O_WRONLY | O_CREAT | O_CLOEXEC, 0666) : -1;
		if (fd < 0) {
			std::snprintf(err, errlen, "--benchmark_out: cannot write '%s': %s", v,
				      *v ? std::strerror(errno) : "empty file name");
			return -1;
		}
		close(fd);
		if (!existed)
			unlink(v);
	}
	return 0;
}

} // namespace

extern "C" int sb_gbench_register(const char *name, sb_gbench_fn fn, void *ctx,
				  const struct sb_gbench_opts *opts)
{
	struct sb_gbench_opts o = {};
	if (opts)
		o = *opts;
	if (!name || !*name || !fn || o.repetitions < 0 || o.min_time_s < 0 ||
	    o.time_unit < SB_GBENCH_NS || o.time_unit > SB_GBENCH_S)
		return -1;
	try {
		benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
			name, [fn, ctx](benchmark::State &st) {
				fn(reinterpret_cast<struct sb_gbench_state *>(&st), ctx);
			});
		if (o.has_arg) {
			b->Arg(o.arg);
			if (o.arg_name)
				b->ArgName(o.arg_name);
		}
		if (o.repetitions > 0)
			b->Repetitions(o.repetitions);
		if (o.min_time_s > 0)
			b->MinTime(o.min_time_s);
		if (o.manual_time)
			b->UseManualTime();
		static const benchmark::TimeUnit units[] = {benchmark::kNanosecond,
							    benchmark::kMicrosecond,
							    benchmark::kMillisecond, benchmark::kSecond};
		b->Unit(units[o.time_unit]);
	} catch (const std::exception &) {
		return -1;
	}
	return 0;
}

extern "C" int sb_gbench_init(int *argc, char **argv, char *err, size_t errlen)
{
	for (int i = 1; i < *argc; i++)
		if (check_flag(argv[i], err, errlen) != 0)
			return -1;
	benchmark::Initialize(argc, argv);
	if (*argc > 1) {
		if (err && errlen)
			std::snprintf(err, errlen,
				      "unknown argument '%s' (this program takes only --benchmark_* flags; "
				      "see --help)",
				      argv[1]);
		return -1;
	}
	return 0;
}

extern "C" int sb_gbench_add_context(const char *key, const char *value)
{
	if (!key || !*key || !value)
		return -1;
	try {
		benchmark::AddCustomContext(key, value);
	} catch (const std::exception &) {
		return -1;
	}
	return 0;
}

extern "C" size_t sb_gbench_run(void)
{
	size_t n = benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return n;
}

extern "C" int sb_gbench_keep_running(struct sb_gbench_state *st)
{
	return state_of(st).KeepRunning();
}

extern "C" int64_t sb_gbench_arg(const struct sb_gbench_state *st)
{
	return state_of(st).range(0);
}

extern "C" uint64_t sb_gbench_iterations(const struct sb_gbench_state *st)
{
	return static_cast<uint64_t>(state_of(st).iterations());
}

extern "C" void sb_gbench_set_counter(struct sb_gbench_state *st, const char *name, double value,
				      int flags)
{
	state_of(st).counters[name] = benchmark::Counter(value, counter_flags(flags));
}

extern "C" void sb_gbench_set_iteration_time(struct sb_gbench_state *st, double seconds)
{
	state_of(st).SetIterationTime(seconds);
}

extern "C" void sb_gbench_set_items_processed(struct sb_gbench_state *st, int64_t items)
{
	state_of(st).SetItemsProcessed(items);
}

extern "C" void sb_gbench_set_label(struct sb_gbench_state *st, const char *label)
{
	state_of(st).SetLabel(label);
}

extern "C" void sb_gbench_pause_timing(struct sb_gbench_state *st)
{
	state_of(st).PauseTiming();
}

extern "C" void sb_gbench_resume_timing(struct sb_gbench_state *st)
{
	state_of(st).ResumeTiming();
}

extern "C" void sb_gbench_skip_with_error(struct sb_gbench_state *st, const char *msg)
{
	state_of(st).SkipWithError(msg);
}

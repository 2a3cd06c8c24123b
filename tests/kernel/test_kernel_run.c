/* Loader and test runs on the running kernel: every program's counter
 * advances by exactly runs x batch_iters (also with BPF_F_TEST_RUN_ON_CPU),
 * the private and hybrid variants' JIT sets up r9 where the 64-byte stacks
 * are and the baseline's does not, the JIT equals the twins, and unloading
 * leaves no program behind. Exits 77 (ctest SKIP) with the reason where
 * BPF, its JIT, test runs or the private stack are missing. */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "prog_loaded.h"
#include "jit/decode.h"
#include "jit/flavour.h"
#include "kernel/jit_read.h"
#include "kernel/jit_check.h"
#include "kernel/loader.h"
#include "kernel/spacer.h"
#include "kernel/probe.h"
#include "kernel/twin_placement.h"
#include "variants/twin_variants.h"
#include "base/code_symbols.h"
#include "base/perf_map.h"
#include "variants/percpu.h"

#define SKIP 77

static int skip(const char *why)
{
	printf("SKIP: %s\n", why);
	return SKIP;
}

/* Which functions have 64 bytes of stack, so must set up r9. */
static int wants_r9(const char *func)
{
	static const char *const priv[] = {"prog_private", "prog_hybrid", "sub_big", "loop_private",
					   "loop_hybrid"};
	for (size_t i = 0; i < sizeof(priv) / sizeof(priv[0]); i++)
		if (strcmp(func, priv[i]) == 0)
			return 1;
	return 0;
}

/* Returns 1 when some function showed r9 setup (the kernel has the private
 * stack), 0 when none did. */
static int check_jit(const struct sb_kernel_obj *o)
{
	int seen_r9 = 0;
	struct {
		enum sb_kernel_shape s;
		enum sb_kernel_variant v;
		const char *funcs[3];
	} progs[] = {
		{SB_SHAPE_PER_RUN, SB_KV_BASELINE, {"run_baseline", "prog_baseline", "sub_small"}},
		{SB_SHAPE_PER_RUN, SB_KV_PRIVATE, {"run_private", "prog_private", "sub_big"}},
		{SB_SHAPE_PER_RUN, SB_KV_HYBRID, {"run_hybrid", "prog_hybrid", "sub_small"}},
		{SB_SHAPE_IN_LOOP, SB_KV_BASELINE, {"loop_baseline", "sub_small", NULL}},
		{SB_SHAPE_IN_LOOP, SB_KV_PRIVATE, {"loop_private", "sub_big", NULL}},
		{SB_SHAPE_IN_LOOP, SB_KV_HYBRID, {"loop_hybrid", "sub_small", NULL}},
	};
	for (size_t p = 0; p < sizeof(progs) / sizeof(progs[0]); p++) {
		struct sb_jit_image img;
		char err[512];
		int rc = sb_jit_read(sb_kernel_prog_fd(o, progs[p].s, progs[p].v), &img, err, sizeof(err));
		CHECK(rc == 0, "%s", err);
		if (rc)
			continue;
		size_t want_n = progs[p].funcs[2] ? 3 : 2;
		CHECK(img.n == want_n, "%s: %zu JITed functions, expected %zu", img.prog_name, img.n, want_n);
		for (size_t i = 0; i < want_n && i < img.n; i++) {
			const struct sb_jit_func *fn = sb_jit_find(&img, progs[p].funcs[i]);
			CHECK(fn != NULL, "%s: no function %s", img.prog_name, progs[p].funcs[i]);
			if (!fn)
				continue;
			struct sb_listing l;
			if (sb_jit_decode(fn->bytes, fn->len, fn->name, &l, err, sizeof(err))) {
				CHECK(0, "%s", err);
				continue;
			}
			struct sb_jit_flavour f;
			sb_jit_detect_flavour(&l, &f);
			seen_r9 |= f.private_stack;
			sb_listing_free(&l);
		}
		sb_jit_image_free(&img);
	}
	if (!seen_r9)
		return 0;
	/* The kernel has the private stack: exactly the 64-byte functions use it. */
	for (size_t p = 0; p < sizeof(progs) / sizeof(progs[0]); p++) {
		struct sb_jit_image img;
		char err[512];
		if (sb_jit_read(sb_kernel_prog_fd(o, progs[p].s, progs[p].v), &img, err, sizeof(err)))
			continue;
		for (size_t i = 0; i < img.n; i++) {
			struct sb_listing l;
			if (sb_jit_decode(img.funcs[i].bytes, img.funcs[i].len, img.funcs[i].name, &l, err,
					  sizeof(err)))
				continue;
			struct sb_jit_flavour f;
			sb_jit_detect_flavour(&l, &f);
			CHECK(f.private_stack == wants_r9(img.funcs[i].name), "%s.%s: r9 setup %s", img.prog_name,
			      img.funcs[i].name, f.private_stack ? "present but the stack is 8 bytes" : "missing");
			/* Every call of a private-stack function is wrapped in push/pop r9. */
			size_t calls = 0, pushes = 0;
			for (size_t k = 0; k < l.n; k++) {
				calls += l.insns[k].len == 5 && l.insns[k].bytes[0] == 0xe8;
				pushes += l.insns[k].len == 2 && l.insns[k].bytes[0] == 0x41 && l.insns[k].bytes[1] == 0x51;
			}
			CHECK(pushes == (f.private_stack ? calls : 0), "%s.%s: %zu calls, %zu push r9", img.prog_name,
			      img.funcs[i].name, calls, pushes);
			sb_listing_free(&l);
		}
		sb_jit_image_free(&img);
	}
	return 1;
}

/* The twins placed like this load run, count, and sit at the kernel's page
 * offsets. */
/* The imm64 of the first `movabs r9, imm64; add r9, gs:[disp32]` in code,
 * or 0. */
static uint64_t r9_imm(const uint8_t *code, size_t len)
{
	static const uint8_t gs_add[5] = {0x65, 0x4c, 0x03, 0x0c, 0x25};
	for (size_t i = 0; i + 15 <= len; i++)
		if (code[i] == 0x49 && code[i + 1] == 0xb9 && memcmp(code + i + 10, gs_add, 5) == 0) {
			uint64_t imm;
			memcpy(&imm, code + i + 2, 8);
			return imm;
		}
	return 0;
}

/* The twins placed like a load whose programs got private stacks (loaded
 * as perf_event programs, which the kernel may give them): each placed
 * function's private frame sits at the page offset of the kernel's (its
 * movabs r9 re-aimed), and the copies still run and count. */
static void check_placed_frames(const int want[SB_N_KVARIANTS])
{
	char err[512];
	enum sb_kernel_status st;
	struct sb_kernel_obj *pe = sb_kernel_load_as(8, 0, SB_DRIVER_PERF_EVENT, &st, err, sizeof(err));
	if (!pe) {
		printf("test_kernel_run: no perf_event load (%s): placed frames not checked\n", err);
		return;
	}
	int framed = 0;
	for (int s = 0; s < SB_N_SHAPES; s++) {
		struct sb_twin_placement p;
		int rc = sb_twin_place_like(pe, s, want, 2, &p, err, sizeof(err));
		CHECK(rc == 0, "placing %s twins like a perf_event load: %s", sb_kernel_shape_name(s), err);
		if (rc)
			continue;
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			for (size_t f = 0; f < p.n_funcs[v]; f++) {
				if (p.frame_offsets[v][f] < 0)
					continue;
				framed++;
				const struct sb_placed_variant *c = &p.copies[v];
				uint64_t imm = r9_imm((const uint8_t *)c->new_addr[f], c->len[f]);
				unsigned got = imm ? sb_percpu_page_offset((const void *)(uintptr_t)imm) : 4096;
				CHECK(got == (unsigned)p.frame_offsets[v][f], "%s function %zu: frame at page offset %#x, "
				      "the kernel's %#x", c->name, f, got, (unsigned)p.frame_offsets[v][f]);
			}
		for (int v = 0; v < SB_N_KVARIANTS; v++) {
			const struct sb_variant *pv = &p.variants[v];
			uint64_t before = *pv->counter;
			*pv->batch_iters = 10;
			pv->main();
			CHECK(*pv->counter - before == 10, "%s (frames placed): counter advanced by %llu", pv->name,
			      (unsigned long long)(*pv->counter - before));
		}
		sb_twin_placement_free(&p);
	}
	/* Private and hybrid entries, in-loop and per-run, and sub_big of the private ones. */
	printf("test_kernel_run: %d placed private frames at the kernel's page offsets\n", framed);
	CHECK(framed == 0 || framed == 6, "%d placed private frames, want 6 (or none where perf_event gets none)",
	      framed);
	sb_kernel_unload(pe);
}

/* The calls (e8 rel32) of copied function f of c: 1 when every one reaches
 * copied function to, 0 otherwise (or none). */
static int calls_reach(const struct sb_placed_variant *c, size_t f, size_t to)
{
	struct sb_listing l;
	char err[256];
	if (sb_jit_decode((const uint8_t *)c->new_addr[f], c->len[f], c->name, &l, err, sizeof(err)) != 0)
		return 0;
	int calls = 0, reach = 1;
	for (size_t i = 0; i < l.n; i++) {
		const struct sb_insn *in = &l.insns[i];
		if (in->len != 5 || in->bytes[0] != 0xe8)
			continue;
		int32_t rel;
		memcpy(&rel, in->bytes + 1, 4);
		calls++;
		reach &= c->new_addr[f] + in->off + 5 + (intptr_t)rel == c->new_addr[to];
	}
	sb_listing_free(&l);
	return calls > 0 && reach;
}

/* A placed twin is the whole program the kernel runs, laid out like the
 * load: per-run the driver twin, prog and subprog, in-loop the loop and
 * subprog, each at the page offset of the kernel's function of that name,
 * each calling the next copy; the harness calls the entry once with
 * batch_iters set. */
static void check_placed_layout(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v,
				const struct sb_twin_placement *p)
{
	static const char *const progs[SB_N_KVARIANTS] = {"prog_baseline", "prog_private", "prog_hybrid"};
	const char *kprog = sb_kernel_prog_name(s, v);
	const char *funcs[3] = {kprog, s == SB_SHAPE_PER_RUN ? progs[v] : NULL, NULL};
	size_t n = s == SB_SHAPE_PER_RUN ? 3 : 2;
	funcs[n - 1] = v == SB_KV_PRIVATE ? "sub_big" : "sub_small";
	const struct sb_placed_variant *c = &p->copies[v];
	CHECK(p->n_funcs[v] == n && c->n_funcs == n, "%s: %zu functions placed, want %zu", c->name, c->n_funcs, n);
	CHECK(p->variants[v].batch_iters != NULL, "%s: the placed entry reads no batch_iters", c->name);
	const struct sb_function *entry = sb_twin_find(kprog, kprog);
	CHECK(entry && c->old_addr[0] == (uintptr_t)entry->addr, "%s: the copy's entry is not the twin of %s",
	      c->name, kprog);
	struct sb_jit_image img;
	char err[256];
	if (sb_jit_read(sb_kernel_prog_fd(o, s, v), &img, err, sizeof(err)) != 0) {
		CHECK(0, "%s", err);
		return;
	}
	for (size_t f = 0; f < n && f < c->n_funcs; f++) {
		const struct sb_jit_func *kf = sb_jit_find(&img, funcs[f]);
		CHECK(kf && c->new_addr[f] % 4096 == kf->ksym % 4096, "%s function %zu (%s): at page offset %#lx, "
		      "the kernel's %#lx", c->name, f, funcs[f], (unsigned long)(c->new_addr[f] % 4096),
		      kf ? (unsigned long)(kf->ksym % 4096) : 0UL);
		if (f + 1 < n)
			CHECK(calls_reach(c, f, f + 1), "%s function %zu (%s): its calls do not reach the copy of %s",
			      c->name, f, funcs[f], funcs[f + 1]);
	}
	sb_jit_image_free(&img);
}

static void check_placed_twins(const struct sb_kernel_obj *o)
{
	char err[512];
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		CHECK(0, "%s", err);
		return;
	}
	int want[SB_N_KVARIANTS] = {1, 1, 1};
	for (int s = 0; s < SB_N_SHAPES; s++) {
		struct sb_twin_placement p;
		int rc = sb_twin_place_like(o, s, want, 1, &p, err, sizeof(err));
		CHECK(rc == 0, "placing %s twins: %s", sb_kernel_shape_name(s), err);
		if (rc)
			continue;
		for (int v = 0; v < SB_N_KVARIANTS; v++) {
			const struct sb_variant *pv = &p.variants[v];
			check_placed_layout(o, s, v, &p);
			CHECK(p.have[v] && ((uintptr_t)pv->main) % 4096 == p.offsets[v][0],
			      "%s: entry at page offset %#lx, kernel's %#x", pv->name, (unsigned long)((uintptr_t)pv->main % 4096),
			      p.offsets[v][0]);
			uint64_t before = *pv->counter;
			*pv->batch_iters = 100;
			pv->main();
			CHECK(*pv->counter - before == 100, "%s: counter advanced by %llu", pv->name,
			      (unsigned long long)(*pv->counter - before));
			/* perf names the placed entry "<twin symbol>@load1" at its address. */
			const char *sym = NULL;
			size_t len = sb_code_function_size(p.copies[v].old_addr[0], &sym);
			char want_line[256], line[256];
			snprintf(want_line, sizeof(want_line), "%lx %zx %s@load1\n", (unsigned long)(uintptr_t)pv->main, len,
				 sym ? sym : "?");
			int found = 0;
			FILE *map = fopen(sb_perf_map_path(), "r");
			while (map && fgets(line, sizeof(line), map))
				found |= strcmp(line, want_line) == 0;
			if (map)
				fclose(map);
			CHECK(found, "%s: no perf map line '%.*s'", pv->name, (int)strlen(want_line) - 1, want_line);
		}
		sb_twin_placement_free(&p);
	}
	check_placed_frames(want);
	CHECK(sb_percpu_check_guards() == 0, "guard words overwritten by placed twins");
	unlink(sb_perf_map_path());
	sb_percpu_thread_fini();
}

/* The spacer takes about the JITed bytes asked for (five per `r0 = 1`, plus
 * the prologue and exit), and is gone once its fd is closed. */
static void check_spacer(void)
{
	static const size_t sizes[] = {0, 64, 1000, 4096};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int fd = sb_kernel_spacer_load(sizes[i]);
		CHECK(fd >= 0, "spacer of %zu bytes: %s", sizes[i], strerror(fd < 0 ? -fd : 0));
		if (fd < 0)
			continue;
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		memset(&info, 0, sizeof(info));
		CHECK(bpf_obj_get_info_by_fd(fd, &info, &len) == 0, "spacer info: %s", strerror(errno));
		CHECK(info.jited_prog_len + 5 > sizes[i] && info.jited_prog_len < sizes[i] + 64,
		      "spacer of %zu bytes: %u bytes JITed", sizes[i], info.jited_prog_len);
		CHECK(strcmp(info.name, "sb_spacer") == 0, "spacer named '%s'", info.name);
		uint32_t id = info.id;
		close(fd);
		int gone = 0;
		for (int tries = 0; tries < 100 && !gone; tries++) {
			gone = !prog_exists(id);
			if (!gone)
				nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
		}
		CHECK(gone, "spacer id %u still loaded after close", id);
	}
}

int main(void)
{
	char why[512];
	enum sb_kernel_status st = sb_kernel_probe(why, sizeof(why));
	if (st != SB_KERNEL_OK)
		return skip(why);

	/* The seed's fentry shape: one line either way, nothing left loaded. */
	char fwhy[512];
	int fentry = sb_kernel_fentry_available(fwhy, sizeof(fwhy));
	CHECK(strchr(fwhy, '\n') == NULL && strstr(fwhy, "fentry shape") &&
	      (fentry ? strstr(fwhy, "loads on this kernel") != NULL : strstr(fwhy, "not available") != NULL),
	      "fentry line: '%s' (%d)", fwhy, fentry);
	printf("%s\n", fwhy);

	static const uint32_t batches[] = {1, 7, 64};
	static const unsigned runs = 5;
	uint32_t ids[3][SB_N_SHAPES * SB_N_KVARIANTS + 1];
	for (size_t b = 0; b < 3; b++) {
		struct sb_kernel_obj *o = sb_kernel_load(batches[b], b * 1000, &st, why, sizeof(why));
		if (!o) {
			if (st == SB_KERNEL_NO_CAP)
				return skip(why);
			CHECK(0, "load with batch_iters=%u: %s", batches[b], why);
			break;
		}
		CHECK(sb_kernel_batch_iters(o) == batches[b], "batch_iters %u", sb_kernel_batch_iters(o));
		int trc = sb_kernel_test_run(sb_kernel_empty_fd(o), -1);
		if (trc != 0) {
			sb_kernel_unload(o);
			snprintf(why, sizeof(why), "BPF_PROG_TEST_RUN of raw_tp refused: %s", strerror(-trc));
			return skip(why);
		}
		if (b == 0) {
			/* The test hook in the environment: a kernel that gives none. */
			int has_priv = check_jit(o) && !sb_kernel_test_no_private_stack();
			/* The JIT equals the twins of asm/twins_v6_18.asm; a kernel that
			 * gives no private stack has its private and hybrid programs
			 * marked, not compared, and the rest still checked. */
			int all[SB_N_SHAPES] = {1, 1}, want[SB_N_KVARIANTS] = {1, 1, 1};
			int no_priv[SB_N_SHAPES][SB_N_KVARIANTS];
			FILE *devnull = fopen("/dev/null", "w");
			enum sb_kernel_status js = sb_kernel_check_jit(o, all, want, NULL, devnull, no_priv, why,
								       sizeof(why));
			CHECK(js == (has_priv ? SB_KERNEL_OK : SB_KERNEL_NO_PRIV_STACK), "JIT vs twins: %s", why);
			/* The test hook: every private and hybrid program marked. */
			const char *hook = getenv("STUBBENCH_TEST_NO_PRIV_STACK");
			char *saved = hook ? strdup(hook) : NULL;
			setenv("STUBBENCH_TEST_NO_PRIV_STACK", "1", 1);
			js = sb_kernel_check_jit(o, all, want, NULL, devnull, no_priv, why, sizeof(why));
			if (saved)
				setenv("STUBBENCH_TEST_NO_PRIV_STACK", saved, 1);
			else
				unsetenv("STUBBENCH_TEST_NO_PRIV_STACK");
			free(saved);
			fclose(devnull);
			CHECK(js == SB_KERNEL_NO_PRIV_STACK && strstr(why, "run_private.prog_private"),
			      "no private stack (test hook): status %d, %s", js, why);
			for (int s = 0; s < SB_N_SHAPES; s++)
				CHECK(!no_priv[s][SB_KV_BASELINE] && no_priv[s][SB_KV_PRIVATE] && no_priv[s][SB_KV_HYBRID],
				      "%s: marked %d %d %d", sb_kernel_shape_name(s), no_priv[s][0], no_priv[s][1],
				      no_priv[s][2]);
			if (!has_priv)
				printf("test_kernel_run: this kernel gives the private programs no private stack: "
				       "marked, and the rest checked\n");
			check_placed_twins(o);
			check_spacer();
		}
		size_t k = 0;
		for (int s = 0; s < SB_N_SHAPES; s++)
			for (int v = 0; v < SB_N_KVARIANTS; v++) {
				int fd = sb_kernel_prog_fd(o, s, v);
				ids[b][k++] = sb_kernel_prog_id(fd);
				uint64_t before = sb_kernel_hits(o, s, v);
				for (unsigned r = 0; r < runs; r++) {
					/* Alternate: current CPU, then pinned to CPU 0. */
					int rc = sb_kernel_test_run(fd, r % 2 ? 0 : -1);
					CHECK(rc == 0, "%s run %u: %s", sb_kernel_prog_name(s, v), r, strerror(-rc));
				}
				uint64_t got = sb_kernel_hits(o, s, v) - before;
				CHECK(got == (uint64_t)runs * batches[b], "%s, batch_iters %u: counter advanced by %llu, "
				      "expected %u x %u", sb_kernel_prog_name(s, v), batches[b], (unsigned long long)got,
				      runs, batches[b]);
			}
		ids[b][k++] = sb_kernel_prog_id(sb_kernel_empty_fd(o));
		/* Error path: a CPU that does not exist is refused, not run. */
		int bad = sb_kernel_test_run(sb_kernel_empty_fd(o), 4095);
		CHECK(bad < 0, "test run on CPU 4095 succeeded");
		for (size_t i = 0; i < k; i++)
			CHECK(ids[b][i] != 0 && prog_exists(ids[b][i]), "program %zu has no id while loaded", i);
		sb_kernel_unload(o);
		/* Nothing stays loaded (nothing is pinned). */
		for (size_t i = 0; i < k; i++) {
			int gone = 0;
			for (int tries = 0; tries < 100 && !gone; tries++) {
				gone = !prog_exists(ids[b][i]);
				if (!gone)
					nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
			}
			CHECK(gone, "program id %u still loaded after unload", ids[b][i]);
		}
	}
	return check_report("kernel_run");
}

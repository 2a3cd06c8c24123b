/* touch_stack.h: TOUCH_STACK(x, bytes) stores x at fp-bytes and loads it
 * back, so that the function's stack depth is exactly `bytes` for the
 * verifier (whether a v6.13+ kernel gives it a private stack depends on
 * it). Written in asm because clang -O2 places (or drops) a C buffer as it
 * likes: a volatile array of which one element is used is split and lands
 * at fp-8 whatever its size. For the BPF programs of bench/bpf. */
#ifndef STUBBENCH_BPF_TOUCH_STACK_H
#define STUBBENCH_BPF_TOUCH_STACK_H

#define TOUCH_STACK(x, bytes)                                            \
	({                                                               \
		__u64 __v;                                               \
		asm volatile("*(u64 *)(r10 - " #bytes ") = %[in]\n\t"      \
			     "%[out] = *(u64 *)(r10 - " #bytes ")"           \
			     : [out] "=r"(__v)                           \
			     : [in] "r"((__u64)(x))                      \
			     : "memory");                                \
		__v;                                                     \
	})

#endif

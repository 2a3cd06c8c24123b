;; timed_loop.asm: the timing loops, calibration and canary loops.
;;
;; Not replicas: these are the harness. Every loop comes in two timer
;; flavours, chosen once per process by the timer probe (src/timer.c):
;;   _rdtscp:  start "rdtscp; lfence", end "rdtscp; lfence"
;;   _lfence:  start and end "lfence; rdtsc; lfence"
;; The loops own their iteration (dec/jnz), so nothing of the C harness runs
;; inside the timed region. All return elapsed TSC ticks in rax.

bits 64
default rel

%macro TSC_RDTSCP 1              ; %1 = destination register (not rax/rcx/rdx)
    rdtscp
    lfence
    shl rdx, 32
    or rax, rdx
    mov %1, rax
%endmacro

%macro TSC_LFENCE 1
    lfence
    rdtsc
    lfence
    shl rdx, 32
    or rax, rdx
    mov %1, rax
%endmacro

;; The end of every timed region: %1 = the read macro, %2 = the register it
;; reads into, %3 = the register holding the start; the ticks in rax.
%macro TSC_ELAPSED 3
    %1 %2
    mov rax, %2
    sub rax, %3
%endmacro

;; uint64_t sb_timed_calls_<kind>(int (*fn)(void), uint64_t n)
;; Calls fn n times (the stub ABI of asm/jit_macros.inc) between two reads.
%macro DEFINE_TIMED_CALLS 2      ; %1 = name suffix, %2 = read macro
section .text
align 64
global sb_timed_calls_%1:function (sb_timed_calls_%1.end - sb_timed_calls_%1)
sb_timed_calls_%1:
    push rbx
    push r12
    push r13
    push r14
    push r15                     ; 5 pushes: rsp is 16-byte aligned for the calls
    mov rbx, rdi
    mov r12, rsi
    %2 r13
    test r12, r12
    jz .done
align 16
.loop:
    call rbx
    dec r12
    jnz .loop
.done:
    TSC_ELAPSED %2, r14, r13
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbx
    ret
.end:
%endmacro

;; uint64_t sb_timed_round_robin_<kind>(const sb_stub_fn *table, uint64_t n_fns,
;;                                        uint64_t *cursor, uint64_t n)
;; n calls, call k going to table[(*cursor + k) % n_fns]: each call runs
;; the next of n_fns placed copies (stubbench footprint). *cursor is read
;; before and written after the timed region, so successive samples go on
;; round the table.
%macro DEFINE_TIMED_ROUND_ROBIN 2
section .text
align 64
global sb_timed_round_robin_%1:function (sb_timed_round_robin_%1.end - sb_timed_round_robin_%1)
sb_timed_round_robin_%1:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    sub rsp, 8                   ; 6 pushes + 8: rsp 16-byte aligned for the calls
    mov rbx, rdi                 ; table
    mov rbp, rsi                 ; n_fns
    mov r15, rdx                 ; cursor
    mov r12, rcx                 ; calls left
    mov r14, [r15]               ; index of the next copy
    %2 r13
    test r12, r12
    jz .done
align 16
.loop:
    call [rbx + r14*8]
    inc r14
    xor eax, eax
    cmp r14, rbp
    cmovae r14, rax              ; wrap without a branch
    dec r12
    jnz .loop
.done:
    %2 r12
    mov [r15], r14
    mov rax, r12
    sub rax, r13
    add rsp, 8
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
.end:
%endmacro

;; uint64_t sb_timed_dep_adds_<kind>(uint64_t n): n x 64 dependent adds,
;; one core cycle each: ticks -> core cycles calibration. Register operands:
;; recent Intel cores fold "add reg, imm" chains at rename and run several
;; of them per cycle, which would make the core clock look 5-7 times faster.
%macro DEFINE_DEP_ADDS 2
section .text
align 64
global sb_timed_dep_adds_%1:function (sb_timed_dep_adds_%1.end - sb_timed_dep_adds_%1)
sb_timed_dep_adds_%1:
    push rbx
    mov rbx, rdi
    %2 r8
    xor r9d, r9d
    mov r10d, 1
align 16
.loop:
  %rep 64
    add r9, r10
  %endrep
    dec rbx
    jnz .loop
    TSC_ELAPSED %2, r10, r8
    pop rbx
    ret
.end:
%endmacro

;; uint64_t sb_timed_indep_adds_<kind>(uint64_t n): n x 64 adds on 8
;; independent chains: limited by ALU throughput, so a sibling thread or the
;; host sharing the core lowers adds per cycle (the interference canary).
%macro DEFINE_INDEP_ADDS 2
section .text
align 64
global sb_timed_indep_adds_%1:function (sb_timed_indep_adds_%1.end - sb_timed_indep_adds_%1)
sb_timed_indep_adds_%1:
    push rbx
    push r12
    push r13
    push r14
    push r15
    mov rbx, rdi
    %2 r8
    mov ecx, 1
align 16
.loop:
  %rep 8
    add r9, rcx
    add r10, rcx
    add r11, rcx
    add r12, rcx
    add r13, rcx
    add r14, rcx
    add r15, rcx
    add rsi, rcx
  %endrep
    dec rbx
    jnz .loop
    TSC_ELAPSED %2, rdi, r8
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbx
    ret
.end:
%endmacro

;; uint64_t sb_timed_window_<kind>(uint64_t n): n iterations of a chain of
;; 20 dependent imuls (60 cycles on AMD Zen) followed by 160 adds on four
;; chains, 180 instructions an iteration: the next iteration's chain starts
;; only once the out-of-order window holds it, so a window halved (a core
;; that partitions its reorder buffer and queues while a sibling thread
;; runs) takes longer per iteration. The second canary: a sibling that
;; waits on memory leaves the adds' ALUs free but halves the window (on an
;; AMD Zen 1 VM 86.7 cycles an iteration against 77.8, while the arms sat
;; in other steady states and the add canary did not move).
%macro DEFINE_WINDOW 2
section .text
align 64
global sb_timed_window_%1:function (sb_timed_window_%1.end - sb_timed_window_%1)
sb_timed_window_%1:
    push rbx
    mov rbx, rdi
    %2 r8
    mov eax, 3
align 16
.loop:
  %rep 20
    imul rax, rax
  %endrep
  %rep 40
    add r9, 1
    add r10, 1
    add r11, 1
    add rsi, 1
  %endrep
    dec rbx
    jnz .loop
    TSC_ELAPSED %2, rdi, r8
    pop rbx
    ret
.end:
%endmacro

DEFINE_TIMED_CALLS rdtscp, TSC_RDTSCP
DEFINE_TIMED_CALLS lfence, TSC_LFENCE
DEFINE_TIMED_ROUND_ROBIN rdtscp, TSC_RDTSCP
DEFINE_TIMED_ROUND_ROBIN lfence, TSC_LFENCE
DEFINE_DEP_ADDS rdtscp, TSC_RDTSCP
DEFINE_DEP_ADDS lfence, TSC_LFENCE
DEFINE_INDEP_ADDS rdtscp, TSC_RDTSCP
DEFINE_INDEP_ADDS lfence, TSC_LFENCE

;; The overhead stub: the harness's own cost (call, ret, loop, timer reads)
;; is measured by timing it exactly like a main prog.
section .text
align 64
global sb_empty_stub:function (sb_empty_stub.end - sb_empty_stub)
sb_empty_stub:
    xor eax, eax
    ret
.end:

;; void sb_spin(uint64_t n): about n core cycles of dependent work, the
;; random delay before each sample (finer than the TSC's granularity).
align 64
global sb_spin:function (sb_spin.end - sb_spin)
sb_spin:
    test rdi, rdi
    jz .out
.loop:
    dec rdi
    jnz .loop
.out:
    ret
.end:

;; int sb_rdtscp_probe(uint64_t *tsc, uint32_t *aux): executes rdtscp once
;; (the probe runs it under a SIGILL handler).
align 16
global sb_rdtscp_probe:function (sb_rdtscp_probe.end - sb_rdtscp_probe)
sb_rdtscp_probe:
    rdtscp
    shl rdx, 32
    or rax, rdx
    mov [rdi], rax
    mov [rsi], ecx
    xor eax, eax
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits

;; Last in the file, so that the timed loops and the empty stub above keep
;; the addresses they had before it: the overhead arm's steady state follows
;; where that code sits (8.09 cycles an iteration at batch 512 on an AMD
;; Zen 1 VM, 7.6-7.7 with these two placed before the empty stub).
DEFINE_WINDOW rdtscp, TSC_RDTSCP
DEFINE_WINDOW lfence, TSC_LFENCE

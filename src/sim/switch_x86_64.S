/* SPDX-License-Identifier: MIT */
/*
 * switch_x86_64.S — coroutine switch for x86-64 (System V ABI).
 *
 *   void sim_ctx_swap(void **save_sp, void *next_sp);
 *
 * Saves the callee-saved integer registers (rbp rbx r12-r15) on the current
 * stack, stores rsp in *save_sp (rdi), switches to next_sp (rsi), restores
 * the six registers from there and returns on the new stack.  The x87
 * control word and MXCSR are callee-saved too but the simulator never
 * changes them, so they are not saved.
 *
 * A fresh stack (ctx.c: sim_ctx_make) holds, from the stack pointer up:
 * r15 r14 r13 r12=entry rbx=arg rbp=0, then the address of sim_ctx_entry,
 * which calls entry(arg) with a 16-byte aligned stack and traps if it ever
 * returns.
 */
#if defined(__x86_64__) && !defined(SIM_CTX_UCONTEXT)

	.text
	.globl	sim_ctx_swap
	.type	sim_ctx_swap, @function
	.p2align 4
sim_ctx_swap:
	.cfi_startproc
	pushq	%rbp
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	movq	%rsp, (%rdi)
	movq	%rsi, %rsp
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	ret
	.cfi_endproc
	.size	sim_ctx_swap, .-sim_ctx_swap

	.globl	sim_ctx_entry
	.type	sim_ctx_entry, @function
	.p2align 4
sim_ctx_entry:
	.cfi_startproc
	.cfi_undefined rip
	movq	%rbx, %rdi
	callq	*%r12
	ud2
	.cfi_endproc
	.size	sim_ctx_entry, .-sim_ctx_entry

#endif
	.section .note.GNU-stack,"",%progbits

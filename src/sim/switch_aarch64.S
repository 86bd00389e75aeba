/* SPDX-License-Identifier: MIT */
/*
 * switch_aarch64.S — coroutine switch for AArch64 (AAPCS64).
 *
 *   void sim_ctx_swap(void **save_sp, void *next_sp);
 *
 * Saves the callee-saved registers x19-x28, the frame pointer x29, the
 * link register x30 and the low halves d8-d15 of v8-v15 in a 160-byte frame
 * on the current stack, stores sp in *save_sp (x0), switches to next_sp
 * (x1), restores the same frame from there and returns through x30.
 *
 * A fresh stack (ctx.c: sim_ctx_make) holds a zeroed frame with x19 = arg,
 * x20 = entry and x30 = sim_ctx_entry, which calls entry(arg) and traps if
 * it ever returns.
 */
#if defined(__aarch64__) && !defined(SIM_CTX_UCONTEXT)

	.text
	.globl	sim_ctx_swap
	.type	sim_ctx_swap, %function
	.p2align 4
sim_ctx_swap:
	sub	sp, sp, #160
	stp	x19, x20, [sp, #0]
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	x29, x30, [sp, #80]
	stp	d8, d9, [sp, #96]
	stp	d10, d11, [sp, #112]
	stp	d12, d13, [sp, #128]
	stp	d14, d15, [sp, #144]
	mov	x2, sp
	str	x2, [x0]
	mov	sp, x1
	ldp	x19, x20, [sp, #0]
	ldp	x21, x22, [sp, #16]
	ldp	x23, x24, [sp, #32]
	ldp	x25, x26, [sp, #48]
	ldp	x27, x28, [sp, #64]
	ldp	x29, x30, [sp, #80]
	ldp	d8, d9, [sp, #96]
	ldp	d10, d11, [sp, #112]
	ldp	d12, d13, [sp, #128]
	ldp	d14, d15, [sp, #144]
	add	sp, sp, #160
	ret
	.size	sim_ctx_swap, .-sim_ctx_swap

	.globl	sim_ctx_entry
	.type	sim_ctx_entry, %function
	.p2align 4
sim_ctx_entry:
	mov	x0, x19
	blr	x20
	brk	#0x1
	.size	sim_ctx_entry, .-sim_ctx_entry

#endif
	.section .note.GNU-stack,"",%progbits

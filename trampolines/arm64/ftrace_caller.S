// ftrace_caller for Linux arm64 with DYNAMIC_FTRACE_WITH_CALL_OPS and
// DYNAMIC_FTRACE_WITH_DIRECT_CALLS (arch/arm64/kernel/entry-ftrace.S,
// v6.3 and later), written from what it does. A traced function,
// compiled with -fpatchable-function-entry=4,2 and 8-byte aligned, is
//
//	F - 8:	.quad	<struct ftrace_ops *>	// the literal ftrace keeps
//	F:	[bti c]				// arm64-bti kernels only
//		mov	x9, x30			// x9 = the caller's lr
//		bl	ftrace_caller		// x30 = F + 8 (F + 12 with bti)
//
// so ALIGN_DOWN(x30, 8) - 16 is the literal in both layouts. Offsets
// (asm-offsets.c for v6.6, defconfig: struct mutex of 32 bytes):
//   FTRACE_OPS_FUNC        = 0    ops->func, the first member
//   FTRACE_OPS_DIRECT_CALL = 184  ops->direct_call, after ops_func
//   struct ftrace_regs (FREGS_SIZE 112): x0..x8 at 0..64,
//   direct_tramp 72, fp 80, lr 88, sp 96, pc 104;
//   the frame is FREGS_SIZE + 32: two frame records above the regs.
// Contract: ftrace_caller.toml; proof: docs/trampolines.md.
ftrace_caller:
	bti	c			// a landing pad; a BL needs none, an indirect call would
	bic	x11, x30, #7		// the literal, whichever layout
	ldr	x11, [x11, #-16]	// ops
	ldr	x17, [x11, #184]	// ops->direct_call
	cbnz	x17, 2f			// a direct trampoline: no registers saved
	mov	x10, sp			// F's sp
	sub	sp, sp, #144
	stp	x0, x1, [sp]		// F's arguments, for the tracer and for us
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	str	x8, [sp, #64]
	str	xzr, [sp, #72]		// direct_tramp: none unless a tracer sets one
	str	x29, [sp, #80]		// F's fp, lr, sp and where F resumes
	str	x9, [sp, #88]
	str	x10, [sp, #96]
	str	x30, [sp, #104]
	stp	x29, x9, [sp, #128]	// a frame record for F ...
	add	x29, sp, #128
	stp	x29, x30, [sp, #112]	// ... and one for us, so unwinding works
	add	x29, sp, #112
	sub	x0, x30, #4		// ip: the BL in F
	mov	x1, x9			// parent ip: F's return address
	mov	x2, x11			// ops
	mov	x3, sp			// fregs
	ldr	x4, [x2]		// ops->func
	blr	x4
	ldp	x0, x1, [sp]		// the call may have changed every argument register
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldr	x8, [sp, #64]
	ldr	x29, [sp, #80]
	ldr	x17, [sp, #72]		// a tracer asked for a direct trampoline
	cbnz	x17, 1f
	ldr	x30, [sp, #88]		// F's lr back
	ldr	x9, [sp, #104]		// where F resumes
	add	sp, sp, #144
	ret	x9
1:	ldr	x9, [sp, #88]		// the direct trampolines' convention:
	ldr	x30, [sp, #104]		// x9 = F's lr, x30 = where F resumes
	add	sp, sp, #144
2:	br	x17			// x17: a BTI C landing pad accepts it

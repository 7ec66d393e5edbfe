// Bug: never sets x2, so the tracer gets F's third argument as its ops.
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
	mov	x3, sp			// fregs
	ldr	x4, [x11]
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
